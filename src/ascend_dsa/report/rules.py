"""What one claim is: the report's figure it names, the design it is computed for, and the rule comparing the two.

A [`Claim`][] names one published figure (``report_figures.PUBLISHED_FIGURES`` or a head-roofline row), says in
our words what the report claims, computes our value from a [`ClaimContext`][], and states the [`Rule`][] by which
the two are compared: exact, or ours rounded to the digits the report prints (N decimals, or a percent; negative
decimals round to tens, thousands, as for "about 990" or "around 3000"). Every rule
compares the value the report states, never only a bound it implies, so a published figure moved by the smallest
step its digits can show fails its claim (tests/report/test_claims_guard.py).
The entries themselves are in ``ledger_discussion``, ``ledger_design`` and ``ledger_hopper``; ``ledgers`` holds them
by ledger, with each ledger's published figures, pages and words; ``claims`` evaluates them.

"Stated" claims are constants the package adopts from the report (the icache sizes, say): the check then guards
that the constant we compute with is the one the report prints.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Final, TypeAlias

from ascend_dsa.facts.chapters import ledger_chapters
from ascend_dsa.facts.hardware import ASCEND_950, AscendSpec, require_ascend
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL, KernelConfig
from ascend_dsa.facts.model_shape import DSA_V41, ModelShape
from ascend_dsa.facts.report_figures import FigureValue
from ascend_dsa.units import KiB
from ascend_dsa.validate import LARGEST_EXACT_WHOLE, Choice, require_instance

if TYPE_CHECKING:
    from collections.abc import Callable

#: What a claim's computation may return: exact fractions are turned into ints or floats by [`normalise`][].
Computed: TypeAlias = Fraction | int | float | tuple["Computed", ...]
#: The report's chapters (site pages without ``.md``), in the report's order.
CHAPTERS: Final = ledger_chapters("report")


class RuleKind(Choice):
    """How our value is compared with the report's."""

    EXACT = "exact"
    ROUNDED = "rounded"
    PERCENT = "percent"


@dataclass(frozen=True)
class Rule:
    """A comparison rule; ``decimals``: the digits the report prints, for the rounding rules.

    Negative ``decimals`` round to a power of ten, as Python's ``round`` does: -1 to the nearest ten ("about 990"),
    -3 to the nearest thousand ("around 3000"). Our value stays raw; the rounding is the comparison's.
    """

    kind: RuleKind
    decimals: int = 0

    def __post_init__(self) -> None:
        """Reject a kind that is not a RuleKind and decimals that are not a whole number."""
        if not isinstance(self.kind, RuleKind) or isinstance(self.decimals, bool) or not isinstance(self.decimals, int):
            raise TypeError(
                f"kind must be a RuleKind and decimals an int, got {self.kind!r:.40}, {self.decimals!r:.40}"
            )

    @property
    def precision(self) -> str:
        """The digits kept, in English: ``2 decimals``, or ``the nearest 1000`` for negative decimals."""
        if self.decimals < 0:
            return f"the nearest {10**-self.decimals}"
        return f"{self.decimals} decimals"

    @property
    def summary(self) -> str:
        """The rule in a few English words, for messages."""
        summaries = {
            RuleKind.EXACT: "exact",
            RuleKind.ROUNDED: f"ours rounded to {self.precision}",
            RuleKind.PERCENT: f"ours as a percent rounded to {self.precision}",
        }
        return summaries[self.kind]

    def holds(self, ours: FigureValue, theirs: FigureValue) -> bool:
        """Whether ``ours`` agrees with ``theirs`` under this rule."""
        if self.kind is RuleKind.EXACT:
            return ours == theirs
        pairs = _leaf_pairs(ours, theirs)
        return pairs is not None and all(self._pair_holds(o, t) for o, t in pairs)

    def _pair_holds(self, ours: float, theirs: float) -> bool:
        """One number of ours against one of theirs, for the numeric rules."""
        if self.kind is RuleKind.ROUNDED:
            return round(ours, self.decimals) == theirs
        return round(100 * ours, self.decimals) == theirs


EXACT: Final = Rule(RuleKind.EXACT)


