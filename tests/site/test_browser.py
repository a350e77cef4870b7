"""The built site in a real browser (Debian's Chromium through Playwright), served on 127.0.0.1 only.

Skipped with a message when Chromium is missing, except in CI (``CI=true``), where that fails (helpers/browser.py).
What a test photographs it also measures: Chromium decodes its own PNG in a canvas and reports pixel statistics
(`pixel_stats`), which the test compares with bounds; no image is written to disk for nobody to read.
"""

from __future__ import annotations

import base64
import re
import sys
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, urlsplit

import pytest

from ascend_dsa import published_head_roofline
from ascend_dsa.facts.chapters import primer_chapters
from ascend_dsa.render.svg import FIGURE_CLASS, MIN_TEXT_PX_ON_PHONE, NARROW_CLASS, figure, to_svg
from ascend_dsa.report.exercise_rules import EXERCISE_CHAPTERS, OPENING_QUESTIONS, shown_value
from ascend_dsa.report.exercises import EXERCISES, chapter_exercises
from ascend_dsa.report.rules import SHIPPED_CONTEXT
from tests.helpers.browser import DESKTOP, PAGE_READY, PHONE, Traffic, open_page
from tests.helpers.search import (
    BROWSER_QUERIES,
    BROWSER_QUESTIONS,
    EN_BROWSER_QUERIES,
    EN_BROWSER_QUESTIONS,
    QUESTION_FLOOR,
    QUESTION_HIT_RATE,
)
from tests.helpers.site_html import article, page_html, page_paths

if TYPE_CHECKING:
    from pathlib import Path

    from playwright.sync_api import Page

pytestmark = pytest.mark.browser

SEARCH_TIMEOUT_MS = 15_000


#: The editions a test is run in.
EDITIONS = pytest.mark.parametrize("edition", ["", "en/"])


def open_at(page: Page, site_url: str, viewport: dict[str, int], path: str, scheme: str = "light") -> Page:
    """Load ``path`` as :func:`open_page` does, in a window of ``viewport`` with the system's colour ``scheme``."""
    page.set_viewport_size(viewport)
    page.emulate_media(color_scheme="dark" if scheme == "dark" else "light")
    return open_page(page, site_url, path)


#: Every view a reader may have: (name, window, colour scheme), each width in both schemes.
VIEWS = [
    (f"{width}-{scheme}", viewport, scheme)
    for width, viewport in (("desktop", DESKTOP), ("phone", PHONE))
    for scheme in ("light", "dark")
]


def view_as(page: Page, viewport: dict[str, int], scheme: str) -> Page:
    """Turn the open page to another window size and colour scheme, without loading it again.

    Material follows the system's scheme as it changes; this waits until the page wears the scheme's palette.
    Loading a page once and turning it through `VIEWS` costs a quarter of loading it in each.
    """
    page.set_viewport_size(viewport)
    page.emulate_media(color_scheme="dark" if scheme == "dark" else "light")
    expected = "slate" if scheme == "dark" else "default"
    page.wait_for_function(f"document.body.dataset.mdColorScheme === {expected!r}")
    return page


#: JavaScript: decode a PNG (base64) in a canvas and measure it: mean luminance (0 black, 1 white), the share of
#: pixels far (> 0.25) from the most common colour, and how many distinct colours there are (on 4 bits a channel).
_PIXEL_STATS = """async (png) => {
  const image = new Image();
  image.src = "data:image/png;base64," + png;
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = image.naturalWidth; canvas.height = image.naturalHeight;
  const context = canvas.getContext("2d");
  context.drawImage(image, 0, 0);
  const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
  const counts = new Map();
  let sum = 0;
  for (let i = 0; i < data.length; i += 4) {
    sum += (0.2126 * data[i] + 0.7152 * data[i + 1] + 0.0722 * data[i + 2]) / 255;
    const key = (data[i] >> 4) << 8 | (data[i + 1] >> 4) << 4 | data[i + 2] >> 4;
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  const background = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
  const level = (key, shift) => ((key >> shift) & 15) / 15;
  let far = 0;
  for (const [key, count] of counts) {
    const distance = Math.max(...[8, 4, 0].map((s) => Math.abs(level(key, s) - level(background, s))));
    if (distance > 0.25) far += count;
  }
  const pixels = data.length / 4;
  return {luminance: sum / pixels, ink: far / pixels, colours: counts.size, width: canvas.width, height: canvas.height};
}"""


def pixel_stats(page: Page, png: bytes) -> dict[str, float]:
    """Statistics of a screenshot, computed by Chromium from the PNG's pixels (see ``_PIXEL_STATS``)."""
    stats: dict[str, float] = page.evaluate(_PIXEL_STATS, base64.b64encode(png).decode("ascii"))
    return stats


def _cell_number(text: str) -> float:
    return float(text.replace(",", "").strip())


@pytest.mark.parametrize("path", ["discussion/heads-per-core/", "en/discussion/heads-per-core/"])
def test_roofline_table_has_the_reports_eight_rows(page: Page, site_url: str, traffic: Traffic, path: str) -> None:
    """The chapter's table, as the reader sees it, has eight rows: ours equal the report's (zh) lines 104-111."""
    open_page(page, site_url, path)
    table = page.locator("article table").filter(has=page.locator("th", has_text="h_q")).first
    rows = table.locator("tbody tr")
    assert rows.count() == 8
    published = published_head_roofline()
    for index, expected in enumerate(published):
        cells = [
            _cell_number(c) if re.fullmatch(r"[\d.,]+", c.strip()) else c
            for c in rows.nth(index).locator("td").all_inner_texts()
        ]
        heads, topk, cube, report_cube, l2, report_l2 = cells[:6]
        assert (heads, topk, report_cube, report_l2) == (
            expected.heads,
            expected.topk,
            expected.cube_cycles,
            expected.mem_cycles,
        )
        assert cube == expected.cube_cycles
        # ours is shown with one decimal; the report prints it rounded to a whole cycle
        assert abs(float(l2) - expected.mem_cycles) <= 0.55
    assert traffic.requests


def math_pages(site: Path) -> list[str]:
    """Pages whose HTML holds formulas left by pymdownx.arithmatex."""
    return [p for p in page_paths(site) if 'class="arithmatex"' in page_html(site, p)]


#: JavaScript: whether KaTeX's main font face was declared (by the site's katex.min.css) and has loaded.
_KATEX_FONT_LOADED = (
    "[...document.fonts].some(f => f.family.replaceAll('\"', '') === 'KaTeX_Main' && f.status === 'loaded')"
)


