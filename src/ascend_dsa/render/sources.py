"""Tables that show where each hardware and model constant comes from, in the page's language and units."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from ascend_dsa.facts.hardware import ASCEND_950, FIELD_UNITS, AscendSpec, numeric_fields
from ascend_dsa.render.markdown import Lang, check_lang, group_digits, pick, table, unit_name

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ascend_dsa.facts.provenance import Source

_KIND_ZH: Final = {"report": "报告", "code": "源码", "derived": "推导", "assumed": "假设"}
#: Decimal prefixes for rates and clocks (5 TB/s, 1650 MHz), largest first.
_DECIMAL_PREFIXES: Final = ((10**12, "T"), (10**9, "G"), (10**6, "M"), (10**3, "k"))
#: Binary prefixes for capacities (256 KiB), largest first.
_BINARY_PREFIXES: Final = ((2**20, "Mi"), (2**10, "Ki"))
_SCALED_UNITS: Final = {"B/s": _DECIMAL_PREFIXES, "B": _BINARY_PREFIXES}
#: A clock reads best in MHz (the report's 1650 MHz), not as 1.65 GHz.
_CLOCK_PREFIX: Final = (10**6, "M")

_REPORT_LINES: Final = re.compile(r"report \(zh\) lines? ([\d\-–, ]+\d)")
#: Phrases of our English citations, as a Chinese page says them.
_CITATION_PHRASES_ZH: Final = (
    (" (which one depends on the block)", "（取决于是哪一块）"),
    ("what-if override", "what-if 中改动的值"),
    (" or ", " 或 "),
)


def quantity(value: float, unit: str, lang: Lang = "en") -> str:
    """``value`` in ``unit`` as a person reads it: 5 TB/s, 1650 MHz, 256 KiB, 4,096 FMA/cycle, 32 个 AI Core."""
    check_lang(lang)
    if unit == "Hz":
        factor, prefix = _CLOCK_PREFIX
        return f"{group_digits(value / factor, _decimals(value / factor))} {prefix}Hz"
    for factor, prefix in _SCALED_UNITS.get(unit, ()):
        if abs(value) >= factor and (value / factor) * 100 == round((value / factor) * 100):
            return f"{group_digits(value / factor, _decimals(value / factor))} {prefix}{unit}"
    shown = group_digits(value, _decimals(value))
    return f"{shown} {unit_name(unit, lang)}"


def _decimals(value: float) -> int:
    """Decimals a value needs, up to two: 5 -> 0, 1.5 -> 1, 1.65 -> 2."""
    for decimals in (0, 1):
        if round(value, decimals) == round(value, 2):
            return decimals
    return 2


def citation(source: Source, lang: Lang) -> str:
    """A source's citation in the page's language (报告 (zh) 第 85 行 on a Chinese page)."""
    text = source.citation
    if check_lang(lang) == "en":
        return text
    text = _REPORT_LINES.sub(lambda m: f"报告 (zh) 第 {m.group(1)} 行", text)
    for english, chinese in _CITATION_PHRASES_ZH:
        text = text.replace(english, chinese)
    return text


def kind_name(source: Source, lang: Lang) -> str:
    """A source's kind (report, code, derived, assumed) in the page's language."""
    return pick(lang, _KIND_ZH[source.kind], source.kind)


def render_spec_sources(
    spec: AscendSpec = ASCEND_950, fields: Iterable[str] | None = None, *, lang: Lang = "zh"
) -> str:
    """A table of hardware constants: name, value with its unit, source and, for derived ones, how."""
    names = numeric_fields() if fields is None else tuple(fields)
    unknown = sorted(set(names) - set(numeric_fields()))
    if unknown:
        raise ValueError(f"fields must be hardware fields, got unknown {', '.join(unknown)}")
    rows = []
    for name in names:
        source = spec.sources[name]
        value = getattr(spec, name)
        note = source.note if lang == "en" else ""
        rows.append(
            [f"`{name}`", quantity(value, FIELD_UNITS[name], lang), citation(source, lang), kind_name(source, lang)]
        )
        if note:
            rows[-1][-1] += f"：{note}" if lang == "zh" else f": {note}"
    headers = [
        pick(lang, h_zh, h_en)
        for h_zh, h_en in (("常量", "constant"), ("值", "value"), ("出处", "source"), ("类别", "kind"))
    ]
    return table(headers, rows, ("left", "right", "left", "left"))
