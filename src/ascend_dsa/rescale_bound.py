"""Skip-scale: when O must be rescaled, and how large an unrescaled factor can grow (report (zh) lines 57-69).

The softmax uses ``max_for_softmax``, which lags behind the true running maximum. Exponentials are taken against
the lagging value, so each one can exceed 1 by at most ``exp(running_max - max_for_softmax)``. A rescale is forced
only when that gap exceeds the threshold, so the factor never passes ``exp(threshold)``.

The kernel (config.h:43) compares the gap of *scaled* logits (``x sm_scale``) with 6; on raw logits this is
``6 / sm_scale``. The report's recap (lines 57, 67) leaves ``sm_scale`` out.
"""

from __future__ import annotations

import math

from ascend_dsa.model import DSA_V41, ModelShape


def _finite(name: str, value: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    return value


def rescale_triggered(running_max: float, max_for_softmax: float, threshold: float) -> bool:
    """Whether this row forces a rescale: the gap strictly exceeds the threshold (the kernel's ``>``)."""
    return _finite("running_max", running_max) - _finite("max_for_softmax", max_for_softmax) > _finite(
        "threshold", threshold
    )


def rescale_factor_bound(threshold: float) -> float:
    """Largest ``exp(running_max - max_for_softmax)`` that can stand without a rescale: ``exp(threshold)``."""
    return math.exp(_finite("threshold", threshold))


def raw_logit_threshold(threshold: float, sm_scale: float) -> float:
    """The same threshold on unscaled logits, as the kernel applies it: ``threshold / sm_scale``."""
    if _finite("sm_scale", sm_scale) <= 0:
        raise ValueError(f"sm_scale must be positive, got {sm_scale!r}")
    return _finite("threshold", threshold) / sm_scale


def illustrative_sm_scale(model: ModelShape = DSA_V41) -> float:
    """``1 / sqrt(d_qk)``: the usual choice, an assumption here (the kernel takes ``sm_scale`` as a parameter)."""
    return 1.0 / math.sqrt(model.d_qk)
