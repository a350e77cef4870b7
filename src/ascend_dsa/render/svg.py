"""Matplotlib figures to inline SVG that is the same, byte for byte, on every build and needs no external asset.

Text stays text (``svg.fonttype: none``) so the reader's browser draws Chinese labels with its own fonts; ids are
salted with a constant and the date is left out, so two builds give identical bytes. Matplotlib is imported when a
figure is drawn, not with this module, so the command line and the closed-form pages never load it.
"""

from __future__ import annotations

import io
import re
import warnings
from contextlib import contextmanager
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any, Final, Literal

from ascend_dsa.render.format import is_wide
from ascend_dsa.validate import shown

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from matplotlib.artist import Artist
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

#: Families tried in order by the reader's browser; the first ones carry Chinese glyphs.
FONT_FAMILIES = ("Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", "Microsoft YaHei", "DejaVu Sans")

_RC: Any = {
    "svg.fonttype": "none",
    "svg.hashsalt": "ascend-dsa",
    "font.family": "sans-serif",
    "font.sans-serif": list(FONT_FAMILIES),
    "axes.unicode_minus": False,
    "figure.dpi": 96,
    # The browser draws the text with a CJK font whose boxes are taller than the ones matplotlib measures with: wider
    # gaps keep an axis label clear of its tick labels, and legend rows of each other, box by box (issue 27).
    "axes.labelpad": 8.0,
    "legend.labelspacing": 0.9,
}


#: Without a CJK font on the build machine matplotlib measures Chinese with DejaVu Sans and warns per glyph; the
#: browser draws the text with its own fonts, so only the measured width is approximate.
_MISSING_GLYPH = r"Glyph \d+ .* missing from font"


@contextmanager
def figure(width_in: float = 7.0, height_in: float = 4.0) -> Iterator[Figure]:
    """A new figure drawn under the site's deterministic settings.

    A bare `Figure`, not one from pyplot: nothing to close, no GUI backend, and the build
    does not pay for importing pyplot.
    """
    import matplotlib as mpl  # noqa: PLC0415 - loaded when a figure is drawn, not with the package
    from matplotlib.figure import Figure  # noqa: PLC0415 - same

    with mpl.rc_context(_RC), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=_MISSING_GLYPH, category=UserWarning)
        yield Figure(figsize=(width_in, height_in))


#: Class of the ``<div>`` that holds each figure. Python-Markdown does not know ``<svg>`` as a block-level tag and
#: would wrap it in ``<p>`` and run its inline syntax over the CSS inside; a ``<div>`` is passed through untouched.
FIGURE_CLASS = "ascend-figure"


#: Class of the caption under each figure; the site's style sheet numbers captions per page (``图 N`` / ``Figure N``).
CAPTION_CLASS = "ascend-caption"


#: Path outlines (``d="..."``) and the decimals past the second in their coordinates: a hundredth of a point is far
#: below a pixel, and the dropped digits are about a third of a large figure's bytes. Text is never touched.
_PATH_DATA = re.compile(r' d="[^"]*"')
_EXCESS_DECIMALS = re.compile(r"(\d\.\d\d)\d+")


#: Narrowest column a figure is shown in at a 1280 px window (a notebook output; a chapter gives 688 px); a
#: figure wider than its column is scaled down to fit.
COLUMN_PX_AT_1280 = 572
#: Smallest text a reader should meet in a figure at that width, in CSS pixels.
MIN_TEXT_PX = 11.0
#: Narrowest column a figure is shown in on a 390 px phone (a notebook output; a chapter gives 358 px). The figure
#: is scaled down to it, never scrolled sideways, so its text must be drawn large enough to survive the scaling.
COLUMN_PX_ON_PHONE = 338
#: Smallest text a reader should meet in a figure on that phone, in CSS pixels.
MIN_TEXT_PX_ON_PHONE = 10.0
#: Every (column, smallest text) a figure must read at, both in CSS pixels. The rule for any figure of the site,
#: drawn by matplotlib or written by hand: a text of ``size`` user units in a drawing ``width`` units wide (its
#: viewBox) is ``size * min(1, column / width)`` px on screen, and must be at least the smallest text of each view.
#: A hand-written SVG whose drawing is wider than ``text / smallest * column`` needs a phone layout of its own.
READING_VIEWS: Final = ((COLUMN_PX_AT_1280, MIN_TEXT_PX), (COLUMN_PX_ON_PHONE, MIN_TEXT_PX_ON_PHONE))
_PX_PER_PT = 96 / 72
#: Kept above the minimum, so the sizes the SVG rounds stay at or above it.
_MIN_TEXT_MARGIN = 1.01
#: Passes of enlarging: larger text widens the drawing, which shrinks it on screen, so the second pass re-measures.
_ENLARGE_PASSES = 6


