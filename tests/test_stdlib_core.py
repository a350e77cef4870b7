"""The standard-library core runs without NumPy, ml_dtypes or matplotlib, and ``import ascend_dsa`` loads none of them.

Each check runs in a fresh interpreter whose ``sys.meta_path`` refuses the three libraries, so a module-level import
of one of them anywhere on the path fails the check with the import that tried.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from typing import Final

from tests.helpers.project import ROOT

HEAVY: Final = ("numpy", "matplotlib", "ml_dtypes")

#: Installs a finder that raises ImportError for the heavy libraries, before anything of ours is imported.
BLOCKER: Final = textwrap.dedent(
    f"""
    import importlib.abc
    import sys

    HEAVY = {HEAVY!r}


    class Blocked(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in HEAVY:
                raise ImportError(f"{{name}} is blocked: the standard-library core must not import it")
            return None


    sys.meta_path.insert(0, Blocked())


    def loaded():
        return sorted(m for m in sys.modules if m.partition(".")[0] in HEAVY)
    """
)


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter with our source first on the path."""
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "", "PYTHONIOENCODING": "utf-8"},
        timeout=120,
    )


def run_blocked(body: str) -> subprocess.CompletedProcess[str]:
    """Run ``body`` with the heavy libraries blocked; it prints ``ok`` when every assertion held."""
    script = BLOCKER + textwrap.dedent(body) + "\nassert loaded() == [], loaded()\nprint('ok')\n"
    return run_python(script)


def assert_ok(result: subprocess.CompletedProcess[str]) -> None:
    """The subprocess ended well and printed ``ok`` last."""
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "ok", result.stdout


def test_import_loads_nothing_heavy_even_when_they_are_installed() -> None:
    """Without any blocking, ``import ascend_dsa`` leaves NumPy, matplotlib and ml_dtypes out of sys.modules."""
    result = run_python(
        "import sys\nimport ascend_dsa\n"
        f"print(sorted(m for m in sys.modules if m.partition('.')[0] in {HEAVY!r}))\n"
        "print(sorted(m for m in sys.modules if m.startswith('ascend_dsa')))\n"
    )
    assert result.returncode == 0, result.stderr
    heavy, ours = result.stdout.splitlines()
    assert heavy == "[]"
    assert ours == "['ascend_dsa']"


def test_import_and_every_name_listed_without_heavy_libraries() -> None:
    """``import ascend_dsa`` works with the libraries blocked, and dir() lists every public name before use."""
    assert_ok(run_blocked("import ascend_dsa\nassert set(ascend_dsa.__all__) <= set(dir(ascend_dsa))\n"))


def test_head_roofline_and_its_command_without_heavy_libraries() -> None:
    """The head roofline reproduces the report's table, and ``ascend-dsa head-roofline --assert-report`` exits 0."""
    assert_ok(
        run_blocked(
            """
            import contextlib
            import io

            from ascend_dsa import ASCEND_950, check_head_roofline, head_roofline, head_roofline_sweep
            from ascend_dsa.cli import main

            assert head_roofline(ASCEND_950, 64, 512).cube_cycles == 8192
            check_head_roofline(head_roofline_sweep(ASCEND_950))
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                status = main(["head-roofline", "--assert-report"])
            assert status == 0, status
            assert "16384" in out.getvalue()
            """
        )
    )


def test_memory_plans_without_heavy_libraries() -> None:
    """The UB plans reproduce the six shipped totals, and the L1 plan fits, on the standard library alone."""
    assert_ok(
        run_blocked(
            """
            from ascend_dsa import ASCEND_950, SHIPPED_KERNEL, Mode, check_ub_totals, l1_plan, shipped_ub_plans, ub_plan

            check_ub_totals(shipped_ub_plans())
            assert ub_plan(SHIPPED_KERNEL, Mode.DECODE).total_bytes == 214544
            assert l1_plan(ASCEND_950, SHIPPED_KERNEL).total_bytes <= ASCEND_950.ascend.l1_bytes
            """
        )
    )


