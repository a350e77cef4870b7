"""Mutation score of the model: cosmic-ray mutates one module at a time and runs that module's fast tests.

    .venv/bin/python benchmarks/mutation.py [--modules models/roofline.py ...] [--sample N] [--cosmic-ray PATH]
    make mutation                       # every module of MODULES, then the summary

Each module is mutated in a copy of the repository (src, tests, docs, pyproject.toml) in a temporary folder, so the
work tree is never left mutated. A mutant is killed when the module's tests fail (``pytest -x``, the fast markers
only), survives when they pass, and is incompetent when cosmic-ray cannot run it (a timeout, say). The score is
killed / (killed + survived). The summary (per module: mutants, killed, survived, and each survivor's diff with
the reason it is equivalent, or "not yet killed") is written to ``benchmarks/mutation-summary.md`` and ``.json``
and printed. Goal: 85 % killed over facts, models, report and cli. Too slow for CI (minutes per module on two
cores); ``--sample 30`` runs a random 30 mutants of each module for a quick look.

Only the modules in ``MODULES`` are run, each against the tests listed for it (the whole fast suite per mutant
would take hours); a module not listed has no score yet.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUMMARY_MD = ROOT / "benchmarks" / "mutation-summary.md"
SUMMARY_JSON = ROOT / "benchmarks" / "mutation-summary.json"
GOAL = 0.85
MARKERS = "not build and not site and not browser and not wheel"
TIMEOUT_S = 120.0

#: Module (below src/ascend_dsa) -> the fast tests that speak for it: its mirror and the tests that pin its values.
MODULES: dict[str, tuple[str, ...]] = {
    "models/roofline.py": ("tests/models/test_roofline.py", "tests/models/test_boundaries.py"),
    "models/memory_plans.py": (
        "tests/models/test_memory_plans.py",
        "tests/models/test_boundaries.py",
        "tests/models/test_design_point.py",
    ),
    "report/rules.py": ("tests/report/test_rule_boundaries.py", "tests/report/test_claims.py"),
    "facts/kernel_rules.py": ("tests/facts/test_kernel_rules.py", "tests/facts/test_kernel_rule_boundaries.py"),
    "models/design_point.py": ("tests/models/test_design_point.py", "tests/models/test_boundaries.py"),
    "cli/exit_status.py": ("tests/cli/test_contract.py",),
}

#: Survivors shown to be equivalent (no input tells them from the original), by module and mutated line, with why.
EQUIVALENT: dict[tuple[str, str], str] = {
    ("models/roofline.py", "return Verdict.COMPUTE_BOUND if self.ratio >= 1.0 else Verdict.MEMORY_BOUND"): (
        "equivalent: a ratio of exactly 1 never gets here, the balanced branch above takes it for any band >= 0"
    ),
    ("report/rules.py", "return list(zip(mine, published, strict=False))"): (
        "equivalent: the two lists are made the same length (or None returned) just above, so strict never fires"
    ),
}
#: ``*`` turned into ``/`` in a signature: the parameters before it become positional-only, the ones after it
#: positional-or-keyword. Equivalent when every caller passes the earlier ones by position and the later by keyword,
#: as the callers of ``_ub_plan``'s ``field`` and of ``_broken_format_rules`` do.
SIGNATURE_REASON = "equivalent: `*` made `/` in a signature whose callers pass the earlier arguments by position"
#: A ``|`` inside a type hint: ``name: int | None``, ``-> int | None``, ``[int | float]``.
_ANNOTATION_OR = re.compile(r"(?::|->)\s*[\w.\[\], ]*[\w\]]\s*\|")
ANNOTATION_REASON = "equivalent: a type hint, never evaluated (`from __future__ import annotations`); not run"
TYPE_CHECKING_REASON = "equivalent: only changes whether type-only names are also imported at run time; not run"


def equivalent_reason(module: str, operator: str, removed: str, added: str) -> str:
    """Why a survivor is equivalent, or "not yet killed": listed by hand, or a ``|`` mutated inside a type hint."""
    if (module, added) in EQUIVALENT:
        return EQUIVALENT[module, added]
    if "BitOr" in operator and _ANNOTATION_OR.search(removed):
        return ANNOTATION_REASON
    if "Mul" in operator and ", *," in removed and ", /," in added:
        return SIGNATURE_REASON
    return "not yet killed"


@dataclass
class ModuleScore:
    """One module's mutants and what became of them."""

    module: str
    tests: tuple[str, ...]
    mutants: int = 0
    killed: int = 0
    survived: int = 0
    incompetent: int = 0
    seconds: float = 0.0
    candidates: int = 0  # mutants left to run after those set aside; a --sample run runs only some of them
    set_aside: int = 0  # mutants equivalent by construction, not run
    survivors: list[dict[str, str]] = field(default_factory=list)

    @property
    def equivalent(self) -> int:
        """Survivors listed as equivalent."""
        return sum(1 for s in self.survivors if s["reason"].startswith("equivalent"))

    @property
    def score_without_equivalent(self) -> float:
        """Killed over killed and the survivors not shown equivalent."""
        ran = self.killed + self.survived - self.equivalent
        return self.killed / ran if ran else 0.0

    @property
    def score(self) -> float:
        """Killed over killed and survived (incompetent mutants, which cannot even run, count for neither)."""
        ran = self.killed + self.survived
        return self.killed / ran if ran else 0.0