#: What ``bbox_inches="tight"`` adds around the drawing on each side, in inches (matplotlib's ``savefig.pad_inches``).
_PAD_IN = 0.1


def min_text_units(drawn_width: float, *, views: Sequence[tuple[float, float]] = READING_VIEWS) -> float:
    """The smallest text, in the drawing's own units, that every view of ``views`` shows large enough.

    A drawing ``drawn_width`` units wide (an SVG's viewBox width, in CSS pixels at its natural size) is shown at
    that size, or scaled down to a column narrower than it; ``views`` are (column, smallest text) in CSS pixels.
    """
    return max(smallest / min(1.0, column / drawn_width) for column, smallest in views)


def min_font_pt(drawn_width_in: float) -> float:
    """The smallest font size, in points, that reads in every view of `READING_VIEWS` for a drawing this wide (inches).

    The SVG is drawn at 96 px per inch, or scaled down to the column when wider than it.
    """
    return min_text_units(drawn_width_in * 96) / _PX_PER_PT


def enlarge_small_text(fig: Figure) -> None:
    """Raise every text of ``fig`` (labels, ticks, legends, annotations) to [`min_font_pt`][] at least.

    The text then reads at 1280 px and on a 390 px phone, the figure scaled to the column in both.

    The width that counts is the drawing's tight box, as saved, which outside legends make wider than the figure.
    """
    from matplotlib.text import Text  # noqa: PLC0415 - loaded when a figure is drawn, not with the package

    def size(text: Text) -> float:
        return float(text.get_fontsize())  # matplotlib types it float | str; a Text's size is always points

    for _ in range(_ENLARGE_PASSES):
        smallest = min_font_pt(float(fig.get_tightbbox().width) + 2 * _PAD_IN) * _MIN_TEXT_MARGIN
        small = [text for text in fig.findobj(Text) if text.get_text() and size(text) < smallest]
        for axes in fig.axes:  # tick labels are made anew at drawing time, from the axis's tick settings
            if any(size(label) < smallest for label in axes.get_xticklabels(which="both")):
                axes.tick_params(axis="x", which="both", labelsize=smallest)
            if any(size(label) < smallest for label in axes.get_yticklabels(which="both")):
                axes.tick_params(axis="y", which="both", labelsize=smallest)
        if not small:
            return
        for text in small:
            text.set_fontsize(smallest)


def to_svg(fig: Figure, *, title: str) -> str:
    """The figure as one line of HTML to print in a page: ``<div class="ascend-figure"><svg>...</svg>`` + caption.

    ``title`` names the figure for screen readers (the SVG's ``<title>`` and ``aria-label``) and is its caption.
    Text too small to read at 1280 px or on a phone is enlarged first ([`enlarge_small_text`][]). No XML prolog,
    no metadata, no date; white space that holds a line break is folded to one blank.
    """
    if not title.strip():
        raise ValueError(f"title must name the figure, got {shown(title)}")
    import matplotlib as mpl  # noqa: PLC0415 - loaded when a figure is drawn, not with the package

    enlarge_small_text(fig)
    buffer = io.StringIO()
    with mpl.rc_context(_RC), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=_MISSING_GLYPH, category=UserWarning)
        fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches="tight")
    text = buffer.getvalue()
    text = re.sub(r"\s*<metadata>.*?</metadata>", "", text[text.index("<svg") :], flags=re.DOTALL)
    text = re.sub(r"\s*\n\s*", " ", text.strip())
    text = _PATH_DATA.sub(lambda match: _EXCESS_DECIMALS.sub(r"\1", match.group(0)), text)
    return wrap_svg(text, title=title)


def to_svg_with_legend_below(
    fig: Figure,
    axes: Axes,
    *,
    title: str,
    drop: float,
    columns: int,
    fontsize: float | None = None,
    handles: Sequence[Artist] | None = None,
) -> str:
    """[`to_svg`][] of ``fig`` with ``axes``'s legend hung below the axes, where no label of the plot covers an entry.

    The legend is centred and frameless, in ``columns`` columns, its top ``drop`` axes heights below the axes (clear
    of the tick and axis labels); ``fontsize`` in points and ``handles`` are matplotlib's, its defaults when None.
    """
    axes.legend(
        handles=handles, ncol=columns, fontsize=fontsize, frameon=False, loc="upper center", bbox_to_anchor=(0.5, -drop)
    )
    return to_svg(fig, title=title)


