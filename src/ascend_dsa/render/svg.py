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
from html import escape
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterator

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


#: Class of the caption under each figure; the site's style sheet numbers captions per page (图 N / Figure N).
CAPTION_CLASS = "ascend-caption"


#: Path outlines (``d="..."``) and the decimals past the second in their coordinates: a hundredth of a point is far
#: below a pixel, and the dropped digits are about a third of a large figure's bytes. Text is never touched.
_PATH_DATA = re.compile(r' d="[^"]*"')
_EXCESS_DECIMALS = re.compile(r"(\d\.\d\d)\d+")


def to_svg(fig: Figure, *, title: str) -> str:
    """The figure as one line of HTML to print in a page: ``<div class="ascend-figure"><svg>...</svg>`` + caption.

    ``title`` names the figure for screen readers (the SVG's ``<title>`` and ``aria-label``) and is its caption.
    No XML prolog, no metadata, no date; white space that holds a line break is folded to one blank.
    """
    if not title.strip():
        raise ValueError(f"title must name the figure, got {title!r}")
    import matplotlib as mpl  # noqa: PLC0415 - loaded when a figure is drawn, not with the package

    buffer = io.StringIO()
    with mpl.rc_context(_RC), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=_MISSING_GLYPH, category=UserWarning)
        fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches="tight")
    text = buffer.getvalue()
    text = re.sub(r"\s*<metadata>.*?</metadata>", "", text[text.index("<svg") :], flags=re.DOTALL)
    text = re.sub(r"\s*\n\s*", " ", text.strip())
    text = _PATH_DATA.sub(lambda match: _EXCESS_DECIMALS.sub(r"\1", match.group(0)), text)
    return wrap_svg(text, title=title)


def wrap_svg(svg: str, *, title: str) -> str:
    """An ``<svg>`` element as a page's figure: named for screen readers, in its ``<div>``, with its caption."""
    if not title.strip():
        raise ValueError(f"title must name the figure, got {title!r}")
    if not svg.startswith("<svg"):
        raise ValueError(f"svg must start with an <svg> element, got text starting {svg[:30]!r}")
    label = escape(title.strip())
    opening = svg.index(">") + 1
    text = f'{svg[: opening - 1]} role="img" aria-label="{label}"><title>{label}</title>{svg[opening:]}'
    return f'<div class="{FIGURE_CLASS}" tabindex="0">{text}<div class="{CAPTION_CLASS}">{label}</div></div>'


def svg_element(html: str) -> str:
    """The ``<svg>...</svg>`` element inside what [`to_svg`][] returned (for viewers that want bare SVG)."""
    if not isinstance(html, str):
        raise TypeError(f"html must be a str holding an <svg> element, got {type(html).__name__}")
    start, end = html.find("<svg"), html.rfind("</svg>")
    if start < 0 or end < start:
        raise ValueError(f"html must contain an <svg> element, got text starting {html[:30]!r}")
    return html[start : end + len("</svg>")]
