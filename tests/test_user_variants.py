"""A user's variant of a game through the public API (``register_preset``): its numbers are
compiled into its own kernels, and it plays in every env, with bots, in a tournament and as
positions; a variant that would change the deck or the rule set is refused by name."""

from __future__ import annotations

from dataclasses import replace

import gymnasium as gym
import numpy as np
import pytest
from pettingzoo.test import api_test

from agents import make_agent
from agents.tournament import round_robin
from kanaszta_env import GameBatch, Rules, env, position, register_preset
from kanaszta_env.engine import kernels_for
from kanaszta_env.envs.vec_env import KanasztaVecEnv
from kanaszta_env.variants import CLASSIC, DISZITETT

NATURAL_CANASTA = 2  # classic's canasta kinds: none, mixed, natural, wild, wild with a joker
HOUSE = replace(CLASSIC, name="classic-house-test", canasta_bonus=(0, 300, 650, 800, 1000))
GOLD = replace(
    DISZITETT, name="diszitett-double-test", canasta_bonus=tuple(2 * b for b in DISZITETT.canasta_bonus)
)
register_preset("pl-house-test", like="pl", spec=HOUSE)
register_preset("double-test", like="2003-02", spec=GOLD, players=(2, 3))


def test_the_variants_numbers_are_compiled_into_its_own_kernels() -> None:
    house = kernels_for(Rules(variant="pl-house-test").spec).game_module("tables")
    plain = kernels_for(Rules(variant="pl").spec).game_module("tables")
    assert house.CANASTA_BONUS[NATURAL_CANASTA] == 650 and plain.CANASTA_BONUS[NATURAL_CANASTA] == 500
    double = kernels_for(Rules(variant="double-test").spec).compiled
    assert list(double.CANASTA_BASE) == [2 * b for b in kernels_for(Rules().spec).compiled.CANASTA_BASE]


@pytest.mark.parametrize(("preset", "players"), [("pl-house-test", 4), ("double-test", 2)])
def test_a_user_variant_plays_everywhere(preset: str, players: int) -> None:
    rules = Rules(variant=preset, num_players=players)
    api_test(env(rules=rules), num_cycles=200)
    gym_env = gym.make("Kanaszta-v0", rules=rules, opponents="heuristic")
    _, info = gym_env.reset(seed=1)
    for _ in range(50):
        _, _, terminated, truncated, info = gym_env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if terminated or truncated:
            _, info = gym_env.reset()
    vec = KanasztaVecEnv(2, rules, opponents="heuristic")
    vec.seed(2)
    vec.reset()
    for _ in range(50):
        vec.step_async(np.array([np.flatnonzero(m)[0] for m in vec.action_masks()]))
        vec.step_wait()
    agents = {name: make_agent(name, rules) for name in ("random", "heuristic")}
    result = round_robin(rules, agents, 2, batch=2, progress=False, boot=0)
    assert result["settings"]["rules"]["variant"] == preset and result["pairs"][0]["hands"] == 4
    games = GameBatch(rules, 1)
    games.reset(seed=5)
    doc = position.dump(games, 0)
    assert doc["variant"] == preset and position.dump(position.load(doc), 0) == doc


def test_a_variant_that_changes_the_deck_or_the_rule_set_is_refused() -> None:
    with pytest.raises(ValueError, match="type_copies"):
        register_preset("small-test", like="pl", spec=replace(CLASSIC, name="c-small", type_copies=(2,) * 53))
    with pytest.raises(ValueError, match="already belongs"):
        register_preset("pl", like="sk")
    with pytest.raises(ValueError, match="unknown variant 'nope'"):
        register_preset("x-test", like="nope")
    with pytest.raises(ValueError, match="players"):
        register_preset("seven-test", like="sk", players=(7,))


def test_the_shaping_potential_reads_the_variants_canasta_bonus() -> None:
    """Consumers read the spec too: the classic shaping potential of the house variant counts a
    natural canasta at 650, so on the same observations it differs from pl's by 150 per natural
    canasta of the observer's side against the other side's."""
    from training.games.classic.shaping import ClassicScoreEstimate

    plain, house = Rules(variant="pl", num_players=4), Rules(variant="pl-house-test", num_players=4)
    games = GameBatch(plain, 16)
    games.reset(seed=np.arange(16))
    bot = make_agent("heuristic", plain)
    seen = []
    for _ in range(600):
        live = np.flatnonzero(~games.done)
        if not len(live):
            break
        obs, mask = games.observe(), games.legal_mask()
        seen.append(obs[live])
        actions = np.zeros(16, dtype=np.int64)
        actions[live] = bot.act(obs[live], mask[live])
        games.step(actions)
    obs = np.concatenate(seen)
    gain = (ClassicScoreEstimate(house, scale=1.0)(obs) - ClassicScoreEstimate(plain, scale=1.0)(obs)) / 150
    np.testing.assert_allclose(gain, np.rint(gain), atol=1e-9)
    assert (gain > 0).any() and (gain < 0).any()
