import pytest

from ascend_dsa.render.notebook import as_markdown, as_svg


def test_wrappers_display_in_jupyter() -> None:
    """Markdown and SVG answer Jupyter's _repr_*_ protocol; the SVG's text repr is short."""
    md = as_markdown("| a |\n| - |")
    assert md._repr_markdown_() == "| a |\n| - |"
    svg = as_svg("<svg></svg>")
    assert svg._repr_svg_() == "<svg></svg>"
    figure = as_svg('<div class="ascend-figure"><svg></svg><div>caption</div></div>')
    assert figure._repr_html_().endswith("<div>caption</div></div>")
    assert figure._repr_svg_() == "<svg></svg>"
    assert repr(svg) == "<SVG figure, 11 characters>"


def test_as_svg_refuses_other_text() -> None:
    """Only an <svg> element can be shown as a picture."""
    with pytest.raises(ValueError, match="svg must be an <svg> element"):
        as_svg("| table |")


def test_as_markdown_refuses_what_is_not_text() -> None:
    """A None or a number is refused naming its type, not shown as the text "None"."""
    with pytest.raises(TypeError, match=r"^text must be a str of Markdown, got NoneType None$"):
        as_markdown(None)  # type: ignore[arg-type]
