"""An independent legality checker for classic canasta (presets ``pl`` and ``sk``).

Written from the rules contract (docs/rules/classic.md C0-C16 and
its "Engine decisions") in plain Python over card names, without importing the rules
core (``kanaszta_env.core``): only the card notation, the action names and
:class:`~kanaszta_env.rules.Rules` are shared. :func:`position_of` is the one
function that knows the state arrays; :func:`legal_actions` returns the set of legal
action names of a position.

Whether a pile pickup's obligation (C7.1) can still be met, keeping the cards the
holding rule asks for (C4.3, C7.7), is decided by brute force with a node budget (a
search larger than its budget raises :class:`SearchBudgetExceeded`; the state is
skipped and counted):

- a side that has not opened (C7.4, C11.6): every number of naturals (0..all held) and
  wilds (0..3) added to each natural meld, and every size of sk's wild meld, enumerated
  meld by meld and merged on (wilds used, cards used) keeping the highest opening
  value; an addition order that keeps every meld legal exists for any legal end
  position (naturals first), and reaching the obligation earlier only keeps more cards;
- an opened side (C7.3-C7.4, C8.3): a depth-first search over single naturals and
  wilds laid on the top card's meld.

Holding rule of a pickup (C4.3, C7.7, C12.2): after the obliged meld and with the rest
of the pile, the player keeps two cards, or one when his side has a canasta then (one it
had, or the pile's meld completed in that turn: he may go out by discarding it), or none
as pl's going out by melding. An unopened side keeps two (engine decision: the canastas
of an opening are not searched), and a last card that would complete a canasta on
another meld does not count (engine decision).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

# the card notation is the Díszített checker's: rank, wilds (C1.3 as R1.3), card counts
from checker import DEFAULT_BUDGET, SearchBudgetExceeded, card_counter, is_wild, rank

from kanaszta_env.cards import TYPE_NAMES
from kanaszta_env.games.classic.actions import ACTION_NAMES, RANK_NAMES

#: C9: the red threes, laid out wherever they come from
RED_THREES = ("3H", "3D")

Position = dict[str, Any]

# --- layout of the state arrays (games/classic/kernels/state.py, tables.py): position_of only
_PHASES = ("-", "draw", "meld", "discard", "pickup", "over", "answer")
_ASKED = ("not", "waiting", "yes", "no")
_SUITS = "SHDC"
_WILD_SLOT_CARDS = ["2S", "2H", "2D", "2C", "JK"]

# --- the rules' vocabulary (C1)
RANKS = tuple(RANK_NAMES)  # the 11 meldable ranks A 4 5 ... K (C1.5)
WILD = "wild"  # sk's wilds-only meld (C5.6)
BLACK = "black3"  # pl's black-three meld (C10.2)
MELDS = (*RANKS, WILD, BLACK)
CANASTA = 7  # C6.1
MAX_WILDS = 3  # C5.2
#: C1.6 card values
VALUE = {"JK": 50, "2": 20, "A": 20, "3": 5}
VALUE |= {r: 10 for r in ("K", "Q", "J", "10", "9", "8")}
VALUE |= {r: 5 for r in ("7", "6", "5", "4")}
#: C6.1 canasta bonuses
BONUS = {"natural": 500, "mixed": 300, "wild_joker": 1000, "wild_twos": 800}


def is_black_three(card: str) -> bool:
    return card in ("3S", "3C")


def natural_rank(card: str) -> str | None:
    """C1.5: the meldable rank of a natural, None for wilds and threes."""
    r = rank(card)
    return r if r in RANKS else None


def card_value(card: str) -> int:
    """C1.6 value of a melded card (a black three 5, pl C10.2)."""
    return VALUE["JK"] if card == "JK" else VALUE[rank(card)]


def discard_kind(card: str) -> str:
    """The discard action's kind of a card (rank, ``3`` for a black three, ``2``, ``JK``)."""
    if card == "JK":
        return "JK"
    r = rank(card)
    return r if r in RANKS else ("3" if is_black_three(card) else "2")


# --- reading a GameBatch ---------------------------------------------------------
def _slot_card(name: str, k: int) -> str:
    """The card of slot ``k`` of a meld: naturals by suit, then 2S 2H 2D 2C JK; pl's
    black-three meld holds 3S in slot 0 and 3C in slot 3."""
    if k >= 4:
        return _WILD_SLOT_CARDS[k - 4]
    return ("3S" if k == 0 else "3C") if name == BLACK else f"{name}{_SUITS[k]}"


