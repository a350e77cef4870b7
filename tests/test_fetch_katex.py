"""scripts/fetch_katex.py: only a tarball with the pinned sha512 is unpacked, and failures are one line."""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import io
import tarfile
from types import ModuleType
from typing import TYPE_CHECKING

import pytest

from tests.conftest import ROOT

if TYPE_CHECKING:
    from pathlib import Path


def load_script() -> ModuleType:
    """Import scripts/fetch_katex.py by path (it is a stand-alone script, not a package module)."""
    spec = importlib.util.spec_from_file_location("fetch_katex", ROOT / "scripts" / "fetch_katex.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


fetch = load_script()


def tarball(members: dict[str, bytes]) -> bytes:
    """A gzipped tar with the given member names and contents."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def integrity_of(data: bytes) -> str:
    """The Subresource-Integrity string npm publishes for ``data``."""
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode("ascii")


KATEX_LIKE = {
    "package/LICENSE": b"MIT",
    "package/README.md": b"skip me",
    "package/dist/katex.min.js": b"var katex;",
    "package/dist/katex.min.css": b".katex{}",
    "package/dist/katex.js": b"skip me too",
    "package/dist/fonts/KaTeX_Main-Regular.woff2": b"font",
    "package/dist/contrib/auto-render.min.js": b"skip",
}


def test_integrity_accepts_the_pinned_digest_and_rejects_any_other() -> None:
    """The sha512 check passes for matching bytes and fails, naming both digests, for one changed byte."""
    data = b"katex tarball"
    fetch.check_integrity(data, integrity_of(data))
    with pytest.raises(fetch.FetchError, match="expected"):
        fetch.check_integrity(data + b"!", integrity_of(data))
    with pytest.raises(fetch.FetchError, match="integrity must be sha512"):
        fetch.check_integrity(data, "sha1-abc")


def test_pinned_integrity_is_a_sha512() -> None:
    """The pin is an npm sha512 integrity string for the pinned version's tarball."""
    assert fetch.INTEGRITY.startswith("sha512-")
    assert len(base64.b64decode(fetch.INTEGRITY.removeprefix("sha512-"))) == 64
    assert fetch.TARBALL_URL.endswith(f"/katex-{fetch.VERSION}.tgz")


def test_unpack_keeps_script_style_fonts_and_licence(tmp_path: Path) -> None:
    """Only the minified script and style, the fonts and the licence are written, plus a VERSION stamp."""
    destination = tmp_path / "vendor" / "katex"
    written = fetch.unpack(tarball(KATEX_LIKE), destination)
    assert written == ["LICENSE", "fonts/KaTeX_Main-Regular.woff2", "katex.min.css", "katex.min.js"]
    assert sorted(p.relative_to(destination).as_posix() for p in destination.rglob("*") if p.is_file()) == sorted(
        [*written, "VERSION"]
    )
    assert fetch.is_current(destination)


def test_unpack_refuses_a_tarball_without_katex(tmp_path: Path) -> None:
    """A tarball lacking katex.min.js is refused and leaves no destination behind."""
    destination = tmp_path / "katex"
    with pytest.raises(fetch.FetchError, match=r"lacks dist/katex\.min\.js"):
        fetch.unpack(tarball({"package/LICENSE": b"MIT"}), destination)
    assert not destination.exists()
    assert list(tmp_path.iterdir()) == []


def test_main_reports_a_wrong_digest_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A download whose sha512 differs from the pin exits 1 with a single line and writes nothing."""
    monkeypatch.setattr(fetch, "download", lambda: tarball(KATEX_LIKE))
    assert fetch.main([str(tmp_path / "katex")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("fetch_katex: error: ")
    assert err.count("\n") == 1
    assert not (tmp_path / "katex").exists()


def test_main_reports_a_network_failure_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No network: exit 1 and one line naming the URL."""

    def offline() -> bytes:
        raise fetch.FetchError(f"cannot download {fetch.TARBALL_URL}: no route")

    monkeypatch.setattr(fetch, "download", offline)
    assert fetch.main([str(tmp_path / "katex")]) == 1
    assert capsys.readouterr().err == f"fetch_katex: error: cannot download {fetch.TARBALL_URL}: no route\n"


def test_main_does_nothing_when_the_version_is_in_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the pinned version already unpacked, nothing is downloaded."""
    destination = tmp_path / "katex"
    destination.mkdir()
    (destination / fetch.STAMP).write_text(fetch.VERSION + "\n", encoding="ascii")
    monkeypatch.setattr(fetch, "download", lambda: pytest.fail("downloaded although current"))
    assert fetch.main([str(destination)]) == 0
