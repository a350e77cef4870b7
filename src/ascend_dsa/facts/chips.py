"""The chip presets by the name the command line and the live forms give them (``--chip``), each one record.

A [`ChipPreset`][] holds everything that differs from one chip to the next where a command or a page offers a
choice of chip: the preset itself, the model its roofline table is computed for, and the words the help uses for
it. Code looks a chip up in [`CHIPS`][] and never compares its name; a new chip is a preset (its numbers, each with
its source) and one record here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from ascend_dsa.facts.hardware import ASCEND_950, AnyChip, ChipSpec
from ascend_dsa.facts.hopper import H800, MLA_V32
from ascend_dsa.facts.model_shape import DSA_V41, ModelShape
from ascend_dsa.validate import require_instance


@dataclass(frozen=True)
class ChipPreset:
    """One ``--chip`` value: its preset, the model its tables are computed for, and how the help names its parts.

    ``core`` names one core in English (``AI Core``, ``SM``; the help adds an ``s``); ``described`` is what the
    ``--chip`` help says of it; ``reported`` marks the chip the report's head-roofline table is computed for (only
    there does ``--assert-report`` apply).
    """

    key: str
    spec: AnyChip
    model: ModelShape
    core: str
    described: str
    reported: bool = False

    def __post_init__(self) -> None:
        """Reject a spec or a model of the wrong class, and words that are not strings."""
        require_instance("spec", self.spec, ChipSpec)
        require_instance("model", self.model, ModelShape)
        for name in ("key", "core", "described"):
            require_instance(name, getattr(self, name), str)


#: The Ascend 950, its AI Cores sharing the L2, on the report's model (d = 512).
ASCEND_950_PRESET: Final = ChipPreset(
    "ascend-950", ASCEND_950, DSA_V41, core="AI Core", described="AI Cores, L2", reported=True
)
#: The H800, its SMs sharing the HBM, on DeepSeek V3.2's model (576 / 512), as FlashMLA's documents state it.
H800_PRESET: Final = ChipPreset("h800", H800, MLA_V32, core="SM", described="SMs, HBM; FlashMLA's Hopper numbers")

#: ``--chip`` values and their presets; the first is the default.
CHIPS: Final[Mapping[str, ChipPreset]] = MappingProxyType(
    {preset.key: preset for preset in (ASCEND_950_PRESET, H800_PRESET)}
)
