"""The README's lists of the files a new chip and a new ledger touch are enough, and are all that is touched.

A throwaway chip preset and a throwaway ledger are added to a temporary copy of ``src/``, writing and editing only
files that the README's "A chip" and "A ledger" entries name; then the command line runs on the copy in a fresh
interpreter (``PYTHONPATH`` at the copy): ``--chip`` and ``claims --source`` offer both, the roofline table is
computed for the new chip, and the new ledger's claims are checked, listed and pass. No site is built.
"""

from __future__ import annotations

import filecmp
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

THROWAWAY_CHIP = '''"""A made-up chip, added by tests/test_contributing.py to a temporary copy of the package."""

from ascend_dsa.facts.hardware import CHIP_FIELD_UNITS, ChipSpec
from ascend_dsa.facts.provenance import Source
from ascend_dsa.lang import Text
from ascend_dsa.units import TB, KiB, MHz

THROWAWAY_X1 = ChipSpec(
    name="Throwaway X1",
    clock_hz=1000 * MHz,
    matrix_fma_per_cycle_per_core=1024,
    cores=64,
    bandwidth_bytes_per_s=2 * TB,
    accumulator_bytes_per_core=128 * KiB,
    staging_bytes_per_core=64 * KiB,
    bandwidth=Text("HBM", "HBM"),
    accumulator=Text("寄存器堆", "register file"),
    staging=Text("共享内存", "shared memory"),
    ascend=None,
    sources={name: Source("made up for a test", "assumed", note="a throwaway preset") for name in CHIP_FIELD_UNITS},
)
'''
CHIP_RECORD = """
from ascend_dsa.facts.throwaway_x1 import THROWAWAY_X1

THROWAWAY_PRESET = ChipPreset("throwaway-x1", THROWAWAY_X1, MLA_V32, core="core", described="a made-up chip")
"""

THROWAWAY_FIGURES = '''"""The figures of a made-up ledger (tests/test_contributing.py)."""

from ascend_dsa.facts.hopper import FP8_BLOG_PATH, hopper_cite
from ascend_dsa.facts.report_figures import PublishedFigure, figure_named

THROWAWAY_FIGURES = (PublishedFigure("throwaway-sms", 132, "SMs", hopper_cite(FP8_BLOG_PATH, 17)),)


def throwaway_figure(key: str) -> PublishedFigure:
    return figure_named(THROWAWAY_FIGURES, key, "throwaway figure")
'''
THROWAWAY_CLAIMS = '''"""The claims of a made-up ledger (tests/test_contributing.py)."""

from ascend_dsa.facts.hopper import H800
from ascend_dsa.report.rules import EXACT, Claim

THROWAWAY_CLAIMS = (
    Claim("throwaway-sms", "discussion/two-chips", EXACT, "H800 有 132 个 SM", "the H800 has 132 SMs",
          lambda _: H800.cores),
)
'''
LEDGER_RECORD = """
from ascend_dsa.facts.throwaway_figures import throwaway_figure
from ascend_dsa.report.ledger_throwaway import THROWAWAY_CLAIMS

THROWAWAY_LEDGER = Ledger(
    key="throwaway",
    claims=THROWAWAY_CLAIMS,
    figure=throwaway_figure,
    chapters=("discussion/two-chips",),
    documents=Text("试验文档", "the throwaway documents"),
    figures_name="the throwaway figures",
    theirs="published",
    theirs_column=Text("发表的", "published"),
    names_files=True,
    stated_note=Text("（常量）", " (constant)"),
    design_applies=False,
    preset="H800",
    noun="throwaway claims",
    agree_with="the throwaway figures",
    heading="Throwaway figures",
)
"""


def listed_files(entry: str) -> list[str]:
    """The ``src/`` paths the README's English Contributing entry ``**entry**`` names, placeholders as written."""
    english = README.read_text(encoding="utf-8").split("**English**", 1)[1]
    match = re.search(rf"^- \*\*{re.escape(entry)}\*\*:(.*?)(?=^- \*\*|\Z)", english, re.MULTILINE | re.DOTALL)
    assert match, f"README has no Contributing entry **{entry}**"
    return re.findall(r"`(src/[^`]+)`", match.group(1))


def matches_listed(path: str, listed: list[str]) -> bool:
    """Whether ``path`` is one of ``listed``, a ``<placeholder>`` standing for one name."""
    return any(re.fullmatch(re.sub(r"<[^>]+>", "[a-z0-9_]+", re.escape(p)), path) for p in listed)


