"""Consistency of a parsed classic position as a whole: the card census (C1.1),
legal melds (C5, C10), sides, seats, the flow of the hand and the turn state."""

from __future__ import annotations

import numpy as np

from ....cards import IS_RED_THREE, IS_WILD, NUM_TYPES, TYPE_NAMES
from ..kernels.tables import BLACK_MELD, MAX_WILD_MELD, MAX_WILDS, MIN_MELD, WILD_MELD
from .cards import MELD_NAMES, Melds, copies, counts, melds_counts, names
from .parse import CHECKPOINT_PHASES, mover_side


def check(c: dict) -> None:
    """Every check of a parsed classic position; raises ``ValueError`` naming the problem."""
    _check_sides(c)
    _check_census(c)
    _check_seats(c)
    _check_flow(c)
    _check_turn_state(c)


def _check_census(c: dict) -> None:
    """C1.1: the 108 (162) cards all accounted for, red threes laid out or in stock and pile."""
    rules = c["rules"]
    deck = copies(rules)
    total = counts([*c["stock"], *c["discard"], *(t for p in c["players"] for t in p["hand"])])
    total = total + sum(melds_counts(side["melds"]) for side in c["sides"])
    red = sum(side["red_threes"] for side in c["sides"])
    problems = [
        f"{total[t]} × {TYPE_NAMES[t]} (the deck has {deck[t]})"
        for t in range(NUM_TYPES)
        if not IS_RED_THREE[t] and total[t] != deck[t]
    ]
    red_all = red + sum(int(total[t]) for t in range(NUM_TYPES) if IS_RED_THREE[t])
    if red_all != 2 * deck[0]:
        problems.append(
            f"{red_all} red threes in stock, discard and the sides' red_threes (the deck has {2 * deck[0]})"
        )
    if problems:
        size = int(deck.sum())
        raise ValueError(f"the cards do not add up to the {size}-card deck (C1.1): " + "; ".join(problems))


def _check_seats(c: dict) -> None:
    """Hands, known cards, the sitter and the mover."""
    phase, mover = c["phase"], c["mover"]
    for q, p in enumerate(c["players"]):
        where = f"players[{q}]"
        if (counts(p["known"]) > counts(p["hand"])).any():
            raise ValueError(f"{where}.known lists cards that are not in the hand")
        if q == c["sitter"]:
            if p["hand"] or p["laid_before"]:
                raise ValueError(f"{where} sits this hand out (sitter, C2.4): no hand, nothing laid")
            continue
        out_ok = phase == "over" and q == c["out_player"]
        if not p["hand"] and not out_ok and not (phase == "pickup" and q == mover):
            raise ValueError(f"{where} has an empty hand in phase {phase!r}: he would have gone out (C12)")
    if phase == "answer":
        if not c["rules"].partner_permission or c["num_players"] != 4:
            raise ValueError("phase 'answer' exists only with partner_permission and four players (C12.5)")
        if c["to_move"] != (mover + 2) % 4:
            raise ValueError("in phase 'answer' the mover's partner (mover + 2) answers: to_move must be him")
    elif c["to_move"] != mover:
        raise ValueError(f"mover {mover} must be to_move {c['to_move']} outside phase 'answer'")


def check_melds(melds: Melds, rules, where: str, complete: bool) -> None:
    """C5: at most 3 wilds and never more than the naturals, a wild meld of at most 7 wilds
    (sk), black threes only in pl; with ``complete`` every meld has at least 3 cards (C5.1)."""
    for g, types in melds.items():
        shown = f"{where} {MELD_NAMES[g]} meld {names(types)}"
        if complete and len(types) < MIN_MELD:
            raise ValueError(f"{shown} has fewer than {MIN_MELD} cards (C5.1)")
        wild = sum(1 for t in types if IS_WILD[t])
        if g == WILD_MELD:
            if not rules.wild_canastas:
                raise ValueError(f"{shown}: melds of wilds only need wild_canastas (sk, C5.6)")
            if len(types) > MAX_WILD_MELD:
                raise ValueError(f"{shown} has more than {MAX_WILD_MELD} wilds (C5.6)")
        elif g == BLACK_MELD:
            if rules.black_three_meld != "going_out":
                raise ValueError(f"{shown}: black threes are melded only in pl, going out (C10.2)")
        elif wild > min(MAX_WILDS, len(types) - wild):
            raise ValueError(f"{shown}: at most {MAX_WILDS} wilds and no more than the naturals (C5.2)")


def _check_sides(c: dict) -> None:
    """Melds, opening (C11) and red threes of each side."""
    rules, phase = c["rules"], c["phase"]
    mover_side_index = c["side_of"][c["mover"]]
    out_side = None if c["out_player"] is None else c["side_of"][c["out_player"]]
    for i, side in enumerate(c["sides"]):
        where = f"sides[{i}]"
        # the engine lets pl go out with a black-three meld before other melds are complete
        mid_turn = i == mover_side_index and (phase in ("meld", "pickup") or i == out_side)
        check_melds(side["melds"], rules, f"{where}.melds", complete=not mid_turn)
        in_turn = i == mover_side_index and phase in ("meld", "pickup", "discard", "answer")
        if side["melds"] and not side["opened"] and not in_turn and i != out_side:
            raise ValueError(f"{where} has melds but has not opened (melds are laid in the side's own turns)")
    opened = {side["opened"] for side in c["sides"]}
    if rules.opening_scope == "table" and len(opened) > 1:
        raise ValueError("with opening_scope 'table' (pl, C11.1) every side has opened or none has")


