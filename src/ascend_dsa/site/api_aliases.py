"""Every alias of the package resolved before the first API page renders: one API inventory, built or served.

griffe records that a name is also reachable through another module (``ascend_dsa.facts.hopper.ChipSpec`` for
``ascend_dsa.facts.hardware.ChipSpec``) only when that alias is first resolved, which rendering a page does for
the members it shows; mkdocstrings lists an object's known aliases in ``objects.inv`` when it renders the object's
heading. So which aliases an API page listed depended on which pages had rendered before it, and a ``mkdocs serve``
rebuild, which renders only the pages an edit changed, wrote another inventory than a build. Resolving every alias
first, through the handler's public ``collect`` and griffe's public ``Alias.target``, makes each page list all of
its object's aliases whatever renders before it.
"""

from __future__ import annotations

from typing import Any, Final

#: The package the API reference documents.
PACKAGE: Final = "ascend_dsa"


def resolve_every_alias(handler: Any) -> int:  # noqa: ANN401 - mkdocstrings' Python handler
    """Load the package with ``handler`` and resolve every alias below it that can be; how many were resolved."""
    import griffe  # noqa: PLC0415 - only with mkdocstrings

    package = handler.collect(PACKAGE, handler.get_options({}))
    resolved = 0
    pending = [package]
    seen: set[int] = set()
    while pending:
        obj = pending.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        for member in obj.members.values():
            if member.is_alias:
                try:
                    member.target  # noqa: B018 - resolving is the point
                except (griffe.AliasResolutionError, griffe.CyclicAliasError):
                    continue
                resolved += 1
            else:
                pending.append(member)
    return resolved
