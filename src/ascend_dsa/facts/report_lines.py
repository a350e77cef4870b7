"""Every line of the report that states a number, with the numbers it states: facts, not the report's sentences.

Each [`StatedNumber`][] is one number as the line writes it (``410``, ``5e12``, ``两``, ``i-1``), its value, and
the key of the published figure (``report_figures``) that holds that value. A number a line repeats from another
(the ``4096`` of line 96 is line 85's) names the same figure. ``report.claims.check_report_lines`` fails when a
listed number has no claim comparing it, or a claim compares a figure no listed line states; the claims page lists
each line with the claims that check it.

Not listed, as they are not quantities: dates and versions (line 5's 2026-09-30, ``V4.1``), names that carry a
digit (``Ascend 950``, ``FP8``, ``bfloat16``, ``1C2V``, ``gather2``, ``float32``), list markers and references to
numbered steps (``(1)``, ``(4)``), ``一个`` used as an article, array axes in code (``dim=0``, ``dim=-1``) and the
commit of a link (line 220).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Final

from ascend_dsa.facts.provenance import REPORT_COMMIT, REPORT_ZH_PATH, Citation
from ascend_dsa.validate import shown


@dataclass(frozen=True)
class StatedNumber:
    """One number of a report line: as written, its value, and the published figure holding that value."""

    written: str
    value: float
    figure: str


@dataclass(frozen=True)
class ReportLine:
    """One line of the report (zh) that states numbers, and those numbers in the line's order."""

    line: int
    numbers: tuple[StatedNumber, ...]

    def __post_init__(self) -> None:
        """Reject a line with no number."""
        if not self.numbers:
            raise ValueError(f"line {shown(self.line)} must state at least one number, got none")

    @property
    def citation(self) -> Citation:
        """Where the line stands."""
        return Citation(REPORT_ZH_PATH, REPORT_COMMIT, self.line, self.line)


#: The numeral a written number starts with (``32`` of ``32B``, ``5e12``, ``73.14``), which is its value.
_NUMERAL: Final = re.compile(r"[+-]?\d+(?:\.\d+)?(?:e\d+)?")
#: A block offset of the schedule (``i``, ``i+5``, ``i-1``), whose value is the offset.
_OFFSET: Final = re.compile(r"i([+-]\d+)?")
#: The Chinese number words the report uses for a count.
_WORDS: Final = {"一": 1, "两": 2}


def _reads_as(written: str) -> float | None:
    """The value ``written`` reads as: a numeral it starts with, a block offset, 一 or 两; None for anything else."""
    numeral, offset = _NUMERAL.match(written), _OFFSET.fullmatch(written)
    if numeral is not None:
        return float(numeral.group(0))
    if offset is not None:
        return float(offset.group(1) or 0)
    return _WORDS.get(written)


def _n(written: str, figure: str, value: float | None = None) -> StatedNumber:
    """A number as the line writes it, valued by what it reads as; ``value`` only where it reads otherwise."""
    read = _reads_as(written)
    if value is None:
        if read is None:
            raise ValueError(f"{written!r} reads as no number, so its value must be given")
        value = read
    elif read == value:
        raise ValueError(f"{written!r} already reads as {value:g}, so give no value")
    return StatedNumber(written, value, figure)


def _same(figure: str, *written: str) -> tuple[StatedNumber, ...]:
    """Numbers next to each other in a line that all state ``figure``, each valued as ``_n`` reads it."""
    return tuple(_n(w, figure) for w in written)


def _line(line: int, *numbers: StatedNumber) -> ReportLine:
    return ReportLine(line, numbers)


def _roofline_row(line: int, heads: int, topk: int, cube: int, mem: int) -> ReportLine:
    return _line(line, *_same(f"head-roofline-line-{line}", str(heads), str(topk), str(cube), str(mem)))


_INF: Final = math.inf

