"""How many argument checks one ``render_design_limits()`` call makes: ``require_*`` and ``finite_result`` calls.

A value is checked once, where it enters, and trusted inside (STYLE.md 1b); this counts how far the code is from
that. Every ``require_*`` and ``finite_result`` function of ``ascend_dsa.validate`` is wrapped, both in
``validate`` itself and under every name a module of the package imported it as, for the length of one call;
each call is charged to the function that made it (a check made inside ``validate``, such as
``require_finite`` asking ``require_real``, is charged to that helper and counted too).

Run: ``PYTHONPATH=$PWD/src .venv/bin/python benchmarks/require_calls.py`` (goal: at most 35 ``require_*`` calls).
"""

from __future__ import annotations

import collections
import contextlib
import functools
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

#: The most ``require_*`` calls one ``render_design_limits()`` may make (tests/test_check_at_the_door.py pins it).
GOAL_REQUIRE_CALLS = 35


@dataclass
class Tally:
    """Calls of each check, by the check's name and by the function that made the call."""

    by_check: collections.Counter[str] = field(default_factory=collections.Counter)
    by_caller: collections.Counter[tuple[str, str]] = field(default_factory=collections.Counter)

    @property
    def require_calls(self) -> int:
        """Calls of the ``require_*`` helpers."""
        return sum(n for name, n in self.by_check.items() if name.startswith("require_"))

    @property
    def finite_result_calls(self) -> int:
        """Calls of ``finite_result`` (checks of a result, not of an argument)."""
        return self.by_check["finite_result"]


def _checks() -> dict[Callable[..., Any], str]:
    from ascend_dsa import validate  # noqa: PLC0415 - imported once the caller has set up sys.path

    return {
        value: name
        for name, value in vars(validate).items()
        if callable(value) and (name.startswith("require_") or name == "finite_result")
    }


def _caller() -> str:
    frame = sys._getframe(2)  # noqa: SLF001 - 0: here, 1: the wrapper, 2: the function that called the check
    return f"{frame.f_globals.get('__name__', '?')}.{frame.f_code.co_qualname}"


@contextlib.contextmanager
def counting() -> Iterator[Tally]:
    """Wrap every check under every name the package's modules hold it by; restore them all on the way out."""
    originals = _checks()
    tally = Tally()

    def wrap(check: Callable[..., Any], name: str) -> Callable[..., Any]:
        @functools.wraps(check)
        def counted(*args: Any, **kwargs: Any) -> Any:  # noqa: ANN401 - stands in for any check
            tally.by_check[name] += 1
            tally.by_caller[(_caller(), name)] += 1
            return check(*args, **kwargs)

        return counted

    wrappers = {check: wrap(check, name) for check, name in originals.items()}
    patched: list[tuple[dict[str, Any], str, Any]] = []
    for module_name, module in list(sys.modules.items()):
        if module is None or not (module_name == "ascend_dsa" or module_name.startswith("ascend_dsa.")):
            continue
        namespace = vars(module)
        for name, value in list(namespace.items()):
            try:
                wrapper = wrappers.get(value)
            except TypeError:  # an unhashable module global
                continue
            if wrapper is not None:
                patched.append((namespace, name, value))
                namespace[name] = wrapper
    try:
        yield tally
    finally:
        for namespace, name, value in patched:
            namespace[name] = value


def count_render_design_limits() -> Tally:
    """The checks one ``render_design_limits()`` call makes (after one call to import and warm up everything)."""
    from ascend_dsa.render.design_space import render_design_limits  # noqa: PLC0415

    render_design_limits()
    with counting() as tally:
        render_design_limits()
    return tally


def main() -> int:
    """Print the total, the calls of each check and the calls made by each function."""
    tally = count_render_design_limits()
    print(
        f"render_design_limits(): {tally.require_calls} require_* calls (goal: at most {GOAL_REQUIRE_CALLS}), "
        f"{tally.finite_result_calls} finite_result calls"
    )
    print("\nby check:")
    for name, n in sorted(tally.by_check.items(), key=lambda item: (-item[1], item[0])):
        print(f"  {n:4d}  {name}")
    print("\nby caller:")
    for (caller, name), n in sorted(tally.by_caller.items(), key=lambda item: (-item[1], item[0])):
        print(f"  {n:4d}  {caller} -> {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
