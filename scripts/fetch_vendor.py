"""Fetch the pinned npm packages the site serves itself (KaTeX, Pyodide) into docs/assets/vendor/ (git-ignored).

The site typesets math with KaTeX and runs live what-ifs with Pyodide in the reader's browser, both served from the
site itself so that no page asks another host for anything. Only the standard library is used: a fresh machine has
Python and make, not node or npm. Each tarball is checked against the registry's pinned ``dist.integrity``
(sha512) before anything is written, and only the files the site loads are kept.

Usage: ``python scripts/fetch_vendor.py [NAME ...]`` (default: every package in ``PINS``); exits 1 with one line on
stderr if anything fails.
"""
# ruff: noqa: INP001  (a stand-alone set-up script, not a package)

from __future__ import annotations

import base64
import hashlib
import io
import shutil
import sys
import tarfile
import tempfile
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

VENDOR_ROOT = Path(__file__).resolve().parents[1] / "docs" / "assets" / "vendor"
#: File written last in each package's folder; its content is the version, so a changed pin is noticed.
STAMP = "VERSION"
TIMEOUT_S = 120


class FetchError(Exception):
    """Set-up could not obtain a verified package."""


@dataclass(frozen=True)
class Pin:
    """One npm package at one version: its ``dist.integrity`` and which tarball members the site keeps."""

    name: str
    version: str
    #: ``dist.integrity`` as published on the npm registry (https://registry.npmjs.org/NAME/VERSION).
    integrity: str
    #: Tarball member -> path below the package's folder.
    keep: dict[str, str]
    #: Every file of a tarball folder (no subfolders) is kept under this name: folder in tarball -> folder here.
    keep_folders: dict[str, str] = field(default_factory=dict)
    #: Kept paths without which the package is useless; a tarball lacking one is refused.
    required: tuple[str, ...] = ()

    @property
    def tarball_url(self) -> str:
        """Where the npm registry serves this version's tarball."""
        return f"https://registry.npmjs.org/{self.name}/-/{self.name}-{self.version}.tgz"

    @property
    def tarball_name(self) -> str:
        """The tarball's file name, for messages."""
        return f"{self.name}-{self.version}.tgz"

    def wanted(self, member: str) -> str | None:
        """Path below the package's folder for a tarball member we keep, else None."""
        if member in self.keep:
            return self.keep[member]
        for prefix, folder in self.keep_folders.items():
            name = member.removeprefix(prefix)
            if name != member and "/" not in name and name not in {"", ".", ".."}:
                return f"{folder}/{name}"
        return None


KATEX = Pin(
    name="katex",
    version="0.19.1",
    integrity="sha512-jG8uKntjSEcm2EpQOh0XturpPuuC9r3Sq5HLHdsFdWZT27E672SF19QEi+of0/YeOy15lDgRhKvr5614uRrEfA==",
    keep={
        "package/LICENSE": "LICENSE",
        "package/dist/katex.min.js": "katex.min.js",
        "package/dist/katex.min.css": "katex.min.css",
    },
    keep_folders={"package/dist/fonts/": "fonts"},
    required=("katex.min.js", "katex.min.css"),
)

_PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
#: Pyodide's core only (no package wheels): the loader, the Emscripten module, the WebAssembly, the standard library
#: and the lock file ``loadPyodide`` reads at start-up. The tarball has no licence file; Pyodide is MPL-2.0.
PYODIDE = Pin(
    name="pyodide",
    version="314.0.7",
    integrity="sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A==",
    keep={f"package/{name}": name for name in _PYODIDE_FILES},
    required=_PYODIDE_FILES,
)

PINS = {pin.name: pin for pin in (KATEX, PYODIDE)}


def check_integrity(pin: Pin, data: bytes, integrity: str | None = None) -> None:
    """Raise FetchError unless ``data`` has the pinned (or the given) Subresource-Integrity sha512 digest."""
    algorithm, _, expected = (integrity or pin.integrity).partition("-")
    if algorithm != "sha512":
        raise FetchError(f"integrity must be sha512, got {algorithm!r}")
    actual = base64.b64encode(hashlib.sha512(data).digest()).decode("ascii")
    if actual != expected:
        raise FetchError(f"{pin.tarball_name} has sha512 {actual}, expected {expected}")


def download(pin: Pin) -> bytes:
    """The tarball's bytes; FetchError on any network failure."""
    try:
        with urllib.request.urlopen(pin.tarball_url, timeout=TIMEOUT_S) as response:  # noqa: S310 - fixed https URL
            data: bytes = response.read()
    except (urllib.error.URLError, TimeoutError, OSError) as error:
        raise FetchError(f"cannot download {pin.tarball_url}: {error}") from error
    return data


def unpack(pin: Pin, data: bytes, destination: Path) -> list[str]:
    """Write the kept files of the verified tarball ``data`` into ``destination``, replacing it atomically."""
    destination.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{pin.name}-", dir=destination.parent))
    written: list[str] = []
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
            for member in archive.getmembers():
                target = pin.wanted(member.name)
                if target is None or not member.isfile():
                    continue
                source = archive.extractfile(member)
                if source is None:
                    continue
                path = staging / target
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(source.read())
                written.append(target)
        missing = [name for name in pin.required if name not in written]
        if missing:
            raise FetchError(f"{pin.tarball_name} lacks {', '.join(missing)}")
        (staging / STAMP).write_text(pin.version + "\n", encoding="ascii")
        if destination.exists():
            shutil.rmtree(destination)
        staging.rename(destination)
    finally:
        if staging.exists():
            shutil.rmtree(staging)
    return sorted(written)


def is_current(pin: Pin, destination: Path) -> bool:
    """Whether ``destination`` already holds this pinned version."""
    stamp = destination / STAMP
    return stamp.is_file() and stamp.read_text(encoding="ascii").strip() == pin.version


def fetch(pin: Pin, destination: Path) -> str | None:
    """Fetch, verify and unpack ``pin`` unless already present; a line saying what was written, or None."""
    if is_current(pin, destination):
        return None
    data = download(pin)
    check_integrity(pin, data)
    files = unpack(pin, data, destination)
    size_mb = sum((destination / name).stat().st_size for name in files) / 1e6
    return f"{pin.name} {pin.version} ({len(files)} files, {size_mb:.1f} MB) -> {destination}"


def main(argv: list[str]) -> int:
    """Fetch each named package (all by default); one line on stderr and status 1 on the first failure."""
    unknown = [name for name in argv if name not in PINS]
    if unknown:
        sys.stderr.write(f"fetch_vendor: error: unknown package {unknown[0]!r}, expected one of {', '.join(PINS)}\n")
        return 1
    for name in argv or list(PINS):
        try:
            done = fetch(PINS[name], VENDOR_ROOT / name)
        except (FetchError, tarfile.TarError, OSError) as error:
            sys.stderr.write(f"fetch_vendor: error: {error}\n")
            return 1
        if done is not None:
            sys.stderr.write(f"fetch_vendor: {done}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
