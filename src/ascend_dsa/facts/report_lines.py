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
from dataclasses import dataclass
from typing import Final

from ascend_dsa.facts.provenance import REPORT_COMMIT, REPORT_ZH_PATH, Citation


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
            raise ValueError(f"line {self.line} must state at least one number, got none")

    @property
    def citation(self) -> Citation:
        """Where the line stands."""
        return Citation(REPORT_ZH_PATH, REPORT_COMMIT, self.line, self.line)


def _n(written: str, value: float, figure: str) -> StatedNumber:
    return StatedNumber(written, value, figure)


def _line(line: int, *numbers: StatedNumber) -> ReportLine:
    return ReportLine(line, numbers)


def _roofline_row(line: int, heads: int, topk: int, cube: int, mem: int) -> ReportLine:
    key = f"head-roofline-line-{line}"
    return _line(
        line, _n(str(heads), heads, key), _n(str(topk), topk, key), _n(str(cube), cube, key), _n(str(mem), mem, key)
    )


_INF: Final = math.inf

#: Every report (zh) line that states a number, in the report's order.
REPORT_LINES: Final = (
    _line(
        5,
        _n("410", 410, "prefill-tflops"),
        _n("360", 360, "decode-tflops"),
        _n("95%", 95, "prefill-percent-of-peak"),
        _n("83%", 83, "decode-percent-of-peak"),
    ),
    _line(43, _n("64", 64, "b-topk-choices"), _n("96", 96, "b-topk-choices")),
    _line(
        45,
        _n("-∞", -_INF, "online-softmax-initial-values"),
        _n("-∞", -_INF, "online-softmax-initial-values"),
        _n("0", 0, "online-softmax-initial-values"),
    ),
    _line(57, _n("6", 6, "rescale-threshold")),
    _line(67, _n("exp(6)", 403.43, "rescale-factor-bound"), _n("6", 6, "rescale-threshold")),
    _line(85, _n("4096", 4096, "cube-fma-per-cycle"), _n("5", 5, "l2-bandwidth-tb-per-s")),
    _line(88, _n("512", 512, "roofline-head-dim")),
    _line(89, _n("5e12", 5e12, "l2-bandwidth-bytes-per-s")),
    _line(90, _n("32", 32, "ai-cores")),
    _line(91, _n("1650e6", 1650e6, "clock-hz")),
    _line(94, *(_n(str(h), h, "roofline-heads-grid") for h in (16, 32, 64, 128))),
    _line(95, _n("512", 512, "roofline-topk-grid"), _n("1024", 1024, "roofline-topk-grid")),
    _line(96, _n("4096", 4096, "cube-fma-per-cycle")),
    _line(97, _n("2", 2, "roofline-qo-factors"), _n("2", 2, "roofline-qo-factors")),
    _line(98, _n("2", 2, "roofline-kv-bytes-per-dim")),
    _line(
        100,
        _n("3d", 3, "roofline-print-format"),
        _n("4d", 4, "roofline-print-format"),
        _n("6d", 6, "roofline-print-format"),
        _n("6.0f", 6, "roofline-print-format"),
        _n("6.0f", 0, "roofline-print-format"),
    ),
    _roofline_row(104, 16, 512, 2048, 5883),
    _roofline_row(105, 16, 1024, 4096, 11419),
    _roofline_row(106, 32, 512, 4096, 6229),
    _roofline_row(107, 32, 1024, 8192, 11765),
    _roofline_row(108, 64, 512, 8192, 6921),
    _roofline_row(109, 64, 1024, 16384, 12457),
    _roofline_row(110, 128, 512, 16384, 8305),
    _roofline_row(111, 128, 1024, 32768, 13841),
    _line(
        114,
        _n("64", 64, "compute-bound-from-heads"),
        _n("64", 64, "compute-bound-from-heads"),
        _n("大致均衡", 1, "balanced-ratio-at-64-heads"),
    ),
    _line(
        116,
        _n("128", 128, "o-shape-at-128-heads"),
        _n("128", 128, "o-shape-at-128-heads"),
        _n("512", 512, "o-shape-at-128-heads"),
        _n("256KB", 256, "l0c-o-at-128-heads"),
        _n("完全占满", 256, "l0c-capacity"),
        _n("两", 2, "accumulator-vector-cores-at-128-heads"),
        _n("64", 64, "mmad-m-saturating-cube"),
        _n("128", 128, "o-shape-at-128-heads"),
    ),
    _line(
        126,
        _n("64", 64, "identity-rescale-shape"),
        _n("512", 512, "identity-rescale-shape"),
        _n("64", 64, "identity-rescale-shape"),
        _n("64", 64, "identity-rescale-shape"),
        _n("512", 512, "identity-rescale-shape"),
    ),
    _line(
        128,
        _n("256", 256, "hf32-off-fma-per-cycle"),
        _n("64", 64, "identity-rescale-shape"),
        _n("64", 64, "identity-rescale-shape"),
        _n("512", 512, "identity-rescale-shape"),
        _n("8192", 8192, "identity-rescale-cycles"),
    ),
    _line(134, _n("两", 2, "vector-cores-per-ai-core")),
    _line(138, _n("16", 16, "mte2-outstanding-requests"), _n("32", 32, "mte2-tokens-in-flight")),
    _line(
        142,
        _n("128", 128, "fixpipe-bytes-per-cycle-1c1v"),
        _n("512", 512, "roofline-head-dim"),
        _n("512", 512, "roofline-head-dim"),
        _n("4096", 4096, "cube-fma-per-cycle"),
        _n("16", 16, "mma-cycles-per-token"),
        _n("512", 512, "roofline-head-dim"),
        _n("128", 128, "fixpipe-bytes-per-cycle-1c1v"),
        _n("1024", 1024, "fixpipe-cycles-formula"),
        _n("2", 2, "fixpipe-cycles-formula"),
        _n("64", 64, "mma-m-heads"),
        _n("16", 16, "mma-cycles-per-token"),
        _n("1024", 1024, "fixpipe-cycles-formula"),
        _n("2", 2, "fixpipe-cycles-formula"),
        _n("73.14", 73.14, "fixpipe-break-even-b-topk"),
        _n("96", 96, "fixpipe-margin-b-topk"),
        _n("128", 128, "fixpipe-margin-b-topk"),
    ),
    _line(144, _n("两", 2, "design-vector-cores-per-cube")),
    _line(150, _n("d_qk", 512, "nd-kv-strides"), _n("1", 1, "nd-kv-strides")),
    _line(
        152,
        _n("512", 512, "token-as-blocks"),
        _n("32", 32, "token-as-blocks"),
        _n("32B", 32, "token-as-blocks"),
        _n("32", 32, "token-as-blocks"),
        _n("32B", 32, "token-as-blocks"),
    ),
    _line(168, _n("64", 64, "design-heads-and-vector-cores"), _n("1C2V", 2, "design-heads-and-vector-cores")),
    _line(176, _n("i-1", -1, "cube-step-offsets"), _n("i-1", -1, "cube-step-offsets")),
    _line(178, _n("i+1", 1, "cube-step-offsets"), _n("i+1", 1, "cube-step-offsets")),
    _line(184, _n("1024", 1024, "softmax-slack-cycles")),
    _line(188, _n("i+5", 5, "vector-step-1-offset")),
    _line(190, _n("i+3", 3, "vector-step-2-offset")),
    _line(
        192,
        _n("i+1", 1, "vector-step-3-offset"),
        _n("i+1", 1, "vector-step-3-offset"),
        _n("i+1", 1, "vector-step-3-offset"),
    ),
    _line(194, _n("i+5", 5, "vector-step-4-offset")),
    _line(196, _n("i", 0, "vector-step-5-offset")),
    _line(198, _n("i+1", 1, "vector-step-6-offset")),
    _line(200, _n("i+5", 5, "vector-step-7-offset")),
    _line(
        216,
        _n("16", 16, "mte2-queue-depth"),
        _n("2", 2, "gather2-burst-count"),
        _n("两", 2, "gather2-burst-count"),
        _n("两", 2, "gather2-burst-count"),
    ),
    _line(220, _n("两", 2, "mte2-copies-per-token")),
    _line(226, _n("32B", 32, "token-as-blocks")),
    _line(228, _n("一", 1, "nz-padding-rows")),
    _line(232, _n("一对", 2, "nd2nz-vector-pair"), _n("256B", 256, "nd2nz-vector-pair")),
    _line(238, _n("32K", 32, "icache-cube"), _n("16K", 16, "icache-vector"), _n("8K", 8, "icache-simd-vf")),
    _line(
        242,
        _n("两", 2, "l1-banks"),
        _n("0", 0, "l1-bank-ranges"),
        _n("256K", 256, "l1-bank-ranges"),
        _n("256K", 256, "l1-bank-ranges"),
        _n("512K", 512, "l1-bank-ranges"),
        _n("两", 2, "l1-banks"),
        _n("两", 2, "l1-banks"),
    ),
)
