"""The page "Two chips, one ruler": the Ascend 950 kernel and FlashMLA's Hopper kernels side by side, computed.

Every renderer first checks the Hopper ledger (``check_claims(source="hopper")``, its stated disagreements too)
and the report's figures it quotes, so a moved published figure fails the strict build inside the page's block.
The cross-chip rows run one kernel's model on the other chip's numbers: a model, never a measurement.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Final

from ascend_dsa.facts.hardware import ASCEND_950, AnyChip
from ascend_dsa.facts.hopper import (
    H800,
    H800_THROTTLED_CLOCK_HZ,
    HOPPER_B_TOPK,
    HOPPER_HEADS_PER_CTA,
    MLA_V32,
    REGISTER_BYTES,
    SEESAW_SCHEDULE_CITATION,
    SEESAW_WARPGROUPS,
    SMEM_ALLOCATION_CITATION,
    SMEM_PLAN_CITATION,
    SMEM_S_ALIGN_BYTES,
    SMEM_S_ALIGN_CITATION,
    V32_QUERY_HEADS,
)
from ascend_dsa.facts.hopper_figures import DENSE_DECODE_ACHIEVED_FLOPS, SPARSE_DECODE_ACHIEVED_FLOPS, hopper_figure
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.facts.kv_formats import KvFormat, Mode, kv_bytes_per_token
from ascend_dsa.facts.model_shape import DSA_V41
from ascend_dsa.facts.report_inputs import PREFILL_ACHIEVED_FLOPS
from ascend_dsa.lang import Lang, Text, check_lang, pick, term
from ascend_dsa.models.block_cycles import fixpipe_break_even_b_topk, fixpipe_cycles_per_block, mma_cycles_per_block
from ascend_dsa.models.hopper import (
    dense_compute_bound_heads,
    dequant_cycles_per_token,
    fp8_decode_smem_bytes,
    fp8_decode_smem_member_bytes,
    fp8_token_bytes,
    mma_cycles_per_token,
)
from ascend_dsa.models.memory_plans import l0c_output_bytes, ub_plan
from ascend_dsa.models.roofline import head_roofline
from ascend_dsa.models.throughput import fraction_of_peak
from ascend_dsa.render.claims import hopper_where
from ascend_dsa.render.format import count_word, group_digits, kib, percent, quantity, whole_or
from ascend_dsa.render.markdown import Cell, number, table
from ascend_dsa.render.svg import figure, to_svg_with_legend_below
from ascend_dsa.report.claims import check_claims
from ascend_dsa.report.ledger_hopper import check_disagreements
from ascend_dsa.report.ledgers import HOPPER_LEDGER
from ascend_dsa.units import FP32_BYTES

if TYPE_CHECKING:
    from ascend_dsa.facts.provenance import Citation
    from ascend_dsa.report.claims import ClaimResult

#: The report's claims the page quotes on the Ascend side.
ASCEND_CLAIMS: Final = ("prefill-tflops", "mma-cycles-per-token", "fixpipe-cycles-formula", "fixpipe-break-even-b-topk")
#: Heads sharing one KV read per core on the figure's axis (log 2 steps).
FIGURE_HEADS: Final = (8, 16, 32, 64, 128, 256, 512)
#: The KV tokens per query token of the figure's points (large enough that Q and O hardly count).
FIGURE_TOPK: Final = 2048
#: FlashMLA's two Hopper kernels the H800 column draws on, as the table names them.
FP8_SPARSE_KERNEL: Final = Text("FP8 稀疏 decode", "FP8 sparse decoding")
DENSE_KERNEL: Final = Text("bf16 稠密 decode", "bf16 dense decoding")


def check_two_chips() -> tuple[ClaimResult, ...]:
    """Check the Hopper ledger and the report's claims this page quotes; raise FigureMismatch on any difference."""
    return (*check_claims(source=HOPPER_LEDGER.key), *check_claims(ids=ASCEND_CLAIMS))


def _fixpipe_per_token(*, o_leaves: bool) -> Fraction:
    return fixpipe_cycles_per_block(ASCEND_950, SHIPPED_KERNEL, DSA_V41, o_leaves=o_leaves) / SHIPPED_KERNEL.b_topk


def _mma_per_token_ascend() -> Fraction:
    return mma_cycles_per_block(ASCEND_950, SHIPPED_KERNEL, DSA_V41) / SHIPPED_KERNEL.b_topk


