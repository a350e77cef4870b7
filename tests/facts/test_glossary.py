"""The glossary: one entry per term, both languages, a GPU counterpart or a stated none, and a GPU-side source."""

from __future__ import annotations

import re

import pytest

from ascend_dsa.facts.chapters import CHAPTERS_BY_KEY
from ascend_dsa.facts.glossary import (
    GLOSSARY_TERMS,
    NOT_IN_GLOSSARY,
    NOTATION,
    GlossaryTerm,
    GpuSource,
    Symbol,
    flashmla,
    glossary_term,
)
from ascend_dsa.facts.hopper import HOPPER_COMMIT, PREFILL_SPARSE_CONFIG_PATH
from ascend_dsa.lang import Text

#: The units and ideas issues 18 and 26 name for the glossary, and every unit of the AI Core figure.
REQUIRED = (
    "AI Core", "HBM", "L2", "CUBE", "VECTOR", "MMAD", "MTE1", "MTE2", "MTE3", "FixPipe", "L0A", "L0B", "L0C", "UB",
    "L1", "ND", "NZ", "fractal", "ND2NZ", "skip-scale", "B_TOPK", "1C1V", "1C2V", "roofline", "online softmax",
    "SIMD VF", "gather2", "SS buffer", "HF32", "AIV", "AIC",
)  # fmt: skip


def _entry(**changes: object) -> GlossaryTerm:
    fields: dict[str, object] = {
        "term": "UB",
        "definition": Text("定义", "definition"),
        "explanation": Text("解释", "explanation"),
        "counterpart": Text("对应", "counterpart"),
        "breaks": Text("不同", "breaks"),
        "gpu_source": GpuSource("NVIDIA guide", "https://docs.nvidia.com/cuda/"),
    }
    fields.update(changes)
    return GlossaryTerm(**fields)  # type: ignore[arg-type]


def test_required_terms_are_there_once() -> None:
    """Every term the issues list is defined, and no term or anchor is defined twice."""
    terms = [entry.term for entry in GLOSSARY_TERMS]
    assert set(REQUIRED) <= set(terms)
    assert len(set(terms)) == len(terms)
    assert len({entry.anchor for entry in GLOSSARY_TERMS}) == len(terms)


def test_each_edition_has_its_own_texts() -> None:
    """Every text differs between the editions and is in its language (a Chinese quotation in English is translated)."""
    for entry in GLOSSARY_TERMS:
        texts = [entry.definition, entry.explanation, entry.breaks]
        texts += [] if entry.counterpart is None else [entry.counterpart]
        for text in texts:
            assert text.zh != text.en, entry.term
            assert any(ord(ch) > 0x2E7F for ch in text.zh), entry.term
        assert all(ord(ch) < 0x2E80 for ch in entry.definition.en), entry.term


def test_every_unit_of_the_figure_has_a_counterpart_or_says_none() -> None:
    """A unit either names its Hopper counterpart or has none and says why; L0A, L0B and FixPipe have none."""
    units = {e.term for e in GLOSSARY_TERMS if e.unit}
    assert {"AI Core", "CUBE", "VECTOR", "L1", "L0A", "L0B", "L0C", "UB", "MTE2", "MTE3", "FixPipe", "HBM"} <= units
    none = {e.term for e in GLOSSARY_TERMS if e.counterpart is None}
    assert {"L0A", "L0B", "FixPipe", "gather2"} <= none
    assert "shared memory" in glossary_term("UB").counterpart.en.lower()  # type: ignore[union-attr]
    assert "TMA" in glossary_term("MTE2").counterpart.en  # type: ignore[union-attr]
    assert "Tensor Cores" in glossary_term("CUBE").counterpart.en  # type: ignore[union-attr]
    assert "SM" in glossary_term("AI Core").counterpart.en  # type: ignore[union-attr]


def test_the_buffer_counts_come_from_the_kernel_config() -> None:
    """The UB and L1 entries explain the figure's buffer counts with the configuration's values and lines."""
    from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL  # noqa: PLC0415

    ub, l1 = glossary_term("UB").explanation.en, glossary_term("L1").explanation.en
    assert f"{SHIPPED_KERNEL.ub_kv_buffers} buffers ({SHIPPED_KERNEL.sources['ub_kv_buffers'].citation})" in ub
    assert f"Q in {SHIPPED_KERNEL.l1_q_buffers} buffers ({SHIPPED_KERNEL.sources['l1_q_buffers'].citation})" in l1
    assert f"KV block in {SHIPPED_KERNEL.l1_kv_buffers}" in l1


