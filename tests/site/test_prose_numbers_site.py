"""A number typed by hand in prose goes stale when the model changes, and the strict build then fails on it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tests.conftest import ProjectCopy

pytestmark = pytest.mark.build


def test_stale_prose_number_fails_the_strict_build(project_copy: ProjectCopy) -> None:
    """In a copy, assume a faster 1C2V FixPipe and type the old 256 B/cycle in the design page: the build names both."""
    project_copy.replace(
        "src/ascend_dsa/facts/assumptions.py", "FIXPIPE_1C2V_SPEEDUP: Final = 2", "FIXPIPE_1C2V_SPEEDUP: Final = 3"
    )
    project_copy.replace(
        "docs/design/index.md", "每周期\n    {{ fixpipe_1c2v_bytes_per_cycle }} 字节", "每周期\n    256 字节"
    )
    result = project_copy.lean().build()
    assert result.returncode != 0
    assert "docs/design/index.md" in result.output
    assert "256" in result.output
    assert "typed by hand" in result.output


def test_every_form_of_a_typed_number_fails_the_build_naming_page_and_line(project_copy: ProjectCopy) -> None:
    """In a copy, one page gets a wrong number typed in each form: the build fails naming the page and every line."""
    from tests.site.test_prose_numbers import TYPED_FORMS  # noqa: PLC0415 - the forms live with the unit test

    page = "docs/discussion/heads-per-core.md"
    original = (project_copy.root / page).read_text(encoding="utf-8")
    blocks = [text for text, _ in TYPED_FORMS.values()]
    project_copy.append(page, "\n\n" + "\n\n".join(blocks) + "\n")
    text = (project_copy.root / page).read_text(encoding="utf-8")
    result = project_copy.lean().build()
    assert result.returncode != 0
    assert f"docs/{page.removeprefix('docs/')}" in result.output
    assert "typed by hand" in result.output
    position = len(original)
    for form, (block, number) in TYPED_FORMS.items():
        start = text.index(block, position)
        offset = block.index(number) if number in block else 0
        line = text.count("\n", 0, start + offset) + 1
        assert f"line {line}: {number}" in result.output, form
        position = start + len(block)
