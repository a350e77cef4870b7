"""The model shape preset: the report's head dimensions, and a preset that cannot be changed in place."""

from __future__ import annotations

import dataclasses

import pytest

from ascend_dsa.facts.model_shape import DSA_V41


def test_the_preset_holds_the_reports_dimensions() -> None:
    """d_qk = d_v = 512 (report (zh) line 88; config.h:41-42) in bf16, 2 bytes each."""
    assert (DSA_V41.d_qk, DSA_V41.d_v, DSA_V41.element_bytes) == (512, 512, 2)


def test_the_preset_is_frozen() -> None:
    """Assigning a field fails: every page shares the one preset."""
    with pytest.raises(dataclasses.FrozenInstanceError, match=r"^cannot assign to field 'd_qk'$"):
        DSA_V41.d_qk = 576  # type: ignore[misc]
