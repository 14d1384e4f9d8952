"""Turkish kanasta (preset tr) in the envs: what only this game has.

The generic env contracts (hidden information T2.4/T3.4 and pair rewards T14
included) run on the Turkish table in tests/conformance/. Here: the observation
layout against the state, the rendered pairs and the action table's size
(training: tests/test_training.py).
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from conformance.positions import after

from kanaszta_env.envs import env
from kanaszta_env.games.turkish.actions import ACTION_NAMES, NUM_ACTIONS
from kanaszta_env.observation import observation_size, split


def test_observation_pieces_match_the_state():
    """The declared pieces hold what the state says (docs/observation-turkish.md)."""
    games = after(3, 300, 16, variant="tr", max_turns=400)  # leaning towards melds: tables fill up
    s = games.state
    for seat in range(4):
        pieces = split(games.observe(seats=seat), games.rules)
        for b in range(games.batch_size):
            assert np.allclose(pieces["hand"][b] * 2, s.hand[b, seat])
            sizes = [min(s.hand[b, (seat + r) % 4].sum() / 40, 1) for r in range(4)]
            assert np.allclose(pieces["hand_sizes"][b], sizes)
            for rel in range(2):
                pair = (seat + rel) % 2
                assert np.allclose(pieces["melds"][b, rel] * 2, s.melds[b, pair])
                owners = pieces["meld_owner"][b, rel]
                for k in range(24):
                    q = s.meld_owner[b, pair, k]
                    expected = np.zeros(2)
                    if q >= 0:
                        expected[((q - seat) % 4) // 2] = 1
                    assert np.array_equal(owners[k], expected)
            assert pieces["pile_size"][b, 0] == pytest.approx(s.pile_len[b] / 106)
            assert pieces["pile_contents"][b].sum() * 2 == pytest.approx(s.pile_len[b], abs=1e-4)
            assert pieces["opened"][b, 0] == s.opened[b, seat]
    space = gym.spaces.Box(-1, 1, shape=(observation_size(games.rules),))
    assert all(space.contains(games.observe(seats=q)[b]) for q in range(4) for b in range(16))


def test_render_shows_pairs_and_hides_for_a_viewer():
    """The table shows the pairs (T2.1), every hand to a spectator, and the Fis (T3.2)."""
    e = env(variant="tr", render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert "side 0 (player_0, player_2)" in text and "side 1 (player_1, player_3)" in text
    assert text.count("hand (11)") == 4
    fis = text.splitlines()[2]  # a spectator sees the Fis' cards
    assert fis.startswith("Fi 1: ") and fis.count("on the table") == 2 and len(fis.split()) > 22


def test_the_action_table_has_1376_ids():
    assert len(ACTION_NAMES) == NUM_ACTIONS == 1376  # docs/actions-turkish.md
