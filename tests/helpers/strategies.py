"""Hypothesis strategies the property tests share: any value a caller might pass by mistake."""

from __future__ import annotations

from hypothesis import strategies as st

#: Scalars and short lists of every kind, NaN and infinities included, and whole numbers far past float64's exact
#: range.
ANY_SCALAR = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=3),
    st.lists(st.floats(-1e3, 1e3), max_size=3),
)


def anything(*extra: object) -> st.SearchStrategy[object]:
    """Any of ``ANY_SCALAR``, or one of ``extra`` (the arrays or objects the functions under test take)."""
    return st.one_of(ANY_SCALAR, st.sampled_from(extra)) if extra else ANY_SCALAR
