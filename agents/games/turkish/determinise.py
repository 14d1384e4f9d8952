"""Turkish kanasta states consistent with one seat's observation (preset ``tr``).

:func:`determinise` turns the observation of the deciding seat (its pieces,
:mod:`kanaszta_env.games.turkish.observation`) into a ``TurkishState`` batch of sampled
worlds that agree with everything the seat sees: its own hand, both pairs'
meld slots (cards, owners, canasta kinds), the openings, layer-offs and forced
openings, who took each Fi and whether it is used, the totals, last hand
scores and target, the discard pile's contents and top card, the stock's size,
every hand's size and the cards publicly known in the other hands. The cards
it cannot see (106 minus all of those) are dealt at random into the other
hands' unknown parts, the stock and the Fis nobody has taken.

What the observation cannot tell is filled in plainly:

* the observer sits at seat 0 (seats keep the observation's relative order;
  only pairs and relative seats matter to the rules);
* the pile's order under its top card is arbitrary: the pile is only ever
  taken whole (T4.1a), so its order never matters for play;
* hand sizes of 40 or more are shown as 40 (the piece is clipped): the hidden
  cards the other seats and the stock do not account for are shared among the
  clipped seats;
* the observer's own publicly known cards are not in his observation: none;
* a Fi already taken keeps no cards (its cards are in hands or melds);
* the turn's checkpoint (what ``withdraw`` restores). At the draw it is unused
  (the draw sets it). In the ``discard`` phase (after a withdraw) it is the
  table as it stands, nothing changed. In the ``meld`` phase ``changed`` is the
  ``withdrawable`` piece; the checkpoint's meld count is the first slot the
  mover laid if he has not opened (he has laid no meld before this turn: an
  unopened player's own slots are all new), else the current count; a slot the
  ``meld_changed`` piece marks below that count gets a checkpoint size one
  less. So the mask (the opening test, layer-off and going-out conditions) and
  the observation are reproduced exactly; the checkpoint's hand and cards are
  the current ones, so a ``withdraw`` in a sample would not restore the true
  cards — the search never withdraws in the turn it samples (it searches the
  draw and the discards).
"""

from __future__ import annotations

import numpy as np

from kanaszta_env import Rules
from kanaszta_env.cards import NUM_TYPES
from kanaszta_env.games.turkish.observation import HAND_SIZE_SCALE, SCORE_SCALE, STOCK_SIZE
from kanaszta_env.variants.turkish import TURKISH

COPIES = TURKISH.type_copies[0]  # of every card type (T1.1)
PACKET = TURKISH.deal_others  # cards of a hand and of a Fi (T3.1)
PHASE_CODES = (1, 2, 3, 5)  # draw, meld, discard, over (games/turkish/kernels/state.py)


def _counts(piece: np.ndarray) -> np.ndarray:
    return np.rint(np.asarray(piece, dtype=np.float64) * COPIES).astype(np.int64)


class Observed:
    """What one observation row says, in the sample's seats (the observer at seat 0)."""

    def __init__(self, rules: Rules, p: dict[str, np.ndarray]) -> None:
        self.p = p
        self.phase = PHASE_CODES[int(np.argmax(p["phase"]))]
        self.mover = int(np.argmax(p["to_move"]))
        self.turn = int(np.rint(p["progress"][0] * rules.max_turns))
        self.hand_number = int(np.rint(p["progress"][1] * rules.max_hands))
        self.stock_len = int(np.rint(p["stock_size"][0] * STOCK_SIZE))
        self.hand = _counts(p["hand"])
        self.sizes = np.rint(p["hand_sizes"] * HAND_SIZE_SCALE).astype(np.int64)
        self.sizes[0] = self.hand.sum()
        self.known = np.zeros((4, NUM_TYPES), dtype=np.int64)
        self.known[1:] = _counts(p["known_cards"])
        self.melds = _counts(p["melds"])  # (2, M, 53)
        self.count = (self.melds.sum(axis=2) > 0).sum(axis=1)
        member = np.argmax(p["meld_owner"], axis=2)  # (2, M): owner = pair + 2 * member
        used = p["meld_owner"].max(axis=2) > 0.5
        self.owner = np.where(used, np.arange(2)[:, None] + 2 * member, -1)
        has_kind = p["meld_kind"].max(axis=2) > 0.5
        self.kind = np.where(has_kind, np.argmax(p["meld_kind"], axis=2) + 1, 0)
        who = np.argmax(p["fis"][:, :5], axis=1)  # a seat, or 4: nobody
        self.fi_taker = np.where(who < 4, who, -1).astype(np.int64)
        self.fi_used = (p["fis"][:, 5] > 0.5).astype(np.int64)
        self.forced = np.where(p["forced"][:, 0] > 0.5, 1, np.where(p["forced"][:, 1] > 0.5, 2, 0))
        self.totals = np.rint(p["totals"] * SCORE_SCALE).astype(np.int64)
        self.hand_scores = np.rint(p["hand_scores"] * SCORE_SCALE).astype(np.int64)
        self.target = int(np.rint(p["target"][0] * SCORE_SCALE))
        self.pile_counts = _counts(p["pile_contents"])
        self.top = int(np.argmax(p["pile_top"]))
        self.unseen = (
            COPIES - self.hand - self.known.sum(axis=0) - self.melds.sum(axis=(0, 1)) - self.pile_counts
        )
        if (self.unseen < 0).any():
            raise ValueError("the observation shows more than two cards of a type")

    def pile(self) -> np.ndarray:
        """The pile's cards, the top one last (the order below it is arbitrary)."""
        cards = np.repeat(np.arange(NUM_TYPES), self.pile_counts)
        if len(cards) and self.top < NUM_TYPES:
            i = int(np.flatnonzero(cards == self.top)[0])
            cards = np.concatenate([np.delete(cards, i), [self.top]])
        return cards

    def hidden(self) -> np.ndarray:
        """Hidden cards in each seat's hand (seat 0: none), unclipping sizes shown as 40."""
        hidden = self.sizes - self.known.sum(axis=1)
        hidden[0] = 0
        fis = PACKET * int((self.fi_taker < 0).sum())
        total = int(self.unseen.sum()) - self.stock_len - fis
        clipped = [q for q in range(1, 4) if self.sizes[q] >= HAND_SIZE_SCALE]
        extra = total - int(hidden.sum())
        for i, q in enumerate(clipped):
            hidden[q] += extra // len(clipped) + (i < extra % len(clipped))
        if int(hidden.sum()) != total or (hidden < 0).any():
            raise ValueError(
                f"the observation does not add up: {int(self.unseen.sum())} unseen cards, "
                f"{self.stock_len} in the stock, {fis} in Fis, hidden hands {hidden.tolist()}"
            )
        return hidden


