"""Tables for the algorithm chapters: the forward's shapes, a by-eye index example, a skip-scale trace, agreement."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from ascend_dsa.errors import FigureMismatch
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.facts.model_shape import DSA_V41
from ascend_dsa.lang import Lang, pick, term
from ascend_dsa.models.blocked_forward import blocked_sparse_attn_fwd
from ascend_dsa.models.reference import sparse_attn_fwd, sparse_attn_weights
from ascend_dsa.render.format import fixed
from ascend_dsa.render.markdown import Align, Cell, number, table
from ascend_dsa.report.forward_cases import (
    RANDOM_INVALID_SHARE,
    TRACE_B_TOPK,
    ForwardCase,
    check_forwards_agree,
    compare_forwards,
    forward_cases,
    trace_case,
)
from ascend_dsa.report.scenarios import EXAMPLE_INDICES, EXAMPLE_KEYS, EXAMPLE_QUERY, EXAMPLE_S_KV

if TYPE_CHECKING:
    from collections.abc import Iterable


def _finite_or_text(value: float) -> Cell:
    """A logit as a cell: a number to three places, or an infinity as the text ``-inf`` (data files hold no inf)."""
    return number(value, fixed(value)) if math.isfinite(value) else Cell(fixed(value), fixed(value))


def _case_label(case: ForwardCase, lang: Lang) -> str:  # noqa: PLR0911 - one label per case
    """What is special about a case, with its numbers read off the case itself."""
    topk = case.indices.shape[2]
    b_topk = SHIPPED_KERNEL.b_topk
    if case.name == "random":
        one, every = RANDOM_INVALID_SHARE.numerator, RANDOM_INVALID_SHARE.denominator
        return pick(
            lang, f"随机输入（约 {one}/{every} 的 index 无效）", f"random (about {one} index in {every} invalid)"
        )
    if case.name in {"rising", "huge-first"}:
        step = float(case.kv[b_topk, 0, 0].astype(np.float32) - case.kv[0, 0, 0].astype(np.float32))
        if case.name == "rising":
            return pick(
                lang, f"logit 每块上升 {step:g}（每块都 rescale）", f"logits rise {step:g} per block (all rescale)"
            )
        return pick(lang, "最大的 logit 在最前（之后不再 rescale）", "largest logit first (no rescale after it)")
    if case.name == "all-invalid":
        lonely = int((~((case.indices >= 0) & (case.indices < case.kv.shape[0]))).all(axis=(1, 2)).sum())
        return pick(lang, f"{lonely} 个 q token 的 index 全部无效", f"{lonely} q tokens with every index invalid")
    if case.name == "duplicated":
        return pick(lang, "第一块之后的 index 全是同一个", "every index after the first block is the same one")
    if case.name == "partial-block":
        return pick(
            lang,
            f"topk = {topk}，不是 {b_topk} 的倍数（我们的扩展，内核不接受）",
            f"topk = {topk}, not a multiple of {b_topk} (our extension; the kernel refuses it)",
        )
    if case.name == "topk-length":
        lengths = "、".join(str(int(v)) for v in np.asarray(case.topk_length))
        return pick(lang, f"topk_length = {lengths}", f"topk_length = {lengths.replace('、', ', ')}")
    if case.name == "sink-inf":
        return pick(lang, "attn_sink 交替取 +inf 与 -inf", "attn_sink alternating +inf and -inf")
    return pick(lang, "有限的 attn_sink", "finite attn_sink")


def render_forward_shapes(lang: Lang = "zh") -> str:
    """The tensors of one call at the kernel's sizes (64 heads, d_qk = d_v = 512, topk 640), shapes read off a run."""
    rng = np.random.default_rng(0)
    s_q, s_kv, topk = 2, 1000, SHIPPED_KERNEL.index_block_size
    q = rng.standard_normal((s_q, SHIPPED_KERNEL.heads_per_core, DSA_V41.d_qk), dtype=np.float32)
    kv = rng.standard_normal((s_kv, 1, DSA_V41.d_qk), dtype=np.float32)
    indices = rng.integers(0, s_kv, (s_q, 1, topk)).astype(np.int32)
    out, max_logits, lse = sparse_attn_fwd(q, kv, indices, DSA_V41.d_qk**-0.5)
    rows = [
        ("q", q.shape, pick(lang, "输入：每个 q token 的各个 head 的查询", "in: every head's query of each q token")),
        (
            "kv",
            kv.shape,
            pick(lang, f"输入：全部 KV token，只有 {kv.shape[1]} 个 KV head", "in: all KV tokens, a single KV head"),
        ),
        (
            "indices",
            indices.shape,
            pick(lang, "输入：每个 q token 选中的 KV token", "in: the KV tokens each q token picks"),
        ),
        ("out", out.shape, pick(lang, "输出：注意力结果（前 d_v 维）", "out: the attention result (first d_v dims)")),
        (
            "max_logits",
            max_logits.shape,
            pick(lang, "输出：每行最大的缩放后 logit", "out: each row's largest scaled logit"),
        ),
        (
            "lse",
            lse.shape,
            pick(lang, "输出：每行缩放后 logit 的 log-sum-exp", "out: log-sum-exp of each row's scaled logits"),
        ),
    ]
    headers = [pick(lang, "张量", "tensor"), "shape", pick(lang, "含义", "meaning")]
    body = [(f"`{name}`", "[" + ", ".join(str(n) for n in shape) + "]", text) for name, shape, text in rows]
    caption = pick(
        lang,
        f"s_q = {s_q}、h_q = {q.shape[1]}、d_qk = {q.shape[2]}、s_kv = {s_kv}、topk = {topk}，"
        "shape 取自实际运行的结果。",
        f"s_q = {s_q}, h_q = {q.shape[1]}, d_qk = {q.shape[2]}, s_kv = {s_kv}, topk = {topk}; shapes read off a run.",
    )
    return table(headers, body) + "\n\n" + caption + "\n"


