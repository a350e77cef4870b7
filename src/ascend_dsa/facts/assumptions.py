"""Every assumption the model makes, each kept once: its value with unit, why, and the renderers that use it.

The report and the kernel leave some quantities open (the FixPipe rate under 1C2V, VECTOR Core throughput, ...).
Where the model needs one, it takes it from here, so that no two pages can use different values for one quantity.
Each `Assumption` carries a [`Source`][] of kind ``"assumed"``; modules import
the value constants below, never retype them. ``renderers`` names the public renderers whose output depends on the
assumption; `assumption_pages` turns that into the pages that use it, at build time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.facts.kernel_rules import VECTOR_BYTES
from ascend_dsa.facts.model_shape import DSA_V41
from ascend_dsa.facts.provenance import Ref, Source, report_lines
from ascend_dsa.lang import Text

#: FixPipe rate under 1C2V over the report's 1C1V rate (report (zh) line 142 gives only 1C1V).
FIXPIPE_1C2V_SPEEDUP: Final = 2
#: Assumed VECTOR Core throughput: one 256 B register of data per cycle per pass (the report gives no figure).
VECTOR_BYTES_PER_CYCLE: Final = VECTOR_BYTES
#: Assumed MTE3 (UB -> L1) throughput per VECTOR Core.
MTE3_BYTES_PER_CYCLE: Final = VECTOR_BYTES
#: Passes over the data each VECTOR task makes: ND2NZ reads and writes; softmax max, exp, sum, cast; the O scale
#: reads the accumulator and the fragment and writes the accumulator; the index preprocessing reads the indices and
#: writes pairs, offsets and strides (about four times as many bytes).
ND2NZ_PASSES: Final = 2
SOFTMAX_PASSES: Final = 4
SCALE_O_PASSES: Final = 3
PROCESS_INDEX_PASSES: Final = 4
#: Share of a logit's variance common to all heads of a token (what the indexer ranks by).
SHARED_VARIANCE: Final = 0.5
#: The illustrative softmax scale is ``d_qk ** SM_SCALE_EXPONENT`` (the usual ``1 / sqrt(d_qk)``).
SM_SCALE_EXPONENT: Final = -0.5
#: Bytes of one UB row in the ND2NZ bank model: one vector register, cut into slots of one NZ block (32 B).
UB_ROW_BYTES: Final = VECTOR_BYTES
#: One slot: an NZ block, a fractal row of bf16 (what ND2NZ writes at once).
_SLOT_BYTES: Final = SHIPPED_KERNEL.fractal_cols * DSA_V41.element_bytes
#: The FP8 + FP4 roofline counts an FP4 extra-cache token at this many FP8 main-cache tokens (an upper bound).
FP4_EXTRA_TOKEN_AT_FP8_TOKENS: Final = 1
#: fp32 FMA per cycle with HF32 on, as a multiple of the bf16 rate (not in the report).
HF32_RATE_OVER_BF16: Final = 1


@dataclass(frozen=True)
class Assumption:
    """One assumed quantity: what it is, its value and unit, why we take it, and who uses it.

    ``renderers`` are the public renderers whose output depends on it; ``prose_values`` the names of
    `ascend_dsa.report.prose_values` that do (a page writing ``{{ name }}`` uses the assumption too).
    """

    key: str
    quantity: Text
    value: float
    unit: str
    why: Text
    source: Source
    renderers: tuple[str, ...]
    prose_values: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        """Reject a source that is not an assumption, or an assumption nobody uses."""
        if self.source.kind != "assumed":
            raise ValueError(f"{self.key}: source kind must be 'assumed', got {self.source.kind!r}")
        if not self.renderers:
            raise ValueError(f"{self.key}: renderers must name at least one user, got ()")


#: Renderers of the pipeline chapter: they all schedule [`ascend_dsa.models.pipeline.stage_costs`][].
_PIPELINE_RENDERERS: Final = (
    "render_pipeline_costs",
    "render_pipeline_gantt",
    "render_pipeline_schedule",
    "render_pipeline_sensitivity",
    "render_pipeline_summary",
)
#: Renderers of the design space: they all evaluate design points (`ascend_dsa.models.design_point.evaluate`).
_DESIGN_RENDERERS: Final = (
    "render_design_alternatives",
    "render_design_limits",
    "render_feasibility_map",
    "render_what_if_table",
)
#: Renderers of the skip-scale measurement: they all count rescales on synthetic logits
#: (`ascend_dsa.models.skip_scale.rescale_sweep`).
_RESCALE_RENDERERS: Final = ("render_rescale_table", "render_rescale_plot", "render_fixpipe_with_skip_scale")


def based_on(assumption: Assumption, what: str | Text) -> Source:
    """The source of a number computed with ``assumption``: its citation, and ``what`` before its note.

    A Chinese ``what`` is the whole note a Chinese page shows (what, and the assumption in a few words).
    """
    note = f"{what if isinstance(what, str) else what.en}; {assumption.source.how('en')}"
    return Source(assumption.source.refs, "assumed", note=note if isinstance(what, str) else Text(what.zh, note))


def _assumed(citation: Ref, note: str) -> Source:
    return Source(citation, "assumed", note=note)


FIXPIPE_1C2V = Assumption(
    key="fixpipe-1c2v",
    quantity=Text(
        "1C2V 时 FixPipe 速率（相对 1C1V 的倍数）",
        "FixPipe rate under 1C2V (multiple of the 1C1V rate)",
    ),
    value=FIXPIPE_1C2V_SPEEDUP,
    unit="x",
    why=Text(
        "报告只给出 1C1V 时每个 AI Core 的速率，并说两个 VECTOR Core 分摊 FixPipe 搬运；我们假设速率随接收的 "
        "VECTOR Core 个数成正比",
        "the report gives the rate per AI Core for 1C1V only and says two VECTOR Cores share the FixPipe copies; "
        "we assume the rate grows in proportion to the VECTOR Cores receiving them",
    ),
    source=_assumed(
        report_lines(142, 144),
        "the report gives FixPipe's rate per AI Core for 1C1V only; we assume it grows in proportion to the VECTOR "
        "Cores receiving the copies (twice the 1C1V rate under 1C2V)",
    ),
    renderers=(
        *_DESIGN_RENDERERS,
        "render_fixpipe_with_skip_scale",
        "render_mma_fixpipe_figure",
        "render_skip_scale_savings",
        *_PIPELINE_RENDERERS,
    ),
    prose_values=("fixpipe_1c2v_speedup", "fixpipe_1c2v_bytes_per_cycle"),
)
VECTOR_RATE = Assumption(
    key="vector-bytes-per-cycle",
    quantity=Text(
        "VECTOR Core 每遍每周期处理的字节",
        "VECTOR Core bytes per cycle per pass",
    ),
    value=VECTOR_BYTES_PER_CYCLE,
    unit="B/cycle",
    why=Text(
        "报告没有给 VECTOR Core 的周期数；取一个向量寄存器的宽度",
        "the report gives no VECTOR Core cycle counts; we take one vector register's width per cycle",
    ),
    source=_assumed(
        f"config.h:10 ({VECTOR_BYTES} B vector)",
        f"one {VECTOR_BYTES} B vector per cycle per pass; the report gives no figure",
    ),
    renderers=_PIPELINE_RENDERERS,
    prose_values=("vector_bytes_per_cycle",),
)
MTE3_RATE = Assumption(
    key="mte3-bytes-per-cycle",
    quantity=Text(
        "每个 VECTOR Core 的 MTE3（UB 到 L1）速率",
        "MTE3 (UB to L1) rate per VECTOR Core",
    ),
    value=MTE3_BYTES_PER_CYCLE,
    unit="B/cycle",
    why=Text(
        "报告没有给 MTE3 的速率；取与 VECTOR 相同的宽度",
        "the report gives no MTE3 rate; we take the same width as the VECTOR Core's",
    ),
    source=_assumed(
        "our estimate", f"MTE3 moves {MTE3_BYTES_PER_CYCLE} B per cycle per VECTOR Core; the report gives no figure"
    ),
    renderers=_PIPELINE_RENDERERS,
)
VECTOR_PASSES = Assumption(
    key="vector-passes",
    quantity=Text(
        "各 VECTOR 任务读写数据的遍数（ND2NZ / softmax / O 缩放 / index 预处理）",
        "passes over the data per VECTOR task (ND2NZ / softmax / O scale / index preprocessing)",
    ),
    value=ND2NZ_PASSES + SOFTMAX_PASSES + SCALE_O_PASSES + PROCESS_INDEX_PASSES,
    unit=f"passes ({ND2NZ_PASSES} + {SOFTMAX_PASSES} + {SCALE_O_PASSES} + {PROCESS_INDEX_PASSES})",
    why=Text(
        "按每个任务读写的数组数估计：ND2NZ 读和写；softmax 求 max、exp、求和、转换；O 缩放读两份写一份；"
        "index 预处理读 indices、写出约四倍的字节",
        "counted from the arrays each task reads and writes: ND2NZ reads and writes; softmax max, exp, sum, cast; "
        "the O scale reads two and writes one; index preprocessing reads the indices and writes about four times "
        "as much",
    ),
    source=_assumed("our estimate", "passes counted from the arrays each VECTOR task reads and writes"),
    renderers=_PIPELINE_RENDERERS,
)
SHARED_SCORE_VARIANCE = Assumption(
    key="shared-variance",
    quantity=Text(
        "合成打分中各 head 共有的方差比例",
        "share of a synthetic logit's variance common to all heads",
    ),
    value=SHARED_VARIANCE,
    unit="",
    why=Text(
        "没有真实的打分；indexer 按各 head 共有的部分挑 token，取一半共有、一半各自",
        "we have no real scores; the indexer ranks by what the heads share, so we take half shared, half own",
    ),
    source=_assumed("our estimate", "half of the spread is shared by the heads; the rest is each head's own"),
    renderers=_RESCALE_RENDERERS,
)
SM_SCALE = Assumption(
    key="sm-scale",
    quantity=Text(
        "示例 sm_scale 的指数（sm_scale = d_qk 的该次幂）",
        "exponent of the illustrative sm_scale (sm_scale = d_qk to this power)",
    ),
    value=SM_SCALE_EXPONENT,
    unit="",
    why=Text(
        "算子把 sm_scale 当参数；取常见的 1/√d_qk",
        "the kernel takes sm_scale as a parameter; we take the usual 1/sqrt(d_qk)",
    ),
    source=_assumed("our estimate", "the usual softmax scale 1/sqrt(d_qk); the kernel takes it as a parameter"),
    renderers=(*_RESCALE_RENDERERS, "render_rescale_threshold"),
    prose_values=("raw_logit_threshold",),
)
UB_SLOTS = Assumption(
    key="ub-row-bytes",
    quantity=Text(
        f"ND2NZ 槽位模型中一行 UB 的字节（分成 {_SLOT_BYTES} B 的槽位）",
        f"bytes of one UB row in the ND2NZ slot model (cut into {_SLOT_BYTES} B slots)",
    ),
    value=UB_ROW_BYTES,
    unit="B",
    why=Text(
        f"报告只说多 pad 一行能避开 UB bank 冲突；我们把一行 UB 看成一个向量宽，切成 {_SLOT_BYTES} B 的槽位，"
        "块落在不同槽位即无冲突",
        "the report says only that one padded row avoids UB bank conflicts; we model a UB row as one vector "
        f"cut into {_SLOT_BYTES} B slots and call a write conflict-free when its blocks use distinct slots",
    ),
    source=_assumed(
        report_lines(228),
        "the report says only that one padded row avoids UB bank conflicts; we model a UB row as one "
        f"{UB_ROW_BYTES} B vector of {_SLOT_BYTES} B slots and call a write conflict-free when its blocks use "
        "distinct slots",
    ),
    renderers=("render_nd2nz_banks", "render_nd2nz_bank_slots"),
    prose_values=("ub_row_bytes", "ub_row_slots", "nz_stride_padded_mod_row"),
)
FP4_EXTRA_ROOFLINE = Assumption(
    key="fp4-extra-roofline",
    quantity=Text(
        "FP8 + FP4 设计的 roofline 中，一个 FP4 token 按几个 FP8 token 计",
        "FP4 extra-cache tokens counted as this many FP8 tokens in the FP8 + FP4 roofline",
    ),
    value=FP4_EXTRA_TOKEN_AT_FP8_TOKENS,
    unit="x",
    why=Text(
        "FP4 额外缓存的 token 比 FP8 的小；按 FP8 的字节数计是 L2 流量的上界",
        "an FP4 extra-cache token is smaller than an FP8 one; counting it at the FP8 size bounds the L2 traffic",
    ),
    source=_assumed(
        "kv_cache_format.h:16-19",
        "tokens of the FP4 extra cache are counted at the FP8 main cache's size: an upper bound",
    ),
    renderers=_DESIGN_RENDERERS,
)
HF32_RATE = Assumption(
    key="hf32-rate",
    quantity=Text(
        "开启 HF32 时 fp32 的乘加速率（相对 bf16 速率的倍数）",
        "fp32 FMA rate with HF32 on (multiple of the bf16 rate)",
    ),
    value=HF32_RATE_OVER_BF16,
    unit="x",
    why=Text(
        "报告只给出关闭 HF32 时的速率；我们假设开启时与 bf16 满速相同",
        "the report gives only the HF32-off rate; we assume HF32 on runs at the full bf16 rate",
    ),
    source=_assumed(report_lines(128), "HF32 on runs fp32 at the full bf16 FMA rate; the report gives no figure"),
    renderers=("render_identity_rescale",),
    prose_values=("identity_rescale_hf32_cycles",),
)

#: Every assumption, in the order the reference page lists them.
ASSUMPTIONS: Final = (
    FIXPIPE_1C2V,
    VECTOR_RATE,
    MTE3_RATE,
    VECTOR_PASSES,
    SHARED_SCORE_VARIANCE,
    SM_SCALE,
    UB_SLOTS,
    FP4_EXTRA_ROOFLINE,
    HF32_RATE,
)
