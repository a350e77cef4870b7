"""The glossary page and the hover definitions, both from [`ascend_dsa.facts.glossary.GLOSSARY_TERMS`][]."""

from __future__ import annotations

from ascend_dsa.facts.glossary import GLOSSARY_TERMS
from ascend_dsa.lang import Lang, check_lang


def render_glossary(*, lang: Lang = "zh") -> str:
    """Every term as a definition list, each term with its own anchor (``glossary/#mte2``) for links."""
    lang = check_lang(lang)
    return (
        "\n\n".join(f"**{entry.term}**{{ #{entry.anchor} }}\n:   {entry.text(lang)}" for entry in GLOSSARY_TERMS) + "\n"
    )


def abbreviations(*, lang: Lang = "zh") -> str:
    """The terms as Markdown abbreviations (``*[MTE2]: ...``): appended to a page, each use shows its definition."""
    lang = check_lang(lang)
    return "".join(f"*[{entry.term}]: {entry.text(lang)}\n" for entry in GLOSSARY_TERMS)
