"""ascend_dsa.site.files: a file changed when its content's digest changed, and only then."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ascend_dsa.site.files import UNREADABLE, Digests

if TYPE_CHECKING:
    from pathlib import Path


def test_a_touch_changes_nothing_and_an_edit_does(tmp_path: Path) -> None:
    """The same bytes give the same digest whatever the file's time; other bytes another."""
    file = tmp_path / "a.md"
    file.write_text("x", encoding="utf-8")
    before = Digests().of([tmp_path])
    os.utime(file, (1, 1))
    assert Digests().of([tmp_path]) == before
    file.write_text("y", encoding="utf-8")
    assert Digests().of([tmp_path]) != before


def test_each_file_is_read_once_per_digests(tmp_path: Path) -> None:
    """Within one Digests (one build) a file is read once: a later edit is seen by the next build's only."""
    file = tmp_path / "a.md"
    file.write_text("x", encoding="utf-8")
    digests = Digests()
    first = digests.file(file)
    file.write_text("y", encoding="utf-8")
    assert digests.file(file) == first
    assert Digests().file(file) != first


def test_folders_are_walked_in_order_without_caches(tmp_path: Path) -> None:
    """A listing is sorted without __pycache__; a missing path lists nothing, a gone file is unreadable."""
    (tmp_path / "b.py").write_text("", encoding="utf-8")
    (tmp_path / "a.py").write_text("", encoding="utf-8")
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "__pycache__" / "a.pyc").write_bytes(b"x")
    assert [p.name for p in Digests().listing(tmp_path)] == ["a.py", "b.py"]
    assert Digests().listing(tmp_path / "nothing") == ()
    assert Digests().file(tmp_path / "gone") == UNREADABLE


def test_changed_names_added_removed_and_edited_files(tmp_path: Path) -> None:
    """Against a snapshot, the files added, removed or edited since are the changed ones."""
    (tmp_path / "kept.py").write_text("1", encoding="utf-8")
    (tmp_path / "edited.py").write_text("1", encoding="utf-8")
    (tmp_path / "removed.py").write_text("1", encoding="utf-8")
    snapshot = Digests().snapshot([tmp_path])
    (tmp_path / "edited.py").write_text("2", encoding="utf-8")
    (tmp_path / "removed.py").unlink()
    (tmp_path / "added.py").write_text("1", encoding="utf-8")
    changed = Digests().changed(snapshot, [tmp_path])
    assert sorted(p.name for p in changed) == ["added.py", "edited.py", "removed.py"]
