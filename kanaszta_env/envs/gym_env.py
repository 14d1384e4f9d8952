"""Single-agent Gymnasium environment ``Kanaszta-v0``: one learner against
given opponents.

The learner's seat is fixed or drawn each episode; the other seats are played
inside :meth:`KanasztaGymEnv.step` by opponent policies — any callable
``policy(obs (n,D) float32, mask (n,200) bool) -> actions (n,)``, or the
built-in uniformly random player (the default). Observations are the
learner's vectors of ``docs/observation.md``; :meth:`~KanasztaGymEnv.action_masks`
gives his legal actions for sb3-contrib's ``MaskablePPO`` (also in
``info["action_mask"]``). The learner's reward of a hand is delivered even
when the hand ends on an opponent's move.

An illegal action raises :class:`~kanaszta_env.engine.IllegalActionError`;
with ``illegal="penalty"`` it ends the episode (``terminated``) with reward
``illegal_reward`` and ``info["illegal_action"] = True`` instead — that mode is
what generic checkers need, since they step with unmasked random actions.
"""

from __future__ import annotations

from typing import Any, Protocol

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle

from ..actions import NUM_ACTIONS, action_name
from ..core.state import PHASE_OVER, new_state
from ..encoding import observation_bounds, observation_size
from ..engine import IllegalActionError
from ..rules import Rules, resolve_rules
from .kernels import (
    ENDED_ILLEGAL,
    ENDED_TERMINATED,
    ENDED_TRUNCATED,
    MAX_RESETS_PER_STEP,
    OP_ADVANCE_RANDOM,
    OP_GATHER,
    OP_LEARNERS,
    OP_OBSERVE,
    OP_OPPONENTS,
    OP_START,
    OP_STEP_RANDOM,
    PRM_AUTO_RESET,
    PRM_ILLEGAL_REWARD,
    PRM_PENALTY,
    PRM_REWARD_MODE,
    PRM_REWARD_SCALE,
    PRM_SEAT,
    PRM_SIZE,
    SEAT_MOVER,
    SEAT_RANDOM,
    compiled_entry,
    drive,
    new_learners,
)
from .options import RENDER_MODES, check_render_mode, reward_mode
from .render import render_table

__all__ = ["KanasztaGymEnv", "LearnerGames", "Policy", "RandomPolicy"]


# --- opponents -------------------------------------------------------------------
class Policy(Protocol):
    """An opponent: ``(obs (n,D) float32, mask (n,200) bool) -> actions (n,)``."""

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray: ...


