import re

import pytest

import ascend_dsa as r
from ascend_dsa.errors import FigureMismatch
from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.render.claims import chapter_title, render_hopper_claims, rule_text
from ascend_dsa.render.format import with_unit
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


def test_fixpipe_table_rows() -> None:
    """The FixPipe table: 64 is FixPipe-bound with O every block (1024 vs 1152) and MMA-bound with P only (128)."""
    text = r.render_fixpipe_table(lang="en")
    assert "| 64 | 1024 | 1152 | FixPipe-bound | 128 | MMA-bound |" in text
    assert "| 73 | 1168 | 1170 | FixPipe-bound |" in text
    assert "| 74 | 1184 | 1172 | MMA-bound |" in text
    assert "73.1429" in text


def test_peak_table() -> None:
    """94.79% and 83.23% of 432.54 TFLOPS, with the cycles per block each implies."""
    text = r.render_peak_table(lang="en")
    assert "94.79 %" in text
    assert "83.23 %" in text
    assert "432.54" in text
    assert "1080.3" in text
    assert "1230.3" in text


def test_peak_clock_range() -> None:
    """The two rounded percentages only hold together for 1.6447-1.6551 GHz."""
    assert "1.6447-1.6551 GHz" in r.render_peak_clock_table(lang="en")


def test_l0c_and_identity_tables() -> None:
    """L0C: 256 KiB fills it at 128 heads, 144 KiB at 64; the identity rescale costs 8192 cycles, 8 blocks' MMA."""
    assert "| 144 KiB | 56.2 % |" in r.render_l0c_budget(lang="en")
    identity = r.render_identity_rescale(lang="en")
    assert "| 256 | 8192 | 8.00 × |" in identity
    assert "| 4096 | 512 | 0.50 × |" in identity


def test_nd2nz_banks_table() -> None:
    """No padding: one slot for all 8 blocks; one padded row: slots 0..7."""
    text = r.render_nd2nz_banks(lang="en")
    assert "| 0 0 0 0 0 0 0 0 | 8 |" in text
    assert "| 0 1 2 3 4 5 6 7 | 1 |" in text


def test_fp8_roofline() -> None:
    """FP8 KV (528 B/token) at 64 heads: 4239 and 7094 L2 cycles."""
    text = r.render_fp8_roofline(lang="en")
    assert "| 4239 |" in text
    assert "| 7094 |" in text


def test_schedule_tables() -> None:
    """The VECTOR schedule lists seven steps; the CUBE order shows the 1024-cycle slack."""
    assert r.render_vector_schedule(lang="en").count('ascend-status--agrees">agrees</span>') == 7
    assert "= 1024 cycles" in r.render_cube_order(lang="en")
    assert "1 step in 10" in r.render_schedule_order_share(lang="en")


def test_gather2_halves_the_requests() -> None:
    """32 tokens per VECTOR Core: 32 single-token requests (two queues' worth) or 16 gather2 requests (one)."""
    text = r.render_gather2_requests(lang="en")
    assert "| 1 token per request | 1 | 32 | 32 | 16 | 16 | 2 × |" in text
    assert "| gather2 | 2 | 32 | 16 | 16 | 32 | 1 × |" in text


def test_b_topk_divisibility() -> None:
    """96 leaves 64 of 640 indices over."""
    assert "640 mod 96 = 64" in r.render_b_topk_divisibility(lang="en")


@pytest.mark.parametrize(
    "render",
    [
        r.render_mte2_in_flight,
        r.render_skip_scale_savings,
        r.render_token_blocks,
        r.render_rescale_threshold,
        r.render_cube_order,
    ],
)
def test_tables_in_both_languages(render: object) -> None:
    """Each table renders in both languages with the same number of rows."""
    zh, en = render(lang="zh"), render(lang="en")  # type: ignore[operator]
    assert zh.count("\n|") == en.count("\n|")
    assert zh != en


def test_design_override_reaches_tables() -> None:
    """A what-if design that breaks a claim makes the table raise rather than show it."""
    with pytest.raises(FigureMismatch, match="softmax-slack-cycles"):
        r.render_cube_order(ClaimContext(config=SHIPPED_KERNEL.with_overrides(b_topk=128)))


def test_unknown_language() -> None:
    """An unknown language is rejected."""
    with pytest.raises(ValueError, match="lang"):
        r.render_claim_ledger(lang="fr")  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_accumulator_ub_share_rows(lang: str) -> None:
    """Four rows (64 and 128 heads over one and two cores); only 128 heads on one core leaves no room."""
    text = r.render_accumulator_ub_share(lang=lang)  # type: ignore[arg-type]
    assert len(re.findall(r"^\| (64|128) \|", text, flags=re.MULTILINE)) == 4
    assert re.search(r"^\| 128 \| 1 \| 256 KiB \| 100 % \|", text, flags=re.MULTILINE)


def test_accumulator_ub_share_checks_first() -> None:
    """A UB twice as large breaks the line 116 claim, and the table raises instead of printing."""
    with pytest.raises(FigureMismatch, match="accumulator-vector-cores-at-128-heads"):
        r.render_accumulator_ub_share(ClaimContext(spec=ASCEND_950.with_overrides(staging_bytes_per_core=2**19)))


def test_units_follow_the_language_and_the_count() -> None:
    """One row is "1 row" in English; Chinese pages count in Chinese (5 块)."""
    assert with_unit("1", 1, "rows", "en") == "1 row"
    assert with_unit("5", 5, "blocks", "en") == "5 blocks"
    assert with_unit("5", 5, "blocks", "zh") == "5 块"
    assert with_unit("64", 64, "heads", "zh") == "64 个 head"
    assert with_unit("8", 8, "", "zh") == "8"


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
