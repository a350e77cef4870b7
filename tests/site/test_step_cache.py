"""ascend_dsa.site.step_cache: under serve a step's result is reused by its inputs' digest; a build keeps nothing."""

from __future__ import annotations

from ascend_dsa.site.step_cache import StepCache


def _counted(calls: list[str], value: str, *, keep: bool = True) -> tuple[str, bool]:
    calls.append(value)
    return value, keep


def test_a_rebuild_reuses_what_the_last_one_computed_for_the_same_inputs() -> None:
    """The same parts give the kept result without computing; other parts compute; the count says how many."""
    calls: list[str] = []
    first = StepCache({})
    assert first.result(("output", "code", "a/", "<p>x</p>"), lambda: _counted(calls, "A")) == "A"
    second = StepCache(first.current)
    assert second.result(("output", "code", "a/", "<p>x</p>"), lambda: _counted(calls, "B")) == "A"
    assert second.result(("output", "code", "a/", "<p>y</p>"), lambda: _counted(calls, "C")) == "C"
    assert second.result(("output", "other code", "a/", "<p>x</p>"), lambda: _counted(calls, "D")) == "D"
    assert calls == ["A", "C", "D"]
    assert second.hits == 1


def test_a_result_that_recorded_a_failure_is_computed_again() -> None:
    """A result its step says not to keep (its box must come back) is not offered to the next build."""
    calls: list[str] = []
    first = StepCache({})
    first.result(("content", "p"), lambda: _counted(calls, "boxed", keep=False))
    StepCache(first.current).result(("content", "p"), lambda: _counted(calls, "again"))
    assert calls == ["boxed", "again"]


def test_a_rebuild_keeps_only_what_it_used() -> None:
    """What the last build used and this one did not is dropped: the cache holds one site's worth."""
    first = StepCache({})
    first.result(("a",), lambda: ("A", True))
    first.result(("b",), lambda: ("B", True))
    second = StepCache(first.current)
    second.result(("a",), lambda: ("new", True))
    assert len(second.current) == 1


def test_parts_are_told_apart_by_their_boundaries() -> None:
    """("ab", "c") and ("a", "bc") are different inputs."""
    calls: list[str] = []
    first = StepCache({})
    first.result(("ab", "c"), lambda: _counted(calls, "1"))
    assert StepCache(first.current).result(("a", "bc"), lambda: _counted(calls, "2")) == "2"


def test_without_a_session_every_step_computes() -> None:
    """``mkdocs build`` (no previous results) computes each time and keeps nothing."""
    calls: list[str] = []
    build = StepCache(None)
    build.result(("a",), lambda: _counted(calls, "1"))
    build.result(("a",), lambda: _counted(calls, "2"))
    assert calls == ["1", "2"]
    assert build.current == {}