#: The package's figures sit in <div class="ascend-figure">; a notebook's SVG outputs in nbconvert's jp-RenderedSVG.
FIGURE_MARK = f'<div class="{FIGURE_CLASS}"'
NOTEBOOK_FIGURE_CLASS = "jp-RenderedSVG"
NOTEBOOK_FIGURE_MARK = f'class="{NOTEBOOK_FIGURE_CLASS}'
#: At 1280 px, where a figure with a phone layout of its own shows its wide drawing (`NARROW_CLASS` is hidden).
FIGURE_SELECTOR = (
    f"article .{FIGURE_CLASS} > svg:not(.{NARROW_CLASS}), article .{FIGURE_CLASS} > .live-figure > svg, "
    f"article .{NOTEBOOK_FIGURE_CLASS} img"
)


def figure_pages(site: Path) -> list[str]:
    """Pages whose article holds a figure: the package's inline SVG, or an SVG output of a notebook cell."""
    found = []
    for path in page_paths(site):
        text = article(page_html(site, path))
        if FIGURE_MARK in text or NOTEBOOK_FIGURE_MARK in text:
            found.append(path)
    return found


def assert_figures_visible(page: Page, where: str) -> int:
    """Every figure in the article is displayed, at least 100 x 60 px, and draws something (or its image loaded)."""
    figures = page.locator(FIGURE_SELECTOR)
    for index in range(figures.count()):
        svg = figures.nth(index)
        svg.scroll_into_view_if_needed()
        assert svg.is_visible(), (where, index)
        box = svg.bounding_box()
        assert box is not None, (where, index)
        assert box["width"] >= 100, (where, index, box)
        assert box["height"] >= 60, (where, index, box)
        if svg.evaluate("e => e.tagName.toLowerCase()") == "img":  # a notebook's SVG output, as a data: image
            assert svg.evaluate("e => e.complete && e.naturalWidth > 0"), (where, index)
        else:
            assert svg.locator("path, text, rect, line, polyline, use").count() > 0, (where, index)
    return figures.count()


def assert_math_typeset(page: Page, where: str) -> None:
    """Every formula is KaTeX markup with its fonts loaded; no raw TeX delimiters and no KaTeX error remain."""
    formulas = page.locator("article .arithmatex")
    assert formulas.count() > 0, where
    assert page.locator("article .arithmatex .katex").count() == formulas.count(), where
    assert page.locator(".katex-error").count() == 0, where
    text = page.locator("article").inner_text()
    for raw in ("$$", "\\(", "\\[", "\\frac"):
        assert raw not in text, (where, raw)
    assert page.evaluate(_KATEX_FONT_LOADED), where


def test_svg_probe_is_visible(page: Page, site_url: str, traffic: Traffic) -> None:
    """A figure made by the package's SVG renderer, put into a chapter, shows at its size under the site's styles."""
    with figure(4, 2.5) as fig:
        axes = fig.add_subplot()
        axes.plot([16, 32, 64, 128], [0.35, 0.70, 1.18, 2.37], label="算存比")
        axes.legend()
        svg = to_svg(fig, title="探针")
    open_page(page, site_url, "discussion/heads-per-core/")
    before = page.locator(FIGURE_SELECTOR).count()
    page.evaluate("svg => document.querySelector('article').insertAdjacentHTML('beforeend', svg)", svg)
    assert assert_figures_visible(page, "probe") == before + 1
    assert traffic.requests


#: Where a language switch starts, the language chosen, and where it must land.
LANGUAGE_SWITCHES = (
    ("discussion/heads-per-core/", "en", "en/discussion/heads-per-core/"),
    ("en/discussion/heads-per-core/", "zh", "discussion/heads-per-core/"),
    ("en/reference/cli/", "zh", "reference/cli/"),
    ("design/what-if/", "en", "en/design/what-if/"),
    ("en/design/what-if/", "zh", "design/what-if/"),
)


def test_language_switch_lands_on_the_same_chapter(page: Page, site_url: str, traffic: Traffic) -> None:
    """Choosing the other language in the header opens the same chapter in that language (`LANGUAGE_SWITCHES`)."""
    for start, link, landing in LANGUAGE_SWITCHES:
        if page.url != site_url + start:  # a switch may start where the last one landed
            open_page(page, site_url, start)
        page.locator(".md-header .md-select").first.hover()
        page.locator(f'.md-header a.md-select__link[hreflang="{link}"]').click()
        page.wait_for_url(site_url + landing)
        page.wait_for_load_state("networkidle")
        assert page.url == site_url + landing, start
    assert traffic.requests


#: JavaScript: whether the search results' summary line shows a count or "no results" (a search has answered).
_ANSWERED = re.compile(r"\d|没有|No matching")


def search(page: Page, site_url: str, query: str, edition: str = "", *, load: bool = True) -> list[str]:
    """Type ``query`` into the search box of an edition ("" or "en/"); the page paths of the results, best first.

    With ``load=False`` the page already open is used: the box is emptied first, so the answer waited for is
    this query's, not the previous one's.
    """
    if load:
        open_page(page, site_url, edition)
    box = page.locator("input.md-search__input")
    box.click()
    meta = page.locator(".md-search-result__meta")
    if not load:
        box.fill("")
        box.press("End")
        meta.filter(has_not_text=_ANSWERED).wait_for(timeout=SEARCH_TIMEOUT_MS)
    box.fill(query)  # typed key events cannot carry Chinese; an input method inserts the text, as fill does
    box.press("End")  # Material reads the query on keyup
    meta.filter(has_text=_ANSWERED).wait_for(timeout=SEARCH_TIMEOUT_MS)
    hrefs = page.locator(".md-search-result__item > a.md-search-result__link").evaluate_all(
        "links => links.map(a => a.href)"
    )
    return [urlsplit(href).path.lstrip("/") for href in hrefs]


def first_misses(page: Page, site_url: str, edition: str, queries: dict[str, tuple[str, ...]]) -> dict[str, list[str]]:
    """Type each query into one page of ``edition``; those whose first result is none of its chapters, with the top
    three found. Every result must be a page of the same edition."""
    open_page(page, site_url, edition)
    misses = {}
    for query, expected in queries.items():
        results = search(page, site_url, query, edition, load=False)
        if not results or results[0] not in {f"{edition}{chapter}/" if chapter else edition for chapter in expected}:
            misses[query] = results[:3]
        assert all(path.startswith("en/") == (edition == "en/") for path in results), (query, results)
    return misses


