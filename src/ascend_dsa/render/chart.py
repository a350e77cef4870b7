"""Charts as SVG written with the standard library alone: scales, ticks, axes, lines, bars, dots and legends.

The figures a live form redraws are drawn here, not by matplotlib: the reader's browser runs the same code on
Pyodide, which has neither NumPy nor matplotlib, so the figure the build printed and the one a form redraws come
from one function. Every text is a [`ChartText`][] with an estimated box ([`overlapping`][] finds two that meet).
The drawing is [`WIDTH`][] units wide with ``width="100%"``: the site's style sheet fits it to the text column up to
that many pixels, so at a 390 px phone's column its [`FONT_SIZE`][] text is still drawn at 10 px or more.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Final, Literal

from ascend_dsa.render.format import group_digits, is_wide
from ascend_dsa.render.svg import FONT_FAMILIES, wrap_svg

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

#: Width of every chart, in SVG user units (shown at most this many CSS pixels wide, narrower on a phone).
WIDTH: Final = 560
#: Font size of every text, in user units: at a phone's 358 px column a text is drawn at 17 x 358 / 560 = 10.9 px,
#: in a notebook's output there (340 px) at 10.3 px.
FONT_SIZE: Final = 17
#: Baseline to baseline of stacked lines of text (tick labels of several lines, legend rows): 1.5 em, because a CJK
#: font's line box is about 1.45 em tall in the browser, and two rows closer than that overlap on screen.
LINE: Final = 26
#: Colours of text, axes and grid lines: dark on the figure's white card in either colour scheme.
INK: Final = "#1a1a1a"
AXIS: Final = "#555555"
GRID: Final = "#e3e3e3"
#: A generous width per character, in ems: a CJK character one em, anything else 0.6 (most sans-serif letters are
#: narrower), so a box estimated from it holds the text as drawn.
_WIDE_EM, _NARROW_EM = 1.0, 0.6
#: Above and below a baseline, in ems: ascenders and descenders included.
_ASCENT_EM, _DESCENT_EM = 0.8, 0.25
#: Room between a tick label and the next, in user units.
_TICK_GAP: Final = 8

Anchor = Literal["start", "middle", "end"]
Mark = Literal["line", "dashed", "dotted", "box", "dot", "outline"]


@dataclass(frozen=True)
class ChartText:
    """One text of a chart: its baseline's anchor point, alignment, colour, and whether it reads upwards."""

    text: str
    x: float
    y: float
    anchor: Anchor = "start"
    colour: str = INK
    bold: bool = False
    upright: bool = True  # False: turned a quarter anticlockwise, as a y-axis label

    @property
    def width(self) -> float:
        """Estimated length along the baseline, in user units."""
        return text_width(self.text, bold=self.bold)

    @property
    def box(self) -> tuple[float, float, float, float]:
        """``(left, top, right, bottom)`` of the text as drawn, ascenders and descenders included."""
        start = {"start": 0.0, "middle": -self.width / 2, "end": -self.width}[self.anchor]
        ascent, descent = _ASCENT_EM * FONT_SIZE, _DESCENT_EM * FONT_SIZE
        if self.upright:
            return self.x + start, self.y - ascent, self.x + start + self.width, self.y + descent
        return self.x - ascent, self.y - start - self.width, self.x + descent, self.y - start

    def svg(self) -> str:
        """The ``<text>`` element."""
        weight = ' font-weight="700"' if self.bold else ""
        turn = "" if self.upright else f' transform="rotate(-90 {_n(self.x)} {_n(self.y)})"'
        return (
            f'<text x="{_n(self.x)}" y="{_n(self.y)}" text-anchor="{self.anchor}" fill="{self.colour}"{weight}{turn}>'
            f"{escape(self.text)}</text>"
        )


def text_width(text: str, *, bold: bool = False) -> float:
    """Estimated width of ``text`` at [`FONT_SIZE`][], in user units (generous, so boxes hold what is drawn)."""
    ems = sum(_WIDE_EM if is_wide(ch) else _NARROW_EM for ch in text)
    return ems * FONT_SIZE * (1.05 if bold else 1.0)


def overlapping(texts: Iterable[ChartText]) -> list[tuple[str, str]]:
    """Every pair of texts whose estimated boxes meet (by more than half a unit both ways)."""
    placed = [(t.text, t.box) for t in texts if t.text.strip()]
    pairs = []
    for i, (a, (al, at, ar, ab)) in enumerate(placed):
        for b, (bl, bt, br, bb) in placed[i + 1 :]:
            if min(ar, br) - max(al, bl) > 0.5 and min(ab, bb) - max(at, bt) > 0.5:  # noqa: PLR2004 - half a unit
                pairs.append((a, b))
    return pairs


