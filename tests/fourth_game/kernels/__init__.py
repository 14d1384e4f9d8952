"""The rule kernels of mini canasta (M1-M9), compiled per variant like the package's games:
``rule_set`` exports the entry points the engine's driver calls."""
