"""The report's published figures, kept as published, with their citations.

The head-roofline table is stored as the text the report prints (report (zh) lines 104-111). Markdown ate the
leading blank of its first row, so rows are compared by the numbers they contain, never as raw text. The checks of
our figures against these live in ``ascend_dsa.report.checks``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, TypeAlias

from ascend_dsa.facts.provenance import REPORT_COMMIT, REPORT_ZH_PATH, Citation
from ascend_dsa.lang import has_chinese
from ascend_dsa.validate import bounded_items, require_instance, require_items, shown

if TYPE_CHECKING:
    from collections.abc import Iterable

HEAD_ROOFLINE_CITATION: Final = Citation(REPORT_ZH_PATH, REPORT_COMMIT, 104, 111)

#: Report (zh) lines 104-111, character for character (the first row lost its leading blank upstream).
HEAD_ROOFLINE_PUBLISHED_TEXT: Final = (
    "16, topk= 512, cube_cycles=  2048, mem_cycles=  5883",
    " 16, topk=1024, cube_cycles=  4096, mem_cycles= 11419",
    " 32, topk= 512, cube_cycles=  4096, mem_cycles=  6229",
    " 32, topk=1024, cube_cycles=  8192, mem_cycles= 11765",
    " 64, topk= 512, cube_cycles=  8192, mem_cycles=  6921",
    " 64, topk=1024, cube_cycles= 16384, mem_cycles= 12457",
    "128, topk= 512, cube_cycles= 16384, mem_cycles=  8305",
    "128, topk=1024, cube_cycles= 32768, mem_cycles= 13841",
)

_ROW_PATTERN: Final = re.compile(
    r"^\s*(?P<heads>\d+),\s*topk=\s*(?P<topk>\d+),\s*cube_cycles=\s*(?P<cube>\d+),\s*mem_cycles=\s*(?P<mem>\d+)\s*$"
)


@dataclass(frozen=True)
class HeadRooflineRow:
    """One row of the head-roofline table as numbers; ``mem_cycles`` is rounded as the report prints it."""

    heads: int
    topk: int
    cube_cycles: int
    mem_cycles: int
    line: int | None = None  # report (zh) line, for published rows

    def values(self) -> tuple[int, int, int, int]:
        """The four numbers that must agree."""
        return (self.heads, self.topk, self.cube_cycles, self.mem_cycles)

    def describe(self) -> str:
        """The row's numbers in one short phrase."""
        return f"h_q={self.heads}, topk={self.topk}, cube_cycles={self.cube_cycles}, mem_cycles={self.mem_cycles}"


def parse_head_roofline_row(text: str, line: int | None = None) -> HeadRooflineRow:
    """Read the four numbers of one printed row, whatever its leading blanks."""
    match = _ROW_PATTERN.match(text)
    if match is None:
        raise ValueError(
            f"row text must look like 'H, topk=K, cube_cycles=C, mem_cycles=M' with whole numbers, got {shown(text)}"
        )
    return HeadRooflineRow(
        heads=int(match["heads"]),
        topk=int(match["topk"]),
        cube_cycles=int(match["cube"]),
        mem_cycles=int(match["mem"]),
        line=line,
    )


def published_head_roofline(
    text: Iterable[str] = HEAD_ROOFLINE_PUBLISHED_TEXT, citation: Citation = HEAD_ROOFLINE_CITATION
) -> tuple[HeadRooflineRow, ...]:
    """The published rows as numbers, each with its report line."""
    citation = require_instance("citation", citation, Citation)
    expected = citation.last_line - citation.first_line + 1
    lines = require_items("text", bounded_items("text", text, expected), str)
    rows = tuple(parse_head_roofline_row(t, citation.first_line + i) for i, t in enumerate(lines))
    if len(rows) != expected:
        raise ValueError(f"published table must have {expected} rows for {citation.short}, got {len(rows)}")
    return rows


#: A published or computed figure: a number, or a tuple of them (possibly nested).
FigureValue: TypeAlias = int | float | tuple["FigureValue", ...]


