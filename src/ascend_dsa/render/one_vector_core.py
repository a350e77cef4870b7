"""The 1C1V and gather2 chapters' tables: the MTE2 queue, gather2 requests and FixPipe against MMA."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Final

from ascend_dsa.facts.kernel_config import GATHER2_TOKENS_PER_REQUEST
from ascend_dsa.lang import Lang, pick, term
from ascend_dsa.models.block_cycles import (
    fixpipe_break_even_b_topk,
    fixpipe_cycles_per_block,
    mma_cycles_per_block,
)
from ascend_dsa.models.mte2 import requests_per_block, tokens_in_flight
from ascend_dsa.render.markdown import Header, number, table
from ascend_dsa.report.claims import check_claims
from ascend_dsa.report.rules import SHIPPED_CONTEXT, ClaimContext
from ascend_dsa.validate import require_iterable

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ascend_dsa.facts.hardware import AscendSpec
    from ascend_dsa.facts.kernel_config import KernelConfig

#: Tokens one MTE2 request moves without gather2: a plain copy fetches a single token.
_PLAIN_TOKENS_PER_REQUEST: Final = 1


def _queue_headers(lang: Lang) -> list[str]:
    """The columns both MTE2 tables end with: a block's requests against the queue."""
    return [
        pick(lang, "每块请求数", "requests per block"),
        pick(lang, "队列深度", "queue depth"),
        pick(lang, "同时在途 token", "tokens in flight"),
        pick(lang, "每块需要几轮队列", "queue refills per block"),
    ]


def _queue_cells(spec: AscendSpec, config: KernelConfig, tokens_per_request: int) -> list[object]:
    """A block's MTE2 requests per VECTOR Core, the queue's depth, the tokens it keeps in flight, the refills."""
    requests = requests_per_block(config, tokens_per_request)
    depth = spec.ascend.mte2_outstanding_requests
    return [
        requests,
        depth,
        tokens_in_flight(spec, tokens_per_request),
        number(requests / depth, f"{requests / depth:.0f} ×", "×"),
    ]


def render_mte2_in_flight(design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh") -> str:
    """Tokens the MTE2 queue keeps in flight against the tokens a block needs, under 1C2V and 1C1V."""
    check_claims(design, ids=("mte2-outstanding-requests", "mte2-tokens-in-flight", "gather2-burst-count"))
    spec, config = design.spec, design.config
    rows = []
    for vector_cores in (config.vector_cores_per_cube, 1):
        variant = config.with_overrides(vector_cores_per_cube=vector_cores)
        cells = _queue_cells(spec, variant, GATHER2_TOKENS_PER_REQUEST)
        rows.append([f"1C{vector_cores}V", variant.b_topk_per_vector_core, GATHER2_TOKENS_PER_REQUEST, *cells])
    headers = [
        pick(lang, "配置", "setup"),
        term("column:tokens per VECTOR Core per block", lang),
        pick(lang, "每请求 token（gather2）", "tokens per request (gather2)"),
        *_queue_headers(lang),
    ]
    return table(headers, rows, ("left", *("right",) * 6)) + "\n"


def render_gather2_requests(design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh") -> str:
    """MTE2 requests per VECTOR Core per block with one token per request and with gather2's two."""
    check_claims(design, ids=("mte2-queue-depth", "gather2-burst-count"))
    spec, config = design.spec, design.config
    plain = _PLAIN_TOKENS_PER_REQUEST
    ways = (
        (pick(lang, f"每请求 {plain} 个 token", f"{plain} token per request"), plain),
        ("gather2", GATHER2_TOKENS_PER_REQUEST),
    )
    rows = [[name, tokens, config.b_topk_per_vector_core, *_queue_cells(spec, config, tokens)] for name, tokens in ways]
    headers = [
        pick(lang, "方式", "how"),
        pick(lang, "每请求 token", "tokens per request"),
        term("column:tokens per VECTOR Core per block", lang),
        *_queue_headers(lang),
    ]
    return table(headers, rows, ("left", *("right",) * 6)) + "\n"


def render_fixpipe_table(
    b_topks: Iterable[int] = (32, 64, 73, 74, 96, 128), design: ClaimContext = SHIPPED_CONTEXT, *, lang: Lang = "zh"
) -> str:
    """Under 1C1V: MMA against FixPipe cycles per block, with O leaving every block and with only P leaving."""
    check_claims(
        design,
        ids=(
            "mma-cycles-per-token",
            "fixpipe-cycles-formula",
            "fixpipe-break-even-b-topk",
            "fixpipe-margin-b-topk",
            "fixpipe-bytes-per-cycle-1c1v",
        ),
    )
    spec, model = design.spec, design.model
    rows = []
    for b_topk in require_iterable("b_topks", b_topks):
        config = design.config.with_overrides(b_topk=b_topk)
        mma = mma_cycles_per_block(spec, config, model)
        both = fixpipe_cycles_per_block(spec, config, model)
        p_only = fixpipe_cycles_per_block(spec, config, model, o_leaves=False)
        rows.append(
            [
                b_topk,
                number(mma, f"{float(mma):.0f}"),
                number(both, f"{float(both):.0f}"),
                _bound(mma, both, lang),
                number(p_only, f"{float(p_only):.0f}"),
                _bound(mma, p_only, lang),
            ]
        )
    bound = pick(lang, "瓶颈", "bound")  # heads the verdict after each FixPipe column
    headers: list[str | Header] = [
        "B_TOPK",
        pick(lang, "MMA 周期", "MMA cycles"),
        pick(lang, "FixPipe：O + P 每块都搬", "FixPipe: O + P every block"),
        Header(bound, pick(lang, "瓶颈（O + P 每块都搬）", "bound (O + P every block)")),
        pick(lang, "FixPipe：只搬 P", "FixPipe: P only"),
        Header(bound, pick(lang, "瓶颈（只搬 P）", "bound (P only)")),
    ]
    break_even = fixpipe_break_even_b_topk(spec, design.config, model)
    caption = pick(
        lang,
        f"FixPipe 速率 {spec.ascend.fixpipe_bytes_per_cycle_1c1v} B/周期；"
        f"两条直线交于 B_TOPK = {float(break_even):.4f}。"
        f"“只搬 P”即 O 留在 L0C、只在 rescale 或最后一块时才搬出的情形。",
        f"FixPipe at {spec.ascend.fixpipe_bytes_per_cycle_1c1v} B/cycle; the two lines cross at B_TOPK ="
        f" {float(break_even):.4f}. 'P only' is the case where O stays in L0C and leaves only on a rescale or"
        f" after the last block.",
    )
    return table(headers, rows, ("right", "right", "right", "left", "right", "left")) + "\n\n" + caption + "\n"


def _bound(mma: Fraction, fixpipe: Fraction, lang: Lang) -> str:
    if fixpipe > mma:
        return pick(lang, "FixPipe bound", "FixPipe-bound")
    if fixpipe == mma:
        return pick(lang, "持平", "tie")
    return pick(lang, "MMA bound", "MMA-bound")
