"""Jinja templates compiled once per process: the theme's and mkdocstrings', shared by both editions and rebuilds.

Each edition's build makes a new Jinja environment for the theme and a new one for mkdocstrings' handler, and each
compiled every template it used again (Material's and mkdocstrings-python's: about 175, a second a build). A
`Compiled` cache, Jinja's own public ``bytecode_cache`` hook, keeps the code compiled for each template by its name
and the checksum of its source, so an environment compiles only templates it has not seen or that changed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from jinja2 import BytecodeCache

if TYPE_CHECKING:
    import jinja2
    from jinja2.bccache import Bucket


class Compiled(BytecodeCache):
    """Compiled templates kept in ``kept`` (template key -> source checksum and code)."""

    def __init__(self, kept: dict[str, tuple[str, Any]]) -> None:
        """A cache over ``kept``."""
        self.kept = kept

    def load_bytecode(self, bucket: Bucket) -> None:
        """Give the bucket the code compiled for the same name and source, if any."""
        found = self.kept.get(bucket.key)
        if found is not None and found[0] == bucket.checksum:
            bucket.code = found[1]

    def dump_bytecode(self, bucket: Bucket) -> None:
        """Keep the code just compiled."""
        self.kept[bucket.key] = (bucket.checksum, bucket.code)


def attach(env: jinja2.Environment, kept: dict[str, tuple[str, Any]]) -> None:
    """Give ``env`` a cache over ``kept`` unless it has one."""
    if env.bytecode_cache is None:
        env.bytecode_cache = Compiled(kept)