class RandomPolicy:
    """Uniformly random legal actions. The learner wrappers recognise it and
    play it inside their compiled step (per-game random streams derived from
    the game seeds); called directly it uses its own numpy generator."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        counts = mask.sum(axis=1)
        pick = (self._rng.random(mask.shape[0]) * counts).astype(np.int64)
        return (np.cumsum(mask, axis=1) <= pick[:, None]).sum(axis=1)


def _policies(opponents: object, players: int) -> list[Policy] | None:
    """One policy per opponent seat; None when all are the built-in random
    player (which then runs inside the compiled step)."""
    if isinstance(opponents, str):
        if opponents != "random":
            raise ValueError(f"opponents must be 'random', a policy or a list of policies, got {opponents!r}")
        return None
    policies = list(opponents) if isinstance(opponents, (list, tuple)) else [opponents] * (players - 1)
    if len(policies) != players - 1:
        raise ValueError(f"{players} players need {players - 1} opponent policies, got {len(policies)}")
    for p in policies:
        if not callable(p):
            raise ValueError(f"opponent policy {p!r} is not callable")
    return None if all(isinstance(p, RandomPolicy) for p in policies) else policies


# --- the batched learner games -------------------------------------------------------
class LearnerGames:
    """``n`` games in which one seat per game (the learner) acts from outside
    and the other seats are played by ``opponents`` inside :meth:`step`.

    After each call the learners' rewards, end flags, terminal observations
    and masks are in :attr:`learners`. The Gymnasium env uses one game without
    auto-reset, the SB3 VecEnv ``N`` games with auto-reset in the same step.
    ``learner_seat="mover"`` makes every decision the learner's (batched
    self-play without opponents; the AEC env runs on it).
    """

    def __init__(
        self,
        rules: Rules,
        n: int,
        *,
        opponents: object = "random",
        learner_seat: int | str = "random",
        reward: str = "score",
        reward_scale: float = 1e-3,
        illegal: str = "raise",
        illegal_reward: float = -1.0,
        auto_reset: bool = True,
    ) -> None:
        if type(n) is not int or n < 1:
            raise ValueError(f"the number of games must be a positive integer, got {n!r}")
        players = rules.num_players
        if learner_seat == "random":
            seat = SEAT_RANDOM
        elif learner_seat == "mover":
            seat = SEAT_MOVER
        elif type(learner_seat) is int and 0 <= learner_seat < players:
            seat = learner_seat
        else:
            raise ValueError(
                f"learner_seat must be 'random' or a seat 0..{players - 1}, got {learner_seat!r}"
            )
        mode = reward_mode(reward, illegal)
        self.rules = rules
        self.n = n
        self.obs_size = observation_size(rules)
        self.policies = _policies(opponents, players)
        self.state = new_state(n, players)
        self.state.phase[:] = PHASE_OVER
        self.cfg = rules.to_config()
        self.learners = new_learners(n, players, self.obs_size)
        self.learners.over[:] = True
        prm = np.zeros(PRM_SIZE, dtype=np.float64)
        prm[PRM_REWARD_MODE] = mode
        prm[PRM_REWARD_SCALE] = reward_scale
        prm[PRM_SEAT] = seat
        prm[PRM_AUTO_RESET] = float(auto_reset)
        prm[PRM_PENALTY] = float(illegal == "penalty")
        prm[PRM_ILLEGAL_REWARD] = illegal_reward
        self.params = prm
        # buffers of the opponents' decisions (and typed placeholders for unused arguments)
        self._idx = np.zeros(n, dtype=np.int64)
        self._opp_obs = np.zeros((n, self.obs_size), dtype=np.float32)
        self._opp_masks = np.zeros((n, NUM_ACTIONS), dtype=np.bool_)
        self._no_seeds = np.zeros(0, dtype=np.uint64)
        self._no_actions = np.zeros(0, dtype=np.int64)
        self._drive = compiled_entry(
            drive,
            self.state,
            self.cfg,
            self.learners,
            prm,
            0,
            self._no_actions,
            self._opp_obs,
            self._idx,
            self._opp_masks,
            0,
            self._no_seeds,
        )

    def _call(
        self, op: int, actions: np.ndarray, obs: np.ndarray, arg: int = 0, seeds: np.ndarray | None = None
    ) -> int:
        return self._drive(
            self.state,
            self.cfg,
            self.learners,
            self.params,
            op,
            actions,
            obs,
            self._idx,
            self._opp_masks,
            arg,
            self._no_seeds if seeds is None else seeds,
        )

    def reset(self, seeds: np.ndarray) -> np.ndarray:
        """Start every game from ``seeds`` (one per game); the learners' observations."""
        seeds = np.ascontiguousarray(seeds, dtype=np.uint64)
        if seeds.shape != (self.n,):
            raise ValueError(f"expected {self.n} seeds, got shape {seeds.shape}")
        self._call(OP_START, self._no_actions, self._opp_obs, seeds=seeds)
        self._advance()
        obs = np.empty((self.n, self.obs_size), dtype=np.float32)
        self._call(OP_OBSERVE, self._no_actions, obs)
        return obs

    def step(self, actions: np.ndarray) -> np.ndarray:
        """Apply one learner action per game, play the opponents; the learners' new observations."""
        acts = np.asarray(actions)
        if acts.size != self.n or not np.issubdtype(acts.dtype, np.integer):
            raise IllegalActionError(f"expected {self.n} integer actions, got {actions!r}")
        acts = np.ascontiguousarray(acts.reshape(self.n), dtype=np.int64)
        obs = np.empty((self.n, self.obs_size), dtype=np.float32)
        if self.policies is None:
            code = self._call(OP_STEP_RANDOM, acts, obs)
            if code >= 0:
                raise IllegalActionError(self._describe(code, int(acts[code])))
            if code < -1:
                self._stuck(-2 - code)
            return obs
        bad = self._call(OP_LEARNERS, acts, obs)
        if bad >= 0:
            raise IllegalActionError(self._describe(bad, int(acts[bad])))
        self._advance()
        self._call(OP_OBSERVE, self._no_actions, obs)
        return obs

    def step_raw(self, actions: np.ndarray, obs: np.ndarray) -> int:
        """The unchecked fast path of :meth:`step` with the built-in random
        opponents (or none, ``learner_seat="mover"``): ``actions`` int64 (n,),
        ``obs`` float32 (n, D) to fill. Returns ``-1`` or the failing game's
        code (see :func:`~kanaszta_env.envs.kernels.drive`)."""
        return self._call(OP_STEP_RANDOM, actions, obs)

    def _advance(self) -> None:
        """Let the opponents move until every game awaits its learner."""
        if self.policies is None:
            stuck = self._call(OP_ADVANCE_RANDOM, self._no_actions, self._opp_obs)
            if stuck >= 0:
                self._stuck(stuck)
            return
        players = self.rules.num_players
        progress = True
        while progress:
            progress = False
            for rel in range(1, players):
                k = self._call(OP_GATHER, self._no_actions, self._opp_obs, arg=rel)
                if k == 0:
                    continue
                progress = True
                acts = np.asarray(self.policies[rel - 1](self._opp_obs[:k], self._opp_masks[:k])).reshape(-1)
                if acts.shape != (k,) or not np.issubdtype(acts.dtype, np.integer):
                    raise ValueError(f"opponent policy must return {k} integer actions, got {acts!r}")
                bad = self._call(OP_OPPONENTS, acts.astype(np.int64), self._opp_obs, arg=k)
                if bad >= 0:
                    a = int(acts[bad])
                    name = action_name(a) if 0 <= a < NUM_ACTIONS else str(a)
                    raise IllegalActionError(
                        f"opponent policy {rel} chose the illegal action {name!r} "
                        f"in game {int(self._idx[bad])}"
                    )
                if bad < -1:
                    self._stuck(-2 - bad)

    def _describe(self, b: int, a: int) -> str:
        what = f"action {action_name(a)!r} (id {a})" if 0 <= a < NUM_ACTIONS else f"action id {a}"
        legal = [action_name(int(i)) for i in np.flatnonzero(self.learners.legal[b])]
        shown = ", ".join(legal[:12]) + (" …" if len(legal) > 12 else "")
        return f"illegal {what} for the learner in game {b}; legal actions: {shown}"

    def _stuck(self, b: int) -> None:
        raise RuntimeError(
            f"game {b} ended {MAX_RESETS_PER_STEP} times in a row before its learner's first decision "
            "(is the turn limit shorter than a round of turns?)"
        )


