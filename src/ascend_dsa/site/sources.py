"""The package's sources as one build sees them: which files a piece of code can run, and who imports whom.

Under ``mkdocs serve`` a block's output, a page's rendering and an imported module are kept until one of the files
they depend on changes (`ascend_dsa.site.files`). For Python code those are the package modules it imports, the
modules those import, and so on (imports inside functions included, ``if TYPE_CHECKING:`` ones left out unless
asked for), with every ``__init__.py`` on the way and every file of ``src/`` that is not Python. A name taken from
the lazy facade (``from ascend_dsa import X``) is followed to the module its table says owns it. Where the code's
imports cannot be read (a syntax error, ``import ascend_dsa`` and attribute access, ``importlib`` with a computed
name, a name the facade does not list), the answer is `EVERYTHING`: every file of ``src/``.

A module that lists the page sources (`ascend_dsa.render.fences.docs_pages`) makes the code depend on every page
source too: the assumptions table links the pages that use each assumption.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

from ascend_dsa.imports import PACKAGE, ModuleImports, facade_homes, parents, read_imports

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from ascend_dsa.site.files import Digests

#: Names whose import makes code read the page sources: module -> the names.
DOCS_READERS: Final = {"ascend_dsa.render.fences": frozenset({"docs_pages", "notebook_cells"})}


@dataclass(frozen=True)
class Parsed:
    """One module's imports as its source says (None when it does not parse), by the digest they were read at."""

    digest: str
    imports: ModuleImports | None


@dataclass(frozen=True)
class Dependencies:
    """What some code depends on: files of ``src/``, and whether the page sources too."""

    files: tuple[Path, ...]
    docs: bool


