"""The installed package's version: what ``--version`` prints and what a trace file records as its maker.

Apart from ``cli/__init__.py`` so that a command can name the version without importing the package that imports it.
"""

from __future__ import annotations

from ascend_dsa.facts.citation import DISTRIBUTION


def package_version() -> str:
    """The installed distribution's version, from its metadata."""
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415 - slow to import; only when asked

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return "unknown (the package metadata is not installed; run `make setup`)"
