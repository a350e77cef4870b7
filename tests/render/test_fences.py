"""The one Markdown fence reader: indented and tilde fences, executed blocks, ids, and text outside fences."""

from ascend_dsa.render.fences import blank_fences, fences, outside_fences

PAGE = """# Title

```python exec="true" id="first"
print(1)
```

!!! note
    ~~~python exec="1" id="second"
    print(2)
    ~~~

```text
not run
```
"""


def test_fences_are_found_with_their_options_and_dedented_code() -> None:
    """Each fence gives its language, whether it runs, its id and its code without the indentation."""
    found = fences(PAGE)
    assert [(f.language, f.executed, f.block_id, f.code) for f in found] == [
        ("python", True, "first", "print(1)"),
        ("python", True, "second", "print(2)"),
        ("text", False, "<no id>", "not run"),
    ]


def test_outside_and_blank_leave_the_code_alone() -> None:
    """Changing the prose leaves the fences as they are; blanking keeps the line count."""
    assert "PRINT(1)" not in outside_fences(PAGE, str.upper)
    assert "# TITLE" in outside_fences(PAGE, str.upper)
    blanked = blank_fences(PAGE)
    assert blanked.count("\n") == PAGE.count("\n")
    assert "print" not in blanked
