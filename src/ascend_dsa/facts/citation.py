"""How to cite this project: the one record that ``CITATION.cff`` and the site's "cite this site" block are made from.

``CITATION.cff`` at the repository's root is [`ascend_dsa.render.citation.render_citation_cff`][]'s output, checked in
(tests/render/test_citation.py fails when the two differ); the home page prints the same record as BibTeX and as
a sentence. The version is the installed package's, read where it is shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ascend_dsa.facts.provenance import REPORT_COMMIT, REPORT_ZH_PATH, UPSTREAM_REPOSITORY
from ascend_dsa.lang import Text
from ascend_dsa.validate import shown

#: The Citation File Format version the file follows.
CFF_VERSION: Final = "1.2.0"
#: The distribution (pyproject.toml's name) whose installed metadata holds the package's version: what
#: ``--version`` prints, a trace file records and a citation names.
DISTRIBUTION: Final = "ascend-dsa"


@dataclass(frozen=True)
class ProjectCitation:
    """What a citation of the project says: title, authors, what it is, its licence and the work it accompanies."""

    title: Text
    authors: tuple[str, ...]
    abstract: Text
    licence: str
    keywords: tuple[str, ...]
    companion_to: Text

    def __post_init__(self) -> None:
        """Reject a citation without an author, or a text a one-line YAML or BibTeX value cannot hold."""
        if not self.authors:
            raise ValueError(f"a citation needs at least one author, got {shown(self.authors)}")
        for text in (
            self.title.en,
            self.abstract.en,
            self.companion_to.en,
            self.licence,
            *self.authors,
            *self.keywords,
        ):
            if not text.strip() or any(ch in text for ch in '\n"{}\\'):
                raise ValueError(
                    f"citation text must be one line without quotes, braces or backslashes, got {shown(text)}"
                )


#: This project, as it asks to be cited.
PROJECT_CITATION: Final = ProjectCitation(
    title=Text(
        "昇腾稀疏 Attention 前向算子：可执行的读书伴侣", "Ascend sparse-attention forward: an executable companion"
    ),
    authors=("ascend-dsa contributors",),
    abstract=Text(
        "DeepSeek 昇腾 950 稀疏 Attention 前向算子技术报告的可执行读书伴侣："
        "一个重新计算报告数字的 Python 包和一个逐章解释报告的网站。",
        "An executable companion to DeepSeek's technical report on its Ascend 950 sparse-attention forward kernel: "
        "a Python package that recomputes the report's figures and a site that explains the report chapter by "
        "chapter.",
    ),
    licence="MIT",
    keywords=("Ascend", "NPU", "sparse attention", "DeepSeek", "FlashMLA", "roofline"),
    companion_to=Text(
        f"{UPSTREAM_REPOSITORY} 仓库的报告 {REPORT_ZH_PATH}（提交 {REPORT_COMMIT}）",
        f"the report {REPORT_ZH_PATH} of {UPSTREAM_REPOSITORY} at commit {REPORT_COMMIT}",
    ),
)
