"""The English edition's blocks computed ahead on the other core: what runs there, what comes back, what does not.

That a build with them is the site a build without them writes is tests/site/test_serve.py's last comparison:
``mkdocs serve`` computes nothing ahead, the tree's shared build does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from ascend_dsa.site import prefetch
from ascend_dsa.site.limits import Limits

if TYPE_CHECKING:
    from pathlib import Path

PAGE = """# A page

```python exec="true"
print("a", 1, end="!")
print("b")
```

```python exec="true" source="above"
print("shown with its source")
```

```python exec="true" session="s"
x = 1
```

```python exec="true"
raise ValueError("no")
```

```python exec="true"
while True:
    pass
```

```bash exec="true"
echo not python
```
"""


@pytest.mark.parametrize(
    ("info", "alone"),
    [
        ('python exec="true"', True),
        ('py exec="1" html="true"', True),
        ('python exec="true" source="above"', False),
        ('python exec="true" session="one"', False),
        ('bash exec="true"', False),
    ],
)
def test_only_a_python_block_without_source_or_session_runs_alone(info: str, alone: bool) -> None:  # noqa: FBT001
    """A shown source or a shared session depends on the page being rendered: such blocks run in the page."""
    language = info.split(maxsplit=1)[0]
    assert prefetch.runs_alone(language, prefetch.info_options(info)) is alone


def test_info_options_reads_quoted_and_bare_values() -> None:
    """``html`` and ``exec`` are flags; other options keep their text, quoted or not."""
    options = prefetch.info_options("python exec='yes' html=off id=\"a b\" title=t")
    assert options == {"exec": True, "html": False, "id": "a b", "title": "t"}


def test_a_block_runs_as_markdown_exec_runs_it() -> None:
    """Its printed text, markdown-exec's way (space-separated, ``end`` honoured), in a namespace of its own."""
    assert prefetch.run_block('print("a", 1, end="!")\nprint("b")', "docs/x.md block") == "a 1!b\n"
    assert prefetch.run_block("print(__name__)", "docs/x.md 2") == "docs_x_md_2\n"
    with pytest.raises(ZeroDivisionError):
        prefetch.run_block("1 / 0", "docs/x.md 3")


def test_compute_keeps_what_ran_and_leaves_the_rest_to_the_page(tmp_path: Path) -> None:
    """The block that printed is kept; the shown, the shared, the failing, the endless and the shell ones are not."""
    page = tmp_path / "docs" / "x.en.md"
    page.parent.mkdir()
    page.write_text(PAGE, encoding="utf-8")
    ahead = prefetch.compute([page], [], tmp_path, Limits(1, 1000), {})
    assert ahead.blocks == {("docs/x.en.md", 'print("a", 1, end="!")\nprint("b")'): "a 1!b\n"}
    assert ahead.notebooks == {}


def test_the_child_sends_what_it_computed(tmp_path: Path) -> None:
    """Forked, the child's results come back through the pipe; asking twice waits once."""
    page = tmp_path / "docs" / "x.en.md"
    page.parent.mkdir()
    page.write_text('```python exec="true"\nprint(6 * 7)\n```\n', encoding="utf-8")
    started = prefetch.Prefetch.start([page], [], tmp_path, Limits(5, 1000), {})
    if started is None:
        pytest.skip("one core: nothing is computed ahead")
    first = started.ahead()
    assert first.blocks == {("docs/x.en.md", "print(6 * 7)"): "42\n"}
    assert started.ahead() is first
    started.close()


def test_nothing_to_compute_forks_nothing(tmp_path: Path) -> None:
    """No pages and no notebooks: no child."""
    assert prefetch.Prefetch.start([], [], tmp_path, Limits(5, 1000), {}) is None
