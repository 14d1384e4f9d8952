"""Rule-based bots of classic canasta (presets ``pl``, ``sk``): greedy and heuristic.

Both read only the deciding seat's observation (its pieces by name,
:func:`kanaszta_env.observation.split`, docs/observation-classic.md) and its
legal mask, and score every action of a batch at once with numpy: each row
takes its legal action of highest score. The mask keeps them legal — a meld
begun must be completed or withdrawn before a discard is allowed, so a bot
that prefers melding never strands a half-built opening.

* :class:`ClassicGreedyBot` takes points now: it takes the pile whenever it
  may, melds every card it can, discards its least valuable card and goes
  out as soon as it may.
* :class:`ClassicHeuristicBot` plays for its side: it starts melds only with
  naturals, spends wilds on melds near a canasta, keeps cards in hand until
  its side can go out, does not feed the opponents (no discard of a rank
  their side has melded or one they are known to hold, a black three to
  block the pile when it can), and in ``pl`` asks its partner before going
  out when the partner holds many cards — and answers the question by the
  value of its own hand (C12.5).
"""

from __future__ import annotations

import numpy as np

from kanaszta_env import Rules
from kanaszta_env.games.classic.actions import (
    ANSWER_NO,
    ANSWER_YES,
    ASK,
    BLACK_THREE,
    DISCARD0,
    DRAW,
    END_HAND,
    JOKER0,
    JOKER_TO_WILD,
    KIND_BLACK_THREE,
    KIND_JOKER,
    KIND_TWO,
    MELD0,
    NUM_ACTIONS,
    TAKE_PILE,
    TWO0,
    TWO_TO_WILD,
    WITHDRAW,
)
from kanaszta_env.games.classic.observation import KIND_VALUE, kind_copies
from kanaszta_env.observation import split
from kanaszta_env.rules_classic import deck_cards

from ...base import Agent

