"""The API reference's objects, rendered once and shared: the English page put together is the page rendered whole."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from ascend_dsa.site import api_pages
from tests.helpers.site_html import article

if TYPE_CHECKING:
    from tests.helpers.project import SiteBuild

FRAME = "# Models\n\nThe frame's sentence.\n\n"
BLOCKS = "::: ascend_dsa.models\n    options:\n      members: false\n\n::: ascend_dsa.models.roofline\n"


def test_the_blocks_are_the_pages_end() -> None:
    """The ``:::`` lines and their options, from the first to the end of the page, are the blocks shared."""
    assert api_pages.blocks(FRAME + BLOCKS) == BLOCKS


@pytest.mark.parametrize(
    "markdown",
    [
        pytest.param(FRAME, id="no-blocks"),
        pytest.param(FRAME + BLOCKS + "\nA sentence after the blocks.\n", id="prose-after"),
        pytest.param("# Models\n\n## A section\n\n" + BLOCKS, id="heading-before"),
        pytest.param('# Models\n\n<h2 id="x">A section</h2>\n\n' + BLOCKS, id="html-heading-before"),
    ],
)
def test_a_page_whose_blocks_do_not_end_it_alone_is_not_shared(markdown: str) -> None:
    """Prose after the blocks, or a heading before them (their place in the contents unknown): rendered whole."""
    assert api_pages.blocks(markdown) is None


def test_marks_and_placeholder_keep_the_frame() -> None:
    """The Chinese page keeps its blocks between the marks; the English page has the placeholder instead."""
    marked = api_pages.mark(FRAME + BLOCKS, BLOCKS)
    assert marked.startswith(FRAME)
    assert marked.index(api_pages.START) < marked.index(BLOCKS.rstrip()) < marked.index(api_pages.END)
    stood_in = api_pages.stand_in(FRAME + BLOCKS, BLOCKS)
    assert stood_in.startswith(FRAME)
    assert api_pages.PLACEHOLDER in stood_in
    assert ":::" not in stood_in


def _api_pages(site: Path) -> list[Path]:
    return sorted(p.relative_to(site) for p in site.glob("**/reference/api/**/index.html"))


@pytest.mark.build
def test_shared_objects_make_the_pages_rendering_them_whole_makes(floor_build: SiteBuild, built_site: Path) -> None:
    """A build that renders each edition's API objects itself writes the same API pages and objects.inv.

    The shared floor build renders both editions without running the pages' code (API pages have none) and with
    ``share_api_objects: false``; the tree's build shares them.
    """
    assert floor_build.result.returncode == 0, floor_build.result.output[-3000:]
    whole, shared = floor_build.site, built_site
    pages = _api_pages(whole)
    assert len(pages) >= 2 * 10
    assert pages == _api_pages(shared)
    differ = [str(p) for p in pages if (whole / p).read_bytes() != (shared / p).read_bytes()]
    assert differ == []
    assert (whole / "objects.inv").read_bytes() == (shared / "objects.inv").read_bytes()


def test_labels_are_read_from_mkdocstrings_pythons_language_templates() -> None:
    """A section's title and a table's heads, each as the handler's own Chinese and English templates write it."""
    import jinja2  # noqa: PLC0415 - only this test reads the templates
    import mkdocstrings_handlers.python as handler  # noqa: PLC0415

    templates = Path(handler.__file__).parent / "templates" / "material" / "_base"
    pairs = dict(api_pages.labels(jinja2.Environment(loader=jinja2.FileSystemLoader(templates), autoescape=True)))
    assert pairs['<span class="doc-section-title">返回：</span>'] == '<span class="doc-section-title">Returns:</span>'
    assert pairs["<th>类型</th>"] == "<th>Type</th>"
    assert all(chinese != english for chinese, english in pairs.items())


class _TextOutsideCode(HTMLParser):
    """The text of an HTML fragment that is not inside ``<code>``, ``<pre>`` or ``<kbd>`` (nor a script or style)."""

    _CODE = frozenset({"code", "pre", "kbd", "script", "style"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.texts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        del attrs
        self.depth += tag in self._CODE

    def handle_endtag(self, tag: str) -> None:
        self.depth -= tag in self._CODE

    def handle_data(self, data: str) -> None:
        if not self.depth:
            self.texts.append(data)


#: Chinese, Japanese and Korean characters and their punctuation (CJK symbols, kana, ideographs, full-width forms).
_CJK = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uac00-\ud7af\uff00-\uffef]")


def test_english_api_pages_show_no_chinese_outside_code(built_site: Path) -> None:
    """The English API reference shows Chinese only as code: a docstring's Chinese example is ``code`` (issue 27)."""
    pages = sorted((built_site / "en" / "reference" / "api").glob("*/index.html"))
    assert len(pages) >= 9
    found = {}
    for path in pages:
        parser = _TextOutsideCode()
        parser.feed(article(path.read_text("utf-8")))
        hits = [text.strip()[:80] for text in parser.texts if _CJK.search(text)]
        if hits:
            found[path.parent.name] = hits
    assert found == {}
