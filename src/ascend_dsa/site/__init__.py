"""What the MkDocs hooks use: the prose-number check and the Markdown fence reader.

The top layer beside ``cli``: it may import every layer below (report, render, models, facts and the top-level
leaves). ``hooks/`` reach the package only through this subpackage.
"""
