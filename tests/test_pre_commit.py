"""The pre-commit hooks run exactly the lint and type-check commands of `make test`, with the locked tools."""

from __future__ import annotations

import re

import yaml

from tests.helpers.project import ROOT


def make_recipes(target: str) -> list[str]:
    """The command lines of one Makefile target, with ``$(BIN)`` spelled out as ``.venv/bin``."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    match = re.search(rf"^{target}:[^\n]*\n((?:\t[^\n]*\n)+)", makefile, re.MULTILINE)
    assert match is not None, f"no target {target!r} in the Makefile"
    return [line.strip().replace("$(BIN)", ".venv/bin") for line in match.group(1).splitlines()]


def test_hooks_are_the_makefile_lint_and_typecheck_commands() -> None:
    """Each local hook's entry is one of `make lint` / `make typecheck`'s commands, and together they are all."""
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    (repo,) = config["repos"]
    assert repo["repo"] == "local"
    assert all(hook["language"] == "system" and hook["pass_filenames"] is False for hook in repo["hooks"])
    entries = [hook["entry"] for hook in repo["hooks"]]
    assert entries == [*make_recipes("lint"), *make_recipes("typecheck")]


def test_test_target_runs_lint_and_typecheck() -> None:
    """`make test` depends on the two targets the hooks mirror."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^test: setup lint typecheck pytest$", makefile, re.MULTILINE)
