"""Consistency of a parsed Turkish position as a whole: the card census (T1.1), the
checkpoint of the turn (T9.6), legal melds and their canasta kinds (T5-T8), openings and
layer-offs (T9, T10), the Fis (T11), the forced canasta opening (T12) and the flow of the
hand (T4, T13)."""

from __future__ import annotations

import numpy as np

from ....cards import JOKER, NUM_TYPES, RANK_2, TYPE_NAMES
from ..kernels.melds import DEAD, SHAPE_RUN, VALID, analyse
from ..kernels.tables import CANASTA, PACKET, PAIRS, PLAYERS
from .cards import COPIES, Meld, counts, melds_counts, names
from .parse import mover_pair

#: cards in a checkpoint's hand: after a draw or a taken pile, or a Fi (T4.2)
MIN_CHECKPOINT_HAND = 2


def check(c: dict) -> None:
    """Every check of a parsed Turkish position; raises ``ValueError`` naming the problem."""
    _check_census(c)
    _check_players(c)
    _check_fis(c)
    _check_checkpoint(c)
    for i in range(PAIRS):
        _check_pair(c, i)
    _check_flow(c)


def _check_census(c: dict) -> None:
    """T1.1: the 106 cards all accounted for (a taken Fi's cards are in hands and melds)."""
    loose = [*c["stock"], *c["discard"], *(t for p in c["players"] for t in p["hand"])]
    loose += [t for fi in c["fis"] if fi["cards"] is not None for t in fi["cards"]]
    total = counts(loose) + sum(melds_counts(pair["melds"]) for pair in c["pairs"])
    problems = [
        f"{total[t]} × {TYPE_NAMES[t]} (the deck has {COPIES})"
        for t in range(NUM_TYPES)
        if total[t] != COPIES
    ]
    if problems:
        raise ValueError(
            "the cards in stock, discard, hands, melds and untaken Fis do not add up to the "
            f"{COPIES * NUM_TYPES}-card deck (T1.1): " + "; ".join(problems)
        )


def _check_players(c: dict) -> None:
    """Hands, known cards, openings and layer-offs (T9, T10.2)."""
    phase = c["phase"]
    for q, p in enumerate(c["players"]):
        where = f"players[{q}]"
        if (counts(p["known"]) > counts(p["hand"])).any():
            raise ValueError(f"{where}.known lists cards that are not in the hand")
        if p["opened"] and p["layoff"]:
            raise ValueError(f"{where} has opened and is a layer-off: a layer-off never opens (T10.2)")
        if p["layoff"] and not c["players"][(q + 2) % PLAYERS]["opened"]:
            raise ValueError(f"{where} is a layer-off, but his partner has not opened (T10.2)")
        if p["opened"] and not any(m["owner"] == q for m in c["pairs"][q % PAIRS]["melds"]):
            raise ValueError(
                f"{where} has opened but owns no meld of pair {q % PAIRS} (T9: opening lays melds)"
            )
        out_ok = phase == "over" and q == c["out_player"]
        if not p["hand"] and not out_ok:
            raise ValueError(
                f"{where} has an empty hand in phase {phase!r}: an emptied hand takes a Fi or goes "
                "out (T11, T13)"
            )


