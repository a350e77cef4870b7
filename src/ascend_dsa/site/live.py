"""The package as the reader's browser runs it: a zip of ``ascend_dsa``'s source, byte for byte the same each build.

The live what-ifs (``render/live.py``'s forms, ``docs/assets/javascripts/live.js``) run the command line of this
very package on Pyodide, so the site ships the source tree the build imported and checked. The zip holds every
``.py`` file of the package (NumPy-using modules too: nothing the command line reaches imports them), stored with a
fixed timestamp and mode in sorted order, so that two builds of one commit write the same bytes.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Final

from ascend_dsa.render.live import DOWNLOAD_SIZE_SLOT
from ascend_dsa.site.offline import VENDORED
from ascend_dsa.units import MB

#: The package's folder: the source tree this build imports (``site/live.py`` is two levels below it).
PACKAGE_DIR: Final = Path(__file__).resolve().parents[1]
#: Where the site serves the zip, below the site's root (live.js names the same path relative to itself).
CORE_ZIP_PATH: Final = "assets/live/ascend_dsa.zip"
#: The earliest time a zip can record (1980-01-01 00:00:00), for every member: the build's time must not show.
_ZIP_EPOCH: Final = (1980, 1, 1, 0, 0, 0)
#: ``rw-r--r--`` regular file, in the high 16 bits of a member's external attributes.
_FILE_MODE: Final = 0o100644 << 16
#: Pages that contain a live form, recognised in the built HTML (the attribute every form has).
LIVE_MARKER: Final = "data-live="
#: The script a live page loads on the first click, below the site's root.
LIVE_SCRIPT_PATH: Final = "assets/javascripts/live.js"


def package_sources(package: Path | None = None) -> list[Path]:
    """Every ``.py`` file of the package (``ascend_dsa``'s own folder by default), in sorted order."""
    root = PACKAGE_DIR if package is None else package
    return sorted(path for path in root.rglob("*.py") if "__pycache__" not in path.parts)


def pack_core(package: Path | None = None) -> bytes:
    """The zip the browser unpacks and imports: ``ascend_dsa/**/*.py`` with fixed dates and modes, sorted by name."""
    root = PACKAGE_DIR if package is None else package
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for path in package_sources(root):
            info = zipfile.ZipInfo(f"{root.name}/{path.relative_to(root).as_posix()}", date_time=_ZIP_EPOCH)
            info.external_attr = _FILE_MODE
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes(), compresslevel=9)
    return buffer.getvalue()


def write_core(site_dir: Path) -> Path:
    """Write the packed package into the built site at ``CORE_ZIP_PATH``; return the file written."""
    target = site_dir / CORE_ZIP_PATH
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(pack_core())
    return target


def download_bytes(docs_dir: Path) -> int:
    """What the first click on a live form downloads, in bytes: Pyodide's vendored files and the package's zip."""
    vendored = sum((docs_dir / name).stat().st_size for name, package in VENDORED.items() if package == "pyodide")
    return vendored + len(pack_core())


def with_download_size(html: str, size_bytes: int) -> str:
    """``html`` with every live form's download size filled in (" 13.8 MB", decimal megabytes, one decimal)."""
    return html.replace(DOWNLOAD_SIZE_SLOT, f'<span data-live-size="{size_bytes}"> {size_bytes / MB:.1f} MB</span>')


def with_live_script(html: str, page_url: str) -> str:
    """``html`` with a one-line loader before ``</body>`` if the page has a live form; else unchanged.

    The loader imports live.js only when the reader clicks a form's button, so a page downloads nothing for its
    forms until asked; if live.js cannot be loaded, the form's status line says so.
    """
    if LIVE_MARKER not in html or "</body>" not in html:
        return html
    depth = page_url.strip("/").count("/") + 1 if page_url.strip("/") else 0
    source = "../" * depth + LIVE_SCRIPT_PATH
    tag = (
        '<script type="module">for(const b of document.querySelectorAll("form[data-live] [data-live-start]"))'
        f'b.addEventListener("click",()=>import("{source}").then(m=>m.start(b.form),e=>{{'
        'const s=b.form.querySelector("[data-live-status]");s.hidden=false;s.querySelector("progress").hidden=true;'
        's.querySelector("span").textContent=`${b.form.dataset.liveFailed} ${e.message}`}))</script>'
    )
    head, _, tail = html.rpartition("</body>")
    return f"{head}{tag}</body>{tail}"