def render_index_example(lang: Lang = "zh") -> str:
    """One token, one head, six keys of two dims: which indices count and the weight each one gets."""
    keys = np.array(EXAMPLE_KEYS, dtype=np.float32)[:, None, :]  # [s_kv, 1, 2]
    query = np.array(EXAMPLE_QUERY, dtype=np.float32)[None, None, :]  # [1, 1, 2]
    indices = np.array(EXAMPLE_INDICES, dtype=np.int32)[None, None, :]
    sm_scale = 1.0
    logits, weights = sparse_attn_weights(query, keys, indices, sm_scale)
    out, max_logits, lse = sparse_attn_fwd(query, keys, indices, sm_scale, d_v=2)
    rows = []
    for position, index in enumerate(EXAMPLE_INDICES):
        valid = 0 <= index < EXAMPLE_S_KV
        reason = (
            "" if valid else pick(lang, "（< 0）", " (< 0)") if index < 0 else pick(lang, "（≥ s_kv）", " (≥ s_kv)")
        )
        key = ", ".join(f"{v:g}" for v in EXAMPLE_KEYS[index]) if valid else "—"
        rows.append(
            (
                position,
                index,
                pick(lang, "有效", "valid") if valid else pick(lang, "无效", "invalid") + reason,
                f"({key})" if valid else key,
                _finite_or_text(float(logits[0, 0, position])),
                number(weights[0, 0, position], f"{weights[0, 0, position]:.4f}"),
            )
        )
    headers = [
        pick(lang, "位置", "position"),
        "index",
        pick(lang, "是否有效", "valid?"),
        pick(lang, "KV 行", "KV row"),
        pick(lang, "缩放后 logit", "scaled logit"),
        pick(lang, "softmax 权重", "softmax weight"),
    ]
    summary = pick(
        lang,
        f"q = ({', '.join(f'{v:g}' for v in EXAMPLE_QUERY)})，s_kv = {EXAMPLE_S_KV}，sm_scale = {sm_scale:g}。"
        f"结果：max_logits = {max_logits[0, 0]:.3f}，lse = {lse[0, 0]:.4f}，"
        f"out = ({out[0, 0, 0]:.4f}, {out[0, 0, 1]:.4f})。",
        f"q = ({', '.join(f'{v:g}' for v in EXAMPLE_QUERY)}), s_kv = {EXAMPLE_S_KV}, sm_scale = {sm_scale:g}. "
        f"Result: max_logits = {max_logits[0, 0]:.3f}, lse = {lse[0, 0]:.4f}, "
        f"out = ({out[0, 0, 0]:.4f}, {out[0, 0, 1]:.4f}).",
    )
    return table(headers, rows, ("right", "right", "left", "left", "right", "right")) + "\n\n" + summary + "\n"


#: Joins the numbers of one head's list: a no-break space, so a list never breaks across lines mid-item.
NO_BREAK = "\u00a0"
#: Separates the two heads' lists; a line may break after the slash, between the heads.
HEAD_SEPARATOR = f"{NO_BREAK}/ "


def per_head(values: Iterable[str]) -> str:
    """One cell holding each head's text, joined so a line breaks only between heads ("0 1 3 2 / 1 1 1 1")."""
    return HEAD_SEPARATOR.join(values)


