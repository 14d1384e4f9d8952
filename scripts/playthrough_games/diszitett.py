"""Díszített kanaszta's playthroughs: the hands recorded (:data:`SPECS`), their rendering
(compact text from the state arrays, with :mod:`kanaszta_env.cards` for notation) and the
deterministic, seeded pseudo-random policy biased towards pickups and melds, so that the
hands show more than drawing and discarding."""

from __future__ import annotations

import numpy as np

from kanaszta_env import GameBatch
from kanaszta_env.cards import (
    GROUP_CARD_VALUE,
    GROUP_NAMES,
    IS_WILD,
    NATURAL_RANKS,
    NUM_GROUPS,
    SLOT_TYPE,
    TYPE_GROUP,
    TYPE_NAMES,
    counts_to_cards,
    parse_card,
)
from kanaszta_env.games.diszitett.kernels.state import (
    FREE_NAMES,
    PHASE_NAMES,
    PHASE_OVER,
    PICKUP_FREE,
    PICKUP_PILE,
)

from .recorder import Chooser, Spec, _wrap

END_REASONS = ("none", "went out", "stock and pile exhausted", "turn limit")

# Seeds picked by trying the first forty of each setting: each hand shows free
# and penalised pickups and ends with a player going out before the turn limit,
# in under 3,000 lines.
SPECS = (
    Spec("2p_2003-02", "2003-02", 2, 25, 50),
    Spec("2p_2003-01", "2003-01", 2, 19, 50),
    Spec("3p_2003-02", "2003-02", 3, 38, 45),
    Spec("4p_2003-01", "2003-01", 4, 3, 40),
)


# --- rendering ------------------------------------------------------------------------
def _cards(counts: np.ndarray) -> str:
    cards = counts_to_cards(counts)
    return " ".join(cards) if cards else "-"


def _group_text(g: int, grp: np.ndarray) -> str:
    cards = [TYPE_NAMES[SLOT_TYPE[g, k]] for k in range(grp.shape[0]) for _ in range(int(grp[k]))]
    return f"{GROUP_NAMES[g]}({len(cards)}): {' '.join(cards)}"


def _groups_text(groups: np.ndarray) -> str:
    parts = [_group_text(g, groups[g]) for g in range(NUM_GROUPS) if groups[g].sum() > 0]
    return " | ".join(parts) if parts else "-"


def render_state(games: GameBatch) -> list[str]:
    """Compact text of game 0 of ``games``: table, players and turn scope."""
    s = games.state
    phase = int(s.phase[0])
    mover = int(s.to_move[0])
    lines = [f"phase {PHASE_NAMES[phase]} · to move P{mover} · turn {int(s.turn[0])}"]
    if PHASE_NAMES[phase] == "cut":
        decided = int(s.cut_index[0])
        verdict = {-1: "", 0: " left", 1: " kept"}
        shown = [
            TYPE_NAMES[s.cut_cards[0, i]] + (verdict[int(s.cut_kept[0, i])] if i < decided else "")
            for i in range(3)
        ]
        lines.append(f"cut    {', '.join(shown)}")
    n_stock = int(s.stock_len[0])
    known = int(s.stock_known[0])
    stock = f"stock {n_stock}"
    if known:  # R3.4: cut cards that were left lie at the bottom, public
        bottom = " ".join(TYPE_NAMES[t] for t in s.stock[0, :known][::-1])
        stock += f" (bottom {known} known, top first: {bottom})"
    pile = [TYPE_NAMES[t] for t in s.pile[0, : int(s.pile_len[0])]]
    if pile:
        pile[-1] = f"[{pile[-1]}]"
        fresh = " (top discarded last turn)" if s.pile_fresh[0] else ""
        discard = f"discard {len(pile)}{fresh}: {' '.join(pile)}"
    else:
        discard = "discard 0"
    lines += _wrap("table  ", f"{stock} · {discard}")
    for p in range(games.num_players):
        marker = ">" if p == mover and phase != PHASE_OVER else " "
        red = int(s.red_threes[0, p].sum())
        lines += _wrap(f"P{p}{marker}    ", f"hand {int(s.hand[0, p].sum())}: {_cards(s.hand[0, p])}")
        lines += _wrap("       ", f"groups: {_groups_text(s.groups[0, p])}")
        status = (
            f"opened {'yes' if s.opened[0, p] else 'no'} · free pickup {FREE_NAMES[s.free_pickup[0, p]]}"
            f" · red threes {red} · twins {int(s.twins[0, p])}"
        )
        if games.rules.heart_aces:
            status += f" · separate AH {int(s.sep_heart_aces[0, p])}"
        status += f" · known: {_cards(s.known[0, p])}"
        lines += _wrap("       ", status)
    lines += _turn_scope(games)
    return lines


