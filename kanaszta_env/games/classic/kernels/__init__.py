"""The rules kernels of classic canasta (docs/rules/classic.md, C1-C16).

Same conventions as the Díszített core one level up: a NamedTuple of numpy
arrays with a leading batch axis (:mod:`.state`), numba kernels taking
``(state, cfg, b, …)``, and the entry points the engine's driver calls
(``reset_game``, ``legal_row``, ``apply_action``, ``episode_truncated``,
``encode_games``), selected per variant by :mod:`kanaszta_env.core.ruleset`.
"""
