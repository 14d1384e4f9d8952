"""Consistency of a parsed position as a whole.

:func:`check_position` covers the players, the red threes and the flow of the
hand; :func:`check_turn_state` the current turn (checkpoint, locked and lifted
wilds, pickup). ``load`` runs the card census between the two, so that an edit
that breaks the deck is reported as such rather than as the checkpoint it no
longer matches."""

from __future__ import annotations

from ....cards import (
    DECK_SIZE,
    GROUP_NAMES,
    IS_RED_THREE,
    IS_WILD,
    JOKER,
    RED_THREES,
    TYPE_GROUP,
    TYPE_NAMES,
    WILD_GROUP,
)
from ....position.cardlists import all_cards, names, row
from ....position.fields import counts
from ..kernels.melds import group_legal
from .schema import TURN_PHASES, Groups


def check_legal(groups: Groups, where: str) -> None:
    """Every group legal (R10.2, R10.3)."""
    for g, types in groups.items():
        if not group_legal(g, row(types)):
            raise ValueError(
                f"{where}: {names(types)} is not a legal group (R10.2: 3-8 cards with fewer wilds "
                "than naturals and no wild among 8; R10.3: 3-7 wilds only)"
            )


def check_position(c: dict) -> None:
    """Red threes, each player's cards and flags, and the phase and flow keys."""
    _check_red_threes(c)
    phase, mover = c["phase"], c["to_move"]
    for q, p in enumerate(c["players"]):
        where = f"players[{q}]"
        if p["red_three_debt"] > p["red_threes"]:
            raise ValueError(f"{where}.red_three_debt exceeds its red_threes (R4.2)")
        hand = counts(p["hand"], f"{where}.hand")
        if (counts(p["known"], f"{where}.known") > hand).any():
            raise ValueError(f"{where}.known lists cards that are not in the hand")
        if not (phase in TURN_PHASES and q == mover):
            check_legal(p["groups"], f"{where}.groups")
        if p["opened"] and not p["groups"]:
            raise ValueError(f"{where} has opened but has no groups")
        if p["groups"] and not p["opened"] and not (q == mover and phase in ("meld", "pickup", "discard")):
            raise ValueError(f"{where} has groups but has not opened (groups are laid only in his own turn)")
        # the obligatory meld of a pickup may empty the hand before the pile joins it
        if not p["hand"] and phase not in ("cut", "over") and not (phase == "pickup" and q == mover):
            raise ValueError(f"{where} has an empty hand in phase {phase!r} (R5.3: he would have gone out)")
    _check_phase(c)
    if c["phase"] == "over":
        _check_over(c)
    else:
        _check_flow(c)


def _check_red_threes(c: dict) -> None:
    """Red threes lie only in the stock or in collections (R4, R4.4)."""
    players = c["players"]
    for t in c["discard"]:
        if IS_RED_THREE[t]:
            raise ValueError(f"discard pile holds red three {TYPE_NAMES[t]} (R4.4)")
    stock_red = sum(1 for t in c["stock"] if IS_RED_THREE[t])
    collected = sum(p["red_threes"] for p in players)
    if collected + stock_red != 4:
        raise ValueError(
            f"players' red_threes add up to {collected} and the stock holds {stock_red} red threes; "
            "together they must be 4 (R4: red threes are only in the stock or in collections)"
        )
    hearts = sum(p["red_three_hearts"] for p in players)
    if hearts != 2 - c["stock"].count(RED_THREES[0]):
        raise ValueError(f"red_three_hearts add up to {hearts}, which does not match the 3H in the stock")


def _check_phase(c: dict) -> None:
    """The cut phase (R3) and the discard pile's fresh top."""
    if c["phase"] == "cut":
        if any(p["hand"] for p in c["players"]):
            raise ValueError("phase 'cut' with dealt hands: the deal follows the cut (R3)")
        if len(c["stock"]) != DECK_SIZE:
            raise ValueError(f"in phase 'cut' all {DECK_SIZE} cards are in the stock, not {len(c['stock'])}")
        if c["stock_known_bottom"] or c["to_move"] != c["starter"]:
            raise ValueError("in phase 'cut' the starter moves and no stock card is known yet (R3.1)")
    if c["top_fresh"] and not c["discard"]:
        raise ValueError("top_fresh needs a non-empty discard pile")


