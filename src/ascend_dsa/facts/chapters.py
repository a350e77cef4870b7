"""The site's chapters, each written once: its page, its titles in both languages, its place in the nav, its ledger.

A [`Chapter`][] is one page of the site; [`SITE_CHAPTERS`][] lists them in the nav's order. The claims ledgers'
chapters (``report.rules.CHAPTERS``, ``claims --chapter``) and the claims tables' chapter titles are read from it;
``mkdocs.yml``'s ``nav`` and English ``nav_translations`` (which cannot import Python), the pages under ``docs/`` and
the search tests' expected pages are checked against it (tests/facts/test_chapters.py, tests/site/test_search.py).
A fact about the site rather than the chip, it sits here so that the ledgers, the renderers and the command line all
read it; like every fact it imports only the leaves.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from ascend_dsa.lang import Text
from ascend_dsa.validate import shown

#: The suffixes of a page's source file: Markdown, or a notebook.
SOURCE_SUFFIXES: Final = (".md", ".ipynb")


@dataclass(frozen=True)
class Chapter:
    """One page of the site: its source under ``docs/``, its nav title, the nav sections it sits in, its ledger.

    ``file`` is the Chinese source as the nav names it (``discussion/heads-per-core.md``; the English one adds
    ``.en`` before the suffix). ``title`` is None for a section's own page, which the nav lists bare and names by its
    section. ``sections`` are the nav sections around it, outermost first. ``ledger`` is the key of the claims ledger
    (``report.ledgers.LEDGERS``) whose claims may name this chapter, or empty. ``primer`` marks a primer: background
    the report takes for granted (double buffering, the roofline, the NZ layout), not one of the report's chapters, so
    it carries no claims; like every leaf chapter it opens with questions its exercises then ask.
    """

    file: str
    title: Text | None
    sections: tuple[Text, ...] = ()
    ledger: str = ""
    primer: bool = False

    def __post_init__(self) -> None:
        """Reject a file that is not a page's source, and a section's own page outside every section."""
        if not isinstance(self.file, str) or not self.file.endswith(SOURCE_SUFFIXES) or self.file.startswith("/"):
            raise ValueError(f"file must be a page's path under docs/ ending in .md or .ipynb, got {shown(self.file)}")
        if self.title is None and not self.sections:
            raise ValueError(f"a chapter without a title must be a section's own page, got {shown(self.file)}")
        if self.primer and self.ledger:
            raise ValueError(
                f"a primer is no chapter of the report and carries no claims, got ledger {shown(self.ledger)}"
            )

    @property
    def key(self) -> str:
        """The chapter's name where the package names it: its file without suffix (``discussion/heads-per-core``)."""
        return self.file.rpartition(".")[0]

    @property
    def url(self) -> str:
        """Its URL path in the Chinese edition: ``discussion/heads-per-core/``, ``design/``, ``""`` for the home."""
        folder, _, name = self.key.rpartition("/")
        path = folder if name == "index" else self.key
        return f"{path}/" if path else ""

    @property
    def name(self) -> Text:
        """What the nav calls it: its title, or for a section's own page, its section's title."""
        return self.title if self.title is not None else self.sections[-1]


_ALGORITHM: Final = Text("算法回顾", "Algorithm recap")
_DISCUSSION: Final = Text("讨论", "Discussion")
_OPTIMIZATIONS: Final = Text("优化技巧", "Optimisations")
_DESIGN: Final = Text("设计空间", "Design space")
_REFERENCE: Final = Text("参考", "Reference")
_API: Final = (_REFERENCE, Text("Python 接口", "Python API"))