def _turn_scope(games: GameBatch) -> list[str]:
    """The current turn's pickup and a lifted wild, when there is one."""
    s = games.state
    parts = []
    if s.pickup_kind[0] == PICKUP_FREE:
        parts.append("free pickup taken")
    elif s.pickup_kind[0] == PICKUP_PILE:
        top = TYPE_NAMES[s.pickup_card[0]]
        text = f"pile pickup of {int(s.pickup_size[0])} cards, top {top}"
        if PHASE_NAMES[s.phase[0]] == "pickup":
            # R8.3 step 2: the top card and two more hand cards go into its group
            text += (
                f": obligatory meld open, {int(s.pickup_from_hand[0])} of 3 hand cards (top card included)"
                f" in group {GROUP_NAMES[TYPE_GROUP[s.pickup_card[0]]]},"
                f" {int(s.pile_len[0])} pile card(s) to follow"
            )
        parts.append(text)
    if s.lifted[0] >= 0:
        parts.append(f"lifted {TYPE_NAMES[s.lifted[0]]} from {GROUP_NAMES[s.lifted_from[0]]}")
    return _wrap("turn   ", " · ".join(parts)) if parts else []


def render_result(games: GameBatch, rewards: np.ndarray) -> list[str]:
    """The end of the hand: how it ended, scores, totals and rewards."""
    s = games.state
    reason = END_REASONS[int(s.end_reason[0])]
    if s.out_player[0] >= 0:
        reason += f" (P{int(s.out_player[0])})"
    lines = [f"end: {reason} after {int(s.turn[0])} turns"]
    for p in range(games.num_players):
        lines.append(
            f"P{p}: hand score {int(s.hand_scores[0, p])} · total {int(s.totals[0, p])}"
            f" · reward {float(rewards[p]):+.1f}"
        )
    return lines


RENDERERS = (render_state, render_result)
LEGEND: tuple[str, ...] = ()


# --- the biased random policy -----------------------------------------------------------
def _useful_meld(games: GameBatch, name: str) -> bool:
    """Whether a meld action builds toward a group that can become legal."""
    s = games.state
    p = int(s.to_move[0])
    hand = s.hand[0, p]
    groups = s.groups[0, p]
    if name == "lay_heart_ace":
        return True
    parts = name.split("_")
    t = parse_card(parts[1])
    if IS_WILD[t]:
        g = GROUP_NAMES.index(parts[3])
        return g == NUM_GROUPS - 1 or groups[g, :4].sum() >= 2
    g = int(TYPE_GROUP[t])
    in_group = int(groups[g, :4].sum())
    rank = NATURAL_RANKS[g]
    in_hand = int(hand[rank * 4 : rank * 4 + 4].sum())
    wilds = int(hand[IS_WILD].sum())
    return in_group > 0 or in_hand >= 3 or (in_hand == 2 and wilds > 0)


def _opening_in_reach(games: GameBatch) -> bool:
    """Whether an unopened player holds groups worth the opening minimum (R12.3),
    roughly: ranks with three naturals, or two and a spare wild, and three wilds."""
    s = games.state
    p = int(s.to_move[0])
    if s.opened[0, p] or s.groups[0, p].sum() > 0:
        return True
    hand = s.hand[0, p]
    wilds = int(hand[IS_WILD].sum())
    value = 0
    for g, rank in enumerate(NATURAL_RANKS):
        n = int(hand[rank * 4 : rank * 4 + 4].sum())
        if n == 2 and wilds > 0:
            wilds -= 1
            n = 3
        if n >= 3:
            value += n * int(GROUP_CARD_VALUE[g])
    if wilds >= 3:
        value += 20 * wilds
    return value >= games.rules.opening_minimum_for(int(s.totals[0, p]))


def _discard_weight(games: GameBatch, name: str) -> float:
    """Prefer throwing lone cards; keep wilds and cards of one's own groups."""
    s = games.state
    p = int(s.to_move[0])
    t = parse_card(name.split("_")[1])
    if IS_WILD[t]:
        return 0.05
    g = int(TYPE_GROUP[t])
    if g >= 0 and s.groups[0, p, g].sum() > 0:
        return 0.2
    return 1.0 / int(s.hand[0, p, t])


def policy(seed: int) -> Chooser:
    """A deterministic pseudo-random policy biased to pick up, meld and go out."""
    rng = np.random.default_rng(seed)

    def pick(names: list[str], weights: list[float] | None = None) -> str:
        if weights is None:
            return names[int(rng.integers(len(names)))]
        w = np.asarray(weights, dtype=np.float64)
        return names[int(rng.choice(len(names), p=w / w.sum()))]

    def choose(games: GameBatch, legal: list[str]) -> str:
        for preferred in ("take_pile", "take_free"):
            if preferred in legal:
                return preferred
        places = [n for n in legal if n.startswith("place_on_")]
        if places:
            return pick(places)
        discards = [n for n in legal if n.startswith("discard_")]
        melds = [n for n in legal if n.startswith(("meld_", "lay_heart_ace"))]
        lifts = [n for n in legal if n.startswith("lift_")]
        useful = [n for n in melds if _useful_meld(games, n)] if _opening_in_reach(games) else []
        if lifts and rng.random() < 0.02:
            return pick(lifts)
        if useful and (not discards or rng.random() < 0.9):
            return pick(useful)
        if discards:
            return pick(discards, [_discard_weight(games, n) for n in discards])
        # stuck: the groups laid cannot be completed (or miss the opening minimum)
        return "withdraw" if "withdraw" in legal else pick(legal)

    return choose
