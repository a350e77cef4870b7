"""Checks for array arguments of the NumPy models, in the words of the checks in ``ascend_dsa.validate``.

The only module of the checks that needs NumPy, so that the standard-library core never loads it. It also cuts the
rows a model works through into blocks within one memory budget, ``CHUNK_BYTES``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import numpy as np
from numpy.typing import NDArray

from ascend_dsa.units import MiB
from ascend_dsa.validate import MAX_ARRAY_ELEMENTS

if TYPE_CHECKING:
    from collections.abc import Iterator

#: Largest temporaries a model keeps at once when it works a block of rows at a time (the quantiser's tokens, a
#: forward's gathered keys and scores); only memory, not results.
CHUNK_BYTES: Final = 16 * MiB


def require_array(name: str, value: object, expected: str) -> NDArray[Any]:
    """``np.asarray(value)``, or a `TypeError` naming ``name`` when NumPy cannot make an array of it."""
    try:
        return np.asarray(value)
    except (TypeError, ValueError, OverflowError) as error:
        raise TypeError(f"{name} must be {expected}, got {type(value).__name__} ({error})") from None


def require_elements(name: str, array: NDArray[Any], limit: int = MAX_ARRAY_ELEMENTS) -> NDArray[Any]:
    """``array`` when it has at most ``limit`` elements (a model will copy it), else a ValueError with both counts."""
    if array.size > limit:
        raise ValueError(f"{name} has {array.size:,} elements, more than the limit of {limit:,} ({array.shape})")
    return array


def row_chunks(rows: int, row_bytes: int) -> Iterator[slice]:
    """Consecutive slices of ``rows`` rows of ``row_bytes`` each, a slice within ``CHUNK_BYTES`` (at least one row)."""
    step = max(1, CHUNK_BYTES // max(1, row_bytes))
    for first in range(0, rows, step):
        yield slice(first, min(first + step, rows))
