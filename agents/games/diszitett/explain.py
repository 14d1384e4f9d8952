"""Words for the terminal game: why a move is refused, how far an opening has
got, "did you mean …" for a mistyped move, and the rules in force.

The legal-action mask is the authority on what may be played; this module only
explains a refusal after the mask has refused, by checking the usual reasons
in the order a player meets them (phase, cards in hand, R7-R14). When none of
them applies it says so plainly instead of guessing.
"""

from __future__ import annotations

import numpy as np

from kanaszta_env import Rules
from kanaszta_env.cards import (
    GROUP_NAMES,
    IS_WILD,
    NUM_GROUPS,
    TYPE_GROUP,
    TYPE_NAMES,
    WILD_GROUP,
    parse_card,
)
from kanaszta_env.games.diszitett import actions as A
from kanaszta_env.games.diszitett.compiled import (
    CANASTA_SIZE,
    FREE_NAMES,
    PHASE_NAMES,
    State,
    max_wilds,
    natural_group_legal,
    opening_minimum,
    opening_value,
)
from kanaszta_env.games.diszitett.picture import FREEZING

from .narrate import groups_change, plural

CUT, DRAW, MELD, DISCARD, PICKUP, OVER = range(6)
assert PHASE_NAMES == ("cut", "draw", "meld", "discard", "pickup", "over")
#: the commands of the terminal game besides the moves


def rules_text(rules: Rules) -> str:
    """The rules in force, in one line."""
    aces = "an AH may be laid alone for 500, R10.6" if rules.heart_aces else "heart aces are ordinary aces"
    variant = f"variant {rules.variant} ({aces})"
    if rules.opening_schedule is None:
        minimum = f"opening minimum {rules.opening_minimum} (R12.2)"
    else:
        steps = ", ".join(f"{m} from {t}" for t, m in rules.opening_schedule)
        minimum = f"opening minimum by total: {steps} (R12.2)"
    episode = "one hand" if rules.episode == "hand" else f"a game to {rules.target_score} (R18)"
    return (
        f"rules: {variant} · {rules.num_players} players · {minimum} · {episode} · "
        f"a hand stops after {rules.max_turns} turns (R19.2)"
    )


def opening_progress(state: State, cfg: np.ndarray, p: int) -> tuple[int, int]:
    """(value laid, minimum) of player ``p``'s opening in game 0 (R12.3): all his
    groups were laid this turn, as he has not opened before."""
    return int(opening_value(state.groups[0, p])), int(opening_minimum(state.totals, cfg, 0, p))


def turn_status(state: State, cfg: np.ndarray) -> str:
    """What the mover has built this turn: ``this turn: 5: 5H 5S 5D (new) · opening 15 / 50``."""
    p = int(state.to_move[0])
    phase = int(state.phase[0])
    parts = []
    change = groups_change(state.cp_groups[0], state.groups[0, p])
    if phase == PICKUP:
        card = TYPE_NAMES[int(state.pickup_card[0])]
        opening = "" if state.opened[0, p] else ", and your whole opening"
        parts.append(
            f"penalised pickup of {card}: lay {card} with at least two cards of its rank or wilds from your "
            f"hand ({min(int(state.pickup_from_hand[0]), 3)} of 3 laid){opening}; then the rest of the pile "
            f"({int(state.pile_len[0])} cards) joins your hand (R8.3)"
        )
    if change:
        parts.append("this turn: " + " | ".join(change))
    unfinished = _illegal_groups(state.groups[0, p], short=True)
    if unfinished:
        parts.append("unfinished (R10.2): " + ", ".join(unfinished))
    if state.lifted[0] >= 0:
        parts.append(f"{TYPE_NAMES[int(state.lifted[0])]} lifted: place it on another group (R13.2)")
    if phase in (MELD, PICKUP) and not state.opened[0, p] and change:
        value, minimum = opening_progress(state, cfg, p)
        reached = value >= minimum and not unfinished
        parts.append(f"opening {value} / {minimum}" + (" (reached)" if reached else ""))
    return " · ".join(parts)


