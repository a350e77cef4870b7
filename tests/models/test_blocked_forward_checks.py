"""The blocked forward's skip-scale decision checks its maxima at the door: kind, +inf, NaN and shape."""

from __future__ import annotations

import numpy as np
import pytest

from ascend_dsa.models.blocked_forward import skip_scale_decision

EXPECTED = r"must be a real-valued array \[\.\.\., h_q\] within float32"


def test_a_positive_infinity_in_the_running_max_is_refused() -> None:
    """+inf would make every core rescale for ever: refused, naming the value and where it is."""
    running = np.array([[0.0, np.inf]], dtype=np.float32)
    with pytest.raises(
        ValueError, match=rf"^running_max {EXPECTED}, without NaN or \+inf, got np\.float32\(inf\) at \(0, 1\)$"
    ):
        skip_scale_decision(running, np.zeros((1, 2), np.float32), 6.0)


def test_a_nan_in_the_maxima_is_refused() -> None:
    """A NaN would make the kernel's ``>`` say "no rescale" silently."""
    used = np.array([[np.nan, 0.0]], dtype=np.float32)
    with pytest.raises(ValueError, match=rf"^max_for_softmax {EXPECTED}, without NaN or \+inf, got np\.float32\(nan\)"):
        skip_scale_decision(np.zeros((1, 2), np.float32), used, 6.0)


def test_booleans_are_not_maxima() -> None:
    """A bool array is the wrong kind, refused naming its dtype (only bf16 and numbers are maxima)."""
    with pytest.raises(TypeError, match=rf"^running_max {EXPECTED}, got dtype bool$"):
        skip_scale_decision(np.ones((1, 2), bool), np.zeros((1, 2), np.float32), 6.0)


def test_minus_infinity_is_no_key_yet_and_passes() -> None:
    """-inf (no key seen yet) is allowed: a core whose heads all went from -inf to 0 rescales (inf > 6)."""
    triggered, new_max = skip_scale_decision(np.zeros((1, 2), np.float32), np.full((1, 2), -np.inf, np.float32), 6.0, 2)
    assert triggered.tolist() == [[True]]
    assert new_max.tolist() == [[0.0, 0.0]]


def test_maxima_need_a_head_axis() -> None:
    """Scalars have no heads to split into cores: refused naming both shapes."""
    with pytest.raises(
        ValueError, match=r"^running_max and max_for_softmax must have one shape \[\.\.\., h_q\], got \(\) and \(\)$"
    ):
        skip_scale_decision(np.float32(1.0), np.float32(0.0), 6.0)
