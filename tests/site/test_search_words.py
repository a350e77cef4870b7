"""ascend_dsa.site.search_words: synonym groups per language, and the words of a question that name no topic."""

from __future__ import annotations

import pytest

from ascend_dsa.facts.glossary import GLOSSARY_TERMS
from ascend_dsa.site.search_words import (
    QUESTION_WORDS,
    SYNONYMS,
    Synonyms,
    phrase_token,
    phrase_tokens,
    phrases,
    synonyms_for,
)


def test_a_group_holding_a_word_gives_all_its_words() -> None:
    """Chinese words are found inside jieba's segmented text; English ones only as whole words."""
    assert "乒乓缓冲" in synonyms_for("各个\u200b缓冲\u200b深度", "zh").split()
    assert "throughput" in synonyms_for("L2 bandwidth per core", "en").split()
    assert synonyms_for("bandwidths-free text", "en") == ""  # not the word bandwidth
    assert synonyms_for("nothing to see", "en") == ""


def test_readers_words_for_not_fitting_agreeing_and_the_plain_version() -> None:
    """'UB 不够' finds a page saying 放不下; 'match' one saying 'agree'; 'naive' the 'plain version'."""
    assert "不够" in synonyms_for("UB\u200b放不下", "zh").split()
    assert "match" in synonyms_for("the two implementations agree", "en").split()
    assert "naive" in synonyms_for("the plain version, one softmax", "en").split()
    assert "naive" not in synonyms_for("a plain list", "en").split()


def test_groups_of_one_language_do_not_answer_the_other() -> None:
    """An English page mentioning 累加器 gets no Chinese synonyms, and the reverse."""
    assert synonyms_for("累加器", "en") == ""
    assert "throughput" not in synonyms_for("bandwidth", "zh")


@pytest.mark.parametrize("words", [("one",), ("a", "b,c"), ("a", " b")])
def test_a_bad_group_is_refused(words: tuple[str, ...]) -> None:
    """A group of one word, or a word with punctuation or outer spaces, is refused naming it."""
    with pytest.raises(ValueError, match="synonym"):
        Synonyms("en", words)


def test_synonyms_are_not_question_words() -> None:
    """No synonym is a word the worker drops from a query, else searching for it would find nothing new."""
    for group in SYNONYMS:
        assert not set(group.words) & set(QUESTION_WORDS[group.lang]), group


def test_question_words_are_lower_case_and_unique() -> None:
    """The worker compares lower-cased query words, so every question word is lower case and listed once."""
    for words in QUESTION_WORDS.values():
        assert all(word == word.lower() for word in words)
        assert len(set(words)) == len(words)


def test_phrases_are_the_glossarys_and_the_synonyms_terms_of_several_words() -> None:
    """Every glossary term of two words or more is a phrase in both editions; a synonym of several only in its own."""
    several = [term.term.lower() for term in GLOSSARY_TERMS if " " in term.term or "-" in term.term]
    assert several
    for lang in ("zh", "en"):
        assert set(several) <= set(phrases(lang))
        assert all(phrase.isascii() and phrase == phrase.lower() for phrase in phrases(lang))
    assert "double buffering" in phrases("en")
    assert "double buffering" not in phrases("zh")
    assert "aic" not in phrases("en")  # one word


def test_a_phrase_is_one_token_found_across_spaces_and_hyphens() -> None:
    """ "online softmax" and "memory-bound" become one word each, found only as whole words, in either spelling."""
    assert phrase_token("online softmax") == "online_softmax"
    assert phrase_token("Memory-Bound") == "memory_bound"
    assert "online_softmax" in phrase_tokens("the Online  softmax keeps a max", "en")
    assert "online_softmax" in phrase_tokens("逐块\u200b的 online softmax", "zh")
    assert "memory_bound" in phrase_tokens("it is memory bound", "en")
    assert phrase_tokens("an online softmaxes list", "en") == []


def test_synonyms_carry_the_phrase_tokens_of_the_group_too() -> None:
    """A page saying "memory-bound" is found by the phrase "memory bottleneck", not only by its single words."""
    found = synonyms_for("the kernel is memory-bound", "en").split()
    assert {"memory_bound", "memory_bottleneck", "bandwidth_bottleneck"} <= set(found)
