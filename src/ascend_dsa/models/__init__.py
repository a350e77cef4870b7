"""models: TODO."""
