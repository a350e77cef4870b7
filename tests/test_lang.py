"""The two languages: one choice (`pick`), pairs of texts, and a complete glossary."""

import pytest

from ascend_dsa.lang import GLOSSARY, Text, check_lang, pick, term, unit_name


def test_every_glossary_term_has_both_languages() -> None:
    """Each key names a term with nonempty Chinese and English text."""
    assert GLOSSARY
    for name, text in GLOSSARY.items():
        assert ":" in name, name
        assert text.zh.strip(), name
        assert text.en.strip(), name


def test_term_and_pick_choose_by_language() -> None:
    """A term and a sentence read in the page's language."""
    assert term("kind:derived", "zh") == "推导"
    assert term("kind:derived", "en") == "derived"
    assert pick("zh", "中", "en") == "中"
    assert Text("中", "en").in_("en") == "en"


def test_unknown_term_and_language_raise() -> None:
    """A missing term or a language the site lacks is an error naming it."""
    with pytest.raises(ValueError, match="no-such"):
        term("no-such", "en")
    with pytest.raises(ValueError, match="'fr'"):
        check_lang("fr")
    with pytest.raises(ValueError, match="both languages"):
        Text("", "en")


def test_units_not_in_the_glossary_read_the_same() -> None:
    """A unit the glossary lacks is written as it is in both languages."""
    assert unit_name("requests", "zh") == "个请求"
    assert unit_name("B/cycle", "zh") == "B/cycle"
