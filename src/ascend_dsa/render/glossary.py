"""The glossary page and the hover definitions, both from [`ascend_dsa.facts.glossary.GLOSSARY_TERMS`][].

Each entry on the page: its one-line definition (the hover text), a longer explanation, its nearest CUDA/Hopper
counterpart or "no counterpart", where the analogy breaks, the GPU-side source, and the chapters using it. Which
chapters use a term is read from the pages' sources when the page is built ([`term_chapters`][]), and the same reading
finds the hardware words the pages use that have no entry ([`unlisted_terms`][]), which a test keeps empty.
"""

from __future__ import annotations

import os
import re
from pathlib import Path, PurePosixPath
from typing import Final

from ascend_dsa.facts.chapters import SITE_CHAPTERS, Chapter, chapter_named
from ascend_dsa.facts.glossary import GLOSSARY_TERMS, NOT_IN_GLOSSARY, NOTATION, GlossaryTerm
from ascend_dsa.lang import Lang, check_lang, pick
from ascend_dsa.render.fences import CODE_SPAN, blank_fences, notebook_cells
from ascend_dsa.render.markdown import table
from ascend_dsa.validate import shown

#: Where the site's pages are, seen from the project root that ``mkdocs build`` runs in.
DOCS_DIR: Final = Path("docs")
#: The glossary page, whose links are relative to its URL.
PAGE: Final = PurePosixPath("reference/glossary.md")
#: Pages whose words are not uses: the reference section lists, documents and defines terms.
_NOT_CHAPTERS: Final = ("reference/",)
#: A page value (``{{ name }}``), an HTML comment and math: not prose.
_NOT_PROSE: Final = re.compile(r"\{\{.*?\}\}|<!--.*?-->|\$\$.*?\$\$|\$[^$\n]+\$", re.DOTALL)
#: An all-capitals word (MTE2, AIV, HF32, B_TOPK), not glued to other letters or digits.
_CAPITALS: Final = re.compile(r"(?<![A-Za-z0-9_])[A-Z][A-Z0-9]*[A-Z0-9](?:_[A-Z0-9]+)*(?![A-Za-z0-9_])")
#: A named unit, buffer or layout: a name with a capital or a digit before Core, buffer, layout or engine.
_NAMED: Final = re.compile(
    r"(?<![A-Za-z0-9_])([A-Za-z0-9-]*[A-Z0-9][A-Za-z0-9-]*) (?:Core|buffer|Buffer|layout|Layout|engine)s?(?![A-Za-z])"
)
_MASK: Final = "\x00"


def _term_pattern(term: str) -> re.Pattern[str]:
    """Uses of ``term`` as a word of its own (a plural ``s`` allowed), beside Latin or Chinese text."""
    words = r"\s+".join(re.escape(word) for word in term.split(" "))
    return re.compile(rf"(?<![A-Za-z0-9_\-]){words}s?(?![A-Za-z0-9_])")


#: Every term as a pattern, the longest first (ND2NZ before ND, AI Core before its parts).
_TERMS: Final = tuple((e, _term_pattern(e.term)) for e in sorted(GLOSSARY_TERMS, key=lambda e: -len(e.term)))


def _source_paths(docs_dir: Path, chapter: Chapter) -> tuple[Path, ...]:
    """Both editions' sources of ``chapter`` that exist under ``docs_dir``."""
    stem, _, suffix = chapter.file.rpartition(".")
    return tuple(p for p in (docs_dir / chapter.file, docs_dir / f"{stem}.en.{suffix}") if p.is_file())


def page_prose(source: str, *, notebook: bool = False) -> str:
    """The words a reader reads in a page's source: no fenced block, page value, comment or front matter.

    Inline code stays (pages write ``B_TOPK`` as code); [`unlisted_terms`][] drops it itself.
    """
    if notebook:
        return _NOT_PROSE.sub(" ", "\n".join(notebook_cells(source, "markdown")))
    lines = source.split("\n")
    if lines and lines[0] == "---":
        end = next((i for i, line in enumerate(lines[1:], 1) if line == "---"), 0)
        lines = lines[end + 1 :]
    return _NOT_PROSE.sub(" ", blank_fences("\n".join(lines)))


def _chapter_prose(docs_dir: Path) -> dict[Chapter, str]:
    """The prose of each chapter outside the reference section, both editions together."""
    if not isinstance(docs_dir, str | os.PathLike):
        raise TypeError(f"docs_dir must be a path (str or Path), got {type(docs_dir).__name__} {shown(docs_dir)}")
    docs_dir = Path(docs_dir)
    try:
        is_dir = docs_dir.is_dir()
    except OSError as error:  # a name too long for the file system, say
        raise ValueError(
            f"docs_dir must be the site's docs directory, got {shown(str(docs_dir))} ({error.strerror})"
        ) from error
    if not is_dir:
        raise ValueError(f"docs_dir must be the site's docs directory, got {shown(str(docs_dir))} (not a directory)")
    prose = {}
    for chapter in SITE_CHAPTERS:
        if chapter.file.startswith(_NOT_CHAPTERS):
            continue
        texts = [
            page_prose(p.read_text(encoding="utf-8"), notebook=p.suffix == ".ipynb")
            for p in _source_paths(docs_dir, chapter)
        ]
        prose[chapter] = "\n".join(texts)
    return prose


