"""Tables that show where each hardware and model constant comes from, in the page's language and units."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ascend_dsa.facts.hardware import ASCEND_950, FIELD_UNITS, AscendSpec, numeric_fields, require_ascend
from ascend_dsa.lang import Lang, pick, term
from ascend_dsa.render.format import quantity, scaled_quantity
from ascend_dsa.render.markdown import citation, kind_name, number, table
from ascend_dsa.validate import MAX_TABLE_ROWS, bounded_items, require_items, shown

if TYPE_CHECKING:
    from collections.abc import Iterable


def render_spec_sources(
    spec: AscendSpec = ASCEND_950, fields: Iterable[str] | None = None, *, lang: Lang = "zh"
) -> str:
    """A table of hardware constants: name, value with its unit, source and, for derived ones, how."""
    spec = require_ascend("spec", spec)
    names = (
        numeric_fields()
        if fields is None
        else require_items("fields", bounded_items("fields", fields, MAX_TABLE_ROWS), str)
    )
    unknown = sorted(set(names) - set(numeric_fields()))
    if unknown:
        raise ValueError(f"fields must be hardware fields, got unknown {shown(', '.join(unknown))}")
    rows = []
    for name in names:
        source = spec.sources[name]
        value = spec.number(name)
        kind = kind_name(source, lang)
        if source.note:
            kind += pick(lang, "：", ": ") + source.how(lang)
        scaled, unit = scaled_quantity(value, FIELD_UNITS[name])
        shown_value = number(scaled, quantity(value, FIELD_UNITS[name], lang), unit)
        rows.append([f"`{name}`", shown_value, citation(source, lang), kind])
    headers = [
        pick(lang, "常量", "constant"),
        term("column:value", lang),
        term("column:source", lang),
        term("column:kind", lang),
    ]
    return table(headers, rows, ("left", "right", "left", "left"))
