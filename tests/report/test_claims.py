import re
from fractions import Fraction
from pathlib import Path

import pytest

from ascend_dsa.errors import FigureMismatch
from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.facts.report_figures import PUBLISHED_FIGURES, head_roofline_figures, published_figure
from ascend_dsa.facts.report_lines import REPORT_LINES, ReportLine, StatedNumber
from ascend_dsa.report.claims import (
    CLAIMS,
    check_claims,
    check_report_lines,
    claim,
    evaluate_claims,
    report_line_gaps,
    select_claims,
)
from ascend_dsa.report.rules import CHAPTERS, SHIPPED_CONTEXT, ClaimContext, Rule, RuleKind, normalise
from tests.helpers.figures import Step, replace_figure


def test_every_claim_passes_on_the_shipped_design() -> None:
    """All claims agree with the report for the Ascend 950 and the shipped kernel."""
    results = check_claims()
    assert len(results) == len(CLAIMS)
    assert all(r.passed for r in results)


def test_ids_are_unique_kebab_case() -> None:
    """Claim ids are unique, stable kebab-case names."""
    ids = [c.claim_id for c in CLAIMS]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", i) for i in ids)


def test_every_published_figure_is_used() -> None:
    """Each published figure is compared by some claim or feeds one as an input."""
    used = {c.figure_key for c in CLAIMS} | {i for c in CLAIMS for i in c.inputs}
    keys = {f.key for f in (*PUBLISHED_FIGURES, *head_roofline_figures())}
    assert keys == used


CLAIM_LINES = (5, 43, 45, 57, 67, 85, 88, 89, 90, 91, 94, 95, 96, 97, 98, 100, 104, 111, 114, 116, 126, 138, 142)
CLAIM_LINES_LATER = (144, 150, 152, 168, 176, 178, 184, 188, 192, 200, 216, 220, 226, 228, 232, 238, 242)


@pytest.mark.parametrize("line", [*CLAIM_LINES, *CLAIM_LINES_LATER])
def test_every_quantitative_report_line_has_a_claim(line: int) -> None:
    """Every report (zh) line with a quantitative claim (the lines above) is listed with claims checking it."""
    assert any(entry.line.line == line and entry.claims for entry in check_report_lines())


def test_chapters_cover_claims() -> None:
    """Every claim belongs to a known chapter and every chapter in CHAPTERS has a claim."""
    assert {c.chapter for c in CLAIMS} == set(CHAPTERS)


def test_percent_rule_rounds() -> None:
    """94.79% rounds to 95 but not to 94."""
    rule = Rule(RuleKind.PERCENT)
    assert rule.holds(0.9479, 95)
    assert not rule.holds(0.9479, 94)


def test_rounded_rule() -> None:
    """73.142857 rounded to 2 decimals is 73.14."""
    assert Rule(RuleKind.ROUNDED, decimals=2).holds(1024 / 14, 73.14)
    assert not Rule(RuleKind.ROUNDED, decimals=2).holds(1024 / 14, 73.15)


def test_rounded_rule_broadcasts_a_single_value() -> None:
    """Each of ours, rounded to the report's digits, must equal a single published value (line 114's "balanced")."""
    rule = Rule(RuleKind.ROUNDED)
    assert rule.holds((1.18, 1.32), 1)
    assert not rule.holds((1.18, 1.6), 1)
    assert not rule.holds((1.18, 1.32), 2)


def test_rules_compare_the_stated_value_only() -> None:
    """Only exact and rounding rules exist: no rule lets a published value move while ours stays."""
    assert {k.value for k in RuleKind} == {"exact", "rounded", "percent"}


def test_shape_mismatch_fails() -> None:
    """Tuples of different lengths never agree."""
    assert not Rule(RuleKind.ROUNDED).holds((1, 2), (1, 2, 3))


def test_normalise_fractions() -> None:
    """Whole fractions become ints, others floats, recursively."""
    assert normalise((Fraction(4, 2), Fraction(1, 4))) == (2, 0.25)
    assert isinstance(normalise(Fraction(8192)), int)


