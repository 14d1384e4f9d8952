"""Bots of every game: legal choices only, decisions from the observation alone, the
search's worlds and its leader, the registry, the shipped ppo agents, and a few Díszített
rule-driven behaviours (R8, R9, R10.6, R13.3, R14).

States come from seeded batched play; the "hidden information" test re-deals
every card the deciding player cannot know (tests/conformance/hidden.py's
``redeal``) and checks that his observation, and hence every bot's decision,
stays the same.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conformance.hidden import redeal
from rules_helpers import load, position, seat

from agents import GreedyBot, RandomBot, make_agent, play_batch
from agents.base import Agent, check_actions
from agents.games.classic.bots import ClassicHeuristicBot
from agents.games.classic.search import ClassicSearch
from agents.games.diszitett.determinise import determinise
from agents.games.diszitett.heuristic import HeuristicBot
from agents.games.diszitett.search import SearchBot
from agents.games.turkish.bots import TurkishHeuristicBot
from agents.games.turkish.search import TurkishSearch
from agents.hinted import HintedPolicy
from agents.registry import SHIPPED_POLICY, shipped_tables
from agents.search import SimulatedSearchBot
from agents.tournament import play_pair
from kanaszta_env import GameBatch, Rules
from kanaszta_env.cards import WILD_TYPES
from kanaszta_env.engine.kernels import kernels_for
from kanaszta_env.games.diszitett.actions import ACTION_NAMES
from kanaszta_env.games.diszitett.invariants import conservation_errors
from kanaszta_env.games.diszitett.kernels.state import PHASE_DISCARD, PHASE_DRAW, new_state
from kanaszta_env.games.diszitett.observation import decode, encode
from kanaszta_env.observation import observation_size, piece_offsets, split

SMALL_SEARCH = {"samples": 2, "horizon": 1, "max_discards": 2}


def collect_states(rules: Rules, games: int, steps: int, seed: int) -> list[GameBatch]:
    """Snapshots (one batch per step) of ``games`` games played by a mix of
    random and greedy players; finished games are dealt again."""
    batch = GameBatch(rules, games)
    batch.reset(seed=seed)
    players = [RandomBot(seed), make_agent("greedy", rules)]
    snaps = []
    for step in range(steps):
        snaps.append(batch.copy())
        obs, mask = batch.observe(), batch.legal_mask()  # every game is live: see below
        use_random = (np.arange(games) + step // 40) % 2 == 0
        batch.step(np.where(use_random, players[0].act(obs, mask), players[1].act(obs, mask)))
        if batch.done.any():
            batch.reset(seed=seed + 7919 * (step + 1), which=batch.done)
    return snaps


def decisions(snaps: list[GameBatch]) -> tuple[np.ndarray, np.ndarray, Any]:
    """Observations, masks and (Díszített) views of every live decision in ``snaps``."""
    obs, masks, views = [], [], []
    for g in snaps:
        live = ~g.done
        obs.append(g.observe()[live])
        masks.append(g.legal_mask()[live].copy())
        if g.rules.game.has("views"):
            views.append(g.views(games=np.flatnonzero(live)))
    joined = type(views[0])(*map(np.concatenate, zip(*views, strict=True))) if views else None
    return np.concatenate(obs), np.concatenate(masks), joined


@pytest.mark.parametrize(
    ("players", "variant"), [(2, "2003-02"), (3, "2003-01"), (4, "2003-02")], ids=["2p", "3p", "4p"]
)
def test_bots_choose_only_legal_actions_alike_from_views_and_observations(players: int, variant: str) -> None:
    """Over thousands of reachable states (all phases, R3-R14) every bot picks a legal action;
    a compiled bot handed the engine's views (as play_batch and the engine's policy seats hand
    them) chooses exactly what it chooses from the observations alone (decoded)."""
    rules = Rules(num_players=players, variant=variant)
    obs, masks, views = decisions(collect_states(rules, 32, 110, seed=players))
    assert len(obs) > 3000
    phases = set(obs[:, :6].argmax(axis=1).tolist())
    assert {0, 1, 2, 3, 4} <= phases, "the sample must cover cut, draw, meld, discard and pickup"
    for bot in (RandomBot(1), GreedyBot(rules), HeuristicBot(rules)):
        chosen = bot.act(obs, masks)
        check_actions(chosen, masks, bot.name)  # raises on an illegal choice
        if bot.wants_views:
            np.testing.assert_array_equal(bot.act(obs, masks, views=views), chosen, err_msg=bot.name)
    search = SearchBot(rules, **SMALL_SEARCH)
    pick = np.random.default_rng(0).choice(len(obs), 400, replace=False)
    chosen = search.act(obs[pick], masks[pick])
    check_actions(chosen, masks[pick], "search")
    pick, chosen = pick[:80], chosen[:80]
    np.testing.assert_array_equal(search.act(obs[pick], masks[pick], views=views.rows(pick)), chosen)


@pytest.mark.parametrize(
    ("variant", "players", "search", "leader"),
    [
        ("2003-02", 2, "search", "heuristic"),
        ("2003-02", 2, "ppo+search", "ppo"),
        ("tr", 4, "ppo+search", "ppo"),
    ],
)
def test_search_keeps_its_leaders_choice_unless_a_candidate_beats_it(
    variant: str, players: int, search: str, leader: str
) -> None:
    """The search puts its leader's choice (the heuristic's; the shipped policy's for
    ``ppo+search``) first and replaces it only when a candidate's paired advantage clears
    ``z`` standard errors and the ``prior``: with an unreachable prior it plays exactly the
    leader's actions; a large ``z`` overrules it at fewer decisions than ``z = 0`` (best mean
    wins), and only where ``z = 0`` does too, always legally."""
    rules = Rules(variant=variant, num_players=players)
    obs, masks, _ = decisions(collect_states(rules, 16, 60, seed=5))
    pick = np.random.default_rng(1).choice(len(obs), 120, replace=False)
    obs, masks = obs[pick], masks[pick]
    first = make_agent(leader, rules).act(obs, masks)
    small = f"{search}:samples=4,horizon=2,max_discards=3"
    strict = make_agent(f"{small},prior=1000000000", rules)
    assert strict.name.startswith(search) and (strict.act(obs, masks) == first).all()
    loose = make_agent(f"{small},z=0", rules).act(obs, masks)
    check_actions(loose, masks, search)
    loose, careful = loose != first, make_agent(f"{small},z=1000000", rules).act(obs, masks) != first
    assert careful.sum() < loose.sum() and not (careful & ~loose).any()


@pytest.mark.parametrize(("variant", "players", "every"), [("2003-02", 2, 3), ("pl", 4, 6), ("tr", 4, 6)])
def test_decisions_depend_on_the_observation_only(variant: str, players: int, every: int) -> None:
    """Re-dealing the hidden cards (C2.9) leaves the mover's observation and mask (and views:
    tests/conformance/test_envs.py), and every bot's decision, unchanged: the search's samples
    are seeded by its observation. The re-deal does change other hands, so the check is not vacuous."""
    rules = Rules(variant=variant, num_players=players)
    rng = np.random.default_rng(5)
    names = ("greedy", "heuristic", "search:samples=2,horizon=1,max_discards=2", "random")
    bots = [make_agent(name, rules, seed=3) for name in names]
    changed = checked = 0
    for batch in collect_states(rules, 8, 60, seed=11)[::every]:
        for b in range(batch.batch_size):
            one = batch.game(b)
            mover = int(one.to_move[0])
            other = redeal(one, mover, rng)
            obs1, obs2 = one.observe(), other.observe(seats=mover)
            np.testing.assert_array_equal(obs1, obs2)
            mask1, mask2 = one.legal_mask().copy(), other.legal_mask().copy()
            np.testing.assert_array_equal(mask1, mask2)
            changed += int(not np.array_equal(one.state.hand, other.state.hand))
            for bot in bots:
                bot.reset(1)
                a1 = bot.act(obs1, mask1)
                bot.reset(1)
                assert a1[0] == bot.act(obs2, mask2)[0], f"{bot.name} changed its decision"
            checked += 1
    assert checked > 60 and changed > checked // 2 and bots[2].searched > 5


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


def test_determinisation_reproduces_the_observation() -> None:
    """A sampled game encodes back to the observation it came from (draw and discard phases,
    2 and 3 players) and holds exactly the 112-card deck (R1.1); another seed deals the hidden
    cards differently, never the observer's own hand."""
    for players in (2, 3):
        rules = Rules(num_players=players)
        checked = varied = 0
        for games in collect_states(rules, 8, 80, seed=21):
            obs = encode(games.state, rules, games.to_move.astype(np.int64))
            for b in range(games.batch_size):
                if games.state.phase[b] not in (PHASE_DRAW, PHASE_DISCARD):
                    continue
                sim, other = new_state(1, players), new_state(1, players)
                determinise(decode(obs[b], rules).rows(0), sim, 0, np.uint64(1000 + b))
                determinise(decode(obs[b], rules).rows(0), other, 0, np.uint64(1))
                assert conservation_errors(sim, 0) == []
                np.testing.assert_array_equal(encode(sim, rules, 0)[0], obs[b])
                np.testing.assert_array_equal(sim.hand[0, 0], other.hand[0, 0])
                varied += not np.array_equal(sim.hand[0, 1:], other.hand[0, 1:])
                checked += 1
        assert checked > 100 and varied > checked // 2


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
    mover = seat(["AH", "AS", "AD", "AC", "KS", "KD", "7C", "8D", "9S", "5H"], opened=False)
    games = load(position([seat(["4S"]), mover], stock_top=["6C"]))
    bot = bot_class(games.rules)
    actions = run_turn(bot, games)
    assert "lay_heart_ace" in actions and "meld_AH" not in actions
    assert int(games.state.sep_heart_aces[0, 1]) == 1
    assert int(games.state.opened[0, 1]) == 1