def term_chapters(docs_dir: Path = DOCS_DIR) -> dict[str, tuple[Chapter, ...]]:
    """For each glossary term, the chapters (in nav order) whose prose, in either edition, uses it."""
    prose = _chapter_prose(docs_dir)
    return {
        entry.term: tuple(chapter for chapter, text in prose.items() if pattern.search(text))
        for entry, pattern in _TERMS
    }


def unlisted_terms(docs_dir: Path = DOCS_DIR) -> dict[str, tuple[str, ...]]:
    """Hardware and kernel words two or more chapters use that have no entry and no reason to be left out.

    A word is an all-capitals one (MTE2, AIV, HF32) or a named unit, buffer or layout (``SS buffer``) in prose outside
    inline code, once the glossary's own terms are masked (so ``AI Core`` leaves no ``AI``). The result maps each such
    word to the keys of the chapters using it.
    """
    used: dict[str, set[str]] = {}
    for chapter, prose in _chapter_prose(docs_dir).items():
        text = CODE_SPAN.sub(" ", prose)
        for _, pattern in _TERMS:
            text = pattern.sub(_MASK, text)
        named = {m.group(0).removesuffix("s") for m in _NAMED.finditer(text)}
        words = named | set(_CAPITALS.findall(_NAMED.sub(_MASK, text)))
        for word in words:
            used.setdefault(word, set()).add(chapter.key)
    return {
        word: tuple(sorted(keys))
        for word, keys in sorted(used.items())
        if len(keys) > 1 and word not in NOT_IN_GLOSSARY
    }


def _url(chapter: Chapter) -> str:
    """The chapter's built URL relative to the glossary page's (the same from both editions' copies)."""
    return "../" * len(PAGE.with_suffix("").parts) + chapter.url


def _entry(entry: GlossaryTerm, chapters: tuple[Chapter, ...], lang: Lang) -> str:
    counterpart = (
        pick(lang, "没有对应物。", "no counterpart.") if entry.counterpart is None else entry.counterpart.in_(lang)
    )
    used = (
        pick(lang, "、", ", ").join(f"[{c.name.in_(lang)}]({_url(c)})" for c in chapters)
        if chapters
        else pick(lang, "（还没有章节用到）", "(no chapter yet)")
    )
    body = [
        entry.text(lang),
        entry.explanation.in_(lang),
        pick(lang, f"**CUDA/Hopper 上的对应物**：{counterpart}", f"**On CUDA/Hopper**: {counterpart}"),
        pick(
            lang,
            f"**类比在哪里不成立**：{entry.breaks.in_(lang)}",
            f"**Where the analogy breaks**: {entry.breaks.in_(lang)}",
        ),
        pick(lang, "**GPU 一侧的出处**：", "**GPU-side source**: ")
        + f"[{entry.gpu_source.label}]({entry.gpu_source.url})",
        *_explained_in(entry.chapter, lang),
        pick(lang, f"**用到它的章节**：{used}", f"**Chapters using it**: {used}"),
    ]
    return f"**{entry.term}**{{ #{entry.anchor} }}\n:   " + "\n\n    ".join(body)


def _explained_in(key: str | None, lang: Lang) -> list[str]:
    """The line linking the chapter that explains a term or letter; none where only the glossary does."""
    if key is None:
        return []
    chapter = chapter_named(key)
    link = f"[{chapter.name.in_(lang)}]({_url(chapter)})"
    return [pick(lang, f"**讲解它的章节**：{link}", f"**Explained in**: {link}")]


def render_glossary(*, lang: Lang = "zh", docs_dir: Path = DOCS_DIR) -> str:
    """Every term as a definition list with its own anchor (``glossary/#mte2``): definition, explanation, counterpart.

    The chapters listed under each term are those whose sources under ``docs_dir`` use it. Then the notation's
    letters (P, S), which figures and tables use, each with its anchor too (``glossary/#symbol-p``).
    """
    lang = check_lang(lang)
    chapters = term_chapters(docs_dir)
    terms = [_entry(entry, chapters[entry.term], lang) for entry in GLOSSARY_TERMS]
    symbols = [
        f"**{e.symbol}**{{ #symbol-{e.symbol.lower()} }}\n:   "
        + "\n\n    ".join([e.definition.in_(lang), *_explained_in(e.chapter, lang)])
        for e in NOTATION
    ]
    return "\n\n".join([*terms, *symbols]) + "\n"


def render_glossary_map(*, lang: Lang = "zh") -> str:
    """One row per term: its name linked to its entry, and its nearest CUDA/Hopper counterpart or none."""
    lang = check_lang(lang)
    none = pick(lang, "没有对应物", "no counterpart")
    rows = [
        [f"[{e.term}](#{e.anchor})", none if e.counterpart is None else e.counterpart.in_(lang)] for e in GLOSSARY_TERMS
    ]
    return table([pick(lang, "昇腾", "Ascend"), pick(lang, "CUDA/Hopper 上最接近的", "nearest on CUDA/Hopper")], rows)


def abbreviations(*, lang: Lang = "zh") -> str:
    """The terms as Markdown abbreviations (``*[MTE2]: ...``): appended to a page, each use shows its definition."""
    lang = check_lang(lang)
    return "".join(f"*[{entry.term}]: {entry.text(lang)}\n" for entry in GLOSSARY_TERMS)