def _melds_of(grp: np.ndarray) -> dict[str, Counter]:
    return {
        name: Counter({_slot_card(name, k): int(grp[i, k]) for k in range(9) if grp[i, k]})
        for i, name in enumerate(MELDS)
    }


def position_of(games: Any, b: int) -> Position:
    """Game ``b`` of a classic ``GameBatch`` as a plain dict (the only reader of the arrays)."""
    s = games.state
    mover = int(s.mover[b])
    side = int(s.side_of[b, mover])
    n = int(s.pile_len[b])
    pickup = int(s.pickup_card[b])
    return {
        "phase": _PHASES[int(s.phase[b])],
        "to_move": int(s.to_move[b]),
        "mover": mover,
        "side": side,
        "hand": card_counter(s.hand[b, mover]),
        "checkpoint_hand": card_counter(s.cp_hand[b]),
        "melds": _melds_of(s.groups[b, side]),
        "start_melds": _melds_of(s.start_groups[b]),
        "opened": bool(s.opened[b, side]),
        "table_opened": bool(s.opened[b].any()),
        "total": int(s.totals[b, mover]),
        "stock": int(s.stock_len[b]),
        "pile": [TYPE_NAMES[int(t)] for t in s.pile[b, :n]],
        "turn": int(s.turn[b]),
        "pickup_card": TYPE_NAMES[pickup] if pickup >= 0 else None,
        "pickup_rest": _joining_hand([TYPE_NAMES[int(t)] for t in s.pile[b, : s.pickup_rest[b]]]),
        "locked": card_counter(s.pile_locked[b]),
        "asked": _ASKED[int(s.asked[b])],
    }


def _joining_hand(rest: list[str]) -> int:
    """How many cards of the pile under the pickup's top card join the hand: the red
    threes among them are laid out instead (C7.1, C9.2)."""
    return sum(card not in RED_THREES for card in rest)


def describe(pos: Position) -> str:
    """A short human summary of a position (for mismatch reports)."""

    def cards(c: Counter) -> str:
        return " ".join(sorted(c.elements())) or "-"

    melds = "; ".join(f"{m}: {cards(c)}" for m, c in pos["melds"].items() if c) or "-"
    start = "; ".join(f"{m}: {cards(c)}" for m, c in pos["start_melds"].items() if c) or "-"
    return (
        f"phase {pos['phase']}, seat {pos['to_move']} (mover {pos['mover']}, side {pos['side']}), "
        f"opened {pos['opened']}, total {pos['total']}, turn {pos['turn']}, asked {pos['asked']}\n"
        f"    hand: {cards(pos['hand'])}\n    checkpoint hand: {cards(pos['checkpoint_hand'])}\n"
        f"    melds: {melds}\n    melds at turn start: {start}\n"
        f"    pile (bottom..top): {' '.join(pos['pile']) or '-'}; stock {pos['stock']}; "
        f"pickup {pos['pickup_card']} rest {pos['pickup_rest']}; locked {cards(pos['locked'])}"
    )


# --- melds (C5, C6) over counts ------------------------------------------------------
def meld_counts(meld: Counter) -> tuple[int, int, int]:
    """(naturals, twos, jokers) of a meld (for the black-three meld: its threes)."""
    jokers = meld["JK"]
    twos = sum(n for c, n in meld.items() if rank(c) == "2")
    return sum(meld.values()) - jokers - twos, twos, jokers


def meld_size(meld: Counter) -> int:
    return sum(meld.values())


def meld_valid(name: str, meld: Counter) -> bool:
    """C5.1-C5.2, C5.6, C10.2: empty, or a legal meld of three or more cards."""
    n, t, j = meld_counts(meld)
    size = n + t + j
    if size == 0:
        return True
    if name == WILD:
        return n == 0 and 3 <= size <= CANASTA
    if name == BLACK:
        return t + j == 0 and size >= 3
    return size >= 3 and t + j <= n and t + j <= MAX_WILDS


def canasta_kind(name: str, meld: Counter) -> str | None:
    """C6.1-C6.2: the kind read from the composition, None below seven cards."""
    if name == BLACK or meld_size(meld) < CANASTA:
        return None
    _, t, j = meld_counts(meld)
    if name == WILD:
        return "wild_joker" if j > 0 else "wild_twos"
    return "natural" if t + j == 0 else "mixed"