def _cycles(value: Fraction | float) -> str:
    """Cycles as the tables print them: a whole number as such, any other to one decimal."""
    return whole_or(float(value), 1)


def _where(*citations: Citation) -> Text:
    """FlashMLA lines as the table cites them in both languages, joined."""
    return Text(
        "，".join(hopper_where(c, "zh") for c in citations), ", ".join(hopper_where(c, "en") for c in citations)
    )


def _kernel(*parts: tuple[Text, tuple[Citation, ...]]) -> Text:
    """Which Hopper kernel a row of the H800 column describes, each with the lines it stands on."""
    return Text(
        "；".join(f"{kernel.zh}（{_where(*cited).zh}）" for kernel, cited in parts),
        "; ".join(f"{kernel.en} ({_where(*cited).en})" for kernel, cited in parts),
    )


def _cited(key: str) -> Citation:
    return hopper_figure(key).citation


@dataclass(frozen=True)
class Decision:
    """One row of the side-by-side table: what is decided, each kernel's answer, and which Hopper kernel answers.

    The H800 column draws on two FlashMLA kernels (FP8 sparse decoding, bf16 dense decoding); ``hopper_kernel``
    names the one each row describes and the lines it stands on.
    """

    zh: str
    en: str
    ascend: Text
    hopper: Text
    hopper_kernel: Text