def _check_fis(c: dict) -> None:
    """T11: Fi 1 before Fi 2; an unused Fi is its taker's whole hand; T12.1 the forced opening."""
    fis = c["fis"]
    if fis[1]["taker"] is not None and fis[0]["taker"] is None:
        raise ValueError("fis[1] is taken but fis[0] is not: Fi 1 goes first (T11.1)")
    for f, fi in enumerate(fis):
        q = fi["taker"]
        if q is None or fi["used"]:
            continue
        if c["phase"] != "over" and q == c["to_move"]:
            raise ValueError(f"fis[{f}] taken by the mover {q} must be used: his turn has begun (T11.3)")
        size = len(c["players"][q]["hand"])
        if size != PACKET:
            raise ValueError(
                f"fis[{f}] is unused, so it is the whole hand of its taker {q} ({PACKET} cards, T11.3), "
                f"but players[{q}] holds {size}"
            )
    for i, pair in enumerate(c["pairs"]):
        to_other = all(fi["taker"] is not None and fi["taker"] % PAIRS != i for fi in fis)
        opened = [q for q in range(i, PLAYERS, PAIRS) if c["players"][q]["opened"]]
        where = f"pairs[{i}].forced"
        if pair["forced"] != "no" and not to_other:
            raise ValueError(
                f"{where} is {pair['forced']!r}, but both Fis did not go to the other pair (T12.1)"
            )
        if pair["forced"] == "owed" and opened:
            raise ValueError(
                f"{where} is 'owed', but players[{opened[0]}] has opened: then it is 'made' (T12.2)"
            )
        if pair["forced"] == "made" and not opened:
            raise ValueError(f"{where} is 'made', but nobody of pair {i} has opened (T12.2)")
        if pair["forced"] == "no" and to_other and not opened:
            raise ValueError(
                f"{where} is 'no', but both Fis went to the other pair while nobody of pair {i} "
                "had opened: it owes a canasta opening (T12.1)"
            )


def _show(m: Meld) -> str:
    return str(names(m["cards"]))


def _check_checkpoint(c: dict) -> None:
    """T9.6: the mover's pair's melds grew from the checkpoint's by cards from its hand, new
    melds only at the end and laid by the mover; derives whether anything was laid since."""
    cp, phase, mover = c["checkpoint"], c["phase"], c["to_move"]
    c["changed"] = False
    if cp is None:
        return
    pair_index = mover % PAIRS
    melds, hand = mover_pair(c)["melds"], c["players"][mover]["hand"]
    if len(cp["hand"]) < MIN_CHECKPOINT_HAND:
        raise ValueError(
            f"checkpoint.hand holds {len(cp['hand'])} card(s): a turn's checkpoint (after the draw, the pile "
            f"or a Fi) holds at least {MIN_CHECKPOINT_HAND} (T4.2)"
        )
    if len(cp["melds"]) > len(melds):
        raise ValueError(
            f"checkpoint.melds lists {len(cp['melds'])} melds, but pair {pair_index} has {len(melds)}: "
            "melds laid before the checkpoint stay"
        )
    for k, m in enumerate(cp["melds"]):
        if analyse(counts(m["cards"]).astype(np.int8))[0] != VALID:
            raise ValueError(f"checkpoint.melds[{k}] {_show(m)} is not a legal set or run (T5-T7)")
        now = melds[k]
        if now["owner"] != m["owner"] or (counts(m["cards"]) > counts(now["cards"])).any():
            raise ValueError(
                f"checkpoint.melds[{k}] {_show(m)} (owner {m['owner']}) is not contained in pair "
                f"{pair_index} meld {k} {_show(now)} (owner {now['owner']}): melds only grow"
            )
        # a finished hand's last turn has ended: its canastas got their kind then
        if now["kind"] != "none" and len(m["cards"]) < CANASTA and phase != "over":
            raise ValueError(
                f"pair {pair_index} meld {k} has kind {now['kind']!r} but held {len(m['cards'])} cards "
                "at the checkpoint: a kind is fixed at the end of a turn (T8.2)"
            )
    for k in range(len(cp["melds"]), len(melds)):
        if melds[k]["owner"] != mover:
            raise ValueError(
                f"pair {pair_index} meld {k} {_show(melds[k])} was laid since the checkpoint, so its owner "
                f"is the mover {mover}, not {melds[k]['owner']}"
            )
    if len(melds) > len(cp["melds"]) and c["players"][mover]["layoff"]:
        raise ValueError(f"the mover {mover} is a layer-off but laid new melds since the checkpoint (T10.2)")
    laid = melds_counts(melds) - melds_counts(cp["melds"])
    before = counts(cp["hand"])
    if phase == "over":  # the last turn ended with a discard, the pile's top (and maybe a Fi)
        reach = counts(hand) + laid + counts(c["discard"][-1:])
        if (before > reach).any():
            raise ValueError(
                "checkpoint.hand holds cards that the last turn neither laid, discarded nor kept"
            )
        return
    if not np.array_equal(before, counts(hand) + laid):
        raise ValueError(
            "checkpoint.hand must be the mover's hand plus the cards laid since the checkpoint "
            "(melding only moves cards from the hand to the melds, T9.6)"
        )
    c["changed"] = phase == "meld" and cp["hand"] != hand
    if phase == "discard" and cp["hand"] != hand:
        raise ValueError("in phase 'discard' (after a withdraw, T9.6) the checkpoint is the mover's cards")