def test_design_point_and_pipeline_without_heavy_libraries() -> None:
    """A design point is evaluated and the pipeline simulated on the standard library alone."""
    assert_ok(
        run_blocked(
            """
            from ascend_dsa import ASCEND_950, SHIPPED_DESIGN, check_p_ready_to_used, evaluate, simulate, stage_costs

            evaluation = evaluate(SHIPPED_DESIGN, ASCEND_950)
            assert evaluation.checks
            timeline = simulate(stage_costs(ASCEND_950))
            assert timeline.ops
            check_p_ready_to_used(timeline.steady(timeline.p_ready_to_used))
            """
        )
    )


def test_every_claim_without_heavy_libraries() -> None:
    """Every claim of the ledger is evaluated, and the command that prints them runs, on the standard library alone."""
    assert_ok(
        run_blocked(
            """
            import contextlib
            import io

            from ascend_dsa import CLAIMS, check_claims, evaluate_claims
            from ascend_dsa.cli import main

            assert len(evaluate_claims()) == len(CLAIMS)
            check_claims()
            with contextlib.redirect_stdout(io.StringIO()):
                assert main(["claims"]) == 0
            """
        )
    )


def test_every_live_command_runs_captured_without_heavy_libraries() -> None:
    """What the browser runs: ``ascend_dsa.cli.run_captured`` for each live form's command, on the standard library."""
    assert_ok(
        run_blocked(
            """
            from ascend_dsa.cli import run_captured

            status, out, err = run_captured(["ub-plan", "--mode", "decode", "--fp4-extra", "--sink"])
            assert (status, err) == (0, ""), (status, err)
            assert out.startswith("# UB plan per VECTOR Core: decode"), out
            status, out, err = run_captured(["head-roofline", "--heads", "16,64", "--cores", "16"])
            assert (status, err) == (0, ""), (status, err)
            status, out, err = run_captured(["claims", "--lang", "zh", "--chapter", "discussion/one-vector-core"])
            assert status == 0, err
            status, out, err = run_captured(["design-point", "--lang", "zh", "--heads", "128"])
            assert status == 1 and out.startswith("# 设计点"), (status, out, err)
            status, out, err = run_captured(["ub-plan", "--mode", "prefill", "--b-topk", "96"])
            assert (status, out) == (2, ""), (status, out)
            assert err.startswith("ascend-dsa ub-plan: error: forbidden by rule") and err.count("\\n") == 1, err
            from ascend_dsa.render.live import LIVE_FIGURES
            from tests.helpers.cli import form_defaults

            for command in sorted(LIVE_FIGURES):  # and the figures their forms redraw, from the forms' start values
                status, out, err = run_captured([command, *form_defaults(command), "--svg", "-"])
                assert (status, err) == (0, "") and out.startswith("<svg "), (command, status, err)
            """
        )
    )


def test_live_figures_and_their_svg_without_heavy_libraries() -> None:
    """The figures live forms redraw (roofline, UB bars) draw on the standard library, as ``--svg -`` in the browser."""
    assert_ok(
        run_blocked(
            """
            from ascend_dsa import render_roofline_figure, render_ub_plan_bars
            from ascend_dsa.cli import run_captured

            assert "<svg" in render_roofline_figure(lang="zh") and "<svg" in render_ub_plan_bars(lang="en")
            status, out, err = run_captured(["head-roofline", "--heads", "16,64", "--svg", "-"])
            assert (status, err) == (0, "") and out.startswith("<svg"), (status, err)
            status, out, err = run_captured(["ub-plan", "--mode", "decode", "--sink", "--svg", "-"])
            assert (status, err) == (0, "") and out.startswith("<svg"), (status, err)
            """
        )
    )


def test_the_blocker_bites() -> None:
    """The finder refuses NumPy, so a path that needs it fails in the subprocess, naming the library."""
    result = run_blocked("from ascend_dsa import quantize_tokens\n")
    assert result.returncode != 0
    assert "is blocked: the standard-library core must not import it" in result.stderr
