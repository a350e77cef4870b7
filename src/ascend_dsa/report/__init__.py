"""What the report claims and what the pages show, computed from the models.

The claims ledgers (``rules``: what a claim is; ``ledger_discussion``, ``ledger_design`` and ``ledger_hopper``: the
entries; ``ledgers``: each ledger by name; ``claims``: their evaluation), the checks of our figures against the
published ones, forward-pass scenarios, what-ifs and the values page prose quotes.

Imports: models, facts, the leaves; never render, site or cli. ``claims`` and ``checks`` run on the standard
library alone (tests/test_layers.py, tests/test_stdlib_core.py).
"""