def report_zh(first: int, last: int | None = None) -> Citation:
    """A span of the Chinese report at the pinned commit."""
    return Citation(REPORT_ZH_PATH, REPORT_COMMIT, first, first if last is None else last)


@dataclass(frozen=True)
class PublishedFigure:
    """One figure as the report states it: a stable key, the value, its unit and where it stands.

    ``written`` says how the report writes it when that is not the plain number (``exp(6)``, ``64 或 96``);
    ``written_en`` is how the report's English edition writes the same words on the same line, required when
    ``written`` is Chinese, so that an English page never shows the Chinese alone.
    """

    key: str
    value: FigureValue
    unit: str
    citation: Citation
    written: str = ""
    written_en: str = ""

    def __post_init__(self) -> None:
        """Reject a key that is not kebab-case, and Chinese words without the English edition's, or mixed up."""
        if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", self.key):
            raise ValueError(f"key must be kebab-case, got {shown(self.key)}")
        if has_chinese(self.written) and not self.written_en.strip():
            raise ValueError(
                f"{self.key}: written {shown(self.written)} is Chinese, so written_en must give the "
                "English edition's words"
            )
        if has_chinese(self.written_en) or (self.written_en and not has_chinese(self.written)):
            raise ValueError(
                f"{self.key}: written_en must be the English words of a Chinese written, got "
                f"{shown(self.written_en)} for {shown(self.written)}"
            )


