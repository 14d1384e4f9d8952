"""Positions of classic canasta consistent with one seat's observation.

:func:`determinise` turns the observation of the deciding seat (its pieces,
docs/observation-classic.md) into a batch of sampled positions (a ``ClassicState``
the compiled kernels take) that agree with everything the seat knows: its own
hand, every side's melds, red threes, opening, scores, all hand sizes and the
cards publicly known in them, the discard pile's contents and top, the stock's
size and the state of the turn. What they share is written once as a position
document (docs/position.md, "Classic canasta") and loaded by the public
:func:`kanaszta_env.position.load_batch`, which checks it like any position; the
cards the seat cannot see — the other hands' unknown cards and the stock — are
then dealt at random in each sample's arrays from the cards nobody has seen
(red threes not yet laid out can only be in the stock: a drawn or dealt red
three is laid out at once, C9.1).

What the observation cannot tell is filled in plainly: suits are handed out
in deck order (they never matter in classic canasta but for threes, whose
colours are kinds of their own), the pile's order under its top card is
arbitrary (the pile is taken whole), and the turn's checkpoint is the mover's
current cards (so ``withdraw`` is not legal in a sample: the bots that search
never withdraw). The observer sits at the first seat whose partners match
his, and seats keep the observation's relative order.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from kanaszta_env import Rules, position as positions
from kanaszta_env.cards import IS_RED_THREE, NUM_TYPES, TYPE_NAMES
from kanaszta_env.games.classic.observation import HAND_SIZE_SCALE, SCORE_SCALE, kind_copies, observer_seats
from kanaszta_env.games.classic.position.parse import ASKED_NAMES, rule_diff, seat_of_turn, seat_order
from kanaszta_env.rules_classic import DECKS, deck_cards

#: kinds of the by-kind pieces: A 4 5 6 7 8 9 10 J Q K, black three, 2, joker
KINDS = ("A", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "3B", "2", "JK")
K_BLACK, K_TWO, K_JOKER = 11, 12, 13
WILD_MELD, BLACK_MELD = 11, 12
PHASES = ("draw", "meld", "discard", "pickup", "over", "answer")
RED_THREES = ("3H", "3D")


@lru_cache(maxsize=4)
def _kind_cards(decks: int) -> tuple[tuple[str, ...], ...]:
    """Every card name of each kind, ``decks`` copies of each suit, in deck order."""
    out: list[list[str]] = [[] for _ in KINDS]
    for name in TYPE_NAMES:
        if name == "JK":
            k = K_JOKER
        elif name in ("3S", "3C"):
            k = K_BLACK
        elif name in RED_THREES:
            continue
        elif name[:-1] == "2":
            k = K_TWO
        else:
            k = KINDS.index(name[:-1])
        out[k] += [name] * (2 * decks if k == K_JOKER else decks)
    return tuple(tuple(cards) for cards in out)


class _Cards:
    """The deck by kind; cards are taken out by kind as they are placed."""

    def __init__(self, decks: int) -> None:
        self.pool = [list(cards) for cards in _kind_cards(decks)]

    def take(self, kind: int, n: int, where: str) -> list[str]:
        if n < 0 or n > len(self.pool[kind]):
            raise ValueError(
                f"the observation places {n} {KINDS[kind]} in {where}, more than the deck has left"
            )
        taken, self.pool[kind] = self.pool[kind][:n], self.pool[kind][n:]
        return taken

    def hand(self, counts: np.ndarray, where: str) -> list[str]:
        return [c for k in range(len(KINDS)) for c in self.take(k, int(counts[k]), where)]


def _one_hot(row: np.ndarray) -> int:
    return int(np.argmax(row))


class ObservedTable:
    """What one observation row says about the table, in absolute seats and sides."""

    def __init__(self, rules: Rules, p: dict[str, np.ndarray]) -> None:
        self.rules = rules
        n = rules.num_players
        self.sides = list(rules.sides())
        self.num_sides = max(self.sides) + 1
        self.decks = DECKS[n]
        self.deck = deck_cards(n)
        self.copies = kind_copies(n)
        self.me = int(observer_seats(rules.sides(), p["partners"][None])[0])
        if self.me < 0:
            raise ValueError("no seat of this table has the observed partners")
        self.own_side = self.sides[self.me]
        self.seat = [(self.me + r) % n for r in range(n)]  # relative seat -> seat
        self.side = [(self.own_side + r) % self.num_sides for r in range(self.num_sides)]
        self.p = p

    def count(self, piece: np.ndarray) -> np.ndarray:
        """Card counts of a by-kind piece (its values are count ÷ copies)."""
        return np.rint(piece * self.copies).astype(np.int64)


def _melds(t: ObservedTable, cards: _Cards, r: int) -> list[list[str]]:
    """Side ``r`` (relative)'s melds as card lists."""
    decks = t.decks
    out = []
    for g, row in enumerate(t.p["melds"][r]):
        first = K_BLACK if g == BLACK_MELD else g
        nat = int(np.rint(row[0] * t.copies[first])) if g != WILD_MELD else 0
        twos = int(np.rint(row[1] * 4 * decks))
        jokers = int(np.rint(row[2] * 2 * decks))
        if nat + twos + jokers == 0:
            continue
        where = f"a meld of side {t.side[r]}"
        out.append(
            [c for k, m in ((first, nat), (K_TWO, twos), (K_JOKER, jokers)) for c in cards.take(k, m, where)]
        )
    return out


