"""The algorithm and optimisation pages show their computed demos, and a wrong published size breaks the build."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.helpers.project import MUTATIONS

if TYPE_CHECKING:
    from pathlib import Path

    from tests.helpers.project import BuildResult


@pytest.mark.parametrize(
    ("page", "needles"),
    [
        ("algorithm/model/index.html", ["[2, 64, 512]", "0.4088"]),
        ("algorithm/flow/index.html", ["403.43", "rescale", "topk_length = 0、63、65、192"]),
        ("en/algorithm/flow/index.html", ["403.43", "topk_length = 0, 63, 65, 192"]),
        ("optimizations/gather2/index.html", ["src_stride", "74,752"]),
        ("optimizations/kv-cache-layout/index.html", ["528", "288", "[0, 528)"]),
        ("optimizations/fast-nd2nz/index.html", ["1056 B", "0 1 2 3 4 5 6 7"]),
        ("optimizations/skip-scale/index.html", ["<svg", "1152"]),
        ("en/optimizations/skip-scale/index.html", ["<svg", "rescales per q token"]),
    ],
)
def test_pages_show_their_demos(built_site: Path, page: str, needles: list[str]) -> None:
    """Each page carries its computed tables (and the skip-scale plot) and no traceback."""
    html = (built_site / page).read_text(encoding="utf-8")
    assert "Traceback" not in html
    for needle in needles:
        assert needle in html, needle


def test_wrong_token_size_breaks_the_build(mutated_build: BuildResult) -> None:
    """If kv_cache_format.h's 528 B were misquoted (the helpers' MUTATIONS), the strict build fails naming it."""
    assert "kv-token-bytes" in MUTATIONS
    result = mutated_build
    assert result.returncode != 0
    assert "FigureMismatch" in result.output
    assert "kv_cache_format.h:19" in result.output
