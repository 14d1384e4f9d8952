"""Game state as a NamedTuple of numpy arrays with a leading batch axis.

Every field has shape ``(B, …)``. numba accepts the tuple as one argument and
mutates the arrays in place, so the kernels take ``(state, cfg, …)`` and the
Python layer never loops over games.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from kanaszta_env.variants import shared_type  # absolute: the installed package's classes

from ....cards import GROUP_SLOTS, NUM_GROUPS, NUM_TYPES
from ....core.common import (
    END_EXHAUSTED as END_EXHAUSTED,
    END_NAMES as END_NAMES,
    END_NONE as END_NONE,
    END_OUT as END_OUT,
    END_TRUNCATED as END_TRUNCATED,
)
from .tables import CUT_CARDS, DECK_SIZE

# --- phases (INTERFACES §3 "phase") ------------------------------------------------
PHASE_CUT = 0  # the starter keeps or leaves the three cut cards (R3)
PHASE_DRAW = 1  # draw from the stock or take the discard pile (R5.2a, R7, R8)
PHASE_MELD = 2  # meld, rearrange, withdraw, or discard to end the turn (R5.2b-c)
PHASE_DISCARD = 3  # only a discard: the starter's first turn, or after a withdraw
PHASE_PICKUP = 4  # the obligatory meld of a penalised pickup (R8.3 step 2)
PHASE_OVER = 5  # the episode has ended
PHASE_NAMES = ("cut", "draw", "meld", "discard", "pickup", "over")

# --- free pickup state per player (R7) ----------------------------------------
FREE_WAITING = 0  # the opponent has not yet discarded a non-black-three card
FREE_NOW = 1  # this (or his next) turn is the opportunity turn
FREE_USED = 2
FREE_GONE = 3
FREE_NAMES = ("waiting", "now", "used", "gone")

# --- how the current turn obtained its card --------------------------------------
PICKUP_NONE = 0
PICKUP_FREE = 1
PICKUP_PILE = 2

# --- how the last hand ended ------------------------------------------------------

NO_CARD = -1


class State(NamedTuple):
    """All the arrays of a batch of games (B games, P players)."""

    # per player
    hand: np.ndarray  # (B,P,53) int8 card counts
    groups: np.ndarray  # (B,P,12,9) int8: naturals by suit, 2S 2H 2D 2C JK
    sep_heart_aces: np.ndarray  # (B,P) int8 separate heart aces (R10.6)
    red_threes: np.ndarray  # (B,P,2) int8 counts of 3H and 3D in the collection
    red_three_debt: np.ndarray  # (B,P) int8 replacements not yet drawn (R4.2)
    twins: np.ndarray  # (B,P) int16
    opened: np.ndarray  # (B,P) int8 opened in an earlier turn of this hand
    free_pickup: np.ndarray  # (B,P) int8 FREE_*
    known: np.ndarray  # (B,P,53) int8 cards publicly known to be in the hand
    turns_played: np.ndarray  # (B,P) int16 turns completed in this hand
    totals: np.ndarray  # (B,P) int32 game totals
    hand_scores: np.ndarray  # (B,P) int32 recorded (taxed) scores of the last hand
    # table
    stock: np.ndarray  # (B,DECK_SIZE) int8 card types, top at stock_len-1
    stock_len: np.ndarray  # (B,) int16
    stock_known: np.ndarray  # (B,) int8 bottom cards known to all (R3.4)
    pile: np.ndarray  # (B,DECK_SIZE) int8 discard pile, top at pile_len-1
    pile_owner: np.ndarray  # (B,DECK_SIZE) int8 seat that discarded each pile card
    pile_len: np.ndarray  # (B,) int16
    pile_fresh: np.ndarray  # (B,) int8 top card was discarded in the previous turn
    cut_cards: np.ndarray  # (B,CUT_CARDS) int8
    cut_kept: np.ndarray  # (B,CUT_CARDS) int8 (-1 undecided, 0 left, 1 kept)
    cut_index: np.ndarray  # (B,) int8 next cut card to decide
    # flow
    phase: np.ndarray  # (B,) int8 PHASE_*
    to_move: np.ndarray  # (B,) int8
    starter: np.ndarray  # (B,) int8
    turn: np.ndarray  # (B,) int32 turns completed in this hand
    hand_number: np.ndarray  # (B,) int32 hands completed in this game
    end_reason: np.ndarray  # (B,) int8 END_* of the last finished hand
    out_player: np.ndarray  # (B,) int8 who went out in the last hand, -1 if nobody
    rng: np.ndarray  # (B,) uint64 per-game random state
    # the current turn (R12.5 take-back, R13 rearrangement, R8 pickup)
    cp_hand: np.ndarray  # (B,53) int8 hand at the last checkpoint
    cp_groups: np.ndarray  # (B,12,9) int8 groups at the last checkpoint
    cp_sep_heart_aces: np.ndarray  # (B,) int8
    locked: np.ndarray  # (B,12,2) int8 small/big wilds placed this turn per group
    lifted: np.ndarray  # (B,) int8 card type of the wild being moved, or -1
    lifted_from: np.ndarray  # (B,) int8 group it was taken from
    changed: np.ndarray  # (B,) int8 something was laid or moved since the checkpoint
    pickup_kind: np.ndarray  # (B,) int8 PICKUP_* of this turn
    pickup_size: np.ndarray  # (B,) int16 cards taken in a penalised pickup (R8.4)
    pickup_card: np.ndarray  # (B,) int8 the top card of a penalised pickup
    pickup_from_hand: np.ndarray  # (B,) int8 hand cards melded into its group (R8.1)


State = shared_type(State)  # one type in every kernel copy


def new_state(batch_size: int, num_players: int) -> State:
    """Zeroed arrays for ``batch_size`` games of ``num_players`` players."""
    b, p = batch_size, num_players

    def z(*shape: int, dtype: type = np.int8) -> np.ndarray:
        return np.zeros(shape, dtype=dtype)

    return State(
        hand=z(b, p, NUM_TYPES),
        groups=z(b, p, NUM_GROUPS, GROUP_SLOTS),
        sep_heart_aces=z(b, p),
        red_threes=z(b, p, 2),
        red_three_debt=z(b, p),
        twins=z(b, p, dtype=np.int16),
        opened=z(b, p),
        free_pickup=z(b, p),
        known=z(b, p, NUM_TYPES),
        turns_played=z(b, p, dtype=np.int16),
        totals=z(b, p, dtype=np.int32),
        hand_scores=z(b, p, dtype=np.int32),
        stock=z(b, DECK_SIZE),
        stock_len=z(b, dtype=np.int16),
        stock_known=z(b),
        pile=z(b, DECK_SIZE),
        pile_owner=z(b, DECK_SIZE),
        pile_len=z(b, dtype=np.int16),
        pile_fresh=z(b),
        cut_cards=z(b, CUT_CARDS),
        cut_kept=z(b, CUT_CARDS),
        cut_index=z(b),
        phase=z(b),
        to_move=z(b),
        starter=z(b),
        turn=z(b, dtype=np.int32),
        hand_number=z(b, dtype=np.int32),
        end_reason=z(b),
        out_player=np.full(b, -1, dtype=np.int8),
        rng=z(b, dtype=np.uint64),
        cp_hand=z(b, NUM_TYPES),
        cp_groups=z(b, NUM_GROUPS, GROUP_SLOTS),
        cp_sep_heart_aces=z(b),
        locked=z(b, NUM_GROUPS, 2),
        lifted=np.full(b, NO_CARD, dtype=np.int8),
        lifted_from=np.full(b, -1, dtype=np.int8),
        changed=z(b),
        pickup_kind=z(b),
        pickup_size=z(b, dtype=np.int16),
        pickup_card=np.full(b, NO_CARD, dtype=np.int8),
        pickup_from_hand=z(b),
    )