def _decisions() -> tuple[Decision, ...]:
    """The rows, each cell computed from the package."""
    heads = SHIPPED_KERNEL.heads_per_core
    l0c_o = l0c_output_bytes(heads, DSA_V41)
    rf_o = HOPPER_HEADS_PER_CTA * MLA_V32.d_v * FP32_BYTES
    ub_total = ub_plan(SHIPPED_KERNEL, Mode.PREFILL).total_bytes
    ub_size = ASCEND_950.staging_bytes_per_core
    smem_total, smem_size = fp8_decode_smem_bytes(), H800.staging_bytes_per_core
    smem_members, smem_align = group_digits(fp8_decode_smem_member_bytes()), SMEM_S_ALIGN_BYTES
    smem_fill = f"{group_digits(smem_total)} / {group_digits(smem_size)} B = {percent(smem_total / smem_size, 1)}"
    allocated, aligned = _where(SMEM_ALLOCATION_CITATION), _where(SMEM_S_ALIGN_CITATION)
    mma_a, mma_h = _mma_per_token_ascend(), mma_cycles_per_token(H800)
    fix_o, dequant = _fixpipe_per_token(o_leaves=True), dequant_cycles_per_token()
    fix_p, crossed = _fixpipe_per_token(o_leaves=False), dequant_cycles_per_token(sharing_ctas=2)
    fix_rate = ASCEND_950.ascend.fixpipe_bytes_per_cycle_1c1v
    fix_where = ASCEND_950.sources["fixpipe_bytes_per_cycle_1c1v"]
    ascend_peak = fraction_of_peak(PREFILL_ACHIEVED_FLOPS, ASCEND_950)
    dense_peak = fraction_of_peak(DENSE_DECODE_ACHIEVED_FLOPS, H800)
    throttled = fraction_of_peak(DENSE_DECODE_ACHIEVED_FLOPS, H800.with_overrides(clock_hz=H800_THROTTLED_CLOCK_HZ))
    sparse_peak = fraction_of_peak(SPARSE_DECODE_ACHIEVED_FLOPS, H800)
    threshold = SHIPPED_KERNEL.rescale_threshold
    return (
        Decision(
            "每个核的 q head 数",
            "q heads per core",
            Text(f"{heads}（每个 AI Core）", f"{heads} (per AI Core)"),
            Text(
                f"{HOPPER_HEADS_PER_CTA}（每个 CTA；{V32_QUERY_HEADS} 个 head 分给 "
                f"{V32_QUERY_HEADS // HOPPER_HEADS_PER_CTA} 个 CTA）",
                f"{HOPPER_HEADS_PER_CTA} (per CTA; {V32_QUERY_HEADS} heads over "
                f"{V32_QUERY_HEADS // HOPPER_HEADS_PER_CTA} CTAs)",
            ),
            _kernel((FP8_SPARSE_KERNEL, (_cited("hopper-block-m"), _cited("crossover-cluster-size")))),
        ),
        Decision(
            "O 在哪里累加",
            "where O accumulates",
            Text(
                f"L0C：fp32 O 占 {kib(l0c_o)}，rescale 时才搬到 UB",
                f"L0C: fp32 O takes {kib(l0c_o)}, moved to UB only to rescale",
            ),
            Text(
                f"寄存器：fp32 O 占 {kib(rf_o)}（{group_digits(rf_o // REGISTER_BYTES)} 个寄存器）",
                f"registers: fp32 O takes {kib(rf_o)} ({group_digits(rf_o // REGISTER_BYTES)} registers)",
            ),
            _kernel((DENSE_KERNEL, (_cited("o-registers"),))),
        ),
        Decision(
            f"两者争的 {kib(ASCEND_950.accumulator_bytes_per_core)}",
            f"the {kib(ASCEND_950.accumulator_bytes_per_core)} both fight over",
            Text(
                f"L0C {kib(ASCEND_950.accumulator_bytes_per_core)}："
                f"O 用去 {percent(l0c_o / ASCEND_950.accumulator_bytes_per_core, 0)}",
                f"L0C {kib(ASCEND_950.accumulator_bytes_per_core)}: "
                f"O uses {percent(l0c_o / ASCEND_950.accumulator_bytes_per_core, 0)}",
            ),
            Text(
                f"寄存器堆 {kib(H800.accumulator_bytes_per_core)}："
                f"O 用去 {percent(rf_o / H800.accumulator_bytes_per_core, 0)}",
                f"register file {kib(H800.accumulator_bytes_per_core)}: O uses "
                f"{percent(rf_o / H800.accumulator_bytes_per_core, 0)}",
            ),
            _kernel((DENSE_KERNEL, (_cited("h800-registers-per-sm"),))),
        ),
        Decision(
            "KV 块",
            "KV tile",
            Text.same(f"B_TOPK = {SHIPPED_KERNEL.b_topk}"),
            Text.same(f"TOPK_BLOCK_SIZE = {HOPPER_B_TOPK}"),
            _kernel((FP8_SPARSE_KERNEL, (_cited("hopper-b-topk"),))),
        ),
        Decision(
            "每个 KV token：矩阵单元与次慢的单元（周期）",
            "per KV token: matrix unit against the next-slowest unit (cycles)",
            Text(
                f"CUBE {_cycles(mma_a)} 对 FixPipe {_cycles(fix_o)}（每块都搬 O；按 1C1V 的 {fix_rate} B/周期，"
                f"{fix_where.cite('zh')}）",
                f"CUBE {_cycles(mma_a)} vs FixPipe {_cycles(fix_o)} (O out every block; at 1C1V's "
                f"{fix_rate} B/cycle, {fix_where.cite('en')})",
            ),
            Text(
                f"Tensor Core {_cycles(mma_h)} 对 CUDA Core 反量化 {_cycles(dequant)}",
                f"Tensor Cores {_cycles(mma_h)} vs CUDA-core dequantisation {_cycles(dequant)}",
            ),
            _kernel((FP8_SPARSE_KERNEL, (_cited("mma-cycles-per-token-64-heads"), _cited("dequant-cycles-per-token")))),
        ),
        Decision(
            "分摊它的办法",
            "the trick that shares it",
            Text(
                f"{SHIPPED_KERNEL.vector_cores_per_cube} 个 VECTOR Core（1C2V）+ skip-scale："
                f"FixPipe 降到 {_cycles(fix_p)}（只搬 P，即没有一块 rescale；仍按 1C1V 的 {fix_rate} B/周期，"
                "报告没有给出 1C2V 的速率）",
                f"{SHIPPED_KERNEL.vector_cores_per_cube} VECTOR Cores (1C2V) + skip-scale: FixPipe down to "
                f"{_cycles(fix_p)} (P alone, i.e. no block rescales; still at 1C1V's {fix_rate} B/cycle, the report "
                "gives no 1C2V rate)",
            ),
            Text(
                f"{V32_QUERY_HEADS // HOPPER_HEADS_PER_CTA} 个 CTA 的 crossover：反量化降到 {_cycles(crossed)}",
                f"crossover of {V32_QUERY_HEADS // HOPPER_HEADS_PER_CTA} CTAs: dequantisation down to "
                f"{_cycles(crossed)}",
            ),
            _kernel((FP8_SPARSE_KERNEL, (_cited("crossover-cluster-size"),))),
        ),
        Decision(
            "rescale 规则",
            "rescale rule",
            Text(
                f"max 涨过 {threshold:g} 才 rescale（skip-scale）",
                f"rescale only when the max rises by more than {threshold:g} (skip-scale)",
            ),
            Text(
                f"每块都 rescale（seesaw 中{count_word(SEESAW_WARPGROUPS, 'zh')}个 warpgroup 共享 max）",
                "every block (seesaw: both warpgroups share the max)",
            ),
            _kernel((DENSE_KERNEL, (SEESAW_SCHEDULE_CITATION,))),
        ),
        Decision(
            "片上缓冲占满程度",
            "on-chip fill",
            Text.same(f"UB {group_digits(ub_total)} / {group_digits(ub_size)} B = {percent(ub_total / ub_size, 1)}"),
            Text(
                f"shared memory {smem_fill}（kernel 分配 sizeof(SharedMemoryPlan)，{allocated.zh}：各成员共 "
                f"{smem_members} B，按 `s` 的 {smem_align} B 对齐向上取整，{aligned.zh}）",
                f"shared memory {smem_fill} (the kernel allocates sizeof(SharedMemoryPlan), {allocated.en}: the "
                f"members' {smem_members} B rounded up to the {smem_align} B alignment of `s`, {aligned.en})",
            ),
            _kernel((FP8_SPARSE_KERNEL, (SMEM_PLAN_CITATION,))),
        ),
        Decision(
            "实测占峰值的比例",
            "achieved fraction of peak",
            Text.same(f"prefill {percent(ascend_peak, 1)}"),
            Text(
                f"稠密 decode {percent(dense_peak, 1)}（降频峰值的 {percent(throttled, 1)}）；"
                f"FP8 稀疏 decode {percent(sparse_peak, 1)}",
                f"dense decoding {percent(dense_peak, 1)} ({percent(throttled, 1)} of the throttled peak); "
                f"FP8 sparse decoding {percent(sparse_peak, 1)}",
            ),
            _kernel(
                (DENSE_KERNEL, (_cited("dense-decode-tflops"),)),
                (FP8_SPARSE_KERNEL, (_cited("sparse-decode-tflops"),)),
            ),
        ),
    )


