"""The state of a batch of Turkish kanasta games (numpy arrays, leading batch axis).

Melds belong to a pair (seat % 2) and sit in ``MELDS`` slots, filled in order;
each slot records the seat that laid it (T2.3). Openings, the layer-off mark
and hands are per seat; totals and hand scores are kept per seat, equal for
partners, so that the engine credits every seat.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from kanaszta_env.variants import shared_type  # absolute: the installed package's classes

from ....cards import NUM_TYPES
from ....core.common import (
    END_EXHAUSTED as END_EXHAUSTED,
    END_NAMES as END_NAMES,
    END_NONE as END_NONE,
    END_OUT as END_OUT,
    END_TRUNCATED as END_TRUNCATED,
)
from .tables import DECK, MELDS, NUM_FIS, PACKET, PAIRS, PLAYERS

PHASE_DRAW = 1  # draw or take the pile (T4.1a)
PHASE_MELD = 2  # meld, lay off, withdraw, or discard (T4.1b-d)
PHASE_DISCARD = 3  # only a discard: after a withdraw (T9.6)
PHASE_OVER = 5
PHASE_NAMES = ("-", "draw", "meld", "discard", "-", "over")


FI_WAITING = -1  # fi_taker of a Fi nobody has taken


class TurkishState(NamedTuple):
    """All the arrays of a batch of Turkish kanasta games (B games, 4 seats)."""

    # per seat
    hand: np.ndarray  # (B,4,53) int8
    known: np.ndarray  # (B,4,53) int8 hand cards publicly known (taken with the pile)
    opened: np.ndarray  # (B,4) int8 the seat has opened (T9)
    layoff: np.ndarray  # (B,4) int8 the seat laid off without opening (T10.2)
    totals: np.ndarray  # (B,4) int32 the seat's pair total
    hand_scores: np.ndarray  # (B,4) int32 the pair's score of the last hand
    # per pair
    melds: np.ndarray  # (B,2,MELDS,53) int8 card counts of each meld slot
    meld_owner: np.ndarray  # (B,2,MELDS) int8 seat that laid the meld, -1 for a free slot
    meld_size: np.ndarray  # (B,2,MELDS) int8 cards in the meld
    meld_kind: np.ndarray  # (B,2,MELDS) int8 canasta kind, fixed at the completing turn's end (T8.2)
    meld_count: np.ndarray  # (B,2) int8 slots in use
    forced: np.ndarray  # (B,2) int8 FORCED_* (T12)
    # the two Fi packets (T3.2, T11)
    fi: np.ndarray  # (B,2,11) int8 the packets' card types
    fi_taker: np.ndarray  # (B,2) int8 seat that took each Fi, FI_WAITING before
    fi_used: np.ndarray  # (B,2) int8 the Fi counts as used (T11.3)
    # table
    stock: np.ndarray  # (B,106) int8 top at stock_len-1
    stock_len: np.ndarray  # (B,) int16
    pile: np.ndarray  # (B,106) int8 top at pile_len-1
    pile_len: np.ndarray  # (B,) int16
    # flow
    phase: np.ndarray  # (B,) int8
    to_move: np.ndarray  # (B,) int8
    starter: np.ndarray  # (B,) int8 first player of the hand (after the dealer, T2.2)
    turn: np.ndarray  # (B,) int32 turns completed in this hand
    hand_number: np.ndarray  # (B,) int32
    target: np.ndarray  # (B,) int32 the game's target, extended by T15.2
    end_reason: np.ndarray  # (B,) int8 END_*
    out_player: np.ndarray  # (B,) int8
    rng: np.ndarray  # (B,) uint64
    # the current turn's checkpoint (after the draw, or after a Fi taken by melding)
    cp_hand: np.ndarray  # (B,53) int8
    cp_melds: np.ndarray  # (B,MELDS,53) int8 the mover's pair's melds
    cp_owner: np.ndarray  # (B,MELDS) int8
    cp_size: np.ndarray  # (B,MELDS) int8
    cp_count: np.ndarray  # (B,) int8
    changed: np.ndarray  # (B,) int8 cards laid since the checkpoint (withdrawable)


TurkishState = shared_type(TurkishState)  # one type in every kernel copy


def new_turkish_state(batch_size: int, num_players: int = PLAYERS) -> TurkishState:
    """Zeroed arrays for ``batch_size`` games (Turkish kanasta is played by four)."""
    if num_players != PLAYERS:
        raise ValueError(f"Turkish kanasta is played by {PLAYERS} players, not {num_players}")
    b = batch_size

    def z(*shape: int, dtype: type = np.int8) -> np.ndarray:
        return np.zeros(shape, dtype=dtype)

    return TurkishState(
        hand=z(b, PLAYERS, NUM_TYPES),
        known=z(b, PLAYERS, NUM_TYPES),
        opened=z(b, PLAYERS),
        layoff=z(b, PLAYERS),
        totals=z(b, PLAYERS, dtype=np.int32),
        hand_scores=z(b, PLAYERS, dtype=np.int32),
        melds=z(b, PAIRS, MELDS, NUM_TYPES),
        meld_owner=np.full((b, PAIRS, MELDS), -1, dtype=np.int8),
        meld_size=z(b, PAIRS, MELDS),
        meld_kind=z(b, PAIRS, MELDS),
        meld_count=z(b, PAIRS),
        forced=z(b, PAIRS),
        fi=z(b, NUM_FIS, PACKET),
        fi_taker=np.full((b, NUM_FIS), FI_WAITING, dtype=np.int8),
        fi_used=z(b, NUM_FIS),
        stock=z(b, DECK),
        stock_len=z(b, dtype=np.int16),
        pile=z(b, DECK),
        pile_len=z(b, dtype=np.int16),
        phase=z(b),
        to_move=z(b),
        starter=z(b),
        turn=z(b, dtype=np.int32),
        hand_number=z(b, dtype=np.int32),
        target=z(b, dtype=np.int32),
        end_reason=z(b),
        out_player=np.full(b, -1, dtype=np.int8),
        rng=z(b, dtype=np.uint64),
        cp_hand=z(b, NUM_TYPES),
        cp_melds=z(b, MELDS, NUM_TYPES),
        cp_owner=np.full((b, MELDS), -1, dtype=np.int8),
        cp_size=z(b, MELDS),
        cp_count=z(b),
        changed=z(b),
    )
