"""Readers of single values of a document that name what is wrong: each returns
the checked value (card names as card types) or raises ``ValueError``."""

from __future__ import annotations

import difflib
from typing import Any

import numpy as np

from ..cards import (
    GROUP_NAMES,
    IS_BLACK_THREE,
    IS_RED_THREE,
    IS_WILD,
    NUM_TYPES,
    TYPE_COPIES,
    TYPE_GROUP,
    TYPE_NAMES,
    WILD_GROUP,
    parse_card,
)
from ..games.diszitett.position.schema import Groups
from ..rules import Rules


def misspelt(key: str, known: tuple) -> list[str]:
    """The known keys ``key`` may be a misspelling of, closest first."""
    return difflib.get_close_matches(key, [str(k) for k in known], n=1, cutoff=0.75)


def read_object(value: object, where: str, required: tuple, optional: tuple) -> dict:
    """A JSON object with the ``required`` keys and no key outside ``required`` and ``optional``."""
    if not isinstance(value, dict):
        raise ValueError(f"{where} must be a JSON object, got {type(value).__name__}")
    unknown = sorted(str(k) for k in value if k not in required and k not in optional)
    if unknown:
        guesses = [f"{close[0]!r} for {k!r}" for k in unknown if (close := misspelt(k, required + optional))]
        hint = f" (did you mean {', '.join(guesses)}?)" if guesses else ""
        raise ValueError(f"unknown key(s) {unknown} in {where}{hint}")
    missing = [k for k in required if k not in value]
    if missing:
        raise ValueError(f"missing required key(s) {missing} in {where}")
    return value


def read_int(value: object, where: str, lo: int, hi: int) -> int:
    """An integer (not a bool) in ``lo..hi``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{where} must be an integer, got {value!r}")
    if not lo <= value <= hi:
        raise ValueError(f"{where} must be in {lo}..{hi}, got {value}")
    return int(value)


def read_bool(value: object, where: str) -> bool:
    """``true`` or ``false``."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{where} must be true or false, got {value!r}")
    return bool(value)


def read_choice(value: object, choices: tuple, where: str) -> Any:
    """One of ``choices``."""
    if isinstance(value, (bool, float)) or value not in choices:
        raise ValueError(f"unknown {where} {value!r}: expected one of {list(choices)}")
    return value


def read_list(value: object, where: str) -> list:
    """A JSON list."""
    if not isinstance(value, list):
        raise ValueError(f"{where} must be a list, got {type(value).__name__}")
    return value


def read_cards(value: object, where: str) -> list[int]:
    """Card types of a list of card names, in the given order."""
    try:
        return [parse_card(token) for token in read_list(value, where)]
    except ValueError as err:
        raise ValueError(f"{where}: {err}") from None


def read_card(value: object, where: str) -> int:
    """The card type of one card name."""
    try:
        return parse_card(value)  # type: ignore[arg-type]
    except ValueError as err:
        raise ValueError(f"{where}: {err}") from None


def counts(types: list[int], where: str) -> np.ndarray:
    """Counts of 53 types; no single place may hold more copies than the deck."""
    out = np.bincount(np.asarray(types, dtype=np.int64), minlength=NUM_TYPES)
    for t in np.flatnonzero(out > TYPE_COPIES):
        raise ValueError(f"{where} holds {out[t]} × {TYPE_NAMES[t]}; the deck has {TYPE_COPIES[t]}")
    return out


def read_hand(value: object, where: str) -> list[int]:
    """A hand: sorted card types, no red three (R4.4)."""
    types = sorted(read_cards(value, where))
    counts(types, where)
    for t in types:
        if IS_RED_THREE[t]:
            raise ValueError(f"{where} holds red three {TYPE_NAMES[t]} (R4.4: it goes to the collection)")
    return types


def group_index(types: list[int], where: str) -> int:
    """The group slot a card list belongs to: its natural rank, or the wild group."""
    for t in types:
        if IS_RED_THREE[t] or IS_BLACK_THREE[t]:
            kind = "red" if IS_RED_THREE[t] else "black"
            raise ValueError(f"{where} holds {kind} three {TYPE_NAMES[t]} (R1.4: threes are never melded)")
    ranks = sorted({int(TYPE_GROUP[t]) for t in types if not IS_WILD[t]})
    if len(ranks) > 1:
        rank_names = [GROUP_NAMES[g] for g in ranks]
        raise ValueError(f"{where} mixes naturals of ranks {rank_names} (R10.1)")
    return ranks[0] if ranks else WILD_GROUP


def read_groups(value: object, where: str) -> Groups:
    """Groups by group index, at most one per rank and one wilds-only (R10.4);
    their legality is checked later (incomplete groups are allowed mid-turn)."""
    groups: Groups = {}
    for i, raw in enumerate(read_list(value, where)):
        at = f"{where}[{i}]"
        types = sorted(read_cards(raw, at))
        if not types:
            raise ValueError(f"{at} is an empty group")
        counts(types, at)
        g = group_index(types, at)
        if g in groups:
            what = "two wilds-only groups" if g == WILD_GROUP else f"two groups of rank {GROUP_NAMES[g]}"
            raise ValueError(f"{where} has {what} (R10.4: one group per rank, one wilds-only group)")
        groups[g] = types
    return dict(sorted(groups.items()))


def read_heart_aces(value: object, where: str, heart_aces: bool) -> int:
    """A count of separate heart aces: 0..2, and 0 in a variant without them (R10.6)."""
    n = read_int(value, where, 0, 2)
    if n and not heart_aces:
        raise ValueError(f"{where} is {n}, but variant 2003-01 has no separate heart aces (R10.6)")
    return n


def read_rules(raw: object, keys: tuple[str, ...], **preset: Any) -> Rules:
    """A document's ``rules``: the preset ``Rules(**preset)`` with the keys of ``raw`` (some of
    ``keys``) changed; only keys that differ from the preset need be given."""
    if not isinstance(raw, dict):
        raise ValueError(f"rules must be a JSON object of rule keys, got {type(raw).__name__}")
    unknown = sorted(str(k) for k in raw if k not in keys)
    if unknown:
        raise ValueError(f"unknown rule key(s) {unknown} in rules: expected some of {list(keys)}")
    given = dict(raw)
    if isinstance(given.get("opening_schedule"), list):  # JSON's lists as the pairs Rules holds
        given["opening_schedule"] = tuple(
            tuple(step) if isinstance(step, list) else step for step in given["opening_schedule"]
        )
    try:
        return Rules(**preset, **given)
    except (TypeError, ValueError) as err:
        raise ValueError(f"rules: {err}") from None


def changed_rules(rules: Rules, keys: tuple[str, ...], **preset: Any) -> dict:
    """The keys of ``keys`` whose value in ``rules`` differs from the preset's (``Rules(**preset)``),
    as JSON values."""
    base = Rules(**preset)
    out = {}
    for key in keys:
        value = getattr(rules, key)
        if value != getattr(base, key):
            out[key] = [list(step) for step in value] if key == "opening_schedule" and value else value
    return out