@dataclass(frozen=True)
class Scale:
    """Values ``low``..``high`` drawn from ``start`` to ``end`` (user units), evenly or by their logarithm."""

    low: float
    high: float
    start: float
    end: float
    log: bool = False

    def __post_init__(self) -> None:
        """Reject an empty or reversed domain, and a logarithmic one that reaches zero."""
        if not (math.isfinite(self.low) and math.isfinite(self.high) and self.low < self.high):
            raise ValueError(f"a scale needs finite low < high, got {self.low!r} and {self.high!r}")
        if self.log and self.low <= 0:
            raise ValueError(f"a logarithmic scale needs low > 0, got {self.low!r}")

    def at(self, value: float) -> float:
        """Where ``value`` is drawn."""
        if self.log:
            share = math.log(value / self.low) / math.log(self.high / self.low)
        else:
            share = (value - self.low) / (self.high - self.low)
        return self.start + share * (self.end - self.start)


def nice_step(span: float, count: int) -> float:
    """The step of 1, 2 or 5 times a power of ten that cuts ``span`` into at most ``count`` parts."""
    raw = span / max(1, count)
    power = 10.0 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw * (1 - 1e-9))


def linear_ticks(low: float, high: float, step: float) -> tuple[float, ...]:
    """The multiples of ``step`` from ``low`` to ``high``, both included."""
    first, last = math.ceil(low / step - 1e-9), math.floor(high / step + 1e-9)
    return tuple(k * step for k in range(first, last + 1))


def nice_ceiling(value: float, count: int) -> float:
    """``value`` rounded up to a multiple of the [`nice_step`][] that cuts ``0..value`` into ``count`` parts."""
    step = nice_step(value, count)
    return math.ceil(value / step - 1e-9) * step


def log_range(low: float, high: float) -> tuple[float, float]:
    """``low`` down and ``high`` up to the nearest 1, 2 or 5 times a power of ten."""
    return _one_two_five(low, down=True), _one_two_five(high, down=False)


def _one_two_five(value: float, *, down: bool) -> float:
    power = 10.0 ** math.floor(math.log10(value))
    steps = [m * power for m in (1, 2, 5, 10)]
    if down:
        return max(s for s in steps if s <= value * (1 + 1e-9))
    return min(s for s in steps if s >= value * (1 - 1e-9))


def log_ticks(low: float, high: float) -> tuple[float, ...]:
    """Ticks of a logarithmic axis: the powers of ten within, with 2 and 5 times them where fewer than three fit."""
    first, last = math.floor(math.log10(low)), math.ceil(math.log10(high))
    decades = [10.0**p for p in range(first, last + 1) if low * (1 - 1e-9) <= 10.0**p <= high * (1 + 1e-9)]
    if len(decades) >= 3:  # noqa: PLR2004 - three decades label the axis on their own
        return tuple(decades)
    return tuple(
        m * 10.0**p
        for p in range(first, last + 1)
        for m in (1, 2, 5)
        if low * (1 - 1e-9) <= m * 10.0**p <= high * (1 + 1e-9)
    )


def tick_text(value: float, step: float = 1.0) -> str:
    """A tick's label: whole numbers grouped (``10,000``), others with the decimals ``step`` needs."""
    if abs(value - round(value)) < 1e-9 * max(1.0, abs(value)):
        return group_digits(round(value))
    decimals = max(1, -math.floor(math.log10(step) + 1e-9)) if step < 1 else 1
    return f"{value:.{decimals}f}"


@dataclass(frozen=True)
class LegendEntry:
    """One row of a legend: a mark drawn in ``colour``, and what it stands for."""

    label: str
    colour: str
    mark: Mark = "box"


#: A legend's mark: its width, the gap to its label, and the room between two columns.
_SWATCH, _SWATCH_GAP, _COLUMN_GAP = 26, 6, 18