def has_canasta(melds: dict[str, Counter]) -> bool:
    return any(canasta_kind(m, c) for m, c in melds.items())


def all_valid(melds: dict[str, Counter]) -> bool:
    return all(meld_valid(m, c) for m, c in melds.items())


def opening_value(melds: dict[str, Counter], rules: Any) -> int:
    """C11.3: the card values of the side's melds, a wild its own value; sk adds the
    canasta bonuses; C11.8 a pl black three 5."""
    v = sum(card_value(c) * n for meld in melds.values() for c, n in meld.items())
    if rules.canasta_counts_for_opening:
        v += sum(BONUS[k] for m, c in melds.items() if (k := canasta_kind(m, c)))
    return v


def opening_minimum(pos: Position, rules: Any) -> int:
    """C11.2: pl 80; sk by the side's total (15 / 50 / 90 / 120 / 150)."""
    if rules.opening_schedule is None:
        return rules.opening_minimum
    minimum = rules.opening_schedule[0][1]
    for threshold, value in rules.opening_schedule:
        if pos["total"] >= threshold:
            minimum = value
    return minimum


def side_open(pos: Position, rules: Any) -> bool:
    """C11.1: pl the table (anybody opened), sk the side."""
    return pos["table_opened"] if rules.opening_scope == "table" else pos["opened"]


def opening_done(pos: Position, rules: Any, melds: dict[str, Counter]) -> bool:
    """C11: opened in an earlier turn, nothing laid yet, or the minimum reached."""
    if side_open(pos, rules):
        return True
    if not any(melds.values()):
        return True
    return opening_value(melds, rules) >= opening_minimum(pos, rules)


def may_go_out(pos: Position, rules: Any, melds: dict[str, Counter]) -> bool:
    """C12.2 with C5.1 and C11.7: the side's canasta, every meld legal, the opening made;
    C12.5: not after the partner's "no"."""
    return (
        pos["asked"] != "no" and has_canasta(melds) and all_valid(melds) and opening_done(pos, rules, melds)
    )


def wild_fits(name: str, meld: Counter) -> bool:
    """C5.2 / C5.6: whether one more wild may go on the meld."""
    n, t, j = meld_counts(meld)
    if name == WILD:
        return n + t + j < CANASTA
    return t + j < MAX_WILDS and t + j < n


# --- the pile pickup (C7, C8, C11.6) ---------------------------------------------------
def frozen(pos: Position, rules: Any) -> bool:
    """C8.3: sk, a wild anywhere in the pile (during a pickup: in the rest of it)."""
    return rules.wild_freeze == "pile" and any(is_wild(c) for c in pos["pile"])


#: C4.3 [engine decision]: an unopened side's pickup keeps two cards
OPENING_PICKUP_KEEP = 2


def pickup_leaves(rules: Any, canasta: bool, k: int) -> bool:
    """C4.3, C7.7, C12.1-2: whether an opened side's pickup may leave ``k`` cards once its
    meld is made, ``canasta`` saying whether the side has one then."""
    return k >= 2 or (canasta and (k == 1 or bool(rules.go_out_by_meld)))


def _hand_profile(hand: Counter) -> tuple[dict[str, int], int, int]:
    """(naturals per rank, twos, jokers) of a hand."""
    _, twos, jokers = meld_counts(hand)
    return {r: sum(n for c, n in hand.items() if natural_rank(c) == r) for r in RANKS}, twos, jokers


class _Counter:
    def __init__(self, budget: int) -> None:
        self.nodes = 0
        self.budget = budget

    def tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.budget:
            raise SearchBudgetExceeded(f"more than {self.budget} nodes")


