"""Links where they help: API names to their reference entries and back, upstream citations to the cited line.

- In a chapter's prose, inline code naming a public function or class of the package (`` `simulate` ``,
  `` `blocked_sparse_attn_fwd(...)` ``) becomes an autorefs link to its entry in the API reference
  (`api_links`); mkdocs-autorefs resolves it to the entry in the page's own edition.
- A citation of an upstream file by line (``kernel_body.h:1312``, ``config.h:78-81``) links to that line of the
  file at the commit the package pins (`citation_links`, `upstream_url`).
- Each API reference page ends with the chapters whose code calls, or whose prose names, something it documents
  (`chapters_using`, `used_by_section`), found at build time from the pages' sources.

The identifiers and the chapters using each module are read from the sources (`ascend_dsa.site.sources`), never
by importing the package, once per build for both editions (`ApiIndex`); a module with a syntax error documents
nothing until it is fixed, and the API page that documents it says so.

Only prose changes: fenced blocks, inline code that is not a bare name, and existing links stay as they are.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, Final

from ascend_dsa.facts.provenance import (
    CONFIG_H_COMMIT,
    CONFIG_H_PATH,
    INSTANTIATIONS_SCRIPT_COMMIT,
    INSTANTIATIONS_SCRIPT_PATH,
    KERNEL_BODY_COMMIT,
    KERNEL_BODY_PATH,
    KV_CACHE_FORMAT_COMMIT,
    KV_CACHE_FORMAT_PATH,
    UPSTREAM_REPOSITORY,
)
from ascend_dsa.lang import Lang, pick
from ascend_dsa.render.fences import CODE_SPAN, docs_pages, fences, notebook_cells, outside_fences

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from ascend_dsa.site.sources import SourceTree

#: Each upstream file the pages cite by line: its path in the repository and the commit the package pins.
UPSTREAM_FILES: Final = {
    "kernel_body.h": (KERNEL_BODY_PATH, KERNEL_BODY_COMMIT),
    "config.h": (CONFIG_H_PATH, CONFIG_H_COMMIT),
    "kv_cache_format.h": (KV_CACHE_FORMAT_PATH, KV_CACHE_FORMAT_COMMIT),
    "generate_instantiations.py": (INSTANTIATIONS_SCRIPT_PATH, INSTANTIATIONS_SCRIPT_COMMIT),
}
#: Where the API reference pages live, under the docs folder.
API_FOLDER: Final = "reference/api/"

_CITATION: Final = re.compile(
    r"(?<![\w/.\[`-])(?P<file>"
    + "|".join(re.escape(f) for f in UPSTREAM_FILES)
    + r"):(?P<first>\d+)(?:-(?P<last>\d+))?\b"
)
#: Inline code holding a bare name or a call, not inside a link's text: `` `name` `` or `` `name(...)` ``.
_NAME_SPAN: Final = re.compile(r"(?<![\[`])`(?P<name>[A-Za-z_]\w*)(?P<call>\([^`\n]*\))?`(?![`\]])")
_LINK: Final = re.compile(r"\[[^\]\n]*\]\([^)\n]*\)|\[[^\]\n]*\]\[[^\]\n]*\]")
_DOCUMENTED: Final = re.compile(r"^::: (ascend_dsa[\w.]*)\s*$", re.MULTILINE)
_CALLED: Final = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
_TITLE: Final = re.compile(r"^# (.+?)(?:\s*\{\s*#[\w-]+\s*\})?\s*$", re.MULTILINE)


def upstream_url(file: str, first: int, last: int | None = None) -> str:
    """The GitHub address of lines ``first``..``last`` of an upstream file at the pinned commit."""
    if file not in UPSTREAM_FILES:
        raise ValueError(f"file must be one of {', '.join(UPSTREAM_FILES)}, got {file!r}")
    path, commit = UPSTREAM_FILES[file]
    lines = f"L{first}" if last is None or last == first else f"L{first}-L{last}"
    return f"https://github.com/{UPSTREAM_REPOSITORY}/blob/{commit}/{path}#{lines}"


_CODE_OR_LINK: Final = re.compile(f"{CODE_SPAN.pattern}|{_LINK.pattern}", re.DOTALL)


def _outside_code_and_links(text: str, change: re.Pattern[str], replace: Callable[[re.Match[str]], str]) -> str:
    """``text`` with ``change`` applied outside code spans and links (fenced blocks are the caller's business)."""
    parts, position = [], 0
    for match in _CODE_OR_LINK.finditer(text):
        parts += [change.sub(replace, text[position : match.start()]), match.group(0)]
        position = match.end()
    parts.append(change.sub(replace, text[position:]))
    return "".join(parts)


def citation_links(markdown: str) -> str:
    """``markdown`` with each ``file.h:N`` citation in its prose linked to that line upstream."""

    def link(match: re.Match[str]) -> str:
        last = int(match["last"]) if match["last"] else None
        return f"[{match.group(0)}]({upstream_url(match['file'], int(match['first']), last)})"

    return outside_fences(markdown, lambda text: _outside_code_and_links(text, _CITATION, link))


def documented_modules(docs_dir: Path) -> tuple[str, ...]:
    """The modules the API reference pages document (their ``::: module`` lines), in page order."""
    pages = sorted((docs_dir / API_FOLDER).glob("*.md"))
    found = [m for page in pages for m in _DOCUMENTED.findall(page.read_text(encoding="utf-8"))]
    return tuple(dict.fromkeys(found))


def defined_names(source: str | bytes) -> tuple[str, ...]:
    """The public functions and classes a module's source defines at its top level, in source order."""
    kinds = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
    return tuple(n.name for n in ast.parse(source).body if isinstance(n, kinds) and not n.name.startswith("_"))


def api_identifiers(tree: SourceTree, modules: tuple[str, ...], memo: Memo | None = None) -> dict[str, str]:
    """Each public function and class defined in ``modules``, and its identifier in the API reference.

    A module whose source does not parse defines nothing here: the API page documenting it fails and says so.
    ``memo`` keeps each file's names by its digest, for the next build.
    """
    found: dict[str, str] = {}
    for module_name in modules:
        file = tree.modules.get(module_name)
        if file is None:
            raise ValueError(f"the API reference documents {module_name}, which is not a module under {tree.src}")
        for name in _remembered(memo, "defined", file, tree, _defined_if_it_parses):
            found.setdefault(name, f"{module_name}.{name}")
    return found


def _defined_if_it_parses(file: Path) -> tuple[str, ...]:
    try:
        return defined_names(file.read_bytes())
    except (SyntaxError, ValueError):
        return ()


#: What the readers of this module keep between builds: by reader, file and digest, what they read.
Memo = dict[tuple[str, Path, str], Any]


def _remembered(memo: Memo | None, reader: str, file: Path, tree: SourceTree, read: Callable[[Path], Any]) -> Any:  # noqa: ANN401 - each reader's own result
    """``read(file)``, or what it returned for the same content before."""
    if memo is None:
        return read(file)
    key = (reader, file, tree.digests.file(file))
    if key not in memo:
        memo[key] = read(file)
    return memo[key]


def api_links(markdown: str, identifiers: Mapping[str, str]) -> str:
    """``markdown`` with inline code naming one of ``identifiers`` made a link to its reference entry."""

    def link(match: re.Match[str]) -> str:
        identifier = identifiers.get(match["name"])
        return match.group(0) if identifier is None else f"[{match.group(0)}][{identifier}]"

    return outside_fences(markdown, lambda text: _NAME_SPAN.sub(link, text))


def _page_names(page: Path) -> set[str]:
    """Names a page's code calls (executed blocks, notebook cells) or its prose shows as inline code."""
    text = page.read_text(encoding="utf-8")
    if page.suffix == ".ipynb":
        code, prose = notebook_cells(text, "code"), "\n".join(notebook_cells(text, "markdown"))
    else:
        code = [fence.code for fence in fences(text) if fence.executed]
        prose = outside_fences(text, lambda part: part)
    called = {name for block in code for name in _CALLED.findall(block)}
    return called | {m["name"] for m in _NAME_SPAN.finditer(prose)}


def _imports(tree: SourceTree, module_name: str) -> set[str]:
    """The package's modules that ``module_name`` imports (type-only imports too), read from its source."""
    found = tree.imports_of(module_name) if module_name in tree.modules else None
    if found is None:
        raise ValueError(f"module {module_name} has no source that parses under {tree.src}")
    return {i.target(tree.modules) for i in found.ours() if i.module != "ascend_dsa"}


def chapters_using(
    docs_dir: Path, modules: frozenset[str], identifiers: Mapping[str, str], tree: SourceTree, memo: Memo | None = None
) -> dict[str, list[str]]:
    """The Chinese page files (not the API pages) that use one of ``modules``, and which ones.

    A page uses a module when its code calls, or its prose names, a function or class defined there, or defined in
    a module that imports it (a chapter calls a renderer; the renderer's models are used by the chapter too).
    """
    uses: dict[str, list[str]] = {}
    for page in docs_pages(docs_dir):
        relative = page.relative_to(docs_dir).as_posix()
        if relative.startswith(API_FOLDER) or PurePosixPath(relative).stem.endswith(".en"):
            continue
        names = _remembered(memo, "names", page, tree, _page_names)
        direct = {identifiers[n].rsplit(".", 1)[0] for n in names if n in identifiers}
        reached = direct.union(*(_imports(tree, m) for m in direct))
        used = sorted(reached & modules)
        if used:
            uses[relative] = used
    return uses


@dataclass(frozen=True)
class ApiIndex:
    """What the links of one build need: each API name's identifier, and the chapters using each module."""

    identifiers: dict[str, str]
    uses: dict[str, list[str]]


def api_index(docs_dir: Path, tree: SourceTree, memo: Memo | None = None) -> ApiIndex:
    """The `ApiIndex` of the pages under ``docs_dir`` and the sources ``tree`` reads (for both editions).

    ``memo`` keeps what each file's source said, by its digest, for the next build (under serve).
    """
    modules = documented_modules(docs_dir)
    identifiers = api_identifiers(tree, modules, memo)
    return ApiIndex(identifiers, chapters_using(docs_dir, frozenset(modules), identifiers, tree, memo))


def _title(page: Path) -> str:
    if page.suffix == ".ipynb":
        cells = json.loads(page.read_text(encoding="utf-8"))["cells"]
        text = "".join(cells[0]["source"]) if cells else ""
    else:
        text = page.read_text(encoding="utf-8")
    found = _TITLE.search(text)
    return found.group(1).strip() if found else page.stem


def used_by_section(docs_dir: Path, api_page: str, lang: Lang, uses: Mapping[str, list[str]]) -> str:
    """The Markdown section an API page ends with: each chapter that uses what it documents, and which modules.

    ``uses`` is [`chapters_using`][] over every documented module, found once per build for all the API pages.
    """
    modules = frozenset(_DOCUMENTED.findall((docs_dir / api_page).read_text(encoding="utf-8")))
    mine = {page: [m for m in used if m in modules] for page, used in uses.items()}
    if not any(mine.values()):
        return ""
    up = "../" * api_page.count("/")
    lines = []
    for page, used in mine.items():
        if not used:
            continue
        twin = page.replace(".md", ".en.md").replace(".ipynb", ".en.ipynb")
        title = _title(docs_dir / pick(lang, page, twin if (docs_dir / twin).exists() else page))
        listed = ", ".join(f"`{m}`" for m in used)
        lines.append(f"- [{title}]({up}{page}): {listed}")
    heading = pick(lang, "## 用到本页的章节 { #used-by }", "## Chapters that use this page { #used-by }")
    return f"\n\n{heading}\n\n" + "\n".join(lines) + "\n"