def legend_columns(entries: Sequence[LegendEntry], width: float, most: int) -> int:
    """The most columns, up to ``most``, that ``entries`` fit in side by side within ``width``."""
    column = max(_SWATCH + _SWATCH_GAP + text_width(e.label) for e in entries) + _COLUMN_GAP
    return max(1, min(most, len(entries), int((width + _COLUMN_GAP) // column)))


@dataclass(frozen=True)
class Drawing:
    """Part of a chart: its SVG elements, its texts (drawn after every element), and the colours its data uses.

    ``grouped`` are texts an element draws already (a legend's, inside the legend's group): they count for the
    checks of [`every_text`][ascend_dsa.render.chart.Drawing.every_text] but are not drawn again.
    """

    elements: tuple[str, ...] = ()
    texts: tuple[ChartText, ...] = ()
    data_colours: frozenset[str] = frozenset()
    legend_colours: tuple[str, ...] = ()
    grouped: tuple[ChartText, ...] = ()

    def __add__(self, other: Drawing) -> Drawing:
        """Both parts, this one first."""
        return Drawing(
            self.elements + other.elements,
            self.texts + other.texts,
            self.data_colours | other.data_colours,
            self.legend_colours + other.legend_colours,
            self.grouped + other.grouped,
        )

    @property
    def every_text(self) -> tuple[ChartText, ...]:
        """Every text the drawing shows, wherever it is drawn."""
        return self.texts + self.grouped


def legend(
    entries: Sequence[LegendEntry], left: float, top: float, width: float, *, name: str, most: int = 3
) -> Drawing:
    """``entries`` in rows of as many columns as fit ``width`` (row by row), from ``(left, top)``.

    The group (marks and labels) has an id starting with ``legend`` (``name`` keeps it unique in a page), as the
    site's checks look for.
    """
    columns = legend_columns(entries, width, most)
    column = (width + _COLUMN_GAP) / columns
    marks, texts = [], []
    for i, entry in enumerate(entries):
        x, y = left + (i % columns) * column, top + (i // columns) * LINE + FONT_SIZE * _ASCENT_EM
        marks.append(_swatch(entry, x, y - FONT_SIZE * 0.3))
        texts.append(ChartText(entry.label, x + _SWATCH + _SWATCH_GAP, y))
    group = f'<g id="legend-{escape(name)}">{"".join(marks)}{"".join(t.svg() for t in texts)}</g>'
    return Drawing((group,), legend_colours=tuple(e.colour for e in entries), grouped=tuple(texts))


def legend_height(entries: Sequence[LegendEntry], width: float, most: int = 3) -> float:
    """Height [`legend`][] takes for ``entries`` within ``width``."""
    rows = -(-len(entries) // legend_columns(entries, width, most))
    return (rows - 1) * LINE + FONT_SIZE * (_ASCENT_EM + _DESCENT_EM)


def _swatch(entry: LegendEntry, x: float, middle: float) -> str:
    if entry.mark in ("line", "dashed", "dotted"):
        return polyline(((x, middle), (x + _SWATCH, middle)), entry.colour, style=entry.mark)
    if entry.mark == "dot":
        return dot(x + _SWATCH / 2, middle, entry.colour)
    if entry.mark == "outline":
        return rect(x + 4, middle - 7, _SWATCH - 8, 14, "#ffffff", stroke=entry.colour)
    return rect(x + 4, middle - 7, _SWATCH - 8, 14, entry.colour)


#: Dash patterns of the line styles, in user units.
_DASHES: Final = {"line": "", "dashed": "7 4", "dotted": "2 3"}


def polyline(points: Iterable[tuple[float, float]], colour: str, *, style: Mark = "line", width: float = 2.0) -> str:
    """A line through ``points``, solid, dashed or dotted."""
    dash = _DASHES.get(style, "")
    dashes = f' stroke-dasharray="{dash}"' if dash else ""
    path = " ".join(f"{_n(x)},{_n(y)}" for x, y in points)
    return f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="{_n(width)}"{dashes}/>'


def rect(x: float, y: float, w: float, h: float, fill: str, *, stroke: str = "", stroke_width: float = 1.5) -> str:
    """A rectangle, filled, outlined with ``stroke`` when given."""
    outline = f' stroke="{stroke}" stroke-width="{_n(stroke_width)}"' if stroke else ""
    return f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" fill="{fill}"{outline}/>'


def dot(x: float, y: float, colour: str, radius: float = 4.5) -> str:
    """A filled circle with a white rim, so that it stands out on its own line."""
    return f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(radius)}" fill="{colour}" stroke="#ffffff" stroke-width="1"/>'


@dataclass(frozen=True)
class Axes:
    """The plotting area: its two scales (their ``start``/``end`` give the frame), ticks and axis labels."""

    x: Scale
    y: Scale
    x_ticks: tuple[float, ...]
    y_ticks: tuple[float, ...]
    x_label: str
    y_label: str
    x_step: float = 1.0
    y_step: float = 1.0

    @property
    def left(self) -> float:
        """The frame's left edge."""
        return self.x.start

    @property
    def right(self) -> float:
        """The frame's right edge."""
        return self.x.end

    @property
    def top(self) -> float:
        """The frame's top edge."""
        return self.y.end

    @property
    def bottom(self) -> float:
        """The frame's bottom edge."""
        return self.y.start


def y_tick_width(ticks: Iterable[float], step: float | None = None) -> float:
    """Room the widest y tick label takes, gap to the axis included (``step`` None: a logarithmic axis's ticks)."""
    return max((text_width(tick_text(t, t if step is None else step)) for t in ticks), default=0.0) + _TICK_GAP


#: Left edge of a y-axis label's line, in user units.
AXIS_LABEL_LEFT: Final = 4
#: A y-axis label's baseline: a browser's line box for a CJK font reaches about 1.16 em above it.
_Y_LABEL_BASELINE: Final = AXIS_LABEL_LEFT + 1.2 * FONT_SIZE


def y_axis_room(ticks: Iterable[float], step: float | None = None) -> float:
    """Where the frame's left edge goes for these y ticks: the axis label, then the tick labels."""
    return _Y_LABEL_BASELINE + _DESCENT_EM * FONT_SIZE + 6 + y_tick_width(ticks, step)


def fitting_step(scale: Scale, most: int) -> float:
    """The step of the most ticks along ``scale``, up to ``most`` parts, whose labels fit side by side."""
    length = abs(scale.end - scale.start)
    for count in range(most, 0, -1):
        step = nice_step(scale.high - scale.low, count)
        widths = [text_width(tick_text(t, step)) for t in linear_ticks(scale.low, scale.high, step)]
        room = length * step / (scale.high - scale.low)
        if all((a + b) / 2 + _TICK_GAP <= room for a, b in itertools.pairwise(widths)):
            return step
    return nice_step(scale.high - scale.low, 1)


def draw_axes(axes: Axes) -> Drawing:
    """Grid lines at the ticks, the frame, tick labels and both axis labels (the y one reading upwards)."""
    lines, texts = [], []
    for tick in axes.y_ticks:
        y = axes.y.at(tick)
        lines.append(f'<line x1="{_n(axes.left)}" y1="{_n(y)}" x2="{_n(axes.right)}" y2="{_n(y)}" stroke="{GRID}"/>')
        label = tick_text(tick, tick if axes.y.log else axes.y_step)
        texts.append(ChartText(label, axes.left - _TICK_GAP, y + 0.275 * FONT_SIZE, "end"))
    for tick in axes.x_ticks:
        x = axes.x.at(tick)
        lines.append(
            f'<line x1="{_n(x)}" y1="{_n(axes.bottom)}" x2="{_n(x)}" y2="{_n(axes.bottom + 5)}" stroke="{AXIS}"/>'
        )
        texts.append(ChartText(tick_text(tick, axes.x_step), x, axes.bottom + 6 + FONT_SIZE, "middle"))
    width, height = axes.right - axes.left, axes.bottom - axes.top
    frame = rect(axes.left, axes.top, width, height, "none", stroke=AXIS, stroke_width=1)
    x_label = ChartText(axes.x_label, (axes.left + axes.right) / 2, axes.bottom + 8 + FONT_SIZE + LINE, "middle")
    y_label = ChartText(axes.y_label, _Y_LABEL_BASELINE, (axes.top + axes.bottom) / 2, "middle", upright=False)
    texts += [label for label in (x_label, y_label) if label.text]
    return Drawing((*lines, frame), tuple(texts))


#: What the x-axis takes below the frame: tick labels, then the axis label.
X_AXIS_ROOM: Final = 8 + FONT_SIZE + LINE + _DESCENT_EM * FONT_SIZE


@dataclass(frozen=True)
class Chart:
    """A whole chart: what it draws, its height in user units ([`WIDTH`][] wide), and the title that names it."""

    drawing: Drawing
    height: float
    title: str

    def svg(self) -> str:
        """The bare ``<svg>`` element, [`WIDTH`][] units wide and as wide as its column (``width="100%"``)."""
        body = "".join(self.drawing.elements)
        texts = "".join(t.svg() for t in self.drawing.texts)
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {math.ceil(self.height)}" width="100%" '
            f'font-family="{", ".join((*FONT_FAMILIES, "sans-serif"))}" font-size="{FONT_SIZE}">'
            f'<rect width="{WIDTH}" height="{math.ceil(self.height)}" fill="#ffffff"/>{body}{texts}</svg>'
        )

    def html(self) -> str:
        """The page's figure: the SVG named for screen readers, in its ``<div>``, captioned with the title.

        The same bytes for the same chart: coordinates are rounded to a tenth of a unit, nothing is dated or random.
        """
        return wrap_svg(self.svg(), title=self.title)


def _n(value: float) -> str:
    """A coordinate to a tenth of a unit, without trailing zeros (``12``, ``12.5``)."""
    text = f"{round(value, 1):.1f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
