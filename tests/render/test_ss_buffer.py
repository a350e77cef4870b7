import pytest

from ascend_dsa.errors import AscendDsaError
from ascend_dsa.facts.kernel_config import SHIPPED_KERNEL
from ascend_dsa.models.ss_buffer import HANDSHAKE_STEPS
from ascend_dsa.render.ss_buffer import render_ss_flag_word, render_ss_handshake


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_handshake_table_has_every_step_with_its_line(lang: str) -> None:
    """One row per step, each naming its kernel_body.h line; the 64-bit width and flag stride are filled in."""
    text = render_ss_handshake(lang)  # type: ignore[arg-type]
    for step in HANDSHAKE_STEPS:
        assert step.source.citation in text
    assert "64" in text
    assert "n + 16" in text
    assert "{" not in text


def test_flag_word_table_checks_the_layout() -> None:
    """The shipped layout passes; with one VECTOR Core the 8-byte read no longer fits and the renderer raises."""
    assert "✓" in render_ss_flag_word(lang="en")
    with pytest.raises(AscendDsaError, match="expected one aligned 8 B read"):
        render_ss_flag_word(SHIPPED_KERNEL.with_overrides(vector_cores_per_cube=1), lang="en")