def render_two_chips_table(*, lang: Lang = "zh") -> str:
    """The decisions of the two kernels side by side, after checking both ledgers.

    The H800 column draws on two FlashMLA kernels; the last column names the one each row describes.
    """
    check_lang(lang)
    check_two_chips()
    headers = [
        term("column:decision", lang),
        ASCEND_950.name,
        H800.name,
        pick(lang, f"{H800.name} 一栏描述的 kernel（出处）", f"the {H800.name} kernel the row describes (where)"),
    ]
    rows = [
        [pick(lang, d.zh, d.en), d.ascend.in_(lang), d.hopper.in_(lang), d.hopper_kernel.in_(lang)]
        for d in _decisions()
    ]
    return table(headers, rows) + "\n"


@dataclass(frozen=True)
class _Figure:
    """A what-if's number and the cell's text in both languages (the number first, then any note)."""

    value: float
    text: Text

    def cell(self, lang: Lang) -> Cell:
        return number(self.value, self.text.in_(lang))


def _same(value: float | Fraction, text: str) -> _Figure:
    return _Figure(float(value), Text.same(text))


def _dense_bound_cell(bound: float, spec: AnyChip, clock_hz: float, clock: Text) -> _Figure:
    """A dense compute-bound head count with the bandwidth that bounds it and the clock it is computed at."""
    chip = spec
    rate, hz = quantity(chip.bandwidth_bytes_per_s, "B/s"), quantity(clock_hz, "Hz")
    return _Figure(
        bound,
        Text(
            f"{bound:.1f}（{chip.bandwidth.zh} 界，{rate}；{clock.zh} {hz}）",
            f"{bound:.1f} ({chip.bandwidth.en} bound, {rate}; {clock.en} {hz})",
        ),
    )