def _checkpoint(s, o: Observed) -> None:
    """The turn's checkpoint (see the module doc)."""
    pair = o.mover % 2
    s.cp_hand[:] = o.hand if o.mover == 0 else 0
    s.cp_melds[:] = o.melds[pair]
    s.cp_owner[:] = o.owner[pair]
    sizes = o.melds[pair].sum(axis=1)
    s.cp_size[:] = sizes
    count = int(o.count[pair])
    if o.phase == 2:  # (draw: unused; discard, after a withdraw: nothing laid)
        s.changed[:] = int(o.p["withdrawable"][0] > 0.5)
        if o.p["opened"][o.mover] < 0.5 and o.p["layoff"][o.mover] < 0.5:
            own = np.flatnonzero(o.owner[pair, :count] == o.mover)
            count = int(own[0]) if len(own) else count
        for k in range(count):
            if o.p["meld_changed"][pair, k] > 0.5:
                s.cp_size[:, k] = sizes[k] - 1
    s.cp_count[:] = count


def _public(s, o: Observed) -> None:
    """Fill every sample of the fresh state ``s`` (zeroed, nobody out) with what all samples share."""
    for name in ("known", "melds", "forced", "fi_taker", "fi_used", "stock_len", "phase", "turn"):
        getattr(s, name)[:] = getattr(o, name)  # read from the observation as the state keeps it
    s.hand_number[:] = o.hand_number
    s.target[:] = o.target
    s.hand[:, 0] = o.hand
    s.opened[:] = (o.p["opened"] > 0.5).astype(np.int8)
    s.layoff[:] = (o.p["layoff"] > 0.5).astype(np.int8)
    s.totals[:] = o.totals[np.arange(4) % 2]  # a pair's on each of its seats
    s.hand_scores[:] = o.hand_scores[np.arange(4) % 2]
    s.meld_owner[:] = o.owner
    s.meld_size[:] = o.melds.sum(axis=2)
    s.meld_kind[:] = o.kind
    s.meld_count[:] = o.count
    pile = o.pile()
    s.pile[:, : len(pile)] = pile
    s.pile_len[:] = len(pile)
    s.to_move[:] = o.mover
    _checkpoint(s, o)


def determinise(
    rules: Rules, pieces: dict[str, np.ndarray], rng: np.random.Generator, samples: int, new_state
):
    """``samples`` worlds consistent with one observation row (``pieces``: the row's pieces
    by name, :func:`kanaszta_env.observation.split` of a single row) as a state made by
    ``new_state(samples)`` (the engine's ``ruleset.new_state``, so the compiled kernels take
    it); the observer sits at seat 0. Raises ``ValueError`` if the observation does not add up."""
    o = Observed(rules, pieces)
    hidden = o.hidden()
    s = new_state(samples)
    _public(s, o)
    unseen = np.repeat(np.arange(NUM_TYPES), o.unseen)
    untaken = [f for f in range(2) if o.fi_taker[f] < 0]
    for b in range(samples):
        deal = rng.permutation(unseen)
        n = 0
        for q in range(1, 4):
            k = int(hidden[q])
            s.hand[b, q] = o.known[q] + np.bincount(deal[n : n + k], minlength=NUM_TYPES)
            n += k
        for f in untaken:
            s.fi[b, f] = deal[n : n + PACKET]
            n += PACKET
        s.stock[b, : o.stock_len] = deal[n : n + o.stock_len]
        s.rng[b] = np.uint64(rng.integers(0, 2**63))
    return s