def _changed_melds(c: dict, i: int) -> set[int]:
    """Melds of pair ``i`` that changed since the checkpoint (only the mover's pair, phase meld)."""
    cp = c["checkpoint"]
    if c["phase"] != "meld" or i != c["to_move"] % PAIRS:
        return set()
    melds = c["pairs"][i]["melds"]
    n = len(cp["melds"])
    return {k for k, m in enumerate(melds) if k >= n or len(m["cards"]) != len(cp["melds"][k]["cards"])}


def _natural_capable(cards: list[int]) -> int:
    """Cards of a meld that can be naturals: those neither 2 nor joker, and one 2 of their suit
    when they share one (a 2 in its own place in a run, T7.3)."""
    plain = [t for t in cards if t != JOKER and t // 4 != RANK_2]
    suits = {t % 4 for t in plain}
    own_two = len(suits) == 1 and any(t // 4 == RANK_2 and t % 4 in suits for t in cards)
    return len(plain) + int(own_two)


def _check_pair(c: dict, i: int) -> None:
    """T5-T8: every meld legal (a meld changed since the checkpoint may still be short), owned
    by a player of the pair who has opened or lays it this turn, and of a kind its cards allow."""
    changed = _changed_melds(c, i)
    in_turn = c["phase"] in ("meld", "discard") and i == c["to_move"] % PAIRS
    cp_count = len(c["checkpoint"]["melds"]) if in_turn else 0
    for k, m in enumerate(c["pairs"][i]["melds"]):
        shown = f"pair {i} meld {k} {_show(m)}"
        status, shape, naturals, _, _, full = analyse(counts(m["cards"]).astype(np.int8))
        if status == DEAD or (status != VALID and k not in changed):
            raise ValueError(f"{shown} is not a legal set or run (T5-T7)")
        owner = m["owner"]
        if owner % PAIRS != i:
            raise ValueError(f"{shown} is owned by seat {owner}, who is not of pair {i} (T2.3)")
        laying = c["phase"] == "meld" and owner == c["to_move"] and k >= cp_count
        if not c["players"][owner]["opened"] and not laying:
            raise ValueError(f"{shown} is owned by seat {owner}, who has not opened (T9)")
        _check_kind(m, shown, status == VALID, shape == SHAPE_RUN and full, in_turn, naturals)


def _check_kind(m: Meld, shown: str, valid: bool, full: bool, in_turn: bool, naturals: int) -> None:
    """T8: what a canasta kind says about a meld's cards at any later time."""
    kind, size = m["kind"], len(m["cards"])
    if kind != "none" and size < CANASTA:
        raise ValueError(f"{shown} has kind {kind!r} but only {size} cards (T8.1: a canasta has {CANASTA}+)")
    if kind == "none" and size >= CANASTA and not in_turn:
        raise ValueError(f"{shown} has {size} cards but no kind: it gets one at the end of its turn (T8.2)")
    if kind == "whole" and _natural_capable(m["cards"]) < CANASTA:
        raise ValueError(f"{shown} is 'whole' but cannot hold {CANASTA} naturals (T8.1)")
    if kind == "half" and not any(t == JOKER or t // 4 == RANK_2 for t in m["cards"]):
        raise ValueError(f"{shown} is 'half' but holds no wild: a canasta without one is whole (T8.1)")
    if kind == "full" and not full:
        raise ValueError(f"{shown} is 'full' but not a run of all 13 ranks as naturals (T8.4)")
    if valid and full and kind != "full" and not in_turn:
        raise ValueError(f"{shown} holds all 13 ranks as naturals, so it is 'full' (T8.3)")
    if valid and size == CANASTA and kind in ("half", "whole"):  # fixed on these very cards (T8.2)
        expected = "whole" if naturals >= CANASTA else "half"
        if kind != expected:
            raise ValueError(f"{shown} has {naturals} naturals in {size} cards, so it is {expected!r} (T8.1)")


def _check_flow(c: dict) -> None:
    """The turn, the mover, the hand sizes and the end of the hand (T4, T13)."""
    phase, reason, turn = c["phase"], c["end_reason"], c["turn"]
    rules, mover = c["rules"], c["to_move"]
    last = turn - 1 if phase == "over" else turn
    if last < 0 or (c["starter"] + last) % PLAYERS != mover:
        raise ValueError(
            f"to_move {mover} does not play turn {last} of a hand started by seat {c['starter']} "
            "(turns go clockwise, T2.2; in phase 'over' the last turn is turn - 1)"
        )
    if phase != "over":
        if reason != "none" or c["out_player"] is not None:
            raise ValueError(f"end_reason/out_player describe a finished hand, but the phase is {phase!r}")
        if turn >= rules.max_turns:
            raise ValueError(f"turn {turn} reaches max_turns {rules.max_turns}: the hand would be over (T16)")
        if phase == "draw" and not c["stock"]:
            raise ValueError(
                "phase 'draw' with an empty stock: the hand ended with the turn that drew its last "
                "card (T13.3)"
            )
        _check_last_card(c)
        return
    _check_end(c)


def _check_last_card(c: dict) -> None:
    """T4.2: with no Fi left, a mover holding one card in phase meld can go out with it."""
    mover = c["to_move"]
    p = c["players"][mover]
    if c["phase"] != "meld" or len(p["hand"]) != 1 or any(fi["taker"] is None for fi in c["fis"]):
        return
    melds = mover_pair(c)["melds"]
    canasta = any(len(m["cards"]) >= CANASTA for m in melds)
    opening = p["opened"] or (not p["layoff"] and len(melds) > len(c["checkpoint"]["melds"]))
    if not (canasta and opening):
        raise ValueError(
            f"the mover {mover} holds one card with no Fi left but could not go out with it "
            "(T4.2: he keeps two cards unless his pair has a canasta and he has opened, T13.1)"
        )


def _check_end(c: dict) -> None:
    reason, out, rules = c["end_reason"], c["out_player"], c["rules"]
    if reason == "none":
        raise ValueError("phase 'over' needs an end_reason other than 'none'")
    if c["hand_number"] < 1:
        raise ValueError("phase 'over' follows a finished hand: hand_number is at least 1")
    if (reason == "out") != (out is not None):
        raise ValueError("out_player is given exactly when end_reason is 'out'")
    if reason == "out":
        p = c["players"][out]
        if out != c["to_move"]:
            raise ValueError(f"out_player {out} must be to_move {c['to_move']}: he goes out in his turn")
        if p["hand"]:
            raise ValueError(f"out_player {out} still holds cards (T13.1)")
        if any(fi["taker"] is None for fi in c["fis"]):
            raise ValueError(f"out_player {out} went out while a Fi was left (T13.1)")
        if not p["opened"] or not any(len(m["cards"]) >= CANASTA for m in c["pairs"][out % PAIRS]["melds"]):
            raise ValueError(f"out_player {out} went out without having opened or without a canasta (T13.1)")
    if reason == "exhausted" and c["stock"]:
        raise ValueError("end_reason 'exhausted' needs an empty stock (T13.3)")
    if reason == "turn_limit" and (not c["stock"] or c["turn"] < rules.max_turns):
        raise ValueError(
            f"end_reason 'turn_limit' needs turn >= max_turns ({rules.max_turns}) and a stock left "
            "(an empty stock ends the hand as 'exhausted', T13.3)"
        )
    if rules.episode == "game":
        reached = any(pair["total"] >= c["target"] for pair in c["pairs"])
        if not reached and c["hand_number"] < rules.max_hands:
            raise ValueError(
                "a game episode is over only when a pair reached the target or max_hands were played (T15)"
            )
