"""The home page's way in: the AI Core sketch and the reading paths, from the chapter registry."""

from __future__ import annotations

import re
from html import escape

import pytest

from ascend_dsa.facts.chapters import READING_PATHS, chapter_named
from ascend_dsa.render.home import render_home_figure, render_reading_paths


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_each_path_lists_its_chapters_in_order_with_their_questions(lang: str) -> None:
    """Every path shows its reader, then each chapter linked by its nav title with the question it answers."""
    html = render_reading_paths(lang=lang)  # type: ignore[arg-type]
    assert html.count('<section class="reading-paths__path"') == len(READING_PATHS) == 3
    for path in READING_PATHS:
        section = html.split(f'id="path-{path.key}">', 1)[1].split("</section>", 1)[0]
        assert path.reader.in_(lang) in section  # type: ignore[arg-type]
        links = re.findall(r'<li><a href="([^"]*)">', section)
        assert links == [chapter_named(stop.chapter).url or "./" for stop in path.stops]
        for stop in path.stops:
            assert escape(stop.answers.in_(lang)) in section  # type: ignore[arg-type]
    # A title and its question stay two words in the page's text (search's snippets), not "q head每个核".
    plain = re.sub(r"<[^>]+>", "", html)
    for stop in (stop for path in READING_PATHS for stop in path.stops):
        title = escape(chapter_named(stop.chapter).name.in_(lang))  # type: ignore[arg-type]
        assert f"{title} {escape(stop.answers.in_(lang))}" in plain  # type: ignore[arg-type]


def test_the_paths_are_for_a_cuda_engineer_a_student_and_an_ascend_engineer() -> None:
    """The three readers the issue names, in that order, each with at least three chapters."""
    assert [p.reader.en for p in READING_PATHS] == ["CUDA/Hopper kernel engineer", "Student", "Ascend engineer"]
    assert all(len(p.stops) >= 3 for p in READING_PATHS)


def test_the_home_figure_links_its_units_and_the_full_figure() -> None:
    """The sketch's unit names link to their glossary entries, in the home page's float."""
    html = render_home_figure(lang="en")
    for anchor in ("l2", "ub", "l1", "l0c", "cube", "mte2", "fixpipe"):
        assert f'href="reference/glossary/#{anchor}"' in html
    assert html.startswith('<div class="home-figure">')
    assert "<svg" in html