def _turn(t: ObservedTable, mover: int, sitter: int | None) -> tuple[int, int]:
    """``(starter, turn)``: the turn from the progress piece, and a starter whose seat order
    gives that turn to the mover."""
    rules = t.rules
    turn = int(np.rint(t.p["progress"][0] * max(rules.max_turns, 1)))
    for starter in range(rules.num_players):
        if starter == sitter:
            continue
        c = {"starter": starter, "next_seat": seat_order(rules.num_players, starter, sitter, t.sides)}
        if seat_of_turn(c, turn) == mover:
            return starter, turn
    return mover, 0  # unreachable for an engine's observation; a fresh turn count is harmless


def determinise(
    rules: Rules, pieces: dict[str, np.ndarray], rng: np.random.Generator, samples: int
) -> tuple[Any, int]:
    """``samples`` positions consistent with one observation row (``pieces``: the row's pieces
    by name, :func:`kanaszta_env.observation.split` of a single row) as one ``ClassicState``
    batch the compiled kernels take, and the observer's seat in them. Raises ``ValueError``
    if the observation does not add up."""
    t = ObservedTable(rules, pieces)
    s = positions.load_batch([_document(t)]).state
    s = type(s)(*(np.ascontiguousarray(np.repeat(f, samples, axis=0)) for f in s))
    _redeal(s, t.me, rng)
    return s, t.me


def _document(t: ObservedTable) -> dict:
    """One position document of the observation, the hidden cards dealt in deck order."""
    p, n = t.p, t.rules.num_players
    base = _Cards(t.decks)
    hand = base.hand(t.count(p["hand"]), "the observer's hand")
    sizes = [int(np.rint(x * HAND_SIZE_SCALE)) for x in p["hand_sizes"]]
    known = {
        t.seat[r]: base.hand(t.count(p["known_cards"][r - 1]), f"seat {t.seat[r]}'s known cards")
        for r in range(1, n)
    }
    melds = [_melds(t, base, r) for r in range(t.num_sides)]
    pile_counts = t.count(p["pile_contents"])
    top = _one_hot(p["pile_top"])
    pile = base.hand(pile_counts, "the discard pile")
    if top < len(KINDS):  # the top card last (the rest of the pile in any order)
        i = next(i for i, c in enumerate(pile) if c in base_names(top, t.decks))
        pile.append(pile.pop(i))
    locked = []
    lock_counts = t.count(p["pile_locked"])
    for k in range(len(KINDS)):
        locked += [c for c in hand if c in base_names(k, t.decks)][: lock_counts[k]]
    red_laid = [int(np.rint(x * 2 * t.decks)) for x in p["red_threes"]]
    # a red three turned up as the upcard stays under the pile (C4.4): the pile's cards that
    # are no kind of the contents piece
    red_in_pile = int(np.rint(p["pile_size"][0] * t.deck)) - len(pile)
    pile = list(RED_THREES * t.decks)[:red_in_pile] + pile
    red_left = 2 * t.decks - sum(red_laid) - red_in_pile
    stock_size = int(np.rint(p["stock_size"][0] * t.deck))
    deal = [c for cards in base.pool for c in cards]
    hidden = {q: sizes[r] - len(known.get(q, [])) for r, q in enumerate(t.seat) if r > 0}
    clipped = [t.seat[r] for r in range(1, n) if sizes[r] >= HAND_SIZE_SCALE]
    extra = len(deal) - stock_size + red_left - sum(hidden.values())
    for i, q in enumerate(clipped):  # sizes of 40 or more show as 40: they share what is left
        hidden[q] += extra // len(clipped) + (i < extra % len(clipped))
    if sum(hidden.values()) + stock_size - red_left != len(deal) or not 0 <= red_left <= stock_size:
        raise ValueError(
            f"the observation does not add up: {len(deal)} unseen cards, {sum(hidden.values())} hidden in "
            f"hands, {stock_size} in the stock of which {red_left} red threes"
        )
    hands = {t.me: hand}
    for q, k in hidden.items():
        hands[q], deal = known[q] + deal[:k], deal[k:]
    laid = [bool(p["laid_before"][t.seat.index(q)] > 0.5) for q in range(n)]
    players = [{"hand": hands[q], "known": known.get(q, []), "laid_before": laid[q]} for q in range(n)]
    stock = deal + list(RED_THREES * t.decks)[red_in_pile : red_in_pile + red_left]
    doc = {**_public_doc(t, pile, locked, melds, red_laid), "rng": 0, "stock": stock, "players": players}
    _checkpoint(doc, t)
    return doc


