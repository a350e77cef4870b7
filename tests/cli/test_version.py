"""The package's version: the installed distribution's, as --version prints it."""

from __future__ import annotations

from importlib.metadata import version

from ascend_dsa.cli.version import DISTRIBUTION, package_version


def test_the_version_is_the_installed_distributions() -> None:
    """package_version reads the metadata of the ascend-dsa distribution."""
    assert DISTRIBUTION == "ascend-dsa"
    assert package_version() == version("ascend-dsa")
