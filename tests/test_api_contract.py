"""The Python API's contract over generated calls: only TypeError, ValueError or our errors escape, results finite.

Each public function of the modules below is called with arguments drawn, per parameter name, from a pool of good
values and bad ones (wrong types, NaN, infinities, huge and tiny numbers, NumPy scalars, strings, None).
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import inspect
import math
import os
import re
import resource
import signal
import tracemalloc
import types
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ascend_dsa
from ascend_dsa.errors import AscendDsaError
from ascend_dsa.facts.hardware import (
    ASCEND_950,
    BANDWIDTH_BYTES_PER_S_RANGE,
    CLOCK_HZ_RANGE,
    CORES_RANGE,
    DATAPATH_BYTES_PER_CYCLE_RANGE,
    MATRIX_FMA_PER_CYCLE_RANGE,
    AscendSpec,
)
from ascend_dsa.facts.kernel_config import HEADS_RANGE, SHIPPED_KERNEL, TOKENS_RANGE, KernelConfig
from ascend_dsa.facts.kv_formats import KvFormat, Mode
from ascend_dsa.facts.model_shape import DSA_V41, ModelShape
from ascend_dsa.models.design_point import SHIPPED_DESIGN, DesignPoint, KvCache
from ascend_dsa.models.design_sweep import DesignGrid
from ascend_dsa.models.memory_plans import SHIPPED_L1_LAYOUT
from ascend_dsa.report.rules import SHIPPED_CONTEXT, ClaimContext
from ascend_dsa.validate import QUOTED_CHARS_MAX

if TYPE_CHECKING:
    from collections.abc import Callable

#: The modules whose public functions are called (the reference-forward modules have their own property tests).
MODULE_NAMES = (
    "models.block_cycles", "report.claims", "models.design_point", "models.design_sweep", "models.gather2",
    "facts.hardware", "facts.kernel_config", "facts.kernel_rules", "models.l1_banks", "models.memory_plans",
    "models.mte2", "models.nd2nz_stride", "models.nz_layout", "models.peak_clock", "models.pipeline",
    "models.ring_buffer", "models.roofline", "models.schedule", "models.throughput", "validate",
)  # fmt: skip
MODULES = tuple(importlib.import_module(f"ascend_dsa.{name}") for name in MODULE_NAMES)
#: Classes whose constructors take user values, called like the functions.
CONSTRUCTORS = (AscendSpec, KernelConfig, ModelShape, DesignPoint, DesignGrid, ClaimContext)
#: Functions that hand a number back as given (NaN in, NaN out): their results are not checked for finiteness.
PASS_THROUGH = frozenset(
    {"normalise", "plain", "require_instance", "require_real", "require_array", "require_iterable"}
)
#: Functions whose results quote the report's -inf (report (zh) line 45: the online softmax's initial maxima).
QUOTES_INFINITY = frozenset({"evaluate_claims", "check_claims", "check_report_lines"})

NAN, INF = math.nan, math.inf
HUGE = 10**400
#: Wrong for any argument: the wrong kind of object altogether.
ANYTHING_WRONG = (None, "x", object(), [], b"1")
WHOLE = (1, 2, 3, 16, 32, 64, 512, 640, np.int64(32), 2**53, 0, -1, True, 1.5, NAN, INF, "3", HUGE)
REAL = (4.1e14, 1.0, 0.5, 1e308, 5e-324, np.float64(2.0), 7, 0.0, -1.0, NAN, INF, -INF, True, "1", HUGE)
FLAG = (True, False, "no", 0, 1, np.True_)
# The extremes are the plausible ranges' edges (issue 31: a value past them is refused where it enters).
SPECS = (
    ASCEND_950,
    ASCEND_950.with_overrides(cores=1, l1_banks=3),
    ASCEND_950.with_overrides(clock_hz=CLOCK_HZ_RANGE.low, cores=CORES_RANGE.high),
    ASCEND_950.with_overrides(
        bandwidth_bytes_per_s=BANDWIDTH_BYTES_PER_S_RANGE.low,
        matrix_fma_per_cycle_per_core=MATRIX_FMA_PER_CYCLE_RANGE.high,
    ),
    ASCEND_950.with_overrides(fixpipe_bytes_per_cycle_1c1v=DATAPATH_BYTES_PER_CYCLE_RANGE.high, l1_bytes=3),
    ASCEND_950.with_overrides(l1_bytes=1, l1_banks=2, matrix_fma_per_cycle_per_core=2**20),
    ASCEND_950.with_overrides(clock_hz=CLOCK_HZ_RANGE.high, bandwidth_bytes_per_s=BANDWIDTH_BYTES_PER_S_RANGE.high),
)
CONFIGS = (
    SHIPPED_KERNEL,
    SHIPPED_KERNEL.with_overrides(b_topk=1),
    SHIPPED_KERNEL.with_overrides(b_topk=96, vector_cores_per_cube=1),
    SHIPPED_KERNEL.with_overrides(b_topk=TOKENS_RANGE.high, heads_per_core=HEADS_RANGE.high),
    SHIPPED_KERNEL.with_overrides(index_block_size=1, fractal_cols=3),
)
INDICES = (
    list(range(64)),
    np.arange(64),
    np.arange(64) * 1.0,
    [0.5] * 64,
    ["1"] * 64,
    [True] * 64,
    [2**70] * 64,
    [-1] * 64,
    [1, 2, 3],
    [],
    [[1, 2]] * 32,
    "ab",
    np.full(64, np.nan),
)
TILES = (np.ones((4, 32)), np.ones((0, 16)), np.ones((3, 5)), np.ones(16), np.arange(32).reshape(2, 16), "tile")

#: Pool of values for each parameter name; parameters not listed keep their default.
POOLS: dict[str, tuple[Any, ...]] = {
    "spec": SPECS,
    "config": CONFIGS,
    "base": CONFIGS,
    "model": (DSA_V41,),
    "mode": (Mode.PREFILL, Mode.DECODE, "decode", "train", 3),
    "main_cache": (None, KvFormat.FP8, KvFormat.BF16, "fp4", "x", 1),
    "kv_cache": (KvCache.BF16, KvCache.FP8, "fp8", "x", 1),
    "point": (SHIPPED_DESIGN, DesignPoint(b_topk=96), DesignPoint(heads_per_core=HEADS_RANGE.high, topk=2**20)),
    "grid": (DesignGrid(), DesignGrid(heads=(16, HEADS_RANGE.high), topk=(1, 2**20), b_topk=(32, 96, 2**20))),
    "indices": INDICES,
    "block_indices": INDICES,
    "tile": TILES,
    "nz": (np.ones((2, 4, 16)), np.ones((2, 4)), "nz"),
    "candidates": ((16, 32), (), (0,), (1.5,), (2**53,)),
    "heads_grid": ((16, 32), (), (0,), (1.5,), (HUGE,)),
    "achieved_flops": REAL,
    "balanced_within": REAL,
    "cycles": REAL,
    "rescale_blocks": ((), (1,), (0,), (1.5,), "1"),
    "layout": (SHIPPED_L1_LAYOUT, ()),
    "stages": (),  # keep the default
    "name": ("x",),
    "design": (
        SHIPPED_CONTEXT,
        ClaimContext(spec=SPECS[2]),
        ClaimContext(config=CONFIGS[1]),
        ClaimContext(spec=ASCEND_950.with_overrides(fixpipe_bytes_per_cycle_1c1v=16)),
    ),
    "chapter": (None, "index", "pipeline", "nowhere", 5),
    "ids": (None, ("rescale-threshold",), ("nope",), 5),
    "claim_id": ("rescale-threshold", "nope", 5),
    "value": (*WHOLE, *REAL),
}
for _flag in ("fp4_extra", "sink", "o_leaves", "exact_fp32", "reader_first_in_order", "positive"):
    POOLS[_flag] = FLAG
for _whole in (
    "heads",
    "topk",
    "s_kv",
    "token_bytes",
    "kv_bytes_per_token",
    "m",
    "k",
    "n",
    "address",
    "percent",
    "pad_rows",
    "tokens",
    "token",
    "dim",
    "blocks",
    "block_ahead",
    "writer_offset",
    "reader_offset",
    "tokens_per_request",
    "limit",
    "vector_cores",
    "stride_bytes",
    "block_bytes",
    "row_bytes",
    "heads_per_core",
    "b_topk",
    "index_block_size",
    "d_qk",
    "d_v",
    "element_bytes",
    "minimum",
    "maximum",
):
    POOLS[_whole] = WHOLE


def _public_callables() -> list[tuple[str, Callable[..., Any]]]:
    found: list[tuple[str, Callable[..., Any]]] = []
    for module in MODULES:
        for name, member in vars(module).items():
            if name.startswith("_") or not isinstance(member, types.FunctionType):
                continue
            if member.__module__ == module.__name__:
                found.append((f"{module.__name__.rsplit('.', 1)[1]}.{name}", member))
    found.extend((cls.__name__, cls) for cls in CONSTRUCTORS)
    return found


CALLABLES = _public_callables()


def _finite(value: object, depth: int = 0) -> bool:
    """Whether every number inside ``value`` (dataclass fields, tuples, arrays; four levels deep) is finite."""
    if isinstance(value, float | np.floating):
        return math.isfinite(value)
    if isinstance(value, np.ndarray):
        return value.dtype.kind not in "fc" or bool(np.isfinite(value).all())
    parts: list[object] = []
    if isinstance(value, tuple | list):
        parts = list(value)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        parts = [getattr(value, f.name) for f in dataclasses.fields(value)]
    return depth > 4 or all(_finite(part, depth + 1) for part in parts)


@st.composite
def calls(draw: st.DrawFn, target: Callable[..., Any]) -> dict[str, Any]:
    """Keyword arguments for ``target``: each parameter from its pool (or any wrong object), or its default."""
    kwargs: dict[str, Any] = {}
    for parameter in inspect.signature(target).parameters.values():
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        pool = POOLS.get(parameter.name)
        if pool == () or (pool is None and parameter.default is not parameter.empty):
            continue
        if parameter.default is not parameter.empty and draw(st.integers(0, 3)) == 0:
            continue
        choices = pool if pool is not None else ANYTHING_WRONG
        wrong = draw(st.integers(0, 9)) == 0
        kwargs[parameter.name] = draw(st.sampled_from(ANYTHING_WRONG if wrong else choices))
    return kwargs


def check_call(target: Callable[..., Any], kwargs: dict[str, Any]) -> None:
    """Call ``target``: it returns finite numbers or raises TypeError, ValueError or one of our errors."""
    try:
        result = target(**kwargs)
    except (TypeError, ValueError, AscendDsaError):
        return
    assert getattr(target, "__name__", "") in PASS_THROUGH | QUOTES_INFINITY or _finite(result), (
        target,
        kwargs,
        result,
    )


@pytest.mark.parametrize(("name", "target"), CALLABLES, ids=[n for n, _ in CALLABLES])
def test_public_function_says_what_is_wrong(name: str, target: Callable[..., Any]) -> None:
    """Generated good and bad arguments: only TypeError, ValueError or our errors escape; results are finite."""
    del name

    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(calls(target))
    def holds(kwargs: dict[str, Any]) -> None:
        check_call(target, kwargs)

    holds()


# --- Every public callable of ``ascend_dsa.__all__``, with hostile arguments, a time limit and a memory limit -----

#: A call that uses more CPU time than this fails: it hangs on what it was asked (issue 17: unbounded work).
CALL_SECONDS = 5.0
#: A call whose address space grows by more (NumPy's buffers included) fails: memory must follow the request.
CALL_BYTES = 1 << 30


def _read_only(array: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    array.setflags(write=False)
    return array


#: Arrays no function should trip over: empty, NaN, huge, read-only, strided, integer, strings, a broadcast giant.
HOSTILE_ARRAYS = (
    np.zeros((0, 512), np.float32),
    np.full((2, 512), np.nan, np.float32),
    np.full((2, 512), 1e300),
    np.full((1, 64), 1e300),
    _read_only(np.ones((4, 512), np.float32)),
    np.ones((4, 1024), np.float32)[:, ::2],
    np.full((2, 528), 255, np.uint8),
    np.full((2, 288), 0x7F, np.uint8),
    np.full((1, 64), "1"),
    np.broadcast_to(np.ones(512, np.float32), (10**8, 512)),
    np.arange(64),
)
#: Values wrong for nearly any parameter, tried where a parameter has no pool of its own.
HOSTILE = (
    *ANYTHING_WRONG,
    NAN,
    INF,
    -INF,
    HUGE,
    -5,
    0,
    2**53 + 1,
    10**7,
    1e308,
    True,
    (NAN,),
    range(64, 10**7),
    *HOSTILE_ARRAYS,
)
_RNG = np.random.default_rng(0)
_Q = _RNG.standard_normal((2, 64, 576)).astype(np.float32)
_KV = _RNG.standard_normal((300, 1, 576)).astype(np.float32)
_INDICES = _RNG.integers(-1, 300, (2, 1, 64)).astype(np.int32)
LANGS = ("zh", "en", "fr", None)
#: Pools for the parameters of the rest of the API (on top of ``POOLS``).
MORE_POOLS: dict[str, tuple[Any, ...]] = {
    "lang": LANGS,
    "q": (_Q, _Q.astype(np.float64), _read_only(_Q.copy()), _Q[:, :, :], np.full_like(_Q, np.nan)),
    "kv": (_KV, _KV[::-1], np.broadcast_to(_KV[:1], (262_144, 1, 576)), np.full_like(_KV, 1e30)),
    "indices": (_INDICES, np.zeros((2, 1, 0), np.int32), _INDICES.astype(np.uint64), *INDICES[:3]),
    "sm_scale": (0.04, 1.0, 1e30, 5e-324, NAN, -1.0, 0.0),
    "values": HOSTILE_ARRAYS,
    "raw": HOSTILE_ARRAYS,
    "running_max": HOSTILE_ARRAYS,
    "max_for_softmax": HOSTILE_ARRAYS,
    "logits": HOSTILE_ARRAYS,
    "fmt": ("fp8", "fp4", "bf16", "e5m2", None),
    "kv_format": (KvFormat.FP8, "fp4", "x"),
    "threshold": (6.0, 0.0, -1.0, NAN, INF, 1e308, "6"),
    "cycles": (1024.0, NAN, INF, -1.0, 0.0, "1024"),
    "block_tokens": (4, 1, -5, 0, 2**53 + 1, 10**7, 4.0),
    "tokens": (1, 16, 64, -5, 0, 2**53 + 1, 10**7, 10**12),
    "dims": (16, 512, -5, 0, 2**53 + 1, 10**7, 10**12),
    "magnitudes": ((0.01, 10.0), (NAN,), (INF, 1.0), (1e308, 1e-308), (-1.0, 1.0), ()),
    "docs_dir": ("docs", None, 5),
    "scenarios": ([("a", ASCEND_950, "x")], [("a", ASCEND_950, SHIPPED_DESIGN)], [1], "abc", [(1, 2, 3)]),
    "heads": (*WHOLE, range(64, 10**7), (16, 32)),
    "topk": (*WHOLE, range(64, 10**7), (512,)),
    "first_block": WHOLE,
    "last_block": WHOLE,
    "seed": (0, -1, NAN, "0"),
    "order": ("random", "ascending", "x", None),
    "spec": (*SPECS, None),
    "case": (None, "x"),
    "key": ("softmax-slack-cycles", "nope", None),
    "check": FLAG,
    "with_sources": FLAG,
    "adjacent": FLAG,
    "shared": (0.5, NAN, -1.0, 2.0),
}
ALL_NAMES = tuple(name for name in ascend_dsa.__all__ if callable(getattr(ascend_dsa, name)))


class _TooSlow(BaseException):
    """Raised by the timer inside a call that took more than ``CALL_SECONDS``."""


def _alarm(signum: int, frame: object) -> None:
    del signum, frame
    raise _TooSlow


@st.composite
def hostile_calls(draw: st.DrawFn, target: Callable[..., Any]) -> dict[str, Any]:
    """Keyword arguments for ``target``: each parameter from its pool or the hostile values, or its default."""
    kwargs: dict[str, Any] = {}
    try:
        parameters = inspect.signature(target).parameters.values()
    except ValueError:  # a built-in signature (our exceptions): called without arguments
        return kwargs
    if isinstance(target, enum.EnumMeta):  # only the lookup by value is ours; the functional API is Python's
        return {"value": draw(st.sampled_from(("fp8", "decode", "x", None, 5)))}
    for parameter in parameters:
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD, parameter.POSITIONAL_ONLY):
            continue
        if parameter.default is not parameter.empty and draw(st.integers(0, 2)) == 0:
            continue
        pool = MORE_POOLS.get(parameter.name) or POOLS.get(parameter.name) or HOSTILE
        hostile = draw(st.integers(0, 4)) == 0
        kwargs[parameter.name] = draw(st.sampled_from(HOSTILE if hostile else pool))
    return kwargs


def bounded_call(target: Callable[..., Any], kwargs: dict[str, Any]) -> None:
    """Call ``target`` under a CPU timer and an address-space limit: TypeError or ValueError only, in time and memory.

    The memory budget is an operating-system limit (``RLIMIT_AS``, the process's size now plus ``CALL_BYTES``), so
    an allocation past it fails at once with MemoryError, and nothing slows the call down (tracemalloc, used before,
    made a matplotlib figure four times slower).
    """
    # CPU time, not wall time: a loaded machine (two test workers on two cores) must not fail a call that did little.
    previous = signal.signal(signal.SIGPROF, _alarm)
    limits = resource.getrlimit(resource.RLIMIT_AS)
    page_bytes = os.sysconf("SC_PAGE_SIZE")
    in_use = int(Path("/proc/self/statm").read_text().split()[0]) * page_bytes
    resource.setrlimit(resource.RLIMIT_AS, (in_use + CALL_BYTES, limits[1]))
    outcome: BaseException | None = None
    try:
        signal.setitimer(signal.ITIMER_PROF, CALL_SECONDS)
        try:
            target(**kwargs)
        except BaseException as error:  # noqa: BLE001 - judged below, once the timer is off
            outcome = error
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
    finally:
        resource.setrlimit(resource.RLIMIT_AS, limits)
        signal.signal(signal.SIGPROF, previous)
    call = f"{getattr(target, '__name__', target)}({_shown(kwargs)})"
    if isinstance(outcome, KeyboardInterrupt):
        raise outcome
    if isinstance(outcome, _TooSlow):
        pytest.fail(f"{call} ran past {CALL_SECONDS} s of CPU time")
    if isinstance(outcome, MemoryError):
        pytest.fail(f"{call} needed more than {CALL_BYTES / 2**20:.0f} MiB")
    if outcome is not None and not isinstance(outcome, TypeError | ValueError):
        pytest.fail(f"{call} raised {type(outcome).__name__}: {str(outcome)[:200]}")


def test_the_bound_fails_a_call_past_its_memory_or_with_another_error() -> None:
    """`bounded_call` itself: a call that asks for more than the budget, or raises anything but the two, fails."""
    with pytest.raises(pytest.fail.Exception, match=r"needed more than 1024 MiB"):
        bounded_call(bytearray, {"source": 2 * CALL_BYTES})

    def lookup() -> None:
        raise KeyError("x")

    with pytest.raises(pytest.fail.Exception, match=r"raised KeyError"):
        bounded_call(lookup, {})
    bounded_call(int, {"x": "nope"})  # ValueError: allowed


def _shown(kwargs: dict[str, Any]) -> str:
    def one(value: object) -> str:
        if isinstance(value, np.ndarray):
            return f"array({value.shape}, {value.dtype})"
        return repr(value)[:60]

    return ", ".join(f"{k}={one(v)}" for k, v in kwargs.items())


@pytest.mark.parametrize("name", ALL_NAMES)
def test_every_public_callable_is_bounded_and_raises_only_value_or_type_errors(name: str) -> None:
    """Hostile arguments: only TypeError or ValueError (ours subclass them) escape, within 5 s and 1 GiB per call."""
    target = getattr(ascend_dsa, name)
    tried: set[str] = set()

    @settings(max_examples=12, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
    @given(hostile_calls(target))
    def holds(kwargs: dict[str, Any]) -> None:
        shown = _shown(kwargs)
        if shown not in tried:  # a renderer with few parameters draws the same call again: run it once
            tried.add(shown)
            bounded_call(target, kwargs)

    holds()


# --- The cases issue 17 lists, one by one ----------------------------------------------------------------------


def test_our_errors_are_value_errors() -> None:
    """ForbiddenDesign and FigureMismatch (every error of ours) are ValueErrors: the contract has two types."""
    for error in (ascend_dsa.AscendDsaError, ascend_dsa.ForbiddenDesign, ascend_dsa.FigureMismatch):
        assert issubclass(error, ValueError)


@pytest.mark.parametrize(
    ("call", "expected", "words"),
    [
        (
            lambda: ascend_dsa.render_assumptions(docs_dir=5),
            TypeError,
            r"^docs_dir must be a path \(str or Path\), got int 5$",
        ),
        (lambda: ascend_dsa.with_half_l2(None), TypeError, r"^spec must be a AscendSpec, got None \(NoneType\)$"),
        (
            lambda: ascend_dsa.render_what_if_table([("a", ASCEND_950, "x")]),
            TypeError,
            r"^point must be a DesignPoint, got 'x' \(str\)$",
        ),
        (
            lambda: ascend_dsa.KvTokenFormat("x", 512, "e5m2", 32, "ue8m0", ascend_dsa.FP8_V41.sources),
            ValueError,
            r"^element must be one of bf16, e4m3, e2m1, got 'e5m2'$",
        ),
        (
            lambda: ascend_dsa.render_kv_roundtrip(magnitudes=(math.nan,)),
            ValueError,
            r"^magnitudes must be two numbers .*, got \(nan,\)$",
        ),
        (lambda: ascend_dsa.check_p_ready_to_used(math.nan), ValueError, r"^cycles must be a finite number, got nan$"),
        (
            lambda: ascend_dsa.skip_scale_decision(np.full((1, 64), 1e300), np.zeros((1, 64)), 6.0),
            ValueError,
            r"^running_max must be .* without NaN or \+inf, got np\.float64\(1e\+300\) at \(0, 0\)$",
        ),
        (
            lambda: ascend_dsa.skip_scale_decision(np.full((1, 64), "1"), np.zeros((1, 64)), 6.0),
            TypeError,
            r"^running_max must be a real-valued array .*got dtype <U1$",
        ),
        (
            lambda: ascend_dsa.render_kv_block_layout(block_tokens=-5),
            ValueError,
            r"^block_tokens must be a positive integer, got -5$",
        ),
        (
            lambda: ascend_dsa.render_kv_block_layout(block_tokens=2**53 + 1),
            ValueError,
            r"^block_tokens must be at most 4096, got 9007199254740993$",
        ),
        (
            lambda: ascend_dsa.render_nd2nz_example(tokens=10**12),
            ValueError,
            r"^tokens must be at most 4096, got 1000000000000$",
        ),
        (
            lambda: ascend_dsa.head_roofline_sweep(ASCEND_950, heads=range(64, 10**7)),
            ValueError,
            r"^heads asks for 9,999,936 values, more than the limit of 65,536$",
        ),
        (
            lambda: ascend_dsa.nd_to_nz(np.broadcast_to(np.ones(512, np.float32), (10**8, 512))),
            ValueError,
            r"^tile \(100000000, 512\) asks for 51,200,000,000 NZ buffer elements, more than the limit",
        ),
    ],
)
def test_listed_hostile_calls_raise_the_contract_types(
    call: Callable[[], object], expected: type[Exception], words: str
) -> None:
    """Each call issue 17 found outside the contract now raises TypeError or ValueError (exactly), its value named."""
    with pytest.raises(expected, match=words) as raised:
        call()
    assert type(raised.value) is expected


def test_sizes_are_refused_with_the_limit_and_the_number_asked() -> None:
    """A refusal names the limit and the number asked."""
    with pytest.raises(ValueError, match=r"9,999,936 values, more than the limit of 65,536"):
        ascend_dsa.head_roofline_sweep(ASCEND_950, heads=range(64, 10**7))
    with pytest.raises(ValueError, match=r"51,200,000,000 NZ buffer elements, more than the limit"):
        ascend_dsa.nd_to_nz(np.broadcast_to(np.ones(512, np.float32), (10**8, 512)))


def test_nan_scale_bytes_are_refused_unless_allowed() -> None:
    """FP8's NaN scale byte 0xFF and FP4's 0x7F raise by default; allow_nonfinite=True returns the NaN."""
    with pytest.raises(ValueError, match=r"raw token 0, group 0 of FP8 .*scale byte 0xff"):
        ascend_dsa.dequantize_tokens(np.full((1, 528), 255, np.uint8), "fp8")
    fp4 = np.zeros((1, 288), np.uint8)
    fp4[0, 256 + 3] = 0x7F
    with pytest.raises(ValueError, match=r"group 3 of FP4 .*scale byte 0x7f"):
        ascend_dsa.dequantize_tokens(fp4, "fp4")
    decoded = ascend_dsa.dequantize_tokens(np.full((1, 528), 255, np.uint8), "fp8", allow_nonfinite=True)
    assert np.isnan(decoded).all()


def test_values_whose_scale_overflows_are_refused() -> None:
    """3.4e38 in FP8 would decode to inf (256 x 2^120): the quantiser and the bound refuse it; FP4 saturates."""
    values = np.zeros((1, 512), np.float32)
    values[0, 0] = 3.4e38
    for function in (ascend_dsa.quantize_tokens, ascend_dsa.roundtrip_error_bound):
        with pytest.raises(ValueError, match="beyond float32"):
            function(values, "fp8")
    restored = ascend_dsa.dequantize_tokens(ascend_dsa.quantize_tokens(values, "fp4"), "fp4")
    assert np.isfinite(restored).all()
    assert np.isfinite(ascend_dsa.roundtrip_error_bound(values, "fp4")).all()


def _peak_bytes(call: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        call()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_forward_memory_follows_topk_not_the_cache() -> None:
    """262,144 KV rows, topk 64: each forward allocates a few MiB (1.7 to 2.3 GB before issue 17)."""
    rng = np.random.default_rng(1)
    kv = np.broadcast_to(rng.standard_normal((1, 1, 576), dtype=np.float32), (262_144, 1, 576))
    q = rng.standard_normal((4, 64, 576), dtype=np.float32)
    indices = rng.integers(0, 262_144, (4, 1, 64))
    forwards = (ascend_dsa.sparse_attn_fwd, ascend_dsa.sparse_attn_fwd_float64, ascend_dsa.blocked_sparse_attn_fwd)
    for forward in forwards:
        assert _peak_bytes(lambda f=forward: f(q, kv, indices, 0.04)) < 64 * 2**20, forward.__name__


def test_a_nan_in_a_row_no_index_names_changes_nothing() -> None:
    """Only the rows the indices name are read: a NaN elsewhere in the cache is not an error (nor a NaN result)."""
    rng = np.random.default_rng(2)
    q = rng.standard_normal((2, 16, 64), dtype=np.float32)
    kv = rng.standard_normal((10, 1, 64), dtype=np.float32)
    indices = np.array([[[0, 1, 2]], [[3, 4, -1]]])
    clean = ascend_dsa.sparse_attn_fwd(q, kv, indices, 0.1, d_v=64)
    kv[7] = np.nan
    for ours, theirs in zip(ascend_dsa.sparse_attn_fwd(q, kv, indices, 0.1, d_v=64), clean, strict=True):
        np.testing.assert_array_equal(ours, theirs)


def test_roundtrip_bound_works_a_chunk_at_a_time() -> None:
    """20,000 x 512 float32 (39 MiB): the bound's peak stays near its result, not 13x the input as before."""
    values = np.random.default_rng(3).standard_normal((20_000, 512), dtype=np.float32)
    assert _peak_bytes(lambda: ascend_dsa.roundtrip_error_bound(values, "fp8")) < 4 * values.nbytes + 128 * 2**20


# --- Issue 31 (17): NumPy integers are whole numbers like any other ----------------------------------------------


def _numpy_int(value: int) -> object:
    """``value`` as the narrowest NumPy signed integer that holds it (``np.int8(5)``), or as given when none does."""
    for dtype in (np.int8, np.int16, np.int32, np.int64):
        bounds = np.iinfo(dtype)
        if bounds.min <= value <= bounds.max:
            return dtype(value)
    return value


def _as_numpy_ints(value: object) -> object:
    """A Python ``int`` (or a tuple of them) as NumPy integers; anything else as it is."""
    if type(value) is int:
        return _numpy_int(value)
    if type(value) is tuple and value and all(type(item) is int for item in value):
        return tuple(_numpy_int(item) for item in value)
    return value


#: A NumPy integer in a repr (``np.int8(5)``): a record that keeps an argument as given shows it so.
_NUMPY_INT_REPR = re.compile(r"np\.u?int(?:8|16|32|64)\((-?[0-9]+)\)")


def _outcome(target: Callable[..., Any], kwargs: dict[str, Any]) -> tuple[str, str]:
    """What a call gives: ``("returns", repr of the result)`` or ``("raises", the error's class)``.

    A NumPy integer kept as given (a record's field) reads as the number it holds: the values must agree, not how
    a record echoes its arguments.
    """
    try:
        result = target(**kwargs)
    except (TypeError, ValueError) as error:
        return "raises", type(error).__name__
    return "returns", _NUMPY_INT_REPR.sub(r"\1", repr(result))


def _whole_parameters(target: Callable[..., Any]) -> tuple[str, ...]:
    """The parameters of ``target`` whose pool holds whole numbers."""
    try:
        parameters = inspect.signature(target).parameters
    except ValueError:
        return ()
    return tuple(
        name
        for name, parameter in parameters.items()
        if parameter.kind not in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD)
        and any(type(v) is int for v in MORE_POOLS.get(name) or POOLS.get(name) or ())
    )