#: Every figure of the report the ledger checks, besides the head-roofline rows above. One figure per entry, each
#: written once; ``ascend_dsa.report.claims`` says what we compute for it and how the two are compared.
PUBLISHED_FIGURES: Final = (
    PublishedFigure(key="prefill-tflops", value=410, unit="TFLOPS", citation=report_zh(5)),
    PublishedFigure(key="prefill-percent-of-peak", value=95, unit="%", citation=report_zh(5)),
    PublishedFigure(key="decode-tflops", value=360, unit="TFLOPS", citation=report_zh(5)),
    PublishedFigure(key="decode-percent-of-peak", value=83, unit="%", citation=report_zh(5)),
    PublishedFigure(
        key="b-topk-choices",
        value=(64, 96),
        unit="tokens",
        citation=report_zh(43),
        written="64 或 96",
        written_en="64 or 96",
    ),
    PublishedFigure(
        key="online-softmax-initial-values",
        value=(-math.inf, -math.inf, 0),
        unit="",
        citation=report_zh(45),
        written="-∞, -∞, 0",
    ),
    PublishedFigure(key="rescale-threshold", value=6, unit="", citation=report_zh(57)),
    PublishedFigure(key="rescale-factor-bound", value=403.43, unit="", citation=report_zh(67), written="exp(6)"),
    PublishedFigure(key="cube-fma-per-cycle", value=4096, unit="FMA/cycle", citation=report_zh(85)),
    PublishedFigure(key="l2-bandwidth-tb-per-s", value=5, unit="TB/s", citation=report_zh(85)),
    PublishedFigure(key="roofline-head-dim", value=512, unit="", citation=report_zh(88), written="d = 512"),
    PublishedFigure(
        key="l2-bandwidth-bytes-per-s", value=5e12, unit="B/s", citation=report_zh(89), written="l2_total_bw = 5e12"
    ),
    PublishedFigure(key="ai-cores", value=32, unit="AI Cores", citation=report_zh(90), written="num_cores = 32"),
    PublishedFigure(key="clock-hz", value=1650e6, unit="Hz", citation=report_zh(91), written="freq = 1650e6"),
    PublishedFigure(key="roofline-heads-grid", value=(16, 32, 64, 128), unit="heads", citation=report_zh(94)),
    PublishedFigure(key="roofline-topk-grid", value=(512, 1024), unit="tokens", citation=report_zh(95)),
    PublishedFigure(
        key="roofline-qo-factors", value=(2, 2), unit="", citation=report_zh(97), written="h_q * d * 2 * 2"
    ),
    PublishedFigure(key="roofline-kv-bytes-per-dim", value=2, unit="B", citation=report_zh(98), written="topk * d * 2"),
    PublishedFigure(
        key="roofline-print-format",
        value=(3, 4, 6, 6, 0),
        unit="",
        citation=report_zh(100),
        written=":3d, :4d, :6d, :6.0f",
    ),
    PublishedFigure(key="compute-bound-from-heads", value=64, unit="heads", citation=report_zh(114)),
    PublishedFigure(
        key="balanced-ratio-at-64-heads",
        value=1,
        unit="",
        citation=report_zh(114),
        written="大致均衡",
        written_en="roughly balanced",
    ),
    PublishedFigure(key="l0c-o-at-128-heads", value=256, unit="KiB", citation=report_zh(116), written="256KB"),
    PublishedFigure(
        key="l0c-capacity",
        value=256,
        unit="KiB",
        citation=report_zh(116),
        written="完全占满",
        written_en="completely filled",
    ),
    PublishedFigure(
        key="o-shape-at-128-heads", value=(128, 512), unit="", citation=report_zh(116), written="128 x 512"
    ),
    PublishedFigure(
        key="mmad-m-saturating-cube",
        value=64,
        unit="rows",
        citation=report_zh(116),
        written="M 取 64",
        written_en="M = 64",
    ),
    PublishedFigure(
        key="accumulator-vector-cores-at-128-heads",
        value=2,
        unit="VECTOR Cores",
        citation=report_zh(116),
        written="必须用两个 AIV",
        written_en="requires two AIVs",
    ),
    PublishedFigure(
        key="identity-rescale-shape", value=(64, 64, 512), unit="", citation=report_zh(126), written="64x64x512"
    ),
    PublishedFigure(key="identity-rescale-cycles", value=8192, unit="cycles", citation=report_zh(126, 128)),
    PublishedFigure(key="hf32-off-fma-per-cycle", value=256, unit="FMA/cycle", citation=report_zh(128)),
    PublishedFigure(key="vector-cores-per-ai-core", value=2, unit="VECTOR Cores", citation=report_zh(134)),
    PublishedFigure(key="mte2-outstanding-requests", value=16, unit="requests", citation=report_zh(138)),
    PublishedFigure(key="mte2-tokens-in-flight", value=32, unit="tokens", citation=report_zh(138)),
    PublishedFigure(key="fixpipe-bytes-per-cycle-1c1v", value=128, unit="B/cycle", citation=report_zh(142)),
    PublishedFigure(
        key="mma-cycles-per-token", value=16, unit="cycles", citation=report_zh(142), written="B_TOPK * 16"
    ),
    PublishedFigure(
        key="fixpipe-cycles-formula",
        value=(1024, 2),
        unit="cycles",
        citation=report_zh(142),
        written="1024 + B_TOPK * 2",
    ),
    PublishedFigure(
        key="mma-m-heads",
        value=64,
        unit="heads",
        citation=report_zh(142),
        written="应该是 64",
        written_en="should be 64",
    ),
    PublishedFigure(key="fixpipe-break-even-b-topk", value=73.14, unit="tokens", citation=report_zh(142)),
    PublishedFigure(key="fixpipe-margin-b-topk", value=(96, 128), unit="tokens", citation=report_zh(142)),
    PublishedFigure(
        key="token-as-blocks",
        value=(512, 32, 32),
        unit="",
        citation=report_zh(152),
        written="512 个 bf16 = 32 个 32B",
        written_en="(512 bfloat16 values) as 32 blocks of 32B",
    ),
    PublishedFigure(key="design-vector-cores-per-cube", value=2, unit="VECTOR Cores", citation=report_zh(144)),
    PublishedFigure(key="nd-kv-strides", value=(512, 1), unit="elements", citation=report_zh(150), written="[d_qk, 1]"),
    PublishedFigure(key="design-heads-and-vector-cores", value=(64, 2), unit="", citation=report_zh(168)),
    PublishedFigure(
        key="cube-step-offsets", value=(-1, 1), unit="blocks", citation=report_zh(176, 178), written="i-1, i+1"
    ),
    PublishedFigure(
        key="softmax-slack-cycles",
        value=1024,
        unit="cycles",
        citation=report_zh(184),
        written="大约 1024",
        written_en="about 1024",
    ),
    PublishedFigure(key="vector-step-1-offset", value=5, unit="blocks", citation=report_zh(188), written="i+5"),
    PublishedFigure(key="vector-step-2-offset", value=3, unit="blocks", citation=report_zh(190), written="i+3"),
    PublishedFigure(key="vector-step-3-offset", value=1, unit="blocks", citation=report_zh(192), written="i+1"),
    PublishedFigure(key="vector-step-4-offset", value=5, unit="blocks", citation=report_zh(194), written="i+5"),
    PublishedFigure(key="vector-step-5-offset", value=0, unit="blocks", citation=report_zh(196), written="i"),
    PublishedFigure(key="vector-step-6-offset", value=1, unit="blocks", citation=report_zh(198), written="i+1"),
    PublishedFigure(key="vector-step-7-offset", value=5, unit="blocks", citation=report_zh(200), written="i+5"),
    PublishedFigure(key="mte2-queue-depth", value=16, unit="requests", citation=report_zh(216)),
    PublishedFigure(
        key="gather2-burst-count", value=2, unit="tokens", citation=report_zh(216), written="burst_count=2"
    ),
    PublishedFigure(
        key="mte2-copies-per-token",
        value=(2, 1),
        unit="copies",
        citation=report_zh(220),
        written="两次 MTE2 拷贝",
        written_en="two MTE2 copies",
    ),
    PublishedFigure(
        key="nz-padding-rows",
        value=1,
        unit="rows",
        citation=report_zh(228),
        written="额外 pad 一行",
        written_en="Pad one extra row",
    ),
    PublishedFigure(
        key="nd2nz-vector-pair",
        value=(2, 256),
        unit="B",
        citation=report_zh(232),
        written="一对 256B",
        written_en="a pair of adjacent 256B elements",
    ),
    PublishedFigure(key="icache-cube", value=32, unit="KiB", citation=report_zh(238)),
    PublishedFigure(key="icache-vector", value=16, unit="KiB", citation=report_zh(238)),
    PublishedFigure(key="icache-simd-vf", value=8, unit="KiB", citation=report_zh(238)),
    PublishedFigure(
        key="l1-banks", value=2, unit="banks", citation=report_zh(242), written="两个 bank", written_en="two banks"
    ),
    PublishedFigure(key="l1-bank-ranges", value=((0, 256), (256, 512)), unit="KiB", citation=report_zh(242)),
)


