"""The home page's way in: the AI Core sketch, and the reading paths with the question each chapter answers.

The paths are data (``facts.chapters.READING_PATHS``); this module lays them out as HTML with links relative to the
home page, which are the same in both editions (``discussion/two-chips/``).
"""

from __future__ import annotations

from html import escape
from typing import Final

from ascend_dsa.facts.chapters import READING_PATHS, ReadingPath, chapter_named
from ascend_dsa.lang import Lang, check_lang, pick
from ascend_dsa.render.ai_core import render_ai_core_sketch

#: The classes of the block holding the paths and of the sketch's (styled in docs/assets/stylesheets/reader.css).
PATHS_CLASS: Final = "reading-paths"
FIGURE_CLASS: Final = "home-figure"


def _path(path: ReadingPath, lang: Lang) -> str:
    items = []
    for stop in path.stops:
        chapter = chapter_named(stop.chapter)
        items.append(
            f'<li><a href="{chapter.url or "./"}">{escape(chapter.name.in_(lang))}</a>'
            f" <span>{escape(stop.answers.in_(lang))}</span></li>"
        )
    return (
        f'<section class="{PATHS_CLASS}__path" id="path-{path.key}">'
        f'<p class="{PATHS_CLASS}__reader">{escape(path.reader.in_(lang))}</p>'
        f"<ol>{''.join(items)}</ol></section>"
    )


def render_reading_paths(*, lang: Lang = "zh") -> str:
    """The three reading paths (CUDA/Hopper engineer, student, Ascend engineer) as HTML for the home page."""
    lang = check_lang(lang)
    heading = pick(lang, "从这里开始读", "Where to start")
    return (
        f'<nav class="{PATHS_CLASS}" aria-label="{escape(heading)}">'
        + "".join(_path(path, lang) for path in READING_PATHS)
        + "</nav>"
    )


def render_home_figure(*, lang: Lang = "zh") -> str:
    """The home page's AI Core sketch, floated beside the opening sentences (which link to the full figure)."""
    return f'<div class="{FIGURE_CLASS}">{render_ai_core_sketch(lang=check_lang(lang))}</div>'