def test_mismatch_names_claim_line_ours_and_theirs() -> None:
    """A slower clock fails the peak claims; the message names the id, the line, ours and the report's value."""
    design = ClaimContext(spec=ASCEND_950.with_overrides(clock_hz=1.7e9))
    with pytest.raises(FigureMismatch) as caught:
        check_claims(design, chapter="index")
    message = str(caught.value)
    assert "claim prefill-percent-of-peak (report (zh) line 5): ours 92.00%, report 95" in message
    assert "claim decode-percent-of-peak" in message


def test_mismatch_carries_each_claim_as_fields() -> None:
    """The error lists each failing claim as fields (what, report line, ours, theirs) for an error box to show."""
    design = ClaimContext(spec=ASCEND_950.with_overrides(clock_hz=1.7e9))
    with pytest.raises(FigureMismatch) as caught:
        check_claims(design, chapter="index")
    first = caught.value.mismatches[0]
    assert (first.subject, first.citation, first.ours) == (
        "claim prefill-percent-of-peak",
        "report (zh) line 5",
        "92.00%",
    )
    assert first.theirs.startswith("95")
    assert len(caught.value.mismatches) == str(caught.value).count("claim ")


def test_fixpipe_rate_change_fails_break_even() -> None:
    """Doubling the FixPipe rate moves the break-even below 73.14 and the ledger says so."""
    design = ClaimContext(spec=ASCEND_950.with_overrides(fixpipe_bytes_per_cycle_1c1v=256))
    failing = {r.claim.claim_id for r in evaluate_claims(design) if not r.passed}
    assert {"fixpipe-break-even-b-topk", "fixpipe-cycles-formula", "fixpipe-bytes-per-cycle-1c1v"} <= failing


def test_b_topk_128_breaks_offsets_not_choices() -> None:
    """B_TOPK = 128 is not one of '64 or 96' and doubles the softmax slack."""
    design = ClaimContext(config=SHIPPED_KERNEL.with_overrides(b_topk=128))
    failing = {r.claim.claim_id for r in evaluate_claims(design) if not r.passed}
    assert {"b-topk-choices", "softmax-slack-cycles"} <= failing


def test_select_by_chapter_and_ids() -> None:
    """Selection by chapter, and by id, returns those claims only."""
    assert {c.claim_id for c in select_claims("optimizations/icache")} == {
        "icache-cube",
        "icache-vector",
        "icache-simd-vf",
    }
    assert [c.claim_id for c in select_claims(ids=["l1-bank-ranges"])] == ["l1-bank-ranges"]
    with pytest.raises(ValueError, match="chapter"):
        select_claims("nowhere")
    with pytest.raises(ValueError, match="claim_id"):
        claim("no-such-claim")


def test_shipped_design_is_default() -> None:
    """Evaluating without a design uses the Ascend 950 and the shipped kernel."""
    assert SHIPPED_CONTEXT.spec is ASCEND_950
    assert SHIPPED_CONTEXT.config is SHIPPED_KERNEL


def test_larger_ub_fails_the_accumulator_claim() -> None:
    """A UB twice as large lets one VECTOR Core hold the 128-head accumulator, and the line 116 claim says so."""
    design = ClaimContext(spec=ASCEND_950.with_overrides(staging_bytes_per_core=512 * 1024))
    failing = {r.claim.claim_id for r in evaluate_claims(design) if not r.passed}
    assert "accumulator-vector-cores-at-128-heads" in failing


def test_copies_per_token_claim() -> None:
    """Line 220: two MTE2 copies per token with data and scales apart, one with them adjacent."""
    assert claim("mte2-copies-per-token").ours() == (2, 1)
    assert claim("mte2-copies-per-token").chapter == "optimizations/kv-cache-layout"


