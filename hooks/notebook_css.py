"""MkDocs hook: keep only the notebook style rules a notebook page uses.

mkdocs-jupyter inlines all of JupyterLab's style sheet (about 575 KB) into every notebook page, which made the
page weigh more than 1 MB. A rule stays when every class its selector names occurs in the page; rules without a
class (element selectors, custom properties on the wrapper) and at-rules other than ``@media`` stay as they are.
"""

from __future__ import annotations

import re
from typing import Any

from mkdocs.plugins import event_priority
from serve_state import STATE

NOTEBOOK_MARK = 'class="jupyter-wrapper"'
_STYLE = re.compile(r"(<style[^>]*>)(.*?)(</style>)", re.DOTALL)
_CLASS_ATTRIBUTE = re.compile(r'\bclass="([^"]*)"')
_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
_SELECTOR_CLASS = re.compile(r"\.(-?[_a-zA-Z][\w-]*)")
#: Only style blocks this large are pruned: the inlined JupyterLab sheet, not the page's small ones.
MIN_PRUNED_CHARS = 100_000
#: Pruned sheets kept under ``mkdocs serve`` (one per notebook page and edition, with room for an edit each).
PRUNED_KEPT = 8


def _literal_end(css: str, index: int) -> int:
    """If a string or comment starts at ``index``, the index of its last character; else ``index - 1``."""
    if css.startswith("/*", index):
        end = css.find("*/", index + 2)
        return len(css) - 1 if end < 0 else end + 1
    quote = css[index]
    if quote not in "\"'":
        return index - 1
    position = index + 1
    while position < len(css) and css[position] != quote:
        position += 2 if css[position] == "\\" else 1
    return position


def split_rules(css: str) -> list[tuple[str, str]]:
    """Top-level ``(prelude, body)`` pairs of ``css``; a body keeps its nested rules and comments."""
    rules: list[tuple[str, str]] = []
    depth, start, prelude_end, index = 0, 0, 0, 0
    while index < len(css):
        literal = _literal_end(css, index)
        if literal >= index:
            index = literal + 1
            continue
        char = css[index]
        if char == "{":
            if depth == 0:
                prelude_end = index
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                rules.append((css[start:prelude_end].strip(), css[prelude_end + 1 : index]))
                start = index + 1
        elif char == ";" and depth == 0:  # a statement at-rule such as @charset or @import
            rules.append((css[start:index].strip(), ""))
            start = index + 1
        index += 1
    return rules


#: Classes inside these pseudo-classes are alternatives or exclusions, not requirements of the selector.
_OPTIONAL = re.compile(r":(?:not|is|where|has)\((?:[^()]|\([^()]*\))*\)")


def _selector_used(selector: str, classes: set[str]) -> bool:
    """Whether every class the selector requires is in ``classes`` (one inside ``:not()`` or ``:is()`` is not)."""
    return all(name in classes for name in _SELECTOR_CLASS.findall(_OPTIONAL.sub("", selector)))


def split_selectors(prelude: str) -> list[str]:
    """The selectors of a selector list, split at commas outside parentheses (``:is(.a, .b)`` stays whole)."""
    selectors, depth, start = [], 0, 0
    for index, char in enumerate(prelude):
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "," and depth == 0:
            selectors.append(prelude[start:index])
            start = index + 1
    selectors.append(prelude[start:])
    return selectors


def prune(css: str, classes: set[str]) -> str:
    """``css`` without the rules whose selectors all name a class missing from ``classes``."""
    kept = []
    for raw, body in split_rules(css):
        prelude = _COMMENT.sub("", raw).strip()
        if prelude.startswith("@media"):
            inner = prune(body, classes)
            if inner:
                kept.append(f"{prelude}{{{inner}}}")
        elif prelude.startswith("@"):
            kept.append(f"{prelude}{{{body}}}" if body or "{" in prelude else f"{prelude};")
        else:
            selectors = [s for s in split_selectors(prelude) if _selector_used(s, classes)]
            if selectors:
                kept.append(f"{','.join(selectors)}{{{body}}}")
    return "".join(kept)


def page_classes(html: str) -> set[str]:
    """Every class name any element of ``html`` carries."""
    return {name for match in _CLASS_ATTRIBUTE.finditer(html) for name in match.group(1).split()}


def prune_page(html: str) -> str:
    """``html`` with its large inlined style sheets cut down to the rules its elements use."""
    if NOTEBOOK_MARK not in html:
        return html
    classes = page_classes(html)

    def rewrite(match: re.Match[str]) -> str:
        css = match.group(2)
        if len(css) < MIN_PRUNED_CHARS:
            return match.group(0)
        key = (css, frozenset(classes))
        pruned = STATE.pruned_css.get(key) if STATE.serving else None
        if pruned is None:
            pruned = prune(css, classes)
            if STATE.serving:
                STATE.pruned_css = {key: pruned, **dict(list(STATE.pruned_css.items())[: PRUNED_KEPT - 1])}
        return match.group(1) + pruned + match.group(3)

    return _STYLE.sub(rewrite, html)


@event_priority(-100)
def on_post_page(output: str, **kwargs: Any) -> str:  # noqa: ANN401 - MkDocs hook signature
    """Prune the inlined JupyterLab style sheet of a notebook page."""
    del kwargs
    return prune_page(output)
