"""PettingZoo AEC environment of Díszített kanaszta (``kanaszta_v0``).

| | |
|---|---|
| agents | `player_0` … `player_{P-1}` (2–4, R2.1) |
| actions | `Discrete(200)`, one atomic decision each (`docs/actions.md`) |
| observations | `Dict(observation=Box(D,) float32, action_mask=Box(200,) int8)` (`docs/observation.md`) |
| rewards | `"score"`: hand score minus the others' mean × `reward_scale` (zero-sum, R16-R17) |
| | `"win"`: +1 / 0 / -1 by the totals when the episode ends (R18) |
| episode | one hand (default) or a game (`episode="game"`, R19.1); truncation at the turn limit (R19.2) |
| render modes | `"ansi"` (returns the table), `"human"` (prints it) |

``env()`` is lean on purpose: it is ``raw_env`` itself, which already does
what PettingZoo's default wrapper stack would (order enforcing, action bounds,
illegal-move handling), once, in the step. An illegal action raises
:class:`~kanaszta_env.engine.IllegalActionError` by default; with
``illegal="penalty"`` it ends the episode like PettingZoo's
``TerminateIllegalWrapper``: the offender gets ``illegal_reward``, the others
0, and every agent is terminated.

Seeds: ``reset(seed=s)`` deals the core game ``s``; later resets without a
seed deal ``s + 1``, ``s + 2``, ….
"""

from __future__ import annotations

import operator
import warnings
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv

from ..actions import NUM_ACTIONS, action_name
from ..core.observe import encode_batch
from ..encoding import observation_bounds, observation_size
from ..engine import IllegalActionError, game_seeds
from ..rules import Rules, resolve_rules
from .gym_env import LearnerGames
from .kernels import ENDED_TERMINATED, compiled_entry, seat_reward
from .options import RENDER_MODES, check_render_mode, reward_mode
from .render import render_table

__all__ = ["env", "raw_env"]


