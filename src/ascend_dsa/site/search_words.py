"""The words readers search with that the pages do not use: synonyms, and the words of a question that name no topic.

A reader asks "double buffering" where the pipeline chapter writes "buffer depths", "访存瓶颈" where a page writes
"受 L2 带宽限制" or "memory-bound". [`SYNONYMS`][] lists such groups per language; a section of the search index that
holds one word of a group also holds the others, in a field that is searched but never shown
(`ascend_dsa.site.search_index`). [`QUESTION_WORDS`][] are the words of a question ("why", "how", "怎么办", "是什么")
that the search worker drops from a query which has other words, so that they do not outweigh the topic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from ascend_dsa.facts.glossary import GLOSSARY_TERMS
from ascend_dsa.validate import shown

if TYPE_CHECKING:
    from ascend_dsa.lang import Lang

#: Jieba's zero-width space between the words of the Chinese index.
_ZWSP: Final = "\u200b"
#: What separates the words of a synonym group entry: nothing but letters, digits, CJK, spaces, "-" and "_".
_WORD: Final = re.compile(r"[\w\- ]+")
#: A group is at least a word and another.
_GROUP_MIN_WORDS: Final = 2


@dataclass(frozen=True)
class Synonyms:
    """Words of one language that readers use for the same thing; a section holding one is found by any."""

    lang: Lang
    words: tuple[str, ...]

    def __post_init__(self) -> None:
        """Reject a group of fewer than two words, or a word with punctuation the index would split on."""
        if len(self.words) < _GROUP_MIN_WORDS:
            raise ValueError(f"a synonym group needs at least two words, got {shown(self.words)}")
        for word in self.words:
            if not _WORD.fullmatch(word) or word != word.strip():
                raise ValueError(f"a synonym must be letters, digits, spaces, '-' or '_', got {shown(word)}")

    def found_in(self, text: str) -> bool:
        """Whether ``text`` (a section's title and text) holds one of the words, as a whole word in English."""
        plain = text.replace(_ZWSP, "").lower()
        if self.lang == "zh":
            return any(word.lower() in plain for word in self.words)
        return any(re.search(rf"(?<![\w-]){re.escape(word.lower())}(?![\w-])", plain) for word in self.words)


def _zh(*words: str) -> Synonyms:
    return Synonyms("zh", words)


def _en(*words: str) -> Synonyms:
    return Synonyms("en", words)


#: Groups of words readers use for the same idea, per language (the pages' word first, then the readers').
SYNONYMS: Final = (
    _zh("缓冲深度", "双缓冲", "乒乓缓冲", "多缓冲", "乒乓"),
    _zh("带宽", "吞吐", "吞吐量"),
    _zh("瓶颈", "受限", "访存瓶颈", "带宽瓶颈", "访存受限", "带宽受限", "memory-bound", "compute-bound"),
    _zh("峰值的多少", "占峰值的比例", "算力利用率", "峰值利用率", "MFU"),
    _zh("累加器", "accumulator", "out_accum"),
    _zh("指令缓存", "icache"),
    _zh("放不下", "装不下", "不够", "容量不足"),
    _en("buffer depth", "buffer depths", "double buffering", "double buffer", "ping-pong", "multi-buffering"),
    _en("bandwidth", "throughput"),
    _en("memory-bound", "bandwidth-bound", "memory bottleneck", "bandwidth bottleneck"),
    _en("fraction of peak", "utilisation", "utilization", "MFU"),
    _en("instruction cache", "icache"),
    _en("agree", "match"),
    _en("plain version", "naive", "unblocked"),
    _en("gather", "fetch"),
    _en("budget", "plan"),
)

#: Words of a question that name no topic, per language: dropped from a query that has other words.
QUESTION_WORDS: Final[dict[Lang, tuple[str, ...]]] = {
    "zh": (
        "为什么", "为何", "怎么", "怎么办", "怎样", "怎么样", "如何", "什么", "是什么", "什么时候", "哪里", "在哪",
        "在哪里", "哪", "哪个", "哪些", "多少", "多大", "多高", "多久", "多", "几", "几个", "吗", "呢", "吧", "会",
        "能", "能不能", "可以", "要", "需要", "是", "的", "了", "和", "与", "还是", "有", "在", "一个",
    ),
    "en": (
        "why", "how", "what", "which", "where", "when", "who", "does", "do", "did", "is", "are", "was", "can",
        "could", "should", "would", "will", "the", "a", "an", "of", "to", "in", "on", "for", "with", "it", "its",
        "there", "this", "that", "and", "or", "not", "each",
    ),
}  # fmt: skip


def _phrase_words(phrase: str) -> list[str]:
    return re.split(r"[\s-]+", phrase.lower())


def phrases(lang: Lang) -> tuple[str, ...]:
    """The terms of several Latin words a ``lang`` reader searches as one: the glossary's and the synonym groups'."""
    found = [term.term for term in GLOSSARY_TERMS] + [
        word for group in SYNONYMS if group.lang == lang for word in group.words
    ]
    latin = [phrase.lower() for phrase in found if phrase.isascii() and len(_phrase_words(phrase)) > 1]
    return tuple(dict.fromkeys(latin))


def phrase_token(phrase: str) -> str:
    """A phrase as one word of the index and of a query ("online softmax", "memory-bound" -> online_softmax)."""
    return "_".join(_phrase_words(phrase))


def phrase_tokens(text: str, lang: Lang) -> list[str]:
    """The tokens of the `phrases` ``text`` holds, each word against the next (spaces or hyphens between them)."""
    plain = text.replace(_ZWSP, "").lower()
    tokens = []
    for phrase in phrases(lang):
        pattern = r"[\s-]+".join(re.escape(word) for word in _phrase_words(phrase))
        if re.search(rf"(?<![\w-]){pattern}(?![\w-])", plain):
            tokens.append(phrase_token(phrase))
    return tokens


def synonyms_for(text: str, lang: Lang) -> str:
    """The words of every ``lang`` group that ``text`` holds a word of, and the phrases of both as tokens.

    Space-separated, groups in the registry's order, then the phrase tokens (`phrase_tokens`) of ``text`` and of the
    groups' words, so that a query naming a phrase ("memory bottleneck") finds the pages holding it or its synonyms.
    """
    words: dict[str, None] = {}
    for group in SYNONYMS:
        if group.lang == lang and group.found_in(text):
            words.update(dict.fromkeys(group.words))
    words.update(dict.fromkeys(phrase_tokens(f"{text} {' '.join(words)}", lang)))
    return " ".join(words)
