"""Material's bundle fetches the search index on first search: the rewrite, its idempotence and its loud failure."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from ascend_dsa.site.search_loading import DEFERRED_MARK, defer_index_request, deferred

if TYPE_CHECKING:
    from pathlib import Path

#: The shape of Material 9's bundle around the request (its minified names vary by release).
BUNDLE = (
    'function ks(){return location.protocol==="file:"?_t(`${new URL("search/search_index.js",Or.base)}`)'
    '.pipe(m(()=>__index),Z(1)):ze(new URL("search/search_index.json",Or.base))}var zi=ks();'
)


def test_the_request_is_wrapped_where_it_was_and_nothing_else_moves() -> None:
    code = deferred(BUNDLE, "bundle.js")
    before, _, after = BUNDLE.partition('ze(new URL("search/search_index.json",Or.base))')
    assert code.startswith(before + DEFERRED_MARK)
    assert code.endswith('(ze(new URL("search/search_index.json",Or.base)))' + after)
    assert 'addEventListener("focus",go)' in code
    assert 'has("h")' in code


def test_a_rewritten_bundle_is_left_as_it_is() -> None:
    once = deferred(BUNDLE, "bundle.js")
    assert deferred(once, "bundle.js") == once


@pytest.mark.parametrize("code", ["var x=1;", BUNDLE + BUNDLE], ids=["no request", "two requests"])
def test_a_bundle_without_exactly_one_request_fails_naming_the_file(code: str) -> None:
    with pytest.raises(RuntimeError, match=r"^bundle\.abc\.min\.js: expected Material's bundle to request"):
        deferred(code, "bundle.abc.min.js")


def test_the_built_sites_bundle_is_rewritten_on_disk(tmp_path: Path) -> None:
    scripts = tmp_path / "assets" / "javascripts"
    scripts.mkdir(parents=True)
    (scripts / "bundle.1234.min.js").write_text(BUNDLE, encoding="utf-8")
    defer_index_request(tmp_path)
    assert DEFERRED_MARK in (scripts / "bundle.1234.min.js").read_text(encoding="utf-8")
