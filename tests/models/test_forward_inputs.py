"""The forward's input checks and budgets: the row a NaN is in, the columns a tolerance reads, the chunk sizes."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from ascend_dsa.models.forward_inputs import ForwardInputs, largest_magnitude, tokens_per_chunk
from ascend_dsa.models.reference import output_tolerance, sparse_attn_fwd
from ascend_dsa.units import MiB

#: The gather budget: 16 MiB of gathered keys and scores at once (arrays.CHUNK_BYTES).
BUDGET_BYTES = 16 * MiB


def test_a_nan_is_named_by_the_row_it_is_in() -> None:
    """Indices 7, 3 and 1 name three rows; the NaN sits in row 3 (dimension 5), and the message says row 3."""
    kv = np.ones((10, 1, 8), np.float32)
    kv[3, 0, 5] = np.nan
    q = np.ones((1, 2, 8), np.float32)
    indices = np.array([[[7, 3, 1]]], np.int32)
    with pytest.raises(ValueError, match=r"a NaN or an infinity in row 3$"):
        sparse_attn_fwd(q, kv, indices, 1.0, d_v=4)


def test_the_tolerance_reads_every_value_column_even_with_few_rows() -> None:
    """Two rows of 8 dims, largest |V| 4 in column 5: (2 x 2^-8 + 2 x (8 + 1) x 2^-24) x 4, the docstring's bound."""
    kv = np.zeros((2, 1, 8), np.float32)
    kv[0, 0, 5] = -4.0
    assert output_tolerance(kv, 8, 1) == (2 * 2.0**-8 + 2 * (8 + 1) * 2.0**-24) * 4.0


def test_largest_magnitude_works_a_block_of_rows_at_a_time() -> None:
    """64 MiB of float32 is never copied whole to float64 (128 MiB): a block of the budget's size is, and its abs."""
    array = np.zeros((4096 * 4, 1024), np.float32)
    array[-1, -1] = 3.0
    tracemalloc.start()
    try:
        assert largest_magnitude(array, 1024) == 3.0
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak <= 3 * BUDGET_BYTES


def test_tokens_per_chunk_fits_the_budget() -> None:
    """topk 2048 keys of 512 dims and 64 head scores, 4 B each, are 4.5 MiB a token: 3 tokens fit in 16 MiB."""
    inputs = ForwardInputs(
        q=np.zeros((10, 64, 512), np.float32),
        kv=np.zeros((1, 512), np.float32),
        gather=np.zeros((10, 2048), np.intp),
        valid=np.ones((10, 2048), bool),
        sm_scale=1.0,
        d_v=512,
        attn_sink=None,
        topk_length=np.full(10, 2048),
    )
    assert tokens_per_chunk(inputs) == BUDGET_BYTES // (2048 * (512 + 64) * 4) == 3


def test_the_tolerance_takes_a_single_value_column() -> None:
    """d_v = 1 is the smallest: one value column, whose largest |V| (2) the bound scales."""
    kv = np.full((2, 1, 4), 2.0, np.float32)
    assert output_tolerance(kv, 1, 1) == (2 * 2.0**-8 + 2 * (4 + 1) * 2.0**-24) * 2.0