def edit(path: Path, anchor: str, replacement: str) -> None:
    """Replace the one ``anchor`` in ``path`` (the test fails loudly if the file no longer has it)."""
    text = path.read_text(encoding="utf-8")
    assert text.count(anchor) == 1, f"{path.name} no longer has {anchor!r}"
    path.write_text(text.replace(anchor, replacement), encoding="utf-8")


def touched(copy: Path, original: Path) -> list[str]:
    """The files of ``copy`` that are new or differ from ``original``, relative to the project (``src/...``)."""
    changed = []
    for path in sorted(copy.rglob("*.py")):
        twin = original / path.relative_to(copy)
        if not twin.exists() or not filecmp.cmp(path, twin, shallow=False):
            changed.append(f"src/{path.relative_to(copy).as_posix()}")
    return changed


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of ``src/`` with a throwaway chip and a throwaway ledger added, touching only the files listed."""
    src = tmp_path_factory.mktemp("project") / "src"
    shutil.copytree(ROOT / "src", src, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    package = src / "ascend_dsa"
    (package / "facts" / "throwaway_x1.py").write_text(THROWAWAY_CHIP, encoding="utf-8")
    chips = package / "facts" / "chips.py"
    edit(chips, "\n#: ``--chip`` values and their presets", CHIP_RECORD + "\n#: ``--chip`` values and their presets")
    edit(chips, "(ASCEND_950_PRESET, H800_PRESET)", "(ASCEND_950_PRESET, H800_PRESET, THROWAWAY_PRESET)")
    (package / "facts" / "throwaway_figures.py").write_text(THROWAWAY_FIGURES, encoding="utf-8")
    (package / "report" / "ledger_throwaway.py").write_text(THROWAWAY_CLAIMS, encoding="utf-8")
    ledgers = package / "report" / "ledgers.py"
    edit(ledgers, "\n#: Every ledger by its name", LEDGER_RECORD + "\n#: Every ledger by its name")
    edit(ledgers, "(REPORT_LEDGER, HOPPER_LEDGER)", "(REPORT_LEDGER, HOPPER_LEDGER, THROWAWAY_LEDGER)")
    return src


def run(project: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """``python -m ascend_dsa ARGV`` on the copy, in a fresh interpreter."""
    env = {**os.environ, "PYTHONPATH": str(project), "COLUMNS": "200"}
    return subprocess.run(
        [sys.executable, "-m", "ascend_dsa", *argv], capture_output=True, text=True, env=env, check=False, timeout=120
    )


def test_the_copy_touches_only_the_files_the_readme_lists(project: Path) -> None:
    """Every file new or changed in the copy is one the README's "A chip" or "A ledger" entry names."""
    listed = listed_files("A chip") + listed_files("A ledger")
    assert "src/ascend_dsa/facts/chips.py" in listed
    assert "src/ascend_dsa/report/ledgers.py" in listed
    changed = touched(project, ROOT / "src")
    assert len(changed) == 5, changed
    assert [path for path in changed if not matches_listed(path, listed)] == []


def test_the_copy_is_what_runs(project: Path) -> None:
    """The interpreter the commands run in imports the copy, not the working tree."""
    env = {**os.environ, "PYTHONPATH": str(project)}
    found = subprocess.run(
        [sys.executable, "-c", "import ascend_dsa; print(ascend_dsa.__file__)"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout
    assert found.startswith(str(project)), found


def test_the_new_chip_is_offered_and_computed(project: Path) -> None:
    """--chip offers the new preset; head-roofline computes its table; ub-plan refuses it (no UB), saying so."""
    assert "throwaway-x1" in run(project, "head-roofline", "--help").stdout
    table = run(project, "head-roofline", "--chip", "throwaway-x1")
    assert table.returncode == 0, table.stderr
    assert "(Throwaway X1; the report's model on another chip" in table.stdout
    refused = run(project, "ub-plan", "--mode", "prefill", "--chip", "throwaway-x1")
    assert refused.returncode == 2
    assert "--chip throwaway-x1 has no UB" in refused.stderr


def test_the_new_ledger_is_offered_checked_and_listed(project: Path) -> None:
    """claims --source offers the new ledger, lists its claim passing, and --source all lists all three ledgers."""
    assert "throwaway" in run(project, "claims", "--help").stdout
    alone = run(project, "claims", "--source", "throwaway")
    assert alone.returncode == 0, alone.stderr
    assert "PASS  throwaway-sms: the H800 has 132 SMs" in alone.stdout
    assert "1 of 1 throwaway claims agree with the throwaway figures (H800)." in alone.stdout
    every = run(project, "claims", "--source", "all")
    assert every.returncode == 0, every.stderr
    for summary in ("claims agree with the report", "Hopper claims agree", "throwaway claims agree"):
        assert summary in every.stdout
