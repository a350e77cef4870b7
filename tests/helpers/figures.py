"""Published figures changed in the loaded package, one number at a time, by the smallest step their digits show."""

from __future__ import annotations

import dataclasses
import math
import re
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ascend_dsa.report.claims import CLAIMS
from ascend_dsa.report.rules import leaves

if TYPE_CHECKING:
    from collections.abc import Iterable

    import pytest

    from ascend_dsa.facts.report_figures import FigureValue, PublishedFigure
    from ascend_dsa.report.rules import Claim


def replace_everywhere(monkeypatch: pytest.MonkeyPatch, original: object, replacement: object) -> None:
    """Rebind every ``ascend_dsa`` module attribute that is ``original`` to ``replacement`` for this test.

    Modules import names from each other (``from ascend_dsa.report.claims import check_claims``), so rebinding the
    defining module alone would miss the copies the renderers hold.
    """
    for name, module in list(sys.modules.items()):
        if name == "ascend_dsa" or name.startswith("ascend_dsa."):
            for attribute, value in list(vars(module).items()):
                if value is original:
                    monkeypatch.setattr(module, attribute, replacement)


def claims_using(key: str, claims: Iterable[Claim] = CLAIMS) -> list[str]:
    """Ids of the ``claims`` (the report's, by default) that compare, or take as input, the figure ``key``."""
    return [c.claim_id for c in claims if key == c.figure_key or key in c.inputs]


@dataclass(frozen=True)
class Step:
    """One published number changed: the figure, the number's position among the figure's numbers, its new value."""

    key: str
    index: int
    value: float

    @property
    def label(self) -> str:
        """A test id: figure, position and new value."""
        return f"{self.key}[{self.index}]={self.value!r}"


def smallest_step(value: float, written: str) -> float:
    """The smallest change the report's printed digits can show: 1 for a whole number, 0.01 for ``73.14``, 1e12 for
    ``5e12`` and 1e6 for ``1650e6`` (a number the report writes as mantissa and exponent)."""
    for mantissa, exponent in re.findall(r"(\d+(?:\.\d+)?)e(\d+)", written):
        if float(mantissa) * 10 ** int(exponent) == value:
            return 10.0 ** (int(exponent) - len(mantissa.partition(".")[2]))
    if isinstance(value, int) or value.is_integer():
        return 1
    return 10.0 ** -len(repr(value).partition(".")[2])


def moved(value: float, step: float, sign: int) -> float:
    """``value`` moved by ``sign`` steps, kept to the digits of the step (an int stays an int)."""
    if isinstance(value, int) and float(step).is_integer():
        return value + sign * int(step)
    decimals = max(0, -math.floor(math.log10(step)))
    return round(value + sign * step, decimals)


def figure_steps(figure: PublishedFigure) -> list[Step]:
    """Every number of ``figure`` moved up and down by its smallest printed step; an infinity to the largest finite."""
    steps = []
    for index, value in enumerate(leaves(figure.value)):
        if math.isinf(value):
            steps.append(Step(figure.key, index, math.copysign(sys.float_info.max, value)))
            continue
        step = smallest_step(value, figure.written)
        steps.extend(Step(figure.key, index, moved(value, step, sign)) for sign in (1, -1))
    return steps


def with_leaf(value: FigureValue, index: int, new: float) -> FigureValue:
    """``value`` with its ``index``-th number (nested tuples flattened) replaced by ``new``."""
    numbers = iter([*leaves(value)[:index], new, *leaves(value)[index + 1 :]])

    def rebuild(item: FigureValue) -> FigureValue:
        return tuple(rebuild(v) for v in item) if isinstance(item, tuple) else next(numbers)

    return rebuild(value)


def replace_figure(monkeypatch: pytest.MonkeyPatch, figures: tuple[PublishedFigure, ...], step: Step) -> None:
    """Rebind ``figures`` everywhere to a copy whose figure ``step.key`` has one number changed by ``step``."""
    changed = tuple(
        dataclasses.replace(f, value=with_leaf(f.value, step.index, step.value)) if f.key == step.key else f
        for f in figures
    )
    replace_everywhere(monkeypatch, figures, changed)


def first_steps(steps: Iterable[Step]) -> list[Step]:
    """One step per figure (its first number, up), for the slower page-block tests."""
    return list({step.key: step for step in reversed(list(steps)) if step.index == 0}.values())
