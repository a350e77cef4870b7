"""scripts/lock_entry.py: the one package's entry of the hashed lock that make setup installs uv from."""

from __future__ import annotations

import pytest

from tests.helpers.project import ROOT, load_module

#: scripts/lock_entry.py, a stand-alone script, not a package module.
entry = load_module("lock_entry", ROOT / "scripts" / "lock_entry.py")

LOCK = """\
# via nothing
tomli==2.0.1 \\
    --hash=sha256:aaa \\
    --hash=sha256:bbb
    # via ascend-dsa (pyproject.toml:lock)
uv==0.13.9 \\
    --hash=sha256:ccc \\
    --hash=sha256:ddd
    # via ascend-dsa (pyproject.toml:lock)
uvicorn==1.0 \\
    --hash=sha256:eee
"""


def test_the_entry_is_its_line_and_hashes_alone() -> None:
    """uv's pin and both its hashes, no comment, not uvicorn's (a name that starts the same)."""
    assert entry.lock_entry(LOCK, "uv") == "uv==0.13.9 \\\n    --hash=sha256:ccc \\\n    --hash=sha256:ddd\n"


def test_the_last_entry_of_the_lock_is_found_too() -> None:
    """An entry at the end of the file ends where the file does."""
    assert entry.lock_entry(LOCK, "uvicorn") == "uvicorn==1.0 \\\n    --hash=sha256:eee\n"


@pytest.mark.parametrize(
    ("lock", "name", "words"),
    [(LOCK, "pip", "no entry for 'pip'"), ("uv==1 \\\n    # via x\n", "uv", "no --hash")],
)
def test_a_missing_entry_or_hash_is_named(lock: str, name: str, words: str) -> None:
    """Without the package, or without a hash to check it against, it refuses, naming the package."""
    with pytest.raises(ValueError, match=words):
        entry.lock_entry(lock, name)


def test_the_projects_lock_pins_uv_with_hashes() -> None:
    """make setup's first install: the real lock has uv, pinned, with a hash for each of its files."""
    found = entry.lock_entry((ROOT / "requirements.lock").read_text(encoding="utf-8"), "uv")
    assert found.startswith("uv==")
    assert found.count("--hash=sha256:") >= 2
