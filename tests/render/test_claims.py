"""The claims ledgers as the pages show them: every claim's row, the chapter tables, one claim as a sentence, each
rule in words, the Hopper ledger."""

from __future__ import annotations

import re

import pytest

import ascend_dsa as r
from ascend_dsa.errors import FigureMismatch
from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.render.claims import chapter_title, render_hopper_claims, rule_text
from ascend_dsa.report.claims import CLAIMS
from ascend_dsa.report.rules import ClaimContext, Rule, RuleKind


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_ledger_lists_every_claim(lang: str) -> None:
    """The ledger has one row per claim, each with its id and a passing status."""
    text = r.render_claim_ledger(lang=lang)  # type: ignore[arg-type]
    for c in CLAIMS:
        assert f"`{c.claim_id}`" in text
    assert text.count('class="ascend-status ascend-status--agrees"') == len(CLAIMS)


def test_ledger_checks_before_rendering() -> None:
    """With a different clock the ledger raises instead of printing."""
    with pytest.raises(FigureMismatch, match="prefill-percent-of-peak"):
        r.render_claim_ledger(ClaimContext(spec=ASCEND_950.with_overrides(clock_hz=1.6e9)))


def test_ledger_without_check_shows_failures() -> None:
    """check=False prints failing claims with a cross, for what-if pages."""
    text = r.render_claim_ledger(ClaimContext(spec=ASCEND_950.with_overrides(clock_hz=1.6e9)), lang="en", check=False)
    assert '<span class="ascend-status ascend-status--differs">differs</span>' in text


def test_chapter_table_and_single_claim() -> None:
    """A chapter's table holds only its claims; a single claim reads as a sentence with ours and theirs."""
    text = r.render_chapter_claims("optimizations/icache", lang="en")
    assert len(re.findall(r"^\| line 238", text, flags=re.MULTILINE)) == 3
    sentence = r.render_claim("fixpipe-break-even-b-topk", lang="en")
    assert "73.1429" in sentence
    assert "73.14 tokens" in sentence
    assert "report (zh) line 142" in sentence


def test_unknown_language() -> None:
    """An unknown language is rejected."""
    with pytest.raises(ValueError, match="lang"):
        r.render_claim_ledger(lang="fr")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kind", "decimals", "zh", "en"),
    [
        (RuleKind.ROUNDED, -3, "我们的值四舍五入到 1000 的整数倍", "ours rounded to the nearest 1000"),
        (RuleKind.PERCENT, -1, "我们的比例四舍五入到 10 的整数倍百分比", "ours as a percent to the nearest 10"),
        (RuleKind.ROUNDED, 2, "我们的值四舍五入到 2 位小数", "ours rounded to 2 decimals"),
        (RuleKind.PERCENT, 0, "我们的比例四舍五入到整数百分比", "ours rounded to a whole percent"),
    ],
)
def test_rule_text_names_the_step_of_negative_decimals(kind: RuleKind, decimals: int, zh: str, en: str) -> None:
    """A ledger row's rule says "the nearest 1000", not "-3 decimals", in both languages."""
    rule = Rule(kind, decimals=decimals)
    assert (rule_text(rule, "zh"), rule_text(rule, "en")) == (zh, en)


def test_hopper_ledger_shows_rounded_claims_raw() -> None:
    """The Hopper ledger prints 3,196.8780 tokens and 989.4298 TFLOPS, the rounding in the rule column."""
    text = render_hopper_claims(lang="en")
    row = next(line for line in text.splitlines() if "`sparse-dense-break-even-tokens`" in line)
    assert "3,196.8780 tokens" in row
    assert "ours rounded to the nearest 1000" in row
    row = next(line for line in text.splitlines() if "`h800-nominal-peak-tflops`" in line)
    assert "989.4298 TFLOPS" in row


def test_chapter_titles_are_the_registrys() -> None:
    """A claims table's chapter title is its registry record's, for any ledger's chapter, in the page's language."""
    assert chapter_title("pipeline", "zh") == "流水线"
    assert chapter_title("discussion/two-chips", "en") == "Two chips, one ruler"
    with pytest.raises(ValueError, match=r"^chapter must be a page of the site such as 'pipeline', got 'pipe'$"):
        chapter_title("pipe", "en")