#: Every page of the site, in the nav's order; the report's chapters carry the report ledger's claims.
SITE_CHAPTERS: Final = (
    Chapter("index.md", Text("前言", "Preface"), ledger="report"),
    Chapter("algorithm/model.md", Text("数学建模", "The mathematics"), (_ALGORITHM,)),
    Chapter("algorithm/flow.md", Text("计算流程", "The computation"), (_ALGORITHM,), ledger="report"),
    Chapter(
        "algorithm/double-buffering.md",
        Text("入门：双缓冲与乒乓", "Primer: double buffering and ping-pong"),
        (_ALGORITHM,),
        primer=True,
    ),
    Chapter(
        "algorithm/roofline.md",
        Text("入门：roofline 直觉", "Primer: the roofline intuition"),
        (_ALGORITHM,),
        primer=True,
    ),
    Chapter(
        "algorithm/nd-nz.md",
        Text("入门：ND 与 NZ，逐格看", "Primer: ND and NZ, cell by cell"),
        (_ALGORITHM,),
        primer=True,
    ),
    Chapter(
        "discussion/heads-per-core.md",
        Text("每个 AI Core 负责多少个 q head", "How many q heads per AI Core"),
        (_DISCUSSION,),
        ledger="report",
    ),
    Chapter(
        "discussion/accumulator.md",
        Text("FA 的 output accumulator 在哪里做", "Where the FA output accumulator lives"),
        (_DISCUSSION,),
        ledger="report",
    ),
    Chapter(
        "discussion/one-vector-core.md",
        Text("能不能用 1C1V", "Can one VECTOR Core do (1C1V)?"),
        (_DISCUSSION,),
        ledger="report",
    ),
    Chapter(
        "discussion/nd2nz-when.md",
        Text("KV 的 ND2NZ Layout 转换何时进行", "When the KV's ND2NZ conversion happens"),
        (_DISCUSSION,),
        ledger="report",
    ),
    Chapter(
        "discussion/skip-scale-sync.md",
        Text("如何进行 skip-scale 的同步", "How skip-scale is synchronised"),
        (_DISCUSSION,),
    ),
    Chapter("discussion/two-chips.md", Text("两块芯片，一把尺子", "Two chips, one ruler"), (_DISCUSSION,), "hopper"),
    Chapter("pipeline.md", Text("流水线", "The pipeline"), ledger="report"),
    Chapter("optimizations/gather2.md", Text.same("gather2"), (_OPTIMIZATIONS,), ledger="report"),
    Chapter(
        "optimizations/kv-cache-layout.md",
        Text("Decoding KV Cache Layout 优化", "Decoding KV cache layout"),
        (_OPTIMIZATIONS,),
        ledger="report",
    ),
    Chapter("optimizations/fast-nd2nz.md", Text("高速 ND2NZ", "Fast ND2NZ"), (_OPTIMIZATIONS,), ledger="report"),
    Chapter("optimizations/icache.md", Text("icache miss 问题", "icache misses"), (_OPTIMIZATIONS,), ledger="report"),
    Chapter(
        "optimizations/l1-banks.md", Text("L1 bank 配平", "Balancing the L1 banks"), (_OPTIMIZATIONS,), ledger="report"
    ),
    Chapter("optimizations/skip-scale.md", Text.same("skip-scale"), (_OPTIMIZATIONS,)),
    Chapter("design/index.md", None, (_DESIGN,)),
    Chapter("design/what-if.ipynb", Text("如果……会怎样", "What if"), (_DESIGN,)),
    Chapter("reference/claims.md", Text("数字核对总表", "The claims ledger"), (_REFERENCE,)),
    Chapter("reference/api/index.md", None, _API),
    Chapter("reference/api/facts.md", Text("事实：出处、硬件与内核", "Facts: sources, hardware and the kernel"), _API),
    Chapter("reference/api/cycles.md", Text("模型：周期与流水线", "Models: cycles and the pipeline"), _API),
    Chapter("reference/api/design.md", Text("模型：内存与设计空间", "Models: memory and the design space"), _API),
    Chapter("reference/api/forward.md", Text("模型：参考前向", "Models: the reference forward"), _API),
    Chapter("reference/api/layouts.md", Text("模型：布局与搬运", "Models: layouts and copies"), _API),
    Chapter("reference/api/report.md", Text("报告：核对与页面输入", "Report: claims and page inputs"), _API),
    Chapter("reference/api/render-tables.md", Text("渲染：表格与文字", "Render: tables and text"), _API),
    Chapter("reference/api/render-figures.md", Text("渲染：章节图表", "Render: chapter figures"), _API),
    Chapter("reference/api/cli-site.md", Text("命令行与网站", "Command line and site"), _API),
    Chapter("reference/cli.md", Text("命令行", "Command line"), (_REFERENCE,)),
    Chapter("reference/assumptions.md", Text("假设", "Assumptions"), (_REFERENCE,)),
    Chapter("reference/glossary.md", Text("术语表", "Glossary"), (_REFERENCE,)),
)

#: Every chapter by its key (``discussion/heads-per-core``).
CHAPTERS_BY_KEY: Final = MappingProxyType({chapter.key: chapter for chapter in SITE_CHAPTERS})


def chapter_named(key: str) -> Chapter:
    """The chapter whose key is ``key``, else a ValueError naming an example key."""
    if not isinstance(key, str) or key not in CHAPTERS_BY_KEY:
        raise ValueError(f"chapter must be a page of the site such as 'pipeline', got {shown(key)}")
    return CHAPTERS_BY_KEY[key]