def opening_completable(
    melds: dict[str, Counter],
    hand: Counter,
    pair_rank: str,
    need: int,
    max_cards: int,
    rules: Any,
    budget: int = DEFAULT_BUDGET,
) -> bool:
    """Whether hand cards added to ``melds`` (at most ``max_cards`` of them) can make every
    meld legal, give ``pair_rank`` three naturals (the pair, C7.3a) and reach ``need``
    (C11.3, C11.6). Brute force: every number of naturals and wilds per meld, the wild
    meld (sk) at every size; memoised on (meld index, wilds used, cards used)."""
    if max_cards < 0:
        return False
    nat, twos, jokers = _hand_profile(hand)
    wilds_in_hand = twos + jokers
    count_bonus = bool(rules.canasta_counts_for_opening)
    counter = _Counter(budget)
    base = {m: meld_counts(c) for m, c in melds.items()}

    def wild_value(u: int) -> int:  # u added wilds, the jokers first (they count more)
        j = min(u, jokers)
        return j * VALUE["JK"] + (u - j) * VALUE["2"]

    # layer by layer over the natural melds: (wilds used, cards used) -> highest value
    layer: dict[tuple[int, int], int] = {(0, 0): 0}
    for r in RANKS:
        n0, t0, j0 = base[r]
        w0 = t0 + j0
        nxt: dict[tuple[int, int], int] = {}
        for (w_used, c_used), acc in layer.items():
            for x in range(nat[r] + 1):
                for y in range(0, min(MAX_WILDS - w0, wilds_in_hand - w_used) + 1):
                    counter.tick()
                    n, w = n0 + x, w0 + y
                    if n + w > 0 and (n + w < 3 or w > n):
                        continue
                    if r == pair_rank and n < 3:
                        continue
                    if c_used + x + y > max_cards:
                        continue
                    gain = x * VALUE[r]
                    if count_bonus and n + w >= CANASTA:
                        now = "natural" if w == 0 else "mixed"
                        before = None if n0 + w0 < CANASTA else ("natural" if w0 == 0 else "mixed")
                        gain += BONUS[now] - (BONUS[before] if before else 0)
                    key = (w_used + y, c_used + x + y)
                    if acc + gain > nxt.get(key, -(10**9)):
                        nxt[key] = acc + gain
        layer = nxt
    start = opening_value(melds, rules)
    _, wt, wj = base[WILD]
    w_meld0 = wt + wj
    wild_sizes = range(w_meld0, CANASTA + 1) if rules.wild_canastas else (w_meld0,)
    for (w_used, c_used), value in layer.items():
        for k in wild_sizes:
            if 0 < k < 3:
                continue
            extra = k - w_meld0
            if w_used + extra > wilds_in_hand or c_used + extra > max_cards:
                continue
            bonus = 0
            if count_bonus and k >= CANASTA and w_meld0 < CANASTA:
                bonus = BONUS["wild_joker" if wj > 0 or jokers > 0 else "wild_twos"]
            if start + value + wild_value(w_used + extra) + bonus >= need:
                return True
    return False


def _obliged_meld_completable(
    pos: Position, rules: Any, melds: dict[str, Counter], hand: Counter, budget: int
) -> bool:
    """An opened side (C7.3-C7.4, C8.3): whether hand cards laid one at a time on T's meld
    make the obligation and leave what :func:`pickup_leaves` allows with the rest of the
    pile (cards laid after the meld is made count too: the meld phase allows the same).
    Brute force over the (naturals, wilds) still to add; every step keeps the meld legal."""
    r = natural_rank(pos["pickup_card"])
    nat, twos, jokers = _hand_profile(hand)
    counter = _Counter(budget)
    n0, t0, j0 = meld_counts(melds[r])
    start_naturals = meld_counts(pos["start_melds"][r])[0]
    is_frozen = frozen(pos, rules)
    cards = sum(hand.values()) + pos["pickup_rest"]
    had_canasta = has_canasta(pos["start_melds"])

    def complete(n: int, w: int) -> bool:
        if is_frozen:  # way (a): two naturals from the hand with T (C8.3)
            return n >= start_naturals + 3
        return n + w >= 3

    def search(n: int, w: int, used: int, wild_left: int, nat_left: int) -> bool:
        counter.tick()
        if complete(n, w) and pickup_leaves(rules, had_canasta or n + w >= CANASTA, cards - used):
            return True
        if nat_left > 0 and search(n + 1, w, used + 1, wild_left, nat_left - 1):
            return True
        return (
            wild_left > 0 and w < MAX_WILDS and w < n and search(n, w + 1, used + 1, wild_left - 1, nat_left)
        )

    return search(n0, t0 + j0, 0, twos + jokers, nat[r])