def why_illegal(state: State, rules: Rules, a: int) -> str:
    """Why action ``a`` is not legal for the mover of game 0 (the mask said so)."""
    phase = int(state.phase[0])
    p = int(state.to_move[0])
    if phase == OVER:
        return "the hand is over"
    if phase == CUT:
        return "first the cut: keep or leave the cut card shown (R3.1)"
    if a in (A.KEEP, A.LEAVE):
        return "the cut is over"
    if a in (A.DRAW, A.TAKE_FREE, A.TAKE_PILE):
        return _why_not_take(state, rules, a, p)
    if phase == DRAW:
        return "start your turn by getting a card: draw, or take from the discard pile (R5.2)"
    hand = state.hand[0, p]
    if a >= A.DISCARD0:
        return _why_not_discard(state, rules, a - A.DISCARD0, p)
    if phase == DISCARD:
        first = p == int(state.starter[0]) and int(state.turns_played[0, p]) == 0
        why = (
            "the starter's first turn is a discard only (R5.1)"
            if first
            else "you took back your melds (R12.5)"
        )
        return "only a discard now: " + why
    if state.lifted[0] >= 0 and not A.PLACE0 <= a < A.WITHDRAW and a != A.WITHDRAW:
        return f"first place the lifted {TYPE_NAMES[int(state.lifted[0])]} on another group (R13.2)"
    if a < A.HEART_ACE:
        return _why_not_meld(state, a, p, hand)
    if a == A.HEART_ACE:
        if not rules.heart_aces:
            return "in variant 2003-01 a heart ace is an ordinary ace: meld it with the aces (R10.6)"
        if not hand[parse_card("AH")]:
            return "you have no AH in your hand"
        return "the last card in your hand cannot be laid down (R14.2)"
    if a < A.PLACE0:
        return _why_not_lift(state, a, p)
    if a < A.WITHDRAW:
        if state.lifted[0] < 0:
            return "nothing is lifted: lift a wild out of a group first (R13.2)"
        return f"{TYPE_NAMES[int(state.lifted[0])]} cannot go onto {GROUP_NAMES[a - A.PLACE0]} (R10.2, R13.2)"
    if phase == PICKUP:
        return "the forced meld of a penalised pickup cannot be taken back (R12.5)"
    return "nothing was laid or moved this turn, so there is nothing to take back (R12.5)"


def _why_not_take(state: State, rules: Rules, a: int, p: int) -> str:
    phase = int(state.phase[0])
    if phase == DISCARD and int(state.turns_played[0, p]) == 0 and p == int(state.starter[0]):
        return "the starter's first turn is a discard only (R5.1)"
    if phase != DRAW:
        return "you have already got your card this turn (R5.2)"
    if a == A.DRAW:
        return "the stock is empty"
    n = int(state.pile_len[0])
    free = int(state.free_pickup[0, p])
    if n == 0:
        return "the discard pile is empty"
    top = int(state.pile[0, n - 1])
    if a == A.TAKE_FREE and FREE_NAMES[free] != "now":
        return f"the free pickup is offered once, in your opportunity turn (R7); yours is {FREE_NAMES[free]}"
    if top in FREEZING:
        return f"the discard pile is frozen: its top card {TYPE_NAMES[top]} is a wild or a black three (R9)"
    if FREE_NAMES[free] == "now":
        return (
            "this is your free-pickup turn: take_free takes the top card; "
            "the whole pile cannot be taken now (R7.5)"
        )
    if FREE_NAMES[free] == "waiting":
        return "the whole pile can be taken only after your free-pickup chance has come (R7.5)"
    g = int(TYPE_GROUP[top])
    hand = state.hand[0, p]
    support = int(hand[np.equal(TYPE_GROUP, g) | IS_WILD].sum())
    if support < 2:
        return (
            f"to take the pile you need two cards of rank {GROUP_NAMES[g]} or wilds in your hand "
            f"to meld {TYPE_NAMES[top]} with (R8.1)"
        )
    if not state.opened[0, p]:
        minimum = int(opening_minimum(state.totals, rules.to_config(), 0, p))
        return (
            f"you have not opened: your hand and {TYPE_NAMES[top]} cannot make an opening of {minimum} (R8.2)"
        )
    return f"{TYPE_NAMES[top]} cannot be melded with two cards from your hand into a legal group (R8.1, R10)"


