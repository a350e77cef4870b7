"""The glossary page and the hover definitions, both from [`ascend_dsa.facts.glossary.GLOSSARY_TERMS`][]."""

from __future__ import annotations

from ascend_dsa.facts.glossary import GLOSSARY_TERMS, NOTATION
from ascend_dsa.lang import Lang, check_lang


def render_glossary(*, lang: Lang = "zh") -> str:
    """Every term as a definition list, each with its own anchor (``glossary/#mte2``), then the notation's letters.

    The letters (P, S) are those figures and tables use; each has its anchor too (``glossary/#symbol-p``).
    """
    lang = check_lang(lang)
    terms = [f"**{entry.term}**{{ #{entry.anchor} }}\n:   {entry.text(lang)}" for entry in GLOSSARY_TERMS]
    symbols = [f"**{e.symbol}**{{ #symbol-{e.symbol.lower()} }}\n:   {e.definition.in_(lang)}" for e in NOTATION]
    return "\n\n".join([*terms, *symbols]) + "\n"


def abbreviations(*, lang: Lang = "zh") -> str:
    """The terms as Markdown abbreviations (``*[MTE2]: ...``): appended to a page, each use shows its definition."""
    lang = check_lang(lang)
    return "".join(f"*[{entry.term}]: {entry.text(lang)}\n" for entry in GLOSSARY_TERMS)
