"""The command line's argument types at their edges: the largest whole number, a fraction's closed and open ends."""

from __future__ import annotations

import argparse
import re
from typing import TYPE_CHECKING

import pytest

from ascend_dsa.cli import SUBCOMMANDS, build_parser, run_captured
from ascend_dsa.cli.options import (
    LIST_ITEMS_MAX,
    Q_HEADS,
    Within,
    add_lang_option,
    argv_lang,
    locale_lang,
    positive_float,
    positive_int,
    positive_int_list,
    preset_text,
    speaking,
    unit_fraction,
)
from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.kernel_config import HEADS_RANGE
from ascend_dsa.lang import has_chinese
from ascend_dsa.validate import quoted
from tests.helpers.cli import run_cli

if TYPE_CHECKING:
    from collections.abc import Callable
    from types import ModuleType

    from ascend_dsa.lang import Lang

#: 2**53, the largest whole number a float holds exactly: 16 digits.
LARGEST = 9007199254740992


def test_positive_int_takes_two_to_the_53_and_not_one_more() -> None:
    """2**53 and its zero-padded spelling pass; 2**53 + 1 is refused, quoting the text."""
    assert positive_int(str(LARGEST)) == LARGEST
    assert positive_int("000" + str(LARGEST)) == LARGEST
    with pytest.raises(
        argparse.ArgumentTypeError, match=r"1 to 9007199254740992 in plain digits, got '9007199254740993'$"
    ):
        positive_int(str(LARGEST + 1))


def test_positive_int_refuses_thousands_of_digits_before_reading_them() -> None:
    """5000 digits are refused by their length (int() would raise its own ValueError past 4300 digits)."""
    with pytest.raises(argparse.ArgumentTypeError, match=r"in plain digits, got '1111.*\(5000 characters\)$"):
        positive_int("1" * 5000)


@pytest.mark.parametrize(("text", "value"), [("0", 0.0), ("0.5", 0.5), ("0.999", 0.999)])
def test_unit_fraction_takes_zero_up_to_but_not_one(text: str, value: float) -> None:
    """[0, 1): zero is in, anything below one is in."""
    assert unit_fraction(text) == value


@pytest.mark.parametrize("text", ["1", "1.0", "-0.001"])
def test_unit_fraction_refuses_one_and_below_zero(text: str) -> None:
    """One itself and anything below zero are refused, quoting the text."""
    with pytest.raises(argparse.ArgumentTypeError, match=rf"^expected a fraction in \[0, 1\), got '{text}'$"):
        unit_fraction(text)


# --- Issue 31 (16): every physical option has a plausible range, checked as the API checks it --------------------


def _numeric_options() -> list[tuple[str, argparse.Action]]:
    """(command, option) for every option of every command whose value is a number or a list of numbers."""
    from ascend_dsa import cli  # noqa: PLC0415

    numeric = (positive_int, positive_float, positive_int_list, unit_fraction)
    found = []
    for module in cli.SUBCOMMANDS:
        parser = argparse.ArgumentParser()
        module.add_arguments(parser)
        for action in parser._actions:  # noqa: SLF001 - argparse names its options only here
            kind = getattr(action.type, "parse", action.type)
            if action.option_strings and kind in numeric and not action.choices:
                found.append((module.NAME, action))
    return found


NUMERIC_OPTIONS = _numeric_options()
#: Numeric options without a physical range, each with the reason.
NOT_PHYSICAL = {"--balanced-within": "a fraction of 1 (unit_fraction), not a physical quantity"}


def _id(entry: tuple[str, argparse.Action]) -> str:
    return f"{entry[0]} {entry[1].option_strings[0]}"


@pytest.mark.parametrize("entry", NUMERIC_OPTIONS, ids=[_id(e) for e in NUMERIC_OPTIONS])
def test_every_physical_option_has_a_plausible_range(entry: tuple[str, argparse.Action]) -> None:
    """Each numeric option is a ``Within`` of a range, but the fractions listed with their reason."""
    _, action = entry
    if action.option_strings[0] in NOT_PHYSICAL:
        return
    assert isinstance(action.type, Within), _id(entry)


