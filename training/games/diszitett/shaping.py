"""Potential-based reward shaping computed from the learner's observation.

A hand lasts a few hundred learner decisions and pays its reward only at the
end, so each learner step also receives ``coef * (gamma * phi(s') - phi(s))``
(Ng, Harada and Russell 1999), with ``phi(terminal) = 0``. Over a hand the
extra rewards telescope to ``-coef * phi(s_0)``, which does not depend on the
policy: the optimal policy is unchanged, only credit arrives earlier.

The potential is "my hand score if the hand ended now, minus the opponents'
public estimate", read from the observation alone (R16):

* table: card values of the groups (R16.4), canasta bases (R11), red threes
  (100 each, 800 for four), twins (100), separate heart aces (500);
* hand: minus the card values of the cards in hand (a black three -100),
  weighted by ``hand_weight`` (a big pickup fills the hand before it is melded);
  an opponent's hand is estimated from the cards known to be in it plus, for
  the rest, the mean value of the cards the learner cannot locate.

``phi = scale * (mine - mean of the others)`` with the same ``scale`` as the
hand-end reward. Going-out bonuses are not in ``phi``: they arrive with the
real reward.

Three optional terms (per player, from public information, so the opponents'
are exact too) anticipate what the score above only pays late. Without them a
learner spreads its melds over many small groups and, against weak opponents,
keeps playing on to the turn limit instead of going out (it rarely has a
canasta before turn 40 and holds ~8 cards even with one):

* ``canasta_progress``: an unfinished group of ``k`` cards is worth
  ``canasta_progress * 300 * (k / 7) ** 2`` (convex: filling one group beats
  spreading the same cards; a finished group scores its real R11 base);
* ``out_readiness``: a player with a canasta (R14.1) and ``h`` cards in hand
  is worth ``out_readiness * 1000 * exp(-(h - 1) / 4)``, the going-out bonus
  and the won hand coming within reach (smooth, so a hand of 12 still feels
  each card it melds);
* ``dead_end``: a player without a canasta and ``h <= 3`` cards in hand
  loses ``dead_end * 1000 * min(1, (4 - h) / 3)``. With one card and no
  canasta a player can neither go out (R14.1) nor meld the card he draws
  and still discard, so he is stuck until the turn limit and its penalty
  (R16.6, about -1,500 points); a learner imitating a bot walks into this
  in a few percent of hands and the hand-end reward comes a hundred turns
  too late to say which meld did it.

All three are still potentials, so they change when credit arrives, never which
policy is optimal. ``canasta_progress`` and ``out_readiness`` are off by
default: in 1.4M-step runs from scratch they did not measurably raise the win
rate against RandomBot (about 77 % with or without them, 500 hands).
``dead_end`` is on (``TrainConfig.shaping_dead_end = 1``) together with
``gamma = 1`` and the count features of :mod:`training.features`: with the
three, the ten-minute quick start won 97.2 % and 96.3 % of 2,000 hands
against RandomBot (seeds 0 and 1), where the earlier defaults (``gamma =
0.995``, no dead-end term, plain input) ended between 88.8 % and 93.8 % and
PPO did not improve on its imitation start.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from stable_baselines3.common.vec_env import VecEnv, VecEnvWrapper
from stable_baselines3.common.vec_env.base_vec_env import VecEnvStepReturn

from kanaszta_env import Rules
from kanaszta_env.games.diszitett.compiled import (
    CANASTA_SIZE,
    HAND_PENALTY,
    canasta_kind,
    group_card_value,
    hand_base,
)
from kanaszta_env.games.diszitett.observation import View, decode

from ...shaping_games import shaped_rewards

_PENALTY = HAND_PENALTY.astype(np.float64)  # a black three left in hand costs 100 (R1.6)
#: what an unfinished group is worth at the canasta size (``canasta_progress``), about a canasta's base
PROGRESS_WORTH = 300.0
#: the scale of the going-out and dead-end terms: about a hand won or lost
HAND_WORTH = 1000.0


@njit(cache=True)
def seat_tables(groups: np.ndarray, red_threes: np.ndarray, twins: np.ndarray, heart_aces: np.ndarray):
    """Per row and seat of a batched view: the table score (R16 without hand
    cards or going out: red threes, twins, heart aces, canasta bases, card
    values of the groups) and each group's canasta kind (0 = none, R11)."""
    n, players, groups_n = groups.shape[0], groups.shape[1], groups.shape[2]
    table = np.zeros((n, players), dtype=np.int64)
    kinds = np.zeros((n, players, groups_n), dtype=np.int64)
    for i in range(n):
        for q in range(players):
            red = red_threes[i, q, 0] + red_threes[i, q, 1]
            x = hand_base(groups[i, q], red, twins[i, q], heart_aces[i, q], False, False, False)
            for g in range(groups_n):
                x += group_card_value(g, groups[i, q, g])
                size = 0
                for k in range(groups.shape[3]):
                    size += groups[i, q, g, k]
                if size >= CANASTA_SIZE:
                    kinds[i, q, g] = canasta_kind(g, groups[i, q, g])
            table[i, q] = x
    return table, kinds