def pickup_completable(
    pos: Position, rules: Any, melds: dict[str, Counter], hand: Counter, budget: int
) -> bool:
    """C7.1 step 1: whether the obligation of this turn's pickup can still be met from
    ``melds`` and ``hand`` (the side's melds already hold T)."""
    r = natural_rank(pos["pickup_card"])
    if side_open(pos, rules):
        return _obliged_meld_completable(pos, rules, melds, hand, budget)
    room = sum(hand.values()) + pos["pickup_rest"] - OPENING_PICKUP_KEEP
    return opening_completable(melds, hand, r, opening_minimum(pos, rules), room, rules, budget)


def pickup_complete(pos: Position, rules: Any, melds: dict[str, Counter]) -> bool:
    """Whether the obligation is met now (the rest of the pile then joins the hand)."""
    r = natural_rank(pos["pickup_card"])
    n, t, j = meld_counts(melds[r])
    if not side_open(pos, rules):
        return n >= 3 and all_valid(melds) and opening_done(pos, rules, melds)
    if frozen(pos, rules):
        return n >= meld_counts(pos["start_melds"][r])[0] + 3
    return n + t + j >= 3


def can_take_pile(pos: Position, rules: Any, budget: int = DEFAULT_BUDGET) -> bool:
    """C7.2-C7.4, C8, C11.6, C4.3/C7.7."""
    pile = pos["pile"]
    if not pile:
        return False
    top = pile[-1]
    r = natural_rank(top)
    if r is None:  # a wild or a black three on top (C7.2, C8.1-2); a red three has no rank
        return False
    melds = pos["melds"]
    if meld_size(melds[r]) >= CANASTA:  # the side's canasta rank (C7.2)
        return False
    if rules.free_upcard and pos["turn"] == 0:
        return True  # C4.4 option
    hand = pos["hand"]
    pair = sum(n for c, n in hand.items() if natural_rank(c) == r)
    wilds = sum(n for c, n in hand.items() if is_wild(c))
    new = {m: Counter(c) for m, c in melds.items()}
    new[r][top] += 1
    after = {**pos, "pickup_card": top, "pickup_rest": _joining_hand(pile[:-1])}
    if not side_open(pos, rules):  # (a) only, with the opening (C7.4, C11.6)
        if pair < 2:
            return False
        return pickup_completable(after, rules, new, hand, budget)
    if frozen(pos, rules) and pair < 2:  # (a) only (C8.3)
        return False
    if not frozen(pos, rules) and meld_size(melds[r]) == 0 and pair < 2 and not (pair >= 1 and wilds >= 1):
        return False  # neither (a) nor (b), and no meld for (c)
    return pickup_completable(after, rules, new, hand, budget)


# --- melding (C5, C10, C12) ------------------------------------------------------------
def _meld_card(hand: Counter, locked: Counter, wanted: Any) -> str | None:
    """The first card (S H D C order) satisfying ``wanted`` that is not locked (sk C7.6)."""
    for c in sorted(hand, key=_suit_order):
        if hand[c] > locked[c] and wanted(c):
            return c
    return None


def _suit_order(card: str) -> tuple[int, str]:
    return (0, card) if card == "JK" else ("SHDC".index(card[-1]), card)


def _meld_candidates(pos: Position, rules: Any) -> list[tuple[str, str, str]]:
    """(action name, meld, card) of every card that may physically go on a meld now."""
    hand, locked, melds = pos["hand"], pos["locked"], pos["melds"]
    out = []
    for r in RANKS:
        nat = _meld_card(hand, locked, lambda c, r=r: natural_rank(c) == r)
        if nat:
            out.append((f"meld_{r}", r, nat))
    targets = [r for r in RANKS if wild_fits(r, melds[r])]
    wild_meld = pos["phase"] == "meld" or not side_open(pos, rules)
    if rules.wild_canastas and wild_fits(WILD, melds[WILD]) and wild_meld:  # sk (C5.6)
        targets.append(WILD)
    two = _meld_card(hand, locked, lambda c: rank(c) == "2")
    joker = "JK" if hand["JK"] > locked["JK"] else None
    for kind, card in (("2", two), ("JK", joker)):
        if card:
            out += [(f"meld_{kind}_to_{m}", m, card) for m in targets]
    return out


def _after(melds: dict[str, Counter], hand: Counter, meld: str, card: str):
    new = {m: Counter(c) for m, c in melds.items()}
    new[meld][card] += 1
    return new, hand - Counter([card])


