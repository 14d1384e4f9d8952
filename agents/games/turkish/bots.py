"""Rule-based bots of Turkish kanasta (preset ``tr``): greedy and heuristic.

Both read only the observation (:func:`kanaszta_env.observation.split`,
:mod:`kanaszta_env.games.turkish.observation`) and the legal mask, and plan each decision
afresh from what they see: the hand, and their pair's melds with the ones being
built this turn. Both play to empty the hand, which takes a Fi (T11) and, once both
Fis are gone and the pair has a canasta, goes out (T13).

* Melds being built this turn are finished first, following the set or run of the
  hand they were started from (:func:`hand_melds`).
* A player who has opened lays off every natural that keeps a meld legal (his own or
  his partner's), starts every set or run of three naturals his hand holds, and, with
  few cards left, melds a pair with a wild (T5.2).
* A player who has not opened starts melds only when the wild-free sets and runs
  in his hand meet his requirement (T9.1: 45 with a run, 90 from a pair total of
  900), or when his pair owes a canasta opening and his hand holds seven of a kind
  or six and a wild (T12.2).
* Both take the pile when it holds two cards or more, or one that is wild or joins the
  hand (a card of its rank or a run neighbour).
* :class:`TurkishGreedyBot` lays every wild it can and discards its most expensive
  loose card.
* :class:`TurkishHeuristicBot` keeps wilds to complete canastas or for pairs (with
  four cards or fewer, or two wilds in hand); lays off on his partner's melds without
  opening (becoming a layer-off, T10.2) only with few cards left and no opening in
  sight; discards the card least likely to join a meld, the more expensive of two
  such cards, and avoids one that fits the opponents' melds or makes a set with the
  cards the next player is known to hold (he would take the pile).
"""

from __future__ import annotations

import numpy as np

from kanaszta_env import Rules
from kanaszta_env.cards import JOKER, NUM_TYPES
from kanaszta_env.games.turkish import actions as A
from kanaszta_env.games.turkish.observation import OPENING_SCALE
from kanaszta_env.games.turkish.scoring import meld_status
from kanaszta_env.observation import split
from kanaszta_env.variants.turkish import TURKISH

from ...base import Agent
from .keep import keep_value

