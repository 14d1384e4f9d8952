"""Díszített kanaszta's observation: its pieces (:func:`diszitett_pieces`, in the order
the kernel writes them) and the batched encoder and decoder.

Each player's vector covers his hand, the table, the cards publicly known to be in
other hands, the discard pile, the known bottom of the stock and the state of the
turn. ``docs/observation.md`` is generated from the pieces
(``scripts/gen_docs.py``) and a test checks the kernel against them piece
by piece; unbounded counts are scaled and clipped as each meaning says.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ...cards import DECK_SIZE, GROUP_NAMES, NUM_GROUPS, NUM_TYPES, WILD_NAMES
from ...observation import Piece, observation_size, piece_offsets
from ...rules import Rules
from .kernels.decode import LAYOUT_PIECES, decode_views
from .kernels.observe import (
    GROUP_SIZE_SCALE,
    HAND_SCORE_SCALE,
    HAND_SIZE_SCALE,
    MAX_OPENING_MINIMUM,
    NUM_CANASTA_KINDS,
    NUM_FREE_STATES,
    NUM_PHASES,
    NUM_PICKUP_KINDS,
    NUM_TAX_BRACKETS,
    NUM_WILD_TYPES,
    STOCK_KNOWN_SCALE,
    TABLE_CLEARING_PILE,
    TWINS_SCALE,
    encode_batch,
    encode_views,
)
from .kernels.state import FREE_NAMES, PHASE_NAMES, State
from .kernels.view import View, new_views

__all__ = [
    "HAND_SIZE_SCALE",
    "TWINS_SCALE",
    "View",
    "decode",
    "diszitett_pieces",
    "encode",
    "encode_view_batch",
    "layout",
    "new_views",
]


_CARDS = "53 card types in the order `AS AH AD AC 2S … KC JK`"
_BY_COPIES = "count ÷ copies in the deck (2, or 8 for `JK`)"
_SEATS = "per player, own seat first"
_GROUPS = f"12 groups `{' '.join(GROUP_NAMES)}`"
_CANASTAS = "black wild, black, red, red wild, gold (R11)"


def diszitett_pieces(P: int) -> tuple[Piece, ...]:
    """Díszített kanaszta's pieces for ``P`` players."""
    assert len(PHASE_NAMES) == NUM_PHASES and len(FREE_NAMES) == NUM_FREE_STATES
    return _flow_pieces(P) + _own_hand_pile_and_stock(P) + _table_pieces(P) + _turn_pieces() + _cut_pieces()


def _flow_pieces(P: int) -> tuple[Piece, ...]:
    """The phase, whose decision it is, the seat after the starter and the progress."""
    return (
        Piece("phase", (NUM_PHASES,), f"one-hot phase: {', '.join(PHASE_NAMES)}"),
        Piece("to_move", (P,), "one-hot seat that decides now, relative to the observer (0 = himself)"),
        Piece(
            "seat_from_starter", (P,), "one-hot: how many seats the observer sits after the hand's starter"
        ),
        Piece(
            "progress",
            (3,),
            "turns played ÷ `max_turns` (R19.2); hands played ÷ `max_hands` in game episodes "
            "(else 0); 1 if separate heart aces exist (preset 2003-02)",
        ),
    )


def _own_hand_pile_and_stock(P: int) -> tuple[Piece, ...]:
    """The own hand, the discard pile and the stock."""
    T = NUM_TYPES
    return (
        Piece("hand", (T,), f"own hand by card type: {_BY_COPIES}; {_CARDS}"),
        Piece("pile", (T,), f"discard pile content by card type, {_BY_COPIES}"),
        Piece("pile_top", (T,), "one-hot type of the discard pile's top card (zeros if the pile is empty)"),
        Piece(
            "pile_top_owner",
            (P,),
            "one-hot seat, relative to the observer, that discarded the top card (zeros if unknown)",
        ),
        Piece(
            "pile_state",
            (4,),
            f"pile size ÷ {DECK_SIZE}; 1 if it holds {TABLE_CLEARING_PILE}+ cards (table clearing, R16.3); "
            "1 if the top card was discarded in the previous turn (a twin is possible, R6); 1 if the pile is "
            "frozen (R9)",
        ),
        Piece(
            "stock_state",
            (2,),
            f"stock size ÷ {DECK_SIZE}; number of known cards at its bottom ÷ {STOCK_KNOWN_SCALE:g} (R3.4)",
        ),
        Piece("stock_bottom", (T,), f"the known bottom cards of the stock by type, {_BY_COPIES}"),
        Piece(
            "unknown",
            (T,),
            "cards whose place the observer cannot know (in the unknown part of the stock or of other "
            f"hands): the deck minus everything he sees, {_BY_COPIES}",
        ),
    )


