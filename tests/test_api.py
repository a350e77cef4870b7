import ascend_dsa


def test_all_names_resolve() -> None:
    """Every name in __all__ exists on the package."""
    for name in ascend_dsa.__all__:
        assert hasattr(ascend_dsa, name), name


def test_all_is_sorted_and_unique() -> None:
    """__all__ has no duplicates (a duplicate hides a stale export)."""
    assert len(set(ascend_dsa.__all__)) == len(ascend_dsa.__all__)


def test_public_objects_have_docstrings() -> None:
    """Every exported function and class says what it is."""
    for name in ascend_dsa.__all__:
        obj = getattr(ascend_dsa, name)
        if callable(obj):
            assert (obj.__doc__ or "").strip(), name