def test_r13_3_black_canasta_turned_red() -> None:
    """Holding the two missing naturals, the heuristic turns a black canasta
    (five kings and two wilds) red by moving both wilds into its queens."""
    hand = ["KS", "KH", "9D", "9C", "5S", "6S", "7D", "8C", "10H", "JD", "QD"]
    mover = seat(hand, [["KC", "KC", "KD", "KD", "KH", "JK", "2S"], ["QS", "QH", "QC"]], opened=True)
    games = load(position([seat(["4S"]), mover], stock_top=["4D"]))
    run_turn(HeuristicBot(games.rules), games)
    kings = games.state.groups[0, 1, 10]
    assert kings[:4].sum() >= 7 and kings[4:].sum() == 0, "the kings must be a red (or gold) canasta"
    assert games.state.groups[0, 1, 9, 4:].sum() == 2, "both wilds moved to the queens"


KINGS = ["KS", "KS", "KD", "KD", "KH", "KC", "KC"]  # a canasta


@pytest.mark.parametrize(
    ("hand", "groups", "first"),
    [
        (["9S", "9D", "5C", "6C", "7H", "JD", "QC", "KH"], [["AS", "AD", "AC"]], "take_pile"),
        (["9S", "9D"], [["AS", "AD", "AC"]], "draw"),
        (["9S", "9D"], [["AS", "AD", "AC"], KINGS], "take_pile"),
    ],
    ids=["allowed", "kills-the-hand", "with-a-canasta"],
)
def test_r8_r14_greedy_takes_the_pile_unless_it_kills_its_hand(hand, groups, first: str) -> None:
    """GreedyBot takes the discard pile whenever R8 allows it, except that without a canasta it
    does not take a pile that would leave it one card after the discard: such a hand can never
    meld (R14.2) nor take the pile (R8.1) again. With a canasta the same pickup is taken."""
    games = load(position([seat(["4S"]), seat(hand, groups)], discard=["8H", "4D", "9H"]))
    assert "take_pile" in games.legal_names()
    assert run_turn(GreedyBot(games.rules), games)[0] == first