_VALUE = np.array(TURKISH.card_value, dtype=np.float64)
_RANK_TWO = 1
_IS_WILD = np.array([t == JOKER or t // 4 == _RANK_TWO for t in range(NUM_TYPES)])
_NATURALS_FIRST = [t for t in range(NUM_TYPES) if not _IS_WILD[t]] + list(np.flatnonzero(_IS_WILD))
_NEW_ACTION = {t: A.NEW0 + i for i, t in enumerate(A.NEW_TYPES)}
_CANASTA = TURKISH.canasta_size


def _add(k: int, t: int) -> int:
    return A.ADD0 + k * NUM_TYPES + t


def hand_melds(hand: np.ndarray) -> list[list[int]]:
    """Sets and runs of three or more naturals the hand ``hand`` (counts) holds, as card-type
    lists: runs first (one suit, distinct consecutive ranks, the ace low or high, a 2 of the
    suit in its own place), then sets of the naturals left (one rank other than 2)."""
    left = hand.astype(np.int64).copy()
    melds: list[list[int]] = []
    for suit in range(4):
        ranks = [r for r in range(13) if left[r * 4 + suit] > 0]
        present = set(ranks) | ({13} if 0 in ranks else set())  # the ace high too
        run: list[int] = []
        for r in range(15):
            if r in present and r != 14:
                run.append(r)
                continue
            if len(run) >= 3 and not (0 in run and 13 in run):
                cards = [(0 if x == 13 else x) * 4 + suit for x in run]
                if all(left[t] > 0 for t in cards):
                    for t in cards:
                        left[t] -= 1
                    melds.append(cards)
            run = []
    for rank in range(13):
        if rank == _RANK_TWO:
            continue
        types = [rank * 4 + s for s in range(4) for _ in range(int(left[rank * 4 + s]))]
        if len(types) >= 3:
            melds.append(types)
    return melds


class TurkishBot(Agent):
    """Common part of the Turkish bots: the pieces of a batch and the per-row plan."""

    #: lay a wild only to complete a canasta or with few cards left
    save_wilds = False
    #: become a layer-off when stuck with this many cards or fewer (0: never)
    layoff_at = 0
    #: spend wilds freely with this many cards or fewer in hand
    wilds_at = 3
    #: meld a pair with a wild when holding this many wilds (with few cards: one)
    spare_wilds = 99
    #: avoid discards that fit the opponents' melds or known cards
    safe_discards = False

    def setup(self, rules: Rules) -> None:
        if rules.game.name != "turkish":
            raise ValueError(
                f"{type(self).__name__} plays Turkish kanasta (variant 'tr'), not {rules.variant!r}"
            )
        super().setup(rules)

    def act(self, obs: np.ndarray, mask: np.ndarray, slots: np.ndarray | None = None) -> np.ndarray:
        mask = np.asarray(mask, dtype=np.bool_)
        if mask.ndim != 2 or mask.shape[1] != A.NUM_ACTIONS:
            raise ValueError(
                f"{self.name} expects Turkish kanasta masks of {A.NUM_ACTIONS} actions, got {mask.shape}"
            )
        pieces = split(np.asarray(obs, dtype=np.float32), self.rules)
        return np.array([self._choose(pieces, i, mask[i]) for i in range(mask.shape[0])], dtype=np.int64)

    # --- one decision ---------------------------------------------------------------------------
    def _choose(self, p: dict[str, np.ndarray], i: int, legal: np.ndarray) -> int:
        phase = int(np.argmax(p["phase"][i]))
        if phase == 0:
            # the pile costs nothing (T4.1a), keeps the stock longer and leaves the opponents an
            # empty one: waiting for two cards lost 580.5 points per hand [528.9, 632.2] to
            # this rule (1,000 hands). Taking any one card instead stalls four such players,
            # who pass one card round until the turn limit.
            if not legal[A.TAKE_PILE] or not legal[A.DRAW]:
                return A.TAKE_PILE if legal[A.TAKE_PILE] else A.DRAW
            if p["pile_contents"][i].sum() * 2 >= 1.5:
                return A.TAKE_PILE
            top = int(np.argmax(p["pile_top"][i]))
            with_top = np.rint(p["hand"][i] * 2).astype(np.int64)
            with_top[top] += 1
            return A.TAKE_PILE if keep_value(with_top, top) > 0 else A.DRAW
        hand = np.rint(p["hand"][i] * 2).astype(np.int64)
        if phase == 1:
            action = self._meld_action(p, i, hand, legal)
            if action is not None:
                return action
        discards = [t for t in range(NUM_TYPES) if legal[A.DISCARD0 + t]]
        if discards:
            return A.DISCARD0 + self._discard(p, i, hand, discards)
        if legal[A.WITHDRAW]:
            return A.WITHDRAW
        return int(np.flatnonzero(legal)[0])

    def _meld_action(
        self, p: dict[str, np.ndarray], i: int, hand: np.ndarray, legal: np.ndarray
    ) -> int | None:
        own = np.rint(p["melds"][i, 0] * 2).astype(np.int64)
        used = [k for k in range(own.shape[0]) if own[k].sum() > 0]
        for k in used:  # finish what was begun this turn
            if not meld_status(own[k]).legal:
                return self._continue(own[k], k, hand, legal)
        opened = p["opened"][i, 0] > 0.5
        layoff = p["layoff"][i, 0] > 0.5
        new_this_turn = any(
            p["meld_changed"][i, 0, k] > 0.5 and p["meld_owner"][i, 0, k, 0] > 0.5 for k in used
        )
        few = hand.sum() <= self.wilds_at
        # after the opening, a pair with a wild is a set too (T5.2): keep the wilds for the pairs
        pairs = self._wild_sets(hand, few) if opened or new_this_turn else []
        if opened or layoff or new_this_turn or self._may_lay_off_unopened(p, i, hand):
            for k in used:
                action = self._lay_off(own[k], k, hand, legal, few and not pairs)
                if action is not None:
                    return action
        if layoff:
            return None
        candidates = hand_melds(hand)
        if not (opened or new_this_turn) and not self._opens(p, i, candidates, hand):
            return None
        for cards in sorted(candidates, key=len, reverse=True) + pairs:
            action = _NEW_ACTION.get(cards[0])
            if action is not None and legal[action]:
                return action
        return None

    def _wild_sets(self, hand: np.ndarray, few: bool) -> list[list[int]]:
        """Pairs of naturals to meld with a wild: with few cards left or wilds to spare."""
        wilds = int(hand[_IS_WILD].sum())
        if wilds == 0 or not (few or wilds >= self.spare_wilds):
            return []
        pairs = []
        for rank in range(13):
            types = [rank * 4 + s for s in range(4) for _ in range(int(hand[rank * 4 + s]))]
            if rank != _RANK_TWO and len(types) == 2:
                pairs.append(types)
        return pairs[-wilds:]  # the most expensive ranks

    def _continue(self, meld: np.ndarray, k: int, hand: np.ndarray, legal: np.ndarray) -> int:
        """A card that brings the meld of slot ``k`` closer to legal: the next card of a planned
        meld holding it (:func:`hand_melds`), else one that makes it legal or keeps it one rank,
        else a wild; else take it all back."""
        for cards in hand_melds(hand + meld):
            plan = np.bincount(cards, minlength=NUM_TYPES)
            if (plan >= meld).all():
                for t in np.flatnonzero(plan > meld):
                    if hand[t] and legal[_add(k, t)]:
                        return _add(k, int(t))
        ranks = {t // 4 for t in np.flatnonzero(meld) if not _IS_WILD[t]}
        best, best_score = None, -1.0
        for t in range(NUM_TYPES):
            if hand[t] == 0 or not legal[_add(k, t)]:
                continue
            meld[t] += 1
            status = meld_status(meld)
            meld[t] -= 1
            score = 4.0 * status.legal + 2.0 * (ranks == {t // 4}) + (0.0 if _IS_WILD[t] else 1.0)
            if score > best_score:
                best, best_score = _add(k, t), score
        return best if best is not None else A.WITHDRAW

    def _lay_off(
        self, meld: np.ndarray, k: int, hand: np.ndarray, legal: np.ndarray, few: bool
    ) -> int | None:
        """A card from the hand that keeps the legal meld of slot ``k`` legal (a wild only when
        allowed: it completes a canasta, or few cards are left, or the bot does not save wilds)."""
        size = int(meld.sum())
        for t in _NATURALS_FIRST:
            if hand[t] == 0 or not legal[_add(k, t)]:
                continue
            if _IS_WILD[t] and self.save_wilds and not few and size + 1 != _CANASTA:
                continue
            meld[t] += 1
            ok = meld_status(meld).legal
            meld[t] -= 1
            if ok:
                return _add(k, t)
        return None

    def _opens(self, p: dict[str, np.ndarray], i: int, candidates: list[list[int]], hand: np.ndarray) -> bool:
        """Whether laying the wild-free ``candidates`` meets the player's opening requirement."""
        if p["requirement"][i, 1] > 0.5:  # a forced canasta opening (T12.2), a wild may make it
            return any(len(c) >= _CANASTA - (hand[_IS_WILD].sum() > 0) for c in candidates)
        need = round(float(p["requirement"][i, 0]) * OPENING_SCALE)
        value, run = 0, False
        for cards in candidates:
            status = meld_status(np.bincount(cards, minlength=NUM_TYPES))
            value += status.value
            run = run or status.run
        return run and value >= need

    def _may_lay_off_unopened(self, p: dict[str, np.ndarray], i: int, hand: np.ndarray) -> bool:
        """Whether a player who has not opened becomes a layer-off now (T10.2)."""
        partner_opened = p["opened"][i, 2] > 0.5
        return self.layoff_at > 0 and partner_opened and hand.sum() <= self.layoff_at

    def _discard(self, p: dict[str, np.ndarray], i: int, hand: np.ndarray, options: list[int]) -> int:
        """The card to discard: the least useful, the safest, the more expensive of equals."""
        score = {t: _VALUE[t] - 100.0 * keep_value(hand, t) for t in options}
        if self.safe_discards:  # among the few least useful cards, avoid feeding the next player
            for t in sorted(options, key=score.__getitem__)[-3:]:
                score[t] -= 40.0 * self._dangerous(p, i, t)
        return max(options, key=score.__getitem__)

    def _dangerous(self, p: dict[str, np.ndarray], i: int, t: int) -> bool:
        """Whether discarding ``t`` helps the next player take the pile: it makes a set with the
        cards he is known to hold, or fits one of the opponents' melds."""
        if _IS_WILD[t]:
            return False
        rank = t // 4
        known = p["known_cards"][i, 0]
        if known[rank * 4 : rank * 4 + 4].sum() >= 0.75:  # two or more (counts are halved)
            return True
        theirs = np.rint(p["melds"][i, 1] * 2).astype(np.int64)
        for meld in theirs[theirs.sum(axis=1) > 0]:
            meld[t] += 1
            if meld_status(meld).legal:
                return True
        return False


class TurkishGreedyBot(TurkishBot):
    """Points now: the pile whenever possible, every meld and wild at once."""

    name = "greedy"


class TurkishHeuristicBot(TurkishBot):
    """Pair play (see the module docstring)."""

    name = "heuristic"
    save_wilds = True
    layoff_at = 4
    wilds_at = 4
    spare_wilds = 2
    safe_discards = True
