"""Every comparison rule of the claims at its boundary and one step either side, and every ledger rule pinned.

A claim exactly at its tolerance passes and one float beyond fails; the rule each claim is checked by is written
here as a literal, so that a tolerance widened or a rounding loosened in the ledger fails a test, not only a reader.
"""

from __future__ import annotations

import math

import pytest

from ascend_dsa.facts.report_figures import FigureValue
from ascend_dsa.report.claims import CLAIMS
from ascend_dsa.report.rules import EXACT, Rule, RuleKind, plain

UP, DOWN = math.inf, -math.inf


def _after(x: float, towards: float) -> float:
    return math.nextafter(x, towards)


@pytest.mark.parametrize(
    ("ours", "theirs", "holds"),
    [
        (73.144, 73.14, True),
        (73.146, 73.14, False),  # rounds to 73.15
        (73.136, 73.14, True),
        (73.134, 73.14, False),  # rounds to 73.13
        (73.14, 73.1, False),  # two decimals are kept, not one
    ],
)
def test_rounded_rule_at_the_half_unit(ours: float, theirs: float, holds: bool) -> None:  # noqa: FBT001
    """Rounded to 2 decimals: a value a little inside half a unit of the last digit passes, a little outside fails."""
    assert Rule(RuleKind.ROUNDED, decimals=2).holds(ours, theirs) is holds


@pytest.mark.parametrize(
    ("ours", "theirs", "holds"),
    [(0.9449, 94, True), (0.9451, 94, False), (0.9351, 94, True), (0.9349, 94, False), (0.94, 0.94, False)],
)
def test_percent_rule_at_the_half_percent(ours: float, theirs: float, holds: bool) -> None:  # noqa: FBT001
    """As a whole percent: 94.49 % and 93.51 % read 94, 94.51 % and 93.49 % do not; a fraction is no percent."""
    assert Rule(RuleKind.PERCENT).holds(ours, theirs) is holds


def test_percent_rule_with_decimals() -> None:
    """As a percent to one decimal: 94.79 % reads 94.8, not 94.7 or 95."""
    rule = Rule(RuleKind.PERCENT, decimals=1)
    assert rule.holds(0.9479, 94.8)
    assert not rule.holds(0.9479, 94.7)
    assert not rule.holds(0.9479, 95)


@pytest.mark.parametrize(
    ("ours", "theirs", "holds"),
    [
        (3, 3, True),
        (3, 4, False),
        (3, 2, False),
        ((1, 2), (1, 2), True),
        ((1, 2), (1, 3), False),
    ],
)
def test_exact_rule(ours: FigureValue, theirs: FigureValue, holds: bool) -> None:  # noqa: FBT001
    """Exact means equal: one more or one less fails."""
    assert EXACT.holds(ours, theirs) is holds


@pytest.mark.parametrize(
    ("rule", "summary"),
    [
        (EXACT, "exact"),
        (Rule(RuleKind.ROUNDED, decimals=2), "ours rounded to 2 decimals"),
        (Rule(RuleKind.PERCENT), "ours as a percent rounded to 0 decimals"),
    ],
)
def test_rule_summaries(rule: Rule, summary: str) -> None:
    """Each rule says itself in the words messages print."""
    assert rule.summary == summary


@pytest.mark.parametrize(
    ("kind", "decimals", "ours", "theirs", "holds"),
    [
        (RuleKind.ROUNDED, -3, 3196.88, 3000, True),  # "around 3000" (FP8 blog line 52)
        (RuleKind.ROUNDED, -3, 3499.9, 3000, True),
        (RuleKind.ROUNDED, -3, 3500.1, 3000, False),  # rounds to 4000
        (RuleKind.ROUNDED, -3, 3196.88, 3200, False),  # thousands are kept, not hundreds
        (RuleKind.ROUNDED, -1, 989.43, 990, True),  # "990 TFlops" (dense blog line 13)
        (RuleKind.ROUNDED, -1, 989.43, 989, False),
        (RuleKind.PERCENT, -1, 0.7629, 80, True),  # "up to 80%" (dense blog line 57)
        (RuleKind.PERCENT, -1, 0.7449, 80, False),  # 74.49 % rounds to 70
    ],
)
def test_negative_decimals_round_to_tens_and_thousands(
    kind: RuleKind,
    decimals: int,
    ours: float,
    theirs: float,
    holds: bool,  # noqa: FBT001
) -> None:
    """Negative decimals keep a power of ten, as ``round`` does: the rounding is the rule's, ours stays raw."""
    assert Rule(kind, decimals=decimals).holds(ours, theirs) is holds


