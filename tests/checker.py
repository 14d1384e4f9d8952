"""An independent legality checker: the reference the engine's mask is tested against.

Written from the rules (docs/rules/diszitett.md) and docs/design.md in plain Python over card names, without
importing the rules core (``kanaszta_env.core``): only the card notation and the
action names are shared. A position is a plain dict made by :func:`position_of`;
:func:`legal_actions` returns the set of legal action names.

The obligation of a penalised pickup (R8, design "Pickups") is decided by brute
force: a depth-first search over sequences of the atomic actions allowed in the
``pickup`` phase, memoised on a canonical position. Cards that no pickup-phase
rule tells apart are merged in that canonical form: the suits of naturals other
than the picked-up card's type, and the suits of small wilds (R6 twins, the only
rule that looks at a 2's suit, plays no part here). A search larger than its node
budget raises :class:`SearchBudgetExceeded` instead of guessing.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from kanaszta_env.cards import GROUP_NAMES, TYPE_NAMES, WILD_NAMES
from kanaszta_env.games.diszitett.actions import ACTION_NAMES

Position = dict[str, Any]

# --- layout of the State arrays (kanaszta_env/games/diszitett/kernels/state.py), read by position_of only
PHASES = ("cut", "draw", "meld", "discard", "pickup", "over")
FREE_PICKUP = ("waiting", "now", "used", "gone")
GROUP_SLOT_CARDS = [
    [f"{g}{s}" for s in "SHDC"] + list(WILD_NAMES) if g != "wild" else [None] * 4 + list(WILD_NAMES)
    for g in GROUP_NAMES
]

# --- the rules' vocabulary, from R1 and R10.4
NATURAL_GROUPS = ("A", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
WILD = "wild"
GROUPS = (*NATURAL_GROUPS, WILD)
KINDS = ("small", "big")
#: R12.3: what one card of each group counts towards the opening (R1.6 values)
OPENING_CARD_VALUE = {"A": 20, "4": 5, "5": 5, "6": 5, "7": 5, WILD: 20}
OPENING_CARD_VALUE |= {g: 10 for g in ("8", "9", "10", "J", "Q", "K")}
DEFAULT_BUDGET = 200_000


class SearchBudgetExceeded(RuntimeError):
    """The pickup search needed more nodes than its budget: the state is skipped."""


def rank(card: str) -> str:
    return card[:-1] if card != "JK" else "JK"


def is_wild(card: str) -> bool:
    """R1.3: jokers and all 2s."""
    return card == "JK" or rank(card) == "2"


def wild_kind(card: str) -> str:
    return "big" if card == "JK" else "small"


def is_frozen(card: str) -> bool:
    """R9: a black three or a wild on top freezes the discard pile."""
    return card in ("3S", "3C") or is_wild(card)


def natural_group(card: str) -> str | None:
    """The group a natural belongs to (R10.1), None for wilds and threes."""
    return rank(card) if rank(card) in NATURAL_GROUPS else None


# --- group rules (R10, R11), over counts ------------------------------------------
def natural_group_legal(n: int, w: int) -> bool:
    """R10.2: 3 to 8 cards, wilds fewer than naturals, and 8 cards only without wilds."""
    size = n + w
    return 3 <= size <= 8 and w < n and (size < 8 or w == 0)


def counts_legal(g: str, n: int, w: int) -> bool:
    """R10.2 / R10.3 for a non-empty group ``g`` of ``n`` naturals and ``w`` wilds."""
    if g == WILD:
        return n == 0 and 3 <= w <= 7
    return natural_group_legal(n, w)


def natural_step_ok(n_after: int, locked: int) -> bool:
    """design: a natural never makes a group exceed eight naturals, nor exceed seven
    cards with the wilds locked in it this turn (they cannot leave again)."""
    return n_after <= 8 and (locked == 0 or n_after + locked <= 7)


def wild_target_ok(g: str, n: int, locked_after: int, cp_size: int) -> bool:
    """design: a wild goes into a natural group that already holds a natural and can
    still end legal with the wilds locked there (more naturals may come, the
    unlocked wilds may leave), or into a wilds-only group that was not a canasta at
    the checkpoint (R13.2) and would not hold more than seven locked wilds.

    R13.3: no wild goes into a natural group that was a canasta at the checkpoint
    either. A red or gold canasta takes no wild, and a black one holds at most
    seven cards, so a wild put in (it stays: it is locked) would have to push out a
    wild of the canasta — taking wilds out of a black canasta without it becoming
    red or gold."""
    if g == WILD:
        return locked_after <= 7 and cp_size < 7
    if cp_size >= 7:
        return False
    return n >= 1 and any(natural_group_legal(m, locked_after) for m in range(n, 9))


def opening_value(sizes: dict[str, int]) -> int:
    """R12.3: every card of a group counts as the rank it stands for; wilds-only 20."""
    return sum(OPENING_CARD_VALUE[g] * size for g, size in sizes.items())


# --- reading the engine's arrays ----------------------------------------------------
def _group_lists(row: np.ndarray) -> dict[str, list[str]]:
    groups = {}
    for gi, g in enumerate(GROUP_NAMES):
        cards = [c for k, c in enumerate(GROUP_SLOT_CARDS[gi]) if c for _ in range(int(row[gi, k]))]
        if cards:
            groups[g] = cards
    return groups


def card_counter(row: np.ndarray) -> Counter:
    """Card names and their copies, from counts by card type."""
    return Counter({TYPE_NAMES[t]: int(row[t]) for t in range(len(TYPE_NAMES)) if row[t] > 0})


def position_of(state: Any, b: int) -> Position:
    """Game ``b`` of a batch ``State`` as plain Python, from the player to move's view
    plus the public table. Only reads the arrays (layout: games/diszitett/kernels/state.py)."""
    p = int(state.to_move[b])
    pile_len = int(state.pile_len[b])
    lifted = int(state.lifted[b])
    lifted_from = int(state.lifted_from[b])
    pickup_card = int(state.pickup_card[b])
    return {
        "phase": PHASES[int(state.phase[b])],
        "player": p,
        "num_players": int(state.hand.shape[1]),
        "hand": card_counter(state.hand[b, p]),
        "groups": _group_lists(state.groups[b, p]),
        "sep_heart_aces": int(state.sep_heart_aces[b, p]),
        "cp_hand": card_counter(state.cp_hand[b]),
        "cp_groups": _group_lists(state.cp_groups[b]),
        "cp_sep_heart_aces": int(state.cp_sep_heart_aces[b]),
        "locked": {
            g: (int(state.locked[b, gi, 0]), int(state.locked[b, gi, 1]))
            for gi, g in enumerate(GROUP_NAMES)
            if state.locked[b, gi].any()
        },
        "lifted": TYPE_NAMES[lifted] if lifted >= 0 else None,
        "lifted_from": GROUP_NAMES[lifted_from] if lifted >= 0 else None,
        "changed": bool(state.changed[b]),
        "opened": bool(state.opened[b, p]),
        "free_pickup": FREE_PICKUP[int(state.free_pickup[b, p])],
        "total": int(state.totals[b, p]),
        "stock_size": int(state.stock_len[b]),
        "pile": [TYPE_NAMES[int(t)] for t in state.pile[b, :pile_len]],
        "pickup_card": TYPE_NAMES[pickup_card] if pickup_card >= 0 else None,
        "pickup_from_hand": int(state.pickup_from_hand[b]),
    }


# --- small views of a position ------------------------------------------------------
def _counts(cards: list[str]) -> tuple[int, int, int]:
    """(naturals, small wilds, big wilds) of a group."""
    small = sum(1 for c in cards if is_wild(c) and c != "JK")
    big = cards.count("JK")
    return len(cards) - small - big, small, big


def _locked(pos: Position, g: str) -> tuple[int, int]:
    return pos["locked"].get(g, (0, 0))


def _cp_size(pos: Position, g: str) -> int:
    return len(pos["cp_groups"].get(g, []))


def _has_canasta(groups: dict[str, list[str]]) -> bool:
    return any(len(cards) >= 7 for cards in groups.values())


def _something_changed(pos: Position) -> bool:
    """R12.5 / design: something was laid or moved since the checkpoint. Laying always
    shows in the hand; a move shows in the groups, except a wild moved away and
    another moved back, which only the engine's flag records (then locks exist)."""
    differs = (
        pos["hand"] != pos["cp_hand"]
        or pos["sep_heart_aces"] != pos["cp_sep_heart_aces"]
        or {g: Counter(c) for g, c in pos["groups"].items()}
        != {g: Counter(c) for g, c in pos["cp_groups"].items()}
    )
    return differs or (pos["changed"] and bool(pos["locked"]))