def _table_pieces(P: int) -> tuple[Piece, ...]:
    """Every player's table, own seat first: groups, collections, known cards, scores."""
    G = NUM_GROUPS
    T = NUM_TYPES
    return (
        Piece(
            "group_cards",
            (P, G, 9),
            f"{_SEATS}; {_GROUPS}; per group the counts of naturals by suit `S H D C`, then "
            f"`{' '.join(WILD_NAMES)}`, each ÷ copies in the deck",
        ),
        Piece(
            "group_size",
            (P, G),
            f"{_SEATS}; cards in each group ÷ {GROUP_SIZE_SCALE:g}, clipped (a group being built may hold "
            "more until the discard)",
        ),
        Piece(
            "canasta", (P, G, NUM_CANASTA_KINDS), f"{_SEATS}; one-hot canasta kind of each group: {_CANASTAS}"
        ),
        Piece(
            "collection",
            (P, 4),
            f"{_SEATS}; separate heart aces ÷ 2 (R10.6); `3H` ÷ 2 and `3D` ÷ 2 red threes laid out; "
            "red-three replacements still to draw ÷ 4 (R4.2)",
        ),
        Piece(
            "player_state",
            (3, P),
            f"rows: twins ÷ {TWINS_SCALE:g} (clipped); hand size ÷ {HAND_SIZE_SCALE:g} (clipped); "
            "opened in an earlier turn of this hand; columns: players, own seat first",
        ),
        Piece("free_pickup", (P, NUM_FREE_STATES), f"{_SEATS}; one-hot R7 state: {', '.join(FREE_NAMES)}"),
        Piece("known", (P, T), f"{_SEATS}; cards publicly known to be in that hand, {_BY_COPIES}"),
        Piece("total", (P,), f"{_SEATS}; game total ÷ target score, clipped to [-1, 1]", low=-1.0),
        Piece(
            "tax_bracket",
            (P, NUM_TAX_BRACKETS),
            f"{_SEATS}; one-hot R17 bracket of the total: <5000, <7000, <9000, ≥9000",
        ),
        Piece(
            "opening_minimum",
            (P,),
            f"{_SEATS}; that player's opening minimum ÷ {MAX_OPENING_MINIMUM:g} (R12.2)",
        ),
        Piece(
            "last_hand_score",
            (P,),
            f"{_SEATS}; recorded score of the previous hand ÷ {HAND_SCORE_SCALE:g}, clipped to [-1, 1]",
            low=-1.0,
        ),
    )


def _turn_pieces() -> tuple[Piece, ...]:
    """The current turn, zeros in the cut phase and after the end."""
    G = NUM_GROUPS
    return (
        Piece(
            "pickup_kind",
            (NUM_PICKUP_KINDS,),
            "one-hot card source of the mover's turn: none, free pickup (R7), penalised pickup (R8)",
        ),
        Piece("pickup_group", (G,), "one-hot group of the penalised pickup's top card (R8.1)"),
        Piece(
            "pickup_state",
            (3,),
            "hand cards melded into that group in the pickup phase ÷ 3 (clipped); pile size taken "
            f"÷ {DECK_SIZE} (R8.4); 1 if it was {TABLE_CLEARING_PILE}+ cards",
        ),
        Piece(
            "lifted",
            (NUM_WILD_TYPES + G,),
            "a wild lifted out of a group and not yet placed (R13.2): one-hot type "
            f"`{' '.join(WILD_NAMES)}`, "
            "then one-hot group it came from",
        ),
        Piece(
            "locked",
            (G, 2),
            "per group: small and big wilds put into it this turn ÷ 7 (they cannot be lifted again)",
        ),
        Piece(
            "laid_this_turn",
            (G, 5),
            "the mover's groups now against the turn's checkpoint: naturals added ÷ 8, small and big wilds "
            "added ÷ 7, small and big wilds taken out ÷ 7",
        ),
        Piece(
            "turn_state",
            (4,),
            "1 if something was laid or moved since the checkpoint (`withdraw` is possible, R12.5); separate "
            "heart aces laid this turn ÷ 2; for a mover who has not opened, the R12.3 value of his groups "
            "÷ twice his minimum (clipped) and 1 if it reaches the minimum",
        ),
    )