def _check_flow(c: dict) -> None:
    """A hand in progress: a stock beside any pile (R5.4), no end yet, the mover by the turn count."""
    phase, n = c["phase"], c["num_players"]
    if not c["stock"] and c["discard"]:
        raise ValueError(
            f"the stock is empty but the discard pile holds {len(c['discard'])} cards: the moment the "
            "stock runs out the pile becomes the new stock (R5.4), so no position between two actions "
            "has an empty stock beside a discard pile"
        )
    if c["end_reason"] != "none" or c["out_player"] is not None:
        raise ValueError(f"end_reason/out_player describe a finished hand, but the phase is {phase!r}")
    if c["to_move"] != (c["starter"] + c["turn"]) % n:
        raise ValueError(f"to_move must be (starter + turn) % num_players = {(c['starter'] + c['turn']) % n}")


def _check_over(c: dict) -> None:
    """A finished episode: an end reason that matches the cards (R5.4, R14.1)."""
    players = c["players"]
    if c["end_reason"] == "none":
        raise ValueError("phase 'over' needs an end_reason other than 'none'")
    if (c["end_reason"] == "out") != (c["out_player"] is not None):
        raise ValueError("out_player must be given exactly when end_reason is 'out'")
    for q, p in enumerate(players):
        if not p["hand"] and q != c["out_player"]:
            raise ValueError(f"players[{q}] has an empty hand but did not go out")
    if c["out_player"] is not None and players[c["out_player"]]["hand"]:
        raise ValueError(f"out_player {c['out_player']} still holds cards (R14.1)")
    if c["end_reason"] == "exhausted" and (c["stock"] or c["discard"]):
        raise ValueError("end_reason 'exhausted' needs an empty stock and discard pile (R5.4)")


def check_turn_state(c: dict) -> None:
    """The current turn: pickup (R8), lifted and locked wilds (R13.2), checkpoint (R12.5)."""
    phase, pickup = c["phase"], c["pickup"]
    check_legal(c["checkpoint"]["groups"], "turn_state.checkpoint.groups")
    if pickup["kind"] == "pile":
        if pickup["card"] is None or TYPE_GROUP[pickup["card"]] < 0:
            raise ValueError("turn_state.pickup.card of a pile pickup must be a natural (R8, R9)")
        if pickup["size"] < 1:
            raise ValueError("turn_state.pickup.size of a pile pickup must be at least 1 (R8.4)")
    elif pickup["size"] or pickup["card"] is not None or pickup["from_hand"]:
        raise ValueError(f"a pickup of kind {pickup['kind']!r} has no size, card or from_hand")
    if phase in ("cut", "draw") and pickup["kind"] != "none":
        raise ValueError(f"no pickup can have happened in phase {phase!r}")
    if phase == "pickup" and pickup["kind"] != "pile":
        raise ValueError("phase 'pickup' needs turn_state.pickup.kind 'pile'")
    if c["lifted"] is not None and phase not in TURN_PHASES:
        raise ValueError(f"no wild can be lifted in phase {phase!r} (R13.2)")
    if phase in ("cut", "draw", "discard") and (c["locked"] or c["changed"]):
        raise ValueError(f"nothing can have been laid or moved in phase {phase!r}")
    _check_checkpoint(c)
    _check_locked(c)


def _check_checkpoint(c: dict) -> None:
    """R12.5: the checkpoint is the mover's cards before this turn's melding."""
    phase, cp = c["phase"], c["checkpoint"]
    mover = c["players"][c["to_move"]]
    if phase in ("draw", "discard"):
        same = (
            cp["hand"] == mover["hand"]
            and cp["groups"] == mover["groups"]
            and cp["separate_heart_aces"] == mover["separate_heart_aces"]
        )
        if not same:
            raise ValueError(f"in phase {phase!r} turn_state.checkpoint must equal the mover's cards")
    if phase in TURN_PHASES:
        now = all_cards(mover["hand"], mover["groups"], mover["separate_heart_aces"])
        if c["lifted"] is not None:
            now[c["lifted"]] += 1
        if (now != all_cards(cp["hand"], cp["groups"], cp["separate_heart_aces"])).any():
            raise ValueError(
                "turn_state.checkpoint must hold the same cards as the mover's hand, groups, "
                "separate heart aces and lifted wild (melding only moves cards, R12.5)"
            )


def _check_locked(c: dict) -> None:
    """Locked wilds lie in their group, which holds naturals unless it is the wild group."""
    mover = c["players"][c["to_move"]]
    for g, (small, big) in c["locked"].items():
        types = mover["groups"].get(g, [])
        if g != WILD_GROUP and not any(not IS_WILD[t] for t in types):
            raise ValueError(f"turn_state.locked: group {GROUP_NAMES[g]} has no naturals to hold wilds")
        if small > sum(1 for t in types if IS_WILD[t] and t != JOKER) or big > types.count(JOKER):
            raise ValueError(f"turn_state.locked: group {GROUP_NAMES[g]} holds fewer wilds than are locked")
