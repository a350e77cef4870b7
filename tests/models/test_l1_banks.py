import pytest

from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.models.l1_banks import l1_bank_bytes, l1_bank_of, l1_bank_ranges
from ascend_dsa.units import KiB


def test_two_banks_of_256_kib() -> None:
    """512 KiB in two banks: [0, 256K) and [256K, 512K) (report (zh) line 242)."""
    assert l1_bank_bytes(ASCEND_950) == 256 * KiB
    assert l1_bank_ranges(ASCEND_950) == ((0, 256 * KiB), (256 * KiB, 512 * KiB))


def test_bank_of_address() -> None:
    """The boundary byte 256K belongs to the second bank."""
    assert l1_bank_of(256 * KiB - 1, ASCEND_950) == 0
    assert l1_bank_of(256 * KiB, ASCEND_950) == 1


def test_address_out_of_range() -> None:
    """An address past L1 is an error naming it."""
    with pytest.raises(ValueError, match="address"):
        l1_bank_of(512 * KiB, ASCEND_950)


def test_uneven_split_rejected() -> None:
    """Three banks cannot split 512 KiB evenly."""
    with pytest.raises(ValueError, match="l1_bytes"):
        l1_bank_bytes(ASCEND_950.with_overrides(l1_banks=3))