def _what_ifs() -> tuple[tuple[Text, _Figure, _Figure], ...]:
    """(question, on the 950's numbers, on the H800's numbers) rows, each in both languages, computed."""
    h800_rate = ASCEND_950.with_overrides(matrix_fma_per_cycle_per_core=H800.matrix_fma_per_cycle_per_core)
    break_even_950 = fixpipe_break_even_b_topk(ASCEND_950, SHIPPED_KERNEL, DSA_V41)
    break_even_h800 = fixpipe_break_even_b_topk(h800_rate, SHIPPED_KERNEL, DSA_V41)
    heads = SHIPPED_KERNEL.heads_per_core
    bf16 = kv_bytes_per_token(KvFormat.BF16)
    ascend_on_950 = head_roofline(ASCEND_950, heads, FIGURE_TOPK, DSA_V41, bf16).ratio
    ascend_on_h800 = head_roofline(H800, heads, FIGURE_TOPK, DSA_V41, bf16).ratio
    fp8 = fp8_token_bytes()
    hopper_on_h800 = head_roofline(H800, V32_QUERY_HEADS, FIGURE_TOPK, MLA_V32, fp8).ratio
    hopper_on_950 = head_roofline(ASCEND_950, V32_QUERY_HEADS, FIGURE_TOPK, MLA_V32, fp8).ratio
    bound_950 = dense_compute_bound_heads(ASCEND_950, ASCEND_950.clock_hz, DSA_V41)
    bound_h800 = dense_compute_bound_heads(H800, H800_THROTTLED_CLOCK_HZ, MLA_V32)
    mma_950 = mma_cycles_per_token(ASCEND_950, HOPPER_HEADS_PER_CTA, MLA_V32)
    mma_h800 = mma_cycles_per_token(H800, HOPPER_HEADS_PER_CTA, MLA_V32)
    dequant = dequant_cycles_per_token()
    return (
        (
            Text(
                "Ascend 的 FixPipe 界（每块搬 O 时 MMA 超过 FixPipe 的 B_TOPK）",
                "Ascend's FixPipe limit (the B_TOPK above which MMA outlasts FixPipe when O leaves every block)",
            ),
            _same(break_even_950, f"{float(break_even_950):.2f}"),
            _Figure(
                float(break_even_h800),
                Text(
                    f"{float(break_even_h800):.2f}（CUBE 换成 SM 的矩阵速率）",
                    f"{float(break_even_h800):.2f} (CUBE at the SM's matrix rate)",
                ),
            ),
        ),
        (
            Text(
                f"Ascend kernel 的设计点：{heads} 个 head、bf16 KV，矩阵周期 / 带宽周期",
                f"the Ascend kernel's design point: {heads} heads, bf16 KV, matrix cycles / bandwidth cycles",
            ),
            _same(ascend_on_950, f"{ascend_on_950:.2f}"),
            _same(ascend_on_h800, f"{ascend_on_h800:.2f}"),
        ),
        (
            Text(
                f"FlashMLA 的 FP8 稀疏 decode：{V32_QUERY_HEADS} 个 head 共享一次读取、{fp8} B token，"
                "矩阵周期 / 带宽周期",
                f"FlashMLA's FP8 sparse decoding: {V32_QUERY_HEADS} heads sharing one read, {fp8} B tokens, "
                "matrix cycles / bandwidth cycles",
            ),
            _same(hopper_on_950, f"{hopper_on_950:.2f}"),
            _same(hopper_on_h800, f"{hopper_on_h800:.2f}"),
        ),
        (
            Text(
                "稠密 bf16 decode 从多少个 head 起受算力限制（准确的 (d_k + d_v) / d_k；各格注明带宽与时钟）。"
                f"{ASCEND_950.name} 一格是 L2 的界，不是 HBM 的：稠密 decode 读 HBM，但报告只给出 L2 带宽",
                "dense bf16 decoding is compute-bound from this many heads (exact (d_k + d_v) / d_k; each cell "
                f"names its bandwidth and clock). The {ASCEND_950.name}'s is an L2 bound, not an HBM one: dense "
                "decoding reads HBM, but the report gives only the L2 bandwidth",
            ),
            _dense_bound_cell(bound_950, ASCEND_950, ASCEND_950.clock_hz, Text("时钟", "at")),
            _dense_bound_cell(bound_h800, H800, H800_THROTTLED_CLOCK_HZ, Text("降频后的时钟", "at the throttled")),
        ),
        (
            Text(
                f"{HOPPER_HEADS_PER_CTA} 个 head 时每个 FP8 token 的 MMA 周期"
                f"（对比 CUDA Core 反量化 {_cycles(dequant)}）",
                f"MMA cycles per FP8 token at {HOPPER_HEADS_PER_CTA} heads (against CUDA-core dequantisation's "
                f"{_cycles(dequant)})",
            ),
            _same(mma_950, _cycles(mma_950)),
            _same(mma_h800, _cycles(mma_h800)),
        ),
    )


