"""One row of the report's online softmax: where it starts and how one block updates it (report (zh) lines 41-73).

The state is the three running values of line 45. It starts as "no key seen yet": ``-inf`` is the identity of
``max`` and ``0`` that of the sum, so folding the first block from the start gives exactly that block's maximum and
sum of exponentials. The kernel starts its maximum at the lowest finite float instead (``models.blocked_forward``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from ascend_dsa.validate import require_finite

if TYPE_CHECKING:
    from collections.abc import Sequence


@dataclass(frozen=True)
class SoftmaxRowState:
    """The running values of one row (line 45): the true maximum, the one exponentials use, and their sum."""

    running_max: float
    running_max_for_softmax: float
    running_sumexp: float

    def values(self) -> tuple[float, float, float]:
        """The three values in the report's order."""
        return (self.running_max, self.running_max_for_softmax, self.running_sumexp)


#: The state before any key: the identities of ``max`` and of the sum (report (zh) line 45).
ONLINE_SOFTMAX_START: Final = SoftmaxRowState(
    running_max=-math.inf, running_max_for_softmax=-math.inf, running_sumexp=0.0
)


def fold_block(state: SoftmaxRowState, logits: Sequence[float], threshold: float) -> SoftmaxRowState:
    """The state after one block: a new maximum, and a rescale when the gap exceeds ``threshold`` (lines 53-73)."""
    if not logits:
        raise ValueError("logits must hold at least one value, got none")
    block = [require_finite("logit", x) for x in logits]
    running_max = max(state.running_max, *block)
    max_for_softmax, sumexp = state.running_max_for_softmax, state.running_sumexp
    if math.isinf(max_for_softmax) or running_max - max_for_softmax > threshold:
        sumexp *= math.exp(max_for_softmax - running_max)
        max_for_softmax = running_max
    return SoftmaxRowState(
        running_max, max_for_softmax, sumexp + math.fsum(math.exp(x - max_for_softmax) for x in block)
    )
