"""The Hopper ledger's claims compare raw values by stated rules, and each can fail (issue 31 items 5-7).

A claim shows our value as computed and leaves the rounding to its rule, as the report's ledger does
(tests/report/test_rule_boundaries.py pins those); a claim whose value cannot move with its inputs checks nothing.
"""

from __future__ import annotations

import pytest

from ascend_dsa.facts.hopper import H800, H800_THROTTLED_CLOCK_HZ
from ascend_dsa.facts.hopper_figures import hopper_figure
from ascend_dsa.facts.provenance import Citation
from ascend_dsa.report import ledger_hopper
from ascend_dsa.report.claims import claim, evaluate_claims
from ascend_dsa.report.ledger_hopper import HOPPER_CLAIMS
from ascend_dsa.report.rules import EXACT, RuleKind
from ascend_dsa.units import TB

#: Every Hopper claim whose rule is not exact, with the rule the published digits support: "8.72 GiB" and "3.35 TB/s"
#: have two decimals; "≈ 34", "≈ 50", "989", "~865" and "≈ 2" are whole; "990 TFlops" (dense blog line 13) is 989.43
#: to the nearest ten, "around 3000" (FP8 blog line 52) a count to the nearest thousand, and "up to 80%" (dense blog
#: line 57) a percent to the nearest ten.
HOPPER_LEDGER_RULES = {
    "h800-kv-cache-128k-gib": (RuleKind.ROUNDED, 2),
    "h800-peak-tflops": (RuleKind.ROUNDED, 0),
    "mma-cycles-per-token-64-heads": (RuleKind.ROUNDED, 0),
    "dequant-cycles-per-token": (RuleKind.ROUNDED, 0),
    "sparse-dense-break-even-tokens": (RuleKind.ROUNDED, -3),
    "compute-memory-ratio-factor": (RuleKind.ROUNDED, 0),
    "h800-hbm-tb-per-s": (RuleKind.ROUNDED, 2),
    "h800-nominal-peak-tflops": (RuleKind.ROUNDED, -1),
    "h800-throttled-peak-tflops": (RuleKind.ROUNDED, 0),
    "dense-tensor-core-utilisation": (RuleKind.PERCENT, -1),
}


def _ours(claim_id: str) -> object:
    (result,) = evaluate_claims(ids=(claim_id,), source="hopper")
    assert result.passed, result.describe()
    return result.ours


def test_every_hopper_rule_is_the_pinned_one() -> None:
    """No Hopper claim rounds inside its value and compares exactly: every rounding is a rule, pinned here."""
    rules = {c.claim_id: (c.rule.kind, c.rule.decimals) for c in HOPPER_CLAIMS if c.rule != EXACT}
    assert rules == HOPPER_LEDGER_RULES


def test_break_even_shows_the_raw_tokens_with_the_fp8_blogs_own_dense_peak() -> None:
    """2048 x 640 / 410 = 3196.88 tokens, shown raw.

    FP8 blog line 52 ("From another perspective ... the dense decoding kernel") continues line 50's comparison with
    "the 640 TFLOPS peak of our previous bfloat16 dense decoding kernel": the blog's own 640, not the README's 660.
    """
    topk = hopper_figure("sparse-decode-shape").value[3]  # type: ignore[index]
    expected = topk * hopper_figure("fp8-blog-dense-peak-tflops").value / hopper_figure("sparse-decode-tflops").value
    assert _ours("sparse-dense-break-even-tokens") == pytest.approx(expected)
    assert expected == pytest.approx(3196.88, abs=0.01)
    assert "fp8-blog-dense-peak-tflops" in claim("sparse-dense-break-even-tokens", "hopper").inputs


def test_nominal_peak_shows_989_point_43() -> None:
    """The dense blog's "990 TFlops" is compared with 4096 x 1830 MHz x 132 SMs = 989.43, not with 990 typed in."""
    assert _ours("h800-nominal-peak-tflops") == pytest.approx(989.43, abs=0.005)


@pytest.mark.parametrize("published", [70, 90, 76])
def test_rounded_rules_can_fail(published: int) -> None:
    """The utilisation claim (76.29 %) fails against 70 or 90 %, and against 76 % typed to a whole percent."""
    result = claim("dense-tensor-core-utilisation", "hopper")
    assert not result.rule.holds(result.ours(), published)


def test_crossover_share_can_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """The blog's "half" is 64 of the 128 heads per CTA (FP8 blog line 31): with 32 heads per CTA the claim fails.

    It used to divide the model's dequantisation cycles with two sharing CTAs by those with one: 1/2 whatever the
    inputs.
    """
    monkeypatch.setattr(ledger_hopper, "HOPPER_HEADS_PER_CTA", 32)
    (result,) = evaluate_claims(ids=("crossover-dequant-share",), source="hopper")
    assert result.ours == 0.25
    assert not result.passed
    assert result.claim.inputs == ("hopper-heads-per-cta",)


@pytest.mark.parametrize(
    ("key", "value", "unit", "written"),
    [
        (
            "dense-tensor-core-utilisation",
            80,
            "%",
            "up to 80% Tensor Core utilization (of the throttled theoretical peak)",
        ),
        ("dense-achieved-tb-per-s", 3, "TB/s", "3 TB/s memory bandwidth"),
    ],
)
def test_dense_blog_line_57_figures(key: str, value: float, unit: str, written: str) -> None:
    """The dense blog's utilisation and bandwidth are published Hopper figures cited at its line 57."""
    figure = hopper_figure(key)
    assert (figure.value, figure.unit, figure.written) == (value, unit, written)
    assert isinstance(figure.citation, Citation)
    assert figure.citation.path == "docs/20250422-new-kernel-deep-dive.md"
    assert (figure.citation.first_line, figure.citation.last_line) == (57, 57)


def test_utilisation_is_660_over_the_throttled_peak() -> None:
    """Ours is the dense kernel's 660 TFLOPS over 4096 x 132 x 1600 MHz = 865.08 TFLOPS: 76.29 %."""
    peak = H800.matrix_flop_per_cycle_per_core * H800.cores * H800_THROTTLED_CLOCK_HZ
    assert _ours("dense-tensor-core-utilisation") == pytest.approx(660e12 / peak)
    assert _ours("dense-achieved-tb-per-s") == hopper_figure("dense-achieved-tb-per-s").value == 3e12 / TB