def primer_chapters() -> tuple[str, ...]:
    """The keys of the primers, in nav order: pages that teach background, not chapters of the report."""
    return tuple(chapter.key for chapter in SITE_CHAPTERS if chapter.primer)


def ledger_chapters(ledger: str) -> tuple[str, ...]:
    """The keys of the chapters whose claims ledger is ``ledger`` (a key of ``report.ledgers.LEDGERS``), in order."""
    return tuple(chapter.key for chapter in SITE_CHAPTERS if chapter.ledger == ledger)


@dataclass(frozen=True)
class ReadingStop:
    """One chapter of a reading path and, in a line, the question it answers for that reader."""

    chapter: str
    answers: Text

    def __post_init__(self) -> None:
        """Reject a chapter the site does not have."""
        chapter_named(self.chapter)


@dataclass(frozen=True)
class ReadingPath:
    """An ordered way through the site for one kind of reader: who, and the chapters in the order to read them."""

    key: str
    reader: Text
    stops: tuple[ReadingStop, ...]

    def __post_init__(self) -> None:
        """Reject a path with no chapter, or one that visits a chapter twice."""
        keys = [stop.chapter for stop in self.stops]
        if not keys or len(set(keys)) != len(keys):
            raise ValueError(f"path {self.key} must list its chapters once each, got {shown(keys)}")


def _stop(chapter: str, zh: str, en: str) -> ReadingStop:
    return ReadingStop(chapter, Text(zh, en))


#: The home page's reading paths: for a CUDA/Hopper kernel engineer, a student, an Ascend engineer.
READING_PATHS: Final = (
    ReadingPath(
        "cuda",
        Text("CUDA/Hopper 内核工程师", "CUDA/Hopper kernel engineer"),
        (
            _stop(
                "reference/glossary",
                "每个昇腾单元最像 Hopper 的什么，类比在哪里不成立？",
                "Which Hopper unit is each Ascend unit like, and where does that break?",
            ),
            _stop(
                "algorithm/model",
                "一个 AI Core 长什么样，每个张量放在哪里？",
                "What does one AI Core look like, and where does each tensor sit?",
            ),
            _stop(
                "discussion/two-chips",
                "同一把 roofline 尺子量昇腾 950 和 H800，结果如何？",
                "How does one roofline judge the Ascend 950 and the H800?",
            ),
            _stop(
                "discussion/accumulator",
                "为什么 O 不能像在 GPU 寄存器里那样一直留在累加器里？",
                "Why can't O stay in the accumulator, as it stays in registers on a GPU?",
            ),
            _stop(
                "pipeline",
                "没有 warp 切换，CUBE 和 VECTOR 怎样重叠？",
                "Without warp switching, how do the CUBE and VECTOR Cores overlap?",
            ),
        ),
    ),
    ReadingPath(
        "student",
        Text("学生", "Student"),
        (
            _stop("algorithm/model", "算子算的是什么，在什么样的机器上算？", "What is computed, and on what machine?"),
            _stop("algorithm/nd-nz", "ND 与 NZ 怎样排一块数据？", "How do ND and NZ lay out a tile?"),
            _stop("algorithm/double-buffering", "搬运怎样藏在计算底下？", "How do loads hide under computes?"),
            _stop(
                "algorithm/roofline", "什么时候受带宽限制，什么时候受算力限制？", "When is a kernel bound by bandwidth?"
            ),
            _stop("discussion/heads-per-core", "每个核该负责几个 head？", "How many heads should a core take?"),
            _stop("design/what-if", "硬件数字变了，结论怎样变？", "What if a hardware number changes?"),
        ),
    ),
    ReadingPath(
        "ascend",
        Text("昇腾工程师", "Ascend engineer"),
        (
            _stop(
                "discussion/one-vector-core",
                "为什么一个 CUBE 要配两侧的 VECTOR Core？",
                "Why does one CUBE need both of its VECTOR Cores?",
            ),
            _stop(
                "discussion/nd2nz-when",
                "KV 逐 token gather 时，ND2NZ 该在哪里做？",
                "Where should ND2NZ happen when KV is gathered token by token?",
            ),
            _stop(
                "discussion/skip-scale-sync",
                "VECTOR Core 怎样告诉 CUBE 跳过 rescale？",
                "How does a VECTOR Core tell the CUBE to skip a rescale?",
            ),
            _stop(
                "optimizations/fast-nd2nz", "ND2NZ 的向量函数怎样变快？", "How is the ND2NZ vector function made fast?"
            ),
            _stop(
                "design/index", "换一个设计点，哪项限制先触顶？", "At another design point, which limit binds first?"
            ),
        ),
    ),
)
