"""Argument types that accept plain ASCII numbers only, and the options several commands share.

Python's ``int`` and ``float`` also read full-width and Arabic-Indic digits, ``1_000``, ``inf`` and ``nan``; a
command line that accepted those would take typos for numbers, so these types match ASCII digits first. A list
holds at most ``LIST_ITEMS_MAX`` values and is read in time linear in its length; a value quoted back in an error
is shortened to ``QUOTED_CHARS_MAX`` characters (a megabyte typed by mistake is not echoed whole). The hardware
overrides and a kernel instantiation's options are registered by one function each, so that commands name and
check them alike. Each type says its error in the command's language (``lang``, given by the parser that holds the
option: ``SPEAKING_TYPES``); the values quoted stay as typed.
"""

from __future__ import annotations

import argparse
import functools
import math
import os
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, TypeVar, get_args

from ascend_dsa.facts.chips import CHIPS
from ascend_dsa.facts.hardware import (
    ASCEND_950,
    BANDWIDTH_BYTES_PER_S_RANGE,
    CLOCK_HZ_RANGE,
    CORES_RANGE,
    MATRIX_FMA_PER_CYCLE_RANGE,
    AscendSpec,
    AscendUnits,
    ChipSpec,
)
from ascend_dsa.facts.kernel_config import HEADS_RANGE, SHIPPED_KERNEL, TOKENS_RANGE
from ascend_dsa.lang import Lang, Text, pick, unit_name
from ascend_dsa.validate import LARGEST_EXACT_WHOLE, Plausible, quoted, shown

# A value is cut as the API cuts it (validate.quoted): one rule for both, the limit named here too for the commands.
from ascend_dsa.validate import QUOTED_CHARS_MAX as QUOTED_CHARS_MAX  # noqa: PLC0414 - re-exported

#: The quantities the options take, as their errors name them ("expected a clock in the plausible range ...").
KV_TOKENS: Final = Text("KV token 数", "a number of KV tokens")
Q_HEADS: Final = Text("每个 AI Core 的 q head 数", "q heads per AI Core")
TOPK_VALUES: Final = Text("topk 值", "topk values")
KV_TOKEN_BYTES: Final = Text("一个 KV token 的字节数", "a KV token's bytes")
FIXPIPE_RATE: Final = Text("FixPipe 速率", "a FixPipe rate")
BANDWIDTH: Final = Text("带宽", "a bandwidth")
CORES: Final = Text("核数", "a number of cores")
CLOCK: Final = Text("时钟频率", "a clock")
MATRIX_RATE: Final = Text("矩阵单元速率", "a matrix rate")
INDICES: Final = Text("index 数", "a number of indices")
BLOCKS: Final = Text("块数", "a number of blocks")

#: Most values one comma-separated list option takes (every item is one row of work, or a grid axis).
LIST_ITEMS_MAX = 256

_WHOLE = re.compile(r"[0-9]+", re.ASCII)
_DECIMAL = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)


def _refused(lang: Lang, zh: str, en: str) -> argparse.ArgumentTypeError:
    """The error an option's type raises, in the command's language."""
    return argparse.ArgumentTypeError(pick(lang, zh, en))


def positive_int(text: str, lang: Lang = "en") -> int:
    """A whole number from 1 to 2**53 written in ASCII digits (``64``; not ``６４``, ``1_000`` or ``+64``)."""
    got = quoted(text)
    expected = _refused(
        lang,
        f"应为 1 到 {LARGEST_EXACT_WHOLE} 之间的整数（只用半角数字），得到 {got}",
        f"expected a whole number from 1 to {LARGEST_EXACT_WHOLE} in plain digits, got {got}",
    )
    if not _WHOLE.fullmatch(text) or len(text.lstrip("0")) > len(str(LARGEST_EXACT_WHOLE)):
        raise expected
    value = int(text)
    if not 1 <= value <= LARGEST_EXACT_WHOLE:
        raise expected
    return value


def _decimal(text: str, expected: Text, lang: Lang) -> float:
    got = quoted(text)
    if not _DECIMAL.fullmatch(text):
        raise _refused(lang, f"{expected.zh}，得到 {got}", f"{expected.en}, got {got}")
    value = float(text)
    if not math.isfinite(value):
        raise _refused(
            lang, f"{expected.zh}，得到 {got}（超出浮点数的范围）", f"{expected.en}, got {got} (too large for a float)"
        )
    return value