class KanasztaGymEnv(gym.Env, EzPickle):
    """One learner against opponents in Díszített kanaszta.

    Args:
        rules: a :class:`~kanaszta_env.rules.Rules`; or pass its fields as keyword arguments.
        opponents: ``"random"``, a policy, or one policy per other seat (in
            turn order after the learner).
        learner_seat: ``"random"`` (drawn from the game's seed each episode) or a seat.
        reward: ``"score"`` (hand score minus the others' mean × ``reward_scale``) or ``"win"``.
        illegal: ``"raise"`` or ``"penalty"``.
        render_mode: ``None``, ``"ansi"`` or ``"human"``.
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        opponents: object = "random",
        learner_seat: int | str = "random",
        reward: str = "score",
        reward_scale: float = 1e-3,
        illegal: str = "raise",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **rule_kwargs: Any,
    ) -> None:
        EzPickle.__init__(
            self,
            rules,
            opponents=opponents,
            learner_seat=learner_seat,
            reward=reward,
            reward_scale=reward_scale,
            illegal=illegal,
            illegal_reward=illegal_reward,
            render_mode=render_mode,
            **rule_kwargs,
        )
        rules = resolve_rules(rules, rule_kwargs)
        check_render_mode(render_mode)
        self.rules = rules
        self.render_mode = render_mode
        self._games = LearnerGames(
            rules,
            1,
            opponents=opponents,
            learner_seat=learner_seat,
            reward=reward,
            reward_scale=reward_scale,
            illegal=illegal,
            illegal_reward=illegal_reward,
            auto_reset=False,
        )
        low, high = observation_bounds(rules)
        self.observation_space = spaces.Box(low, high, dtype=np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        game_seed = self.np_random.integers(0, 2**63 - 1, dtype=np.uint64)
        obs = self._games.reset(np.array([game_seed], dtype=np.uint64))
        if self.render_mode == "human":
            self.render()
        return obs[0], self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        L = self._games.learners
        if L.over[0]:
            raise IllegalActionError("the episode is over: call reset() first")
        obs = self._games.step(np.array([action]).reshape(1))
        ended = int(L.ended[0])
        info = self._info()
        if ended & ENDED_ILLEGAL:
            info["illegal_action"] = True
        if self.render_mode == "human":
            self.render()
        return obs[0], float(L.reward[0]), bool(ended & ENDED_TERMINATED), bool(ended & ENDED_TRUNCATED), info

    def action_masks(self) -> np.ndarray:
        """(200,) bool legal actions of the learner (all False once the episode ended)."""
        return self._games.learners.legal[0].copy()

    @property
    def learner_seat(self) -> int:
        """The learner's seat in the current episode."""
        return int(self._games.learners.seat[0])

    def _info(self) -> dict:
        return {"action_mask": self.action_masks(), "learner_seat": self.learner_seat}

    def render(self) -> str | None:
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        names = [
            f"player_{q}" + (" (learner)" if q == self.learner_seat else "")
            for q in range(self.rules.num_players)
        ]
        text = render_table(self._games.state, self.rules, 0, names)
        if self.render_mode == "ansi":
            return text
        print(text + "\n")
        return None