def apply_pickup_action(pos: Position, name: str) -> Position:
    """The position after a meld, lift or place of the pickup phase, without the
    automatic step (the caller tests the obligation itself)."""
    new = dict(pos, hand=Counter(pos["hand"]), locked=dict(pos["locked"]))
    new["groups"] = {g: list(c) for g, c in pos["groups"].items()}
    parts = name.split("_")

    def put(g: str, card: str, lock: bool) -> None:
        new["groups"].setdefault(g, []).append(card)
        if lock:
            small, big = new["locked"].get(g, (0, 0))
            new["locked"][g] = (small + (card != "JK"), big + (card == "JK"))

    if parts[0] == "meld":
        card = parts[1]
        new["hand"][card] -= 1
        new["hand"] += Counter()  # drop zero counts
        if len(parts) == 2:
            put(natural_group(card), card, False)  # type: ignore[arg-type]
        else:
            put(parts[3], card, True)
    elif parts[0] == "lift":
        kind, g = parts[1], parts[3]
        cards = new["groups"][g]
        card = next(c for c in cards if is_wild(c) and wild_kind(c) == kind)
        cards.remove(card)
        if not cards:
            del new["groups"][g]
        new.update(lifted=card, lifted_from=g)
    elif parts[0] == "place":
        put(parts[2], pos["lifted"], True)
        new.update(lifted=None, lifted_from=None)
    else:
        raise ValueError(f"{name} is not a pickup-phase action")
    return new


