"""Renderers: the only place that turns numbers into text (Markdown, plain text) or pictures (SVG).

Imports: report, models, facts, the leaves; never site or cli. matplotlib loads inside the functions that draw
(``render.svg``), so the command line's text output does not need it (tests/test_layers.py).
"""