def _why_not_meld(state: State, a: int, p: int, hand: np.ndarray) -> str:
    if a < A.WILD0:
        t = int(A.MELD_TYPE[a - A.MELD0])
        g = int(TYPE_GROUP[t])
    else:
        k, g = divmod(a - A.WILD0, NUM_GROUPS)
        t = int(A.WILD_TYPES[k])
    if not hand[t]:
        return f"you have no {TYPE_NAMES[t]} in your hand"
    if int(hand.sum()) < 2:
        return "your last card cannot be laid down: you go out by discarding it (R14.2)"
    if int(state.phase[0]) == PICKUP:
        card = TYPE_NAMES[int(state.pickup_card[0])]
        return f"it would leave the forced meld of {card} impossible to complete (R8.3)"
    grp = state.groups[0, p, g]
    naturals = int(grp[:4].sum())
    if a < A.WILD0:
        return (
            f"the group of {GROUP_NAMES[g]} would have more than 8 cards, "
            "or too many wilds fixed this turn (R10.2)"
        )
    if g != WILD_GROUP and naturals == 0:
        return (
            f"a wild goes only onto a group that already has a natural; "
            f"you have no {GROUP_NAMES[g]} laid (R10.1)"
        )
    if int(state.cp_groups[0, g].sum()) >= CANASTA_SIZE:
        return f"the {GROUP_NAMES[g]} group is a canasta and takes no wild (R13.3)"
    if g == WILD_GROUP:
        limit = "at most 7 wilds (R10.3)"
    else:
        limit = f"at most {int(max_wilds(naturals))} wilds with {naturals} naturals (R10.2)"
    return f"no room for another wild in the {GROUP_NAMES[g]} group: {limit}"


def _why_not_lift(state: State, a: int, p: int) -> str:
    kind, g = divmod(a - A.LIFT0, NUM_GROUPS)
    grp = state.groups[0, p, g]
    wilds = int(grp[8]) if kind else int(grp[4:8].sum())
    what = "joker" if kind else "2"
    if not wilds:
        return f"there is no {what} in your {GROUP_NAMES[g]} group"
    if int(state.locked[0, g, kind]) >= wilds:
        return "a wild put into a group this turn cannot be lifted again (R13.2)"
    if g == WILD_GROUP and int(state.cp_groups[0, g].sum()) >= CANASTA_SIZE:
        return "a wild canasta is never taken apart (R13.2)"
    return "no other group could take the lifted wild (R13.2)"


def _why_not_discard(state: State, rules: Rules, t: int, p: int) -> str:
    hand = state.hand[0, p]
    if not hand[t]:
        return f"you have no {TYPE_NAMES[t]} in your hand"
    if state.lifted[0] >= 0:
        return f"first place the lifted {TYPE_NAMES[int(state.lifted[0])]} on another group (R13.2)"
    if int(state.phase[0]) == PICKUP:
        card = TYPE_NAMES[int(state.pickup_card[0])]
        return f"first finish the forced meld: {card} with at least two cards from your hand (R8.3)"
    bad = _illegal_groups(state.groups[0, p])
    if bad:
        return "your groups are not finished: " + "; ".join(bad) + " (meld more, or withdraw, R12.5)"
    canasta = any(int(state.groups[0, p, g].sum()) >= CANASTA_SIZE for g in range(NUM_GROUPS))
    if int(hand.sum()) == 1 and not canasta:
        return "discarding your last card would go out, and going out needs a canasta (R14.1)"
    if not state.opened[0, p]:
        value, minimum = opening_progress(state, rules.to_config(), p)
        if value and value < minimum:
            return (
                f"opening {value} / {minimum}: the groups laid this turn do not reach the opening minimum "
                "(R12.1); lay more, or withdraw them (R12.5)"
            )
        if state.sep_heart_aces[0, p] > state.cp_sep_heart_aces[0] and not value:
            return "a heart ace laid alone is not an opening by itself (R10.6): lay an opening or withdraw"
    return "not legal now"


def _illegal_groups(groups: np.ndarray, short: bool = False) -> list[str]:
    """The groups that would not be legal at the end of melding (R10.2-R10.3):
    ``7 has 2 cards (fewer than 3 cards, R10.2)``, or with ``short`` ``7 2 cards``."""
    out = []
    for g in range(NUM_GROUPS):
        n = int(groups[g, :4].sum())
        w = int(groups[g, 4:].sum())
        if n + w == 0:
            continue
        ok = 3 <= w <= 7 if g == WILD_GROUP else bool(natural_group_legal(n, w))
        if ok:
            continue
        why = "fewer than 3 cards" if n + w < 3 else "too many wilds" if n + w <= 8 else "more than 8 cards"
        cards = plural(n + w, "card")
        if short:
            out.append(f"{GROUP_NAMES[g]} {cards}" if n + w < 3 else f"{GROUP_NAMES[g]} {why}")
        else:
            out.append(f"{GROUP_NAMES[g]} has {cards} ({why}, R10.2)")
    return out
