"""Renderers: the only place that turns numbers into text (Markdown, plain text) or pictures (SVG)."""