def head_roofline_figures() -> tuple[PublishedFigure, ...]:
    """The head-roofline rows as figures ``(heads, topk, cube_cycles, mem_cycles)``, keyed by their report line."""
    return tuple(
        PublishedFigure(
            key=f"head-roofline-line-{row.line}",
            value=row.values(),
            unit="cycles",
            citation=report_zh(row.line or 0),
            written=f"h_q={row.heads}, topk={row.topk}",
        )
        for row in published_head_roofline()
    )


def figure_named(figures: tuple[PublishedFigure, ...], key: str, kind: str) -> PublishedFigure:
    """The figure of ``figures`` named ``key``, else a ValueError: ``key`` must name a ``kind``."""
    for figure in figures:
        if figure.key == key:
            return figure
    raise ValueError(f"key must name a {kind}, got {shown(key)}")


def number_named(figures: tuple[PublishedFigure, ...], key: str, kind: str) -> float:
    """[`figure_named`][]'s value, which must be a single number (else a TypeError naming ``kind``)."""
    value = figure_named(figures, key, kind).value
    if isinstance(value, tuple):
        raise TypeError(f"{kind} {key} must be a single number, got {shown(value)}")
    return value


def published_figure(key: str) -> PublishedFigure:
    """The published figure named ``key`` (including ``head-roofline-line-N``)."""
    return figure_named((*PUBLISHED_FIGURES, *head_roofline_figures()), key, "published figure")


def published_number(key: str) -> float:
    """The published figure named ``key``, which must be a single number."""
    return number_named((*PUBLISHED_FIGURES, *head_roofline_figures()), key, "published figure")