@pytest.mark.parametrize(("edition", "queries"), [("", BROWSER_QUERIES), ("en/", EN_BROWSER_QUERIES)])
def test_search_ranks_each_chapter_first(
    page: Page, site_url: str, traffic: Traffic, edition: str, queries: dict[str, tuple[str, ...]]
) -> None:
    """The site's own search (lunr in a worker; jieba-segmented Chinese, stemmed English) ranks each chapter first.

    All queries of an edition are typed into one page; every miss is listed, with the top three it found.
    """
    assert first_misses(page, site_url, edition, queries) == {}
    assert traffic.requests


@pytest.mark.parametrize(("edition", "questions"), [("", BROWSER_QUESTIONS), ("en/", EN_BROWSER_QUESTIONS)])
def test_search_answers_questions(
    page: Page, site_url: str, traffic: Traffic, edition: str, questions: dict[str, tuple[str, ...]]
) -> None:
    """Questions as readers ask them find a chapter that answers them first, at least `QUESTION_FLOOR` of the time.

    One page load per edition, then each question typed; the rate and every miss (with the top three) are printed.
    """
    misses = first_misses(page, site_url, edition, questions)
    rate = 1 - len(misses) / len(questions)
    report = [f"{edition or 'zh/'}: {rate:.0%} of {len(questions)} first (target {QUESTION_HIT_RATE:.0%})"]
    report += [f"  miss {question!r}: {found}" for question, found in misses.items()]
    sys.stdout.write("\n".join(report) + "\n")  # shown with -rP, and on failure
    assert rate >= QUESTION_FLOOR, "\n".join(report)
    assert traffic.requests


#: Per edition, a question whose answer page lists the query's words, and those words as a reader types them.
_HIGHLIGHTED = [("", "累加器放在哪里", ("累加器",)), ("en/", "where does the accumulator live", ("accumul",))]


@pytest.mark.parametrize(("edition", "query", "words"), _HIGHLIGHTED)
def test_search_result_opens_its_page_with_the_query_highlighted(
    page: Page, site_url: str, traffic: Traffic, edition: str, query: str, words: tuple[str, ...]
) -> None:
    """Clicking the first result opens its page with the query's words marked (Material's ``?h=``), both editions."""
    search(page, site_url, query, edition)
    link = page.locator(".md-search-result__item > a.md-search-result__link").first
    href = link.get_attribute("href") or ""
    assert parse_qs(urlsplit(href).query).get("h"), href  # a non-empty ?h=
    link.click()
    page.wait_for_load_state("load")
    marks = page.locator("article mark[data-md-highlight]")
    marks.first.wait_for(timeout=SEARCH_TIMEOUT_MS)
    texts = {text.lower() for text in marks.all_inner_texts()}
    assert any(word in text for text in texts for word in words), (page.url, texts)
    assert traffic.requests


def test_chinese_search_returns_only_chinese_pages(page: Page, site_url: str, traffic: Traffic) -> None:
    """A word both editions use (FixPipe) finds only Chinese pages from the Chinese edition.

    The page fetches the Chinese index when the search box is first focused, not as it loads
    (`ascend_dsa.site.search_loading`).
    """
    open_page(page, site_url, "pipeline/")
    page.wait_for_load_state("networkidle")
    assert not [url for url in traffic.requests if url.endswith("search_index.json")]
    results = search(page, site_url, "FixPipe", load=False)
    assert results
    assert not [path for path in results if path.startswith("en/")], results
    assert [url for url in traffic.requests if url.endswith("search_index.json")] == [
        f"{site_url}search/search_index.json"
    ]


#: JavaScript: whether the article opens with its questions ("after this chapter you can answer"), above its first
#: section heading, holding at least two questions.
_OPENS_WITH_QUESTIONS = """() => {
  const box = document.querySelector("article .exercise-questions");
  const heading = document.querySelector("article h2");
  return !!box && !!heading && box.querySelectorAll("li").length >= 2
    && box.getBoundingClientRect().top < heading.getBoundingClientRect().top;
}"""

#: JavaScript: each table in the article wider than the article's text column, as [index, width, column].
_WIDE_TABLES = """() => {
  const column = document.querySelector("article").getBoundingClientRect().width;
  return [...document.querySelectorAll("article table")]
    .map((table, index) => [index, Math.round(table.scrollWidth), Math.round(column)])
    .filter(([, width, limit]) => width > limit + 1);
}"""


#: JavaScript: for each figure in the article, as drawn at this width (a figure with a phone layout shows one of
#: its two drawings: the one displayed is measured), the problems a reader would see: a drawing wider than its
#: column (which would scroll sideways), texts whose boxes overlap (by more than a pixel both ways), texts on another
#: legend's box, texts smaller than ``minimum`` px, texts outside the figure. A notebook's figure (an image) is
#: checked for its width only.
_FIGURE_TEXT = """(minimum) => [...document.querySelectorAll(
    "article .ascend-figure > svg, article .ascend-figure > .live-figure > svg, "
    + "article .jp-RenderedSVG img")].filter((svg) => svg.getClientRects().length)
  .map((svg) => {
  const meets = (a, b) => {
    const across = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const down = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    return across > 1 && down > 1;
  };
  const frame = svg.getBoundingClientRect();
  const column = svg.parentElement.parentElement.getBoundingClientRect();
  const problems = [];
  if (frame.width > column.width + 0.5 || frame.right > column.right + 0.5)
    problems.push(`${Math.round(frame.width)} px wide in a column of ${Math.round(column.width)} px`);
  if (svg.tagName.toLowerCase() === "img") return [svg.getAttribute("alt") || "notebook figure", problems];
  const scale = frame.width / svg.viewBox.baseVal.width;
  const texts = [...svg.querySelectorAll("text")].filter((t) => t.textContent.trim()).map((t) => ({
    box: t.getBoundingClientRect(), legend: t.closest('[id^="legend"]'), name: t.textContent.trim().slice(0, 30),
    px: parseFloat(getComputedStyle(t).fontSize) * scale,
  }));
  const legends = [...svg.querySelectorAll('[id^="legend"]')].map((g) => ({g, box: g.getBoundingClientRect()}));
  texts.forEach((a, i) => texts.slice(i + 1).forEach((b) => {
    if (meets(a.box, b.box)) problems.push(`overlap ${a.name} | ${b.name}`);
  }));
  texts.forEach((t) => legends.forEach((l) => {
    if (t.legend !== l.g && meets(t.box, l.box)) problems.push(`on a legend ${t.name}`);
  }));
  texts.forEach((t) => {
    if (t.px < minimum) problems.push(`${t.px.toFixed(1)} px ${t.name}`);
    if (t.box.left < frame.left - 0.5 || t.box.right > frame.right + 0.5 || t.box.top < frame.top - 0.5
        || t.box.bottom > frame.bottom + 0.5) problems.push(`outside ${t.name}`);
  });
  return [svg.getAttribute("aria-label"), problems];
}).filter(([, problems]) => problems.length)"""
#: Smallest text in a figure at 1280 px, less what rounding the SVG's sizes can take off.
MIN_FIGURE_TEXT_PX = 10.95
#: Smallest text in a figure on a 390 px phone (render/svg.py `MIN_TEXT_PX_ON_PHONE`), less the same rounding.
MIN_PHONE_FIGURE_TEXT_PX = MIN_TEXT_PX_ON_PHONE - 0.05