def positive_float(text: str, lang: Lang = "en") -> float:
    """A finite number greater than zero in ASCII digits, with an optional exponent (``4e12``).

    Its error gives no example: an option's `Within` names one of its own quantity, from the chip's preset.
    """
    expected = Text("应为一个有限的正数", "expected a positive finite number")
    value = _decimal(text, expected, lang)
    if value <= 0:
        got = quoted(text)
        raise _refused(lang, f"{expected.zh}，得到 {got}", f"{expected.en}, got {got}")
    return value


def positive_int_list(text: str, lang: Lang = "en") -> tuple[int, ...]:
    """A comma-separated list of at most ``LIST_ITEMS_MAX`` distinct positive integers (``16,32``).

    Its error types no example list: the option's help gives one from the package's values.
    """
    zh = f"应为逗号分隔的、至多 {LIST_ITEMS_MAX} 个互不相同的正整数"
    en = f"expected a comma-separated list of at most {LIST_ITEMS_MAX} distinct positive integers"
    items = text.count(",") + 1
    if items > LIST_ITEMS_MAX:
        raise _refused(lang, f"{zh}，得到 {items} 个", f"{en}, got {items} items")
    got = quoted(text)
    values: dict[int, str] = {}  # value -> the item that gave it, in order; a dict keeps the check linear
    for part in text.split(","):
        item = part.strip()
        if not item:
            raise _refused(lang, f"{zh}，得到 {got}（有一项是空的）", f"{en}, got {got} (an empty item)")
        try:
            value = positive_int(item)
        except argparse.ArgumentTypeError:
            raise _refused(
                lang, f"{zh}，得到 {got}（{quoted(item)} 不是正整数）", f"{en}, got {got} ({quoted(item)} is not one)"
            ) from None
        if value in values:
            raise _refused(
                lang, f"{zh}，得到 {got}（{quoted(item)} 出现了两次）", f"{en}, got {got} ({quoted(item)} twice)"
            )
        values[value] = item
    return tuple(values)


def unit_fraction(text: str, lang: Lang = "en") -> float:
    """A number in [0, 1) in ASCII digits."""
    expected = Text("应为 [0, 1) 之间的小数", "expected a fraction in [0, 1)")
    value = _decimal(text, expected, lang)
    if not 0.0 <= value < 1.0:
        got = quoted(text)
        raise _refused(lang, f"{expected.zh}，得到 {got}", f"{expected.en}, got {got}")
    return value


def range_text(plausible: Plausible, lang: Lang) -> str:
    """A plausible range as a message in ``lang`` names it: ``1e8 to 1e10 Hz``, ``1 到 4,096 个 head``."""
    low, high = plausible.bounds_text()
    unit = f" {unit_name(plausible.unit, lang)}" if plausible.unit else ""
    return pick(lang, f"{low} 到 {high}{unit}", plausible.text())


class Within:
    """An option's type: the text parsed, then refused outside a plausible range, the one the API checks too.

    ``parse`` reads the text (``positive_int``, ``positive_float``, ``positive_int_list``); a value outside
    ``plausible`` is an error naming the range, ``what`` naming the quantity in both languages ("expected a clock in
    the plausible range 1e8 to 1e10 Hz"). With an ``example`` (a value of this quantity, such as its preset) a text
    that does not parse is refused naming it, not the parser's own example, which is another quantity's (a clock for
    a bandwidth).
    """

    def __init__(self, parse: Callable[..., Any], plausible: Plausible, what: Text, example: str = "") -> None:
        """Parse with ``parse``; check against ``plausible``; say ``what`` (and ``example``) in the message."""
        self.parse = parse
        self.plausible = plausible
        self.what = what
        self.example = example

    def __call__(self, text: str, lang: Lang = "en") -> Any:  # noqa: ANN401 - what ``parse`` returns: a number or a tuple
        """The parsed value, or an ``ArgumentTypeError`` (in ``lang``) naming the plausible range."""
        got = quoted(text)
        within = (range_text(self.plausible, "zh"), self.plausible.text())
        try:
            value = self.parse(text, lang)
        except argparse.ArgumentTypeError:
            if not self.example:
                raise
            raise _refused(
                lang,
                f"应为{self.what.zh}，如 {self.example}（合理范围 {within[0]} 之内的有限正数），得到 {got}",
                f"expected {self.what.en} such as {self.example} (a positive finite number in the plausible range "
                f"{within[1]}), got {got}",
            ) from None
        values = value if isinstance(value, tuple) else (value,)
        for item in values:
            if not self.plausible.holds(item):
                outside = (
                    ("", "") if len(values) == 1 else (f"（{shown(item)} 在范围之外）", f" ({shown(item)} is outside)")
                )
                raise _refused(
                    lang,
                    f"应为合理范围 {within[0]} 之内的{self.what.zh}，得到 {got}{outside[0]}",
                    f"expected {self.what.en} in the plausible range {within[1]}, got {got}{outside[1]}",
                )
        return value