def test_greedy_keeps_its_wilds_for_canastas() -> None:
    """Once open, GreedyBot lays groups of naturals but does not spend a wild on
    a pair (that fills the group's only wild place, R10.2): one wild turns its
    aces into a canasta, the other stays in hand."""
    mover = seat(
        ["KS", "KD", "JK", "2C", "QS", "QD", "QH", "5C", "6C", "7H", "8D", "9S"],
        [["AS", "AD", "AC", "AH", "AS", "AD"]],
    )
    games = load(position([seat(["4S"]), mover], stock_top=["4D"]))
    actions = run_turn(GreedyBot(games.rules), games)
    assert "meld_QS" in actions and "meld_KS" not in actions
    assert games.state.groups[0, 1, 0].sum() == 7, "the aces became a canasta"
    assert games.state.hand[0, 1, list(WILD_TYPES)].sum() == 1, "one wild kept in hand"


def _feeding_position(hand: list[str]) -> dict:
    """Seat 1 to move; seat 0 (next to play) is known to hold two fours and two
    fives (a pickup of a 4 or a 5 is sure, R8.1); the pile holds 12 cards."""
    pile = ["5S", "6D", "8C", "9H", "10S", "JD", "QC", "KH", "4H", "7D", "8S", "6C"]
    nxt = seat(["4S", "4C", "5D", "5C", "6H", "7C"], [["AS", "AD", "AC"]], known=["4S", "4C", "5D", "5C"])
    return position([nxt, seat(hand, [["JS", "JH", "JC"]])], discard=pile, stock_top=["KD"])