def leaves(value: FigureValue) -> list[float]:
    """The numbers of a figure, nested tuples flattened, in order."""
    if isinstance(value, tuple):
        return [leaf for item in value for leaf in leaves(item)]
    return [value]


def _leaf_pairs(ours: FigureValue, theirs: FigureValue) -> list[tuple[float, float]] | None:
    """Pair the numbers of ours and theirs; a single number of theirs applies to every number of ours."""
    mine, published = leaves(ours), leaves(theirs)
    if len(published) == 1:
        published = published * len(mine)
    if len(mine) != len(published):
        return None
    return list(zip(mine, published, strict=True))


def normalise(value: Computed) -> FigureValue:
    """Fractions become ints when whole, floats otherwise; tuples are normalised item by item."""
    if isinstance(value, tuple):
        return tuple(normalise(v) for v in value)
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    return value


def exact_kib(size_bytes: int) -> Fraction:
    """A byte count in KiB, exactly: the report writes sizes in K, and [`normalise`][] keeps whole ones whole."""
    return Fraction(size_bytes, KiB)


def plain(value: FigureValue) -> str:
    """A figure in plain text for messages: whole numbers as such, others to 6 significant digits."""
    if isinstance(value, tuple):
        return "(" + ", ".join(plain(v) for v in value) + ")"
    if isinstance(value, float) and math.isinf(value):
        return "-∞" if value < 0 else "∞"
    if isinstance(value, float) and (not value.is_integer() or abs(value) >= LARGEST_EXACT_WHOLE):
        return f"{value:.6g}"
    return str(int(value)) if isinstance(value, float) else str(value)


@dataclass(frozen=True)
class ClaimContext:
    """The hardware, kernel configuration and model every claim is computed for."""

    spec: AscendSpec = ASCEND_950
    config: KernelConfig = SHIPPED_KERNEL
    model: ModelShape = DSA_V41

    def __post_init__(self) -> None:
        """Reject a spec, configuration or model of the wrong class (a TypeError naming it)."""
        require_ascend("spec", self.spec)
        require_instance("config", self.config, KernelConfig)
        require_instance("model", self.model, ModelShape)


SHIPPED_CONTEXT: Final = ClaimContext()


@dataclass(frozen=True)
class Claim:
    """One statement of a published source: the figure it names, our value for it, and the comparison rule.

    ``claim_id`` is also the key of the published figure compared, unless ``compares`` names another (a second
    reading of a figure another claim compares too); ``inputs`` names published figures that our computation takes
    as given. A figure the pages take as given (the 410 TFLOPS) is adopted as a constant in
    ``facts.report_inputs`` and compared by a stated claim, so that what the pages print is checked too. The
    ledger that holds a claim (``report.ledgers``) says whose figures these keys name and which chapters it may
    name, and checks both when it is built.
    """

    claim_id: str
    chapter: str
    rule: Rule
    zh: str
    en: str
    compute: Callable[[ClaimContext], Computed] = field(repr=False, compare=False)
    inputs: tuple[str, ...] = ()
    stated: bool = False
    compares: str = ""

    def __post_init__(self) -> None:
        """Reject a field of the wrong type (its ledger checks the chapter and the figures)."""
        texts = (self.claim_id, self.chapter, self.zh, self.en)
        if not all(isinstance(text, str) for text in texts) or not isinstance(self.rule, Rule):
            raise TypeError(f"claim_id, chapter, zh and en must be str and rule a Rule, got {texts!r:.80}")
        if not callable(self.compute) or not isinstance(self.stated, bool):
            raise TypeError(f"compute must be callable and stated a bool, got {self.compute!r:.40}, {self.stated!r}")
        if not isinstance(self.inputs, tuple) or not all(isinstance(key, str) for key in self.inputs):
            raise TypeError(f"inputs must be a tuple of figure keys (str), got {self.inputs!r:.60}")
        if not isinstance(self.compares, str):
            raise TypeError(f"compares must be a figure key (str), got {self.compares!r:.60}")

    @property
    def figure_key(self) -> str:
        """The key of the published figure this claim is compared with: ``compares``, else its id."""
        return self.compares or self.claim_id

    def ours(self, design: ClaimContext = SHIPPED_CONTEXT) -> FigureValue:
        """Our value, computed for ``design``."""
        return normalise(self.compute(design))