def _meld_legal(pos: Position, rules: Any, new: dict[str, Counter], left: Counter) -> bool:
    """C4.3, C12: a meld leaving two cards is always playable (withdraw or discard remain);
    leaving one needs the side's canasta (he can go out by discarding it); leaving none is
    pl's going out by melding (C12.1)."""
    k = sum(left.values())
    if k >= 2:
        return True
    if pos["asked"] == "no" or not has_canasta(new):
        return False
    if k == 1:
        return True
    return bool(rules.go_out_by_meld) and all_valid(new) and opening_done(pos, rules, new)


def _black_three_legal(pos: Position, rules: Any) -> bool:
    """pl C10.2: black threes melded only as the last step before going out: the side has a
    canasta, at most one other card stays, the meld reaches three; melding the last card
    is a going out by melding (C12.1) and needs every meld legal and the opening made."""
    if rules.black_three_meld != "going_out":
        return False
    hand, melds = pos["hand"], pos["melds"]
    black = hand["3S"] + hand["3C"]
    if black == 0 or pos["asked"] == "no" or not has_canasta(melds):
        return False
    others = sum(hand.values()) - black
    if others > 1 or black + meld_size(melds[BLACK]) < 3:
        return False
    if sum(hand.values()) == 1:  # the last card: going out by melding it
        card = "3S" if hand["3S"] else "3C"
        new, _ = _after(melds, hand, BLACK, card)
        return all_valid(new) and opening_done(pos, rules, new)
    return True


def _discards(hand: Counter) -> set[str]:
    return {f"discard_{discard_kind(c)}" for c, n in hand.items() if n > 0}


def legal_actions(pos: Position, rules: Any, budget: int = DEFAULT_BUDGET) -> set[str]:
    """The legal action names of ``pos`` under ``rules`` (a ``Rules`` of variant pl or sk)."""
    phase = pos["phase"]
    if phase == "over":
        return set()
    if phase == "answer":  # C12.5: the partner answers
        return {"yes", "no"}
    hand, melds = pos["hand"], pos["melds"]
    size = sum(hand.values())
    if phase == "draw":  # C4.1, C4.5
        out = {"draw"} if pos["stock"] > 0 else {"end_hand"}
        if can_take_pile(pos, rules, budget):
            out.add("take_pile")
        return out
    if phase == "pickup":  # C7.1 step 1: only additions that keep the obligation reachable
        out = set()
        r = natural_rank(pos["pickup_card"])
        for name, meld, card in _meld_candidates(pos, rules):
            if side_open(pos, rules) and meld != r:
                continue  # an opened side completes T's meld first (C7.1)
            new, left = _after(melds, hand, meld, card)
            if pickup_complete(pos, rules, new) and not side_open(pos, rules):
                ok = sum(left.values()) + pos["pickup_rest"] >= OPENING_PICKUP_KEEP
            else:
                ok = pickup_completable(pos, rules, new, left, budget)
            if ok:
                out.add(name)
        return out
    out_ok = may_go_out(pos, rules, melds)
    if phase == "discard":  # after a withdraw (C5.8)
        return set() if size == 1 and not out_ok else _discards(hand)
    # meld phase
    if pos["asked"] == "no":  # C12.5: no going out this turn; he takes his cards back
        return {"withdraw"}
    out = set()
    for name, meld, card in _meld_candidates(pos, rules):
        new, left = _after(melds, hand, meld, card)
        if pos["asked"] == "yes" and sum(left.values()) > 0:
            continue  # "yes": he must go out now (C12.5)
        if _meld_legal(pos, rules, new, left):
            out.add(name)
    if _black_three_legal(pos, rules) and (pos["asked"] != "yes" or size == 1):
        out.add("meld_black_three")
    laid = +(pos["checkpoint_hand"] - hand)
    if pos["asked"] == "yes":
        if size == 1 and out_ok:
            out |= _discards(hand)
        if not rules.go_out_by_meld:
            out = {a for a in out if a.startswith("discard_")}
        return out
    if laid:
        out.add("withdraw")  # C5.8
        if (
            rules.partner_permission
            and rules.num_players == 4
            and pos["asked"] == "not"
            and size == 1
            and out_ok
        ):
            out.add("ask")  # C12.5
    if all_valid(melds) and opening_done(pos, rules, melds) and (size >= 2 or out_ok):
        out |= _discards(hand)
    return out