@pytest.mark.parametrize(
    ("hand", "allowed"),
    [
        (["4D", "8D", "9C", "10D", "QD", "KC", "7S", "6S"], ["8D", "9C", "10D", "QD", "7S", "6S"]),
        (["3S", "4D", "5H", "8D", "9C", "10D", "QD", "KC"], ["3S"]),
    ],
    ids=["R8-no-feeding", "R9-freezing"],
)
def test_r8_r9_heuristic_neither_feeds_nor_leaves_a_big_pile(hand: list[str], allowed: list[str]) -> None:
    """The heuristic keeps a lone four that the next player could take the big pile with
    (R8.1), and the drawn king, and discards a card he cannot use instead; with a black three
    in hand it discards the black three: the pile is frozen for the next player (R9)."""
    games = load(_feeding_position(hand))
    assert run_turn(HeuristicBot(games.rules), games)[-1] in [f"discard_{card}" for card in allowed]


def test_r14_greedy_goes_out_when_it_can() -> None:
    """GreedyBot melds its last cards and goes out when it holds a canasta (R14)."""
    mover = seat(["9S", "9D", "9H", "5C"], [KINGS, ["QS", "QH", "QC"]])
    games = load(position([seat(["4S", "4C"]), mover], stock_top=["QD"]))
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


# --- classic canasta and Turkish kanasta -------------------------------------------------------
#: every classic preset and player count, and Turkish kanasta
OTHER_TABLES = [
    ("pl", 2),
    ("pl", 3),
    ("pl", 4),
    ("sk", 2),
    ("sk", 3),
    ("sk", 4),
    ("sk", 5),
    ("sk", 6),
    ("tr", 4),
]


@pytest.mark.parametrize(("variant", "players"), OTHER_TABLES)
def test_rule_bots_play_every_table_legally(variant: str, players: int) -> None:
    """The random, greedy and heuristic bots of classic canasta and Turkish kanasta play whole
    hands legally (play_batch raises on an illegal choice); every seat of a side scores the side's score."""
    rules = Rules(variant=variant, num_players=players)
    agents = [make_agent(name, rules, seed=1) for name in ("random", "greedy", "heuristic")]
    seats = np.array([[(b + q) % 3 for q in range(players)] for b in range(12)])
    result = play_batch(rules, agents, seats, np.arange(12))
    assert (result.decisions.sum(axis=1) > 0).all()
    assert set(result.end_reason.tolist()) <= {1, 2, 3}
    sides = np.array(rules.sides())
    firsts = np.unique(sides, return_index=True)[1]
    np.testing.assert_array_equal(result.scores, result.scores[:, firsts][:, sides])


@pytest.mark.parametrize(
    ("variant", "players", "kit", "deals"),
    [("pl", 4, ClassicSearch, 4), ("sk", 5, ClassicSearch, 4), ("tr", 4, TurkishSearch, 2)],
)
def test_search_bot_plays_legally_and_searches(variant: str, players: int, kit: type, deals: int) -> None:
    """The registry's search bot plays the game's own kit legally and searches the pile and discards."""
    rules = Rules(variant=variant, num_players=players)
    bot = make_agent("search:samples=3,horizon=2", rules, seed=1)
    assert isinstance(bot, SimulatedSearchBot) and isinstance(bot.kit, kit) and bot.samples == 3
    seats = np.array([[(b + q) % 2 for q in range(players)] for b in range(deals)])
    result = play_batch(rules, [bot, make_agent("heuristic", rules)], seats, np.arange(deals))
    assert set(result.end_reason.tolist()) <= {1, 2, 3}
    assert bot.searched > 5 * deals and 0 <= bot.overruled <= bot.searched