@pytest.mark.parametrize("chapter", ["discussion/accumulator", "optimizations/kv-cache-layout"])
@pytest.mark.parametrize("suffix", [".md", ".en.md"])
def test_new_claims_are_rendered_on_their_pages(chapter: str, suffix: str) -> None:
    """The pages holding the line 116 and line 220 claims render their chapter's claims, in both languages."""
    page = Path(__file__).resolve().parents[2] / "docs" / f"{chapter}{suffix}"
    assert f'render_chapter_claims("{chapter}"' in page.read_text(encoding="utf-8")


def test_every_listed_report_number_has_a_claim_and_every_claim_a_line() -> None:
    """The list of report lines and the ledger agree: no listed number unchecked, no claim on an unlisted line."""
    assert report_line_gaps() == ()
    assert [entry.line.line for entry in check_report_lines()] == [line.line for line in REPORT_LINES]


def test_report_line_gaps_name_each_kind_of_gap() -> None:
    """A number with no figure, a number its figure does not hold, and a claim whose line is not listed."""
    lines = (
        ReportLine(5, (StatedNumber("410", 410, "no-such-figure"), StatedNumber("95%", 96, "prefill-percent-of-peak"))),
    )
    gaps = "\n".join(report_line_gaps(lines))
    assert "names no published figure ('no-such-figure')" in gaps
    assert "figure prefill-percent-of-peak is 95" in gaps
    assert "claim l1-bank-ranges cites report (zh) line 242, which lists no number of its figure" in gaps
    with pytest.raises(FigureMismatch, match="not checked"):
        check_report_lines(lines)


def test_the_issue_lines_are_listed() -> None:
    """The 17 lines found unchecked (issue 16) each list their numbers, and claims check them."""
    listed = {line.line for line in REPORT_LINES}
    assert {45, 85, 88, 89, 90, 91, 94, 95, 96, 97, 98, 100, 144, 150, 176, 178, 226} <= listed


SHARE_CLAIMS = {
    "prefill-share-of-pipeline-bound": "prefill-percent-of-peak",
    "decode-share-of-pipeline-bound": "decode-percent-of-peak",
}


@pytest.mark.parametrize(("claim_id", "figure_key"), SHARE_CLAIMS.items())
def test_share_of_the_pipeline_bound_compares_the_percent_of_peak(claim_id: str, figure_key: str) -> None:
    """Measured over the model's bound: a pipeline chapter claim compared with the report's percent of peak."""
    (result,) = check_claims(ids=(claim_id,))
    assert result.claim.chapter == "pipeline"
    assert result.claim.figure_key == figure_key
    assert result.figure.key == figure_key
    assert result.passed
    assert claim(figure_key).ours() == pytest.approx(result.ours)  # the model's bound is the peak as shipped


@pytest.mark.parametrize(("claim_id", "figure_key"), SHARE_CLAIMS.items())
@pytest.mark.parametrize("delta", [-1, 1])
def test_a_one_digit_move_of_the_percent_fails_the_share_claim(
    monkeypatch: pytest.MonkeyPatch, claim_id: str, figure_key: str, delta: int
) -> None:
    """The report's 95% or 83% moved by one: check_claims raises naming the share-of-bound claim, on the page too."""
    figure = published_figure(figure_key)
    replace_figure(monkeypatch, PUBLISHED_FIGURES, Step(figure_key, 0, figure.value + delta))
    with pytest.raises(FigureMismatch, match=f"claim {claim_id} "):
        check_claims(chapter="pipeline")


@pytest.mark.parametrize("claim_id", SHARE_CLAIMS)
def test_the_share_claim_fails_when_the_model_lets_the_cube_wait(claim_id: str) -> None:
    """With a tenth of the L2 bandwidth the model's bound falls, so the measured share no longer is the report's."""
    spec = ASCEND_950.with_overrides(bandwidth_bytes_per_s=ASCEND_950.bandwidth_bytes_per_s / 10)
    (result,) = evaluate_claims(ClaimContext(spec=spec), ids=(claim_id,))
    assert not result.passed
