import pytest

from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.models.nd2nz_stride import (
    bank_slots,
    blocks_per_token,
    l1_nz_stride_bytes,
    min_conflict_free_padding,
    nz_block_bytes,
    token_bytes,
    ub_nz_stride_bytes,
    worst_slot_conflict,
)


def test_token_is_32_blocks_of_32_bytes() -> None:
    """512 bf16 = 1024 B = 32 blocks of 32 B (report (zh) line 152)."""
    assert token_bytes() == 1024
    assert nz_block_bytes(SHIPPED_KERNEL) == 32
    assert blocks_per_token(SHIPPED_KERNEL) == 32


def test_rejected_l1_stride_is_b_topk_blocks() -> None:
    """Converting on the way into L1 would space a token's blocks B_TOPK x 32 B = 2048 B apart."""
    assert l1_nz_stride_bytes(SHIPPED_KERNEL) == 2048


@pytest.mark.parametrize(("pad", "stride", "worst"), [(0, 1024, 8), (1, 1056, 1), (2, 1088, 2)])
def test_padding_spreads_blocks_over_slots(pad: int, stride: int, worst: int) -> None:
    """Without padding all 8 blocks share a slot; one padded row (1056 B, mod 256 = 32) makes them distinct."""
    assert ub_nz_stride_bytes(SHIPPED_KERNEL, pad_rows=pad) == stride
    assert worst_slot_conflict(stride) == worst


def test_padded_stride_uses_every_slot_once() -> None:
    """With 1056 B the eight blocks land in slots 0..7 in order."""
    assert bank_slots(1056) == tuple(range(8))


def test_min_padding_is_one_row() -> None:
    """The fewest padding rows that avoid conflicts is 1, as the kernel's (B_TOPK_PER_V + 1) row buffer."""
    assert min_conflict_free_padding(SHIPPED_KERNEL) == 1


def test_min_padding_follows_b_topk() -> None:
    """40 or 36 tokens per VECTOR Core still need one padded row; 33 tokens (1056 B) need none."""
    assert min_conflict_free_padding(SHIPPED_KERNEL.with_overrides(b_topk=80)) == 1
    assert min_conflict_free_padding(SHIPPED_KERNEL.with_overrides(b_topk=72)) == 1
    assert min_conflict_free_padding(SHIPPED_KERNEL.with_overrides(b_topk=66)) == 0


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: ub_nz_stride_bytes(SHIPPED_KERNEL, pad_rows=-1), "pad_rows"),
        (lambda: bank_slots(0), "stride_bytes"),
        (lambda: bank_slots(64, block_bytes=48), "block_bytes"),
    ],
)
def test_bad_input_names_argument(call: object, name: str) -> None:
    """Bad input raises ValueError naming the argument."""
    with pytest.raises(ValueError, match=name):
        call()  # type: ignore[operator]


def test_padding_found_at_exactly_the_limit() -> None:
    """The shipped kernel needs 1 padding row (config.h:81's B_TOPK_PER_V + 1): a limit of 1 finds it, 0 does not."""
    assert min_conflict_free_padding(SHIPPED_KERNEL, limit=1) == 1
    with pytest.raises(ValueError, match=r"^no padding up to limit = 0 rows avoids conflicts for B_TOPK = 64$"):
        min_conflict_free_padding(SHIPPED_KERNEL, limit=0)