def _copy_repository(into: Path) -> None:
    for name in ("src", "tests", "docs", "hooks"):
        shutil.copytree(
            ROOT / name, into / name, ignore=shutil.ignore_patterns("__pycache__", "vendor", "*.pyc"), symlinks=True
        )
    for name in ("pyproject.toml", "mkdocs.yml", "README.md"):
        shutil.copy2(ROOT / name, into / name)


def _config(module: str, tests: tuple[str, ...]) -> str:
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly"]
    command += ["-m", f"'{MARKERS}'", *tests]
    return (
        "[cosmic-ray]\n"
        f'module-path = "src/ascend_dsa/{module}"\n'
        f"timeout = {TIMEOUT_S}\n"
        "excluded-modules = []\n"
        f'test-command = "{" ".join(command)}"\n\n'
        '[cosmic-ray.distributor]\nname = "local"\n'
    )


def _drop(db: sqlite3.Connection, job_ids: list[str]) -> None:
    db.executemany("DELETE FROM mutation_specs WHERE job_id = ?", [(i,) for i in job_ids])
    db.executemany("DELETE FROM work_items WHERE job_id = ?", [(i,) for i in job_ids])


def _set_aside_equivalent(session: Path, source: list[str]) -> list[dict[str, str]]:
    """Drop, unrun, the mutants equivalent by construction (a ``|`` in a type hint, ``if TYPE_CHECKING``)."""
    aside, drop = [], []
    with sqlite3.connect(session) as db:
        rows = db.execute("SELECT job_id, operator_name, start_pos_row FROM mutation_specs").fetchall()
        for job_id, operator, row in rows:
            line = source[row - 1].strip()
            reason = ""
            if "BitOr" in operator and _ANNOTATION_OR.search(line):
                reason = ANNOTATION_REASON
            elif line == "if TYPE_CHECKING:":
                reason = TYPE_CHECKING_REASON
            if reason:
                drop.append(job_id)
                aside.append({"operator": operator, "line": str(row), "diff": f"-{line}", "reason": reason})
        _drop(db, drop)
    return aside


def _sample(session: Path, keep: int, seed: int) -> None:
    """Keep ``keep`` random work items of the session (and their mutations), dropping the rest."""
    with sqlite3.connect(session) as db:
        ids = [row[0] for row in db.execute("SELECT job_id FROM work_items")]
        kept = set(random.Random(seed).sample(ids, min(keep, len(ids))))
        _drop(db, [i for i in ids if i not in kept])


