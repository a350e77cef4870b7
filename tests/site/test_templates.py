"""ascend_dsa.site.templates: a template is compiled once, whichever environment loads it next."""

from __future__ import annotations

from typing import Any

import jinja2

from ascend_dsa.site import templates


def test_a_second_environment_compiles_nothing_it_was_given() -> None:
    """Two environments over one cache: the second compiles no template the first compiled; a changed one it does."""
    sources = {"page.html": "{{ x }}!"}
    kept: dict[str, tuple[str, Any]] = {}
    compiled = []

    class Counting(jinja2.Environment):
        def compile(self, *args: Any, **kwargs: Any) -> Any:  # noqa: ANN401 - Jinja's signature
            compiled.append(args[1] if len(args) > 1 else kwargs.get("name"))
            return super().compile(*args, **kwargs)

    for _ in range(2):
        env = Counting(loader=jinja2.DictLoader(sources))
        templates.attach(env, kept)
        assert env.get_template("page.html").render(x=1) == "1!"
    assert compiled == ["page.html"]
    sources["page.html"] = "{{ x }}?"
    env = Counting(loader=jinja2.DictLoader(sources))
    templates.attach(env, kept)
    assert env.get_template("page.html").render(x=1) == "1?"
    assert compiled == ["page.html", "page.html"]


def test_an_environment_with_a_cache_keeps_it() -> None:
    """An environment that has a bytecode cache of its own keeps it."""
    own = jinja2.FileSystemBytecodeCache()
    env = jinja2.Environment(bytecode_cache=own, autoescape=True)
    templates.attach(env, {})
    assert env.bytecode_cache is own
