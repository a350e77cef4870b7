"""Mutation score of the model: cosmic-ray mutates every module of facts, models, report and cli against its tests.

    .venv/bin/python benchmarks/mutation.py                       # every mutant of every module (hours)
    .venv/bin/python benchmarks/mutation.py --sample 400 --seed 20  # a stratified sample of 400 mutants
    make mutation                                                 # the full run, then the summary

The repository's tracked files are copied once into a temporary folder, so the work tree is never left mutated.
Each module is run against its own tests only: its mirror ``tests/<layer>/test_<module>*.py`` and every test file
that imports it (by its dotted path, or one of the names it owns through the ``ascend_dsa`` facade), fast markers
only, ``pytest -x``. Before any mutant, those tests run once unmutated: a module whose tests fail is reported, not
scored. A mutant is killed when the tests fail or pass the per-mutant timeout (``--timeout``), survives when they
pass, and is incompetent when cosmic-ray cannot run it. The score is killed / (killed + survived).

``--sample N`` is stratified: every module with a mutant gets at least one, the rest of N is shared out in
proportion to each module's candidates (largest remainder), and each module's mutants are drawn with a seed made
from ``--seed`` and the module's name, so the same N and seed give the same mutants. The summary states each
layer's sample size against its candidates, the raw score with a 95 % Wilson interval, and the score weighted by
the modules' candidates. Mutants equivalent by construction (a ``|`` in a type hint, ``if TYPE_CHECKING``) are set
aside unrun. The summary (per module: mutants, killed, survived, and each survivor's diff with the reason it is
equivalent, or "not yet killed") is rewritten after every module to ``benchmarks/mutation-summary.md`` and
``.json``. The whole run lowers its own priority (``nice``); it is too slow for CI.
"""

from __future__ import annotations

import argparse
import ast
import functools
import json
import math
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from ascend_dsa.imports import facade_homes, module_graph, package_modules, read_imports

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "ascend_dsa"
SUMMARY_MD = ROOT / "benchmarks" / "mutation-summary.md"
SUMMARY_JSON = ROOT / "benchmarks" / "mutation-summary.json"
GOAL = 0.85
LAYERS = ("facts", "models", "report", "cli")
MARKERS = "not build and not site and not browser and not wheel"
TIMEOUT_S = 60.0
NICE = 19
Z_95 = 1.959964  # two-sided 95 % quantile of the standard normal, for the Wilson interval

