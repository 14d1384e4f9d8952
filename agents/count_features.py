"""Count features of an observation: a few exact counts in one-hot form.

The observation stores hand sizes as ``size / scale`` and canastas as one-hot
kinds per group (see ``docs/observation.md``): complete, but a small network
reads "three cards left" versus "two cards left" from a difference of 1/64 in
one input, and "has a canasta" from a maximum over 12 groups. Those two counts
decide whether melding another card is safe: a player without a canasta who
melds down to one card can never go out (R14.1) and plays on to the turn
limit. Imitating the teacher, a plain network got these decisions wrong often
enough to lose about 9% of its hands against RandomBot.

:func:`count_features` appends nothing the player does not see. For every
seat (own seat first, as in the observation) it gives:

* the hand size, one-hot ``0, 1, ..., 15`` and ``16+``;
* the number of canastas of the seat (Díszített) or of its side (classic: a flag;
  Turkish: its pair's), one-hot ``0, 1, 2`` and ``3+``.

It is the input layer shared by the trained networks: the PyTorch features
extractor of :mod:`training.features` and the NumPy policy of
:mod:`agents.numpy_policy` both call it, so a shipped policy sees exactly the
inputs it was trained on.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numba import njit

from kanaszta_env import Rules
from kanaszta_env.games.classic.observation import HAND_SIZE_SCALE as CLASSIC_HAND_SIZE_SCALE, relative_sides
from kanaszta_env.games.diszitett.observation import HAND_SIZE_SCALE
from kanaszta_env.games.turkish.observation import HAND_SIZE_SCALE as TURKISH_HAND_SIZE_SCALE
from kanaszta_env.observation import piece_offsets

HAND_BUCKETS = 17  # hand sizes 0..15, then 16 or more
CANASTA_BUCKETS = 4  # canastas 0, 1, 2, then 3 or more


@dataclass(frozen=True)
class CountLayout:
    """Where the counts sit in the observations of one set of rules."""

    rules: Rules
    hand_slots: tuple[int, ...]
    hand_scale: float
    canasta: tuple[int, int]  # slice of the canasta piece
    canasta_shape: tuple[int, ...]  # (rows, groups, kinds) for Díszített and Turkish; () for classic
    partners: tuple[int, int] | None  # classic: slice of the partners piece
    rows: tuple[int, ...] = ()  # the canasta row of each relative seat (default: its own)

    @property
    def size(self) -> int:
        """Number of count features appended to an observation."""
        return self.rules.num_players * (HAND_BUCKETS + CANASTA_BUCKETS)


def _classic_layout(rules: Rules, offsets: dict) -> CountLayout:
    """Hand sizes per seat; a side's canasta flag, looked up through each seat's side."""
    players = rules.num_players
    start = offsets["hand_sizes"][0]
    canasta = offsets["canasta"][0]
    partners = offsets["partners"][0]
    return CountLayout(
        rules,
        tuple(start + seat for seat in range(players)),
        float(CLASSIC_HAND_SIZE_SCALE),
        (canasta, canasta + len(set(rules.sides()))),
        (),
        (partners, partners + players),
    )


def _diszitett_layout(rules: Rules, offsets: dict) -> CountLayout:
    """Hand sizes per seat; each seat's canasta kinds per rank group."""
    ps_start, ps_shape = offsets["player_state"]  # rows: twins, hand size, opened; one column per seat
    can_start, can_shape = offsets["canasta"]  # (seats, groups, kinds)
    return CountLayout(
        rules,
        tuple(ps_start + ps_shape[1] + seat for seat in range(rules.num_players)),
        float(HAND_SIZE_SCALE),
        (can_start, can_start + int(np.prod(can_shape))),
        tuple(int(n) for n in can_shape),
        None,
    )