def _redeal(s: Any, me: int, rng: np.random.Generator) -> None:
    """Deal the cards seat ``me`` cannot see at random in every game of ``s`` (all copies of
    one position): the other hands' unknown cards and the stock, red threes only to the
    stock (a red three is laid out at once, C9.1)."""
    others = [q for q in range(s.hand.shape[1]) if q != me]
    unknown = [(s.hand[0, q] - s.known[0, q]).astype(np.int64) for q in others]
    stock = s.stock[0, : s.stock_len[0]].copy()
    red = IS_RED_THREE[stock]
    pool = np.concatenate([*(np.repeat(np.arange(NUM_TYPES), u) for u in unknown), stock[~red]])
    mover = int(s.mover[0])
    begun = s.cp_hand[0] - s.hand[0, mover]  # the checkpoint's cards beyond the mover's hand
    for b in range(s.hand.shape[0]):
        deal = rng.permutation(pool)
        at = 0
        for q, u in zip(others, unknown, strict=True):
            k = int(u.sum())
            s.hand[b, q] = s.known[0, q] + np.bincount(deal[at : at + k], minlength=NUM_TYPES)
            at += k
        s.stock[b, : len(stock)] = rng.permutation(np.concatenate([deal[at:], stock[red]]))
        s.rng[b] = np.uint64(rng.integers(0, 2**63))
        if mover != me:  # the mover's checkpoint follows his re-dealt hand
            s.cp_hand[b] = s.hand[b, mover] + begun


def _public_doc(
    t: ObservedTable, pile: list[str], locked: list[str], melds: list, red_laid: list[int]
) -> dict:
    """The keys of a sample's document that every sample shares: the rules, the turn, the pile
    and the sides (in side order)."""
    p, rules = t.p, t.rules
    mover, to_move = t.seat[_one_hot(p["mover"])], t.seat[_one_hot(p["deciding"])]
    sitter = t.seat[_one_hot(p["sitting_out"])] if p["sitting_out"].max() > 0.5 else None
    starter, turn = _turn(t, mover, sitter)
    pickup = _one_hot(p["pickup_card"])
    sides = {
        t.side[r]: {
            "melds": melds[r],
            "red_threes": red_laid[r],
            "opened": bool(p["opened"][r] > 0.5),
            "total": int(np.rint(p["totals"][r] * SCORE_SCALE)),
            "hand_score": int(np.rint(p["hand_scores"][r] * SCORE_SCALE)),
        }
        for r in range(t.num_sides)
    }
    return {
        "variant": rules.variant,
        "num_players": rules.num_players,
        "rules": rule_diff(rules),
        "phase": PHASES[_one_hot(p["phase"])],
        "to_move": to_move,
        "mover": mover,
        "starter": starter,
        "sitter": sitter,
        "turn": turn,
        "hand_number": int(np.rint(p["progress"][1] * max(rules.max_hands, 1))),
        "discard": pile,
        "sides": [sides[d] for d in range(t.num_sides)],
        "turn_state": {
            "pickup": base_names(pickup, t.decks)[0] if pickup < len(KINDS) else None,
            "locked": locked,
            "asked": ASKED_NAMES[_one_hot(p["asked"])],
        },
    }


def _checkpoint(doc: dict, t: ObservedTable) -> None:
    """A meld still under three cards was begun this turn (C5.1): the turn's checkpoint (what
    ``withdraw`` restores) holds its cards in the mover's hand, not on the table."""
    if doc["phase"] not in ("meld", "answer", "pickup"):
        return
    mover = doc["mover"]
    melds = doc["sides"][t.sides[mover]]["melds"]
    begun = [m for m in melds if len(m) < 3]
    if begun:
        complete = [m for m in melds if len(m) >= 3]
        doc["turn_state"]["start_melds"] = complete
        if doc["phase"] != "pickup":  # the pickup phase has no checkpoint yet
            hand = doc["players"][mover]["hand"] + [c for m in begun for c in m]
            doc["turn_state"]["checkpoint"] = {"hand": hand, "melds": complete}


@lru_cache(maxsize=64)
def base_names(kind: int, decks: int) -> tuple[str, ...]:
    """The distinct card names of a kind."""
    return tuple(sorted(set(_kind_cards(decks)[kind])))