class raw_env(AECEnv, EzPickle):
    """Díszített kanaszta as a PettingZoo AEC environment (see the module docstring).

    Args:
        rules: a :class:`~kanaszta_env.rules.Rules`; or pass its fields as keyword arguments.
        render_mode: ``None``, ``"ansi"`` or ``"human"``.
        reward: ``"score"`` (default) or ``"win"``.
        reward_scale: multiplier of the score reward (default 1/1000).
        illegal: ``"raise"`` (default) or ``"penalty"``.
        illegal_reward: the offender's reward in penalty mode.
    """

    metadata = {  # noqa: RUF012 - PettingZoo reads it as a class attribute
        "name": "kanaszta_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        render_mode: str | None = None,
        reward: str = "score",
        reward_scale: float = 1e-3,
        illegal: str = "raise",
        illegal_reward: float = -1.0,
        **rule_kwargs: Any,
    ) -> None:
        EzPickle.__init__(
            self,
            rules,
            render_mode=render_mode,
            reward=reward,
            reward_scale=reward_scale,
            illegal=illegal,
            illegal_reward=illegal_reward,
            **rule_kwargs,
        )
        super().__init__()
        rules = resolve_rules(rules, rule_kwargs)
        check_render_mode(render_mode)
        self._reward_mode = reward_mode(reward, illegal)
        self.rules = rules
        self.render_mode = render_mode
        self._reward_scale = float(reward_scale)
        self._penalty = illegal == "penalty"
        self._illegal_reward = float(illegal_reward)
        players = rules.num_players
        self.possible_agents = [f"player_{q}" for q in range(players)]
        self._seat = {agent: q for q, agent in enumerate(self.possible_agents)}
        low, high = observation_bounds(rules)
        self._obs_size = observation_size(rules)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low, high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents}
        # the game: one slot of the batched learner driver in which the mover
        # is always the "learner" (no opponents), stepped by one compiled call
        self._games = LearnerGames(rules, 1, learner_seat="mover", auto_reset=False)
        self._state = self._games.state
        self._cfg = self._games.cfg
        self._learners = self._games.learners
        self._legal = self._learners.legal[0]  # updated in place by every step
        self._act = np.zeros(1, dtype=np.int64)
        self._hands = 0
        self._mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        self._obs = np.zeros(self._obs_size, dtype=np.float32)
        self._zero_mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        self._next_seed: int | None = None
        self._has_reset = False
        self._ended = True  # keeps step() on its checked path until reset()
        self._rewards_dirty = False
        self._obs_agent: str | None = None
        self._seat_buf = np.zeros(1, dtype=np.int64)
        self._observe_fn = compiled_entry(
            encode_batch, self._state, self._cfg, self._seat_buf, np.zeros((1, self._obs_size), np.float32)
        )

    # --- spaces -----------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def __getattr__(self, name: str) -> Any:
        # only reached when normal lookup fails: the order-enforcing message
        if name in {"rewards", "terminations", "truncations", "infos", "agent_selection", "agents"}:
            raise AttributeError(f"{name} cannot be accessed before reset()")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    # --- lifecycle --------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is None:
            seed = self._next_seed
        game_seed = game_seeds(seed, 1)[0]
        self._next_seed = int(game_seed) + 1
        self._obs = self._games.reset(np.array([game_seed], dtype=np.uint64))[0]
        self._mask = self._legal.astype(np.int8)
        self._hands = 0
        mover = int(self._state.to_move[0])
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[mover]
        self._obs_agent = self.agent_selection
        self._has_reset = True
        self._ended = False
        self._rewards_dirty = False

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if not self._has_reset:
            raise AssertionError("reset() needs to be called before observe()")
        if agent == self._obs_agent:
            return {"observation": self._obs, "action_mask": self._mask}
        obs = np.empty((1, self._obs_size), dtype=np.float32)
        self._seat_buf[0] = self._seat[agent]
        self._observe_fn(self._state, self._cfg, self._seat_buf, obs)
        return {"observation": obs[0], "action_mask": self._zero_mask.copy()}

    def step(self, action: Any) -> None:
        if self._ended:
            if not self._has_reset:
                raise AssertionError("reset() needs to be called before step()")
            if not self.agents:
                warnings.warn("step() called after all agents are terminated or truncated", stacklevel=2)
                return
            self._was_dead_step(action)
            return
        agent = self.agent_selection
        try:
            a = operator.index(action)
        except TypeError:
            raise IllegalActionError(
                f"action must be an integer in 0..{NUM_ACTIONS - 1}, got {action!r}"
            ) from None
        if not 0 <= a < NUM_ACTIONS or not self._legal[a]:
            self._illegal(agent, a)
            return
        self._cumulative_rewards[agent] = 0.0
        self._act[0] = a
        obs = np.empty((1, self._obs_size), dtype=np.float32)
        self._games.step_raw(self._act, obs)
        self._obs = obs[0]
        self._mask = self._legal.astype(np.int8)
        state = self._state
        if self._learners.ended[0] == 0 and state.hand_number[0] == self._hands:
            if self._rewards_dirty:
                self._clear_rewards()
                self._rewards_dirty = False
            self.agent_selection = self._obs_agent = self.possible_agents[state.to_move[0]]
        else:
            self._end_of_hand()
        if self.render_mode == "human":
            self.render()

    def _end_of_hand(self) -> None:
        """Rewards of a finished hand (R16-R18), and the episode's end."""
        state = self._state
        self._hands = int(state.hand_number[0])
        core = self._learners.core
        self.rewards = {
            agent: float(seat_reward(state, self._cfg, 0, q, core, self._reward_mode, self._reward_scale))
            for q, agent in enumerate(self.possible_agents)
        }
        self._rewards_dirty = True
        self._accumulate_rewards()
        flags = int(self._learners.ended[0])
        if flags:
            self._ended = True
            self._obs_agent = None
            ended = self.terminations if flags & ENDED_TERMINATED else self.truncations
            for agent in self.agents:
                ended[agent] = True
        else:
            self.agent_selection = self._obs_agent = self.possible_agents[state.to_move[0]]

    def _illegal(self, agent: str, a: int) -> None:
        what = f"action {action_name(a)!r} (id {a})" if 0 <= a < NUM_ACTIONS else f"action id {a}"
        if not self._penalty:
            legal = ", ".join(action_name(int(i)) for i in np.flatnonzero(self._legal)[:12])
            raise IllegalActionError(f"illegal {what} for {agent}; legal actions include: {legal}")
        # like PettingZoo's TerminateIllegalWrapper: the offender is penalised, everybody stops
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = self._illegal_reward
        self._rewards_dirty = True
        self._accumulate_rewards()
        self.infos[agent] = {"illegal_action": a}
        for other in self.agents:
            self.terminations[other] = True
        self._ended = True
        self._obs_agent = None

    # --- rendering ---------------------------------------------------------------
    def render(self) -> str | None:
        if not self._has_reset:
            raise AssertionError("reset() needs to be called before render()")
        if self.render_mode is None:
            warnings.warn(
                "render() called without a render_mode; pass render_mode='ansi' or 'human'", stacklevel=2
            )
            return None
        text = render_table(self._state, self.rules, 0, self.possible_agents)
        if self.render_mode == "ansi":
            return text
        print(text + "\n")
        return None

    def close(self) -> None:
        pass


def env(**kwargs: Any) -> raw_env:
    """The environment users get: :class:`raw_env`, with the order, bounds and
    illegal-move checks built in (no extra wrapper layers)."""
    return raw_env(**kwargs)