@pytest.mark.parametrize(("variant", "deals"), [("pl", 16), ("tr", 12)])
def test_search_is_no_worse_than_the_heuristic_it_starts_from(variant: str, deals: int) -> None:
    """On duplicate deals (both sides of each deal) the search does not lose to the heuristic."""
    rules = Rules(variant=variant, num_players=4)
    bot = make_agent("search:samples=8,horizon=8", rules, seed=1)
    result = play_pair(rules, bot, make_agent("heuristic", rules), deals=deals, seed=77)
    assert result.summary()["diff_ci95"][1] > 0 and bot.overruled > 0


@pytest.mark.parametrize(("variant", "players"), OTHER_TABLES)
def test_c2_9_the_search_deals_worlds_that_agree_with_the_observation(variant: str, players: int) -> None:
    """Every world the search deals from one seat's observation holds its whole deck and shows
    that seat, to move, the same observation and legal actions (in classic canasta all but
    ``withdrawable`` and ``withdraw``, which need the turn's checkpoint the observation does not
    show); the hidden cards are dealt at random."""
    rules = Rules(variant=variant, num_players=players)
    kit, rng = make_agent("search", rules).kit, np.random.default_rng(3)
    conserved = kernels_for(rules.spec).ruleset.conserved
    keep = np.ones(observation_size(rules), dtype=bool)
    keep[piece_offsets(rules).get("withdrawable", (slice(0),))[0]] = False
    check = GameBatch(rules, 3)
    names = list(check.action_names)
    withdraw = names.index("withdraw") if "withdraw" in names else slice(0)
    checked = varied = 0
    phases = set()
    for games in collect_states(rules, 12, 160, seed=players)[::40]:
        obs, mask = games.observe(), games.legal_mask()
        pieces = split(obs, rules)
        for b in range(games.batch_size):
            s, me = kit.determinise(b, {k: v[b] for k, v in pieces.items()}, rng, 3)
            assert all(conserved(s, rules.to_config(), k, np.zeros(53, dtype=np.int64)) for k in range(3))
            check.state = s
            assert (check.observe(seats=me)[:, keep] == obs[b, keep]).all() and (s.to_move == me).all()
            legal = check.legal_mask().copy()
            legal[:, withdraw] = mask[b, withdraw]
            assert (legal == mask[b]).all()
            varied += not (s.hand == s.hand[:1]).all()
            phases.add(int(games.state.phase[b]))
            checked += 1
    assert checked > 30 and varied > checked // 2 and len(phases) > 1


def test_registry_options_reach_the_bots() -> None:
    search = make_agent("search:samples=3,horizon=2,modes=0", Rules())
    assert (search.samples, search.horizon, search.kit.modes) == (3, 2, False)
    assert make_agent("heuristic:min_left=6", Rules()).params[0] == 6.0
    assert make_agent("heuristic:answer_limit=10", Rules(variant="sk", num_players=4)).answer_limit == 10.0
    tr = Rules(variant="tr")
    bot = make_agent("search:samples=5,horizon=3,max_discards=2,hand_weight=0.5,z=0.5,prior=2,seed=9", tr)
    assert isinstance(bot.kit, TurkishSearch) and bot.name.startswith("search:")
    assert (bot.samples, bot.horizon, bot.max_discards, bot.seed) == (5, 3, 2, 9)
    assert (bot.hand_weight, bot.z, bot.prior) == (0.5, 0.5, 2.0)
    assert make_agent("search", tr, seed=4).seed == 4
    assert not make_agent("ppo:sample=1", Rules(), seed=3).deterministic


