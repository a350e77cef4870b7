"""The package the browser runs: ``ascend_dsa.site.live`` packs the source tree the build imports, reproducibly."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import ascend_dsa
from ascend_dsa.render.live import DOWNLOAD_SIZE_SLOT, render_live_form
from ascend_dsa.site.live import (
    CORE_ZIP_PATH,
    download_bytes,
    pack_core,
    package_sources,
    with_download_size,
    with_live_script,
    write_core,
)
from ascend_dsa.site.offline import VENDORED
from ascend_dsa.units import MB
from tests.helpers.project import ROOT


def test_the_zip_holds_every_source_file_of_the_package_and_nothing_else() -> None:
    """Each ``.py`` file below ``ascend_dsa/`` is in the zip with its bytes; no cache, no other file."""
    root = Path(ascend_dsa.__file__).parent
    with zipfile.ZipFile(io.BytesIO(pack_core())) as archive:
        names = archive.namelist()
        assert names == sorted(names)
        assert names == [f"ascend_dsa/{p.relative_to(root).as_posix()}" for p in package_sources()]
        assert "ascend_dsa/cli/__init__.py" in names
        assert all(name.endswith(".py") and "__pycache__" not in name for name in names)
        assert archive.read("ascend_dsa/cli/__init__.py") == (root / "cli" / "__init__.py").read_bytes()
        assert {info.date_time for info in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}


def test_the_zip_is_the_same_bytes_whatever_the_files_dates(tmp_path: Path) -> None:
    """Two packs of one tree, with the files' times changed in between, are byte for byte the same."""
    package = tmp_path / "ascend_dsa"
    (package / "cli").mkdir(parents=True)
    (package / "__init__.py").write_text('"""Facade."""\n', encoding="utf-8")
    (package / "cli" / "__init__.py").write_text('"""CLI."""\n', encoding="utf-8")
    first = pack_core(package)
    for path in package.rglob("*.py"):
        path.touch()
    assert pack_core(package) == first


def test_write_core_puts_the_zip_where_live_js_fetches_it(tmp_path: Path) -> None:
    """The zip lands at ``assets/live/ascend_dsa.zip`` of the site, the path live.js names."""
    written = write_core(tmp_path)
    assert written == tmp_path / CORE_ZIP_PATH
    live_js = (Path(ascend_dsa.__file__).parents[2] / "docs" / "assets" / "javascripts" / "live.js").read_text("utf-8")
    assert '"../live/ascend_dsa.zip"' in live_js
    assert CORE_ZIP_PATH == "assets/live/ascend_dsa.zip"


def test_only_pages_with_a_live_form_load_the_script() -> None:
    """A page with a live form gets a loader of live.js at its depth; any other page is left as it was."""
    form = '<body><form data-live="ub-plan"></form></body>'
    loaded = with_live_script(form, "en/design/")
    assert loaded.startswith(form.removesuffix("</body>") + '<script type="module">')
    assert 'import("../../assets/javascripts/live.js")' in loaded
    assert loaded.endswith("</script></body>")
    assert 'import("assets/javascripts/live.js")' in with_live_script(form, "")
    plain = "<body><p>no form</p></body>"
    assert with_live_script(plain, "design/") == plain


#: The files a click on a live form downloads, below the site's root: Pyodide's and the package's zip.
LIVE_DOWNLOADS = (*(name for name, package in VENDORED.items() if package == "pyodide"), CORE_ZIP_PATH)


def test_the_download_size_is_the_files_real_size() -> None:
    """The size is Pyodide's vendored files plus the zip, in bytes; a form states it in MB in both languages."""
    vendored = sum((ROOT / "docs" / name).stat().st_size for name in LIVE_DOWNLOADS[:-1])
    size = download_bytes(ROOT / "docs")
    assert size == vendored + len(pack_core())
    for lang, words in (("zh", "从本站下载"), ("en", "WebAssembly,")):
        form = render_live_form("ub-plan", lang=lang)
        assert DOWNLOAD_SIZE_SLOT in form
        assert "几 MB" not in form
        assert "a few" not in form
        filled = with_download_size(form, size)
        assert f'{words}<span data-live-size="{size}"> {size / MB:.1f} MB</span>' in filled
        assert DOWNLOAD_SIZE_SLOT not in filled


def test_built_forms_state_what_the_built_site_serves(built_site: Path) -> None:
    """Every built page with a live form states the summed size of the files live.js fetches from the built site."""
    served = sum((built_site / name).stat().st_size for name in LIVE_DOWNLOADS)
    pages = [path for path in built_site.rglob("index.html") if "data-live=" in path.read_text("utf-8")]
    assert len(pages) >= 4
    for path in pages:
        html = path.read_text("utf-8")
        assert f'<span data-live-size="{served}"> {served / MB:.1f} MB</span>' in html, path
        assert DOWNLOAD_SIZE_SLOT not in html, path