def _turkish_layout(rules: Rules, offsets: dict) -> CountLayout:
    """Hand sizes per seat; the canasta kinds of each seat's pair's meld slots."""
    hand_start = offsets["hand_sizes"][0]
    kind_start, kind_shape = offsets["meld_kind"]  # (pairs, slots, kinds), own pair first
    return CountLayout(
        rules,
        tuple(hand_start + seat for seat in range(rules.num_players)),
        float(TURKISH_HAND_SIZE_SCALE),
        (kind_start, kind_start + int(np.prod(kind_shape))),
        tuple(int(n) for n in kind_shape),
        None,
        tuple(rules.sides()),  # relative seat k plays in the pair k % 2 (T2.1: partners opposite)
    )


#: game name -> where its observation holds the counts
COUNT_LAYOUTS = {"diszitett": _diszitett_layout, "classic": _classic_layout, "turkish": _turkish_layout}


@lru_cache(maxsize=32)
def count_layout(rules: Rules) -> CountLayout:
    """The :class:`CountLayout` of ``rules`` (games of :data:`COUNT_LAYOUTS`)."""
    layout = COUNT_LAYOUTS.get(rules.game.name)
    if layout is None:
        raise ValueError(f"count features are not defined for {rules.game.title} yet")
    return layout(rules, piece_offsets(rules))


def count_indices(obs: np.ndarray, layout: CountLayout) -> np.ndarray:
    """``(N, 2 * players)`` int64: the positions of the ones of :func:`count_features` in each row
    (every seat's hand-size bucket, then every seat's canasta bucket)."""
    obs = np.ascontiguousarray(obs, dtype=np.float32)
    players = layout.rules.num_players
    hand_slots = np.asarray(layout.hand_slots, dtype=np.int64)
    out = np.empty((len(obs), 2 * players), dtype=np.int64)
    if layout.partners is None:
        _, groups, kinds = layout.canasta_shape
        rows = np.asarray(layout.rows or range(players), dtype=np.int64)
        _rank_group_indices(obs, hand_slots, layout.hand_scale, layout.canasta[0], rows, groups, kinds, out)
        return out
    plo, phi = layout.partners  # classic: has each seat's side a canasta (C6)
    side = relative_sides(layout.rules.sides(), obs[:, plo:phi])
    lo, hi = layout.canasta
    canastas = (np.take_along_axis(obs[:, lo:hi], side, axis=1) > 0.5).astype(np.int64)
    hand = np.clip(np.rint(obs[:, hand_slots] * layout.hand_scale).astype(np.int64), 0, HAND_BUCKETS - 1)
    seat = np.arange(players)
    out[:, :players] = seat * HAND_BUCKETS + hand
    out[:, players:] = players * HAND_BUCKETS + seat * CANASTA_BUCKETS + canastas
    return out


@njit(cache=True)
def _rank_group_indices(obs, hand_slots, scale, canasta_start, rows, groups, kinds, out):  # pragma: no cover
    players = hand_slots.shape[0]
    for i in range(obs.shape[0]):
        for s in range(players):
            hand = min(max(int(np.rint(obs[i, hand_slots[s]] * scale)), 0), HAND_BUCKETS - 1)
            out[i, s] = s * HAND_BUCKETS + hand
            count = 0
            for g in range(groups):
                base = canasta_start + (rows[s] * groups + g) * kinds
                total = 0.0
                for k in range(kinds):
                    total += obs[i, base + k]
                if total > 0.5:
                    count += 1
            out[i, players + s] = (
                players * HAND_BUCKETS + s * CANASTA_BUCKETS + min(count, CANASTA_BUCKETS - 1)
            )


def count_features(obs: np.ndarray, layout: CountLayout) -> np.ndarray:
    """``(N, layout.size)`` float32: one-hot hand sizes of every seat, then one-hot canasta counts."""
    idx = count_indices(obs, layout)
    out = np.zeros((len(idx), layout.size), dtype=np.float32)
    np.put_along_axis(out, idx, 1.0, axis=1)
    return out


__all__ = [
    "CANASTA_BUCKETS",
    "HAND_BUCKETS",
    "CountLayout",
    "count_features",
    "count_indices",
    "count_layout",
]
