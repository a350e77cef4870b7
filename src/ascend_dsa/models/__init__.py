"""Models that compute from the facts what the report argues.

Roofline, block cycles, memory plans, layouts, MTE2 and gather2, the pipeline, design point and sweep, the
reference forward pass, KV quantisation and skip-scale.

Imports: facts, the leaves and the standard library. The closed-form models (roofline, memory plans, design point,
pipeline, and every module of ours they load) import only the standard library at module level; NumPy and
ml_dtypes belong to the array models (reference, blocked_forward, forward_inputs, kv_quant, nz_layout, gather2,
design_sweep, skip_scale, arrays), which those never import (tests/test_layers.py, tests/test_stdlib_core.py).
"""
