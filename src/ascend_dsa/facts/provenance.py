"""Where a number comes from: a line of the report, a line of the kernel source, a derivation or an assumption."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal, Protocol, get_args

from ascend_dsa.lang import Lang, Text, pick
from ascend_dsa.validate import shown

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping

SourceKind = Literal["report", "code", "derived", "assumed"]

UPSTREAM_REPOSITORY = "deepseek-ai/FlashMLA"
REPORT_ZH_PATH = "docs/20260930-ascend-prefill-deep-dive-zh.md"
REPORT_EN_PATH = "docs/20260930-ascend-prefill-deep-dive.md"
REPORT_COMMIT = "a123d0b0191e0da7aa1e044f8644e0989cc63220"
CONFIG_H_PATH = "csrc/ascend_kernels/prefill/sparse/config.h"
CONFIG_H_COMMIT = "9a7d253aba9afe75ebbcda14d2ffe020951663b4"
KERNEL_BODY_PATH = "csrc/ascend_kernels/prefill/sparse/kernel_body.h"
KERNEL_BODY_COMMIT = REPORT_COMMIT
KV_CACHE_FORMAT_PATH = "csrc/cuda_kernels/kv_cache_format.h"
KV_CACHE_FORMAT_COMMIT = "2e5429fc5653bab6e081f09477126f731882a6a9"
#: The script that writes the kernel's instantiations: its ``CONFIGURATIONS`` list is what the kernel ships.
INSTANTIATIONS_SCRIPT_PATH = "scripts/generate_instantiations.py"
INSTANTIATIONS_SCRIPT_COMMIT = KV_CACHE_FORMAT_COMMIT


@dataclass(frozen=True)
class ReportLines:
    """Lines of the Chinese report by their upstream numbers: one line, a range, or several (``138, 216``)."""

    spans: tuple[tuple[int, int], ...]

    def __post_init__(self) -> None:
        """Reject no lines, a line before the first, or a span that ends before it starts."""
        if not self.spans or any(not 1 <= first <= last for first, last in self.spans):
            raise ValueError(f"spans must be (first, last) pairs with 1 <= first <= last, got {shown(self.spans)}")

    def in_(self, lang: Lang) -> str:
        """The lines as the page's language cites them: ``report (zh) lines 85-99``, ``报告 (zh) 第 85-99 行``."""
        numbers = ", ".join(f"{first}" if first == last else f"{first}-{last}" for first, last in self.spans)
        word = "line" if len(self.spans) == 1 and self.spans[0][0] == self.spans[0][1] else "lines"
        return pick(lang, f"报告 (zh) 第 {numbers} 行", f"report (zh) {word} {numbers}")


def report_lines(first: int, last: int | None = None) -> ReportLines:
    """Line ``first`` of the Chinese report, or lines ``first`` to ``last``."""
    return ReportLines(((first, first if last is None else last),))


#: One part of a citation: report lines, words in both languages, or a plain ``str`` that reads the same in both
#: (a ``file:line``, a symbol, an expression of the code).
Ref = str | Text | ReportLines

#: The citation of a value a what-if changed.
WHAT_IF_OVERRIDE: Final = Text("what-if 中改动的值", "what-if override")


def _in(part: Ref | str, lang: Lang) -> str:
    return part if isinstance(part, str) else part.in_(lang)


@dataclass(frozen=True)
class Source:
    """Where one number comes from.

    ``refs`` are the places cited, joined by ``; `` (``report (zh) line 85; config.h:74``); ``note`` says how a
    derived or assumed value was obtained, and is required for those two kinds. A plain ``str`` part or note reads
    the same in both languages; a ``Text`` or ``ReportLines`` carries each language.
    """

    refs: Ref | tuple[Ref, ...]
    kind: SourceKind
    note: str | Text = ""

    def __post_init__(self) -> None:
        """Reject a source that could not be followed back, or one that cites the report in English words."""
        wrong = [part for part in self.parts if not isinstance(part, str | Text | ReportLines)]
        if wrong:  # a plain isinstance: sources are built by the hundred while a page renders
            raise TypeError(f"refs must be str, Text or ReportLines, got {type(wrong[0]).__name__} {wrong[0]!r:.60}")
        if self.kind not in get_args(SourceKind):
            raise ValueError(f"kind must be one of {', '.join(get_args(SourceKind))}, got {shown(self.kind)}")
        if not isinstance(self.note, str | Text):
            raise TypeError(f"note must be a str or a Text, got {type(self.note).__name__}")
        if not all(_in(part, "en").strip() for part in self.parts) or not self.parts:
            raise ValueError(f"citation must be non-empty, got {shown(self.refs)}")
        worded = [part for part in self.parts if isinstance(part, str) and "report (zh)" in part]
        if worded:
            raise ValueError(f"cite the report with report_lines(...), not in words, got {shown(worded[0])}")
        if self.kind in ("derived", "assumed") and not _in(self.note, "en").strip():
            raise ValueError(f"a {self.kind} source needs a note saying how, got {shown(self.note)}")

    @property
    def parts(self) -> tuple[Ref, ...]:
        """The places cited, in order."""
        return self.refs if isinstance(self.refs, tuple) else (self.refs,)

    @property
    def citation(self) -> str:
        """The citation as error messages and English pages print it (``report (zh) line 85; config.h:74``)."""
        return self.cite("en")

    def cite(self, lang: Lang) -> str:
        """The citation in the page's language (``报告 (zh) 第 85 行; config.h:74`` on a Chinese page)."""
        return "; ".join(_in(part, lang) for part in self.parts)

    def how(self, lang: Lang) -> str:
        """The note in the page's language (as written where it reads the same in both)."""
        return _in(self.note, lang)


