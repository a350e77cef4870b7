"""Every prose value as the pages show it, number and unit, written out: a wrong prefix or unit cannot build.

``{{ name }}`` in a page becomes ``format_quantity(PROSE_VALUES[name]())`` and the page writes the unit after it
(``{{ clock_ghz }} GHz``). The table below is that text with the Quantity's unit, in both languages (numbers are
written alike). Hardware values are the report's (1650 MHz, 4096 FMA/cycle, 5 TB/s, 32 AI Cores; report (zh)
lines 85-91), kernel values the code's (config.h), derived ones follow from them. A change to any of them must
change this table on purpose.
"""

from __future__ import annotations

import re

import pytest

from ascend_dsa.render.format import format_quantity
from ascend_dsa.report.prose_values import PROSE_VALUES, Quantity
from tests.helpers.project import ROOT

#: name -> the text a page shows for it, with the unit the value is in.
EXPECTED = {
    "ai_cores": "32",
    "alt_b_topk": "96",
    "alt_heads_high": "128",
    "alt_heads_low": "32",
    "alt_index_block_size": "384",
    "b_topk": "64",
    "b_topk_choice_high": "96",
    "b_topk_choice_low": "64",
    "b_topk_per_vector_core": "32",
    "bf16_bytes": "2 B",
    "bf16_kv_token_bytes": "1024 B",
    "bf16_unit_roundoff": "0.003906",
    "blocks_per_token": "32",
    "clock_ghz": "1.65 GHz",
    "clock_mhz": "1650 MHz",
    "cube_fma_per_cycle": "4096 FMA/cycle",
    "cube_fma_per_cycle_exact_fp32": "256 FMA/cycle",
    "d_qk": "512",
    "d_v": "512",
    "decode_cycles_per_block": "1230 cycles",
    "decode_extra_cycles_per_block": "206 cycles",
    "decode_instantiations": "4",
    "decode_percent_of_peak": "83%",
    "decode_tflops": "360 TFLOPS",
    "design_topk": "512",
    "exact_fp32_slowdown": "16",
    "example_dims": "2",
    "example_repeated_index": "2",
    "example_s_kv": "6",
    "exp_threshold": "403.4",
    "fixpipe_1c1v_bytes_per_cycle": "128 B/cycle",
    "fixpipe_1c1v_cycles_per_b_topk": "2 cycles",
    "fixpipe_1c1v_cycles_shipped": "1152 cycles",
    "fixpipe_1c1v_o_cycles": "1024 cycles",
    "fixpipe_1c1v_p_only_cycles_shipped": "128 cycles",
    "fixpipe_1c2v_bytes_per_cycle": "256 B/cycle",
    "fixpipe_1c2v_speedup": "2",
    "fixpipe_break_even_above": "74",
    "fixpipe_break_even_b_topk": "73.14 tokens",
    "fixpipe_break_even_below": "73",
    "fixpipe_excess_below": "2 cycles",
    "fixpipe_margin_b_topk_high": "128",
    "fixpipe_margin_b_topk_low": "96",
    "flop_per_fma": "2",
    "fp32_bytes": "4 B",
    "fp8_dims_per_scale": "32",
    "fp8_kv_data_bytes": "512 B",
    "fp8_kv_token_bytes": "528 B",
    "fp8_scales_per_token": "16",
    "fp8_ub_row_bytes": "544 B",
    "fractal_cols": "16",
    "fractal_rows": "16",
    "full_use": "100%",
    "gather2_tokens_per_request": "2",
    "heads_per_core": "64",
    "icache_cube_kib": "32 KiB",
    "icache_simd_vf_kib": "8 KiB",
    "icache_vector_kib": "16 KiB",
    "identity_rescale_blocks": "8",
    "identity_rescale_cycles": "8192 cycles",
    "identity_rescale_hf32_cycles": "512 cycles",
    "index_block_size": "640",
    "index_blocks_per_group": "10",
    "index_group_remainder_high": "64",
    "l0c_free": "44%",
    "l0c_kib": "256 KiB",
    "l1_bank_kib": "256 KiB",
    "l1_banks": "2",
    "l1_kib": "512 KiB",
    "l1_kv_buffers": "4",
    "l1_q_buffers": "2",
    "l1_used_per_bank_kib": "196 KiB",
    "l2_bytes_per_cycle_per_core": "94.697 B/cycle",
    "l2_headroom": "16%",
    "l2_tb_per_s": "5 TB/s",
    "map_step_first": "16",
    "map_step_last": "256",
    "mma_cycles_per_b_topk": "16 cycles",
    "mma_cycles_per_block": "1024 cycles",
    "mma_excess_above": "12 cycles",
    "mma_m": "64",
    "mma_m_granule_rows": "32",
    "mma_m_per_vector_core": "32",
    "mma_minus_fixpipe_per_b_topk": "14 cycles",
    "mte2_outstanding_requests": "16",
    "mte2_requests_per_block": "16",
    "mte2_row_align_bytes": "32 B",
    "mte2_tokens_in_flight": "32",
    "nd2nz_example_dims": "48",
    "nd2nz_example_tokens": "3",
    "nz_block_bytes": "32 B",
    "nz_pad_tokens": "1",
    "nz_padded_column_tokens": "33",
    "nz_stride_padded_bytes": "1056 B",
    "nz_stride_padded_mod_row": "32 B",
    "nz_stride_unpadded_bytes": "1024 B",
    "o_block_kib": "128 KiB",
    "offset_index_read": "5",
    "offset_nd2nz": "3",
    "offset_softmax": "1",
    "one_v_mte2_requests_per_block": "32",
    "p_block_kib": "16 KiB",
    "peak_tflops": "432.54 TFLOPS",
    "pieces_per_vector": "8",
    "pipeline_depth": "6",
    "qk_cycles": "512 cycles",
    "sv_cycles": "512 cycles",
    "p_out_cycles": "64 cycles",
    "softmax_cycles": "128 cycles",
    "s_to_l1_cycles": "16 cycles",
    "nd2nz_cycles": "256 cycles",
    "process_index_cycles": "40 cycles",
    "vector_path_cycles": "208 cycles",
    "pipeline_margin_cycles": "496 cycles",
    "vector_cycles_per_block": "388 cycles",
    "softmax_latency_limit_cycles": "944 cycles",
    "softmax_burst_limit_cycles": "728 cycles",
    "softmax_average_limit_cycles": "764 cycles",
    "softmax_first_wait_cycles": "763 cycles",
    "prefill_cycles_per_block": "1080 cycles",
    "prefill_fraction_of_peak": "94.79%",
    "prefill_fraction_of_peak_decimal": "0.9479",
    "prefill_idle_cycles_per_block": "56 cycles",
    "prefill_percent_of_peak": "95%",
    "prefill_tflops": "410 TFLOPS",
    "raw_logit_threshold": "135.76",
    "report_mmad_m": "64",
    "report_roofline_rows": "8",
    "rescale_threshold": "6",
    "roofline_fp8_ratio_128_1024": "3.87",
    "roofline_fp8_ratio_128_512": "2.91",
    "roofline_fp8_ratio_16_1024": "0.68",
    "roofline_fp8_ratio_16_512": "0.64",
    "roofline_fp8_ratio_32_1024": "1.28",
    "roofline_fp8_ratio_32_512": "1.15",
    "roofline_fp8_ratio_64_1024": "2.31",
    "roofline_fp8_ratio_64_512": "1.93",
    "roofline_heads_128": "128",
    "roofline_heads_16": "16",
    "roofline_heads_32": "32",
    "roofline_heads_64": "64",
    "roofline_l2_wait_128": "-137%",
    "roofline_l2_wait_16": "64%",
    "roofline_l2_wait_32": "30%",
    "roofline_l2_wait_64": "-32%",
    "roofline_margin_128_1024": "137%",
    "roofline_margin_128_512": "97%",
    "roofline_margin_16_1024": "-64%",
    "roofline_margin_16_512": "-65%",
    "roofline_margin_32_1024": "-30%",
    "roofline_margin_32_512": "-34%",
    "roofline_margin_64_1024": "32%",
    "roofline_margin_64_512": "18%",
    "roofline_o_kib_128": "256 KiB",
    "roofline_o_kib_16": "32 KiB",
    "roofline_o_kib_32": "64 KiB",
    "roofline_o_kib_64": "128 KiB",
    "roofline_ratio_128_1024": "2.37",
    "roofline_ratio_128_512": "1.97",
    "roofline_ratio_16_1024": "0.36",
    "roofline_ratio_16_512": "0.35",
    "roofline_ratio_32_1024": "0.70",
    "roofline_ratio_32_512": "0.66",
    "roofline_ratio_64_1024": "1.32",
    "roofline_ratio_64_512": "1.18",
    "roofline_topk_1024": "1024",
    "roofline_topk_512": "512",
    "running_sumexp_start": "0",
    "shapes_topk": "640",
    "shipped_instantiations": "6",
    "simulated_blocks": "32",
    "ss_block_slots": "8",
    "ss_buffer_bytes": "512 B",
    "ss_flag_bytes": "4 B",
    "ss_job_slots": "8",
    "step_index_read": "1",
    "step_kv_gather": "7",
    "step_skip_scale_flag": "6",
    "step_softmax": "3",
    "trace_b_topk": "4",
    "trace_block_at_threshold": "1",
    "trace_block_first_rescale": "2",
    "trace_block_other_head": "3",
    "trace_blocks": "5",
    "trace_sm_scale": "1",
    "ub_bank_groups": "2",
    "ub_bytes": "262,144 B",
    "ub_decode_fp4_sink_bytes": "244,368 B",
    "ub_kib": "256 KiB",
    "ub_prefill_bytes": "259,600 B",
    "ub_prefill_headroom_bytes": "2544 B",
    "ub_prefill_headroom_kib": "2.5 KiB",
    "ub_row_bytes": "256 B",
    "ub_row_slots": "8",
    "vector_bf16": "128",
    "vector_bytes": "256 B",
    "vector_bytes_per_cycle": "256 B/cycle",
    "vector_cores_per_ai_core": "2",
    "vector_stages": "7",
    "what_if_ai_cores": "24",
    "what_if_fewer_cores_heads": "48",
    "what_if_fewer_cores_mma_m": "64",
    "what_if_fp8_heads": "32",
    "what_if_half_l2_heads_max": "144",
    "what_if_half_l2_heads_min": "96",
    # two chips, one ruler (issue 19)
    "h800_sms": "132",
    "h800_matrix_flop_per_cycle": "4096 FLOP/cycle",
    "ascend_matrix_flop_per_cycle": "8192",
    "hopper_heads_per_cta": "64",
    "hopper_mma_cycles_per_token": "34 cycles",
    "hopper_dequant_cycles_per_token": "50 cycles",
    "hopper_crossover_dequant_cycles": "25 cycles",
    "crossover_gain_model": "1.47",
    "crossover_tflops_ratio": "1.64",
    # what 1.64 is made of, and the model's bound for each kernel (issue 31 items 7-8)
    "sparse_decode_tflops": "410 TFLOPS",
    "no_crossover_tflops": "250 TFLOPS",
    "h800_throttled_clock_ghz": "1.6 GHz",
    "no_crossover_bound_tflops": "588 TFLOPS",
    "crossover_bound_tflops": "865 TFLOPS",
    "no_crossover_share_of_bound": "42%",
    "crossover_share_of_bound": "47%",
    "dense_decode_tflops": "660 TFLOPS",
    "h800_throttled_peak_tflops": "865 TFLOPS",
    "dense_throttled_share": "76.3%",
    "dense_blog_utilisation": "80%",
    "dense_achieved_tb_per_s": "3 TB/s",
    "h800_hbm_tb_per_s": "3.35 TB/s",
    "dense_achieved_share_of_hbm": "90%",
    "hopper_claims": "41",
    "side_task_helpers": "2",
    "gather_cycles": "692 cycles",
    "ring_one_buffer_cycles_per_block": "1716 cycles",
    "ring_one_buffer_idle_cycles": "692 cycles",
    "ring_two_buffers_cycles_per_block": "1024 cycles",
    "ring_two_buffers_loader_wait_cycles": "332 cycles",
    "primer_ring_blocks": "4",
    "ub_kv_buffers": "3",
    "index_buffers": "4",
    "job_parity_buffers": "2",
    "offset_kv_gather": "5",
    "step_nd2nz": "2",
    "offset_index_preprocess": "5",
    "ridge_flop_per_byte": "86.51 FLOP/B",
    "fractal_bytes": "512 B",
    "primer_tile_dims": "64",
    "primer_tile_fractals": "4",
    "primer_tile_row_bytes": "128 B",
    "roofline_intensity_16_512": "30.1 FLOP/B",
    "roofline_intensity_16_1024": "31.0 FLOP/B",
    "roofline_intensity_32_512": "56.9 FLOP/B",
    "roofline_intensity_32_1024": "60.2 FLOP/B",
    "roofline_intensity_64_512": "102.4 FLOP/B",
    "roofline_intensity_64_1024": "113.8 FLOP/B",
    "roofline_intensity_128_512": "170.7 FLOP/B",
    "roofline_intensity_128_1024": "204.8 FLOP/B",
}


