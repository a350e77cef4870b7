"""Fetch the pinned KaTeX release from the npm registry into docs/assets/vendor/katex (git-ignored).

The site typesets math in the reader's browser with KaTeX, served from the site itself so that no page asks another
host for anything. Only the standard library is used: a fresh machine has Python and make, not node or npm. The
tarball is checked against the registry's pinned ``dist.integrity`` (sha512) before anything is written.

Usage: ``python scripts/fetch_katex.py [DESTINATION]``; exits 1 with one line on stderr if anything fails.
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
from pathlib import Path

VERSION = "0.19.1"
TARBALL_URL = f"https://registry.npmjs.org/katex/-/katex-{VERSION}.tgz"
#: ``dist.integrity`` of katex@0.19.1 as published on the npm registry.
INTEGRITY = "sha512-jG8uKntjSEcm2EpQOh0XturpPuuC9r3Sq5HLHdsFdWZT27E672SF19QEi+of0/YeOy15lDgRhKvr5614uRrEfA=="
DEFAULT_DESTINATION = Path(__file__).resolve().parents[1] / "docs" / "assets" / "vendor" / "katex"
#: File written last; its content is the version, so a changed pin is noticed.
STAMP = "VERSION"
TIMEOUT_S = 60


class FetchError(Exception):
    """Set-up could not obtain a verified KaTeX."""


#: Tarball member -> path below the destination; fonts are added by ``wanted``.
KEEP = {
    "package/LICENSE": "LICENSE",
    "package/dist/katex.min.js": "katex.min.js",
    "package/dist/katex.min.css": "katex.min.css",
}
FONTS_PREFIX = "package/dist/fonts/"


def wanted(member: str) -> str | None:
    """Path below the destination for a tarball member we keep (the script, the style, the fonts), else None."""
    if member in KEEP:
        return KEEP[member]
    name = member.removeprefix(FONTS_PREFIX)
    if name != member and "/" not in name and name not in {"", ".", ".."}:
        return f"fonts/{name}"
    return None


def check_integrity(data: bytes, integrity: str = INTEGRITY) -> None:
    """Raise FetchError unless ``data`` has the pinned Subresource-Integrity sha512 digest."""
    algorithm, _, expected = integrity.partition("-")
    if algorithm != "sha512":
        raise FetchError(f"integrity must be sha512, got {algorithm!r}")
    actual = base64.b64encode(hashlib.sha512(data).digest()).decode("ascii")
    if actual != expected:
        raise FetchError(f"katex-{VERSION}.tgz has sha512 {actual}, expected {expected}")


def download(url: str = TARBALL_URL) -> bytes:
    """The tarball's bytes; FetchError on any network failure."""
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT_S) as response:  # noqa: S310 - fixed https URL
            data: bytes = response.read()
    except (urllib.error.URLError, TimeoutError, OSError) as error:
        raise FetchError(f"cannot download {url}: {error}") from error
    return data


def unpack(data: bytes, destination: Path) -> list[str]:
    """Write the kept files of the verified tarball ``data`` into ``destination``, replacing it atomically."""
    destination.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".katex-", dir=destination.parent))
    written: list[str] = []
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
            for member in archive.getmembers():
                target = wanted(member.name)
                if target is None or not member.isfile():
                    continue
                source = archive.extractfile(member)
                if source is None:
                    continue
                path = staging / target
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(source.read())
                written.append(target)
        if "katex.min.js" not in written or "katex.min.css" not in written:
            raise FetchError(f"katex-{VERSION}.tgz lacks dist/katex.min.js or dist/katex.min.css")
        (staging / STAMP).write_text(VERSION + "\n", encoding="ascii")
        if destination.exists():
            shutil.rmtree(destination)
        staging.rename(destination)
    finally:
        if staging.exists():
            shutil.rmtree(staging)
    return sorted(written)


def is_current(destination: Path) -> bool:
    """Whether ``destination`` already holds this pinned version."""
    stamp = destination / STAMP
    return stamp.is_file() and stamp.read_text(encoding="ascii").strip() == VERSION


def main(argv: list[str]) -> int:
    """Fetch, verify and unpack unless already present; one line on stderr and status 1 on failure."""
    destination = Path(argv[0]) if argv else DEFAULT_DESTINATION
    if is_current(destination):
        return 0
    try:
        data = download()
        check_integrity(data)
        files = unpack(data, destination)
    except (FetchError, tarfile.TarError, OSError) as error:
        sys.stderr.write(f"fetch_katex: error: {error}\n")
        return 1
    sys.stderr.write(f"fetch_katex: KaTeX {VERSION} ({len(files)} files) -> {destination}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
