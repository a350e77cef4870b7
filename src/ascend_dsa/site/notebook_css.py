"""Notebook pages keep only the notebook style rules they use.

mkdocs-jupyter inlines all of JupyterLab's style sheet (about 575 KB) into every notebook page, which made the
page weigh more than 1 MB. A rule stays when every class its selector names occurs in the page; rules without a
class (element selectors, custom properties on the wrapper) and at-rules other than ``@media`` stay as they are.
"""

from __future__ import annotations

import re
from typing import Final

NOTEBOOK_MARK: Final = 'class="jupyter-wrapper"'
_STYLE = re.compile(r"(<style[^>]*>)(.*?)(</style>)", re.DOTALL)
_CLASS_ATTRIBUTE = re.compile(r'\bclass="([^"]*)"')
_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
_SELECTOR_CLASS = re.compile(r"\.(-?[_a-zA-Z][\w-]*)")
#: Only style blocks this large are pruned: the inlined JupyterLab sheet, not the page's small ones.
MIN_PRUNED_CHARS: Final = 100_000


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


def prune(css: str, classes: set[str], parsed: dict[str, list[tuple[str, str]]] | None = None) -> str:
    """``css`` without the rules whose selectors all name a class missing from ``classes``.

    ``parsed`` keeps each sheet's split rules, by its text, for the next page (the other edition's notebook).
    """
    kept = []
    if parsed is None:
        rules = split_rules(css)
    else:
        if css not in parsed:
            parsed[css] = split_rules(css)
        rules = parsed[css]
    for raw, body in rules:
        prelude = _COMMENT.sub("", raw).strip()
        if prelude.startswith("@media"):
            inner = prune(body, classes, parsed)
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


def prune_page(html: str, pruned: dict[object, object] | None = None) -> str:
    """``html`` with its large inlined style sheets cut down to the rules its elements use.

    ``pruned`` keeps each sheet's parsed rules, and each result by sheet and classes, for the next notebook page
    (the other edition's) and build.
    """
    if NOTEBOOK_MARK not in html:
        return html
    classes = frozenset(page_classes(html))
    kept: dict[object, object] = {} if pruned is None else pruned
    parsed: dict[str, list[tuple[str, str]]] = kept.setdefault("rules", {})  # type: ignore[assignment]

    def rewrite(match: re.Match[str]) -> str:
        css = match.group(2)
        if len(css) < MIN_PRUNED_CHARS:
            return match.group(0)
        key = (css, classes)
        if key not in kept:
            kept[key] = prune(css, set(classes), parsed)
        return match.group(1) + str(kept[key]) + match.group(3)

    return _STYLE.sub(rewrite, html)
