"""Bots: legal choices only, decisions from the observation alone, and a few
rule-driven behaviours (R8, R9, R10.6, R13.3, R14).

States come from seeded batched play; the "hidden information" test re-deals
every card the deciding player cannot know (tests/conformance/hidden.py's
``redeal``) and checks that his observation, and hence every bot's decision,
stays the same.
"""

from __future__ import annotations

import numpy as np
import pytest
from conformance.hidden import redeal
from rules_helpers import load, position, seat

from agents import GreedyBot, RandomBot, make_agent, play_batch
from agents.base import Agent, check_actions
from agents.games.diszitett.determinise import determinise
from agents.games.diszitett.heuristic import HeuristicBot
from agents.games.diszitett.search import SearchBot
from kanaszta_env import GameBatch, Rules
from kanaszta_env.cards import WILD_TYPES
from kanaszta_env.engine.states import copy_state
from kanaszta_env.games.diszitett.actions import ACTION_NAMES, action_from_name
from kanaszta_env.games.diszitett.invariants import conservation_errors
from kanaszta_env.games.diszitett.kernels.state import PHASE_DISCARD, PHASE_DRAW, new_state
from kanaszta_env.games.diszitett.observation import decode, encode

SMALL_SEARCH = {"samples": 2, "horizon": 1, "max_discards": 2}