@pytest.mark.parametrize(
    "entry",
    [e for e in NUMERIC_OPTIONS if isinstance(e[1].type, Within)],
    ids=[_id(e) for e in NUMERIC_OPTIONS if isinstance(e[1].type, Within)],
)
def test_a_value_past_the_range_exits_2_naming_the_range(entry: tuple[str, argparse.Action]) -> None:
    """`--clock 1e308` exited 0 printing 300-digit numbers: past its range each option is bad usage naming it."""
    command, action = entry
    within: Within = action.type  # type: ignore[assignment]
    high = within.plausible.high
    too_large = str(int(high) + 1) if within.parse is not positive_float else f"{high * 10:g}"
    argv = [command, action.option_strings[0], too_large]
    if command == "ub-plan":
        argv += ["--mode", "prefill"]
    status, out, err = run_cli(argv)
    assert (status, out) == (2, ""), (argv, err)
    assert f"in the plausible range {within.plausible.text()}, got '{too_large}'" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["head-roofline", "--clock", "1e308"], "--clock: expected a clock in the plausible range 1e8 to 1e10 Hz"),
        (["claims", "--clock", "1.7976931348623157e308"], "1e8 to 1e10 Hz, got '1.7976931348623157e308'"),
        (["head-roofline", "--chip", "h800", "--clock", "1e5"], "1e8 to 1e10 Hz, got '1e5'"),
        (["head-roofline", "--heads", "16,5000"], "1 to 4,096 heads, got '16,5000' (5000 is outside)"),
    ],
)
def test_named_values_past_their_range(argv: list[str], words: str) -> None:
    """The issue's clock, the largest float, a clock below any accelerator's, one list item past the heads' range."""
    status, out, err = run_cli(argv)
    assert (status, out) == (2, "")
    assert words in err


def test_the_edges_of_a_range_are_taken() -> None:
    """A range holds its ends: the fastest plausible clock and the most heads are computed, exit 0."""
    status, _, err = run_cli(["head-roofline", "--clock", "1e10", "--heads", "4096", "--topk", "512"])
    assert status == 0, err


def test_the_api_refuses_what_the_options_refuse() -> None:
    """One range per quantity: the option's range is the one the API checks (facts, not the command line)."""
    from ascend_dsa.facts.hardware import ASCEND_950, CLOCK_HZ_RANGE  # noqa: PLC0415
    from ascend_dsa.facts.kernel_config import HEADS_RANGE, TOKENS_RANGE  # noqa: PLC0415
    from ascend_dsa.models.roofline import KV_TOKEN_BYTES_RANGE, head_roofline  # noqa: PLC0415

    ranges = {
        action.option_strings[0]: action.type.plausible
        for _, action in NUMERIC_OPTIONS
        if isinstance(action.type, Within)
    }
    assert ranges["--clock"] is CLOCK_HZ_RANGE
    assert ranges["--heads"] is HEADS_RANGE
    assert ranges["--topk"] is TOKENS_RANGE
    assert ranges["--kv-token-bytes"] is KV_TOKEN_BYTES_RANGE
    with pytest.raises(ValueError, match=r"^heads must lie in the plausible range 1 to 4,096 heads, got 5000$"):
        head_roofline(ASCEND_950, 5000, 512)
    with pytest.raises(ValueError, match=r"^topk must lie in the plausible range 1 to 1,048,576 tokens, got 2097152$"):
        head_roofline(ASCEND_950, 64, 2**21)
    with pytest.raises(ValueError, match=r"^kv_bytes_per_token must lie in the plausible range 1 to 1,048,576 B"):
        head_roofline(ASCEND_950, 64, 512, kv_bytes_per_token=2**21)


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({}, "en"),
        ({"LANG": "zh_CN.UTF-8"}, "zh"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "zh_CN.UTF-8", "LC_ALL": "en_US.UTF-8"}, "en"),
        ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "zh_TW.UTF-8"}, "zh"),
        ({"LANG": "en_US.UTF-8", "LC_ALL": ""}, "en"),
    ],
)
def test_default_language_comes_from_the_locale(environ: dict[str, str], lang: str) -> None:
    """The first of LC_ALL, LC_MESSAGES, LANG that is set chooses: zh if it starts with zh, else English."""
    assert locale_lang(environ) == lang
    parser = argparse.ArgumentParser()
    add_lang_option(parser, environ)
    assert parser.parse_args([]).lang == lang
    assert parser.parse_args(["--lang", "en"]).lang == "en"