def shown(name: str) -> str:
    """The text for ``name``: the formatted number, then its unit unless it is none or a percentage."""
    quantity = PROSE_VALUES[name]()
    number = format_quantity(quantity, "en")
    assert format_quantity(quantity, "zh") == number
    return number if quantity.unit in {"", "%"} else f"{number} {quantity.unit}"


def test_every_prose_value_is_in_the_table() -> None:
    """The table lists exactly the prose values there are."""
    assert sorted(EXPECTED) == sorted(PROSE_VALUES)


@pytest.mark.parametrize(("name", "text"), EXPECTED.items(), ids=list(EXPECTED))
def test_prose_value_reads_as_expected(name: str, text: str) -> None:
    """The value shows with its decimals, digit groups and unit: the clock is "1.65 GHz" and "1650 MHz"."""
    assert shown(name) == text


def test_clock_in_both_units() -> None:
    """The clock of report (zh) line 85 in the two units the pages use, neither a prefix off."""
    assert (shown("clock_ghz"), shown("clock_mhz")) == ("1.65 GHz", "1650 MHz")


@pytest.mark.parametrize(
    ("value", "unit", "decimals", "text"),
    [
        (1650, "MHz", 0, "1650"),
        (9999, "B", 0, "9999"),
        (10000, "B", 0, "10,000"),
        (262144, "B", 0, "262,144"),
        (1.65, "GHz", 2, "1.65"),
        (0.9479, "%", 2, "94.79%"),
        (0.16, "%", 0, "16%"),
        (2.5, "KiB", 1, "2.5"),
    ],
)
def test_format_quantity_groups_from_ten_thousand(value: float, unit: str, decimals: int, text: str) -> None:
    """Digits are grouped by commas from 10,000 on, a fraction with unit "%" shows as a percentage."""
    assert format_quantity(Quantity(value, unit, decimals), "en") == text