def render_two_chips_what_if(*, lang: Lang = "zh") -> str:
    """Each kernel's model on the other chip's numbers: a model, not a measurement."""
    check_lang(lang)
    check_two_chips()
    headers = [
        pick(lang, "问题（模型，不是实测）", "question (a model, not a measurement)"),
        pick(lang, f"{ASCEND_950.name} 的数", f"on the {ASCEND_950.name}'s numbers"),
        pick(lang, f"{H800.name} 的数", f"on the {H800.name}'s numbers"),
    ]
    rows = [[question.in_(lang), on_950.cell(lang), on_h800.cell(lang)] for question, on_950, on_h800 in _what_ifs()]
    return table(headers, rows, ("left", "right", "right")) + "\n"


def render_two_chips_disagreements(*, lang: Lang = "zh") -> str:
    """The stated disagreements of the Hopper documents, each with where it stands, after checking they still hold."""
    check_lang(lang)
    check_two_chips()
    results = check_disagreements()
    headers = [term("column:id", lang), pick(lang, "我们发现的", "what we find"), term("column:where", lang)]
    rows = [
        [
            f"`{r.disagreement.key}`",
            r.disagreement.statement(lang),
            pick(lang, "；", "; ").join(
                dict.fromkeys(hopper_where(hopper_figure(key).citation, lang) for key in r.disagreement.figures)
            ),
        ]
        for r in results
    ]
    return table(headers, rows) + "\n"


def render_two_chips_roofline_figure(*, lang: Lang = "zh") -> str:
    """Both chips' rooflines on one normalised axis: matrix cycles over bandwidth cycles per core (SVG)."""
    check_lang(lang)
    check_two_chips()
    lines = (
        (
            ASCEND_950.name + pick(lang, f"，bf16 KV（d = {DSA_V41.d_qk}）", f", bf16 KV (d = {DSA_V41.d_qk})"),
            ASCEND_950,
            DSA_V41,
            kv_bytes_per_token(KvFormat.BF16),
            "#c0392b",
            "-",
        ),
        (
            H800.name
            + pick(
                lang,
                f"，bf16 KV（{MLA_V32.d_qk} / {MLA_V32.d_v}）",
                f", bf16 KV ({MLA_V32.d_qk} / {MLA_V32.d_v})",
            ),
            H800,
            MLA_V32,
            MLA_V32.d_qk * MLA_V32.element_bytes,
            "#2c7fb8",
            "-",
        ),
        (
            H800.name + pick(lang, f"，FP8 KV（{fp8_token_bytes()} B）", f", FP8 KV ({fp8_token_bytes()} B)"),
            H800,
            MLA_V32,
            fp8_token_bytes(),
            "#2c7fb8",
            "--",
        ),
    )
    with figure(4.6, 3.4) as fig:
        ax = fig.add_subplot()
        for label, chip, model, token_bytes, colour, style in lines:
            ratios = [head_roofline(chip, h, FIGURE_TOPK, model, token_bytes).ratio for h in FIGURE_HEADS]
            ax.plot(FIGURE_HEADS, ratios, color=colour, linestyle=style, marker="o", markersize=3, label=label)
        ax.axhline(1.0, color="black", linewidth=1, linestyle=":")
        ax.text(FIGURE_HEADS[0], 1.08, pick(lang, "屋脊：两边一样久", "ridge: both take as long"), fontsize=8)
        marks = (
            (SHIPPED_KERNEL.heads_per_core, pick(lang, "昇腾 kernel", "Ascend kernel")),
            (V32_QUERY_HEADS, pick(lang, "V3.2 的全部 head", "all V3.2 heads")),
        )
        for row, (heads, name) in enumerate(marks):  # one above the other: the two lines stand close
            ax.axvline(heads, color="grey", linewidth=0.8, linestyle=":")
            ax.text(heads * 1.05, 0.02 + 0.1 * row, name, transform=ax.get_xaxis_transform(), color="grey")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks(FIGURE_HEADS, [str(h) for h in FIGURE_HEADS])
        ax.set_xlabel(pick(lang, "每个核共享一次 KV 读取的 q head 数", "q heads sharing one KV read per core"))
        ax.set_ylabel(pick(lang, "矩阵周期 / 带宽周期", "matrix cycles / bandwidth cycles"))
        chips = count_word(len({chip.name for _, chip, *_ in lines}), lang)
        title = pick(
            lang,
            f"同一个模型，{chips}块芯片（topk {FIGURE_TOPK}）：1 之上受算力限制，之下受带宽限制",
            f"One model, {chips} chips (topk {FIGURE_TOPK}): above 1 compute-bound, below memory-bound",
        )
        return to_svg_with_legend_below(fig, ax, title=title, drop=0.24, columns=1)
