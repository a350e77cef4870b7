"""Plain helpers the tests share, one module per idea; tests/conftest.py keeps only fixtures and hooks.

A test module imports its helpers from here, never from another test module (tests/test_layers.py checks it).
"""