def render_online_softmax_trace(lang: Lang = "zh") -> str:
    """Block by block, two heads of one token: running max, max used by the softmax, the decision, the sum of exp."""
    case = trace_case()
    threshold = SHIPPED_KERNEL.rescale_threshold
    _, _, _, stats = blocked_sparse_attn_fwd(*case.args(), b_topk=TRACE_B_TOPK, rescale_threshold=threshold)
    bound = math.exp(threshold)
    largest = float(stats.max_exp_term[0])
    if largest > np.float32(bound):
        raise FigureMismatch(
            f"report (zh) line 67: every exp term stays <= exp({threshold:g}) = {bound:.2f}; ours {largest:.2f}"
        )
    logits, _ = sparse_attn_weights(case.q, case.kv, case.indices, case.sm_scale)
    rows = []
    previous = None
    at_threshold = []  # blocks whose largest move equals the threshold: the strict ">" keeps them from rescaling
    for block in range(stats.rescaled.shape[1]):
        cols = slice(block * TRACE_B_TOPK, (block + 1) * TRACE_B_TOPK)
        running = stats.running_max[0, block]
        used = stats.max_for_softmax[0, block]
        delta = "—" if previous is None else per_head(f"{r - u:g}" for r, u in zip(running, previous, strict=True))
        if block == 0:
            decision = pick(lang, "第一块：直接取本块最大值", "first block: takes its own max")
        elif stats.rescaled[0, block]:
            decision = pick(lang, "**rescale**", "**rescale**")
        else:
            decision = pick(lang, "跳过", "skip")
        rows.append(
            (
                block,
                per_head(NO_BREAK.join(f"{v:g}" for v in logits[0, h, cols]) for h in range(2)),
                per_head(f"{v:g}" for v in running),
                delta,
                decision,
                per_head(f"{v:g}" for v in used),
                per_head(f"{v:.3f}" for v in stats.running_sumexp[0, block]),
            )
        )
        if previous is not None and float((running - previous).max()) == threshold:
            at_threshold.append((block, float((running - previous).max())))
        previous = used
    headers = [
        term("column:block", lang),
        pick(lang, "本块 logit（前一个 head / 后一个 head）", "block logits (first head / second head)"),
        "running_max",
        pick(lang, "running_max − 旧的 max_for_softmax", "running_max − old max_for_softmax"),
        term("column:decision", lang),
        "running_max_for_softmax",
        "running_sumexp",
    ]
    strict = "".join(
        pick(
            lang,
            f"第 {b} 块的最大变化恰为 {d:g}，不大于阈值，所以不 rescale。",
            f" Block {b} moves by exactly {d:g}, not more than the threshold, so it does not rescale.",
        )
        for b, d in at_threshold
    )
    caption = pick(
        lang,
        f"阈值 {threshold:g}，B_TOPK = {TRACE_B_TOPK}，sm_scale = {case.sm_scale:g}。"
        f"最大的未归一化 exp 项是 {largest:.2f}，上界 exp({threshold:g}) = {bound:.2f}。{strict}",
        f"Threshold {threshold:g}, B_TOPK = {TRACE_B_TOPK}, sm_scale = {case.sm_scale:g}. The largest unnormalised "
        f"exp term is {largest:.2f}; the bound is exp({threshold:g}) = {bound:.2f}.{strict}",
    )
    return table(headers, rows, ("right", "left", "right", "right", "left", "right", "right")) + "\n\n" + caption + "\n"


def render_forward_comparison(lang: Lang = "zh") -> str:
    """Blocked vs plain on random and adversarial inputs; raises first if any case leaves the stated tolerance."""
    cases = forward_cases()
    comparisons = tuple(compare_forwards(case) for case in cases)
    check_forwards_agree(comparisons)
    headers = [
        pick(lang, "输入", "input"),
        term("column:blocks", lang),
        pick(lang, "rescale 次数", "rescales"),
        "max |Δout|",
        pick(lang, "容差", "tolerance"),
        "max |Δlse|",
        pick(lang, "最大 exp 项", "largest exp term"),
    ]
    rows = [
        (
            _case_label(case, lang),
            c.blocks,
            c.rescales,
            number(c.out_difference, f"{c.out_difference:.2e}"),
            number(c.out_tolerance, f"{c.out_tolerance:.2e}"),
            number(c.lse_difference, f"{c.lse_difference:.1e}"),
            number(c.max_exp_term, f"{c.max_exp_term:.1f}"),
        )
        for case, c in zip(cases, comparisons, strict=True)
    ]
    caption = pick(
        lang,
        f"每种输入有 {comparisons[0].tokens} 个 q token；B_TOPK = {SHIPPED_KERNEL.b_topk}，阈值 "
        f"{SHIPPED_KERNEL.rescale_threshold:g}。容差 = (2·2⁻⁸ + 2·(d_qk + topk)·2⁻²⁴) × max|V|："
        "S 转成 bf16 时每个权重至多变动自身的 2⁻⁸，归一化后的权重之和不超过 1；out 转成 bf16 时再变动至多 2⁻⁸；"
        "最后一项留给两边共有的 float32 舍入。每次构建都会重算，任何一行超出容差，"
        "或 exp 项超过 exp(阈值)，构建就失败。",
        f"{comparisons[0].tokens} q tokens per input; B_TOPK = {SHIPPED_KERNEL.b_topk}, threshold "
        f"{SHIPPED_KERNEL.rescale_threshold:g}. Tolerance = (2·2⁻⁸ + 2·(d_qk + topk)·2⁻²⁴) × max|V|: rounding S "
        "to bf16 moves each weight by at most 2⁻⁸ of itself and the normalised weights sum to at most 1, rounding out "
        "to bf16 moves it by at most 2⁻⁸ again; the last term covers float32 rounding that both forwards share. "
        "Recomputed on every build; a row outside its tolerance, or an exp term above exp(threshold), fails the build.",
    )
    aligns: tuple[Align, ...] = ("left",) + ("right",) * 6
    return table(headers, rows, aligns) + "\n\n" + caption + "\n"