def test_a_flashmla_source_links_its_lines_at_the_pinned_commit() -> None:
    """A FlashMLA citation is labelled path:lines and links those lines at the commit the package pins."""
    source = flashmla(PREFILL_SPARSE_CONFIG_PATH, 84, 86)
    assert source.label == f"FlashMLA {PREFILL_SPARSE_CONFIG_PATH}:84-86"
    assert source.url.endswith(f"/blob/{HOPPER_COMMIT}/{PREFILL_SPARSE_CONFIG_PATH}#L84-L86")
    assert flashmla(PREFILL_SPARSE_CONFIG_PATH, 28).url.endswith("#L28")
    assert all(e.gpu_source.url.startswith("https://") for e in GLOSSARY_TERMS)


@pytest.mark.parametrize("url", ["http://docs.nvidia.com/", "https://a b", "docs.nvidia.com", 'https://x"y'])
def test_a_gpu_source_without_an_https_url_is_refused(url: str) -> None:
    """A source must be followable: an https URL without blanks or quotes."""
    with pytest.raises(ValueError, match="url must be an https URL"):
        GpuSource("NVIDIA guide", url)


def test_an_empty_text_is_refused() -> None:
    """Each explanation, counterpart and break says something in both languages (a Text refuses a blank one)."""
    with pytest.raises(ValueError, match="a text needs both languages"):
        _entry(breaks=Text("不同", " "))
    assert _entry(counterpart=None).counterpart is None


def test_lookup_and_anchor() -> None:
    """A term is found by name, its anchor is lower case with hyphens, and an unknown term names the choices."""
    assert glossary_term("online softmax").anchor == "online-softmax"
    assert glossary_term("B_TOPK").anchor == "b-topk"
    assert glossary_term("SS buffer").anchor == "ss-buffer"
    with pytest.raises(KeyError, match="'MTE9' is not in the glossary; terms: AI Core"):
        glossary_term("MTE9")


@pytest.mark.parametrize("term", ["", " UB", "U[B]", "a\nb"])
def test_a_term_the_abbreviation_syntax_cannot_hold_is_refused(term: str) -> None:
    """A term with brackets, a line break or a leading blank is refused at construction."""
    with pytest.raises(ValueError, match="term must be letters"):
        _entry(term=term)


def test_a_definition_with_a_bracket_is_refused() -> None:
    """A bracket would end the abbreviation early, so a definition holding one is refused."""
    with pytest.raises(ValueError, match="definition of UB must be one line without brackets"):
        _entry(definition=Text("定义", "see [here]"))


def test_a_defining_chapter_the_site_does_not_have_is_refused() -> None:
    """A term's or a letter's defining chapter is a chapter key; any other value is a one-line error naming it."""
    with pytest.raises(
        ValueError, match="chapter must be a page of the site such as 'pipeline', got 'algorithm/flows'"
    ):
        _entry(chapter="algorithm/flows")
    with pytest.raises(ValueError, match=re.escape("got 'docs/algorithm/model.md'")):
        Symbol("P", Text("P（打分）", "P (scores)"), Text("打分", "scores"), chapter="docs/algorithm/model.md")
    assert _entry(chapter="design/index").chapter == "design/index"
    assert _entry().chapter is None


def test_the_chapter_that_explains_a_term_is_named_where_one_does() -> None:
    """Most terms name the chapter that explains them (the notation the model chapter); each names a real chapter."""
    chapters = [entry.chapter for entry in (*GLOSSARY_TERMS, *NOTATION) if entry.chapter is not None]
    assert set(chapters) <= set(CHAPTERS_BY_KEY)
    assert glossary_term("online softmax").chapter == "algorithm/flow"
    assert {entry.chapter for entry in NOTATION} == {"algorithm/model"}
    assert glossary_term("AIC").chapter is None  # no chapter uses the name; the glossary alone explains it
    assert len(chapters) > len(GLOSSARY_TERMS) // 2


def test_every_exception_has_a_reason_and_no_entry() -> None:
    """A word left out of the glossary says why, and is not also an entry."""
    assert all(reason.strip() for reason in NOT_IN_GLOSSARY.values())
    assert not set(NOT_IN_GLOSSARY) & {e.term for e in GLOSSARY_TERMS}