#: Classes of a figure's two drawings when it has a phone layout of its own: the site's style sheet shows the wide
#: one above a phone's width and the narrow one below it.
WIDE_CLASS = "ascend-figure__wide"
NARROW_CLASS = "ascend-figure__narrow"


def _named(svg: str, label: str, css_class: str) -> str:
    """``svg`` with its role, aria-label, <title> and (when given) class."""
    if not svg.startswith("<svg"):
        raise ValueError(f"svg must start with an <svg> element, got text starting {svg[:30]!r}")
    opening = svg.index(">") + 1
    classes = f' class="{css_class}"' if css_class else ""
    return f'{svg[: opening - 1]}{classes} role="img" aria-label="{label}"><title>{label}</title>{svg[opening:]}'


def wrap_svg(svg: str, *, title: str, narrow: str | None = None) -> str:
    """An ``<svg>`` element as a page's figure: named for screen readers, in its ``<div>``, with its caption.

    ``narrow``, when given, is the same figure drawn for a phone: both go in the ``<div>``, and the site's style
    sheet shows one of them (`WIDE_CLASS`, `NARROW_CLASS`).
    """
    if not title.strip():
        raise ValueError(f"title must name the figure, got {shown(title)}")
    label = escape(title.strip())
    if narrow is None:
        drawings = _named(svg, label, "")
    else:
        drawings = _named(svg, label, WIDE_CLASS) + _named(narrow, label, NARROW_CLASS)
    return f'<div class="{FIGURE_CLASS}" tabindex="0">{drawings}<div class="{CAPTION_CLASS}">{label}</div></div>'


def svg_element(html: str) -> str:
    """The ``<svg>...</svg>`` element inside what [`to_svg`][] returned (for viewers that want bare SVG)."""
    if not isinstance(html, str):
        raise TypeError(f"html must be a str holding an <svg> element, got {type(html).__name__}")
    start, end = html.find("<svg"), html.rfind("</svg>")
    if start < 0 or end < start:
        raise ValueError(f"html must contain an <svg> element, got text starting {html[:30]!r}")
    return html[start : end + len("</svg>")]


# --- figures drawn by hand: text placed by the renderer, its box estimated so tests can keep labels apart ------------

#: Font size of a hand-drawn figure's labels, in SVG user units, unless a label says otherwise.
LABEL_FONT_SIZE: Final = 14

Anchor = Literal["start", "middle", "end"]


@dataclass(frozen=True)
class Label:
    """One text of a hand-drawn figure: where its baseline starts, how it is anchored, and its estimated box.

    ``size`` is the font size the figure draws it at (its ``<g font-size>``), in user units.
    """

    text: str
    x: float
    y: float
    anchor: Anchor = "start"
    bold: bool = False
    colour: str = "#1a1a1a"
    size: float = LABEL_FONT_SIZE

    @property
    def width(self) -> float:
        """Estimated width: a CJK character is one em, anything else at most 0.6 em (a generous sans-serif)."""
        ems = sum(1.0 if is_wide(ch) else 0.6 for ch in self.text)
        return ems * self.size * (1.05 if self.bold else 1.0)

    @property
    def box(self) -> tuple[float, float, float, float]:
        """``(left, top, right, bottom)`` of the text, ascenders and descenders included."""
        left = {"start": self.x, "middle": self.x - self.width / 2, "end": self.x - self.width}[self.anchor]
        return left, self.y - 0.8 * self.size, left + self.width, self.y + 0.25 * self.size


def svg_text(label: Label) -> str:
    """The ``<text>`` element of ``label``; its font size comes from the group around it."""
    weight = ' font-weight="700"' if label.bold else ""
    return (
        f'<text x="{label.x:g}" y="{label.y:g}" text-anchor="{label.anchor}" fill="{label.colour}"{weight}>'
        f"{escape(label.text)}</text>"
    )


def labels_overlap(labels: Sequence[Label]) -> list[tuple[str, str]]:
    """The pairs of labels whose estimated boxes intersect (for a hand-drawn figure's tests), in order."""
    found = []
    for i, a in enumerate(labels):
        for b in labels[i + 1 :]:
            al, at, ar, ab = a.box
            bl, bt, br, bb = b.box
            if not (ar <= bl or br <= al or ab <= bt or bb <= at):
                found.append((a.text, b.text))
    return found


def hand_drawn_svg(body: str, *, width: float, height: float, title: str) -> str:
    """A hand-drawn figure's elements in an ``<svg>`` scaled to the column by its viewBox, wrapped by [`wrap_svg`][]."""
    families = ", ".join((*FONT_FAMILIES, "sans-serif"))
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" width="{width:g}" '
        f'height="{height:g}" font-family="{families}">{body}</svg>'
    )
    return wrap_svg(svg, title=title)
