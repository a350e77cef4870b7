"""Wrappers that make a renderer's Markdown, SVG or HTML display as such in Jupyter (the ``_repr_*_`` protocol).

Jupyter asks an object for ``_repr_markdown_`` or ``_repr_svg_`` before falling back to ``repr``; a notebook
cell that ends with ``as_markdown(render_x(...))`` therefore shows a formatted table, with no import from IPython.
"""

from __future__ import annotations

from ascend_dsa.render.svg import svg_element


class NotebookMarkdown(str):
    """Markdown text that Jupyter renders as Markdown."""

    __slots__ = ()

    def _repr_markdown_(self) -> str:
        return str(self)

    def __repr__(self) -> str:
        """The Markdown source itself: readable where Markdown is not rendered."""
        return str(self)


class NotebookSvg(str):
    """A renderer's figure that Jupyter draws as a picture: inline HTML (with caption) or the bare SVG."""

    __slots__ = ()

    def _repr_html_(self) -> str:
        """The figure as the site shows it: inline SVG text with its caption, not a base64 image (a third larger)."""
        return str(self)

    def _repr_svg_(self) -> str:
        return svg_element(self)

    def __repr__(self) -> str:
        """A short stand-in, so that a notebook does not store the picture twice (as SVG and as text)."""
        return f"<SVG figure, {len(self)} characters>"


class NotebookHtml(str):
    """HTML (a live form) that Jupyter and the site's notebook pages show as such."""

    __slots__ = ()

    def _repr_html_(self) -> str:
        return str(self)

    def __repr__(self) -> str:
        """A short stand-in, so that a notebook does not store the markup twice (as HTML and as text)."""
        return f"<HTML, {len(self)} characters>"


def as_html(html: str) -> NotebookHtml:
    """``html`` (a renderer's markup, such as ``render_live_form``'s) for display in a notebook."""
    if not isinstance(html, str) or not html.lstrip().startswith("<"):
        raise ValueError(f"html must be markup starting with a tag, got {str(html)[:20]!r}")
    return NotebookHtml(html)


def as_markdown(text: str) -> NotebookMarkdown:
    """``text`` (a renderer's Markdown) for display in a notebook; anything but a str is refused, not shown as text."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str of Markdown, got {type(text).__name__} {text!r:.40}")
    return NotebookMarkdown(text)


def as_svg(svg: str) -> NotebookSvg:
    """``svg`` (a renderer's figure, holding an ``<svg>`` element) for display in a notebook."""
    if not isinstance(svg, str):
        raise TypeError(f"svg must be a str holding an <svg> element, got {type(svg).__name__}")
    try:
        svg_element(svg)
    except ValueError:
        raise ValueError(f"svg must be an <svg> element, got text starting {svg[:20]!r}") from None
    return NotebookSvg(svg)