@pytest.mark.parametrize("module", SUBCOMMANDS, ids=lambda m: m.NAME)
def test_every_command_takes_lang(module: ModuleType) -> None:
    """``--lang zh`` and ``--lang en`` parse on every command; another language is refused naming the choices."""
    required = ["--mode", "prefill"] if module.NAME == "ub-plan" else []
    for lang in ("zh", "en"):
        assert build_parser().parse_args([module.NAME, *required, "--lang", lang]).lang == lang
    status, _, err = run_captured([module.NAME, *required, "--lang", "fr"])
    assert status == 2
    assert "--lang: invalid choice: 'fr' (choose from 'zh', 'en')" in err


@pytest.mark.parametrize(
    ("option", "example"),
    [("--l2-bandwidth", preset_text(ASCEND_950.bandwidth_bytes_per_s)), ("--clock", preset_text(ASCEND_950.clock_hz))],
)
def test_a_number_that_does_not_parse_is_refused_with_an_example_of_its_quantity(option: str, example: str) -> None:
    """The bandwidth's error gives a bandwidth as its example (it gave the clock's 1.65e9), the clock's a clock."""
    status, _, err = run_cli(["head-roofline", option, "abc"])
    assert status == 2
    assert f"such as {example} (" in err
    others = {preset_text(ASCEND_950.bandwidth_bytes_per_s), preset_text(ASCEND_950.clock_hz)} - {example}
    assert all(f"such as {other}" not in err for other in others)


@pytest.mark.parametrize(
    ("argv", "environ", "lang"),
    [
        (["ub-plan", "--lang", "zh"], {}, "zh"),
        (["ub-plan", "--lang=zh", "--mode", "x"], {"LC_ALL": "C"}, "zh"),
        (["ub-plan", "--lang", "en"], {"LANG": "zh_CN.UTF-8"}, "en"),
        (["ub-plan"], {"LANG": "zh_CN.UTF-8"}, "zh"),
        (["ub-plan"], {}, "en"),
        (["ub-plan", "--lang", "fr", "--lang", "zh"], {}, "zh"),  # the parser refuses fr, in the language given after
        (["ub-plan", "--lang", "fr"], {"LANG": "zh_CN.UTF-8"}, "zh"),  # not a language: the locale's
        (["ub-plan", "--lang"], {}, "en"),
        (["ub-plan", "--", "--lang", "zh"], {}, "en"),  # after --, words are not options
    ],
)
def test_the_language_is_read_from_the_command_line_before_parsing(
    argv: list[str], environ: dict[str, str], lang: str
) -> None:
    """``argv_lang``: the first --lang zh|en (or --lang=) decides, else the locale, as --lang's own default."""
    assert argv_lang(argv, environ) == lang


@pytest.mark.parametrize("module", SUBCOMMANDS, ids=lambda m: m.NAME)
def test_every_typed_option_speaks_the_command_language(module: ModuleType) -> None:
    """Each option with a type uses one of ours, which says its error in --lang's language (``speaking``)."""
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))  # noqa: SLF001
    typed = [a for a in commands.choices[module.NAME]._actions if a.type is not None]  # noqa: SLF001
    assert typed
    for action in typed:
        assert speaking(action.type, "zh") is not None, action.option_strings


def test_a_type_says_its_error_in_the_language_it_is_given() -> None:
    """The same refusal in English and in Chinese, naming the same value; English by default."""
    within = Within(positive_int, HEADS_RANGE, Q_HEADS)
    for kind in (positive_int, positive_float, positive_int_list, unit_fraction, within):
        with pytest.raises(argparse.ArgumentTypeError) as english:
            kind("x1")
        with pytest.raises(argparse.ArgumentTypeError) as chinese:
            speaking(kind, "zh")("x1")  # type: ignore[misc]
        assert not has_chinese(str(english.value))
        assert has_chinese(str(chinese.value))
        assert "'x1'" in str(english.value)
        assert "'x1'" in str(chinese.value)


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize(("parse", "text"), [(positive_float, "x"), (positive_int_list, "x,7")])
def test_a_parsers_error_types_no_example_number(parse: Callable[..., object], text: str, lang: Lang) -> None:
    """The generic parsers' errors name the input and the list cap, and no example typed by hand (once 1.65e9 and
    16,32,64): an option's example comes from the package (its `Within`, its help)."""
    with pytest.raises(argparse.ArgumentTypeError) as refused:
        parse(text, lang)
    message = str(refused.value).replace(quoted(text), "").replace(str(LIST_ITEMS_MAX), "")
    assert not re.search(r"\d", message), message