def figure_problems(page: Page, minimum: float) -> list[list[object]]:
    """[aria-label, problems] of each figure of the open page a reader would find hard to read (`_FIGURE_TEXT`)."""
    problems: list[list[object]] = page.evaluate(_FIGURE_TEXT, minimum)
    return problems


API_PAGES = (
    "facts", "cycles", "design", "forward", "layouts", "report", "render-tables", "render-figures", "cli-site"
)  # fmt: skip
_RAW_ROLE = re.compile(r":(?:class|data|func|meth|attr|mod|exc|obj):`?\w")


def api_page(path: str) -> tuple[str, str] | None:
    """(edition, name) of an API reference page's path ("en/reference/api/facts/"), None for any other page."""
    found = re.fullmatch(r"((?:en/)?)reference/api/([\w-]+)/", path)
    return (found.group(1), found.group(2)) if found else None


def assert_api_page_links(page: Page, path: str, edition: str) -> int:
    """No Sphinx role shows raw; every cross-reference links into the same edition's API pages; how many there are."""
    text = page.locator("article").inner_text()
    assert not _RAW_ROLE.search(text), (path, _RAW_ROLE.search(text))
    hrefs: list[str] = page.locator("article a.autorefs").evaluate_all("links => links.map(a => a.href)")
    assert all(urlsplit(href).path.startswith(f"/{edition}reference/api/") for href in hrefs), (path, hrefs)
    return len(hrefs)


def test_every_page_loads_from_localhost_and_reads_at_desktop_and_phone_width(
    page: Page, built_site: Path, site_url: str, traffic: Traffic
) -> None:
    """One walk over every page of both editions, each page loaded once at 1280 px, checking what holds for all.

    Every request goes to 127.0.0.1, with no 404 and no console error (the traffic fixture); every table of the
    article fits the text column, so no column hides. On a page with formulas, each is typeset by KaTeX with its
    fonts. On a page with figures, each is displayed at a readable size and draws, and no figure text overlaps
    another or a legend, is under 11 px, or leaves its figure. On an API page (`API_PAGES`), no Sphinx role shows
    raw and cross-references are links into the same edition's pages. Every chapter with exercises opens with its
    questions above its first section (issue 26). Figure problems are listed together.

    A page with figures is then laid out again at 390 px, without reloading it (issue 27): each figure is no wider
    than its column (scaled to it; nothing scrolls sideways), its smallest text is at least 10 px as rendered, no
    text leaves the figure and no two texts overlap. The rule holds for any figure, matplotlib's or written by hand:
    text of size ``s`` in a drawing ``w`` wide (its viewBox) shows at ``s * min(1, column / w)`` px, so a wide
    drawing needs larger text, or a phone layout of its own (the AI Core figure stacks its two VECTOR Cores).
    """
    paths = page_paths(built_site)
    assert len(paths) >= 20
    with_math, with_figures = set(math_pages(built_site)), set(figure_pages(built_site))
    assert "discussion/heads-per-core/" in with_math
    assert len([p for p in with_figures if not p.startswith("en/")]) >= 6
    assert len([p for p in with_figures if p.startswith("en/")]) >= 6
    assert sorted(a for p in paths if (a := api_page(p))) == sorted((e, n) for e in ("", "en/") for n in API_PAGES)
    page.set_viewport_size(DESKTOP)
    wide, text_problems, phone_problems, api_links = {}, {}, {}, {"": 0, "en/": 0}
    measured_on_phone = 0
    opened = {f"{edition}{chapter.removesuffix('/index')}/" for edition in ("", "en/") for chapter in EXERCISE_CHAPTERS}
    assert opened <= set(paths)
    unopened = []
    for path in paths:  # waiting for "load" only, so a late error shows in the fixture's check, with its URL
        page.goto(site_url + path, wait_until="load")
        found = page.evaluate(_WIDE_TABLES)
        if found:
            wide[path] = found
        if path in opened and not page.evaluate(_OPENS_WITH_QUESTIONS):
            unopened.append(path)
        if (api := api_page(path)) is not None:
            api_links[api[0]] += assert_api_page_links(page, path, api[0])
        if path not in with_math and path not in with_figures:
            continue
        page.wait_for_function(PAGE_READY)
        if path in with_math:
            assert_math_typeset(page, path)
        if path in with_figures:
            assert assert_figures_visible(page, path) > 0, path
            problems = figure_problems(page, MIN_FIGURE_TEXT_PX)
            if problems:
                text_problems[path] = problems
            page.set_viewport_size(PHONE)
            measured_on_phone += page.locator(FIGURE_SELECTOR.replace(f":not(.{NARROW_CLASS})", "")).count()
            problems = figure_problems(page, MIN_PHONE_FIGURE_TEXT_PX)
            if problems:
                phone_problems[path] = problems
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], path
            page.set_viewport_size(DESKTOP)
    page.wait_for_load_state("networkidle")
    assert wide == {}
    assert unopened == []
    assert text_problems == {}
    assert phone_problems == {}
    assert measured_on_phone >= len(with_figures)
    assert min(api_links.values()) >= 20, api_links
    loaded = {urlsplit(url).path for url in traffic.requests}
    assert not [path for path in loaded if path.endswith("search_index.json")]  # fetched on first search only
    assert any(path.endswith(".woff2") for path in loaded)
    assert {urlsplit(url).hostname for url in traffic.requests} == {"127.0.0.1"}


def test_the_ai_core_figure_shows_both_vector_cores_on_a_phone(page: Page, site_url: str, traffic: Traffic) -> None:
    """At 390 px the AI Core figure shows its phone drawing (both VECTOR Cores stacked), which opens full size on a
    tap within the screen; every other figure's phone check is in the one walk over every page above."""
    page.set_viewport_size(PHONE)
    for edition in ("", "en/"):
        open_page(page, site_url, f"{edition}algorithm/model/")
        figure_div = page.locator(f"article .{FIGURE_CLASS}", has=page.locator(f"svg.{NARROW_CLASS}"))
        narrow = figure_div.locator(f"svg.{NARROW_CLASS}")
        assert narrow.is_visible()
        assert figure_div.locator("svg:not(.ascend-figure__narrow)").is_hidden()
        assert narrow.locator("text", has_text="VECTOR Core 1").count() == 1  # both cores, not just core 0
        figure_div.click()
        box = page.locator(f".ascend-figure--full > svg.{NARROW_CLASS}").bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= PHONE["width"] + 0.5
        page.keyboard.press("Escape")
    assert traffic.external() == []


