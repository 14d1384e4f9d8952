"""The driver's per-game arrays (:class:`Seats`) and the controller codes of a seat."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from kanaszta_env.variants import shared_type  # absolute: the installed package's classes

# controller codes (a code >= 0 is the index of a Python policy)
EXTERNAL = -1
RANDOM = -2
NOBODY = -3  # no seat's actions are applied (an operation without actions)
#: the external "action" of a game that waits out a step (``GameBatch.step(where=...)``): legal
#: for external seats only; ``GameBatch`` turns a caller's action of this value into an illegal one
WAIT = np.iinfo(np.int64).min


class Seats(NamedTuple):
    """Per-game arrays of the driver (N games, P seats)."""

    lineup: np.ndarray  # (N,P) int64 controller codes in turn order from the anchor
    control: np.ndarray  # (N,P) int64 controller code of each seat in this episode
    anchor: np.ndarray  # (N,) int64 anchor seat of the current episode
    legal: np.ndarray  # (N,A) bool legal actions of the seat awaited (all False when over)
    acc: np.ndarray  # (N,P) float64 rewards not yet returned
    reward: np.ndarray  # (N,P) float64 rewards returned by this step
    anchor_reward: np.ndarray  # (N,) float64 the anchor seat's entry of ``reward``
    ended: np.ndarray  # (N,) int8 ENDED_* flags of this step
    terminal_obs: np.ndarray  # (N,D) float32 anchor's last observation of an ended episode
    over: np.ndarray  # (N,) bool finished and waiting for a reset (no auto-reset)
    seeds: np.ndarray  # (N,) uint64 seed of the current episode
    rng: np.ndarray  # (N,) uint64 per-game stream for the anchor draw and random seats
    core: np.ndarray  # (N,P) float64 scratch rewards of the core
    resets: np.ndarray  # (N,) int32 resets during this step


Seats = shared_type(Seats)  # one type in every kernel copy


def new_seats(n: int, players: int, obs_size: int, lineup: np.ndarray, num_actions: int) -> Seats:
    """Driver arrays for ``n`` games; every game over until it is reset."""
    return Seats(
        lineup=np.ascontiguousarray(np.broadcast_to(lineup, (n, players)), dtype=np.int64),
        control=np.full((n, players), EXTERNAL, dtype=np.int64),
        anchor=np.zeros(n, dtype=np.int64),
        legal=np.zeros((n, num_actions), dtype=np.bool_),
        acc=np.zeros((n, players), dtype=np.float64),
        reward=np.zeros((n, players), dtype=np.float64),
        anchor_reward=np.zeros(n, dtype=np.float64),
        ended=np.zeros(n, dtype=np.int8),
        terminal_obs=np.zeros((n, obs_size), dtype=np.float32),
        over=np.ones(n, dtype=np.bool_),
        seeds=np.zeros(n, dtype=np.uint64),
        rng=np.zeros(n, dtype=np.uint64),
        core=np.zeros((n, players), dtype=np.float64),
        resets=np.zeros(n, dtype=np.int32),
    )
