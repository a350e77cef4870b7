"""Skip-scale: when O must be rescaled, and how large an unrescaled factor can grow (report (zh) lines 57-69).

The softmax uses ``max_for_softmax``, which lags behind the true running maximum. Exponentials are taken against
the lagging value, so each one can exceed 1 by at most ``exp(running_max - max_for_softmax)``. A rescale is forced
only when that gap exceeds the threshold, so the factor never passes ``exp(threshold)``.

The kernel (config.h:43) states the threshold, 6, for *scaled* logits (``x sm_scale``) but compares *raw* logits:
the host divides, ``float32(6) / float32(sm_scale)`` (kernel_body.h:1661), and the VECTOR Core tests the raw rise
with a strict ``>`` (kernel_body.h:572). The report's recap (lines 57, 67) leaves ``sm_scale`` out.
"""

from __future__ import annotations

import math
import struct

from ascend_dsa.facts.model_shape import DSA_V41, ModelShape
from ascend_dsa.validate import require_finite, shown


def _threshold(threshold: object) -> float:
    return require_finite("threshold", threshold, minimum=0.0)


def rescale_triggered(running_max: float, max_for_softmax: float, threshold: float) -> bool:
    """Whether this row forces a rescale: the gap strictly exceeds the threshold (the kernel's ``>``)."""
    gap = require_finite("running_max", running_max) - require_finite("max_for_softmax", max_for_softmax)
    return gap > _threshold(threshold)


def rescale_factor_bound(threshold: float) -> float:
    """Largest ``exp(running_max - max_for_softmax)`` that can stand without a rescale: ``exp(threshold)``."""
    value = _threshold(threshold)
    try:
        return math.exp(value)
    except OverflowError:
        msg = f"threshold must be small enough for exp(threshold) to be a finite float, got {shown(value)}"
        raise ValueError(msg) from None


def _float32(value: float) -> float:
    """``value`` rounded to the nearest float32 (``inf`` when it overflows float32)."""
    try:
        rounded: float = struct.unpack("<f", struct.pack("<f", value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)
    return rounded


def raw_logit_threshold(threshold: float, sm_scale: float) -> float:
    """The threshold on unscaled logits as the kernel's host computes it: ``float32(threshold) / float32(sm_scale)``.

    Both operands are float32 and so is the quotient (kernel_body.h:1661); a float64 quotient of two float32 values
    rounded once more to float32 is the correctly rounded float32 quotient, so this is bit for bit the kernel's value.
    """
    scale = _float32(require_finite("sm_scale", sm_scale, positive=True))
    value = _float32(_threshold(threshold))
    raw = _float32(value / scale) if 0 < scale < math.inf and value < math.inf else math.inf
    if not math.isfinite(raw) or scale == math.inf:
        raise ValueError(
            f"sm_scale must keep threshold / sm_scale a finite float32 and itself be one, got {shown(sm_scale)}"
        )
    return raw


def illustrative_sm_scale(model: ModelShape = DSA_V41) -> float:
    """``1 / sqrt(d_qk)``: the usual choice, an assumption here (the kernel takes ``sm_scale`` as a parameter)."""
    if not isinstance(model, ModelShape):
        raise TypeError(f"model must be a ModelShape, got {type(model).__name__}")
    return 1.0 / math.sqrt(model.d_qk)
