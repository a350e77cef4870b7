"""The package as users get it: a wheel with only the package inside, which installs with its runtime dependencies.

The slow test (marked ``wheel``) builds the wheel with the pinned build and hatchling, installs it with the pinned
uv into a fresh virtual environment and runs the command line from a folder outside the project, so nothing but
the wheel and numpy, ml-dtypes and matplotlib is there to be read.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from ascend_dsa.cli import main

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
VERSION = PYPROJECT["project"]["version"]
#: Distributions a clean install of the wheel may bring: the package, its runtime dependencies and theirs.
RUNTIME_CLOSURE = frozenset(
    {
        "ascend-dsa",
        "numpy",
        "ml-dtypes",
        "matplotlib",
        "contourpy",
        "cycler",
        "fonttools",
        "kiwisolver",
        "packaging",
        "pillow",
        "pyparsing",
        "python-dateutil",
        "six",
        "tzdata",
    }
)


def run(*argv: str | Path, cwd: Path) -> str:
    """Run a command in ``cwd``; fail the test with its output if it exits non-zero, else return its stdout."""
    done = subprocess.run([str(a) for a in argv], cwd=cwd, capture_output=True, text=True, check=False, timeout=600)
    if done.returncode != 0:
        pytest.fail(f"{argv[:3]} exited {done.returncode}:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    return done.stdout


def test_version_option_prints_the_project_version(capsys: pytest.CaptureFixture[str]) -> None:
    """`ascend-dsa --version` prints the version pyproject.toml declares and exits 0."""
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"ascend-dsa {VERSION}"


def test_runtime_dependencies_are_the_three_the_package_imports() -> None:
    """The wheel asks for numpy, ml-dtypes and matplotlib only; the toolchain lives in dependency groups."""
    names = {dep.split(">")[0].split("=")[0].strip() for dep in PYPROJECT["project"]["dependencies"]}
    assert names == {"numpy", "ml-dtypes", "matplotlib"}
    assert {"docs", "test", "lint"} <= PYPROJECT["dependency-groups"].keys()


def _normalised(name: str) -> str:
    """A distribution name as PEP 503 compares it."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirement_name(requirement: str) -> str:
    """The distribution a PEP 508 requirement string names."""
    match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement)
    assert match is not None, requirement
    return _normalised(match.group(0))


def test_lock_pins_every_declared_dependency_with_hashes() -> None:
    """The lock, as `make lock` writes it, pins every runtime and group dependency with == and sha256 hashes."""
    text = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    assert "make lock" in text.splitlines()[1]
    entries = re.split(r"\n(?=[A-Za-z0-9])", text.split("\n", 2)[2])
    pinned = {}
    for entry in entries:
        head = entry.split(" \\", 1)[0]
        assert re.fullmatch(r"[A-Za-z0-9._-]+==[^ ;]+( ; .+)?", head), head
        assert re.search(r"--hash=sha256:[0-9a-f]{64}", entry), head
        pinned[_requirement_name(head)] = head
    declared = [*PYPROJECT["project"]["dependencies"], *(d for g in PYPROJECT["dependency-groups"].values() for d in g)]
    assert {_requirement_name(d) for d in declared} <= pinned.keys()


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from the working tree by the pinned build and hatchling, without network."""
    out = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", out, ROOT, cwd=out)
    (built,) = out.glob("ascend_dsa-*.whl")
    return built


@pytest.mark.wheel
def test_wheel_holds_only_the_package(wheel: Path) -> None:
    """The wheel holds ascend_dsa (with py.typed) and its metadata, and nothing from docs/ or tests/."""
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names}
    assert tops == {"ascend_dsa", f"ascend_dsa-{VERSION}.dist-info"}
    assert "ascend_dsa/py.typed" in names
    assert "ascend_dsa/__main__.py" in names


@pytest.mark.wheel
def test_wheel_installs_alone_and_runs_the_command(wheel: Path, tmp_path: Path) -> None:
    """In a fresh venv the wheel brings only its runtime closure; --version and head-roofline --assert-report pass."""
    venv = tmp_path / "venv"
    uv = Path(sys.executable).with_name("uv")
    run(uv, "venv", "--quiet", "--python", sys.executable, venv, cwd=tmp_path)
    python = venv / "bin" / "python"
    # The lock's pins as constraints: the same numpy, ml-dtypes and matplotlib as the site is built with.
    run(
        uv,
        "pip",
        "install",
        "--quiet",
        "--python",
        python,
        "--constraint",
        ROOT / "requirements.lock",
        wheel,
        cwd=tmp_path,
    )
    listing = json.loads(run(uv, "pip", "list", "--format", "json", "--python", python, cwd=tmp_path))
    installed = {entry["name"].lower().replace("_", "-") for entry in listing}
    assert installed <= RUNTIME_CLOSURE
    assert {"ascend-dsa", "numpy", "ml-dtypes", "matplotlib"} <= installed
    command = venv / "bin" / "ascend-dsa"
    assert run(command, "--version", cwd=tmp_path).strip() == f"ascend-dsa {VERSION}"
    assert "OK" in run(command, "head-roofline", "--assert-report", cwd=tmp_path)