#: The option types defined here that are plain functions; each, like a `Within`, takes the language after the text.
_PLAIN_TYPES: Final[tuple[Callable[..., Any], ...]] = (positive_int, positive_float, positive_int_list, unit_fraction)


def speaking(kind: object, lang: Lang) -> Callable[[str], Any] | None:
    """The option type ``kind`` saying its errors in ``lang``, or ``None`` when ``kind`` is not one of these types.

    A parser registers it for the option (``ArgumentParser.register("type", kind, ...)``), so that the option keeps
    ``kind`` as its type (what its help and tests read) and its errors speak the command's language.
    """
    if isinstance(kind, Within) or kind in _PLAIN_TYPES:
        return functools.partial(kind, lang=lang)
    return None


#: Option destination -> hardware field it overrides (``--l2-bandwidth``, ``--cores``, ``--clock``, ``--cube-fma``).
HARDWARE_OVERRIDES = {
    "l2_bandwidth": "bandwidth_bytes_per_s",
    "cores": "cores",
    "clock": "clock_hz",
    "cube_fma": "matrix_fma_per_cycle_per_core",
}


def preset_text(value: float) -> str:
    """A preset's number as the help prints it: a whole number below a million in digits, others as ``5e12``."""
    if float(value).is_integer() and abs(value) < 1e6:  # noqa: PLR2004 - where digits stop being readable
        return str(int(value))
    mantissa, _, exponent = f"{value:g}".partition("e")
    return f"{mantissa}e{int(exponent)}" if exponent else mantissa


def add_hardware_options(parser: argparse.ArgumentParser, *, other_chips: bool = False) -> None:
    """Register the hardware overrides of ``HARDWARE_OVERRIDES``; each left out keeps the preset's value.

    With ``other_chips`` the help also names what each option means on each other ``--chip`` preset (the H800's
    HBM, SMs, clock and matrix rate, for head-roofline).
    """
    others = [(preset.key, preset.core, preset.spec) for preset in list(CHIPS.values())[1:]]
    on_others = {
        "l2": "".join(
            f"; {c.bandwidth.en} on --chip {k} ({preset_text(c.bandwidth_bytes_per_s)})" for k, _, c in others
        ),
        "cores": "".join(f"; {core}s on --chip {k} ({preset_text(c.cores)})" for k, core, c in others),
        "clock": "".join(f"; {preset_text(c.clock_hz)} on --chip {k}" for k, _, c in others),
        "fma": "".join(
            f"; per {core} on --chip {k} ({preset_text(c.matrix_fma_per_cycle_per_core)})" for k, core, c in others
        ),
    }
    extra = on_others if other_chips else dict.fromkeys(on_others, "")
    spec = ASCEND_950
    parser.add_argument(
        "--l2-bandwidth",
        type=Within(
            positive_float, BANDWIDTH_BYTES_PER_S_RANGE, BANDWIDTH, example=preset_text(spec.bandwidth_bytes_per_s)
        ),
        help=f"total L2 bandwidth in B/s (preset {preset_text(spec.bandwidth_bytes_per_s)}{extra['l2']})",
    )
    parser.add_argument(
        "--cores",
        type=Within(positive_int, CORES_RANGE, CORES),
        help=f"AI Cores sharing the L2 (preset {spec.cores}{extra['cores']})",
    )
    parser.add_argument(
        "--clock",
        type=Within(positive_float, CLOCK_HZ_RANGE, CLOCK, example=preset_text(spec.clock_hz)),
        help=f"clock in Hz (preset {preset_text(spec.clock_hz)}{extra['clock']})",
    )
    parser.add_argument(
        "--cube-fma",
        type=Within(positive_int, MATRIX_FMA_PER_CYCLE_RANGE, MATRIX_RATE),
        help=f"CUBE FMA per cycle per AI Core (preset {spec.matrix_fma_per_cycle_per_core}{extra['fma']})",
    )