def test_notebook_cells_take_the_phone_width(page: Page, site_url: str, traffic: Traffic) -> None:
    """On a 390 px phone a notebook's code and output use nearly the whole width: no prompt gutter beside them."""
    page.set_viewport_size(PHONE)
    open_page(page, site_url, "design/what-if/")
    widths = page.locator(".jp-InputArea-editor, .jp-OutputArea-output").evaluate_all(
        "cells => cells.map(cell => cell.getBoundingClientRect().width)"
    )
    assert widths
    assert min(widths) >= 0.8 * PHONE["width"], widths
    assert traffic.requests


#: JavaScript: the what-if notebook's live form as a reader meets it: whether any Python shows in its cell, and,
#: with ``text`` printed in its output (what live.js does), how many lines the output shows, whether it scrolls
#: sideways, and its background (the shadow cue).
_NOTEBOOK_FORM = """(text) => {
  const form = document.querySelector("article form[data-live]");
  const cell = form.closest(".jp-Cell");
  const output = form.querySelector("[data-live-output]");
  output.textContent = text;
  output.hidden = false;
  const range = document.createRange();
  range.selectNodeContents(output);
  const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
  const code = [...cell.querySelectorAll(".jp-InputArea, .jp-InputArea-editor")]
    .filter((e) => e.getClientRects().length);
  return {code: code.length, cellText: cell.innerText.includes("render_live_form"), lines,
          scrolls: output.scrollWidth > output.clientWidth + 1, background: getComputedStyle(output).backgroundImage};
}"""


@EDITIONS
def test_the_notebook_form_shows_no_python_and_its_output_scrolls_instead_of_wrapping(
    page: Page, site_url: str, traffic: Traffic, edition: str
) -> None:
    """The what-if notebook's form cell shows the form only (its Python is removed), and a line of live output never
    wraps: in both widths a line longer than the column scrolls sideways under the shadow cue (issue 27)."""
    long_line = "# 设计点：每个 AI Core 的周期/token 与瓶颈 | cycles/token | " + "bound " * 12
    text = f"{long_line}\nshort\n{long_line}"
    open_at(page, site_url, DESKTOP, f"{edition}design/what-if/")
    for viewport in (DESKTOP, PHONE):
        found = view_as(page, viewport, "light").evaluate(_NOTEBOOK_FORM, text)
        where = (edition, viewport, found)
        assert found["code"] == 0, where
        assert not found["cellText"], where
        assert found["lines"] == len(text.splitlines()), where
        assert found["background"].count("gradient") == 4, where
        assert found["scrolls"], where
    assert traffic.requests


#: JavaScript: for each package figure in the article, [its SVG <title>, aria-label, numbered caption prefix].
_FIGURE_NAMES = """() => [...document.querySelectorAll("article .ascend-figure")].map((figure) => {
  const svg = figure.querySelector(":scope > svg, :scope > .live-figure > svg");
  const caption = figure.querySelector(".ascend-caption");
  return [
    svg.querySelector(":scope > title")?.textContent ?? "",
    svg.getAttribute("aria-label") ?? "",
    caption ? getComputedStyle(caption, "::before").content : "",
  ];
})"""


@pytest.mark.parametrize(("path", "prefix"), [("design/", "图"), ("en/design/", "Figure")])
def test_figures_are_named_and_numbered(page: Page, site_url: str, traffic: Traffic, path: str, prefix: str) -> None:
    """Each figure has an SVG title and aria-label, and a caption the page's counter numbers in its language."""
    open_page(page, site_url, path)
    names = page.evaluate(_FIGURE_NAMES)
    assert len(names) >= 2
    for title, label, caption in names:
        assert title
        assert label == title
        assert caption.startswith(f'"{prefix} " counter(ascend-figure)'), caption
    page.locator("article .ascend-figure").first.click()
    assert page.locator(".ascend-figure--full").count() == 1
    page.keyboard.press("Escape")
    assert page.locator(".ascend-figure--full").count() == 0
    assert traffic.requests


#: Pages photographed in light and dark, at desktop and phone width, and measured.
SCREENSHOT_PAGES = ("discussion/heads-per-core/", "design/", "en/pipeline/", "en/design/what-if/")
#: Mean luminance of a viewport: Material's default palette is a white page, its slate one a dark blue-grey.
LIGHT_AT_LEAST, DARK_AT_MOST = 0.8, 0.3


def test_screenshots_in_both_schemes_and_widths(page: Page, site_url: str, traffic: Traffic) -> None:
    """The palette follows the system's scheme (Material's slate when dark), and the pixels say so too.

    Each page is loaded once, in light or dark by turns, then turned through both widths and schemes; each view is
    photographed and measured: light pages are mostly white and dark ones mostly dark, with text on them (some
    pixels far from the background, several colours), at the viewport's size.
    """
    for index, path in enumerate(SCREENSHOT_PAGES):
        first = VIEWS[index % len(VIEWS)]
        open_at(page, site_url, first[1], path, first[2])
        for name, viewport, scheme in [first, *[v for v in VIEWS if v != first]]:
            view_as(page, viewport, scheme)
            stats = pixel_stats(page, page.screenshot())
            where = (path, name, stats)
            assert (stats["width"], stats["height"]) == (viewport["width"], viewport["height"]), where
            if scheme == "dark":
                assert stats["luminance"] <= DARK_AT_MOST, where
            else:
                assert stats["luminance"] >= LIGHT_AT_LEAST, where
            assert 0.005 <= stats["ink"] <= 0.5, where
            assert stats["colours"] >= 8, where
    assert traffic.requests


def test_a_figure_draws_in_both_schemes(page: Page, site_url: str, traffic: Traffic) -> None:
    """The roofline chapter's first figure, photographed alone, has lines and text on its background, in colour."""
    open_at(page, site_url, DESKTOP, "discussion/heads-per-core/")
    figure_svg = page.locator(FIGURE_SELECTOR).first
    figure_svg.scroll_into_view_if_needed()
    for scheme in ("light", "dark"):
        view_as(page, DESKTOP, scheme)
        stats = pixel_stats(page, figure_svg.screenshot())
        assert stats["width"] >= 100, (scheme, stats)
        assert stats["height"] >= 60, (scheme, stats)
        assert 0.01 <= stats["ink"] <= 0.6, (scheme, stats)  # drawn, but not a block of one colour
        assert stats["colours"] >= 6, (scheme, stats)  # axes, text and coloured series, anti-aliased
    assert traffic.requests


