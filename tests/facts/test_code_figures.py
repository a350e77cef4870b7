import dataclasses

import pytest

from ascend_dsa.errors import FigureMismatch
from ascend_dsa.facts.code_figures import SHIPPED_UB_TOTALS
from ascend_dsa.models.memory_plans import shipped_ub_plans
from ascend_dsa.report.checks import check_ub_totals, ub_total_differences


def test_six_totals_are_the_published_ones() -> None:
    """The six shipped totals are 259600, 259728, 214544, 214672, 244240 and 244368 bytes."""
    assert [t.total_bytes for t in SHIPPED_UB_TOTALS] == [259600, 259728, 214544, 214672, 244240, 244368]


def test_plans_reproduce_every_total() -> None:
    """Our field-by-field plans reproduce all six totals; the check passes."""
    plans = shipped_ub_plans()
    assert ub_total_differences(plans) == ()
    check_ub_totals(plans)


def test_a_wrong_total_fails_naming_the_instantiation() -> None:
    """A perturbed total raises FigureMismatch with the instantiation, both values and the config.h lines."""
    perturbed = list(SHIPPED_UB_TOTALS)
    perturbed[2] = dataclasses.replace(perturbed[2], total_bytes=214545)
    with pytest.raises(FigureMismatch, match=r"v41_h64_decode_nosink: ours 214544 B; kernel 214545 B") as info:
        check_ub_totals(shipped_ub_plans(), perturbed)
    assert "config.h lines 77-125" in str(info.value)


def test_a_missing_plan_is_reported() -> None:
    """A shipped instantiation without a computed plan is a difference, not a silent pass."""
    assert ub_total_differences(shipped_ub_plans()[:5])[0].startswith("v41fp4_h64_decode_sink: ours not computed")
