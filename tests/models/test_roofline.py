import pytest

from ascend_dsa.errors import OutOfRange
from ascend_dsa.facts.hardware import ASCEND_950, ridge_flop_per_byte
from ascend_dsa.models.roofline import (
    RooflinePoint,
    Verdict,
    arithmetic_intensity,
    cube_cycles,
    head_roofline,
    head_roofline_sweep,
    l2_bytes,
    l2_cycles,
    matrix_flops,
)


@pytest.mark.parametrize(
    ("heads", "topk", "cube", "mem"),
    [
        (16, 512, 2048, 5883),
        (16, 1024, 4096, 11419),
        (32, 512, 4096, 6229),
        (32, 1024, 8192, 11765),
        (64, 512, 8192, 6921),
        (64, 1024, 16384, 12457),
        (128, 512, 16384, 8305),
        (128, 1024, 32768, 13841),
    ],
)
def test_report_rows(heads: int, topk: int, cube: int, mem: int) -> None:
    """Each row of report (zh) lines 104-111 comes out of the model."""
    assert cube_cycles(ASCEND_950, heads, topk) == cube
    assert round(l2_cycles(ASCEND_950, heads, topk)) == mem


def test_l2_bytes_counts_q_o_once_and_kv_once() -> None:
    """Q and O scale with heads; the KV term does not."""
    assert l2_bytes(64, 512) == 64 * 512 * 2 * 2 + 512 * 512 * 2
    assert l2_bytes(128, 512) - l2_bytes(64, 512) == 64 * 1024 * 2


def test_fp8_kv_token_size() -> None:
    """528-byte FP8 tokens (kv_cache_format.h:19) at 64 heads take 4239 and 7094 L2 cycles (report (zh) 97-99)."""
    assert round(l2_cycles(ASCEND_950, 64, 512, kv_bytes_per_token=528)) == 4239
    assert round(l2_cycles(ASCEND_950, 64, 1024, kv_bytes_per_token=528)) == 7094


def test_ratios_at_64_heads() -> None:
    """At 64 heads the ratio is 1.18 and 1.32 (report (zh) line 114: roughly balanced)."""
    assert head_roofline(ASCEND_950, 64, 512).ratio == pytest.approx(1.18, abs=0.005)
    assert head_roofline(ASCEND_950, 64, 1024).ratio == pytest.approx(1.32, abs=0.005)


def test_verdicts_follow_report() -> None:
    """Compute-bound only from 64 heads on (report (zh) line 114)."""
    for point in head_roofline_sweep(ASCEND_950):
        expected = Verdict.COMPUTE_BOUND if point.heads >= 64 else Verdict.MEMORY_BOUND
        assert point.verdict() is expected


def test_balanced_band() -> None:
    """A ratio within the band of 1 is called balanced."""
    point = RooflinePoint(heads=64, topk=512, cube_cycles=118, l2_cycles=100.0)
    assert point.verdict(0.2) is Verdict.BALANCED
    assert point.verdict(0.1) is Verdict.COMPUTE_BOUND
    with pytest.raises(ValueError, match="balanced_within"):
        point.verdict(-0.1)


def test_sweep_order_is_heads_outermost() -> None:
    """The sweep follows the report's loop: heads outer, topk inner."""
    keys = [(p.heads, p.topk) for p in head_roofline_sweep(ASCEND_950)]
    assert keys == [(h, k) for h in (16, 32, 64, 128) for k in (512, 1024)]


@pytest.mark.parametrize(("heads", "topk"), [((), (512,)), ((64,), ())])
def test_empty_grid_rejected(heads: tuple[int, ...], topk: tuple[int, ...]) -> None:
    """An empty grid is an error, not an empty table."""
    with pytest.raises(ValueError, match="empty grid"):
        head_roofline_sweep(ASCEND_950, heads, topk)


@pytest.mark.parametrize("bad", [0, -16])
def test_bad_heads_rejected(bad: int) -> None:
    """Heads must be a positive integer."""
    with pytest.raises(ValueError, match="heads must be a positive integer"):
        cube_cycles(ASCEND_950, bad, 512)


@pytest.mark.parametrize("bad", [True, 16.0, "16"])
def test_heads_of_the_wrong_type_rejected(bad: object) -> None:
    """A bool, a float or a string is not a head count: TypeError naming heads."""
    with pytest.raises(TypeError, match="heads must be a whole number"):
        cube_cycles(ASCEND_950, bad, 512)  # type: ignore[arg-type]


def test_more_bandwidth_fewer_l2_cycles() -> None:
    """Doubling L2 bandwidth halves L2 cycles and leaves CUBE cycles alone."""
    fast = ASCEND_950.with_overrides(bandwidth_bytes_per_s=10e12)
    assert l2_cycles(fast, 64, 512) == pytest.approx(l2_cycles(ASCEND_950, 64, 512) / 2)
    assert cube_cycles(fast, 64, 512) == cube_cycles(ASCEND_950, 64, 512)


def test_cube_cycles_beyond_any_float_make_an_out_of_range_ratio() -> None:
    """10**400 CUBE cycles over 1 L2 cycle overflow a float: refused as an infinite ratio, not an OverflowError."""
    with pytest.raises(OutOfRange, match=r"^CUBE/L2 cycle ratio comes out as inf"):
        RooflinePoint(64, 512, 10**400, 1.0)


def test_h800_roofline_uses_its_own_numbers() -> None:
    """On the H800 the matrix cycles of 64 heads x topk 64 are 64 x 64 x 1088 / 2048 FMA per cycle."""
    from ascend_dsa.facts.hopper import H800, MLA_V32  # noqa: PLC0415

    (point,) = head_roofline_sweep(H800, (64,), (64,), MLA_V32)
    assert point.cube_cycles == 64 * 64 * 1088 // 2048


def test_arithmetic_intensity_is_flops_over_l2_bytes() -> None:
    """64 heads, topk 512: 2 x 64 x 512 x 1024 FLOP over 655,360 B = 102.4 FLOP/B (report (zh) lines 96-98)."""
    assert matrix_flops(64, 512) == 2 * 64 * 512 * 1024
    assert arithmetic_intensity(64, 512) == pytest.approx(102.4)
    assert arithmetic_intensity(64, 512, kv_bytes_per_token=528) > arithmetic_intensity(64, 512)
    ratio = arithmetic_intensity(64, 1024) / ridge_flop_per_byte(ASCEND_950)
    assert ratio == pytest.approx(head_roofline(ASCEND_950, 64, 1024).ratio, rel=1e-3)
    with pytest.raises(ValueError, match=r"^heads must be"):
        arithmetic_intensity(0, 512)
