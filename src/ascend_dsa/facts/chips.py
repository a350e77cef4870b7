"""The chip presets by the name the command line and the live forms give them (``--chip``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ascend_dsa.facts.hardware import ASCEND_950
from ascend_dsa.facts.hopper import H800

if TYPE_CHECKING:
    from ascend_dsa.facts.chip import AnyChip

#: ``--chip`` values and their presets; the first is the default.
CHIPS: Final[dict[str, AnyChip]] = {"ascend-950": ASCEND_950, "h800": H800}