#: The languages a command speaks, as ``--lang`` offers them.
LANGS: Final[tuple[Lang, ...]] = get_args(Lang)
#: The locale variables that choose the default language, strongest first (as POSIX ranks them for messages).
LOCALE_VARIABLES: Final = ("LC_ALL", "LC_MESSAGES", "LANG")


def locale_lang(environ: Mapping[str, str]) -> Lang:
    """``zh`` when the first locale variable that is set (``LC_ALL``, ``LC_MESSAGES``, ``LANG``) starts with zh."""
    for name in LOCALE_VARIABLES:
        value = environ.get(name, "")
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"


def argv_lang(argv: Sequence[str], environ: Mapping[str, str]) -> Lang:
    """The language of a command line before it is parsed, so that even an error about its options speaks it.

    The first ``--lang zh|en`` or ``--lang=zh|en`` before a ``--`` decides; without one (or with a value that is not
    a language, which the parser then refuses), the locale does, as for ``--lang``'s default (``locale_lang``).
    """
    for index, word in enumerate(argv):
        if word == "--":
            break
        if word == "--lang" and index + 1 < len(argv):
            value = argv[index + 1]
        elif word.startswith("--lang="):
            value = word.removeprefix("--lang=")
        else:
            continue
        for lang in LANGS:
            if value == lang:
                return lang
    return locale_lang(environ)


def add_lang_option(parser: argparse.ArgumentParser, environ: Mapping[str, str] | None = None) -> None:
    """Register ``--lang zh|en``, the language of the output and messages; the default comes from the locale."""
    parser.add_argument(
        "--lang",
        choices=LANGS,
        default=locale_lang(os.environ if environ is None else environ),
        help="language of the output and messages (default: zh if LC_ALL, LC_MESSAGES or LANG starts with zh, else en)",
    )


def given(args: argparse.Namespace, fields: dict[str, str]) -> dict[str, Any]:
    """Field -> value of each option in ``fields`` (option -> field) given on the command line."""
    return {field: getattr(args, option) for option, field in fields.items() if getattr(args, option) is not None}


def hardware_of(args: argparse.Namespace, overrides: dict[str, str] = HARDWARE_OVERRIDES) -> AscendSpec:
    """The Ascend 950 with the hardware ``overrides`` (option -> field) given on the command line."""
    return chip_of(args, ASCEND_950, overrides)


#: A chip's Ascend units, or ``None``: what ``chip_of`` keeps.
Units = TypeVar("Units", bound="AscendUnits | None")


def chip_of(
    args: argparse.Namespace, preset: ChipSpec[Units], overrides: dict[str, str] = HARDWARE_OVERRIDES
) -> ChipSpec[Units]:
    """A chip ``preset`` with the ``overrides`` (option -> field) given on the command line.

    On the H800 ``--cores`` counts SMs and ``--l2-bandwidth`` is its HBM's.
    """
    changes = given(args, overrides)
    return preset.with_overrides(**changes) if changes else preset


def add_instantiation_options(parser: argparse.ArgumentParser) -> None:
    """Register a kernel instantiation's B_TOPK, INDEX_BLOCK_SIZE, VECTOR Cores and heads (defaults: shipped)."""
    parser.add_argument(
        "--b-topk",
        type=Within(positive_int, TOKENS_RANGE, KV_TOKENS),
        default=SHIPPED_KERNEL.b_topk,
        help="KV tokens per block (shipped: %(default)s)",
    )
    parser.add_argument(
        "--index-block-size",
        type=Within(positive_int, TOKENS_RANGE, INDICES),
        default=SHIPPED_KERNEL.index_block_size,
        help="indices read per index group (shipped: %(default)s)",
    )
    parser.add_argument(
        "--vector-cores",
        type=positive_int,
        choices=(1, 2),
        default=SHIPPED_KERNEL.vector_cores_per_cube,
        help="VECTOR Cores per CUBE Core (shipped: %(default)s)",
    )
    parser.add_argument(
        "--heads",
        type=Within(positive_int, HEADS_RANGE, Q_HEADS),
        default=SHIPPED_KERNEL.heads_per_core,
        help="q heads per AI Core (shipped: %(default)s)",
    )