#: JavaScript: whether two different Chinese characters draw different pixels in the page's body font.
#: Missing glyphs ("tofu") draw the same empty box for both.
_GLYPHS_DIFFER = """() => {
  const font = getComputedStyle(document.body).fontSize + " " + getComputedStyle(document.body).fontFamily;
  const draw = (text) => {
    const canvas = document.createElement("canvas");
    canvas.width = 64; canvas.height = 64;
    const context = canvas.getContext("2d");
    context.font = font.replace(/^[\\d.]+px/, "48px");
    context.fillText(text, 4, 52);
    return Array.from(context.getImageData(0, 0, 64, 64).data).join(",");
  };
  return draw("算") !== draw("存") && draw("存") !== draw("比");
}"""


def test_chinese_text_renders_with_real_glyphs(page: Page, site_url: str, traffic: Traffic) -> None:
    """Chinese characters draw as distinct glyphs, not as identical missing-glyph boxes (needs fonts-noto-cjk)."""
    open_page(page, site_url, "")
    assert page.evaluate(_GLYPHS_DIFFER)
    assert traffic.requests


# Tables and notebook cells as a reader sees them (issue 18): status marks without an emoji font, notebook output
# that fits at 1280 px and scrolls with a cue at 390 px, lists in cells that break only between items, copy
# buttons that never cover code; at both widths, in both editions and schemes.


#: JavaScript: the article's emoji status marks, and each drawn mark's icon, size and word.
_STATUS_MARKS = """() => {
  const article = document.querySelector("article");
  const marks = [...article.querySelectorAll(".ascend-status")].map((mark) => {
    const icon = getComputedStyle(mark, "::before");
    return [icon.backgroundImage.slice(0, 30), parseFloat(icon.width), mark.textContent.trim()];
  });
  return {emoji: (article.innerText.match(/[\\u2705\\u274c]/gu) || []).length, marks};
}"""


#: JavaScript: each table of a notebook output as [its width, its output's width, whether something between
#: them scrolls it, that scroller's background (the shadow cue)].
_OUTPUT_TABLES = """() => [...document.querySelectorAll("article .jp-OutputArea-output table")].map((table) => {
  const output = table.closest(".jp-OutputArea-output");
  let scroller = table.parentElement;
  while (scroller !== output && scroller.scrollWidth <= scroller.clientWidth + 1) scroller = scroller.parentElement;
  const wide = scroller.scrollWidth > scroller.clientWidth + 1;
  return [
    Math.round(table.getBoundingClientRect().right - output.getBoundingClientRect().right), wide,
    getComputedStyle(scroller).backgroundImage,
  ];
})"""


@EDITIONS
def test_tables_read_without_an_emoji_font_and_fit_or_scroll_with_a_cue(
    page: Page, site_url: str, traffic: Traffic, edition: str
) -> None:
    """Status marks are a word after a CSS-drawn SVG tick; notebook tables fit at 1280 px, scroll with a cue at 390.

    In both schemes: the claims ledger's status cells hold no emoji glyph; at 1280 px every notebook table fits its
    column, and at 390 px the wide ones scroll under a shadow cue.
    """
    open_at(page, site_url, DESKTOP, f"{edition}reference/claims/")
    for scheme in ("light", "dark"):
        found = view_as(page, DESKTOP, scheme).evaluate(_STATUS_MARKS)
        assert found["emoji"] == 0, scheme
        assert len(found["marks"]) >= 50, scheme
        for image, width, word in found["marks"]:
            assert image.startswith('url("data:image/svg+xml'), (scheme, image)
            assert width > 8, (scheme, width)
            assert word in {"一致", "agrees", "是", "yes"}, (scheme, word)
    open_at(page, site_url, DESKTOP, f"{edition}design/what-if/")
    for scheme in ("light", "dark"):
        tables = view_as(page, DESKTOP, scheme).evaluate(_OUTPUT_TABLES)
        assert len(tables) >= 5, scheme
        assert [t for t in tables if t[0] > 0 or t[1]] == [], scheme
        wide = [t for t in view_as(page, PHONE, scheme).evaluate(_OUTPUT_TABLES) if t[1]]
        assert len(wide) >= 3, scheme  # the limits tables have seven columns
        assert all(t[2].count("gradient") == 4 for t in wide), (scheme, wide)
    assert traffic.requests


#: JavaScript: for each row of the online-softmax trace, how many lines each head's logit list takes.
_LIST_LINES = """() => {
  const table = [...document.querySelectorAll("article table")].find((t) => t.innerText.includes("running_sumexp"));
  return [...table.querySelectorAll("tbody tr")].map((row) => {
    const cell = row.querySelectorAll("td")[1];
    const text = cell.firstChild;
    const heads = text.textContent.split("\\u00a0/ ");
    let start = 0;
    return heads.map((head) => {
      const range = document.createRange();
      range.setStart(text, start);
      range.setEnd(text, start + head.length);
      start += head.length + 3;
      return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
    });
  });
}"""


#: JavaScript: for each notebook code cell, whether its copy button is visible on top, and whether any visible
#: piece of its code lies under the button.
_COPY_BUTTONS = """() => [...document.querySelectorAll("article .jp-InputArea-editor")].map((editor) => {
  editor.scrollIntoView({block: "center"});
  const button = editor.querySelector("clipboard-copy").getBoundingClientRect();
  const pre = editor.querySelector("pre");
  const box = pre.getBoundingClientRect();
  const range = document.createRange();
  range.selectNodeContents(pre);
  const covered = [...range.getClientRects()].some((r) => {
    const left = Math.max(r.left, box.left), right = Math.min(r.right, box.right);
    const top = Math.max(r.top, box.top), bottom = Math.min(r.bottom, box.bottom);
    return right > left && bottom > top && right > button.left && left < button.right && bottom > button.top &&
      top < button.bottom;
  });
  const onTop = document.elementFromPoint(button.left + button.width / 2, button.top + button.height / 2);
  return [pre.innerText.split("\\n").length, covered, Boolean(onTop && onTop.closest("clipboard-copy"))];
})"""


