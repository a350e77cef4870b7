"""Page inputs: the example shapes, grids and alternatives the pages show, read by renderers and prose values alike.

They are data, not results: a renderer draws them and `ascend_dsa.report.prose_values` names them in prose, so
both read them from here instead of one importing the other's constants.
"""

from __future__ import annotations

from typing import Final

from ascend_dsa.facts.hardware import ASCEND_950, AscendSpec
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.facts.report_inputs import REPORT_ALTERNATIVE_B_TOPK
from ascend_dsa.lang import Text
from ascend_dsa.models.design_point import SHIPPED_DESIGN, DesignPoint, KvCache
from ascend_dsa.models.pipeline import Task, stage_costs
from ascend_dsa.models.ring_buffer import RingTimeline, ring_timeline

#: The alternatives the design page discusses by name, each a change of one choice of the report's.
ONE_VECTOR_CORE: Final = DesignPoint(vector_cores=1)
FEWER_HEADS: Final = DesignPoint(heads_per_core=32)
MORE_HEADS: Final = DesignPoint(heads_per_core=128)
#: Line 43's other B_TOPK with the shipped INDEX_BLOCK_SIZE, which it does not divide.
ALTERNATIVE_B_TOPK: Final = DesignPoint(b_topk=REPORT_ALTERNATIVE_B_TOPK)
#: The same B_TOPK with an INDEX_BLOCK_SIZE it divides (four blocks per group).
ALTERNATIVE_B_TOPK_DIVIDING: Final = DesignPoint(
    b_topk=REPORT_ALTERNATIVE_B_TOPK, index_block_size=4 * REPORT_ALTERNATIVE_B_TOPK
)

#: Alternatives to the shipped design shown beside it: (name, point).
ALTERNATIVES: Final = (
    (Text("报告的选择", "the report's choice"), SHIPPED_DESIGN),
    (Text("只用一个 VECTOR Core（1C1V）", "one VECTOR Core (1C1V)"), ONE_VECTOR_CORE),
    (Text("1C1V 且 B_TOPK 128", "1C1V with B_TOPK 128"), DesignPoint(vector_cores=1, b_topk=128)),
    (Text("32 个 head", "32 heads"), FEWER_HEADS),
    (Text("128 个 head", "128 heads"), MORE_HEADS),
    (Text("B_TOPK 96（INDEX_BLOCK_SIZE 640）", "B_TOPK 96 (INDEX_BLOCK_SIZE 640)"), ALTERNATIVE_B_TOPK),
    (
        Text("B_TOPK 96，INDEX_BLOCK_SIZE 384", "B_TOPK 96, INDEX_BLOCK_SIZE 384"),
        ALTERNATIVE_B_TOPK_DIVIDING,
    ),
    (Text("B_TOPK 128", "B_TOPK 128"), DesignPoint(b_topk=128)),
    (Text("decode，FP8 + FP4，sink", "decode, FP8 + FP4, sink"), DesignPoint(kv_cache=KvCache.FP8_FP4, sink=True)),
)

#: Heads and B_TOPK of the feasibility map: 16..256 in steps of 16.
MAP_STEPS: Final = tuple(range(16, 257, 16))

#: The small ND/NZ example: tokens and dims of the tile (the real one is B_TOPK per VECTOR Core x d_qk).
ND2NZ_EXAMPLE_TOKENS: Final = 3
ND2NZ_EXAMPLE_DIMS: Final = 48

#: Blocks in the simulated job: enough for a steady state between the first and the last blocks.
SIMULATED_BLOCKS: Final = 32

#: The by-eye example of the model chapter: 6 keys, one token, one head.
EXAMPLE_S_KV: Final = 6
EXAMPLE_INDICES: Final = (2, -1, 5, 2, 6, 0)
EXAMPLE_KEYS: Final = ((1.0, 0.0), (0.0, 1.0), (2.0, 1.0), (-1.0, 0.5), (0.5, 0.5), (1.5, -1.0))
EXAMPLE_QUERY: Final = (1.0, 0.5)

#: The double-buffering primer's rings: one buffer, two (ping-pong), and as many as the kernel's UB ring of KV blocks.
PRIMER_RING_BUFFERS: Final = (1, 2, SHIPPED_KERNEL.ub_kv_buffers)
#: Blocks each ring of the primer runs: enough that its steady period shows.
PRIMER_RING_BLOCKS: Final = 4
#: Fractals across the ND/NZ primer's tile (it is one fractal tall): enough that ND's strides show.
PRIMER_TILE_FRACTALS_ACROSS: Final = 4


def primer_ring(buffers: int, spec: AscendSpec = ASCEND_950) -> RingTimeline:
    """The double-buffering primer's ring: MTE2 gathers one KV block at the AI Core's L2 share, the CUBE computes it.

    The load is the pipeline model's ``gather`` and the use its ``QK + SV`` per block (``models.pipeline``), as if MTE2
    wrote straight into the buffer the CUBE reads: the textbook picture, not the kernel's several rings.
    """
    cycles = stage_costs(spec, SHIPPED_KERNEL).cycles  # checks spec
    return ring_timeline(cycles[Task.GATHER], cycles[Task.QK] + cycles[Task.SV], buffers, PRIMER_RING_BLOCKS)