@pytest.mark.parametrize(
    ("kind", "decimals", "summary"),
    [
        (RuleKind.ROUNDED, -3, "ours rounded to the nearest 1000"),
        (RuleKind.PERCENT, -1, "ours as a percent rounded to the nearest 10"),
    ],
)
def test_negative_decimals_say_the_nearest_power_of_ten(kind: RuleKind, decimals: int, summary: str) -> None:
    """A rule with negative decimals names the step it rounds to, not "-3 decimals"."""
    assert Rule(kind, decimals=decimals).summary == summary


def test_rule_accepts_zero_decimals() -> None:
    """Zero decimals is the edge of the allowed settings: round to a whole number."""
    assert Rule(RuleKind.ROUNDED, decimals=0).holds(2.4, 2)
    assert not Rule(RuleKind.ROUNDED, decimals=0).holds(2.6, 2)


#: Every claim whose rule is not exact, with the rule the report's printed digits support: its percentages are whole
#: (lines 23-24: "95%", "83%"), its 73.14 and 403.43 have two decimals, and "roughly balanced" (line 114) is a ratio
#: the report prints as 1. Every other claim is exact.
LEDGER_RULES = {
    "prefill-percent-of-peak": Rule(RuleKind.PERCENT),
    "decode-percent-of-peak": Rule(RuleKind.PERCENT),
    "prefill-share-of-pipeline-bound": Rule(RuleKind.PERCENT),
    "decode-share-of-pipeline-bound": Rule(RuleKind.PERCENT),
    "rescale-factor-bound": Rule(RuleKind.ROUNDED, decimals=2),
    "balanced-ratio-at-64-heads": Rule(RuleKind.ROUNDED, decimals=0),
    "fixpipe-break-even-b-topk": Rule(RuleKind.ROUNDED, decimals=2),
}


def test_every_ledger_rule_is_the_pinned_one() -> None:
    """No claim's rule is looser (or tighter) than the report's wording: a changed tolerance must change this table."""
    rules = {claim.claim_id: claim.rule for claim in CLAIMS}
    assert {key: rule for key, rule in rules.items() if rule != EXACT} == LEDGER_RULES
    assert len(rules) == 71


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (7, "7"),
        (3.0, "3"),
        (1.5, "1.5"),
        (2.0**53 - 1, "9007199254740991"),  # the largest float every whole number below is exact: printed whole
        (2.0**53, "9.0072e+15"),  # from 2^53 on a float is no longer a whole count: 6 significant digits
        (-(2.0**53), "-9.0072e+15"),
        ((1, 2.5, (3.0,)), "(1, 2.5, (3))"),
    ],
)
def test_plain_prints_whole_numbers_whole_up_to_2_to_the_53(value: FigureValue, text: str) -> None:
    """Messages print whole floats below 2^53 as integers, larger ones and fractions to 6 digits, tuples in brackets."""
    assert plain(value) == text


def test_stated_claims_are_the_constants_adopted_from_the_report() -> None:
    """Exactly these claims guard constants we take from the report rather than compute; every other is computed."""
    assert [c.claim_id for c in CLAIMS if c.stated] == [
        "prefill-tflops",
        "decode-tflops",
        "rescale-threshold",
        "cube-fma-per-cycle",
        "l2-bandwidth-tb-per-s",
        "roofline-head-dim",
        "l2-bandwidth-bytes-per-s",
        "ai-cores",
        "clock-hz",
        "roofline-heads-grid",
        "roofline-topk-grid",
        "l0c-capacity",
        "hf32-off-fma-per-cycle",
        "vector-cores-per-ai-core",
        "mte2-outstanding-requests",
        "fixpipe-bytes-per-cycle-1c1v",
        "mte2-queue-depth",
        "gather2-burst-count",
        "icache-cube",
        "icache-vector",
        "icache-simd-vf",
        "l1-banks",
    ]


@pytest.mark.parametrize(
    ("ours", "theirs", "holds"),
    [
        ((1.2, 2.2, 3.2), (1, 2), False),  # one number more than the report states: no pairing, no agreement
        ((1.2, 2.2), (1, 2, 3), False),  # one fewer
        ((1.2, 2.8), (1, 3), True),
        ((3.2, 2.8), 3, True),  # a single published number stands for each of ours
    ],
)
def test_rounded_rule_pairs_numbers_one_to_one(ours: FigureValue, theirs: FigureValue, holds: bool) -> None:  # noqa: FBT001
    """A rule compares number by number; a count that differs from the report's is a disagreement, not an error."""
    assert Rule(RuleKind.ROUNDED).holds(ours, theirs) is holds
