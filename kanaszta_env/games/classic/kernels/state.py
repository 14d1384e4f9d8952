"""The state of a batch of classic canasta games (numpy arrays, leading batch axis).

Melds, opening and red threes belong to a *side* (C2.1) and are indexed by
side; hands, public knowledge and turn counts by seat. Totals and hand scores
are kept per seat, equal for partners, so that the engine credits every seat.
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
from .tables import MAX_DECK, NUM_MELDS, SLOTS

# phases (shared names with the Díszített core where the meaning is the same)
PHASE_DRAW = 1  # draw, take the pile, or (stock empty) end the hand (C4.1, C4.5)
PHASE_MELD = 2  # meld, withdraw, ask, or discard (C4.1)
PHASE_DISCARD = 3  # only a discard: after a withdraw (C5.8)
PHASE_PICKUP = 4  # the meld obliged by a pile pickup, and the opening with it (C7.1)
PHASE_OVER = 5
PHASE_ANSWER = 6  # the partner answers "may I go out?" (C12.5)
PHASE_NAMES = ("-", "draw", "meld", "discard", "pickup", "over", "answer")

# the partner's answer in this turn
ASKED_NOT = 0
ASKED_WAITING = 1
ASKED_YES = 2
ASKED_NO = 3


# how the player went out, for the bonus (C13.3)
OUT_DISCARD = 1
OUT_MELD = 2  # pl "double": the last card melded


class ClassicState(NamedTuple):
    """All the arrays of a batch of classic canasta games (B games, P seats)."""

    # per seat
    hand: np.ndarray  # (B,P,53) int8
    known: np.ndarray  # (B,P,53) int8 hand cards publicly known (taken with the pile)
    laid_before: np.ndarray  # (B,P) int8 the seat laid cards in an earlier turn of this hand
    turns_played: np.ndarray  # (B,P) int16
    totals: np.ndarray  # (B,P) int32 the seat's side total
    hand_scores: np.ndarray  # (B,P) int32 the side's score of the last hand
    side_of: np.ndarray  # (B,P) int8 side of each seat (C2)
    next_seat: np.ndarray  # (B,P) int8 who plays after each seat; -1 sits this hand out (C2.4)
    # per side (indexed by side number < P)
    groups: np.ndarray  # (B,P,13,9) int8 melds: 11 ranks, wild meld, black-three meld
    red_threes: np.ndarray  # (B,P) int8 red threes laid out (C9)
    opened: np.ndarray  # (B,P) int8 opened in an earlier turn (pl: the whole table, C11.1)
    # table
    stock: np.ndarray  # (B,162) int8 top at stock_len-1
    stock_len: np.ndarray  # (B,) int16
    pile: np.ndarray  # (B,162) int8 top at pile_len-1
    pile_len: np.ndarray  # (B,) int16
    pile_wilds: np.ndarray  # (B,) int16 wilds in the pile (sk freezing, C8.3)
    # flow
    phase: np.ndarray  # (B,) int8
    to_move: np.ndarray  # (B,) int8
    starter: np.ndarray  # (B,) int8 first player of the hand (after the dealer, C2.8)
    sitter: np.ndarray  # (B,) int8 the trio member sitting out (5 players), else -1
    turn: np.ndarray  # (B,) int32 turns completed in this hand
    hand_number: np.ndarray  # (B,) int32
    end_reason: np.ndarray  # (B,) int8 END_*
    out_player: np.ndarray  # (B,) int8
    out_how: np.ndarray  # (B,) int8 OUT_*
    rng: np.ndarray  # (B,) uint64
    # the current turn
    mover: np.ndarray  # (B,) int8 whose turn it is (to_move differs while the partner answers)
    cp_hand: np.ndarray  # (B,53) int8 hand at the checkpoint (after the draw / the pickup)
    cp_groups: np.ndarray  # (B,13,9) int8 the side's melds at the checkpoint
    start_groups: np.ndarray  # (B,13,9) int8 the side's melds when the turn began
    changed: np.ndarray  # (B,) int8 cards laid since the checkpoint (withdrawable)
    took_pile: np.ndarray  # (B,) int8
    pickup_card: np.ndarray  # (B,) int8 the top card T of this turn's pickup, or -1
    pickup_rest: np.ndarray  # (B,) int16 cards under T waiting to come into the hand
    pile_locked: np.ndarray  # (B,53) int8 pile cards not meldable this turn (sk, C7.6)
    asked: np.ndarray  # (B,) int8 ASKED_*


ClassicState = shared_type(ClassicState)  # one type in every kernel copy


def new_classic_state(batch_size: int, num_players: int) -> ClassicState:
    """Zeroed arrays for ``batch_size`` games of ``num_players`` seats."""
    b, p = batch_size, num_players

    def z(*shape: int, dtype: type = np.int8) -> np.ndarray:
        return np.zeros(shape, dtype=dtype)

    return ClassicState(
        hand=z(b, p, NUM_TYPES),
        known=z(b, p, NUM_TYPES),
        laid_before=z(b, p),
        turns_played=z(b, p, dtype=np.int16),
        totals=z(b, p, dtype=np.int32),
        hand_scores=z(b, p, dtype=np.int32),
        side_of=z(b, p),
        next_seat=z(b, p),
        groups=z(b, p, NUM_MELDS, SLOTS),
        red_threes=z(b, p),
        opened=z(b, p),
        stock=z(b, MAX_DECK),
        stock_len=z(b, dtype=np.int16),
        pile=z(b, MAX_DECK),
        pile_len=z(b, dtype=np.int16),
        pile_wilds=z(b, dtype=np.int16),
        phase=z(b),
        to_move=z(b),
        starter=z(b),
        sitter=np.full(b, -1, dtype=np.int8),
        turn=z(b, dtype=np.int32),
        hand_number=z(b, dtype=np.int32),
        end_reason=z(b),
        out_player=np.full(b, -1, dtype=np.int8),
        out_how=z(b),
        rng=z(b, dtype=np.uint64),
        mover=z(b),
        cp_hand=z(b, NUM_TYPES),
        cp_groups=z(b, NUM_MELDS, SLOTS),
        start_groups=z(b, NUM_MELDS, SLOTS),
        changed=z(b),
        took_pile=z(b),
        pickup_card=np.full(b, -1, dtype=np.int8),
        pickup_rest=z(b, dtype=np.int16),
        pile_locked=z(b, NUM_TYPES),
        asked=z(b),
    )