# --- the legal actions --------------------------------------------------------------
class Checker:
    """Legal actions of positions under one ``kanaszta_env.Rules``.

    Args:
        rules: the game's rules (preset, opening minimum).
        budget: most search nodes for one pickup question before giving up.
        prune: use the sound pruning of the pickup search (False: plain search).
    """

    def __init__(self, rules: Any, budget: int = DEFAULT_BUDGET, prune: bool = True) -> None:
        self.rules = rules
        self.budget = budget
        self.prune = prune

    def legal_actions(self, pos: Position) -> set[str]:
        """Names of the legal actions in ``pos``.

        Raises :class:`SearchBudgetExceeded` when a pickup search outgrows the budget.
        """
        phase = pos["phase"]
        if phase == "cut":  # R3.1
            return {"keep", "leave"}
        if phase == "draw":
            return self._draw_actions(pos)
        if phase == "discard":  # R5.1, or after withdraw (R12.5)
            size = sum(pos["hand"].values())
            ok = size >= 2 or (size == 1 and _has_canasta(pos["groups"]))  # R14.1
            return {f"discard_{c}" for c in pos["hand"]} if ok else set()
        if phase == "meld":
            return self._meld_actions(pos)
        if phase == "pickup":
            return self._pickup_actions(pos)
        return set()

    # helpers over a position -------------------------------------------------------
    def minimum(self, pos: Position) -> int:
        """R12.2: the opening minimum of the player to move."""
        return self.rules.opening_minimum_for(pos["total"])

    def target_ok(self, pos: Position, g: str) -> bool:
        """Whether a wild (from hand or lifted) may go into group ``g`` now."""
        n = _counts(pos["groups"].get(g, []))[0]
        return wild_target_ok(g, n, sum(_locked(pos, g)) + 1, _cp_size(pos, g))

    def can_lift(self, pos: Position, g: str, kind: str) -> bool:
        """R13.2 + design: a wild not put there this turn leaves a group that is not a
        wild canasta of the checkpoint, if some other group could take it."""
        _, small, big = _counts(pos["groups"].get(g, []))
        present = small if kind == "small" else big
        if present - _locked(pos, g)[KINDS.index(kind)] <= 0:
            return False
        if g == WILD and _cp_size(pos, WILD) >= 7:
            return False
        return any(self.target_ok(pos, g2) for g2 in GROUPS if g2 != g)

    def can_end_melding(self, pos: Position) -> bool:
        """design "Melding as atomic steps": the conditions for a discard in the meld phase."""
        if pos["lifted"] is not None:  # R13.2: a lifted wild must be placed first
            return False
        size = sum(pos["hand"].values())
        if size < 1:
            return False
        groups = pos["groups"]
        for g, cards in groups.items():  # R10
            n, small, big = _counts(cards)
            if not counts_legal(g, n, small + big):
                return False
        for g, cards in pos["cp_groups"].items():  # R13.2-R13.3: canastas stay canastas
            if len(cards) >= 7 and len(groups.get(g, [])) < 7:
                return False
        going_out = size == 1
        if going_out and not _has_canasta(groups):  # R14.1
            return False
        if not pos["opened"]:
            laid = bool(groups)
            if not laid and pos["sep_heart_aces"] > pos["cp_sep_heart_aces"]:  # R10.6 [D]
                return False
            value = opening_value({g: len(cards) for g, cards in groups.items()})
            if laid and not going_out and value < self.minimum(pos):  # R12.1, R12.4
                return False
        return True

    def places(self, pos: Position) -> list[str]:
        """R13.2: where the lifted wild may go (another group)."""
        return [f"place_on_{g}" for g in GROUPS if g != pos["lifted_from"] and self.target_ok(pos, g)]

    def melds_from_hand(self, pos: Position, targets: tuple[str, ...]) -> list[str]:
        """Hand naturals into their groups and hand wilds into groups, among ``targets``."""
        out = []
        for card in pos["hand"]:
            g = natural_group(card)
            if g is not None:
                n = _counts(pos["groups"].get(g, []))[0]
                if g in targets and natural_step_ok(n + 1, sum(_locked(pos, g))):
                    out.append(f"meld_{card}")
            elif is_wild(card):
                out += [f"meld_{card}_to_{g2}" for g2 in targets if self.target_ok(pos, g2)]
        return out

    # the phases ---------------------------------------------------------------
    def _draw_actions(self, pos: Position) -> set[str]:
        out = {"draw"} if pos["stock_size"] > 0 else set()  # R5.2a
        pile = pos["pile"]
        if not pile or is_frozen(pile[-1]):  # R9
            return out
        if pos["free_pickup"] == "now":  # R7.2; R7.5: no penalised pickup in that turn
            out.add("take_free")
        elif pos["free_pickup"] in ("used", "gone"):  # R8: after the opportunity turn
            start = dict(pos, hand=pos["hand"] + Counter([pile[-1]]), cp_groups=pos["groups"])
            start.update(locked={}, lifted=None, lifted_from=None, pickup_card=pile[-1], pile=pile[:-1])
            if _PickupSearch(self, start).feasible_from(start):
                out.add("take_pile")
        return out

    def _meld_actions(self, pos: Position) -> set[str]:
        out: set[str] = set()
        hand = pos["hand"]
        if pos["lifted"] is not None:  # R13.2: it goes into another group at once
            return {*self.places(pos), "withdraw"}
        if sum(hand.values()) >= 2:  # R14.2: the last card is never melded
            out |= set(self.melds_from_hand(pos, GROUPS))
            if self.rules.heart_aces and hand["AH"] > 0:  # R10.6
                out.add("lay_heart_ace")
        out |= {f"lift_{kind}_from_{g}" for g in GROUPS for kind in KINDS if self.can_lift(pos, g, kind)}
        if _something_changed(pos):
            out.add("withdraw")
        if self.can_end_melding(pos):
            out |= {f"discard_{c}" for c in hand}
        return out

    def pickup_candidates(self, pos: Position) -> list[str]:
        """Atomic actions of the pickup phase before the feasibility test (design):
        an opened player melds hand naturals and wilds into the top card's group and
        may move wilds out of it; a player who has not opened melds from hand anywhere.
        The last hand card may go: the rest of the pile will still join the hand."""
        r = natural_group(pos["pickup_card"])
        if pos["lifted"] is not None:
            return self.places(pos)
        out = self.melds_from_hand(pos, (r,) if pos["opened"] else GROUPS)
        if pos["opened"]:
            out += [f"lift_{kind}_from_{r}" for kind in KINDS if self.can_lift(pos, r, kind)]
        return out

    def _pickup_actions(self, pos: Position) -> set[str]:
        """design: an action of the pickup phase is legal iff it is an allowed step and
        the obligation is met by it or can still be met after it."""
        search = _PickupSearch(self, pos)
        return {
            name
            for name in self.pickup_candidates(pos)
            if search.feasible_from(apply_pickup_action(pos, name))
        }