#: Survivors shown to be equivalent (no input tells them from the original), by module and mutated line, with why.
EQUIVALENT: dict[tuple[str, str], str] = {
    ("models/roofline.py", "return Verdict.COMPUTE_BOUND if self.ratio >= 1.0 else Verdict.MEMORY_BOUND"): (
        "equivalent: a ratio of exactly 1 never gets here, the balanced branch above takes it for any band >= 0"
    ),
    ("report/rules.py", "return list(zip(mine, published, strict=False))"): (
        "equivalent: the two lists are made the same length (or None returned) just above, so strict never fires"
    ),
    ("models/blocked_forward.py", "if np.array_equal(listed, np.arange(first, first - listed.size)):"): (
        "equivalent: the same rows are then picked by index (a copy) instead of by slice (a view); same values"
    ),
    ("models/blocked_forward.py", "if stop != start:"): (
        "equivalent: when stop < start the slice start:stop is empty and the product adds zeros, as skipping does"
    ),
    ("models/design_sweep.py", "wins = (u > worst) | ((u == worst) & (last <= binding))"): (
        "equivalent: binding holds only limits compared before the last one, never last itself, so < and <= agree"
    ),
    ("models/design_sweep.py", "if len(index) is not len(AXES):"): (
        "equivalent: both lengths are small ints, which CPython keeps one object each of, so `is not` acts as !="
    ),
    ("facts/kv_formats.py", 'KV_CACHE_FORMAT_H = KV_CACHE_FORMAT_PATH.rsplit("/", 2)[-1]'): (
        "equivalent: the last piece after splitting at the last one or two slashes is the same file name"
    ),
    (
        "report/prose_values.py",
        "ub_nz_stride_bytes(SHIPPED_KERNEL) // nz_block_bytes(SHIPPED_KERNEL) // SHIPPED_KERNEL.b_topk_per_vector_core",
    ): "equivalent: a prose value of the shipped kernel, no input: 33 // 32 and 33 - 32 are both the 1 padding row",
    ("report/prose_values.py", "if at_threshold is None and (rise < threshold).any():"): (
        "equivalent: reads only the constant trace, whose first block rising to the threshold (1) is also the first "
        "where some head rises less"
    ),
    ("models/kv_quant.py", 'if fmt.element < "e2m1":'): (
        "equivalent: no element sorts below e2m1 but bf16, which is never quantised; for e2m1 the clamp is dropped, "
        "and ml_dtypes' cast to float4_e2m1fn saturates at 6 just as the clamp does"
    ),
    ("models/kv_quant.py", 'dtype = UE8M0 if fmt.scale >= "ue8m0" else E4M3'): (
        "equivalent: a scale is ue8m0 or e4m3 (ScaleKind, checked by KvTokenFormat), and e4m3 sorts below ue8m0"
    ),
    ("models/mte2.py", "return len(token_byte_ranges(layout, 1, 2, adjacent=adjacent))"): (
        "equivalent: every token of a block has as many byte ranges as token 0 (one adjacent, two split)"
    ),
    (
        "models/nd2nz_stride.py",
        "period = UB_VECTOR_BYTES ** block  # the slots repeat every ``period`` rows of padding: no more can help",
    ): (
        "equivalent: the bank slots repeat every 256 / 32 = 8 padding rows, so trying up to the limit instead of up "
        "to 8 rows finds the same first answer, or none"
    ),
    ("models/pipeline.py", "for step in range(blocks + pipeline_depth(schedule) << 1):"): (
        "equivalent: the extra steps place no op (every block they would reach lies past the last), as the loop skips"
    ),
    (
        "models/pipeline.py",
        'stuck = [f"{q[heads[u]].task.value}[{q[heads[u]].block}]" for u, q in queues.items() if heads[u] != len(q)]',
    ): "equivalent: a queue's head never passes its length, so != and < pick the same stuck queues",
    ("models/reference.py", "safe_sum = np.where(lonely[:, None], 2.0, sumexp).astype(dtype)"): (
        "equivalent: a lonely token's weights are all 0, so its out is 0 over any safe sum, and its lse is +inf"
    ),
    (
        "models/skip_scale.py",
        'require_finite("threshold", threshold, minimum=0.0), require_finite("sm_scale", sm_scale, positive=False)',
    ): "equivalent: raw_logit_threshold refuses sm_scale = 0 next, with the same error and words",
    ("models/skip_scale.py", "@lru_cache(maxsize= 255)"): "equivalent: a cache one entry smaller; the same values",
    (
        "models/skip_scale.py",
        "share = Fraction(measurement.o_copies_with_skip_scale).limit_denominator(10** 7) / measurement.blocks",
    ): "equivalent: the copies are a mean of whole counts over the measured tokens, a denominator far below 10^6",
    ("cli/head_roofline.py", "if round(point.l2_cycles) <= 0:"): (
        "equivalent: L2 cycles are bytes over a positive bandwidth, never negative, so <= 0 and == 0 agree"
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


def all_modules() -> list[str]:
    """Every module of the scored layers, as a path below src/ascend_dsa, in layer order."""
    return [f"{layer}/{p.name}" for layer in LAYERS for p in sorted((PACKAGE / layer).glob("*.py"))]


@functools.cache
def _facade_names() -> dict[str, set[str]]:
    """Dotted module -> the names ``ascend_dsa/__init__.py`` re-exports from it."""
    owned: dict[str, set[str]] = {}
    for name, module in facade_homes((PACKAGE / "__init__.py").read_text(encoding="utf-8")).items():
        owned.setdefault(module, set()).add(name)
    return owned


@functools.cache
def _facade_imports(source: str) -> frozenset[str]:
    """The names a test file takes from the ``ascend_dsa`` facade: imported by name, or read as ``ascend_dsa.X``."""
    found = read_imports(source, "tests.fake").imports
    names = {i.name for i in found if i.module == "ascend_dsa" and i.name is not None}
    aliases = {"ascend_dsa"} | {i.alias for i in found if i.module == "ascend_dsa" and i.name is None}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
            names.add(node.attr)
    return frozenset(names)


#: Test files too slow to run per mutant: the hostile-argument property test of all of ``__all__`` (a minute a run).
TOO_SLOW = frozenset({"tests/test_api_contract.py"})


@functools.cache
def _import_graph() -> dict[str, frozenset[str]]:
    """Each module of the package -> the modules of the package it imports (any import, type-only ones too)."""
    modules = package_modules(ROOT / "src")
    read = {
        name: read_imports(path.read_bytes(), name, is_package=path.name == "__init__.py")
        for name, path in modules.items()
    }
    return module_graph(read, with_type_only=True)


def _dotted(module: str) -> str:
    """``facts/hardware.py`` -> ``ascend_dsa.facts.hardware``."""
    layer, name = module.removesuffix(".py").split("/")
    return f"ascend_dsa.{layer}" if name == "__init__" else f"ascend_dsa.{layer}.{name}"


def _importers(module: str) -> list[str]:
    """The modules of the scored layers that import ``module`` (for a module no test imports directly)."""
    target = _dotted(module)
    graph = _import_graph()
    return [m for m in all_modules() if m != module and target in graph.get(_dotted(m), frozenset())]


@functools.cache
def _submodule_imports(source: str, layer: str) -> frozenset[str]:
    """The modules a test file imports as ``from ascend_dsa.<layer> import <module>, ...``."""
    return frozenset(
        i.name for i in read_imports(source, "tests.fake").imports if i.module == f"ascend_dsa.{layer}" and i.name
    )


def module_tests(module: str, *, hop: bool = True) -> tuple[str, ...]:
    """The fast tests that speak for ``module``, its mirror first, then every test file that imports it.

    A module no test imports (an input table, say) borrows the tests of the modules that import it.
    """
    layer, name = module.removesuffix(".py").split("/")
    dotted = f"ascend_dsa.{layer}" if name == "__init__" else f"ascend_dsa.{layer}.{name}"
    # The mirror: test_<module>*.py, and the layer's own test_<layer>*.py (tests/cli/test_cli.py runs every command).
    globs = (
        ("test_*.py",) if name == "__init__" else (f"test_{name}*.py", f"test_{layer}_{name}*.py", f"test_{layer}.py")
    )
    mirror = sorted(str(p.relative_to(ROOT)) for glob in globs for p in (ROOT / "tests" / layer).glob(glob))
    by_path = re.compile(rf"\b{re.escape(dotted)}\b(?!\.)" if name == "__init__" else rf"\b{re.escape(dotted)}\b")
    owned = _facade_names().get(dotted, set())
    found: list[str] = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        source = path.read_text(encoding="utf-8")
        if by_path.search(source) or name in _submodule_imports(source, layer) or owned & _facade_imports(source):
            found.append(str(path.relative_to(ROOT)))
    tests = [t for t in dict.fromkeys([*mirror, *found]) if t not in TOO_SLOW]
    if not tests and hop:
        tests = [t for m in _importers(module) for t in module_tests(m, hop=False)]
    return tuple(dict.fromkeys(tests))


def _ratio(part: float, whole: float) -> float:
    """``part / whole``, or NaN when ``whole`` is 0 (nothing ran)."""
    return part / whole if whole else math.nan


@dataclass
class ModuleScore:
    """One module's mutants and what became of them."""

    module: str
    tests: tuple[str, ...]
    candidates: int = 0  # mutants that could run, after those set aside
    mutants: int = 0  # mutants run (all candidates, or the sample's share)
    killed: int = 0
    survived: int = 0
    incompetent: int = 0
    set_aside: int = 0  # mutants equivalent by construction, not run
    baseline_failed: bool = False
    seconds: float = 0.0
    survivors: list[dict[str, str]] = field(default_factory=list)
    rechecked: int = 0  # survivors run again by --recheck against the tests as they are now
    killed_on_recheck: int = 0

    @property
    def layer(self) -> str:
        """The layer the module belongs to."""
        return self.module.split("/")[0]

    @property
    def equivalent(self) -> int:
        """Run survivors listed as equivalent (those set aside unrun are not counted)."""
        return sum(
            1 for s in self.survivors if s["reason"].startswith("equivalent") and not s["reason"].endswith("not run")
        )

    @property
    def score(self) -> float:
        """Killed over killed and survived (incompetent mutants, which cannot even run, count for neither)."""
        return _ratio(self.killed, self.killed + self.survived)

    @property
    def score_without_equivalent(self) -> float:
        """Killed over killed and the survivors not shown equivalent."""
        return _ratio(self.killed, self.killed + self.survived - self.equivalent)


def wilson(killed: int, ran: int) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion killed/ran (a sample's honest error bar)."""
    if not ran:
        return (math.nan, math.nan)
    p = killed / ran
    centre = (p + Z_95**2 / (2 * ran)) / (1 + Z_95**2 / ran)
    half = Z_95 * math.sqrt(p * (1 - p) / ran + Z_95**2 / (4 * ran**2)) / (1 + Z_95**2 / ran)
    return (centre - half, centre + half)


def allocate(candidates: dict[str, int], total: int) -> dict[str, int]:
    """Share ``total`` mutants among modules: one each at least, the rest in proportion (largest remainder)."""
    live = {m: c for m, c in candidates.items() if c > 0}
    share = dict.fromkeys(live, 1)
    left = total - len(live)
    pool = sum(c - 1 for c in live.values())
    if left <= 0 or pool == 0:
        return {m: share.get(m, 0) for m in candidates}
    exact = {m: (c - 1) * min(left, pool) / pool for m, c in live.items()}
    for m, x in exact.items():
        share[m] += int(x)
    short = min(left, pool) - sum(int(x) for x in exact.values())
    for m in sorted(live, key=lambda m: (int(exact[m]) - exact[m], m))[:short]:
        share[m] += 1
    return {m: min(share.get(m, 0), candidates[m]) for m in candidates}


def _copy_repository(into: Path) -> None:
    git = shutil.which("git") or "git"
    listing = [git, "ls-files", "-z", "--cached", "--others", "--exclude-standard"]
    listed = subprocess.run(listing, cwd=ROOT, check=True, capture_output=True, text=True).stdout  # noqa: S603
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file() and not source.is_symlink():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, into / name)


def _pytest(tests: tuple[str, ...]) -> list[str]:
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly"]
    return [*command, "-m", MARKERS, *tests]


def _config(module: str, tests: tuple[str, ...], timeout_s: float) -> str:
    command = " ".join(f"'{a}'" if " " in a else a for a in _pytest(tests))
    return (
        "[cosmic-ray]\n"
        f'module-path = "src/ascend_dsa/{module}"\n'
        f"timeout = {timeout_s}\n"
        "excluded-modules = []\n"
        f'test-command = "{command}"\n\n'
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


def _keep(session: Path, keep: int, seed: str) -> None:
    """Keep ``keep`` work items of the session drawn with ``seed`` (and their mutations), dropping the rest."""
    with sqlite3.connect(session) as db:
        ids = sorted(row[0] for row in db.execute("SELECT job_id FROM work_items"))
        kept = set(random.Random(seed).sample(ids, min(keep, len(ids))))
        _drop(db, [i for i in ids if i not in kept])


@dataclass
class Session:
    """One module's cosmic-ray session in the shared copy."""

    score: ModuleScore
    config: Path
    path: Path


def init_module(work: Path, module: str, cosmic_ray: str, env: dict[str, str], timeout_s: float) -> Session:
    """Write the module's config and let cosmic-ray list its mutants; set aside the equivalent-by-construction."""
    tests = module_tests(module)
    score = ModuleScore(module, tests)
    stem = module.replace("/", "-").removesuffix(".py")
    config, session = work / f"cr-{stem}.toml", work / f"cr-{stem}.sqlite"
    config.write_text(_config(module, tests, timeout_s), encoding="utf-8")
    subprocess.run([cosmic_ray, "init", str(config), str(session)], cwd=work, env=env, check=True)  # noqa: S603
    source = (work / "src" / "ascend_dsa" / module).read_text(encoding="utf-8").splitlines()
    aside = _set_aside_equivalent(session, source)
    score.set_aside = len(aside)
    score.survivors += aside
    with sqlite3.connect(session) as db:
        score.candidates = db.execute("SELECT COUNT(*) FROM work_items").fetchone()[0]
    return Session(score, config, session)


def _changed_lines(diff: str) -> tuple[str, str]:
    """The first removed and the first added line of a mutant's diff, stripped: what the mutation did."""
    removed = next((d[1:].strip() for d in diff.splitlines() if d.startswith("-") and d[:3] != "---"), "")
    added = next((d[1:].strip() for d in diff.splitlines() if d.startswith("+") and d[:3] != "+++"), "")
    return removed, added


def run_session(
    work: Path, run: Session, cosmic_ray: str, env: dict[str, str]
) -> dict[tuple[str, str, str, int], bool]:
    """Check the module's tests pass unmutated, then run its (kept) mutants and record each outcome.

    Returns, for each mutant run, whether it survived, keyed by operator, the lines it removed and added, and row.
    """
    score = run.score
    start = time.perf_counter()
    survived: dict[tuple[str, str, str, int], bool] = {}
    with sqlite3.connect(run.path) as db:
        todo = db.execute("SELECT COUNT(*) FROM work_items").fetchone()[0]
    if not todo or not score.tests:
        score.seconds = time.perf_counter() - start
        return survived
    baseline = subprocess.run(_pytest(score.tests), cwd=work, env=env, check=False, capture_output=True)  # noqa: S603
    if baseline.returncode != 0:
        score.baseline_failed = True
        score.seconds = time.perf_counter() - start
        return survived
    subprocess.run([cosmic_ray, "exec", str(run.config), str(run.path)], cwd=work, env=env, check=True)  # noqa: S603
    dump = subprocess.run(  # noqa: S603
        [cosmic_ray, "dump", str(run.path)], cwd=work, env=env, check=True, capture_output=True, text=True
    ).stdout
    for line in dump.splitlines():
        item, result = json.loads(line)
        if result is None:
            continue
        score.mutants += 1
        outcome = str(result.get("test_outcome")).lower()
        diff = result.get("diff") or ""
        removed, added = _changed_lines(diff)
        mutation = item["mutations"][0]
        operator = mutation["operator_name"]
        key = (operator, removed, added, int(mutation["start_pos"][0]))
        if outcome == "killed":
            score.killed += 1
            survived.setdefault(key, False)
        elif outcome == "incompetent":
            score.incompetent += 1
        else:
            score.survived += 1
            survived[key] = True
            score.survivors.append(
                {
                    "operator": operator,
                    "line": str(mutation["start_pos"][0]),
                    "diff": diff,
                    "reason": equivalent_reason(score.module, operator, removed, added),
                }
            )
    score.seconds = time.perf_counter() - start
    return survived


def recheck(work: Path, score: ModuleScore, cosmic_ray: str, env: dict[str, str], timeout_s: float) -> None:
    """Run the module's survivors not shown equivalent again, against its tests as they are now.

    A survivor is found again at its row when that row still reads as it did (the module is unchanged there), else
    by operator and line wherever that line now is; a moved survivor counts as killed when every mutant of that kind
    on such a line is killed now.
    """
    for survivor in score.survivors:  # reasons written since the run
        if survivor["reason"] == "not yet killed":
            survivor["reason"] = equivalent_reason(
                score.module, survivor["operator"], *_changed_lines(survivor["diff"])
            )
    pending = [v for v in score.survivors if v["reason"] == "not yet killed"]
    if not pending:
        return
    source = (work / "src" / "ascend_dsa" / score.module).read_text(encoding="utf-8").splitlines()

    def place(survivor: dict[str, str]) -> tuple[str, str, str, int | None]:
        removed, added = _changed_lines(survivor["diff"])
        row = int(survivor["line"])
        here = 0 < row <= len(source) and source[row - 1].strip() == removed
        return (survivor["operator"], removed, added, row if here else None)

    places = [place(v) for v in pending]
    at_rows = {(op, row) for op, _, _, row in places if row is not None}
    moved = {(op, removed) for op, removed, _, row in places if row is None}
    fresh = init_module(work, score.module, cosmic_ray, env, timeout_s)
    with sqlite3.connect(fresh.path) as db:
        specs = db.execute("SELECT job_id, operator_name, start_pos_row FROM mutation_specs").fetchall()
        keep = [(op, row) in at_rows or (op, source[row - 1].strip()) in moved for _, op, row in specs]
        _drop(db, [job for (job, _, _), kept in zip(specs, keep, strict=True) if not kept])
    outcomes = run_session(work, fresh, cosmic_ray, env)
    if fresh.score.baseline_failed:
        raise SystemExit(f"{score.module}: its tests fail unmutated; nothing rechecked")
    score.tests = fresh.score.tests
    for survivor, (op, removed, added, row) in zip(pending, places, strict=True):
        survivor["rechecked"] = "yes"
        found = [alive for (o, r, a, at), alive in outcomes.items() if (o, r, a) == (op, removed, added)]
        if row is not None:
            found = [alive for (o, r, a, at), alive in outcomes.items() if (o, r, a, at) == (op, removed, added, row)]
        if found and not any(found):
            score.survivors.remove(survivor)
            score.survived -= 1
            score.killed += 1
            score.killed_on_recheck += 1
    score.rechecked = score.killed_on_recheck + sum(1 for v in score.survivors if v.get("rechecked"))


def _percent(x: float) -> str:
    return "-" if math.isnan(x) else f"{x:.1%}"


def _layer_lines(scores: list[ModuleScore]) -> list[str]:
    lines = [
        (
            "| layer | modules | candidates | run | killed | survived | of which equivalent | score | 95 % interval "
            "| weighted by module size | score without equivalent |"
        ),
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |",
    ]
    for layer in LAYERS:
        mine = [s for s in scores if s.layer == layer and not s.baseline_failed]
        if not mine:
            continue
        killed, survived = sum(s.killed for s in mine), sum(s.survived for s in mine)
        equivalent = sum(s.equivalent for s in mine)
        low, high = wilson(killed, killed + survived)
        ran = [s for s in mine if s.killed + s.survived]
        weight = sum(s.candidates for s in ran)
        weighted = _ratio(sum(s.candidates * s.score for s in ran), weight)
        raw = _ratio(killed, killed + survived)
        without = _ratio(killed, killed + survived - equivalent)
        lines.append(
            f"| {layer} | {len(mine)} | {sum(s.candidates for s in mine)} | {sum(s.mutants for s in mine)} | "
            f"{killed} | {survived} | {equivalent} | {_percent(raw)} | "
            f"{_percent(low)} to {_percent(high)} | {_percent(weighted)} | {_percent(without)} |"
        )
    return lines


def _markdown(scores: list[ModuleScore], command: str, done: int, planned: int) -> str:
    state = "complete" if done == planned else f"in progress: {done} of {planned} modules run"
    lines = [
        "# Mutation score (last run)",
        "",
        f"Made by `{command}` (cosmic-ray 8.7.0, {state}). Each module ran against its own fast tests (its mirror and",
        "every test file importing it). Mutants equivalent by construction (a `|` in a type hint, `if TYPE_CHECKING`)",
        "are set aside unrun; the rest are the candidates, all run unless `--sample N` drew N of them, stratified by",
        "module. With a sample, a layer's score is an estimate: the interval is the 95 % Wilson interval of the raw",
        "count, and the weighted score weights each module's score by its candidates.",
        "",
        "## By layer",
        "",
        *_layer_lines(scores),
        "",
        "## By module",
        "",
        (
            "| module | candidates | run | killed | survived | of which equivalent | incompetent | set aside | score "
            "| seconds | tests |"
        ),
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    lines.extend(
        f"| {s.module} | {s.candidates} | {s.mutants} | {s.killed} | {s.survived} | {s.equivalent} | "
        f"{s.incompetent} | {s.set_aside} | {'tests fail unmutated' if s.baseline_failed else _percent(s.score)} | "
        f"{s.seconds:.0f} | {len(s.tests)} |"
        for s in scores
    )
    killed, survived = sum(s.killed for s in scores), sum(s.survived for s in scores)
    equivalent = sum(s.equivalent for s in scores)
    rechecked = sum(s.rechecked for s in scores)
    if rechecked:
        lines += [
            "",
            (
                f"`--recheck` ran the {rechecked} survivors then not shown equivalent again against the tests as they "
                f"are now (new tests and each module's test list as the script finds it today): "
                f"{sum(s.killed_on_recheck for s in scores)} are killed, counted above as killed."
            ),
        ]
    lines += [
        "",
        (
            f"Overall: {killed} of {killed + survived} run mutants killed "
            f"({_percent(_ratio(killed, killed + survived))}); "
            f"{equivalent} survivors shown equivalent (goal {GOAL:.0%} killed per layer)."
        ),
        "",
    ]
    for s in scores:
        run_survivors = [v for v in s.survivors if not v["reason"].endswith("not run")]
        if run_survivors:
            lines += [f"## Survivors in {s.module}", ""]
            for survivor in run_survivors:
                lines += [
                    f"- line {survivor['line']}, {survivor['operator']}: {survivor['reason']}",
                    "",
                    "```diff",
                    *[d for d in survivor["diff"].splitlines() if d.startswith(("+", "-", "@@"))],
                    "```",
                    "",
                ]
    return "\n".join(lines)


def _write(scores: list[ModuleScore], command: str, done: int, planned: int) -> str:
    text = _markdown(scores, command, done, planned)
    SUMMARY_MD.write_text(text + "\n", encoding="utf-8")
    modules = [{**asdict(s), "score": None if math.isnan(s.score) else s.score} for s in scores]
    summary = {"command": command, "done": done, "planned": planned, "modules": modules}
    SUMMARY_JSON.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return text


def _load() -> tuple[str, int, int, list[ModuleScore]]:
    """The last run's command, modules done and planned, and scores, from the kept summary."""
    data = json.loads(SUMMARY_JSON.read_text(encoding="utf-8"))
    names = {f.name for f in fields(ModuleScore)}
    scores = []
    for kept in data["modules"]:
        values: dict[str, Any] = {k: tuple(v) if k == "tests" else v for k, v in kept.items() if k in names}
        scores.append(ModuleScore(**values))
    return data["command"], data["done"], data["planned"], scores


def _rank(module: str) -> int:
    """The module's place within its layer."""
    layer = module.split("/", maxsplit=1)[0]
    return [m for m in all_modules() if m.startswith(f"{layer}/")].index(module)


def main() -> int:
    """Run the modules asked for (every module of the scored layers by default) and write the summary."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    modules = all_modules()
    parser.add_argument("--modules", nargs="+", choices=modules, default=modules)
    parser.add_argument("--sample", type=int, default=None, help="run N mutants in all, stratified by module")
    parser.add_argument("--seed", type=int, default=20, help="seed of the sample")
    parser.add_argument("--timeout", type=float, default=TIMEOUT_S, help="seconds one mutant's tests may take")
    parser.add_argument("--list", action="store_true", help="print each module's tests and candidates, run nothing")
    parser.add_argument(
        "--recheck",
        action="store_true",
        help="run the kept summary's survivors again against the tests as they are now",
    )
    parser.add_argument(
        "--cosmic-ray", default=shutil.which("cosmic-ray") or str(Path(sys.executable).with_name("cosmic-ray"))
    )
    args = parser.parse_args()
    os.nice(NICE)
    command = ("benchmarks/mutation.py " + " ".join(sys.argv[1:])).strip()
    with tempfile.TemporaryDirectory(prefix="mutation-") as folder:
        work = Path(folder)
        _copy_repository(work)
        env = {**os.environ, "PYTHONPATH": str(work / "src"), "PYTHONDONTWRITEBYTECODE": "1"}
        if args.recheck:
            command, done, planned, scores = _load()
            for score in scores:
                recheck(work, score, args.cosmic_ray, env, args.timeout)
                if score.rechecked:
                    print(f"{score.module}: {score.killed_on_recheck} of {score.rechecked} killed now", flush=True)
            print(_write(scores, command + " && benchmarks/mutation.py --recheck", done, planned))
            return 0
        sessions = [init_module(work, m, args.cosmic_ray, env, args.timeout) for m in args.modules]
        if args.sample is not None:
            share = allocate({s.score.module: s.score.candidates for s in sessions}, args.sample)
            for s in sessions:
                _keep(s.path, share[s.score.module], f"{args.seed}:{s.score.module}")
        if args.list:
            for s in sessions:
                print(f"{s.score.module}: {s.score.candidates} candidates; tests {', '.join(s.score.tests)}")
            return 0
        scores = [s.score for s in sessions]
        # Layers take turns, so a run stopped early has scored some of every layer.
        order = sorted(sessions, key=lambda s: (_rank(s.score.module), LAYERS.index(s.score.layer)))
        for done, s in enumerate(order, start=1):
            run_session(work, s, args.cosmic_ray, env)
            print(f"{s.score.module}: {s.score.killed}/{s.score.killed + s.score.survived} killed", flush=True)
            text = _write(scores, command, done, len(sessions))
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