def _check_flow(c: dict) -> None:
    """The end of the hand and the turn limit."""
    phase, reason = c["phase"], c["end_reason"]
    max_turns = c["rules"].max_turns
    if phase != "over":
        if reason != "none" or c["out_player"] is not None or c["out_how"] is not None:
            raise ValueError(
                f"end_reason/out_player/out_how describe a finished hand, but the phase is {phase!r}"
            )
        if c["turn"] >= max_turns:
            raise ValueError(f"turn {c['turn']} reaches max_turns {max_turns}: the hand would be over (C15)")
        return
    if reason == "none":
        raise ValueError("phase 'over' needs an end_reason other than 'none'")
    if (reason == "out") != (c["out_player"] is not None) or (c["out_how"] is None) != (
        c["out_player"] is None
    ):
        raise ValueError("out_player and out_how must be given exactly when end_reason is 'out'")
    if reason == "out" and c["out_player"] != c["mover"]:
        raise ValueError(
            f"out_player {c['out_player']} must be the mover {c['mover']}: he goes out in his turn"
        )
    if reason == "out" and c["players"][c["out_player"]]["hand"]:
        raise ValueError(f"out_player {c['out_player']} still holds cards (C12)")
    if reason == "exhausted" and c["stock"]:
        raise ValueError("end_reason 'exhausted' needs an empty stock (C4.5)")
    if (reason == "turn_limit") != (c["turn"] >= max_turns):
        raise ValueError(
            f"end_reason 'turn_limit' goes with turn >= max_turns ({max_turns}), and only with it"
        )


def derived_changed(c: dict) -> bool:
    """Whether cards were laid since the checkpoint (what makes ``withdraw`` legal)."""
    phase = c["phase"]
    if phase in CHECKPOINT_PHASES:
        return c["checkpoint"]["hand"] != c["players"][c["mover"]]["hand"]
    if phase == "pickup":  # the taken top card lies on its meld; anything more came from the hand
        laid = sum(len(v) for v in mover_side(c)["melds"].values())
        return laid - sum(len(v) for v in c["start_melds"].values()) > 1
    return False


def _check_turn_state(c: dict) -> None:
    phase, rules = c["phase"], c["rules"]
    pickup, asked = c["pickup"], c["asked"]
    mover_hand = counts(c["players"][c["mover"]]["hand"])
    if phase == "draw" and (pickup is not None or c["locked"] or asked != "none"):
        raise ValueError("in phase 'draw' the turn has just begun: no pickup, locked cards or answer")
    if phase == "pickup" and pickup is None:
        raise ValueError("phase 'pickup' needs turn_state.pickup: the top card taken with the pile (C7.1)")
    if (asked == "waiting") != (phase == "answer"):
        raise ValueError("turn_state.asked is 'waiting' exactly in phase 'answer' (C12.5)")
    if asked in ("yes", "no"):
        if not (rules.partner_permission and c["num_players"] == 4):
            raise ValueError("a partner's answer needs partner_permission and four players (C12.5)")
        if phase not in ("meld", "discard", "over") or (asked == "yes" and phase == "discard"):
            raise ValueError(f"turn_state.asked {asked!r} cannot stand in phase {phase!r}")
    if c["locked"]:
        if pickup is None or rules.pile_meld_same_turn:
            raise ValueError(
                "turn_state.locked lists pile cards not meldable this turn: only after a pickup, "
                "with pile_meld_same_turn false (sk, C7.6)"
            )
        if phase != "over" and (counts(c["locked"]) > mover_hand).any():
            raise ValueError("turn_state.locked lists cards that are not in the mover's hand")
    if phase != "over":
        changed = derived_changed(c)
        if c["changed_given"] is not None and c["changed_given"] != changed:
            raise ValueError(f"turn_state.changed is {c['changed_given']}, but the cards say {changed}")
        c["changed"] = changed
    else:
        c["changed"] = bool(c["changed_given"])
    _check_checkpoint(c)


def _slots_within(small: Melds, big: Melds) -> bool:
    for g, types in small.items():
        if (counts(types) > counts(big.get(g, []))).any():
            return False
    return True


def _check_checkpoint(c: dict) -> None:
    """C5.8: the checkpoint holds the mover's cards after the draw or pickup; the melds
    at the turn's start are contained in it."""
    phase, cp, start = c["phase"], c["checkpoint"], c["start_melds"]
    side = mover_side(c)
    hand = c["players"][c["mover"]]["hand"]
    if cp is not None:
        check_melds(cp["melds"], c["rules"], "turn_state.checkpoint.melds", complete=True)
        now = counts(hand) + melds_counts(side["melds"])
        if not np.array_equal(now, counts(cp["hand"]) + melds_counts(cp["melds"])):
            raise ValueError(
                "turn_state.checkpoint must hold the same cards as the mover's hand and his side's "
                "melds (melding only moves cards, C5.8)"
            )
        if not _slots_within(cp["melds"], side["melds"]):
            raise ValueError("turn_state.checkpoint.melds must be contained in the side's melds")
        if phase == "discard" and (cp["hand"] != hand or cp["melds"] != side["melds"]):
            raise ValueError("in phase 'discard' (after a withdraw) the checkpoint equals the mover's cards")
    if start is not None:
        check_melds(start, c["rules"], "turn_state.start_melds", complete=True)
        bound = side["melds"] if cp is None else cp["melds"]
        if not _slots_within(start, bound):
            raise ValueError("turn_state.start_melds must be contained in the side's melds of this turn")
