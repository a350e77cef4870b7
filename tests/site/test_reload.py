"""ascend_dsa.site.reload: after an edit, the next import reads the edited code; what it cannot reach is kept."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
import types
from typing import TYPE_CHECKING

from ascend_dsa.site import reload
from tests.helpers.project import ROOT

if TYPE_CHECKING:
    from pathlib import Path

#: Runs in a fresh interpreter on a copy of src/: import, edit, forget what the edit made stale, import again.
_SCRIPT = textwrap.dedent(
    """
    import pathlib, sys
    from ascend_dsa.site.files import Digests
    from ascend_dsa.site.sources import SourceTree
    from ascend_dsa.site import reload
    src = pathlib.Path(sys.argv[1])
    import ascend_dsa.cli.head_roofline as before
    import ascend_dsa.facts.kv_formats as untouched
    snapshot = Digests().snapshot([src])
    source = src / "ascend_dsa" / "cli" / "head_roofline.py"
    source.write_text(source.read_text().replace("CUBE vs L2 cycles", "EDITED cycles"))
    digests = Digests()
    stale = reload.stale_modules(SourceTree(src, digests), digests.changed(snapshot, [src]))
    forgotten = reload.forget(stale)
    import ascend_dsa.cli.head_roofline as after
    from ascend_dsa.cli import head_roofline as through_the_package
    import ascend_dsa.facts.kv_formats as kept
    print(before.HELP[:6], after.HELP[:6], through_the_package is after, kept is untouched,
          "ascend_dsa.cli" in forgotten, "ascend_dsa" in forgotten, sep="|")
    """
)


def test_an_edited_module_and_its_importers_are_imported_afresh(tmp_path: Path) -> None:
    """The edited module (and what imports it) is read again, through its package too; an unrelated one is kept."""
    src = tmp_path / "src"
    shutil.copytree(ROOT / "src", src, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    env = {**os.environ, "PYTHONPATH": str(src), "PYTHONDONTWRITEBYTECODE": "1"}
    completed = subprocess.run(
        [sys.executable, "-c", _SCRIPT, str(src)], capture_output=True, text=True, check=True, env=env
    )
    assert completed.stdout.strip() == "CUBE v|EDITED|True|True|True|True"


def test_forget_drops_modules_and_their_parents_attribute() -> None:
    """A forgotten module leaves sys.modules and its package's attribute; a name not loaded is skipped."""
    package = types.ModuleType("pkg")
    child = types.ModuleType("pkg.child")
    package.child = child  # type: ignore[attr-defined]
    modules = {"pkg": package, "pkg.child": child}
    assert reload.forget(["pkg.child", "pkg.missing"], modules) == ("pkg.child",)
    assert "pkg.child" not in modules
    assert not hasattr(package, "child")
