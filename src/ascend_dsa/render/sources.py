"""Tables that show where each hardware and model constant comes from."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ascend_dsa.hardware import ASCEND_950, FIELD_UNITS, AscendSpec, numeric_fields
from ascend_dsa.render.markdown import Lang, pick, table

if TYPE_CHECKING:
    from collections.abc import Iterable

_KIND_ZH = {"report": "报告", "code": "源码", "derived": "推导", "assumed": "假设"}


def render_spec_sources(
    spec: AscendSpec = ASCEND_950, fields: Iterable[str] | None = None, *, lang: Lang = "zh"
) -> str:
    """A table of hardware constants: name, value, unit, source and, for derived ones, how."""
    names = numeric_fields() if fields is None else tuple(fields)
    unknown = sorted(set(names) - set(numeric_fields()))
    if unknown:
        raise ValueError(f"fields must be hardware fields, got unknown {', '.join(unknown)}")
    rows = []
    for name in names:
        source = spec.sources[name]
        value = getattr(spec, name)
        kind = _KIND_ZH[source.kind] if lang == "zh" else source.kind
        rows.append([f"`{name}`", f"{value:g}", FIELD_UNITS[name], source.citation, kind, source.note or "—"])
    headers = [
        pick(lang, h_zh, h_en)
        for h_zh, h_en in (
            ("常量", "constant"),
            ("值", "value"),
            ("单位", "unit"),
            ("出处", "source"),
            ("类别", "kind"),
            ("说明", "note"),
        )
    ]
    return table(headers, rows, ("left", "right", "left", "left", "left", "left"))