def _builder_choice(pos: Position, legal: np.ndarray, rng: Any, default: int) -> int:
    """A biased random policy that builds melds: take the pile when allowed; in the meld
    phase lay cards that join a meld or make one of three, ask, then discard rather than
    withdraw."""
    names = {ACTION_NAMES[a]: a for a in legal}
    if "take_pile" in names:
        return names["take_pile"]
    if pos["phase"] != "meld" or pos["asked"] != "not":
        return default
    hand, melds = pos["hand"], pos["melds"]
    wilds = sum(n for c, n in hand.items() if is_wild(c))
    useful = []
    for name in names:
        if name in ("ask", "meld_black_three"):
            useful.append(name)
        elif name.startswith("meld_"):
            target = name.split("_")[-1]
            meld = melds[target] if target in melds else Counter()
            held = sum(n for c, n in hand.items() if natural_rank(c) == target)
            natural = name == f"meld_{target}" and meld_size(meld) + held >= 3
            wild_meld = target == WILD and meld_size(meld) + wilds >= 3
            wild_on = "_to_" in name and meld_size(meld) >= 3 and rng.random() < 0.5
            if natural or wild_meld or wild_on:
                useful.append(name)
    if useful and rng.random() < 0.9:
        return names[str(rng.choice(useful))]
    discards = [a for n, a in names.items() if n.startswith("discard_")]
    if discards and rng.random() < 0.95:
        return int(rng.choice(discards))
    return default


def compare_random_games(
    variant: str,
    players: int,
    states: int,
    *,
    seed: int = 0,
    batch: int = 16,
    budget: int = DEFAULT_BUDGET,
    keep: int = 5,
    builder: bool = False,
) -> dict[str, Any]:
    """Play seeded games with uniformly random legal actions and compare the checker's set
    with the engine's mask on every visited state (until ``states`` were visited). Returns
    {"checked", "mismatches", "skipped", "examples", "coverage"} (the first ``keep``
    mismatches; coverage counts states by phase and states where some rarer actions were
    legal). ``builder``: instead of uniform play, take the pile whenever allowed and prefer
    melding to discarding and withdrawing (reaches canastas, going out, the question)."""
    from kanaszta_env import GameBatch, Rules

    rules = Rules(variant=variant, num_players=players, episode="game")  # totals vary (C11.2)
    games = GameBatch(rules, batch_size=batch, auto_reset=True)
    games.reset(seed=seed)
    rng = np.random.default_rng(seed)
    coverage: Counter = Counter()
    stats: dict[str, Any] = {
        "checked": 0,
        "mismatches": 0,
        "skipped": 0,
        "examples": [],
        "coverage": coverage,
    }
    visited = 0
    while visited < states:
        mask = games.legal_mask()[:, : len(ACTION_NAMES)].copy()
        actions = np.zeros(batch, dtype=np.int64)
        for b in range(batch):
            legal = np.flatnonzero(mask[b])
            actions[b] = rng.choice(legal)
            if builder:
                actions[b] = _builder_choice(position_of(games, b), legal, rng, actions[b])
            if visited >= states:
                continue
            visited += 1
            pos = position_of(games, b)
            try:
                expected = legal_actions(pos, rules, budget)
            except SearchBudgetExceeded:
                stats["skipped"] += 1
                continue
            stats["checked"] += 1
            engine = mask_names(mask[b])
            coverage[f"phase {pos['phase']}"] += 1
            coverage["total != 0"] += pos["total"] != 0
            for name in ("take_pile", "end_hand", "withdraw", "ask", "meld_black_three", "meld_2_to_wild"):
                coverage[name] += name in engine
            coverage["going out possible"] += pos["phase"] == "meld" and may_go_out(pos, rules, pos["melds"])
            if engine != expected:
                stats["mismatches"] += 1
                if len(stats["examples"]) < keep:
                    stats["examples"].append(
                        f"{variant} {players}p: {describe(pos)}\n"
                        f"    engine only: {sorted(engine - expected)}; "
                        f"checker only: {sorted(expected - engine)}"
                    )
        games.step(actions)
    return stats


def mask_names(mask_row: np.ndarray) -> set[str]:
    """The names of the actions a (57-or-wider) mask row allows."""
    return {ACTION_NAMES[a] for a in np.flatnonzero(mask_row[: len(ACTION_NAMES)])}
