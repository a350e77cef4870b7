"""Where a number comes from: a line of the report, a line of the kernel source, a derivation or an assumption."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

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


@dataclass(frozen=True)
class Source:
    """Where one number comes from.

    ``citation`` is short and human ("report (zh) line 85", "config.h:74"); ``note`` says how a derived or
    assumed value was obtained, and is required for those two kinds.
    """

    citation: str
    kind: SourceKind
    note: str = ""

    def __post_init__(self) -> None:
        """Reject a source that could not be followed back."""
        if not self.citation.strip():
            raise ValueError(f"citation must be non-empty, got {self.citation!r}")
        if self.kind in ("derived", "assumed") and not self.note.strip():
            raise ValueError(f"a {self.kind} source needs a note saying how, got {self.note!r}")


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
    lines = f"line {first}" if last is None or last == first else f"lines {first}-{last}"
    return Source(citation=f"report (zh) {lines}", kind="report")


def code_line(file: str, first: int, last: int | None = None) -> Source:
    """A source in the kernel's code, cited as ``file:line``."""
    lines = f"{first}" if last is None or last == first else f"{first}-{last}"
    return Source(citation=f"{file}:{lines}", kind="code")


@dataclass(frozen=True)
class Citation:
    """A span of an upstream file at a fixed commit: enough to find the published text again."""

    path: str
    commit: str
    first_line: int
    last_line: int
    repository: str = UPSTREAM_REPOSITORY

    @property
    def short(self) -> str:
        """The short form used in prose, e.g. ``report (zh) lines 104-111``."""
        name = "report (zh)" if self.path == REPORT_ZH_PATH else self.path.rsplit("/", 1)[-1]
        if self.first_line == self.last_line:
            return f"{name} line {self.first_line}"
        return f"{name} lines {self.first_line}-{self.last_line}"

    @property
    def full(self) -> str:
        """The long form: repository, path, commit and lines."""
        return f"{self.repository} {self.path}@{self.commit[:12]} lines {self.first_line}-{self.last_line}"