TAKES_WHOLE = tuple(name for name in ALL_NAMES if _whole_parameters(getattr(ascend_dsa, name)))


@st.composite
def whole_number_calls(draw: st.DrawFn, target: Callable[..., Any]) -> dict[str, Any]:
    """Keyword arguments for ``target`` from the pools (parameters without one keep their default)."""
    kwargs: dict[str, Any] = {}
    for name, parameter in inspect.signature(target).parameters.items():
        pool = MORE_POOLS.get(name) or POOLS.get(name)
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD) or not pool:
            continue
        kwargs[name] = draw(st.sampled_from(pool))
    return kwargs


@pytest.mark.parametrize("name", TAKES_WHOLE)
def test_numpy_integers_give_what_python_integers_give(name: str) -> None:
    """``l1_bank_of(np.int8(5), ASCEND_950)`` raised OverflowError: a NumPy integer is taken as the int it holds.

    Each call is made twice, with Python integers and with the same values as the narrowest NumPy integers: both
    return the same (computed in Python ints, so nothing wraps or overflows), or both raise the same error class.
    """
    target = getattr(ascend_dsa, name)

    @settings(max_examples=15, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
    @given(whole_number_calls(target))
    def holds(kwargs: dict[str, Any]) -> None:
        narrow = {key: _as_numpy_ints(value) for key, value in kwargs.items()}
        if narrow == kwargs and all(type(a) is type(b) for a, b in zip(narrow.values(), kwargs.values(), strict=True)):
            return
        assert _outcome(target, narrow) == _outcome(target, kwargs), _shown(narrow)

    holds()


# --- Issue 31 (18): a long argument is echoed cut, as the command line cuts it ----------------------------------

#: Arguments a caller might pass by mistake, each a megabyte or more when written out.
LONG_ARGUMENTS = ("x" * 10**6, ["x" * 10**6], ("x" * 10**6,), [0] * 10**6)
#: Longest error message a call may raise: the command line's longest error line.
MESSAGE_CHARS_MAX = 20 * QUOTED_CHARS_MAX


def _required_arguments(parameters: list[inspect.Parameter]) -> dict[str, Any]:
    """A good value (the first of its pool) for each parameter without a default."""
    return {
        p.name: (MORE_POOLS.get(p.name) or POOLS.get(p.name) or (None,))[0] for p in parameters if p.default is p.empty
    }


@pytest.mark.parametrize("name", ALL_NAMES)
def test_a_long_argument_is_echoed_cut(name: str) -> None:
    """`published_figure("x" * 10**6)` raised a megabyte message: each argument, made long, gives one short line."""
    target = getattr(ascend_dsa, name)
    try:
        signature = inspect.signature(target)
    except ValueError:  # a built-in signature (our exceptions)
        return
    keyword = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    parameters = [p for p in signature.parameters.values() if p.kind in keyword]
    for parameter in parameters:
        for long in LONG_ARGUMENTS:
            kwargs = {**_required_arguments(parameters), parameter.name: long}
            try:
                target(**kwargs)
            except (TypeError, ValueError) as error:
                message = str(error)
                assert len(message) <= MESSAGE_CHARS_MAX, (parameter.name, type(long).__name__, message[:200])
                assert "\n" not in message, (parameter.name, message[:200])