@EDITIONS
def test_lists_in_cells_and_code_in_cells_read_whole(page: Page, site_url: str, traffic: Traffic, edition: str) -> None:
    """A list in a table cell breaks only between items; a notebook cell's copy button never covers its code.

    At both widths: in the flow chapter's trace each head's list of logits stays on one line; every notebook
    cell's copy button is visible and lies beside or above its code, one-line cells included.
    """
    open_at(page, site_url, DESKTOP, f"{edition}algorithm/flow/")
    for viewport in (DESKTOP, PHONE):
        rows = view_as(page, viewport, "light").evaluate(_LIST_LINES)
        assert len(rows) >= 4, viewport
        assert all(lines == [1, 1] for lines in rows), (viewport, rows)
    open_at(page, site_url, DESKTOP, f"{edition}design/what-if/")
    for viewport in (DESKTOP, PHONE):
        cells = view_as(page, viewport, "light").evaluate(_COPY_BUTTONS)
        assert len(cells) >= 10, viewport
        assert any(lines <= 2 for lines, _, _ in cells), viewport
        assert [cell for cell in cells if cell[1] or not cell[2]] == [], viewport
    assert traffic.requests


@pytest.mark.parametrize(("edition", "close"), [("", "关闭"), ("en/", "Close")])
def test_full_size_view_shows_the_whole_figure_with_a_close_button(
    page: Page, site_url: str, traffic: Traffic, edition: str, close: str
) -> None:
    """In every view, the design page's three-panel figure opens whole inside the window; its close button closes it."""
    open_at(page, site_url, DESKTOP, f"{edition}design/")
    for name, viewport, scheme in VIEWS:
        view_as(page, viewport, scheme)
        page.locator("article .ascend-figure").first.click()
        full = page.locator(".ascend-figure--full")
        assert full.count() == 1, name
        box = full.locator(":scope > svg").bounding_box()
        assert box is not None, name
        assert box["x"] >= 0, (name, box)
        assert box["y"] >= 0, (name, box)
        assert box["x"] + box["width"] <= viewport["width"] + 0.5, (name, box)
        assert box["y"] + box["height"] <= viewport["height"] + 0.5, (name, box)
        button = page.get_by_role("button", name=close)
        assert button.is_visible(), name
        button.click()
        assert page.locator(".ascend-figure--full").count() == 0, name
    assert traffic.external() == []


# --- issue 18, part A: the AI Core figure, hover definitions, links and downloads --------------------------------

#: JavaScript: the AI Core figure's scale, smallest drawn font size and the number of text pairs whose boxes meet.
_AI_CORE_TEXT = """() => {
  const figure = document.querySelector(".ascend-figure:has(> svg[viewBox='0 0 860 770'])");
  const svg = [...figure.querySelectorAll(":scope > svg")].find((s) => s.getClientRects().length);
  const box = svg.getBoundingClientRect();
  const scale = box.width / svg.viewBox.baseVal.width;
  const texts = [...svg.querySelectorAll("text")];
  const sizes = texts.map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
  const rects = texts.map((t) => t.getBoundingClientRect());
  let overlaps = 0;
  for (let i = 0; i < rects.length; i++)
    for (let j = i + 1; j < rects.length; j++) {
      const a = rects[i], b = rects[j];
      if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) overlaps++;
    }
  const inside = rects.every((r) => r.left >= box.left - 0.5 && r.right <= box.right + 0.5
    && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5);
  return {texts: texts.length, smallest: Math.min(...sizes), overlaps, inside};
}"""


@EDITIONS
def test_ai_core_figure_reads_at_both_widths(page: Page, site_url: str, traffic: Traffic, edition: str) -> None:
    """The AI Core figure in every view, the drawing shown there (the phone layout on a phone): every label at least
    11 px (10 px on a phone), none over another, all inside, drawn."""
    open_at(page, site_url, DESKTOP, f"{edition}algorithm/model/")
    for name, viewport, scheme in VIEWS:
        view_as(page, viewport, scheme)
        figure_svg = page.locator(".ascend-figure:has(> svg[viewBox='0 0 860 770']) > svg:visible")
        figure_svg.scroll_into_view_if_needed()
        measured = page.evaluate(_AI_CORE_TEXT)
        where = (edition, name, measured)
        assert measured["texts"] >= 30, where
        assert measured["smallest"] >= (11 if viewport is DESKTOP else MIN_TEXT_PX_ON_PHONE), where
        assert measured["overlaps"] == 0, where
        assert measured["inside"], where
        stats = pixel_stats(page, figure_svg.screenshot())
        assert 0.02 <= stats["ink"] <= 0.6, (where, stats)  # boxes and text on white, not a blank card
        assert stats["colours"] >= 8, (where, stats)
    assert traffic.requests


@EDITIONS
def test_hover_definitions_and_unit_pointer(page: Page, site_url: str, traffic: Traffic, edition: str) -> None:
    """A chapter's first MTE3 carries its definition in the page's language; the chapter points to the figure."""
    page.set_viewport_size(DESKTOP)
    open_page(page, site_url, f"{edition}pipeline/")
    first = page.locator("article abbr", has_text="MTE3").first
    title = first.get_attribute("title") or ""
    assert "UB" in title
    assert title.isascii() == (edition == "en/"), title
    assert page.locator("article abbr", has_text="MTE3").count() == 1
    pointer = page.locator("article blockquote a[href$='algorithm/model/#ai-core']")
    assert pointer.count() == 1
    pointer.click()
    page.wait_for_load_state("networkidle")
    assert page.url.endswith("algorithm/model/#ai-core")
    assert traffic.requests


@EDITIONS
def test_tables_download_the_rows_they_show(page: Page, site_url: str, traffic: Traffic, edition: str) -> None:
    """The pipeline page's tables each have CSV and JSON links in the page's language; the JSON names its heads."""
    page.set_viewport_size(PHONE)
    open_page(page, site_url, f"{edition}pipeline/")
    links = page.locator("article .ascend-download a")
    tables = page.locator("article table")
    assert links.count() == 2 * tables.count() >= 10
    assert links.first.inner_text() == ("Download CSV" if edition else "下载 CSV")
    assert links.nth(1).inner_text() == ("Download JSON" if edition else "下载 JSON")
    shown = [c.strip() for c in tables.nth(4).locator("tr").first.locator("th").all_inner_texts()]
    response = page.request.get(site_url + f"{edition}pipeline/" + (links.nth(9).get_attribute("href") or ""))
    assert response.ok
    columns = response.json()["columns"]
    assert [c["header"] for c in columns if c["header"] is not None] == shown
    assert traffic.requests