class ScoreEstimate:
    """``phi`` of a batch of observations (see the module docstring); the
    observations are read as views (:func:`kanaszta_env.games.diszitett.observation.decode`)."""

    def __init__(
        self,
        rules: Rules,
        scale: float = 1e-3,
        hand_weight: float = 0.5,
        canasta_progress: float = 0.0,
        out_readiness: float = 0.0,
        dead_end: float = 0.0,
    ) -> None:
        self.rules, self.players, self.scale, self.hand_weight = rules, rules.num_players, scale, hand_weight
        self.canasta_progress, self.out_readiness, self.dead_end = canasta_progress, out_readiness, dead_end

    def _views(self, obs: np.ndarray) -> tuple[View, np.ndarray, np.ndarray]:
        v = decode(obs, self.rules)
        table, kinds = seat_tables(v.groups, v.red_threes, v.twins, v.heart_aces)
        return v, table, kinds

    def scores(self, obs: np.ndarray) -> np.ndarray:
        """(N, P) estimated hand score of each player, the observer first."""
        v, table, _ = self._views(obs)
        return self._scores(v, table)

    def _scores(self, v: View, table: np.ndarray) -> np.ndarray:
        # hands: the observer's exactly, the others' estimated
        own = v.hand @ _PENALTY  # (N,)
        n_unknown = v.unknown.sum(axis=1)
        mean_unknown = np.divide(v.unknown @ _PENALTY, n_unknown, out=np.zeros(len(own)), where=n_unknown > 0)
        rest = np.maximum(v.hand_size - v.known.sum(axis=2), 0)  # (N, P) unknown cards in each hand
        hands = v.known @ _PENALTY + rest * mean_unknown[:, None]
        hands[:, 0] = own
        return table - self.hand_weight * hands

    def progress(self, obs: np.ndarray) -> np.ndarray:
        """(N, P) the canasta-progress, going-out-readiness and dead-end terms (0 with all weights 0)."""
        v, _, kinds = self._views(obs)
        return self._progress(v, kinds)

    def _progress(self, v: View, kinds: np.ndarray) -> np.ndarray:
        done = kinds > 0  # (N, P, 12) finished canastas
        out = np.zeros(done.shape[:2])
        has_canasta = done.any(axis=2)  # (N, P)
        hand = v.hand_size  # (N, P) cards in hand
        if self.canasta_progress:
            size = np.minimum(v.groups.sum(axis=3), CANASTA_SIZE)
            growing = np.where(done, 0.0, (size / CANASTA_SIZE) ** 2)
            out += self.canasta_progress * PROGRESS_WORTH * growing.sum(axis=2)
        if self.out_readiness:
            near = np.exp(-np.maximum(hand - 1.0, 0.0) / 4.0)  # every card fewer counts, the last most
            out += self.out_readiness * HAND_WORTH * has_canasta * near
        if self.dead_end:
            risk = np.clip((4.0 - hand) / 3.0, 0.0, 1.0)  # 3 cards: 1/3, 2: 2/3, 1 or 0: 1
            out -= self.dead_end * HAND_WORTH * ~has_canasta * risk
        return out

    def __call__(self, obs: np.ndarray) -> np.ndarray:
        """(N,) potential: scaled own estimate minus the others' mean."""
        v, table, kinds = self._views(obs)
        s = self._scores(v, table)
        if self.canasta_progress or self.out_readiness or self.dead_end:
            s = s + self._progress(v, kinds)
        return self.scale * (s[:, 0] - s[:, 1:].mean(axis=1))


class ShapedReward(VecEnvWrapper):
    """Adds ``coef * (gamma * phi(s') - phi(s))`` to each learner reward.

    ``phi`` of a finished hand is 0, so the step that ends a hand pays the real
    reward minus ``coef * phi(s)``. ``win_bonus`` (not a shaping: it changes
    the objective) adds ``+win_bonus`` to the reward of a hand won and
    ``-win_bonus`` to one lost, read from the sign of the hand-end reward
    (the score difference), so the learner values winning reliably, not only
    by much. ``step_cost`` (not a shaping either) is taken from every learner
    decision: it prices the no-op loops the atomic actions allow (lift a wild
    and place it back, meld then ``withdraw``) and makes a hand won early worth
    more than one played on to the turn limit. With ``bootstrap_truncation=False`` a
    turn-limit truncation is reported as the hand's end (it is scored, R16.6,
    and the turn count is in the observation), so PPO does not bootstrap it.
    """

    def __init__(
        self,
        venv: VecEnv,
        potential: ScoreEstimate,
        *,
        coef: float = 1.0,
        gamma: float = 0.995,
        bootstrap_truncation: bool = False,
        win_bonus: float = 0.0,
        step_cost: float = 0.0,
    ) -> None:
        super().__init__(venv)
        self.potential, self.coef, self.gamma = potential, coef, gamma
        self.bootstrap_truncation, self.win_bonus, self.step_cost = bootstrap_truncation, win_bonus, step_cost
        self._phi = np.zeros(venv.num_envs)

    def reset(self) -> np.ndarray:
        obs = self.venv.reset()
        self._phi = self.potential(obs) if self.coef else np.zeros(self.num_envs)
        return obs

    def step_wait(self) -> VecEnvStepReturn:
        obs, rewards, dones, infos = self.venv.step_wait()
        phi = self.potential(obs) if self.coef else None
        rewards = shaped_rewards(rewards.astype(np.float64), dones, self._phi, phi, self.coef, self)
        if phi is not None:
            self._phi = phi
        if not self.bootstrap_truncation:
            for i in np.flatnonzero(dones):
                if infos[i].get("TimeLimit.truncated"):
                    infos[i]["TimeLimit.truncated"] = False
                    infos[i]["turn_limit"] = True
        return obs, rewards.astype(np.float32), dones, infos
