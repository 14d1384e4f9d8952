"""An independent reference implementation of Turkish kanasta's rules (preset ``tr``).

Written in plain Python from docs/rules/turkish.md (T1-T17) and docs/design-turkish.md
("The mask", "End of the turn", "Scores") only, without the rules kernels
(``kanaszta_env.games.turkish.kernels.{melds,conditions,legal,game,score,deal}``): the card
types (``rank * 4 + suit``, joker 52), the action ids of ``games/turkish/actions.py`` and the
field layout of ``TurkishState`` are the only things shared with the engine.

* meld analysis over 53 card counts: :func:`set_reading`, :func:`run_reading`,
  :func:`meld_reading` (T5-T7), :func:`can_become_legal` (the add mask),
  :func:`meld_value` (T1.5), :func:`canasta_kind` (T8.2-T8.3);
* :func:`read_game` copies one game of a ``TurkishState`` into plain lists;
* :func:`legal_set` gives the legal action ids ("The mask");
* :func:`apply` plays one action on a copy (draw, pile, withdraw, melding with the Fi
  taken by melding, the discard and the end of the turn, the end of the hand);
* :func:`pair_scores` scores a finished hand (T14);
* :func:`compare_random_games` drives the engine kernels and compares everything.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any, NamedTuple

import numpy as np

from kanaszta_env.cards import TYPE_NAMES
from kanaszta_env.games.turkish import actions as AT

Game = dict[str, Any]

# --- cards (T1) ------------------------------------------------------------------------
NT = 53  # card types
JK = 52
ACE, TWO = 0, 1  # ranks: 0 = A, 1 = 2, ..., 12 = K
SEATS, PAIRS, SLOTS = 4, 2, AT.MAX_MELDS
CANASTA = 7  # T8.1
MIN_MELD = 3  # T5.5
PHASE_DRAW, PHASE_MELD, PHASE_DISCARD, PHASE_OVER = 1, 2, 3, 5
END_OUT, END_EXHAUSTED, END_TRUNCATED = 1, 2, 3
KIND_NONE, KIND_HALF, KIND_WHOLE, KIND_FULL = 0, 1, 2, 3
BONUS = (0, 100, 200, 500)  # T8.1, T14.1
FORCED_NO, FORCED_OWED, FORCED_DONE = 0, 1, 2


def is_two_or_joker(t: int) -> bool:
    """T1.3: the ten wilds are the jokers and the 2s (a 2 may still be a natural in its run)."""
    return t == JK or t // 4 == TWO


def card_value(t: int, natural_two: bool = False) -> int:
    """T1.5: A 15; 3-7 five; 8-K ten; a wild (any 2 or JK) 10, a 2 in hand 10 [D];
    a natural 2 in its own place in a run 5 (T6.4)."""
    if t == JK:
        return 10
    r = t // 4
    if r == ACE:
        return 15
    if r == TWO:
        return 5 if natural_two else 10
    return 5 if r <= 6 else 10


def cards_str(counts: list[int]) -> str:
    return " ".join(TYPE_NAMES[t] for t in range(NT) for _ in range(counts[t])) or "-"


# --- meld analysis (T5-T8) -------------------------------------------------------------
class Reading(NamedTuple):
    """The reading of a legal meld with the most naturals (T7.3)."""

    family: str  # "set" or "run"
    naturals: int  # natural cards (a natural 2 included)
    wilds: int  # wild cards (at most one, T7.1)
    value: int  # T1.5 card values, a natural 2 worth 5
    full: bool  # a run with all 13 ranks as naturals (T8.4)


def set_reading(c: list[int]) -> Reading | None:
    """T5: three or more cards of one rank (A, 3..K; T5.3 no sets of 2s), suits mixed and
    repeated freely (T5.1), with at most one wild (T5.2, T7.1): a 2 of any suit or JK."""
    size = sum(c)
    if size < MIN_MELD:
        return None
    ranks = {t // 4 for t in range(52) if c[t] and t // 4 != TWO}
    wilds = c[JK] + sum(c[4 * TWO + s] for s in range(4))
    if len(ranks) != 1 or wilds > 1:
        return None
    nat = size - wilds
    value = sum(card_value(t) * c[t] for t in range(NT))
    return Reading("set", nat, wilds, value, False)


def _run_positions_legal(pos: list[int], wilds: int, ace: bool) -> bool:
    """T6.1-T6.3, T7.4 for natural positions 1..14 (ace low 1 or high 14, 2 at 2, K at 13).

    No wild: the positions are consecutive. One wild: the run needs three naturals of
    consecutive ranks (T6.3), and the wild either fills the single gap or extends an end
    inside the allowed range (no wrap, the ace low or high, not both: T6.2), or, with
    all 13 ranks natural, stays as a spare card (T7.4)."""
    n = len(pos)
    lo, hi = pos[0], pos[-1]
    span = hi - lo + 1
    if wilds == 0:
        return span == n
    if n == 13:
        return True  # T7.4 surplus wild
    ps = set(pos)
    if not any(p + 1 in ps and p + 2 in ps for p in pos):
        return False  # T6.3
    if span == n + 1:
        return True  # the wild fills the gap
    if span != n:
        return False
    # the wild extends an end: range [1, 13] with a low ace, [2, 14] with a high ace,
    # [1, 14] without an ace (the window then cannot hold both 1 and 14)
    if ace:
        low_bound, high_bound = (1, 13) if lo == 1 else (2, 14)
    else:
        low_bound, high_bound = 1, 14
    return lo - 1 >= low_bound or hi + 1 <= high_bound


def run_reading(c: list[int]) -> Reading | None:
    """T6, T7: three or more cards of one suit in unbroken rank order, no rank twice, the
    ace low or high (T6.2), at most one wild (T7.1), a wild only with three consecutive
    naturals (T6.3). A 2 of the run's suit counts as a natural in its place whenever some
    legal reading allows it (T7.3); a second 2 of the suit can only be the wild."""
    size = sum(c)
    if size < MIN_MELD:
        return None
    other = [t for t in range(52) if c[t] and t // 4 != TWO]
    suits = {t % 4 for t in other}
    if len(suits) > 1:
        return None
    candidates = list(suits) if suits else [s for s in range(4) if c[4 * TWO + s]]
    for s in candidates:
        if any(c[t] > 1 for t in other):
            return None
        two = 4 * TWO + s
        other_wilds = c[JK] + sum(c[4 * TWO + x] for x in range(4) if x != s)
        for k in (1, 0):  # natural 2s: the reading with the most naturals first (T7.3)
            if k > c[two]:
                continue
            wilds = other_wilds + c[two] - k
            if wilds > 1:
                continue
            ranks = sorted(t // 4 for t in other) + ([TWO] * k)
            ace = ACE in ranks
            base = sorted(r + 1 for r in ranks)  # positions, ace low = 1
            readings = [base]
            if ace:
                readings.append(sorted([p for p in base if p != 1] + [14]))  # ace high
            for pos in readings:
                if _run_positions_legal(pos, wilds, ace):
                    value = sum(card_value(t) * c[t] for t in other) + 5 * k + 10 * wilds
                    return Reading("run", len(pos), wilds, value, len(pos) == 13)
    return None


def meld_reading(c: list[int]) -> Reading | None:
    """T5-T7: the meld's legal reading (a set or a run; no meld is both), or None."""
    return set_reading(c) or run_reading(c)