def run_module(module: str, cosmic_ray: str, sample: int | None, seed: int) -> ModuleScore:
    """Mutate ``module`` in a copy of the repository and run its tests against each mutant."""
    tests = MODULES[module]
    score = ModuleScore(module, tests)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="mutation-") as folder:
        work = Path(folder)
        _copy_repository(work)
        (work / "cosmic-ray.toml").write_text(_config(module, tests), encoding="utf-8")
        env = {**os.environ, "PYTHONPATH": str(work / "src"), "PYTHONDONTWRITEBYTECODE": "1"}
        session = work / "session.sqlite"
        subprocess.run([cosmic_ray, "init", "cosmic-ray.toml", str(session)], cwd=work, env=env, check=True)  # noqa: S603 - our own tool
        source = (work / "src" / "ascend_dsa" / module).read_text(encoding="utf-8").splitlines()
        aside = _set_aside_equivalent(session, source)
        score.set_aside = len(aside)
        score.mutants += len(aside)
        score.survived += len(aside)
        score.survivors += aside
        with sqlite3.connect(session) as db:
            score.candidates = db.execute("SELECT COUNT(*) FROM work_items").fetchone()[0]
        if sample is not None:
            _sample(session, sample, seed)
        subprocess.run([cosmic_ray, "exec", "cosmic-ray.toml", str(session)], cwd=work, env=env, check=True)  # noqa: S603
        dump = subprocess.run(  # noqa: S603
            [cosmic_ray, "dump", str(session)], cwd=work, env=env, check=True, capture_output=True, text=True
        ).stdout
    for line in dump.splitlines():
        item, result = json.loads(line)
        if result is None:
            continue
        score.mutants += 1
        outcome = str(result.get("test_outcome")).lower()
        if outcome == "killed":
            score.killed += 1
        elif outcome == "incompetent":
            score.incompetent += 1
        else:
            score.survived += 1
            diff = result.get("diff") or ""
            removed = next((d[1:].strip() for d in diff.splitlines() if d.startswith("-") and d[:3] != "---"), "")
            added = next((d[1:].strip() for d in diff.splitlines() if d.startswith("+") and d[:3] != "+++"), "")
            mutation = item["mutations"][0]
            operator = mutation["operator_name"]
            score.survivors.append(
                {
                    "operator": operator,
                    "line": str(mutation["start_pos"][0]),
                    "diff": diff,
                    "reason": equivalent_reason(module, operator, removed, added),
                }
            )
    score.seconds = time.perf_counter() - start
    return score


def _markdown(scores: list[ModuleScore], command: str) -> str:
    lines = [
        "# Mutation score (last run)",
        "",
        f"Made by `{command}` (cosmic-ray 8.7.0; each module against the tests listed). Mutants equivalent by",
        "construction (a `|` in a type hint, `if TYPE_CHECKING`) are set aside unrun and counted as equivalent",
        "survivors; the rest are the candidates, all run unless `--sample N` picks N of them at random.",
        "",
        (
            "| module | mutants | run of candidates | killed | survived | of which equivalent | incompetent | score "
            "| score without equivalent | minutes | tests |"
        ),
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    lines.extend(
        f"| {s.module} | {s.mutants} | {s.mutants - s.set_aside} of {s.candidates} | "
        f"{s.killed} | {s.survived} | {s.equivalent} | {s.incompetent} | "
        f"{s.score:.1%} | {s.score_without_equivalent:.1%} | {s.seconds / 60:.1f} | "
        f"{', '.join(Path(t).name for t in s.tests)} |"
        for s in scores
    )
    total = ModuleScore("all", ())
    for s in scores:
        total.mutants += s.mutants
        total.killed += s.killed
        total.survived += s.survived
        total.incompetent += s.incompetent
        total.survivors += s.survivors
    lines += [
        "",
        (
            f"Overall: {total.score:.1%} of {total.killed + total.survived} mutants killed; "
            f"{total.score_without_equivalent:.1%} of those not shown equivalent (goal {GOAL:.0%})."
        ),
        "",
    ]
    for s in scores:
        if s.survivors:
            lines += [f"## Survivors in {s.module}", ""]
            for survivor in s.survivors:
                lines += [
                    f"- line {survivor['line']}, {survivor['operator']}: {survivor['reason']}",
                    "",
                    "```diff",
                    *[d for d in survivor["diff"].splitlines() if d.startswith(("+", "-", "@@"))],
                    "```",
                    "",
                ]
    return "\n".join(lines)


def main() -> int:
    """Run the modules asked for (all of MODULES by default) and write the summary."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--modules", nargs="+", choices=sorted(MODULES), default=list(MODULES))
    parser.add_argument("--sample", type=int, default=None, help="run only this many random mutants per module")
    parser.add_argument("--seed", type=int, default=20, help="seed of the sample")
    parser.add_argument(
        "--cosmic-ray", default=shutil.which("cosmic-ray") or str(Path(sys.executable).with_name("cosmic-ray"))
    )
    args = parser.parse_args()
    scores = []
    for module in args.modules:
        score = run_module(module, args.cosmic_ray, args.sample, args.seed)
        print(f"{module}: {score.killed}/{score.killed + score.survived} killed ({score.score:.1%})", flush=True)
        scores.append(score)
    command = "benchmarks/mutation.py " + " ".join(sys.argv[1:])
    SUMMARY_MD.write_text(_markdown(scores, command.strip()) + "\n", encoding="utf-8")
    SUMMARY_JSON.write_text(
        json.dumps([{**asdict(s), "score": s.score} for s in scores], indent=1) + "\n", encoding="utf-8"
    )
    print(_markdown(scores, command.strip()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
