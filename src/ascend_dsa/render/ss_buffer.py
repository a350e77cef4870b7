"""The SS buffer handshake as tables: the steps for one block, and the flags the single 64-bit read takes in."""

from __future__ import annotations

from typing import Final

from ascend_dsa.errors import AscendDsaError
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL, KernelConfig
from ascend_dsa.lang import Lang, pick, term
from ascend_dsa.models.ss_buffer import (
    CROSS_CORE_FLAG_STRIDE,
    HANDSHAKE_STEPS,
    SS_FLAG_BYTES,
    SS_LAYOUT_SOURCE,
    SS_READ_BYTES,
    SS_READ_SOURCE,
    block_flags,
    ss_buffer_bytes,
)
from ascend_dsa.render.markdown import number, table
from ascend_dsa.validate import require_instance

_BITS_PER_BYTE: Final = 8

_ACTORS: Final = {"vector": ("每个 VECTOR Core", "each VECTOR Core"), "cube": ("CUBE Core", "CUBE Core")}

_ACTIONS: Final = {
    "write-flag": (
        "等本核的 VF 算出这一块最大值的涨幅，与阈值比较后把结果写进 SS buffer 里自己的那个标志",
        (
            "waits for its VF's rise of the row maximum, compares it with the threshold and writes the answer into "
            "its own flag in the SS buffer"
        ),
    ),
    "set-v2c": ("通知 CUBE：我的标志写好了", "tells the CUBE its flag is written"),
    "wait-v2c": (
        "等两个 VECTOR Core 各自的通知都到（flag 号 n 与 n + {stride} 各一个）",
        "waits until both VECTOR Cores have told it (one flag number each, n and n + {stride})",
    ),
    "set-c2v": (
        "回头通知两个 VECTOR Core：两个标志都已写好，可以读了",
        "tells both VECTOR Cores in turn that both flags are written and may be read",
    ),
    "read-and-copy-o": (
        (
            "把两个标志当作一个 {bits} 位的数读出；不为零（任一核要 rescale）就在这一块的 SV 之前"
            "让 FixPipe 搬走 L0C 里的 O"
        ),
        (
            "reads both flags as one {bits}-bit value; if it is non-zero (either core wants a rescale) FixPipe "
            "moves O out of L0C before this block's SV"
        ),
    ),
    "read-and-scale-o": (
        "等到这个通知后读同一个 {bits} 位的数；不为零就接收搬来的 O、缩放并加进 out_accum",
        (
            "after that signal reads the same {bits}-bit value; if non-zero it takes the O that arrives, scales it "
            "and adds it to out_accum"
        ),
    ),
}


def render_ss_handshake(lang: Lang = "zh") -> str:
    """The per-block skip-scale handshake, step by step, each with its line in kernel_body.h."""
    bits = SS_READ_BYTES * _BITS_PER_BYTE
    rows = [
        [
            step_number,
            pick(lang, *_ACTORS[step.actor]),
            pick(lang, *_ACTIONS[step.action]).format(bits=bits, stride=CROSS_CORE_FLAG_STRIDE),
            f"`{step.flag}`" if step.flag else "—",
            step.source.citation,
        ]
        for step_number, step in enumerate(HANDSHAKE_STEPS, start=1)
    ]
    headers = [
        pick(lang, "步骤", "step"),
        pick(lang, "谁", "who"),
        term("column:what", lang),
        pick(lang, "跨核 flag", "cross-core flag"),
        term("column:code", lang),
    ]
    return table(headers, rows, ("right", "left", "left", "left", "left")) + "\n"


def render_ss_flag_word(config: KernelConfig = SHIPPED_KERNEL, lang: Lang = "zh") -> str:
    """One block's flags against the single read: their bytes, the read's width, and that one covers the other.

    Raises [`AscendDsaError`][] when the cores' flags of some block do not fill one aligned read exactly.
    """
    config = require_instance("config", config, KernelConfig)
    jobs, blocks = range(2), range(1, 3)
    rows = []
    for job in jobs:
        for block in blocks:
            flags = block_flags(config, job, block)
            if not flags.covered:
                msg = (
                    f"the {config.vector_cores_per_cube} flags of job {job}, block {block} span {flags.flag_bytes} B "
                    f"from byte {flags.first_byte}; expected one aligned {flags.read_bytes} B read "
                    f"({SS_READ_SOURCE.citation})"
                )
                raise AscendDsaError(msg)
            rows.append(
                [
                    job,
                    block,
                    f"{flags.first_byte}–{flags.first_byte + flags.flag_bytes}",
                    f"{config.vector_cores_per_cube} × {SS_FLAG_BYTES} B",
                    number(flags.read_bits, f"{flags.read_bits} bit", "bit"),
                    "✓",
                ]
            )
    headers = [
        pick(lang, "任务", "job"),
        term("column:block", lang),
        pick(lang, "标志所在字节", "bytes of its flags"),
        pick(lang, "各核的标志", "one flag per core"),
        pick(lang, "一次读的宽度", "width of the single read"),
        pick(lang, "一次读正好覆盖", "read covers them exactly"),
    ]
    total = ss_buffer_bytes(config)
    caption = pick(
        lang,
        f"布局取自 {SS_LAYOUT_SOURCE.citation}，一次读取取自 {SS_READ_SOURCE.citation}；"
        f"整个 SS buffer 共 {total} 字节。",
        f"Layout from {SS_LAYOUT_SOURCE.citation}, the single read from {SS_READ_SOURCE.citation}; the whole SS "
        f"buffer is {total} bytes.",
    )
    return table(headers, rows, ("right", "right", "right", "right", "right", "center")) + "\n\n" + caption + "\n"