def what_if_source(note: str) -> Source:
    """The source of a value a what-if changed: ``note`` says to what."""
    return Source(WHAT_IF_OVERRIDE, "assumed", note=note)


class Preset(Protocol):
    """What the preset helpers read of a hardware preset (AscendSpec, ChipSpec): its name and a source per field."""

    @property
    def name(self) -> str:
        """The preset's name (``Ascend 950``)."""

    @property
    def sources(self) -> Mapping[str, Source]:
        """The source of each numeric field, by the field's name."""


def overridden_preset(
    preset: Preset, fields: Iterable[str], changes: Mapping[str, object], value_of: Callable[[str], object]
) -> tuple[str, dict[str, Source]]:
    """The name and sources of a hardware preset's what-if copy: each changed field's source becomes an assumption.

    ``value_of`` reads a field's present value. Raises naming the fields when ``changes`` names one that is not in
    ``fields``.
    """
    allowed = tuple(fields)
    unknown = sorted(set(changes) - set(allowed))
    if unknown:
        raise ValueError(f"cannot override {', '.join(unknown)}; expected one of {', '.join(allowed)}")
    name = preset.name
    changed = dict(preset.sources)
    for field_name, value in changes.items():
        was = value_of(field_name)
        changed[field_name] = what_if_source(f"{field_name} set to {value!r} (preset {name}: {was!r})")
    return (name if not changes else f"{name} (what-if)", changed)


def check_sources(sources: Mapping[str, Source], fields: Iterable[str], what: str) -> None:
    """Raise unless ``sources`` names exactly ``fields``: every number of a preset must say where it comes from."""
    expected = tuple(fields)
    missing = sorted(set(expected) - set(sources))
    if missing:
        raise ValueError(f"sources must cover every {what} field, missing {', '.join(missing)}")
    unknown = sorted(set(sources) - set(expected))
    if unknown:
        raise ValueError(f"sources name unknown fields {', '.join(unknown)}; expected only {', '.join(expected)}")


def report_line(first: int, last: int | None = None) -> Source:
    """A source in the Chinese report, cited by its upstream line numbers."""
    return Source(report_lines(first, last), kind="report")


def code_line(file: str, first: int, last: int | None = None, *, detail: str = "") -> Source:
    """A source in the kernel's code, cited as ``file:line``, with what stands there if ``detail`` says it."""
    lines = f"{first}" if last is None or last == first else f"{first}-{last}"
    return Source(f"{file}:{lines}" + (f" ({detail})" if detail else ""), kind="code")


@dataclass(frozen=True)
class Citation:
    """A span of an upstream file at a fixed commit: enough to find the published text again."""

    path: str
    commit: str
    first_line: int
    last_line: int
    repository: str = UPSTREAM_REPOSITORY

    @property
    def lines(self) -> str:
        """The cited line, or the range of lines: ``17``, ``104-111``."""
        return str(self.first_line) if self.first_line == self.last_line else f"{self.first_line}-{self.last_line}"

    @property
    def short(self) -> str:
        """The short form used in prose, e.g. ``report (zh) lines 104-111``."""
        if self.path == REPORT_ZH_PATH:
            return report_lines(self.first_line, self.last_line).in_("en")
        name = self.path.rsplit("/", 1)[-1]
        return f"{name} line{'' if self.first_line == self.last_line else 's'} {self.lines}"

    @property
    def full(self) -> str:
        """The long form: repository, path, commit and lines."""
        return f"{self.repository} {self.path}@{self.commit[:12]} lines {self.first_line}-{self.last_line}"
