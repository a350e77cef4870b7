"""The chip registry: each ``--chip`` value one record, the default first, every record checked where it is made."""

from __future__ import annotations

import dataclasses

import pytest

from ascend_dsa.facts.chips import ASCEND_950_PRESET, CHIPS, H800_PRESET, ChipPreset
from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.hopper import H800, MLA_V32
from ascend_dsa.facts.model_shape import DSA_V41


def test_the_registry_holds_each_preset_by_its_key() -> None:
    """CHIPS maps ``ascend-950`` (the default, first) and ``h800`` to their records, each keyed by its own key."""
    assert list(CHIPS) == ["ascend-950", "h800"]
    assert all(CHIPS[key].key == key for key in CHIPS)
    assert (ASCEND_950_PRESET.spec, ASCEND_950_PRESET.model) == (ASCEND_950, DSA_V41)
    assert (H800_PRESET.spec, H800_PRESET.model) == (H800, MLA_V32)


def test_only_the_report_chip_carries_the_reports_table() -> None:
    """--assert-report applies to the chip the report's head-roofline table is for, and to no other."""
    assert [preset.key for preset in CHIPS.values() if preset.reported] == ["ascend-950"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"spec": "ascend-950"}, r"^spec must be a ChipSpec"),
        ({"model": None}, r"^model must be a ModelShape"),
        ({"core": 1}, r"^core must be a str"),
    ],
)
def test_a_preset_is_checked_where_it_is_made(change: dict[str, object], message: str) -> None:
    """A record with a name where a spec belongs, no model or a number for a word is one TypeError naming it."""
    with pytest.raises(TypeError, match=message):
        dataclasses.replace(H800_PRESET, **change)  # type: ignore[arg-type]


def test_a_record_is_all_a_new_chip_needs_in_the_registry() -> None:
    """A preset built from another's spec under a new key is a valid record (what tests/test_registries.py adds)."""
    extra = ChipPreset("h800-slow", H800.with_overrides(clock_hz=1e9), MLA_V32, core="SM", described="a what-if")
    assert extra.spec.clock_hz == 1e9
