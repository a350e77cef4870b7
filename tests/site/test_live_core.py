"""The package the browser runs: ``ascend_dsa.site.live`` packs the source tree the build imports, reproducibly."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import ascend_dsa
from ascend_dsa.site.live import CORE_ZIP_PATH, pack_core, package_sources, with_live_script, write_core


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
