"""scripts/fetch_vendor.py: only a tarball with the pinned sha512 is unpacked, and failures are one line."""

from __future__ import annotations

import base64
import hashlib
import io
import tarfile
from typing import TYPE_CHECKING

import pytest

from tests.helpers.project import ROOT, load_module

if TYPE_CHECKING:
    from pathlib import Path


#: scripts/fetch_vendor.py, a stand-alone script, not a package module.
fetch = load_module("fetch_vendor", ROOT / "scripts" / "fetch_vendor.py")


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


PYODIDE_LIKE = {
    "package/pyodide.mjs": b"export",
    "package/pyodide.asm.mjs": b"module",
    "package/pyodide.asm.wasm": b"\0asm",
    "package/python_stdlib.zip": b"PK",
    "package/pyodide-lock.json": b"{}",
    "package/pyodide.js.map": b"skip me",
    "package/console.html": b"skip me too",
}


def test_integrity_accepts_the_pinned_digest_and_rejects_any_other() -> None:
    """The sha512 check passes for matching bytes and fails, naming both digests, for one changed byte."""
    data = b"katex tarball"
    fetch.check_integrity(fetch.KATEX, data, integrity_of(data))
    with pytest.raises(fetch.FetchError, match="expected"):
        fetch.check_integrity(fetch.KATEX, data + b"!", integrity_of(data))
    with pytest.raises(fetch.FetchError, match="integrity must be sha512"):
        fetch.check_integrity(fetch.KATEX, data, "sha1-abc")


@pytest.mark.parametrize("name", ["katex", "pyodide"])
def test_pinned_integrity_is_a_sha512(name: str) -> None:
    """Each pin is an npm sha512 integrity string for the pinned version's tarball."""
    pin = fetch.PINS[name]
    assert pin.integrity.startswith("sha512-")
    assert len(base64.b64decode(pin.integrity.removeprefix("sha512-"))) == 64
    assert pin.tarball_url == f"https://registry.npmjs.org/{name}/-/{name}-{pin.version}.tgz"


def test_unpack_keeps_script_style_fonts_and_licence(tmp_path: Path) -> None:
    """Only the minified script and style, the fonts and the licence are written, plus a VERSION stamp."""
    destination = tmp_path / "vendor" / "katex"
    written = fetch.unpack(fetch.KATEX, tarball(KATEX_LIKE), destination)
    assert written == ["LICENSE", "fonts/KaTeX_Main-Regular.woff2", "katex.min.css", "katex.min.js"]
    assert sorted(p.relative_to(destination).as_posix() for p in destination.rglob("*") if p.is_file()) == sorted(
        [*written, "VERSION"]
    )
    assert fetch.is_current(fetch.KATEX, destination)


def test_unpack_keeps_only_the_pyodide_core(tmp_path: Path) -> None:
    """Of Pyodide, the loader, module, WebAssembly, standard library and lock file are kept; maps and pages are not."""
    destination = tmp_path / "pyodide"
    written = fetch.unpack(fetch.PYODIDE, tarball(PYODIDE_LIKE), destination)
    assert written == sorted(fetch.PYODIDE.required)
    assert fetch.is_current(fetch.PYODIDE, destination)
    assert not fetch.is_current(fetch.KATEX, destination)


def test_unpack_refuses_a_tarball_without_katex(tmp_path: Path) -> None:
    """A tarball lacking katex.min.js is refused and leaves no destination behind."""
    destination = tmp_path / "katex"
    with pytest.raises(fetch.FetchError, match=r"lacks katex\.min\.js"):
        fetch.unpack(fetch.KATEX, tarball({"package/LICENSE": b"MIT"}), destination)
    assert not destination.exists()
    assert list(tmp_path.iterdir()) == []


def test_main_reports_a_wrong_digest_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A download whose sha512 differs from the pin exits 1 with a single line and writes nothing."""
    monkeypatch.setattr(fetch, "VENDOR_ROOT", tmp_path)
    monkeypatch.setattr(fetch, "download", lambda pin: tarball(KATEX_LIKE))  # noqa: ARG005
    assert fetch.main(["katex"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("fetch_vendor: error: katex-")
    assert err.count("\n") == 1
    assert not (tmp_path / "katex").exists()


def test_main_reports_a_network_failure_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No network: exit 1 and one line naming the URL."""

    def offline(pin: object) -> bytes:
        raise fetch.FetchError(f"cannot download {pin.tarball_url}: no route")  # type: ignore[attr-defined]

    monkeypatch.setattr(fetch, "VENDOR_ROOT", tmp_path)
    monkeypatch.setattr(fetch, "download", offline)
    assert fetch.main(["pyodide"]) == 1
    assert capsys.readouterr().err == f"fetch_vendor: error: cannot download {fetch.PYODIDE.tarball_url}: no route\n"


def test_main_refuses_an_unknown_package(capsys: pytest.CaptureFixture[str]) -> None:
    """A name outside the table of pins is one line naming the ones there are."""
    assert fetch.main(["left-pad"]) == 1
    assert (
        capsys.readouterr().err == "fetch_vendor: error: unknown package 'left-pad', expected one of katex, pyodide\n"
    )


def test_main_does_nothing_when_every_version_is_in_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With each pinned version already unpacked, nothing is downloaded."""
    for pin in fetch.PINS.values():
        (tmp_path / pin.name).mkdir()
        (tmp_path / pin.name / fetch.STAMP).write_text(pin.version + "\n", encoding="ascii")
    monkeypatch.setattr(fetch, "VENDOR_ROOT", tmp_path)
    monkeypatch.setattr(fetch, "download", lambda pin: pytest.fail(f"downloaded {pin.name} although current"))
    assert fetch.main([]) == 0


def test_make_setup_fetches_every_pinned_package() -> None:
    """The Makefile's setup target depends on one fetch per pin, so a fresh clone's `make test` has them all."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    setup = next(line for line in makefile.splitlines() if line.startswith("setup:"))
    for name in fetch.PINS:
        assert f"$(PYTHON) scripts/fetch_vendor.py {name}" in makefile, name
        variable = name.upper()
        assert f"$({variable})" in setup.split(), name
        assert f"{variable} := docs/assets/vendor/{name}/{fetch.STAMP}" in makefile, name
