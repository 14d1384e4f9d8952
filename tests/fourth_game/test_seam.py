"""The seam mini canasta proves (docs/design.md, "Adding a game"): a rule set outside the
package (``Variant.rule_set = "fourth_game.kernels.rule_set"``) is compiled per variant
like the package's own, its tables read that variant, its state is the game's one class,
and its machine code is cached under a folder named by its sources."""

from __future__ import annotations

import dataclasses
import pathlib

import numpy as np
import pytest

from kanaszta_env import GameBatch, Rules
from kanaszta_env.engine.kernels import kernels_for

from .kernels.state import MiniState
from .spec import MINI


def test_the_rule_set_is_a_copy_of_the_games_package_per_variant() -> None:
    kernels = kernels_for(MINI)
    assert kernels.package.startswith("_kanaszta_mini_canasta_") and kernels.compiled is None
    assert kernels.ruleset.legal_row.py_func.__module__ == f"{kernels.package}.fourth_game.kernels.legal"
    assert type(GameBatch(Rules(variant="mini"), 1).state) is MiniState  # not the copy's class
    cache = pathlib.Path(kernels.ruleset.legal_row._cache._cache_path).as_posix()
    assert f"variants/mini_canasta-{MINI.fingerprint}-" in cache  # then the digest of the sources


def test_another_variant_of_the_game_compiles_its_own_tables() -> None:
    """M8 with a canasta worth 300: the variant's kernels score a canasta 200 more."""
    big = dataclasses.replace(MINI, name="mini_big_canasta", canasta_bonus=(0, 300))
    melds = np.zeros((12, 53), dtype=np.int8)
    melds[0, [0, 1, 2, 3, 4]] = 1  # A A A A 2S: a canasta (M8)
    hand = np.zeros(53, dtype=np.int8)
    scores = [kernels_for(v).game_module("game").hand_score(melds, hand, False) for v in (MINI, big)]
    assert scores == [4 * 20 + 20 + 100, 4 * 20 + 20 + 300]
    assert kernels_for(big).package != kernels_for(MINI).package


def test_a_package_named_like_a_module_of_kanaszta_env_is_refused() -> None:
    with pytest.raises(ValueError, match="may not be called 'cards'"):
        kernels_for(dataclasses.replace(MINI, name="mini_clash", rule_set="cards.kernels.rule_set"))