RANKS = 11
NEVER = -1e9  # the score of an action a bot avoids (it is still taken when it is the only one)


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

    def __init__(self, rules: Rules | None = None) -> None:
        if rules is not None:
            self.setup(rules)

    def counts(self, piece: np.ndarray) -> np.ndarray:
        """Card counts of a by-kind piece (its values are count ÷ copies)."""
        return np.rint(piece * self.copies)

    def act(self, obs: np.ndarray, mask: np.ndarray, slots: np.ndarray | None = None) -> np.ndarray:
        mask = np.asarray(mask, dtype=np.bool_)
        if mask.shape[1] != NUM_ACTIONS:
            raise ValueError(
                f"{self.name} expects classic canasta masks of {NUM_ACTIONS} actions, got {mask.shape}"
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
        s = np.zeros((n, NUM_ACTIONS))
        s[:, TAKE_PILE] = 100.0
        s[:, DRAW] = 50.0
        s[:, END_HAND] = 0.0
        s[:, MELD0 : MELD0 + RANKS] = 60.0 + KIND_VALUE[:RANKS]
        s[:, TWO0 : TWO0 + RANKS] = 55.0
        s[:, JOKER0 : JOKER0 + RANKS] = 55.0
        s[:, TWO_TO_WILD] = s[:, JOKER_TO_WILD] = 55.0
        s[:, BLACK_THREE] = 55.0
        s[:, WITHDRAW] = NEVER
        s[:, ASK] = NEVER / 2  # goes out without asking
        s[:, ANSWER_YES] = 1.0
        s[:, ANSWER_NO] = 0.0
        s[:, DISCARD0:] = -KIND_VALUE
        return s


class ClassicHeuristicBot(ClassicBot):
    """Partner-aware play (see the module docstring)."""

    name = "heuristic"

    def __init__(
        self, rules: Rules | None = None, answer_limit: float = 60.0, ask_partner_cards: int = 5
    ) -> None:
        self.answer_limit = answer_limit  # "yes" when my hand is worth at most this (C12.5)
        self.ask_partner_cards = ask_partner_cards  # ask when the partner holds at least this many
        super().__init__(rules)

    def scores(self, p: dict[str, np.ndarray]) -> np.ndarray:
        n = p["hand"].shape[0]
        hand = self.counts(p["hand"])  # (n, 14)
        size = hand.sum(axis=1)
        melds = p["melds"]  # (n, S, 13, 3) own side first; count ÷ copies
        own_naturals = np.rint(melds[:, 0, :RANKS, 0] * self.copies[:RANKS])
        own_wilds = np.rint(melds[:, 0, :RANKS, 1] * self.copies[KIND_TWO]) + np.rint(
            melds[:, 0, :RANKS, 2] * self.copies[KIND_JOKER]
        )
        own_size = own_naturals + own_wilds  # (n, 11)
        canasta = p["canasta"][:, 0] > 0
        s = np.zeros((n, NUM_ACTIONS))
        # draw phase: the pile is worth its cards (C7); with an empty stock the pile or the end (C4.5)
        s[:, DRAW] = 10.0
        s[:, TAKE_PILE] = 10.0 + 4.0 * p["pile_size"][:, 0] * self.deck
        s[:, END_HAND] = 0.0
        # melding: naturals onto own melds first, new melds from three naturals; keep two cards
        # in hand until the side has a canasta (nobody can go out without one, C12.2)
        onto = own_size > 0
        s[:, MELD0 : MELD0 + RANKS] = np.where(onto, 40.0, np.where(hand[:, :RANKS] >= 3, 30.0, 5.0))
        s[:, MELD0 : MELD0 + RANKS] += KIND_VALUE[:RANKS] / 10.0
        near = own_size >= 4  # wilds only where they bring a canasta closer
        s[:, TWO0 : TWO0 + RANKS] = np.where(near, 25.0 + own_size, -5.0)
        s[:, JOKER0 : JOKER0 + RANKS] = np.where(near, 20.0 + own_size, -10.0)
        s[:, TWO_TO_WILD] = 15.0
        s[:, JOKER_TO_WILD] = 12.0
        s[:, BLACK_THREE] = 30.0
        keep = (~canasta) & (size <= 3)
        s[:, 3:BLACK_THREE] = np.where(keep[:, None], s[:, 3:BLACK_THREE] - 50.0, s[:, 3:BLACK_THREE])
        s[:, WITHDRAW] = NEVER
        # pl: ask the partner when he holds many cards; answer by the value of my hand (C12.5)
        partner_cards = self._partner_cards(p)
        s[:, ASK] = np.where(partner_cards >= self.ask_partner_cards, 200.0, NEVER / 2)
        worth = (hand * KIND_VALUE).sum(axis=1)
        s[:, ANSWER_YES] = np.where(worth <= self.answer_limit, 1.0, 0.0)
        s[:, ANSWER_NO] = 0.5
        s[:, DISCARD0:] = self._discard_scores(p, hand, size)
        return s

    def _partner_cards(self, p: dict[str, np.ndarray]) -> np.ndarray:
        """The most cards held by one of my partners (0 without partners)."""
        partners = p["partners"].copy()
        partners[:, 0] = 0.0  # not myself
        sizes = np.rint(p["hand_sizes"] * 40.0)
        return (partners * sizes).max(axis=1)

    def _discard_scores(self, p: dict[str, np.ndarray], hand: np.ndarray, size: np.ndarray) -> np.ndarray:
        """(n, 14): do not feed the opponents, block with a black three, keep pairs and wilds."""
        pile = 1.0 + np.rint(p["pile_size"][:, 0] * self.deck) / 4.0  # a big pile makes feeding costly
        theirs = (p["melds"][:, 1:, :RANKS, 0] > 0).any(axis=1)  # (n, 11) ranks the other sides meld
        foes = 1.0 - p["partners"][:, 1:]  # (n, P-1)
        known = (self.counts(p["known_cards"]) * foes[:, :, None]).sum(axis=1)  # (n, 14)
        d = -KIND_VALUE[None, :] / 10.0 - 3.0 * np.minimum(hand, 3)  # cheap singletons first
        d[:, :RANKS] -= 20.0 * pile[:, None] * (theirs | (known[:, :RANKS] >= 1))
        d[:, KIND_BLACK_THREE] += 15.0  # blocks the next player's pickup (C7.2)
        d[:, KIND_TWO] -= 60.0
        d[:, KIND_JOKER] -= 80.0
        going_out = size <= 1
        return np.where(going_out[:, None], d + 500.0, d)