def collect_states(rules: Rules, games: int, steps: int, seed: int) -> list[GameBatch]:
    """Snapshots (one batch per step) of ``games`` games played by a mix of
    random and greedy players; finished games are dealt again."""
    batch = GameBatch(rules, games)
    batch.reset(seed=seed)
    players = [RandomBot(seed), GreedyBot(rules)]
    snaps = []
    for step in range(steps):
        snaps.append(batch.copy())
        mask = batch.legal_mask().copy()
        mask[batch.done, action_from_name("draw")] = True  # finished games ignore the action
        obs = encode(batch.state, rules, batch.to_move.astype(np.int64))
        use_random = (np.arange(games) + step // 40) % 2 == 0
        acts = np.where(use_random, players[0].act(obs, mask), players[1].act(obs, mask))
        batch.step(acts)
        if batch.done.any():
            batch.reset(seed=seed + 7919 * (step + 1), which=batch.done)
    return snaps


def decisions(snaps: list[GameBatch], rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks of every live decision in ``snaps``."""
    obs, masks = [], []
    for g in snaps:
        live = ~g.done
        obs.append(encode(g.state, rules, g.to_move.astype(np.int64))[live])
        masks.append(g.legal_mask()[live].copy())
    return np.concatenate(obs), np.concatenate(masks)


@pytest.mark.parametrize(
    ("players", "variant"), [(2, "2003-02"), (3, "2003-01"), (4, "2003-02")], ids=["2p", "3p", "4p"]
)
def test_bots_choose_only_legal_actions(players: int, variant: str) -> None:
    """Over thousands of reachable states (all phases, R3-R14) every bot picks a legal action."""
    rules = Rules(num_players=players, variant=variant)
    obs, masks = decisions(collect_states(rules, 32, 110, seed=players), rules)
    assert len(obs) > 3000
    phases = set(obs[:, :6].argmax(axis=1).tolist())
    assert {0, 1, 2, 3, 4} <= phases, "the sample must cover cut, draw, meld, discard and pickup"
    for bot in (RandomBot(1), GreedyBot(rules), HeuristicBot(rules)):
        check_actions(bot.act(obs, masks), masks, bot.name)  # raises on an illegal choice
    search = SearchBot(rules, **SMALL_SEARCH)
    pick = np.random.default_rng(0).choice(len(obs), 400, replace=False)
    check_actions(search.act(obs[pick], masks[pick]), masks[pick], "search")


def test_search_overrules_the_heuristic_only_on_evidence() -> None:
    """SearchBot replaces the heuristic's choice only when a candidate's paired
    advantage clears ``z`` standard errors: a large ``z`` overrules it at fewer
    decisions than ``z = 0`` (best mean wins), and only where ``z = 0`` does too."""
    rules = Rules()
    obs, masks = decisions(collect_states(rules, 16, 60, seed=5), rules)
    pick = np.random.default_rng(1).choice(len(obs), 300, replace=False)
    obs, masks = obs[pick], masks[pick]
    heuristic = HeuristicBot(rules).act(obs, masks)
    small = {**SMALL_SEARCH, "samples": 4}
    loose = SearchBot(rules, **small, z=0.0).act(obs, masks) != heuristic
    strict = SearchBot(rules, **small, z=1e6).act(obs, masks) != heuristic
    assert loose.sum() > 10
    assert strict.sum() < loose.sum() and not (strict & ~loose).any()


def test_decisions_depend_on_the_observation_only() -> None:
    """Re-dealing the hidden cards leaves the mover's observation, view and mask,
    and every bot's decision, unchanged (deterministic seeding); the re-deal
    does change the other hand, so the check is not vacuous."""
    rules = Rules()
    snaps = collect_states(rules, 8, 60, seed=11)
    rng = np.random.default_rng(5)
    bots = [GreedyBot(rules), HeuristicBot(rules), SearchBot(rules, **SMALL_SEARCH), RandomBot(3)]
    changed = 0
    checked = 0
    for games in snaps[::3]:
        for b in range(games.batch_size):
            one = games.game(b)
            if one.done[0]:
                continue
            mover = int(one.to_move[0])
            other = redeal(one, mover, rng)
            obs1, obs2 = encode(one.state, rules, mover), encode(other.state, rules, mover)
            np.testing.assert_array_equal(obs1, obs2)
            mask1, mask2 = one.legal_mask().copy(), other.legal_mask().copy()
            np.testing.assert_array_equal(mask1, mask2)
            views1, views2 = one.views(), other.views()
            for name, x, y in zip(views1._fields, views1, views2, strict=True):
                np.testing.assert_array_equal(x, y, err_msg=f"view field {name}")
            changed += int(not np.array_equal(one.state.hand[0, 1 - mover], other.state.hand[0, 1 - mover]))
            for bot in bots:
                bot.reset(1)
                a1 = bot.act(obs1, mask1)
                bot.reset(1)
                a2 = bot.act(obs2, mask2)
                assert a1[0] == a2[0], f"{bot.name} changed its decision"
            checked += 1
    assert checked > 60
    assert changed > checked // 2


def test_play_batch_seats_and_results() -> None:
    """play_batch plays every game to its end, seats agents as told and
    counts their decisions; each agent only acts in its own seats."""
    rules = Rules()
    seen: list[tuple[int, int]] = []

    class Recorder(Agent):
        name = "recorder"

        def act(self, obs: np.ndarray, mask: np.ndarray, slots: np.ndarray | None = None) -> np.ndarray:
            assert slots is not None
            seen.extend((int(s) // 2, int(s) % 2) for s in slots)
            return GreedyBot(rules).act(obs, mask)

    seats = np.array([[0, 1], [1, 0], [0, 1]])
    res = play_batch(rules, [Recorder(), GreedyBot(rules)], seats, [4, 4, 9], record=True)
    assert {(g, q) for g, q in seen} == {(0, 0), (1, 1), (2, 0)}
    assert res.scores.shape == (3, 2)
    assert all(len(a) == int(d) for a, d in zip(res.actions, res.decisions.sum(axis=1), strict=True))
    assert (res.end_reason > 0).all()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_decide_alike_from_engine_views_and_from_observations(players: int) -> None:
    """A compiled bot handed the engine's views (as play_batch and the engine's
    policy seats hand them) chooses exactly what it chooses from the
    observations alone (decoded), in every phase."""
    rules = Rules(num_players=players, variant="2003-02" if players != 3 else "2003-01")
    bots = [GreedyBot(rules), HeuristicBot(rules), SearchBot(rules, **SMALL_SEARCH)]
    checked = 0
    for games in collect_states(rules, 8, 60, seed=31 + players)[::6]:
        live = np.flatnonzero(~games.done)
        obs = encode(games.state, rules, games.to_move.astype(np.int64))[live]
        mask = games.legal_mask()[live]
        views = games.views(games=live)
        for bot in bots:
            bot.reset(len(live))
            from_obs = bot.act(obs, mask)
            bot.reset(len(live))
            np.testing.assert_array_equal(bot.act(obs, mask, views=views), from_obs, err_msg=bot.name)
        checked += len(live)
    assert checked > 50


def test_determinisation_reproduces_the_observation() -> None:
    """A sampled game encodes back to the observation it came from (draw and
    discard phases, 2 and 3 players) and holds exactly the 112-card deck (R1.1)."""
    for players in (2, 3):
        rules = Rules(num_players=players)
        checked = 0
        for games in collect_states(rules, 8, 80, seed=21):
            obs = encode(games.state, rules, games.to_move.astype(np.int64))
            for b in range(games.batch_size):
                if games.state.phase[b] not in (PHASE_DRAW, PHASE_DISCARD):
                    continue
                sim = new_state(1, players)
                determinise(decode(obs[b], rules).rows(0), sim, 0, np.uint64(1000 + b))
                assert conservation_errors(sim, 0) == []
                np.testing.assert_array_equal(encode(sim, rules, 0)[0], obs[b])
                checked += 1
        assert checked > 100


def test_determinisation_samples_differ() -> None:
    """Different seeds deal the hidden cards differently; the observer's own hand never moves."""
    rules = Rules()
    games = collect_states(rules, 4, 30, seed=3)[-1]
    obs = encode(games.state, rules, games.to_move.astype(np.int64))
    b = int(np.flatnonzero(games.state.phase == PHASE_DRAW)[0])
    view = decode(obs[b], rules).rows(0)
    a, c = new_state(1, 2), new_state(1, 2)
    determinise(view, a, 0, np.uint64(1))
    determinise(view, c, 0, np.uint64(2))
    np.testing.assert_array_equal(a.hand[0, 0], c.hand[0, 0])
    assert not np.array_equal(a.hand[0, 1], c.hand[0, 1]) or not np.array_equal(a.stock, c.stock)
    assert copy_state(a).hand.sum() == a.hand.sum()


# --- behaviours on hand-made positions -------------------------------------------------------
def run_turn(bot: Agent, games: GameBatch, limit: int = 60) -> list[str]:
    """Let ``bot`` play the mover's turn to its end; the actions taken."""
    rules = games.rules
    mover = int(games.to_move[0])
    turn = int(games.state.turn[0])
    names = []
    while not games.done[0] and int(games.state.turn[0]) == turn and len(names) < limit:
        mask = games.legal_mask().copy()
        a = int(bot.act(encode(games.state, rules, mover), mask)[0])
        names.append(ACTION_NAMES[a])
        games.step(np.array([a]))
    return names


@pytest.mark.parametrize("bot_class", [GreedyBot, HeuristicBot])
def test_r10_6_heart_ace_laid_separately_at_the_opening(bot_class: type) -> None:
    """A bot that opens lays its heart ace on its own (+500), never into the aces group."""
    doc = position(
        [seat(["4S"]), seat(["AH", "AS", "AD", "AC", "KS", "KD", "7C", "8D", "9S", "5H"], opened=False)],
        stock_top=["6C"],
    )
    games = load(doc)
    bot = bot_class(games.rules)
    actions = run_turn(bot, games)
    assert "lay_heart_ace" in actions and "meld_AH" not in actions
    assert int(games.state.sep_heart_aces[0, 1]) == 1
    assert int(games.state.opened[0, 1]) == 1


def test_r13_3_black_canasta_turned_red() -> None:
    """Holding the two missing naturals, the heuristic turns a black canasta
    (five kings and two wilds) red by moving both wilds into its queens."""
    doc = position(
        [
            seat(["4S"]),
            seat(
                ["KS", "KH", "9D", "9C", "5S", "6S", "7D", "8C", "10H", "JD", "QD"],
                [["KC", "KC", "KD", "KD", "KH", "JK", "2S"], ["QS", "QH", "QC"]],
                opened=True,
            ),
        ],
        stock_top=["4D"],
    )
    games = load(doc)
    run_turn(HeuristicBot(games.rules), games)
    kings = games.state.groups[0, 1, 10]
    assert kings[:4].sum() >= 7 and kings[4:].sum() == 0, "the kings must be a red (or gold) canasta"
    assert games.state.groups[0, 1, 9, 4:].sum() == 2, "both wilds moved to the queens"


def test_r8_greedy_takes_the_pile_when_allowed() -> None:
    """GreedyBot takes the discard pile whenever R8 allows it."""
    doc = position(
        [seat(["4S"]), seat(["9S", "9D", "5C", "6C", "7H", "JD", "QC", "KH"], [["AS", "AD", "AC"]])],
        discard=["8H", "4D", "9H"],
    )
    games = load(doc)
    assert "take_pile" in games.legal_names()
    assert run_turn(GreedyBot(games.rules), games)[0] == "take_pile"


@pytest.mark.parametrize("canasta", [False, True])
def test_r8_r14_greedy_skips_a_pickup_that_kills_its_hand(canasta: bool) -> None:
    """Without a canasta GreedyBot does not take a pile that would leave it one
    card after the discard: such a hand can never meld (R14.2) nor take the
    pile (R8.1) again. With a canasta the same pickup is taken."""
    groups = [["AS", "AD", "AC"]] + ([["KS", "KS", "KD", "KD", "KH", "KC", "KC"]] if canasta else [])
    doc = position([seat(["4S"]), seat(["9S", "9D"], groups)], discard=["8H", "4D", "9H"])
    games = load(doc)
    assert "take_pile" in games.legal_names()
    assert run_turn(GreedyBot(games.rules), games)[0] == ("take_pile" if canasta else "draw")


def test_greedy_keeps_its_wilds_for_canastas() -> None:
    """Once open, GreedyBot lays groups of naturals but does not spend a wild on
    a pair (that fills the group's only wild place, R10.2): one wild turns its
    aces into a canasta, the other stays in hand."""
    doc = position(
        [
            seat(["4S"]),
            seat(
                ["KS", "KD", "JK", "2C", "QS", "QD", "QH", "5C", "6C", "7H", "8D", "9S"],
                [["AS", "AD", "AC", "AH", "AS", "AD"]],
            ),
        ],
        stock_top=["4D"],
    )
    games = load(doc)
    actions = run_turn(GreedyBot(games.rules), games)
    assert "meld_QS" in actions and "meld_KS" not in actions
    assert games.state.groups[0, 1, 0].sum() == 7, "the aces became a canasta"
    assert games.state.hand[0, 1, list(WILD_TYPES)].sum() == 1, "one wild kept in hand"


def _feeding_position(hand: list[str]) -> dict:
    """Seat 1 to move; seat 0 (next to play) is known to hold two fours and two
    fives (a pickup of a 4 or a 5 is sure, R8.1); the pile holds 12 cards."""
    pile = ["5S", "6D", "8C", "9H", "10S", "JD", "QC", "KH", "4H", "7D", "8S", "6C"]
    return position(
        [
            seat(["4S", "4C", "5D", "5C", "6H", "7C"], [["AS", "AD", "AC"]], known=["4S", "4C", "5D", "5C"]),
            seat(hand, [["JS", "JH", "JC"]]),
        ],
        discard=pile,
        stock_top=["KD"],
    )


def test_r8_heuristic_does_not_feed_a_sure_pickup() -> None:
    """The heuristic keeps a lone four that the next player could take the big
    pile with (R8.1), and discards a card he cannot use instead."""
    games = load(_feeding_position(["4D", "8D", "9C", "10D", "QD", "KC", "7S", "6S"]))
    actions = run_turn(HeuristicBot(games.rules), games)
    assert actions[-1].startswith("discard_") and actions[-1] not in (
        "discard_4D",
        "discard_KD",
        "discard_KC",
    )


def test_r9_heuristic_freezes_a_big_pile() -> None:
    """With a black three in hand and a big pile at stake, the heuristic
    discards the black three: the pile is frozen for the next player (R9)."""
    games = load(_feeding_position(["3S", "4D", "5H", "8D", "9C", "10D", "QD", "KC"]))
    actions = run_turn(HeuristicBot(games.rules), games)
    assert actions[-1] == "discard_3S"


def test_r14_greedy_goes_out_when_it_can() -> None:
    """GreedyBot melds its last cards and goes out when it holds a canasta (R14)."""
    doc = position(
        [
            seat(["4S", "4C"]),
            seat(
                ["9S", "9D", "9H", "5C"],
                [["KS", "KS", "KD", "KD", "KH", "KC", "KC"], ["QS", "QH", "QC"]],
            ),
        ],
        stock_top=["QD"],
    )
    games = load(doc)
    run_turn(GreedyBot(games.rules), games)
    assert games.done[0] and int(games.state.out_player[0]) == 1


def test_bots_are_opponents_of_the_gym_env() -> None:
    """A bot is a plain ``policy(obs, mask)`` callable, the opponent form the
    Gymnasium wrapper takes; a whole hand runs with it."""
    from kanaszta_env.envs import KanasztaGymEnv

    env = KanasztaGymEnv(opponents=HeuristicBot(), learner_seat=1)
    obs, _ = env.reset(seed=2)
    learner = GreedyBot()
    done = False
    steps = 0
    while not done:
        mask = env.action_masks()
        obs, _reward, terminated, truncated, _ = env.step(int(learner(obs[None], mask[None])[0]))
        done = terminated or truncated
        steps += 1
    assert steps > 5


def test_checkpoints_load_as_batched_agents(tmp_path, monkeypatch) -> None:
    """A ``.zip`` path becomes an agent that asks the (maskable PPO) model for
    deterministic masked actions; here the model class is a stand-in."""
    import sys
    import types

    calls = []

    class FakeModel:
        @classmethod
        def load(cls, path: str, device: str) -> FakeModel:
            calls.append((path, device))
            return cls()

        def predict(self, obs, action_masks, deterministic):
            calls.append(deterministic)
            return action_masks.argmax(axis=1), None

    monkeypatch.setitem(sys.modules, "sb3_contrib", types.SimpleNamespace(MaskablePPO=FakeModel))
    path = tmp_path / "policy.zip"
    path.write_bytes(b"")
    agent = make_agent(str(path))
    rules = Rules()
    obs, masks = decisions(collect_states(rules, 4, 10, seed=1), rules)
    check_actions(agent.act(obs, masks), masks, agent.name)
    assert calls[0] == (str(path), "cpu") and calls[1] is True