@EDITIONS
def test_api_names_link_both_ways(page: Page, site_url: str, traffic: Traffic, edition: str) -> None:
    """algorithm/flow's blocked_sparse_attn_fwd goes to its entry; the entry's page lists flow among its users."""
    page.set_viewport_size(DESKTOP)
    open_page(page, site_url, f"{edition}algorithm/flow/")
    link = page.locator("article a.autorefs", has_text="blocked_sparse_attn_fwd").first
    link.click()
    page.wait_for_load_state("networkidle")
    assert page.url.endswith("#ascend_dsa.models.blocked_forward.blocked_sparse_attn_fwd")
    assert f"{edition}reference/api/forward/" in page.url
    back = page.locator("#used-by ~ ul a[href$='algorithm/flow/']")
    assert back.count() == 1
    open_page(page, site_url, f"{edition}algorithm/flow/")
    upstream = page.locator("article a[href*='/kernel_body.h#L']")
    assert upstream.count() >= 5
    assert "/blob/a123d0b0191e0da7aa1e044f8644e0989cc63220/" in (upstream.first.get_attribute("href") or "")
    assert traffic.requests


def _check(page: Page, exercise: str, typed: str) -> str:
    """Type ``typed`` into the exercise's answer box, press its button, and return the outcome it shows."""
    form = page.locator(f"#exercise-{exercise} form.exercise-check")
    form.locator("input[name=answer]").fill(typed)
    form.locator("button").click()
    verdict = form.locator("output")
    outcome = verdict.get_attribute("data-outcome") or ""
    assert verdict.inner_text() == form.get_attribute(f"data-msg-{outcome}")
    return outcome


@EDITIONS
def test_an_exercise_checks_the_readers_answer_in_the_page(
    page: Page, site_url: str, traffic: Traffic, edition: str
) -> None:
    """The right answer (in any accepted unit) is accepted, a value just outside the tolerance is not; no Pyodide."""

    by_key = {exercise.key: exercise for exercise in EXERCISES}
    open_page(page, site_url, f"{edition}discussion/heads-per-core/")
    key = "heads-what-if-between"
    ratio = by_key[key].solution(SHIPPED_CONTEXT).answer
    form = page.locator(f"#exercise-{key} form.exercise-check")
    high = float(form.get_attribute("data-high") or "nan")
    assert _check(page, key, f"{float(ratio.value):.2f}") == "right"
    assert _check(page, key, f"{high + 1e-4}") == "wrong"
    assert _check(page, key, "abc") == "number"
    assert page.locator(f"#exercise-{key} details").get_attribute("open") is None
    page.locator(f"#exercise-{key} a.exercise-live").click()
    page.wait_for_url(re.compile(r"\?live=head-roofline&"))
    page.wait_for_load_state("load")
    live = page.locator('form[data-live="head-roofline"]')
    for option, value in by_key[key].inputs.items():
        assert live.locator(f'[name="{option}"]').input_value() == str(value)

    open_page(page, site_url, f"{edition}optimizations/gather2/")
    size = by_key["gather2-bytes"].solution(SHIPPED_CONTEXT).answer
    kib = int(size.value)
    assert _check(page, "gather2-bytes", f"{kib} KiB") == "right"
    assert _check(page, "gather2-bytes", f"{kib * 1024} B") == "right"
    assert _check(page, "gather2-bytes", f"{kib * 1024 + 1024} B") == "wrong"
    assert _check(page, "gather2-bytes", f"{kib} cycles") == "unit"
    assert not [url for url in traffic.requests if "pyodide" in url]


@EDITIONS
def test_primers_and_the_design_space_open_with_questions_and_check_answers(
    page: Page, site_url: str, traffic: Traffic, edition: str
) -> None:
    """Each primer, the design space and its what-if notebook: its questions above its first section, its exercises
    checked in the page (right answer accepted, a value just outside rejected), at the desktop and the phone width
    (the notebook at both); a what-if's live link fills the page's form."""

    visits = (
        *zip((DESKTOP, PHONE, DESKTOP, PHONE), (*primer_chapters(), "design/index"), strict=True),
        (DESKTOP, "design/what-if"),
        (PHONE, "design/what-if"),
    )
    for size, chapter in visits:
        page.set_viewport_size(size)
        path = f"{edition}{chapter.removesuffix('/index')}/"
        if not page.url.endswith(path):
            open_page(page, site_url, path)
        questions = page.locator("article .exercise-questions li")
        exercises = chapter_exercises(chapter)
        assert questions.count() == len(exercises[:OPENING_QUESTIONS]), chapter
        first_section = page.locator("article h2").first.bounding_box()
        opening = page.locator("article .exercise-questions").bounding_box()
        assert opening is not None, chapter
        assert first_section is not None, chapter
        assert opening["y"] < first_section["y"], chapter
        for exercise in exercises:
            solved = exercise.solution(SHIPPED_CONTEXT).answer
            high = float(page.locator(f"#exercise-{exercise.key} form").get_attribute("data-high") or "nan")
            assert _check(page, exercise.key, f"{shown_value(solved):.{solved.decimals}f}") == "right", exercise.key
            assert _check(page, exercise.key, f"{high + 1e-4}") == "wrong", exercise.key
    page.locator("#exercise-what-if-half-l2 a.exercise-live").click()
    page.wait_for_url(re.compile(r"\?live=design-point&l2-bandwidth="))
    live = page.locator('form[data-live="design-point"] [name="l2-bandwidth"]')
    half_l2 = next(exercise for exercise in EXERCISES if exercise.key == "what-if-half-l2")
    assert float(live.input_value()) == half_l2.inputs["l2-bandwidth"]
    assert not [url for url in traffic.requests if "pyodide" in url]


#: The window the home page's way in must fit without scrolling (the issue's "above the fold").
FOLD = {"width": 1280, "height": 800}


@EDITIONS
def test_home_page_shows_the_picture_and_three_paths_above_the_fold(
    page: Page, site_url: str, traffic: Traffic, edition: str
) -> None:
    """At 1280 x 800 the AI Core sketch and all three reading paths, each chapter of them, lie inside the window;
    the provenance box comes after them."""
    open_at(page, site_url, FOLD, edition)
    boxes = page.evaluate(
        """() => {
          const box = (e) => { const r = e.getBoundingClientRect(); return [r.top, r.bottom, r.width]; };
          return {
            figure: box(document.querySelector('article .home-figure svg')),
            paths: [...document.querySelectorAll('article .reading-paths__path')].map(box),
            items: [...document.querySelectorAll('article .reading-paths li')].map(box),
            quote: box(document.querySelector('article blockquote')),
          };
        }"""
    )
    top, bottom, width = boxes["figure"]
    assert top >= 0
    assert bottom <= FOLD["height"]
    assert width > 200
    assert len(boxes["paths"]) == 3
    assert all(item[0] >= 0 and item[1] <= FOLD["height"] for item in boxes["paths"] + boxes["items"])
    assert boxes["quote"][0] > max(item[1] for item in boxes["paths"])
    assert traffic.requests
