"""Tables that show where each hardware and model constant comes from, in the page's language and units."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ascend_dsa.facts.hardware import ASCEND_950, FIELD_UNITS, AscendSpec, numeric_fields
from ascend_dsa.lang import Lang, Text, pick
from ascend_dsa.render.format import quantity
from ascend_dsa.render.markdown import citation, kind_name, table

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ascend_dsa.facts.provenance import Source

#: How each derived or assumed hardware constant of the preset was obtained, in both languages; the English is the
#: source's own note (a test keeps the two equal), so a Chinese page shows the same note as the English one.
SPEC_NOTES: Final = {
    "l0c_bytes": Text(
        "报告说 128 × 512 的 fp32 O（256 KB）正好占满 L0C",
        ASCEND_950.sources["l0c_bytes"].note,
    ),
}


def note_text(field: str, source: Source, lang: Lang) -> str:
    """How a constant was obtained, in the page's language; a note we have no Chinese for (a what-if's) as written."""
    known = SPEC_NOTES.get(field)
    if known is not None and known.en == source.note:
        return known.in_(lang)
    return source.note


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
        kind = kind_name(source, lang)
        if source.note:
            kind += pick(lang, "：", ": ") + note_text(name, source, lang)
        rows.append([f"`{name}`", quantity(value, FIELD_UNITS[name], lang), citation(source, lang), kind])
    headers = [
        pick(lang, h_zh, h_en)
        for h_zh, h_en in (("常量", "constant"), ("值", "value"), ("出处", "source"), ("类别", "kind"))
    ]
    return table(headers, rows, ("left", "right", "left", "left"))