def is_legal_meld(c: list[int]) -> bool:
    return meld_reading(c) is not None


def can_become_legal(c: list[int]) -> bool:
    """The add mask (design-turkish.md): some legal meld (T5-T7) contains these cards.

    A set: the cards other than 2s and JK share one rank, at most one wild. A run: those
    cards share one suit with no rank twice (the ace once), and at most one wild remains
    after one 2 of that suit is put in its own place (any set of distinct ranks of one
    suit fits A..K, so the run can always be completed)."""
    other = [t for t in range(52) if c[t] and t // 4 != TWO]
    wilds = c[JK] + sum(c[4 * TWO + s] for s in range(4))
    if len({t // 4 for t in other}) <= 1 and wilds <= 1:
        return True
    suits = {t % 4 for t in other}
    if len(suits) > 1 or any(c[t] > 1 for t in other):
        return False
    for s in suits or range(4):
        two = 4 * TWO + s
        if wilds - min(c[two], 1) <= 1:
            return True
    return False


def meld_value(c: list[int]) -> int:
    """T1.5, T14.4: the card values of a legal meld, a natural 2 worth 5 (T7.3)."""
    r = meld_reading(c)
    if r is None:
        raise ValueError(f"not a legal meld: {cards_str(c)}")
    return r.value


def canasta_kind(c: list[int], kind: int) -> int:
    """T8.2-T8.3 at the end of a turn: a meld of 7+ cards without a kind becomes whole with
    7 or more naturals, half otherwise; a run with all 13 ranks natural becomes full
    (raised from half or whole too, T8.3); a kind once set stays otherwise."""
    r = meld_reading(c)
    if r is None:
        return kind
    if r.full:
        return KIND_FULL
    if kind == KIND_NONE and sum(c) >= CANASTA:
        return KIND_WHOLE if r.naturals >= CANASTA else KIND_HALF
    return kind


# --- the game as plain lists -------------------------------------------------------------
#: TurkishState fields read as lists (keyed without the ``meld_`` prefix) and as ints
_LIST_FIELDS = (
    "hand", "melds", "meld_owner", "meld_size", "meld_kind", "meld_count", "forced", "fi", "fi_taker",
    "fi_used", "opened", "layoff", "totals", "cp_hand", "cp_melds", "cp_owner", "cp_size",
)  # fmt: skip
_INT_FIELDS = ("phase", "to_move", "turn", "end_reason", "out_player", "cp_count", "changed")


def read_game(s: Any, b: int, max_turns: int) -> Game:
    """One game of a TurkishState (field meanings of core/turkish/state.py) as lists."""
    g: Game = {f.removeprefix("meld_"): getattr(s, f)[b].astype(int).tolist() for f in _LIST_FIELDS}
    g |= {f: int(getattr(s, f)[b]) for f in _INT_FIELDS}
    g["stock"] = s.stock[b, : int(s.stock_len[b])].astype(int).tolist()
    g["pile"] = s.pile[b, : int(s.pile_len[b])].astype(int).tolist()
    g["max_turns"] = max_turns
    return g


def fi_left(g: Game) -> bool:
    """T11.1: a Fi still lies on the table."""
    return -1 in g["fi_taker"]


def changed_slots(g: Game) -> list[int]:
    """Slots of the mover's pair laid or added to since the checkpoint."""
    p = g["to_move"] % 2
    return [k for k in range(g["count"][p]) if k >= g["cp_count"] or g["melds"][p][k] != g["cp_melds"][k]]


def new_slots(g: Game) -> list[int]:
    """New melds laid by the mover since the checkpoint (T9.4)."""
    p = g["to_move"] % 2
    return list(range(g["cp_count"], g["count"][p]))


def opening_ok(g: Game) -> bool:
    """T9.1-T9.4, T12.2: the new melds laid since the checkpoint by a mover who has not
    opened make an opening (each is legal, checked by the caller)."""
    seat = g["to_move"]
    p = seat % 2
    news = [g["melds"][p][k] for k in new_slots(g)]
    if not news:
        return True
    if g["forced"][p] == FORCED_OWED:  # T12.2: a new meld of at least seven cards
        return any(sum(m) >= CANASTA for m in news)
    readings = [meld_reading(m) for m in news]
    if g["totals"][seat] < 900:  # T9.1 below 900: wild-free melds with a run, worth 45
        clean = [r for r in readings if r.wilds == 0]
        return any(r.family == "run" for r in clean) and sum(r.value for r in clean) >= 45
    # T9.1 from 900 (exactly 900 included): a wild-free run, all new melds worth 90
    has_run = any(r.family == "run" and r.wilds == 0 for r in readings)
    return has_run and sum(r.value for r in readings) >= 90


def melding_complete(g: Game) -> bool:
    """design-turkish.md "Melding complete": every changed meld is legal (T5-T7), and a
    mover who has not opened meets T9.1 (or T12.2) with his new melds."""
    p = g["to_move"] % 2
    if not all(is_legal_meld(g["melds"][p][k]) for k in changed_slots(g)):
        return False
    return bool(g["opened"][g["to_move"]]) or opening_ok(g)


def pair_has_canasta_size(g: Game) -> bool:
    """A meld of seven or more cards in the mover's pair (T8.1, T13.1)."""
    p = g["to_move"] % 2
    return any(sz >= CANASTA for sz in g["size"][p][: g["count"][p]])


def ends_turn_opened(g: Game) -> bool:
    """The mover is opened at the end of this turn: already, or by new melds since the
    checkpoint (the melding is complete, so they make the opening)."""
    seat = g["to_move"]
    return bool(g["opened"][seat]) or (not g["layoff"][seat] and bool(new_slots(g)))


def _meld_action_ok(g: Game, slot: int | None, t: int) -> bool:
    """design-turkish.md "Hand size" for new_* (slot None) and add_*: n = cards before it."""
    seat = g["to_move"]
    n = sum(g["hand"][seat])
    if n >= 3:
        return True
    after = _lay(g, slot, t)
    if n == 2:
        if fi_left(g):
            return True
        # T4.2 holding rule: the card left must be able to go out (T13.1)
        return (
            pair_has_canasta_size(after)
            and (bool(g["opened"][seat]) or slot is None or bool(new_slots(g)))
            and not g["layoff"][seat]
        )
    # n == 1: the hand empties by melding (T11.2b): a Fi is left, the melding complete
    return fi_left(g) and melding_complete(after)


def _lay(g: Game, slot: int | None, t: int) -> Game:
    """A copy of g (of the fields a meld changes) with card t laid (new meld when slot is
    None), no Fi."""
    seat = g["to_move"]
    p = seat % 2
    after = dict(g, count=g["count"][:], melds=[[m[:] for m in pm] for pm in g["melds"]])
    after.update({k: [x[:] for x in g[k]] for k in ("hand", "size", "owner")})
    after["hand"][seat][t] -= 1
    if slot is None:
        slot = after["count"][p]
        after["owner"][p][slot] = seat
        after["count"][p] += 1
    after["melds"][p][slot][t] += 1
    after["size"][p][slot] += 1
    return after


def legal_set(g: Game) -> set[int]:
    """design-turkish.md "The mask", action by action."""
    phase = g["phase"]
    out: set[int] = set()
    if phase == PHASE_DRAW:  # T4.1a
        if g["stock"]:
            out.add(AT.DRAW)
        if g["pile"]:
            out.add(AT.TAKE_PILE)  # no condition at all [D]
        return out
    if phase not in (PHASE_MELD, PHASE_DISCARD):
        return out
    seat = g["to_move"]
    p = seat % 2
    hand = g["hand"][seat]
    n = sum(hand)
    held = [t for t in range(NT) if hand[t]]
    if phase == PHASE_MELD:
        if g["changed"]:
            out.add(AT.WITHDRAW)  # T9.6
        # new_<card>: a natural A, 3..K; not a layer-off (T10.2); a free slot
        if not g["layoff"][seat] and g["count"][p] < SLOTS:
            for t in held:
                if t != JK and t // 4 != TWO and _meld_action_ok(g, None, t):
                    out.add(AT.new_action(t))
        # add_<card>_to_m<k>: the meld can still become legal (T5-T7)
        for k in range(g["count"][p]):
            meld = g["melds"][p][k]
            for t in held:
                meld[t] += 1
                ok = can_become_legal(meld)
                meld[t] -= 1
                if ok and _meld_action_ok(g, k, t):
                    out.add(AT.add_action(k, t))
        complete = melding_complete(g)
    else:
        complete = True
    if complete:
        for t in held:
            # the last card with no Fi left goes out (T13.1): a canasta in the pair, the
            # mover opened, no layer-off
            going_out = n == 1 and not fi_left(g)
            if going_out and not (pair_has_canasta_size(g) and ends_turn_opened(g) and not g["layoff"][seat]):
                continue
            out.add(AT.discard_action(t))
    return out


# --- playing an action -------------------------------------------------------------------
def _checkpoint(g: Game) -> None:
    """The turn's checkpoint: the mover's hand and his pair's slots (withdraw returns here)."""
    seat = g["to_move"]
    p = seat % 2
    g["cp_hand"] = g["hand"][seat][:]
    g["cp_melds"] = [m[:] for m in g["melds"][p]]
    g["cp_owner"] = g["owner"][p][:]
    g["cp_size"] = g["size"][p][:]
    g["cp_count"] = g["count"][p]
    g["changed"] = 0


def _mark_opening(g: Game, events: Counter) -> None:
    """T9, T10.2, T12.2: the mover opens with new melds laid since the checkpoint, or
    becomes a layer-off when he laid only on his partner's melds."""
    seat = g["to_move"]
    p = seat % 2
    if g["opened"][seat] or g["layoff"][seat]:
        return
    if new_slots(g):
        g["opened"][seat] = 1
        events["opening"] += 1
        if g["forced"][p] == FORCED_OWED:
            g["forced"][p] = FORCED_DONE
            events["forced_made"] += 1
    elif changed_slots(g):
        g["layoff"][seat] = 1
        events["layoff"] += 1


def _take_fi(g: Game, by_melding: bool, events: Counter) -> None:
    """T11.1-T11.3: the next Fi becomes the mover's hand; used at once when taken by
    melding; T12.1: both Fis to one pair while the other has not opened."""
    seat = g["to_move"]
    f = g["fi_taker"].index(-1)
    g["hand"][seat] = [0] * NT
    for t in g["fi"][f]:
        g["hand"][seat][t] += 1
    g["fi_taker"][f] = seat
    g["fi_used"][f] = 1 if by_melding else 0
    events["fi_by_melding" if by_melding else "fi_by_discard"] += 1
    if f == 1 and g["fi_taker"][0] % 2 == seat % 2:
        other = 1 - seat % 2
        if not (g["opened"][other] or g["opened"][other + 2]):
            g["forced"][other] = FORCED_OWED
            events["forced_set"] += 1


def _laid(g: Game, events: Counter) -> None:
    """After a meld action: an emptied hand takes a Fi and starts a new checkpoint (T11.2b)."""
    g["changed"] = 1
    seat = g["to_move"]
    if sum(g["hand"][seat]) == 0:
        if not g["opened"][seat] and not g["layoff"][seat]:
            events["marked_at_fi_by_melding"] += 1
        _mark_opening(g, events)
        _take_fi(g, True, events)
        _checkpoint(g)


def _start_turn(g: Game) -> None:
    """T11.3: a Fi taken by a discard becomes used when its holder starts his next turn."""
    for f in range(2):
        if g["fi_taker"][f] == g["to_move"] and not g["fi_used"][f]:
            g["fi_used"][f] = 1


def apply(g0: Game, a: int, events: Counter | None = None) -> Game:
    """The game after action ``a`` (a copy; ``g0`` is left alone); ``events`` counts what
    happened (openings, layer-offs, Fis, canastas, ends of the hand)."""
    if events is None:
        events = Counter()
    g = copy.deepcopy(g0)
    seat = g["to_move"]
    p = seat % 2
    if a in (AT.DRAW, AT.TAKE_PILE):  # T4.1a: the stock's top card or the whole pile
        for t in [g["stock"].pop()] if a == AT.DRAW else g["pile"]:
            g["hand"][seat][t] += 1
        if a == AT.TAKE_PILE:
            g["pile"] = []
        g["phase"] = PHASE_MELD
        _checkpoint(g)
        events["draw" if a == AT.DRAW else "take_pile"] += 1
    elif a == AT.WITHDRAW:  # T9.6
        g["hand"][seat] = g["cp_hand"][:]
        g["melds"][p] = [m[:] for m in g["cp_melds"]]
        g["owner"][p] = g["cp_owner"][:]
        g["size"][p] = g["cp_size"][:]
        for k in range(g["cp_count"], SLOTS):
            g["kind"][p][k] = 0
        g["count"][p] = g["cp_count"]
        g["changed"] = 0
        g["phase"] = PHASE_DISCARD
        events["withdraw"] += 1
    elif a < AT.DISCARD0:  # new_<card> (a new meld) or add_<card>_to_m<k>
        k, t = (None, AT.NEW_TYPES[a - AT.NEW0]) if a < AT.ADD0 else divmod(a - AT.ADD0, NT)
        events["new" if k is None else "add"] += 1
        events["add_to_partner"] += k is not None and g["owner"][p][k] != seat
        g = _lay(g, k, t)
        _laid(g, events)
    else:
        t = a - AT.DISCARD0
        _discard(g, t, events)
    return g


def _discard(g: Game, t: int, events: Counter) -> None:
    """T4.1d and design-turkish.md "End of the turn", in its order."""
    seat = g["to_move"]
    p = seat % 2
    g["hand"][seat][t] -= 1
    g["pile"].append(t)
    # 1. opening / layer-off mark (T9, T10.2, T12.2)
    _mark_opening(g, events)
    # 2. canasta kinds (T8.2-T8.3)
    for k in range(g["count"][p]):
        old = g["kind"][p][k]
        new = canasta_kind(g["melds"][p][k], old)
        if new != old:
            g["kind"][p][k] = new
            events[("half", "whole", "full")[new - 1]] += 1
    # 3. an emptied hand takes a Fi (T11.2a) or goes out (T13.1)
    over = False
    if sum(g["hand"][seat]) == 0:
        if fi_left(g):
            _take_fi(g, False, events)
        else:
            g["end_reason"] = END_OUT
            g["out_player"] = seat
            events["out"] += 1
            over = True
    g["changed"] = 0
    g["turn"] += 1
    # 4. the stock used up (T13.3) or the turn limit (T13.4)
    if not over and not g["stock"]:
        g["end_reason"] = END_EXHAUSTED
        events["exhausted"] += 1
        over = True
    if not over and g["turn"] >= g["max_turns"]:
        g["end_reason"] = END_TRUNCATED
        events["turn_limit"] += 1
        over = True
    if over:
        g["phase"] = PHASE_OVER
        return
    g["to_move"] = (seat + 1) % SEATS
    g["phase"] = PHASE_DRAW
    _start_turn(g)


# --- scoring (T14) -------------------------------------------------------------------------
def unused_fi_holders(g: Game) -> set[int]:
    """T11.3: seats holding a Fi taken by a discard that never became used."""
    return {g["fi_taker"][f] for f in range(2) if g["fi_taker"][f] >= 0 and not g["fi_used"][f]}


def pair_scores(g: Game) -> list[int]:
    """T14 per pair: canasta bonuses + 100 per used Fi + 50 for ending the hand + melded
    card values - hand values (not an unused Fi) - 100 without a Fi, or - 600 instead for
    a forced pair that had not opened when the opponents ended the hand (T12.3)."""
    skip = unused_fi_holders(g)
    scores = []
    for p in range(PAIRS):
        score = 0
        for k in range(g["count"][p]):
            score += BONUS[g["kind"][p][k]]  # T14.1
            score += meld_value(g["melds"][p][k])  # T14.4
        took = [f for f in range(2) if g["fi_taker"][f] >= 0 and g["fi_taker"][f] % 2 == p]
        score += 100 * sum(g["fi_used"][f] for f in took)  # T14.2
        if g["end_reason"] == END_OUT and g["out_player"] % 2 == p:
            score += 50  # T14.3
        for seat in (p, p + 2):
            if seat not in skip:  # T14.5
                score -= sum(card_value(t) * g["hand"][seat][t] for t in range(NT))
        if g["forced"][p] == FORCED_OWED and g["end_reason"] == END_OUT and g["out_player"] % 2 != p:
            score -= 600  # T12.3
        elif not took:
            score -= 100  # T11.4
        scores.append(score)
    return scores


# --- comparing with the engine -------------------------------------------------------------
COMPARED = (
    "hand", "melds", "owner", "size", "kind", "count", "forced", "fi_taker", "fi_used",
    "stock", "pile", "phase", "opened", "layoff", "end_reason",
)  # fmt: skip
IN_PLAY = ("to_move", "turn", "changed", "cp_hand", "cp_count")


def differences(pred: Game, got: Game) -> list[str]:
    """Fields in which the checker's prediction and the engine's state differ."""
    out = [k for k in COMPARED if pred[k] != got[k]]
    if pred["end_reason"] == END_OUT and pred["out_player"] != got["out_player"]:
        out.append("out_player")
    if pred["phase"] != PHASE_OVER:
        out += [k for k in IN_PLAY if pred[k] != got[k]]
        if pred["phase"] in (PHASE_MELD, PHASE_DISCARD):
            c = pred["cp_count"]
            if pred["cp_melds"][:c] != got["cp_melds"][:c] or pred["cp_owner"][:c] != got["cp_owner"][:c]:
                out.append("cp_melds")
    return out


def describe(g: Game) -> str:
    """The game in words: phase, seat, hands, melds, Fis, flags."""
    names = ("-", "draw", "meld", "discard", "-", "over")
    lines = [
        f"phase {names[g['phase']]}, seat {g['to_move']} to move, turn {g['turn']}, "
        f"stock {len(g['stock'])}, pile {[TYPE_NAMES[t] for t in g['pile'][-5:]]}"
        f" ({len(g['pile'])}), totals {g['totals']}",
        f"opened {g['opened']} layoff {g['layoff']} forced {g['forced']} "
        f"fi_taker {g['fi_taker']} fi_used {g['fi_used']} changed {g['changed']} cp_count {g['cp_count']}",
    ]
    for seat in range(SEATS):
        lines.append(f"  hand {seat}: {cards_str(g['hand'][seat])}")
    for p in range(PAIRS):
        for k in range(g["count"][p]):
            lines.append(
                f"  pair {p} m{k} (seat {g['owner'][p][k]}, kind {g['kind'][p][k]}): "
                f"{cards_str(g['melds'][p][k])}"
            )
    return "\n".join(lines)


def action_names(actions: set[int]) -> list[str]:
    return [AT.action_name(a) for a in sorted(actions)]


def candidate_melds(h: list[int], wild_ok: bool) -> list[list[int]]:
    """Legal melds (as lists of card types) in a hand, for the biased player: maximal
    wild-free runs of each suit (ace low or high), sets of a rank, and, when ``wild_ok``,
    sets of two naturals or more with a wild and runs with a wild at an end."""
    out: list[list[int]] = []
    wilds = [t for t in range(NT) if h[t] and is_two_or_joker(t)]
    for st in range(4):
        have = [False] + [bool(h[r * 4 + st]) for r in range(13)]  # positions 1..13, ace low
        have.append(have[1])  # 14: the ace high
        p = 1
        while p <= 14:
            if have[p]:
                q = p
                while q + 1 <= 14 and have[q + 1] and not (p == 1 and q + 1 == 14):
                    q += 1
                if q - p + 1 >= 3:
                    run = [((x - 1) % 13) * 4 + st for x in range(p, q + 1)]
                    out.append(run)
                    if wild_ok:
                        for w in wilds:
                            if w != 4 * TWO + st or p > 2:
                                out.append([*run, w])
                                break
                p = q + 1
            else:
                p += 1
    for r in range(13):
        if r == TWO:
            continue
        cards = [r * 4 + x for x in range(4) for _ in range(h[r * 4 + x])]
        if len(cards) >= 3:
            out.append(cards)
        if wild_ok and len(cards) >= 2 and wilds:
            out.append([*cards[:6], wilds[0]])
    return [m for m in out if meld_reading(_counts(m)) is not None]


def _counts(cards: list[int]) -> list[int]:
    return [cards.count(t) for t in range(NT)]


def _meld_actions(g: Game, melds: list[list[int]]) -> list[int]:
    """new_ with a natural other than a 2, then add_ for the rest, slot by slot."""
    p = g["to_move"] % 2
    acts = []
    for i, m in enumerate(melds):
        k = g["count"][p] + i
        first = next(t for t in m if not is_two_or_joker(t))
        rest = list(m)
        rest.remove(first)
        rest.sort(key=lambda t: (is_two_or_joker(t) and t // 4 != TWO, t))  # naturals first
        acts.append(AT.new_action(first))
        acts += [AT.add_action(k, t) for t in rest]
    return acts


def plan_opening(g: Game) -> list[int]:
    """Greedy melds of the mover's hand that make an opening (T9.1, T12.2), or []."""
    seat = g["to_move"]
    p = seat % 2
    h = g["hand"][seat][:]
    budget = sum(h) - (1 if fi_left(g) else 2)
    forced = g["forced"][p] == FORCED_OWED
    high = g["totals"][seat] >= 900
    chosen: list[list[int]] = []
    value = 0
    has_run = False
    while True:
        melds = candidate_melds(h, wild_ok=forced or high or has_run)
        cands = [(meld_reading(_counts(m)), m) for m in melds if len(m) <= budget]
        if forced:
            cands = [(r, m) for r, m in cands if len(m) >= CANASTA]
        elif not has_run:
            cands = [(r, m) for r, m in cands if r.family == "run" and r.wilds == 0]
        if not cands:
            return []
        r, m = max(cands, key=lambda rm: rm[0].value)
        chosen.append(m)
        budget -= len(m)
        for t in m:
            h[t] -= 1
        has_run = has_run or (r.family == "run" and r.wilds == 0)
        if high or r.wilds == 0:
            value += r.value
        if forced or value >= (90 if high else 45):
            return _meld_actions(g, chosen)


def plan_emptying(g: Game) -> list[int]:
    """Meld the whole (small) hand, card by card on melds it keeps legal, or as one new
    meld, to take a Fi by melding (T11.2b); [] when the cards do not fit."""
    seat = g["to_move"]
    p = seat % 2
    h = g["hand"][seat]
    cards = [t for t in range(NT) for _ in range(h[t])]
    if meld_reading(h) is not None:
        return _meld_actions(g, [cards])
    melds = [m[:] for m in g["melds"][p][: g["count"][p]]]
    acts = []
    for t in cards:
        for k, m in enumerate(melds):
            m[t] += 1
            if is_legal_meld(m):
                acts.append(AT.add_action(k, t))
                break
            m[t] -= 1
        else:
            return []
    return acts


def choose(
    rng: np.random.Generator, g: Game, legal: list[int], bias: dict[str, Any], queue: list[int]
) -> int:
    """A random legal action, biased towards melding so that hands empty (coverage):
    planned openings, cards that keep a meld legal, the pile taken often."""
    if queue:
        a = queue.pop(0)
        if a in legal:
            return a
        queue.clear()
    if len(legal) == 1:
        return legal[0]
    phase = g["phase"]
    seat = g["to_move"]
    p = seat % 2
    if phase == PHASE_DRAW:
        owed = g["forced"][p] == FORCED_OWED  # a forced pair gathers cards for a canasta
        if AT.TAKE_PILE in legal and rng.random() < (0.95 if owed else bias["take"]):
            return AT.TAKE_PILE
        return AT.DRAW if AT.DRAW in legal else legal[0]
    if phase == PHASE_DISCARD:
        return int(rng.choice(legal))
    adds = [a for a in legal if AT.ADD0 <= a < AT.DISCARD0]
    discards = [a for a in legal if a >= AT.DISCARD0]
    lazy = bias["lazy"] == p and g["forced"][p] != FORCED_OWED
    opened = g["opened"][seat]
    if rng.random() < bias["random"]:
        return int(rng.choice(legal))
    if not opened and not g["layoff"][seat] and not g["changed"] and not lazy:
        plan = plan_opening(g)
        if plan and rng.random() < 0.9:
            queue.extend(plan[1:])
            return plan[0]
    if lazy and not opened:
        return int(rng.choice(discards)) if discards else AT.WITHDRAW
    if opened and fi_left(g) and sum(g["hand"][seat]) <= 4 and rng.random() < bias["empty"]:
        plan = plan_emptying(g)
        if plan:
            queue.extend(plan[1:])
            return plan[0]
    if discards:
        good = []
        for a in adds:
            k, t = divmod(a - AT.ADD0, NT)
            m = g["melds"][p][k][:]
            m[t] += 1
            if is_legal_meld(m):
                good.append(a)
        if not opened and rng.random() > bias["layoff"]:
            good = []
        if good and (rng.random() < bias["add"] or sum(g["hand"][seat]) <= 3):
            sizes = np.array([g["size"][p][(a - AT.ADD0) // NT] for a in good], dtype=float)
            w = (sizes + 1.0) ** bias["grow"]
            return int(good[rng.choice(len(good), p=w / w.sum())])
        if opened and rng.random() < bias["new"]:
            n = sum(g["hand"][seat])
            cands = [
                m for m in candidate_melds(g["hand"][seat], True) if len(m) <= n - (1 if fi_left(g) else 2)
            ]
            if cands:
                plan = _meld_actions(g, [cands[int(rng.integers(len(cands)))]])
                queue.extend(plan[1:])
                return plan[0]
        return int(rng.choice(discards))
    if AT.WITHDRAW in legal:
        return AT.WITHDRAW
    return int(rng.choice(legal))


# --- driving the engine ----------------------------------------------------------------------
TOTAL_CHOICES = (0, 0, 0, 450, 880, 900, 900, 1500, 3000)


def seed_table(s: Any, b: int, rng: np.random.Generator) -> str:
    """A table laid out before the first turn (for coverage of T8.3's full canasta and of
    going out): a seat of one pair has opened with a long run of one suit, either
    ``A..Q``/``A..J`` (whole) or ``A..K`` less one middle rank with a joker in its place
    (half), and the missing cards are dealt into the pair's hands. Cards are swapped
    between hands, Fis and stock, so 106 cards stay in play and hands and Fis keep 11."""
    stock = s.stock[b, : int(s.stock_len[b])].astype(int).tolist()
    hands = [[t for t in range(NT) for _ in range(int(s.hand[b, q, t]))] for q in range(SEATS)]
    fis = [s.fi[b, f].astype(int).tolist() for f in range(2)]
    emptier = bool(rng.random() < 0.5)
    seat = int(s.to_move[b]) if emptier else int(rng.integers(SEATS))
    pair = seat % 2
    st = int(rng.integers(4))
    if rng.random() < 0.5:
        top = 12 - int(rng.integers(1, 3))
        meld = [r * 4 + st for r in range(top + 1)]
        missing = [r * 4 + st for r in range(top + 1, 13)]
        kind = KIND_WHOLE
    else:
        gap = int(rng.integers(4, 10))
        meld = [r * 4 + st for r in range(13) if r != gap] + [JK]
        missing = [gap * 4 + st]
        kind = KIND_HALF
    places = [stock, *hands, *fis]

    def take(t: int) -> None:
        for place in places:
            if t in place:
                place.remove(t)
                if place is not stock:
                    place.append(stock.pop(0))
                return
        raise AssertionError(t)

    for t in meld:
        take(t)

    def give(want: list[int], to: list[int]) -> None:
        """Bring the cards ``want`` into the hand ``to``, swapping its other cards out."""
        need = Counter(want) - Counter(to)
        spare = list((Counter(to) - Counter(want)).elements())
        for t in need.elements():
            for place in places:
                if place is not to and t in place:
                    back = spare.pop()
                    place[place.index(t)] = back
                    to.remove(back)
                    to.append(t)
                    break

    if emptier:  # the first mover can meld his whole hand and the card he draws (T11.2b)
        ranks = [int(r) for r in rng.choice([2, 4, 6, 8, 10, 12], 3, replace=False)]
        ranks = [r + 1 if r // 4 == TWO else r for r in ranks]
        other = [x for x in range(4) if x != st]
        want = [*missing[:1]] + [ranks[i] * 4 + int(rng.choice(other)) for i in range(3) for _ in range(3)]
        want += [ranks[0] * 4 + int(rng.choice(other))] * (11 - len(want))
        give(want, hands[seat])
        top = ranks[1] * 4 + int(rng.choice(other))
        if stock[-1] != top:
            for place in places:
                if top in place and place is not hands[seat]:
                    i = place.index(top)
                    place[i], stock[-1] = stock[-1], place[i]
                    break
    for t in missing[1:] if emptier else missing:
        to = hands[(seat + 2) % SEATS] if emptier else hands[int(rng.choice((pair, pair + 2)))]
        give([*to[1:], t] if t not in to else to, to)
    s.stock[b] = 0
    s.stock[b, : len(stock)] = stock
    s.stock_len[b] = len(stock)
    for q in range(SEATS):
        s.hand[b, q] = _counts(hands[q])
    for f in range(2):
        s.fi[b, f] = fis[f]
    s.melds[b, pair, 0] = _counts(meld)
    s.meld_owner[b, pair, 0] = seat
    s.meld_size[b, pair, 0] = len(meld)
    s.meld_kind[b, pair, 0] = kind
    s.meld_count[b, pair] = 1
    s.opened[b, seat] = 1
    return f"seeded: seat {seat} opened with {cards_str(_counts(meld))}" + (" (emptier)" if emptier else "")


def _deal_problems(g: Game) -> list[str]:
    """T3: four hands and two Fis of 11, a stock of 40, an empty pile, 106 cards."""
    out = []
    if any(sum(h) != 11 for h in g["hand"]):
        out.append("hand sizes")
    if (
        len(g["stock"]) + sum(map(sum, g["melds"][0] + g["melds"][1])) != 40
        or g["pile"]
        or g["phase"] != PHASE_DRAW
    ):
        out.append("stock/pile/phase")
    if any(len(f) != 11 for f in g["fi"]) or g["fi_taker"] != [-1, -1]:
        out.append("fis")
    total = [sum(h[t] for h in g["hand"]) for t in range(NT)]
    for t in g["stock"] + g["fi"][0] + g["fi"][1]:
        total[t] += 1
    for p in range(PAIRS):
        for m in g["melds"][p]:
            total = [x + y for x, y in zip(total, m, strict=True)]
    if total != [2] * NT:
        out.append("card counts")
    return out


def _engine(batch: int, max_turns: int) -> tuple[Any, Any, Any, Any, Any]:
    """The engine kernels the comparisons drive, their config and a state of ``batch`` games."""
    from kanaszta_env.games.turkish.kernels import deal, game, legal
    from kanaszta_env.games.turkish.kernels.state import new_turkish_state
    from kanaszta_env.rules import Rules

    return deal, game, legal, Rules(variant="tr", max_turns=max_turns).to_config(), new_turkish_state(batch)


def _engine_mask(legal: Any, s: Any, cfg: Any, b: int, row: np.ndarray) -> set[int]:
    """The engine's legal action ids of game ``b`` (``row`` is the scratch mask)."""
    row[:] = False
    legal.legal_row(s, cfg, b, row)
    return set(np.flatnonzero(row).tolist())


def _mask_text(g: Game, engine: set[int], mine: set[int]) -> str:
    return (
        f"{describe(g)}\n  engine only: {action_names(engine - mine)}\n"
        f"  checker only: {action_names(mine - engine)}"
    )


def _state_text(a: int, g: Game, pred: Game, got: Game, diff: list[str]) -> str:
    values = "".join(
        f"\n  {k}: checker {pred[k]} engine {got[k]}"
        for k in diff
        if k in pred and k not in ("melds", "cp_melds")
    )
    return (
        f"after {AT.action_name(a)} from\n{describe(g)}\n  fields differ: {diff}{values}\n"
        f"engine state after:\n{describe(got)}"
    )


def compare_random_games(
    states: int,
    seed: int = 0,
    batch: int = 8,
    max_turns: int = 400,
    keep: int = 3,
    seeded: float = 0.25,
) -> dict[str, Any]:
    """Play seeded random games on the engine kernels and compare, at every state, the
    engine's mask with :func:`legal_set`, after every action the engine's state with
    :func:`apply`, and at every hand's end ``hand_scores`` with :func:`pair_scores`."""
    deal, game, legal, cfg, s = _engine(batch, max_turns)
    rng = np.random.default_rng(seed)
    row = np.zeros(AT.NUM_ACTIONS, dtype=np.bool_)
    rewards = np.zeros((batch, SEATS), dtype=np.float64)
    stats: dict[str, Any] = {
        "checked": 0, "mask_mismatches": 0, "state_mismatches": 0, "score_mismatches": 0,
        "deal_mismatches": 0, "examples": [], "events": Counter(),
    }  # fmt: skip
    events: Counter = stats["events"]
    biases: list[dict[str, float]] = [{} for _ in range(batch)]
    history: list[list[str]] = [[] for _ in range(batch)]
    seeds = [0] * batch
    queues: list[list[int]] = [[] for _ in range(batch)]

    def note(kind: str, b: int, text: str) -> None:
        stats[kind] += 1
        if len(stats["examples"]) < keep:
            stats["examples"].append(
                f"[{kind}] game seed {seeds[b]} (totals set to {s.totals[b].tolist()}), "
                f"actions so far: {' '.join(history[b][-40:])}\n{text}"
            )

    def new_hand(b: int) -> None:
        seeds[b] = int(rng.integers(1 << 62))
        deal.reset_game(s, cfg, b, np.uint64(seeds[b]))
        t0, t1 = (int(x) for x in rng.choice(TOTAL_CHOICES, 2))
        s.totals[b] = (t0, t1, t0, t1)
        biases[b] = {
            "take": float(rng.choice((0.0, 0.1, 0.3, 0.7, 0.99))),
            "add": float(rng.choice((0.6, 0.95, 1.0, 1.0))),
            "new": float(rng.choice((0.4, 0.9, 1.0, 1.0))),
            "grow": float(rng.choice((0.0, 2.0, 6.0))),
            "layoff": float(rng.choice((0.0, 0.3, 1.0))),
            "random": float(rng.choice((0.0, 0.05, 0.2))),
            "lazy": int(rng.choice((-1, -1, 0, 1))),
            "empty": float(rng.choice((0.0, 0.9))),
        }
        queues[b] = []
        history[b] = []
        if rng.random() < seeded:
            history[b].append(seed_table(s, b, rng))
            if "emptier" in history[b][-1]:
                biases[b].update(add=1.0, new=1.0, empty=1.0, random=0.0, lazy=-1)
        g = read_game(s, b, max_turns)
        bad = _deal_problems(g)
        if bad:
            note("deal_mismatches", b, f"deal: {bad}\n{describe(g)}")

    for b in range(batch):
        new_hand(b)
    while stats["checked"] < states:
        for b in range(batch):
            g = read_game(s, b, max_turns)
            engine = _engine_mask(legal, s, cfg, b, row)
            mine = legal_set(g)
            stats["checked"] += 1
            if g["phase"] == PHASE_MELD:
                n_hand = sum(g["hand"][g["to_move"]])
                if n_hand <= 2:
                    events[f"meld_phase_hand_{n_hand}" + ("" if fi_left(g) else "_no_fi")] += 1
            if engine != mine:
                note("mask_mismatches", b, _mask_text(g, engine, mine))
            if not engine:
                note("mask_mismatches", b, f"no legal action\n{describe(g)}")
                new_hand(b)
                continue
            a = choose(rng, g, sorted(engine), biases[b], queues[b])
            ev: Counter = Counter()
            pred = apply(g, a, ev)
            rewards[:] = 0.0
            game.apply_action(s, cfg, b, a, rewards)
            history[b].append(AT.action_name(a))
            got = read_game(s, b, max_turns)
            diff = differences(pred, got)
            if diff:
                note("state_mismatches", b, _state_text(a, g, pred, got, diff))
            if ev["opening"] and g["totals"][g["to_move"]] >= 900:
                ev["opening_900"] += 1
            if got["phase"] != PHASE_OVER:
                events.update(ev)
                continue
            try:
                sc = pair_scores(got)
            except ValueError as err:
                sc = None
                note("score_mismatches", b, f"after {AT.action_name(a)}: {err}\nfrom\n{describe(g)}")
            if sc is not None:
                ev["unused_fi_at_end"] += bool(unused_fi_holders(got))
                ev["forced_failed"] += got["end_reason"] == END_OUT and any(
                    got["forced"][q] == FORCED_OWED and got["out_player"] % 2 != q for q in range(2)
                )
                engine_sc = s.hand_scores[b].tolist()
                want_rw = [sc[q % 2] - sc[1 - q % 2] for q in range(SEATS)]
                if engine_sc != [sc[0], sc[1], sc[0], sc[1]] or rewards[b].tolist() != want_rw:
                    note(
                        "score_mismatches",
                        b,
                        f"end {got['end_reason']} out {got['out_player']}: checker {sc} "
                        f"(rewards {want_rw}), engine {engine_sc} (rewards {rewards[b].tolist()})\n"
                        f"{describe(got)}",
                    )
            events.update(ev)
            over = _engine_mask(legal, s, cfg, b, row)  # design-turkish.md "Phases": none at the end
            if over:
                note("mask_mismatches", b, f"at phase over (end {got['end_reason']}): {action_names(over)}")
            new_hand(b)
    return stats


def random_meld(rng: np.random.Generator) -> list[int]:
    """A random near-legal meld: a run or a set, with 0-2 wilds and now and then a stray card."""
    c = [0] * NT
    if rng.random() < 0.6:  # a run: a window of one suit, the ace low or high
        st = int(rng.integers(4))
        length = int(rng.integers(1, 14))
        lo = int(rng.integers(1, 15 - length + 1))
        for pos in range(lo, lo + length):
            c[((pos - 1) % 13) * 4 + st] += 1
        for _ in range(int(rng.choice((0, 0, 1, 2)))):  # a hole
            ts = [t for t in range(NT) if c[t]]
            if ts:
                c[ts[int(rng.integers(len(ts)))]] -= 1
        if rng.random() < 0.2:
            c[4 * TWO + st] += 1  # a 2 of the suit
    else:
        r = int(rng.choice([x for x in range(13) if x != TWO]))
        for _ in range(int(rng.integers(1, 9))):
            t = r * 4 + int(rng.integers(4))
            if c[t] < 2:
                c[t] += 1
    for _ in range(int(rng.choice((0, 0, 1, 1, 2)))):
        w = JK if rng.random() < 0.3 else 4 * TWO + int(rng.integers(4))
        if c[w] < 2:
            c[w] += 1
    if rng.random() < 0.1:
        t = int(rng.integers(NT))
        if c[t] < 2:
            c[t] += 1
    if not any(c[t] for t in range(52) if t // 4 != TWO):
        c[int(rng.choice(AT.NEW_TYPES))] += 1
    return c


def compare_crafted_melds(states: int, seed: int = 0, keep: int = 3) -> dict[str, Any]:
    """The mask at crafted meld-phase positions: random near-legal melds laid this turn by the
    mover (and older melds of his pair), a random small or large hand, opened or not, a
    forced pair, Fis left or not, pair totals on both sides of 900. Exercises the meld
    analysis (T5-T7), the add mask, melding completeness (T9.1, T12.2) and the hand-size
    rules that random play reaches rarely. Card conservation is not kept: the mask does
    not depend on it."""
    deal, game, legal, cfg, s = _engine(1, 400)
    rng = np.random.default_rng(seed)
    row = np.zeros(AT.NUM_ACTIONS, dtype=np.bool_)
    rewards = np.zeros((1, SEATS), dtype=np.float64)
    stats: dict[str, Any] = {
        "checked": 0, "mask_mismatches": 0, "state_mismatches": 0, "examples": [], "events": Counter(),
    }  # fmt: skip
    for _ in range(states):
        deal.reset_game(s, cfg, 0, np.uint64(rng.integers(1 << 62)))
        game.apply_action(s, cfg, 0, AT.DRAW, rewards)
        seat = int(s.to_move[0])
        p = seat % 2
        old = int(rng.integers(0, 3))  # melds laid in earlier turns (legal ones)
        new = int(rng.integers(0, 4))
        slot = 0
        owners = []
        while slot < old:
            m = random_meld(rng)
            if meld_reading(m) is None:
                continue
            s.melds[0, p, slot] = m
            owners.append(int(rng.choice((seat, (seat + 2) % SEATS))))
            slot += 1
        s.cp_melds[0] = 0
        s.cp_melds[0, :old] = s.melds[0, p, :old]
        for _k in range(new):
            s.melds[0, p, slot] = random_meld(rng)
            owners.append(seat)
            slot += 1
        for k in range(slot):
            s.meld_owner[0, p, k] = owners[k]
            s.meld_size[0, p, k] = int(s.melds[0, p, k].sum())
        s.meld_count[0, p] = slot
        s.cp_count[0] = old
        s.cp_owner[0] = -1
        s.cp_owner[0, :old] = owners[:old]
        s.cp_size[0] = 0
        s.cp_size[0, :old] = s.meld_size[0, p, :old]
        if old and rng.random() < 0.5:  # cards added to an older meld this turn
            k = int(rng.integers(old))
            for _j in range(int(rng.integers(1, 3))):
                t = int(rng.integers(NT))
                if s.melds[0, p, k, t] < 2:
                    s.melds[0, p, k, t] += 1
                    s.meld_size[0, p, k] += 1
        s.changed[0] = int(not np.array_equal(s.melds[0, p, :old], s.cp_melds[0, :old]) or new > 0)
        opened = bool(old and rng.random() < 0.7) or rng.random() < 0.2
        s.opened[0, seat] = int(opened)
        s.layoff[0] = 0
        if not opened and old and any(o != seat for o in owners[:old]) and rng.random() < 0.2:
            s.layoff[0, seat] = 1
        s.forced[0, p] = FORCED_OWED if (not opened and rng.random() < 0.2) else FORCED_NO
        n = int(rng.choice((1, 2, 2, 3, 4, 8)))
        h = [0] * NT
        while sum(h) < n:
            t = int(rng.integers(NT))
            if h[t] < 2:
                h[t] += 1
        s.hand[0, seat] = h
        fis = int(rng.choice((0, 1, 2)))
        s.fi_taker[0] = [(seat + 1) % SEATS if f < 2 - fis else -1 for f in range(2)]
        t0 = int(rng.choice(TOTAL_CHOICES))
        s.totals[0] = (t0, t0, t0, t0)
        g = read_game(s, 0, 400)
        engine = _engine_mask(legal, s, cfg, 0, row)
        mine = legal_set(g)
        stats["checked"] += 1
        ev = stats["events"]
        ev["complete" if melding_complete(g) else "incomplete"] += 1
        ev[f"hand_{min(n, 3)}"] += 1
        if engine != mine:
            stats["mask_mismatches"] += 1
            if len(stats["examples"]) < keep:
                stats["examples"].append(_mask_text(g, engine, mine))
        # then one action, preferring the ones that empty the hand or end the turn
        acts = sorted(engine)
        if not acts:
            continue
        melds_ = [a for a in acts if AT.NEW0 <= a < AT.DISCARD0]
        discards = [a for a in acts if a >= AT.DISCARD0]
        if n == 1 and melds_ and rng.random() < 0.8:
            a = int(rng.choice(melds_))
        elif discards and rng.random() < 0.6:
            a = int(rng.choice(discards))
        else:
            a = int(rng.choice(acts))
        pred = apply(g, a, ev)
        rewards[:] = 0.0
        game.apply_action(s, cfg, 0, a, rewards)
        got = read_game(s, 0, 400)
        diff = differences(pred, got)
        if got["phase"] == PHASE_OVER and not diff:
            sc = pair_scores(got)
            if s.hand_scores[0].tolist() != [sc[0], sc[1], sc[0], sc[1]]:
                diff.append(f"hand_scores (checker {sc}, engine {s.hand_scores[0].tolist()})")
        if diff:
            stats["state_mismatches"] += 1
            if len(stats["examples"]) < keep:
                stats["examples"].append(_state_text(a, g, pred, got, diff))
    return stats
