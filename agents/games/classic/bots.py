"""Rule-based bots of classic canasta (presets ``pl``, ``sk``): greedy and heuristic.

Both read only the deciding seat's observation (its pieces by name,
:func:`kanaszta_env.observation.split`, docs/observation-classic.md) and its
legal mask, and score every action of a batch at once: each row takes its
legal action of highest score. The mask keeps them legal — a meld begun must
be completed or withdrawn before a discard is allowed, so a bot that prefers
melding never strands a half-built opening.

* :class:`ClassicGreedyBot` takes points now: it takes the pile whenever it
  may, melds every card it can, discards its least valuable card and goes
  out as soon as it may.
* :class:`ClassicHeuristicBot` plays for its side: it starts melds only with
  naturals, spends wilds on melds near a canasta, keeps cards in hand until
  its side can go out, does not feed the opponents (no discard of a rank
  their side has melded or one they are known to hold, a black three to
  block the pile when it can), and in ``pl`` asks its partner before going
  out when the partner holds many cards — and answers the question by the
  value of its own hand (C12.5). Its scores are one compiled function of a
  few inputs of a decision (:func:`prefer`), which the search bot's rollouts
  (:mod:`agents.games.classic.rollout`) read from the state.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kanaszta_env import Rules
from kanaszta_env.games.classic import actions as A
from kanaszta_env.games.classic.observation import HAND_SIZE_SCALE, KIND_VALUE, kind_copies
from kanaszta_env.observation import split
from kanaszta_env.rules_classic import deck_cards

from ...base import Agent

RANKS = 11
NEVER = -1e9  # the score of an action a bot avoids (it is still taken when it is the only one)
ANSWER_LIMIT = 60.0  # answer "yes" when my hand is worth at most this (C12.5)
ASK_PARTNER_CARDS = 5  # ask when a partner holds at least this many cards


@njit(cache=True)
def prefer(hand, own, fed, canasta: bool, pile: int, partner: int, answer_limit: float, ask_cards: int, out):
    """Write the scores of one decision's 57 actions into ``out``.

    ``hand`` (14,): the decider's cards by kind; ``own`` (11,): cards (wilds included) in
    its side's meld of each rank; ``fed`` (11,): nonzero where the opponents meld the rank
    or are known to hold it; ``canasta``: its side has a canasta; ``pile``: cards in the
    discard pile; ``partner``: the most cards one of its partners holds (up to 40, as the
    observation shows them); ``answer_limit``, ``ask_cards``: as :data:`ANSWER_LIMIT`,
    :data:`ASK_PARTNER_CARDS`.
    """
    size = hand.sum()
    out[:] = 0.0
    # draw phase: the pile is worth its cards (C7); with an empty stock the pile or the end (C4.5)
    out[A.DRAW] = 10.0
    out[A.TAKE_PILE] = 10.0 + 4.0 * pile
    # melding: naturals onto own melds first, new melds from three naturals, wilds only where
    # they bring a canasta closer
    for g in range(RANKS):
        out[A.MELD0 + g] = (40.0 if own[g] > 0 else 30.0 if hand[g] >= 3 else 5.0) + KIND_VALUE[g] / 10.0
        out[A.TWO0 + g] = 25.0 + own[g] if own[g] >= 4 else -5.0
        out[A.JOKER0 + g] = 20.0 + own[g] if own[g] >= 4 else -10.0
    out[A.TWO_TO_WILD] = 15.0
    out[A.JOKER_TO_WILD] = 12.0
    out[A.BLACK_THREE] = 30.0
    if not canasta and size <= 3:  # keep cards until the side may go out (C12.2)
        out[A.MELD0 : A.BLACK_THREE] -= 50.0
    out[A.WITHDRAW] = NEVER
    # pl: ask the partner when he holds many cards; answer by the value of my hand (C12.5)
    out[A.ASK] = 200.0 if partner >= ask_cards else NEVER / 2
    worth = 0.0
    for k in range(A.NUM_KINDS):
        worth += hand[k] * KIND_VALUE[k]
    out[A.ANSWER_YES] = 1.0 if worth <= answer_limit else 0.0
    out[A.ANSWER_NO] = 0.5
    # discards: do not feed the opponents (the more so the bigger the pile), cheap singletons
    # first, block the next player's pickup with a black three (C7.2), keep the wilds
    feed = 20.0 * (1.0 + pile / 4.0)
    for k in range(A.NUM_KINDS):
        out[A.DISCARD0 + k] = -KIND_VALUE[k] / 10.0 - 3.0 * min(hand[k], 3)
        if k < RANKS and fed[k] > 0:
            out[A.DISCARD0 + k] -= feed
    out[A.DISCARD0 + A.KIND_BLACK_THREE] += 15.0
    out[A.DISCARD0 + A.KIND_TWO] -= 60.0
    out[A.DISCARD0 + A.KIND_JOKER] -= 80.0
    if size <= 1:
        out[A.DISCARD0 :] += 500.0


@njit(cache=True)
def prefer_rows(hand, own, fed, canasta, pile, partner, answer_limit: float, ask_cards: int, out) -> None:
    """:func:`prefer` for every row ``i`` of a batch: inputs (N, …) or (N,), ``out`` (N, 57)."""
    for i in range(out.shape[0]):
        prefer(hand[i], own[i], fed[i], canasta[i], pile[i], partner[i], answer_limit, ask_cards, out[i])


class ClassicBot(Agent):
    """Common part of the classic bots: the pieces of a batch and the choice."""

    def setup(self, rules: Rules) -> None:
        if rules.game.name != "classic":
            raise ValueError(
                f"{type(self).__name__} plays classic canasta (variant 'pl' or 'sk'), not {rules.variant!r}"
            )
        super().setup(rules)
        self.deck = float(deck_cards(rules.num_players))
        self.copies = kind_copies(rules.num_players)

    def counts(self, piece: np.ndarray) -> np.ndarray:
        """Card counts of a by-kind piece (its values are count ÷ copies)."""
        return np.rint(piece * self.copies)

    def act(self, obs: np.ndarray, mask: np.ndarray, slots: np.ndarray | None = None) -> np.ndarray:
        mask = np.asarray(mask, dtype=np.bool_)
        if mask.shape[1] != A.NUM_ACTIONS:
            raise ValueError(
                f"{self.name} expects classic canasta masks of {A.NUM_ACTIONS} actions, got {mask.shape}"
            )
        scores = self.scores(split(np.asarray(obs, dtype=np.float32), self.rules))
        scores = np.where(mask, scores, -np.inf)
        return scores.argmax(axis=1).astype(np.int64)

    def scores(self, p: dict[str, np.ndarray]) -> np.ndarray:
        """(N, 57) preference of every action (only the legal ones are compared)."""
        raise NotImplementedError


class ClassicGreedyBot(ClassicBot):
    """Points now: take the pile, meld everything, discard the cheapest card, go out at once."""

    name = "greedy"

    def scores(self, p: dict[str, np.ndarray]) -> np.ndarray:
        n = p["hand"].shape[0]
        s = np.zeros((n, A.NUM_ACTIONS))
        s[:, A.TAKE_PILE] = 100.0
        s[:, A.DRAW] = 50.0
        s[:, A.END_HAND] = 0.0
        s[:, A.MELD0 : A.MELD0 + RANKS] = 60.0 + KIND_VALUE[:RANKS]
        s[:, A.TWO0 : A.TWO0 + RANKS] = 55.0
        s[:, A.JOKER0 : A.JOKER0 + RANKS] = 55.0
        s[:, A.TWO_TO_WILD] = s[:, A.JOKER_TO_WILD] = 55.0
        s[:, A.BLACK_THREE] = 55.0
        s[:, A.WITHDRAW] = NEVER
        s[:, A.ASK] = NEVER / 2  # goes out without asking
        s[:, A.ANSWER_YES] = 1.0
        s[:, A.ANSWER_NO] = 0.0
        s[:, A.DISCARD0 :] = -KIND_VALUE
        return s


class ClassicHeuristicBot(ClassicBot):
    """Partner-aware play (see the module docstring): the scores of
    :func:`prefer`, from what the observation shows."""

    name = "heuristic"

    def __init__(
        self,
        rules: Rules | None = None,
        answer_limit: float = ANSWER_LIMIT,
        ask_partner_cards: int = ASK_PARTNER_CARDS,
    ) -> None:
        self.answer_limit = answer_limit  # "yes" when my hand is worth at most this (C12.5)
        self.ask_partner_cards = ask_partner_cards  # ask when the partner holds at least this many
        super().__init__(rules)

    def scores(self, p: dict[str, np.ndarray]) -> np.ndarray:
        hand = self.counts(p["hand"]).astype(np.int64)  # (n, 14)
        melds = p["melds"][:, :, :RANKS]  # (n, S, 11, 3) own side first: naturals, 2s, jokers
        own = np.rint(melds[:, 0] * self.copies[[0, A.KIND_TWO, A.KIND_JOKER]]).sum(axis=2).astype(np.int64)
        foes = 1.0 - p["partners"][:, 1:]  # (n, P-1)
        known = (self.counts(p["known_cards"]) * foes[:, :, None]).sum(axis=1)[:, :RANKS]
        fed = (melds[:, 1:, :, 0] > 0).any(axis=1) | (known >= 1)  # the other sides meld or hold it
        partners = p["partners"].copy()
        partners[:, 0] = 0.0  # not myself
        partner = (partners * np.rint(p["hand_sizes"] * HAND_SIZE_SCALE)).max(axis=1).astype(np.int64)
        pile = np.rint(p["pile_size"][:, 0] * self.deck).astype(np.int64)
        canasta = p["canasta"][:, 0] > 0
        out = np.empty((len(hand), A.NUM_ACTIONS))
        limit, ask = float(self.answer_limit), int(self.ask_partner_cards)
        prefer_rows(hand, own, fed.astype(np.int64), canasta, pile, partner, limit, ask, out)
        return out
