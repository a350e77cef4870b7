"""A number typed by hand in prose fails the strict build, which names the page and the line of each.

A changed constant making a typed number stale is tests/site/test_site.py's perturbation test.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.helpers.project import MUTATIONS, ROOT, TYPED_FORMS

if TYPE_CHECKING:
    from tests.helpers.project import BuildResult

pytestmark = pytest.mark.build


def test_every_form_of_a_typed_number_fails_the_build_naming_page_and_line(mutated_build: BuildResult) -> None:
    """A page with a wrong number typed in each form (the shared broken build's "typed-forms"): every line named."""
    mutation = MUTATIONS["typed-forms"]
    original = (ROOT / mutation.file).read_text(encoding="utf-8")
    text = original + mutation.new
    assert [line for line in mutated_build.output.splitlines() if f"{mutation.file}: the prose failed" in line]
    found = mutated_build.output
    assert "typed by hand" in found
    position = len(original)
    for form, (block, number) in TYPED_FORMS.items():
        start = text.index(block, position)
        offset = block.index(number) if number in block else 0
        line = text.count("\n", 0, start + offset) + 1
        assert f"line {line}: {number}" in found, form
        position = start + len(block)
