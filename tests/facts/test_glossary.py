"""The glossary: one entry per term, both languages, and the terms issue 18 asks for."""

from __future__ import annotations

import pytest

from ascend_dsa.facts.glossary import GLOSSARY_TERMS, GlossaryTerm, glossary_term
from ascend_dsa.lang import Text

#: The units and ideas issue 18 names for the glossary.
REQUIRED = (
    "CUBE", "VECTOR", "MMAD", "MTE2", "MTE3", "FixPipe", "L0A", "L0B", "L0C", "UB", "L1", "ND", "NZ", "skip-scale",
    "B_TOPK", "1C1V", "1C2V", "roofline", "online softmax",
)  # fmt: skip


def test_required_terms_are_there_once() -> None:
    """Every term the issue lists is defined, and no term or anchor is defined twice."""
    terms = [entry.term for entry in GLOSSARY_TERMS]
    assert set(REQUIRED) <= set(terms)
    assert len(set(terms)) == len(terms)
    assert len({entry.anchor for entry in GLOSSARY_TERMS}) == len(terms)


def test_each_edition_has_its_own_definition() -> None:
    """The Chinese and English definitions differ, and each is in its language."""
    for entry in GLOSSARY_TERMS:
        assert entry.text("zh") != entry.text("en")
        assert any(ord(ch) > 0x2E7F for ch in entry.text("zh")), entry.term
        assert all(ord(ch) < 0x2E80 for ch in entry.text("en")), entry.term


def test_lookup_and_anchor() -> None:
    """A term is found by name, its anchor is lower case with hyphens, and an unknown term names the choices."""
    assert glossary_term("online softmax").anchor == "online-softmax"
    assert glossary_term("B_TOPK").anchor == "b-topk"
    with pytest.raises(KeyError, match="'MTE9' is not in the glossary; terms: AI Core"):
        glossary_term("MTE9")


@pytest.mark.parametrize("term", ["", " UB", "U[B]", "a\nb"])
def test_a_term_the_abbreviation_syntax_cannot_hold_is_refused(term: str) -> None:
    """A term with brackets, a line break or a leading blank is refused at construction."""
    with pytest.raises(ValueError, match="term must be letters"):
        GlossaryTerm(term, Text("定义", "definition"))


def test_a_definition_with_a_bracket_is_refused() -> None:
    """A bracket would end the abbreviation early, so a definition holding one is refused."""
    with pytest.raises(ValueError, match="definition of UB must be one line without brackets"):
        GlossaryTerm("UB", Text("定义", "see [here]"))