#: Every report (zh) line that states a number, in the report's order.
REPORT_LINES: Final = (
    _line(
        5,
        _n("410", "prefill-tflops"),
        _n("360", "decode-tflops"),
        _n("95%", "prefill-percent-of-peak"),
        _n("83%", "decode-percent-of-peak"),
    ),
    _line(43, *_same("b-topk-choices", "64", "96")),
    _line(
        45,
        _n("-∞", "online-softmax-initial-values", -_INF),
        _n("-∞", "online-softmax-initial-values", -_INF),
        _n("0", "online-softmax-initial-values"),
    ),
    _line(57, _n("6", "rescale-threshold")),
    _line(67, _n("exp(6)", "rescale-factor-bound", 403.43), _n("6", "rescale-threshold")),
    _line(85, _n("4096", "cube-fma-per-cycle"), _n("5", "l2-bandwidth-tb-per-s")),
    _line(88, _n("512", "roofline-head-dim")),
    _line(89, _n("5e12", "l2-bandwidth-bytes-per-s")),
    _line(90, _n("32", "ai-cores")),
    _line(91, _n("1650e6", "clock-hz")),
    _line(94, *_same("roofline-heads-grid", "16", "32", "64", "128")),
    _line(95, *_same("roofline-topk-grid", "512", "1024")),
    _line(96, _n("4096", "cube-fma-per-cycle")),
    _line(97, *_same("roofline-qo-factors", "2", "2")),
    _line(98, _n("2", "roofline-kv-bytes-per-dim")),
    _line(100, *_same("roofline-print-format", "3d", "4d", "6d", "6.0f"), _n("6.0f", "roofline-print-format", 0)),
    _roofline_row(104, 16, 512, 2048, 5883),
    _roofline_row(105, 16, 1024, 4096, 11419),
    _roofline_row(106, 32, 512, 4096, 6229),
    _roofline_row(107, 32, 1024, 8192, 11765),
    _roofline_row(108, 64, 512, 8192, 6921),
    _roofline_row(109, 64, 1024, 16384, 12457),
    _roofline_row(110, 128, 512, 16384, 8305),
    _roofline_row(111, 128, 1024, 32768, 13841),
    _line(114, *_same("compute-bound-from-heads", "64", "64"), _n("大致均衡", "balanced-ratio-at-64-heads", 1)),
    _line(
        116,
        *_same("o-shape-at-128-heads", "128", "128", "512"),
        _n("256KB", "l0c-o-at-128-heads"),
        _n("完全占满", "l0c-capacity", 256),
        _n("两", "accumulator-vector-cores-at-128-heads"),
        _n("64", "mmad-m-saturating-cube"),
        _n("128", "o-shape-at-128-heads"),
    ),
    _line(126, *_same("identity-rescale-shape", "64", "512", "64", "64", "512")),
    _line(
        128,
        _n("256", "hf32-off-fma-per-cycle"),
        *_same("identity-rescale-shape", "64", "64", "512"),
        _n("8192", "identity-rescale-cycles"),
    ),
    _line(134, _n("两", "vector-cores-per-ai-core")),
    _line(138, _n("16", "mte2-outstanding-requests"), _n("32", "mte2-tokens-in-flight")),
    _line(
        142,
        _n("128", "fixpipe-bytes-per-cycle-1c1v"),
        *_same("roofline-head-dim", "512", "512"),
        _n("4096", "cube-fma-per-cycle"),
        _n("16", "mma-cycles-per-token"),
        _n("512", "roofline-head-dim"),
        _n("128", "fixpipe-bytes-per-cycle-1c1v"),
        *_same("fixpipe-cycles-formula", "1024", "2"),
        _n("64", "mma-m-heads"),
        _n("16", "mma-cycles-per-token"),
        *_same("fixpipe-cycles-formula", "1024", "2"),
        _n("73.14", "fixpipe-break-even-b-topk"),
        *_same("fixpipe-margin-b-topk", "96", "128"),
    ),
    _line(144, _n("两", "design-vector-cores-per-cube")),
    _line(150, _n("d_qk", "nd-kv-strides", 512), _n("1", "nd-kv-strides")),
    _line(152, *_same("token-as-blocks", "512", "32", "32B", "32", "32B")),
    _line(168, _n("64", "design-heads-and-vector-cores"), _n("1C2V", "design-heads-and-vector-cores", 2)),
    _line(176, *_same("cube-step-offsets", "i-1", "i-1")),
    _line(178, *_same("cube-step-offsets", "i+1", "i+1")),
    _line(184, _n("1024", "softmax-slack-cycles")),
    _line(188, _n("i+5", "vector-step-1-offset")),
    _line(190, _n("i+3", "vector-step-2-offset")),
    _line(192, *_same("vector-step-3-offset", "i+1", "i+1", "i+1")),
    _line(194, _n("i+5", "vector-step-4-offset")),
    _line(196, _n("i", "vector-step-5-offset")),
    _line(198, _n("i+1", "vector-step-6-offset")),
    _line(200, _n("i+5", "vector-step-7-offset")),
    _line(216, _n("16", "mte2-queue-depth"), *_same("gather2-burst-count", "2", "两", "两")),
    _line(220, _n("两", "mte2-copies-per-token")),
    _line(226, _n("32B", "token-as-blocks")),
    _line(228, _n("一", "nz-padding-rows")),
    _line(232, _n("一对", "nd2nz-vector-pair", 2), _n("256B", "nd2nz-vector-pair")),
    _line(238, _n("32K", "icache-cube"), _n("16K", "icache-vector"), _n("8K", "icache-simd-vf")),
    _line(
        242, _n("两", "l1-banks"), *_same("l1-bank-ranges", "0", "256K", "256K", "512K"), *_same("l1-banks", "两", "两")
    ),
)
