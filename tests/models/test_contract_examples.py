"""Each public function of the closed-form models, by example: calls that succeed with the value they must give,
and calls that fail with the error they must raise and the words the message must contain.

The table is tests/helpers/contract.py's ``MODEL_EXAMPLES`` (tests/test_public_contract.py counts it too);
``test_every_public_function_has_both_kinds`` keeps it complete for the modules in ``COVERED``: a new public
function there needs an example of each kind. (The generated-argument property test is tests/test_api_contract.py.)
"""

from __future__ import annotations

import types

import pytest

from tests.helpers.contract import COVERED, MODEL_EXAMPLES, Fails, Ok


def _name(example: Ok | Fails) -> str:
    kind = "ok" if isinstance(example, Ok) else f"fails-{example.error.__name__}"
    return f"{example.function.__module__.rsplit('.', 1)[1]}.{example.function.__name__}-{kind}"


@pytest.mark.parametrize("example", MODEL_EXAMPLES, ids=[_name(e) for e in MODEL_EXAMPLES])
def test_example(example: Ok | Fails) -> None:
    """The call gives the value the report or kernel gives, or fails with the error and message named."""
    example.run()


def test_every_public_function_has_both_kinds() -> None:
    """Each public function of the COVERED modules has at least one succeeding and one failing example."""
    public = {
        member
        for module in COVERED
        for name, member in vars(module).items()
        if not name.startswith("_") and isinstance(member, types.FunctionType) and member.__module__ == module.__name__
    }
    succeeding = {e.function for e in MODEL_EXAMPLES if isinstance(e, Ok)}
    failing = {e.function for e in MODEL_EXAMPLES if isinstance(e, Fails)}
    assert sorted(f.__qualname__ for f in public - succeeding) == []
    assert sorted(f.__qualname__ for f in public - failing) == []
