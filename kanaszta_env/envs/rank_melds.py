"""An optional action layer with a shorter decision chain: one action melds a rank.

Díszített kanaszta's atomic action space melds one natural card per decision
(``meld_KS``, ``meld_KD``, …), so a turn that lays down three kings takes
three decisions. With ``rank_melds=True`` (:class:`~kanaszta_env.envs.vec_env.KanasztaVecEnv`,
and through it the training pool's VecEnv), the action space gains one action
per rank group, appended after the atomic ones: ``meld_all_<group>`` melds the
mover's naturals of that group one at a time, in suit order, for as long as
one of them is legal, all within one decision. The atomic actions stay as they
are, so a policy can still meld a single card. The layer exists to measure
whether a shorter decision chain learns faster (``scripts/horizon_study.py``).
"""

from __future__ import annotations

import numpy as np

from ..cards import GROUP_NAMES, NATURAL_RANKS
from ..games.diszitett.actions import MELD0, NUM_ACTIONS

#: the appended actions: ``RANK_MELD0 + g`` melds the naturals of rank group ``g``
RANK_MELD0 = NUM_ACTIONS
NUM_RANK_MELDS = len(NATURAL_RANKS)  # the natural rank groups (ace, 4 … king)
RANK_MELD_NAMES = tuple(f"meld_all_{GROUP_NAMES[g]}" for g in range(NUM_RANK_MELDS))


def extend_mask(mask: np.ndarray) -> np.ndarray:
    """(N, A) atomic legal mask -> (N, A + groups): a rank's action is legal when
    one of its natural melds is."""
    naturals = mask[:, MELD0 : MELD0 + 4 * NUM_RANK_MELDS].reshape(len(mask), NUM_RANK_MELDS, 4)
    return np.concatenate([mask, naturals.any(axis=2).astype(mask.dtype)], axis=1)


def next_atoms(mask: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """For each row, the first legal natural meld of rank group ``groups[i]``
    (its lowest suit), or -1 when none is legal (the rank's action is done) or
    ``groups[i]`` names no rank group."""
    rows = np.arange(len(groups))
    known = (groups >= 0) & (groups < NUM_RANK_MELDS)
    first = MELD0 + 4 * np.where(known, groups, 0)
    naturals = mask[rows[:, None], first[:, None] + np.arange(4)] & known[:, None]
    return np.where(naturals.any(axis=1), first + naturals.argmax(axis=1), -1)
