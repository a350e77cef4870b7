"""Print one package's entry of the hashed lock (its ``name==version`` line and each ``--hash``) as a requirement file.

    python scripts/lock_entry.py uv [requirements.lock] > .venv/uv-requirement.txt

``make setup`` installs uv alone with pip from this entry, checked against the lock's hashes, and then the whole lock
with uv (several times faster than pip at it). Standard library only: it runs before anything is installed. Exits
2 with one line on stderr if the lock has no such entry.
"""
# ruff: noqa: INP001  (a stand-alone set-up script, not a package)

from __future__ import annotations

import re
import sys
from pathlib import Path


def lock_entry(lock: str, name: str) -> str:
    """The lines of ``name``'s entry in ``lock`` (a ``pip-compile``/``uv pip compile`` file with hashes).

    Raises ValueError naming the package when the lock has no entry for it, or an entry without a hash.
    """
    found = re.search(rf"^{re.escape(name)}==\S+.*?(?=^\S|\Z)", lock, re.MULTILINE | re.DOTALL)
    if found is None:
        raise ValueError(f"the lock has no entry for {name!r}: expected a line starting {name}==")
    entry = "\n".join(line for line in found.group(0).splitlines() if not line.lstrip().startswith("#"))
    if "--hash=" not in entry:
        raise ValueError(f"the lock's entry for {name!r} has no --hash: expected one per file")
    return entry.rstrip(" \\\n") + "\n"


def main(argv: list[str]) -> int:
    """Print the entry; a one-line error and status 2 on bad arguments or a missing entry."""
    if len(argv) not in (1, 2):
        sys.stderr.write("lock_entry: usage: lock_entry.py NAME [LOCK]\n")
        return 2
    lock = Path(argv[1] if len(argv) == 2 else "requirements.lock")  # noqa: PLR2004 - NAME and LOCK
    try:
        sys.stdout.write(lock_entry(lock.read_text(encoding="utf-8"), argv[0]))
    except (OSError, ValueError) as error:
        sys.stderr.write(f"lock_entry: error: {error}\n")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
