"""Values the package adopts from the report where nothing else defines them, so that a claim can compare them.

The report measures the kernel's throughput (report (zh) line 5) and names a second block size it usually uses
(line 43). No model computes either: the pages take them as inputs. They are kept here, apart from
``report_figures``, so that the ledger compares what the pages print with what the report publishes (claims
``prefill-tflops``, ``decode-tflops`` and ``b-topk-choices``), as it does for the hardware constants.
"""

from __future__ import annotations

from typing import Final

from ascend_dsa.units import TFLOPS

#: FLOP/s the kernel reaches in prefill, as measured by the report (report (zh) line 5).
PREFILL_ACHIEVED_FLOPS: Final = 410 * TFLOPS
#: FLOP/s the kernel reaches in decode, as measured by the report (report (zh) line 5).
DECODE_ACHIEVED_FLOPS: Final = 360 * TFLOPS
#: The other B_TOPK the report says the kernel usually takes, besides the shipped one (report (zh) line 43).
REPORT_ALTERNATIVE_B_TOPK: Final = 96
