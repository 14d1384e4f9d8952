"""Building classic canasta positions for the rule tests (docs/rules/classic.md)."""

from __future__ import annotations

import numpy as np
from checker_classic import legal_actions, position_of

from kanaszta_env import GameBatch, Rules
from kanaszta_env.cards import parse_cards
from kanaszta_env.games.classic.actions import ACTION_NAMES, action_from_name

PHASES = {"draw": 1, "meld": 2, "discard": 3, "pickup": 4, "answer": 6}
_CLEARED = ("hand", "known", "groups", "red_threes", "opened", "changed", "took_pile", "pile_locked", "asked")
RANKS = ("A", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def melds_array(melds: list[list[str]]) -> np.ndarray:
    """A side's melds as (13, 9) counts, incomplete ones too (cards laid in this turn):
    naturals by suit, 2S 2H 2D 2C, joker; a meld of wilds only is sk's wild meld (11), of
    black threes pl's black-three meld (12)."""
    grp = np.zeros((13, 9), dtype=np.int8)
    for cards in melds:
        natural = [c for c in cards if c != "JK" and c[:-1] in RANKS]
        g = RANKS.index(natural[0][:-1]) if natural else 11
        if all(c in ("3S", "3C") for c in cards):
            g = 12
        for c in cards:
            if c == "JK":
                grp[g, 8] += 1
            elif c.startswith("2"):
                grp[g, 4 + "SHDC".index(c[-1])] += 1
            else:  # a natural by its suit, a black three 3S in slot 0 and 3C in slot 3
                grp[g, "SHDC".index(c[-1])] += 1
    return grp


def table(
    variant: str = "pl",
    players: int = 4,
    *,
    hands: dict[int, list[str]],
    melds: dict[int, list[list[str]]] | None = None,
    pile: list[str] = ("7C",),
    stock: list[str] | None = None,
    to_move: int = 0,
    phase: str = "draw",
    opened: tuple[int, ...] = (),
    red_threes: dict[int, int] | None = None,
    adopt: bool = True,
    **rule_keys,
) -> GameBatch:
    """A one-game batch of classic canasta set to the given position (card conservation
    is not kept: these positions test single rules; melds may be incomplete, as if laid in
    this turn). ``stock`` lists the top card first. ``adopt=False`` leaves the caller to
    write more of the state and call ``adopt()``."""
    rules = Rules(variant=variant, num_players=players, **rule_keys)
    games = GameBatch(rules, batch_size=1)
    games.reset(seed=0)
    s = games.state
    for name in _CLEARED:
        getattr(s, name)[0] = 0
    s.pickup_card[0] = -1
    s.turn[0] = 5
    for seat, cards in hands.items():
        for t in parse_cards(cards):
            s.hand[0, seat, t] += 1
    for side, side_melds in (melds or {}).items():
        s.groups[0, side] = melds_array(side_melds)
    for side in opened:
        s.opened[0, side] = 1
    for side, n in (red_threes or {}).items():
        s.red_threes[0, side] = n
    pile_types = parse_cards(list(pile))
    s.pile[0, : len(pile_types)] = pile_types
    s.pile_len[0] = len(pile_types)
    s.pile_wilds[0] = sum(1 for c in pile if c.upper().startswith("2") or c.upper() == "JK")
    stock_types = parse_cards(stock if stock is not None else ["5C"] * 20)[::-1]
    s.stock[0, : len(stock_types)] = stock_types
    s.stock_len[0] = len(stock_types)
    side = s.side_of[0, to_move]
    s.phase[0] = PHASES[phase]
    s.to_move[0] = to_move
    s.mover[0] = to_move
    s.start_groups[0] = s.groups[0, side]
    s.cp_hand[0] = s.hand[0, to_move]
    s.cp_groups[0] = s.groups[0, side]
    if adopt:
        games.adopt()
    return games


def legal(games: GameBatch) -> set[str]:
    """Names of the legal actions of game 0, asserted equal to the independent checker's
    (tests/checker_classic.py)."""
    engine = {ACTION_NAMES[a] for a in np.flatnonzero(games.legal_mask()[0])}
    checker = legal_actions(position_of(games, 0), games.rules)
    assert engine == checker, f"engine only {sorted(engine - checker)}, checker {sorted(checker - engine)}"
    return engine


def play(games: GameBatch, *names: str) -> None:
    """Play the named actions in game 0 (each must be legal)."""
    for name in names:
        games.step(np.array([action_from_name(name)]))


def _question_in(seed: int, batch: int = 256, steps: int = 2500) -> tuple[int, list[int]] | None:
    """(game seed, actions) of a random pl 4p game reaching a state where `ask` is legal."""
    games = GameBatch(Rules(variant="pl", num_players=4), batch_size=batch)
    games.reset(seed=seed)
    rng = np.random.default_rng(seed)
    ask = action_from_name("ask")
    history: list[np.ndarray] = []
    for _ in range(steps):
        mask = games.legal_mask()
        hits = np.flatnonzero(mask[:, ask])
        if hits.size:
            b = int(hits[0])
            return seed + b, [int(h[b]) for h in history]
        # meld rather than discard when possible: hands that meld reach canastas sooner
        weights = rng.random(mask.shape) * mask
        weights[:, 3:43] *= 4
        acts = weights.argmax(axis=1)
        history.append(acts)
        games.step(acts)
        if games.done.any():
            return None
    return None


def reach_question() -> tuple[int, list[int]]:
    """(game seed, actions) of a pl 4p game dealt from that seed that reaches a state where
    ``ask`` is legal (C12.5), found by random play that prefers melding."""
    for seed in range(0, 10_000, 256):
        found = _question_in(seed)
        if found:
            return found
    raise AssertionError("no random game reached the partner question")