class SourceTree:
    """The package's modules under ``src`` and their imports, parsed once per content (``parsed`` is reused)."""

    def __init__(self, src: Path, digests: Digests, parsed: dict[Path, Parsed] | None = None) -> None:
        """Read the modules under ``src``; ``parsed`` carries what earlier builds read, by file."""
        self.src = src
        self.digests = digests
        self.parsed = {} if parsed is None else parsed
        self.files = digests.listing(src)
        self.modules: dict[str, Path] = {}
        for file in self.files:
            if file.suffix == ".py" and file.is_relative_to(src / PACKAGE):
                parts = file.relative_to(src).with_suffix("").parts
                self.modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = file
        self._facade: dict[str, str] | None = None

    def imports_of(self, module: str) -> ModuleImports | None:
        """The imports of one of our modules (None when its source does not parse)."""
        file = self.modules[module]
        digest = self.digests.file(file)
        kept = self.parsed.get(file)
        if kept is None or kept.digest != digest:
            try:
                found: ModuleImports | None = read_imports(
                    file.read_bytes(), module, is_package=file.name == "__init__.py"
                )
            except (OSError, SyntaxError, ValueError):
                found = None
            kept = self.parsed[file] = Parsed(digest, found)
        return kept.imports

    def facade(self) -> dict[str, str]:
        """The facade's table: public name -> owning module (empty if the facade does not parse)."""
        if self._facade is None:
            try:
                self._facade = facade_homes(self.modules[PACKAGE].read_bytes()) if PACKAGE in self.modules else {}
            except (OSError, SyntaxError, ValueError):
                self._facade = {}
        return self._facade

    @property
    def everything(self) -> Dependencies:
        """Every file of ``src/`` and the page sources: what code depends on when its imports cannot be read."""
        return Dependencies(self.files, docs=True)

    def depends(self, code: str, *, with_type_only: bool = False) -> Dependencies:
        """What running ``code`` (Python source, say a block) can execute or read; `everything` if unsure.

        With ``with_type_only``, imports made only for type checking are followed too: what documenting reads.
        """
        if PACKAGE not in self.modules:
            return self.everything
        try:
            start = read_imports(code, "__main__")
        except (SyntaxError, ValueError):
            return self.everything
        return self._closure([start], with_type_only=with_type_only)

    def depends_on_modules(self, names: Iterable[str], *, with_type_only: bool = False) -> Dependencies:
        """What importing the modules ``names`` can execute or read (what documenting them reads, with type-only)."""
        code = "\n".join(f"import {name} as _documented" for name in names)
        return self.depends(code, with_type_only=with_type_only)

    def _closure(self, starts: list[ModuleImports], *, with_type_only: bool) -> Dependencies:
        if any(start.dynamic for start in starts):
            return self.everything
        pending = [(i.module, i.name) for start in starts for i in start.ours(with_type_only=with_type_only)]
        seen: set[str] = set()
        docs = False
        while pending:
            module, name = pending.pop()
            if module == PACKAGE and name is not None:  # a name from the facade, or a subpackage
                owner = self._owner(name)
                if owner is None:
                    return self.everything  # an import the sources do not explain
                pending.append(owner)
                continue
            if name is not None:
                if f"{module}.{name}" in self.modules:
                    pending.append((f"{module}.{name}", None))
                docs |= name in DOCS_READERS.get(module, ())
            if module not in self.modules:
                return self.everything
            if module in seen:
                continue
            seen.add(module)
            found = self._followed(module, with_type_only=with_type_only)
            if found is None:
                return self.everything
            pending += found
        files = {self.modules[name] for name in seen} | {self.modules[PACKAGE]}
        files.update(file for file in self.files if file.suffix != ".py")
        return Dependencies(tuple(sorted(files)), docs)

    def _owner(self, name: str) -> tuple[str, str | None] | None:
        """Where a name taken from the facade comes from: its owning module, or the subpackage; None if unknown."""
        facade = self.facade()
        if name in facade:
            return (facade[name], name)
        if f"{PACKAGE}.{name}" in self.modules:
            return (f"{PACKAGE}.{name}", None)
        return None

    def _followed(self, module: str, *, with_type_only: bool) -> list[tuple[str, str | None]] | None:
        """What loading ``module`` goes on to load: its parents and, but for the facade, its imports (None: unknown)."""
        found = self.imports_of(module)
        if found is None or (found.dynamic and module != PACKAGE):
            return None
        followed: list[tuple[str, str | None]] = [(parent, None) for parent in parents(module)]
        if module != PACKAGE:  # the facade loads nothing itself; the names taken from it are followed instead
            followed += [(i.module, i.name) for i in found.ours(with_type_only=with_type_only)]
        return followed

    def importers(self, changed: Iterable[str]) -> set[str]:
        """The modules ``changed`` and every module that imports one of them, directly or through others."""
        graph: dict[str, set[str]] = {name: set() for name in self.modules}
        for name in self.modules:
            found = self.imports_of(name)
            for imported in () if found is None else found.ours(with_type_only=False):
                target = imported.target(self.modules)
                if target in graph and target != name:
                    graph[target].add(name)
        reached = set(changed)
        pending = list(reached)
        while pending:
            for importer in graph.get(pending.pop(), ()):
                if importer not in reached:
                    reached.add(importer)
                    pending.append(importer)
        return reached

    def module_of(self, file: Path) -> str | None:
        """The dotted module ``file`` holds, or None for a file that is not one of our modules."""
        return next((name for name, path in self.modules.items() if path == file), None)


def with_docs(dependencies: Dependencies, docs_dir: Path, digests: Digests) -> tuple[Path, ...]:
    """The files ``dependencies`` name, with every page source under ``docs_dir`` when they read the pages."""
    if not dependencies.docs:
        return dependencies.files
    pages = (p for p in digests.listing(docs_dir) if p.suffix in {".md", ".ipynb"} and "vendor" not in p.parts)
    return tuple(sorted({*dependencies.files, *pages}))


def union(parts: Iterable[Dependencies]) -> Dependencies:
    """One `Dependencies` for several."""
    files: set[Path] = set()
    docs = False
    for part in parts:
        files.update(part.files)
        docs |= part.docs
    return Dependencies(tuple(sorted(files)), docs)


def module_files(modules: Mapping[str, Path], names: Iterable[str]) -> tuple[Path, ...]:
    """The files of the modules ``names`` that ``modules`` knows."""
    return tuple(sorted(modules[n] for n in names if n in modules))
