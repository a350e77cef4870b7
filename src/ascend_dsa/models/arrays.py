"""Checks for array arguments of the NumPy models, in the words of the checks in ``ascend_dsa.validate``.

The only module of the checks that needs NumPy, so that the standard-library core never loads it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ascend_dsa.validate import MAX_ARRAY_ELEMENTS


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
