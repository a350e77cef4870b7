"""Sourced facts: every number the models start from, each with where it comes from.

Hardware, model shape, kernel configuration and rules, KV token formats, assumptions, and the figures the report
and the kernel's source publish.

Imports: the standard library and the leaves (``errors``, ``units``, ``validate``) only; never models, report,
render, site or cli, and no third-party library even inside a function (tests/test_layers.py).
"""