#: Units an English page writes right after a marker, and the Quantity unit each stands for.
_UNIT_WORDS = (
    ("GHz", "GHz"),
    ("MHz", "MHz"),
    ("TB/s", "TB/s"),
    ("TFLOPS", "TFLOPS"),
    ("KiB", "KiB"),
    ("B/cycle", "B/cycle"),
    ("bytes per cycle", "B/cycle"),
    ("cycles", "cycles"),
)
_AFTER_MARKER = re.compile(r"\{\{\s*([a-z][a-z0-9_]*)\s*\}\}\s?([A-Za-z/ ]{0,16})")


def test_units_written_after_markers_match_the_values() -> None:
    """Where an English page writes a unit right after ``{{ name }}``, it is the unit the value is in."""
    wrong = []
    for page in sorted((ROOT / "docs").rglob("*.en.md")):
        for match in _AFTER_MARKER.finditer(page.read_text(encoding="utf-8")):
            name, after = match.groups()
            for word, unit in _UNIT_WORDS:
                if after.startswith(word) and PROSE_VALUES[name]().unit != unit:
                    wrong.append((page.name, name, word))
                    break
    assert wrong == []


@pytest.mark.parametrize(
    ("name", "count"),
    [
        ("flop_per_fma", 2),  # one FMA is a multiply and an add: report (zh) line 23's peak counts 2 FLOP each
        ("index_blocks_per_group", 10),  # INDEX_BLOCK_SIZE 640 / B_TOPK 64 (config.h:55)
        ("nz_pad_tokens", 1),  # one padding row per NZ column block (config.h's (B_TOPK_PER_V + 1) x D_VO)
    ],
)
def test_counts_are_whole_numbers(name: str, count: int) -> None:
    """A count is an int, not a float that happens to print the same: it feeds further whole-number arithmetic."""
    value = PROSE_VALUES[name]().value
    assert type(value) is int
    assert value == count
