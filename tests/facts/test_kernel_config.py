import math
from collections.abc import Callable

import numpy as np
import pytest

from ascend_dsa.facts.hardware import peak_flops
from ascend_dsa.facts.hopper import H800
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL, config_fields


def test_every_field_sourced() -> None:
    """Each configuration constant carries a source."""
    assert set(SHIPPED_KERNEL.sources) == set(config_fields())


def test_derived_tiles() -> None:
    """MMA_M = 64, 32 rows and 32 tokens per VECTOR Core (config.h:28, 54, 56)."""
    assert SHIPPED_KERNEL.mma_m == 64
    assert SHIPPED_KERNEL.mma_m_per_vector_core == 32
    assert SHIPPED_KERNEL.b_topk_per_vector_core == 32


@pytest.mark.parametrize(("heads", "mma_m"), [(1, 32), (32, 32), (33, 64), (64, 64), (100, 128)])
def test_mma_m_rounds_up_to_32(heads: int, mma_m: int) -> None:
    """MMA_M is heads rounded up to a multiple of 32."""
    assert SHIPPED_KERNEL.with_overrides(heads_per_core=heads).mma_m == mma_m


def test_override_marks_assumption_and_rejects_bad_values() -> None:
    """Overrides are recorded; zero and unknown names are refused."""
    variant = SHIPPED_KERNEL.with_overrides(b_topk=96)
    assert variant.sources["b_topk"].kind == "assumed"
    with pytest.raises(ValueError, match="b_topk must be a positive integer"):
        SHIPPED_KERNEL.with_overrides(b_topk=0)
    with pytest.raises(ValueError, match="cannot override btopk"):
        SHIPPED_KERNEL.with_overrides(btopk=96)


@pytest.mark.parametrize("bad", [64.0, math.nan, math.inf, "64", True])
def test_whole_number_fields_reject_floats_and_other_types(bad: object) -> None:
    """A float (even 64.0), NaN, inf, a string or a bool in a whole-number field is a TypeError naming it."""
    with pytest.raises(TypeError, match="b_topk must be a whole number"):
        SHIPPED_KERNEL.with_overrides(b_topk=bad)


def test_numpy_integers_are_accepted_and_stored_as_int() -> None:
    """np.int64(32) is a whole number; the field holds a plain int."""
    variant = SHIPPED_KERNEL.with_overrides(heads_per_core=np.int64(32))
    assert variant.heads_per_core == 32
    assert type(variant.heads_per_core) is int


@pytest.mark.parametrize("bad", [math.nan, math.inf, 0.0])
def test_rescale_threshold_must_be_positive_and_finite(bad: float) -> None:
    """The one real-valued field rejects NaN, inf and zero with ValueError naming it."""
    with pytest.raises(ValueError, match="rescale_threshold must be"):
        SHIPPED_KERNEL.with_overrides(rescale_threshold=bad)


#: The config.h line (FlashMLA 9a7d253a, csrc/ascend_kernels/prefill/sparse/config.h) that defines each constant,
#: read off the file: 43 RESCALE_THRESHOLD = 6, 53 NUM_VEC_CORE_PER_AI_CORE = 2, 55 B_TOPK = 64,
#: 59 OUTPUT_FRAG_D_VO = 128, 60 NUM_OUTPUT_FRAG_BUFS = 2, 64 NUM_L0A_BUFS = 4, 66-69 NUM_L1_Q_BUFS, NUM_L1_KV_BUFS,
#: NUM_UB_KV_BUFS, NUM_INDEX_BUFS, 71-72 FRACTAL_H, FRACTAL_W.
CONFIG_H_LINES = {
    "b_topk": "config.h:55",
    "vector_cores_per_cube": "config.h:53",
    "output_frag_d_vo": "config.h:59",
    "output_frag_buffers": "config.h:60",
    "l0a_buffers": "config.h:64",
    "l1_q_buffers": "config.h:66",
    "l1_kv_buffers": "config.h:67",
    "ub_kv_buffers": "config.h:68",
    "index_buffers": "config.h:69",
    "fractal_rows": "config.h:71",
    "fractal_cols": "config.h:72",
}


def test_each_constant_cites_the_config_h_line_that_defines_it() -> None:
    """The cited lines are config.h's own; the threshold cites config.h:43 and report (zh) line 57."""
    sources = SHIPPED_KERNEL.sources
    assert {k: sources[k].refs for k in CONFIG_H_LINES} == CONFIG_H_LINES
    assert sources["rescale_threshold"].refs[0] == "config.h:43"
    assert sources["rescale_threshold"].refs[1].spans == ((57, 57),)
    assert sources["heads_per_core"].refs[0].spans == ((168, 168),)


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (
            lambda: SHIPPED_KERNEL.with_overrides(heads_per_core=5000),
            r"^heads_per_core must lie in .* 4,096 heads, got 5000$",
        ),
        (
            lambda: SHIPPED_KERNEL.with_overrides(b_topk=2**21),
            r"^b_topk must lie in the plausible range 1 to 1,048,576 tokens",
        ),
        (
            lambda: SHIPPED_KERNEL.with_overrides(vector_cores_per_cube=5000),
            r"^vector_cores_per_cube must lie in .* 4,096",
        ),
        (lambda: peak_flops(H800, clock_hz=1e308), r"^clock_hz must lie in the plausible range 1e8 to 1e10 Hz"),
        (lambda: H800.with_overrides(bandwidth_bytes_per_s=1e308), r"^bandwidth_bytes_per_s must lie in .* 1e17 B/s"),
    ],
)
def test_values_are_refused_outside_their_plausible_ranges(call: Callable[[], object], words: str) -> None:
    """Issue 31 (16): the kernel's heads and tokens, and a chip's numbers, have ranges (``HEADS_RANGE``,
    ``TOKENS_RANGE``, ``facts.hardware``'s, each saying why) checked where they enter, as the command line checks them.
    """
    with pytest.raises(ValueError, match=words):
        call()
