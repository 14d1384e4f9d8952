"""The state of a batch of mini canasta games (numpy arrays, leading batch axis)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from kanaszta_env.cards import NUM_TYPES
from kanaszta_env.core.common import END_NAMES as END_NAMES
from kanaszta_env.variants import shared_type  # absolute: the one class in every kernel copy

from ..actions import NUM_MELDS
from .tables import DECK, PLAYERS

PHASE_DRAW = 1  # M3: draw the stock's top card
PHASE_MELD = 2  # M3-M6: meld, lay off or discard
PHASE_OVER = 3
PHASE_NAMES = ("-", "draw", "meld", "over")


class MiniState(NamedTuple):
    """All the arrays of a batch of mini canasta games (B games, 2 seats)."""

    hand: np.ndarray  # (B,2,53) int8
    melds: np.ndarray  # (B,2,12,53) int8 each seat's meld of each natural rank (actions.MELD_RANKS)
    totals: np.ndarray  # (B,2) int32
    hand_scores: np.ndarray  # (B,2) int32 the score of the last hand (M8)
    stock: np.ndarray  # (B,54) int8 top at stock_len-1
    stock_len: np.ndarray  # (B,) int16
    pile: np.ndarray  # (B,54) int8 top at pile_len-1
    pile_len: np.ndarray  # (B,) int16
    phase: np.ndarray  # (B,) int8
    to_move: np.ndarray  # (B,) int8
    starter: np.ndarray  # (B,) int8
    turn: np.ndarray  # (B,) int32 turns completed in this hand
    hand_number: np.ndarray  # (B,) int32
    end_reason: np.ndarray  # (B,) int8 END_*
    out_player: np.ndarray  # (B,) int8
    rng: np.ndarray  # (B,) uint64


MiniState = shared_type(MiniState)


def new_state(batch_size: int, num_players: int = PLAYERS) -> MiniState:
    """Zeroed arrays for ``batch_size`` games (mini canasta is played by two, M2)."""
    if num_players != PLAYERS:
        raise ValueError(f"mini canasta is played by {PLAYERS} players, not {num_players}")
    b = batch_size

    def z(*shape: int, dtype: type = np.int8) -> np.ndarray:
        return np.zeros(shape, dtype=dtype)

    return MiniState(
        hand=z(b, PLAYERS, NUM_TYPES),
        melds=z(b, PLAYERS, NUM_MELDS, NUM_TYPES),
        totals=z(b, PLAYERS, dtype=np.int32),
        hand_scores=z(b, PLAYERS, dtype=np.int32),
        stock=z(b, DECK),
        stock_len=z(b, dtype=np.int16),
        pile=z(b, DECK),
        pile_len=z(b, dtype=np.int16),
        phase=z(b),
        to_move=z(b),
        starter=z(b),
        turn=z(b, dtype=np.int32),
        hand_number=z(b, dtype=np.int32),
        end_reason=z(b),
        out_player=np.full(b, -1, dtype=np.int8),
        rng=z(b, dtype=np.uint64),
    )