def _cut_pieces() -> tuple[Piece, ...]:
    """The cut cards and the decisions on them, in the cut phase."""
    T = NUM_TYPES
    return (
        Piece("cut_cards", (3, T), "in the cut phase, one-hot type of each of the three cut cards (R3.1)"),
        Piece("cut_decisions", (3, 2), "in the cut phase, per cut card: kept, left (both 0 = undecided)"),
    )


def encode(
    state: State, rules: Rules, players: np.ndarray | int, out: np.ndarray | None = None
) -> np.ndarray:
    """``(B, D)`` float32 observations: row ``b`` is player ``players[b]``'s view of game ``b``."""
    batch = state.phase.shape[0]
    seats = np.broadcast_to(np.asarray(players, dtype=np.int64), (batch,))
    if ((seats < 0) | (seats >= rules.num_players)).any():
        raise ValueError(f"observer seats must lie in 0..{rules.num_players - 1}, got {players!r}")
    _, cfg, size = _decoding(rules)
    if out is None:
        out = np.empty((batch, size), dtype=np.float32)
    written = encode_batch(state, cfg, np.ascontiguousarray(seats), out)
    if batch and written != size:
        raise AssertionError(f"observation kernel wrote {written} slots, the spec declares {size}")
    return out


@lru_cache(maxsize=32)
def _decoding(rules: Rules) -> tuple[np.ndarray, np.ndarray, int]:
    """Layout vector, config vector and observation size of ``rules`` (cached:
    building the spec costs more than encoding a small batch; never written)."""
    return layout(rules), rules.to_config(), observation_size(rules)


def layout(rules: Rules | None = None) -> np.ndarray:
    """First slots of the pieces the decoder reads (``games.diszitett.kernels.decode.LAYOUT_PIECES``),
    taken from the declared spec, as an int64 vector for compiled code."""
    offsets = piece_offsets(rules)
    return np.array([offsets[name][0] for name in LAYOUT_PIECES], dtype=np.int64)


def decode(obs: np.ndarray, rules: Rules | None = None, out: View | None = None) -> View:
    """The batched :class:`View` of observation rows ``obs`` (N, D) (or one row):
    the exact inverse of the encoder, for callers that hold only observations.
    Code that holds the games should ask the engine for views instead
    (:meth:`kanaszta_env.engine.GameBatch.views`). ``out`` (N rows) is
    overwritten and returned if given."""
    rules = rules or Rules()
    lay, cfg, size = _decoding(rules)
    obs = np.ascontiguousarray(obs, dtype=np.float32)
    if obs.ndim == 1:
        obs = obs[np.newaxis]
    if obs.ndim != 2 or obs.shape[1] != size:
        raise ValueError(
            f"observations of {rules.num_players} players have {size} slots, got shape {obs.shape}"
        )
    if out is None:
        out = new_views(obs.shape[0], rules.num_players)
    elif out.info.shape[0] != obs.shape[0] or out.groups.shape[1] != rules.num_players:
        raise ValueError(f"out must hold {obs.shape[0]} views of {rules.num_players} players")
    decode_views(obs, lay, cfg, out)
    return out


def encode_view_batch(views: View, rules: Rules | None = None, out: np.ndarray | None = None) -> np.ndarray:
    """``(N, D)`` float32 observations of the rows of a batched :class:`View`."""
    rules = rules or Rules()
    n = views.info.shape[0]
    size = observation_size(rules)
    if out is None:
        out = np.empty((n, size), dtype=np.float32)
    written = encode_views(views, rules.to_config(), out)
    if n and written != size:
        raise AssertionError(f"observation kernel wrote {written} slots, the spec declares {size}")
    return out