@pytest.mark.parametrize(
    ("spec", "table", "match"),
    [
        ("nobody", "2003-02 2", "unknown agent"),
        ("search:depth=3", "2003-02 2", "unknown search option"),
        ("ppo:depth=3", "2003-02 2", r"unknown ppo option\(s\) \['depth'\]"),
        ("ppo:sample=yes", "2003-02 2", "must be an integer"),
        ("ppo", "pl 3", r"no ppo agent is shipped for .*\(pl\) with 3 players \(shipped: 2003"),
        ("heuristic:depth=3", "sk 4", "unknown heuristic option"),
        ("heuristic:x=1", "tr 4", "takes no options"),
        ("search:modes=2", "tr 4", "unknown search option"),
        ("search:samples=1", "tr 4", "samples must be an integer of at least 2"),
        ("search:horizon=x", "tr 4", "option horizon of agent 'search:horizon=x' must be an integer"),
        ("search:hand_weight=2", "tr 4", "hand_weight must lie"),
        ("search:z=-1", "tr 4", "non-negative"),
        ("search:samples", "tr 4", "expected key=value"),
    ],
)
def test_registry_refuses_bad_agents_and_options(spec: str, table: str, match: str) -> None:
    """Unknown agents and options, bad values, and a ppo agent for a table none is shipped for."""
    variant, players = table.split()
    with pytest.raises(ValueError, match=match):
        make_agent(spec, Rules(variant=variant, num_players=int(players)))


@pytest.mark.parametrize(
    ("build", "match"),
    [
        (lambda: ClassicHeuristicBot(Rules()), "plays classic canasta"),
        (lambda: TurkishHeuristicBot(Rules()), "plays Turkish kanasta"),
        (
            lambda: SimulatedSearchBot(Rules(variant="sk", num_players=4), ClassicSearch(), depth=3),
            "unknown search",
        ),
    ],
)
def test_bots_refuse_other_games_and_unknown_settings(build, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        build()


# --- the shipped ppo agents ------------------------------------------------------------------
def test_the_shipped_policy_is_small_and_loads_without_pytorch() -> None:
    assert SHIPPED_POLICY.is_file() and SHIPPED_POLICY.stat().st_size < 4_000_000  # a few MB at most
    code = (
        "import sys; sys.modules['torch'] = None\n"  # any import of torch now fails
        "from agents.registry import make_agent\n"
        "import numpy as np\n"
        "from kanaszta_env import GameBatch, Rules\n"
        "g = GameBatch(Rules(), 4); g.reset(seed=np.arange(4))\n"
        "a = make_agent('ppo').act(g.observe(), g.legal_mask())\n"
        "assert g.legal_mask()[np.arange(4), a].all(); print('ok')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=Path(__file__).resolve().parents[1]
    )
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), done.stderr[-2000:]


@pytest.mark.parametrize("table", shipped_tables())
def test_every_shipped_policy_plays_its_table(table: str) -> None:
    """make_agent("ppo", rules) finds the policy of the rules' table (agents/data), a
    deterministic network reading its game's HeuristicBot's choice, which plays legal moves
    there (the driver checks them)."""
    variant, players = table.split()
    # a few MB: the Turkish network's first layer reads 4,659 inputs (6.0 MB), the others' 1.7-2.2 MB
    assert (SHIPPED_POLICY.parent / f"ppo-{variant}-{players}.npz").stat().st_size < 8_000_000
    rules = Rules(variant=variant, num_players=int(players.removesuffix("p")), max_turns=30)
    agent = make_agent("ppo", rules)
    assert isinstance(agent, HintedPolicy) and agent.name == "ppo" and agent.deterministic
    assert agent.policy.hint == "heuristic"
    trained = agent.trained_rules
    assert (trained.variant, trained.num_players) == (rules.variant, rules.num_players)
    seats = np.array([[k % 2] * rules.num_players for k in range(4)])
    seats[:, 1::2] = 1 - seats[:, 1::2]
    result = play_batch(rules, [agent, RandomBot(seed=1)], seats, np.arange(4))
    assert result.decisions[:, 0].sum() > 0


@pytest.mark.parametrize(
    ("missing", "raised"), [("torch", ValueError), ("sb3_contrib.common", ValueError), ("yaml", ImportError)]
)
def test_a_checkpoint_names_a_missing_optional_package_and_lets_other_import_errors_through(
    monkeypatch: pytest.MonkeyPatch, missing: str, raised: type[Exception]
) -> None:
    """Only torch and the SB3 packages are optional for a ``.zip``: any other failed import is a fault."""
    import agents.checkpoint
    from agents.registry import load_checkpoint

    def fail(*_args: Any, **_kwargs: Any) -> None:
        raise ImportError(f"No module named {missing!r}", name=missing)

    monkeypatch.setattr(agents.checkpoint, "load_policy", fail)
    with pytest.raises(raised, match=missing):
        load_checkpoint("x.zip")
