"""What the MkDocs hooks use: hooks/ import the package only through this subpackage (``prose_numbers``).

Imports: every layer below (render, report, models, facts, the leaves); never cli (tests/test_layers.py).
"""