def legal_actions(pos: Position, rules: Any, budget: int = DEFAULT_BUDGET) -> set[str]:
    """Names of the legal actions in ``pos`` under ``rules`` (the rules as written)."""
    return Checker(rules, budget).legal_actions(pos)


class _PickupSearch:
    """Depth-first search for a completion of the obligatory meld (R8.1-R8.3, design).

    Canonical position (a tuple): hand naturals per natural group with the picked-up
    card's type apart, hand small and big wilds, other hand cards; per group its
    naturals, small and big wilds; the picked-up type's count in its group; the
    locks per group and kind; the kind and source of a lifted wild.
    """

    def __init__(self, checker: Checker, pos: Position) -> None:
        self.top = top = pos["pickup_card"]
        self.r = NATURAL_GROUPS.index(natural_group(top))  # type: ignore[arg-type]
        self.opened = pos["opened"]
        self.rest = len(pos["pile"])  # cards that join the hand afterwards (R8.3 step 3)
        self.minimum = checker.minimum(pos)
        self.prune = checker.prune
        self.budget = checker.budget
        cp_r = pos["cp_groups"].get(NATURAL_GROUPS[self.r], [])
        self.cp_size = tuple(_cp_size(pos, g) for g in GROUPS)
        self.cp_naturals_r = _counts(cp_r)[0]
        self.cp_top = cp_r.count(top)
        self.nodes = 0
        self.memo: dict[tuple, bool] = {}

    def canonical(self, pos: Position) -> tuple:
        nat = [0] * 11
        small = big = other = 0
        for card, k in pos["hand"].items():
            g = natural_group(card)
            if card == self.top:
                continue
            if g is not None:
                nat[NATURAL_GROUPS.index(g)] += k
            elif card == "JK":
                big += k
            elif is_wild(card):
                small += k
            else:
                other += k
        hand = (*nat, pos["hand"][self.top], small, big, other)
        groups = tuple(_counts(pos["groups"].get(g, [])) for g in GROUPS)
        top_in_r = pos["groups"].get(NATURAL_GROUPS[self.r], []).count(self.top)
        locked = tuple(_locked(pos, g) for g in GROUPS)
        lifted = -1 if pos["lifted"] is None else KINDS.index(wild_kind(pos["lifted"]))
        src = -1 if pos["lifted"] is None else GROUPS.index(pos["lifted_from"])
        return (hand, groups, top_in_r, locked, lifted, src)

    def met(self, st: tuple) -> bool:
        """design: the obligation is complete (then the rest of the pile joins)."""
        hand, groups, top_in_r, locked, lifted, _ = st
        r = self.r
        if lifted >= 0 or top_in_r <= self.cp_top:
            return False
        if groups[r][0] - self.cp_naturals_r + sum(locked[r]) < 3:  # R8.1: top + two hand cards
            return False
        canasta = False
        for gi, (n, small, big) in enumerate(groups):
            size = n + small + big
            if size == 0:
                if self.cp_size[gi] >= 7:
                    return False
                continue
            if not counts_legal(GROUPS[gi], n, small + big) or (self.cp_size[gi] >= 7 and size < 7):
                return False
            canasta = canasta or size >= 7
        value = opening_value({g: sum(groups[gi]) for gi, g in enumerate(GROUPS)})
        if not self.opened and value < self.minimum:  # R8.2
            return False
        left = sum(hand) + self.rest  # R14.2: a card to discard must remain
        return left >= 2 or (left == 1 and canasta)

    def _target(self, groups: tuple, locked: tuple, gi: int) -> bool:
        after = sum(locked[gi]) + 1
        return wild_target_ok(GROUPS[gi], groups[gi][0], after, self.cp_size[gi])

    def steps(self, st: tuple) -> list[tuple]:
        """Positions after each allowed atomic action (as in Checker.pickup_candidates)."""
        hand, groups, top_in_r, locked, lifted, src = st
        r = self.r
        out = []

        def with_wild(gi: int, kind: int) -> tuple[tuple, tuple]:
            g2, lk2 = list(groups), list(locked)
            n, small, big = g2[gi]
            g2[gi] = (n, small + (kind == 0), big + (kind == 1))
            lk2[gi] = (lk2[gi][0] + (kind == 0), lk2[gi][1] + (kind == 1))
            return tuple(g2), tuple(lk2)

        def minus(h: tuple, i: int) -> tuple:
            return (*h[:i], h[i] - 1, *h[i + 1 :])

        if lifted >= 0:
            for gi in range(12):
                if gi != src and self._target(groups, locked, gi):
                    g2, lk2 = with_wild(gi, lifted)
                    out.append((hand, g2, top_in_r, lk2, -1, -1))
            return out
        targets = (r,) if self.opened else range(11)
        for gi in targets:
            n, small, big = groups[gi]
            if not natural_step_ok(n + 1, sum(locked[gi])):
                continue
            g2 = (*groups[:gi], (n + 1, small, big), *groups[gi + 1 :])
            if gi == r and hand[11] > 0:  # the picked-up card's type
                out.append((minus(hand, 11), g2, top_in_r + 1, locked, -1, -1))
            if hand[gi] > 0:
                out.append((minus(hand, gi), g2, top_in_r, locked, -1, -1))
        for kind in (0, 1):
            if hand[12 + kind] > 0:
                for gi in (r,) if self.opened else range(12):
                    if self._target(groups, locked, gi):
                        g2, lk2 = with_wild(gi, kind)
                        out.append((minus(hand, 12 + kind), g2, top_in_r, lk2, -1, -1))
        if self.opened:
            for kind in (0, 1):
                if groups[r][1 + kind] - locked[r][kind] <= 0:
                    continue
                if not any(self._target(groups, locked, gi) for gi in range(12) if gi != r):
                    continue
                n, small, big = groups[r]
                g2 = (*groups[:r], (n, small - (kind == 0), big - (kind == 1)), *groups[r + 1 :])
                out.append((hand, g2, top_in_r, locked, kind, r))
        return out

    def dead(self, st: tuple) -> bool:
        """Sound pruning by monotonicity: hand cards only leave the hand, naturals never
        leave a group, locked wilds stay, and only the top card's group gives wilds
        away (opened player); so each bound below can only get worse."""
        hand, groups, top_in_r, locked, lifted, _ = st
        r = self.r
        hand_wilds = hand[12] + hand[13]
        from_hand = groups[r][0] - self.cp_naturals_r + sum(locked[r])
        if from_hand + hand[r] + hand[11] + hand_wilds < 3:  # R8.1
            return True
        if top_in_r <= self.cp_top and hand[11] == 0:
            return True
        if sum(hand) + self.rest < 1:  # R14.2
            return True
        movable = groups[r][1] + groups[r][2] - sum(locked[r]) + (lifted >= 0) if self.opened else 0
        for gi, (n, small, big) in enumerate(groups):
            w = small + big
            if n + w == 0 and gi != r:
                continue
            gets_hand = not self.opened or gi == r
            n_max = n + (hand[gi] if gets_hand and gi < 11 else 0) + (hand[11] if gi == r else 0)
            w_min = sum(locked[gi]) if (self.opened and gi == r) else w
            w_max = w + (hand_wilds if gets_hand else 0) + (movable if gi != r else 0)
            need = 7 if self.cp_size[gi] >= 7 else 3
            if not any(
                counts_legal(GROUPS[gi], m, x) and m + x >= need
                for m in range(n, n_max + 1)
                for x in range(w_min, w_max + 1)
            ):
                return True
        if not self.opened:  # R8.2: an upper bound of the reachable opening value
            value = opening_value({g: sum(groups[gi]) for gi, g in enumerate(GROUPS)})
            value += sum(OPENING_CARD_VALUE[g] * hand[gi] for gi, g in enumerate(NATURAL_GROUPS))
            value += OPENING_CARD_VALUE[NATURAL_GROUPS[r]] * hand[11] + 20 * hand_wilds
            if value < self.minimum:
                return True
        return False

    def feasible(self, st: tuple) -> bool:
        """Whether some sequence of allowed actions from ``st`` completes the obligation."""
        known = self.memo.get(st)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > self.budget:
            raise SearchBudgetExceeded(f"pickup search over {self.budget} nodes")
        result = False
        if not (self.prune and self.dead(st)):
            result = any(self.met(nxt) or self.feasible(nxt) for nxt in self.steps(st))
        self.memo[st] = result
        return result

    def feasible_from(self, pos: Position) -> bool:
        st = self.canonical(pos)
        return self.met(st) or self.feasible(st)


def mask_names(row: np.ndarray) -> set[str]:
    """Names of the actions set in one row of a legal mask."""
    return {ACTION_NAMES[a] for a in np.flatnonzero(row)}
