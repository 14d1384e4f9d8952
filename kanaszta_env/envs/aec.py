"""PettingZoo AEC environment of the canasta family (``kanaszta_v0``).

| | |
|---|---|
| variants | Díszített kanaszta (default, `"2003-02"`, `"2003-01"`); classic canasta `variant="pl"` / `"sk"` |
| agents | `player_0` … `player_{P-1}` (Díszített 2–4, R2.1; pl 2–4, sk 2–6, C2) |
| actions | `Discrete(A)`, one atomic decision each: A = 200 (Díszített), 57 (classic) (`docs/actions.md`) |
| observations | `Dict(observation=Box(D,) float32, action_mask=Box(A,) int8)` (`docs/observation.md`) |
| rewards | `"score"`: hand score minus the others' mean × `reward_scale` (zero-sum, R16-R17); |
| | classic: the seat's side's score minus the other sides' mean (partners alike, C13) |
| | `"win"`: +1 / 0 / -1 by the totals when the episode ends (R18; partners win together) |
| episode | one hand (default) or a game (`episode="game"`, R19.1); truncation at the turn limit (R19.2) |
| partner's answer | pl: after `ask`, `agent_selection` is the partner, who answers `yes` / `no` (C12.5) |
| render modes | `"ansi"` (returns the table), `"human"` (prints it), `"rgb_array"` (an image of it) |

``env()`` is lean on purpose: it is ``raw_env`` itself, which already does
what PettingZoo's default wrapper stack would (order enforcing, action bounds,
illegal-move handling), once, in the step. An illegal action raises
:class:`~kanaszta_env.engine.IllegalActionError` by default; with
``illegal="penalty"`` it ends the episode like PettingZoo's
``TerminateIllegalWrapper``: the offender gets ``illegal_reward``, the others
0, and every agent is terminated.

Seeds: ``reset(seed=s)`` deals the core game ``s``; later resets without a
seed deal ``s + 1``, ``s + 2``, ….

Every observation and mask ``observe()`` returns is an array of its own,
which later steps and resets leave as it is (a learner may keep it). A step
is one compiled call of the engine (``GameBatch.step_unchecked``) and a few
reads of its arrays.
"""

from __future__ import annotations

import operator
import warnings
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv

from ..engine import ENDED_ILLEGAL, ENDED_TERMINATED, GameBatch, IllegalActionError, game_seeds
from ..observation import observation_bounds, observation_size
from ..rules import Rules, resolve_rules
from ..spaces import ObservationSpace
from .options import RENDER_MODES, check_render_mode, kwargs_of, load_position
from .render import render_table, show

__all__ = ["env", "raw_env"]


class raw_env(AECEnv, EzPickle):
    """A canasta game as a PettingZoo AEC environment (see the module docstring).

    Args:
        rules: a :class:`~kanaszta_env.rules.Rules`; or pass its fields as keyword
            arguments (``variant="pl", num_players=4`` for classic canasta).
        render_mode: ``None``, ``"ansi"``, ``"human"`` or ``"rgb_array"``.
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
        EzPickle.__init__(self, rules, **kwargs_of(locals()))
        super().__init__()
        rules = resolve_rules(rules, rule_kwargs)
        check_render_mode(render_mode)
        self.rules = rules
        self.render_mode = render_mode
        players = rules.num_players
        self.possible_agents = [f"player_{q}" for q in range(players)]
        self._seat = {agent: q for q, agent in enumerate(self.possible_agents)}
        self._obs_size = observation_size(rules)
        # every seat external: the env's step is one compiled call of the engine
        self._games = GameBatch(
            rules,
            1,
            observe=True,
            reward=reward,
            reward_scale=reward_scale,
            illegal=illegal,
            illegal_reward=illegal_reward,
        )
        self._num_actions = num_actions = self._games.num_actions
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": ObservationSpace(rules),
                    "action_mask": spaces.Box(0, 1, shape=(num_actions,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(num_actions) for agent in self.possible_agents}
        self._track()
        self._act = np.zeros(1, dtype=np.int64)
        self._act_item = memoryview(self._act)  # written as a Python int, faster than through NumPy
        self._hands = 0
        self._mask = np.zeros(num_actions, dtype=np.int8)
        self._obs = np.zeros(self._obs_size, dtype=np.float32)
        self._zero_mask = np.zeros(num_actions, dtype=np.int8)
        self._next_seed: int | None = None
        self._has_reset = False
        self._ended = True  # keeps step() on its checked path until reset()
        self._rewards_dirty = False
        self._obs_agent: str | None = None

    # --- spaces -----------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    @property
    def games(self) -> GameBatch:
        """The engine's batch of one game behind this env (read its ``state`` freely)."""
        return self._games

    @property
    def state_space(self) -> spaces.Box:
        """Space of :meth:`state`: every seat's observation, seat 0 first."""
        low, high = observation_bounds(self.rules)
        players = self.rules.num_players
        return spaces.Box(np.tile(low, players), np.tile(high, players), dtype=np.float32)

    def __getattr__(self, name: str) -> Any:
        # only reached when normal lookup fails: the order-enforcing message
        if name in {"rewards", "terminations", "truncations", "infos", "agent_selection", "agents"}:
            raise AttributeError(f"{name} cannot be accessed before reset()")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _track(self) -> None:
        """Take the engine's arrays that a step reads, which every step updates in place (the
        mask, the observation, the seat to move, the hand, the end flags); taken again whenever
        the engine may have replaced them (a reset, a position loaded, an unpickling)."""
        games = self._games
        state = games.state
        self._legal = games.legal_mask()[0]
        self._legal_int8 = self._legal.view(np.int8)  # the mask's 0 / 1 values: copied, not converted
        self._row = games.observe()[0] if games.has_reset else None
        # a memoryview's item is a Python bool or int, read several times faster than a NumPy scalar
        self._legal_items = memoryview(self._legal)
        self._to_move = memoryview(state.to_move)
        self._hand_number = memoryview(state.hand_number)
        self._ended_flags = memoryview(games.ended)

    # --- lifecycle --------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal a new episode (``seed``: its core seed), or with
        ``options={"position": doc}`` start from a position document (other
        keys are ignored, as PettingZoo's conformance test expects)."""
        doc = (options or {}).get("position")
        try:
            if doc is None:
                if seed is None:
                    seed = self._next_seed
                game_seed = int(game_seeds(seed, 1)[0])
                self._next_seed = (game_seed + 1) % 2**64
                self._games.reset(seed=game_seed)
            else:
                loaded = load_position(doc, self.rules)
                self._games.state = loaded.state
        finally:  # a position replaces the engine's arrays (a refused one: by copies of the old)
            self._track()
        self._obs = self._row.copy()
        self._mask = self._legal_int8.copy()
        state = self._games.state
        self._hands = int(state.hand_number[0])
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[int(state.to_move[0])]
        self._obs_agent = self.agent_selection
        self._has_reset = True
        self._ended = False
        self._rewards_dirty = False

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if not self._has_reset:
            raise AssertionError("reset() needs to be called before observe()")
        if agent == self._obs_agent:
            return {"observation": self._obs, "action_mask": self._mask}
        obs = self._games.observe(self._seat[agent])
        return {"observation": obs[0], "action_mask": self._zero_mask.copy()}

    def state(self) -> np.ndarray:
        """A global view for centralised critics: every seat's observation, seat 0 first."""
        if not self._has_reset:
            raise AssertionError("reset() needs to be called before state()")
        players = self.rules.num_players
        return np.concatenate([self._games.observe(q)[0] for q in range(players)])

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
        a = action if type(action) is int else self._action_id(agent, action)
        self._cumulative_rewards[agent] = 0.0
        if 0 <= a < self._num_actions and self._legal_items[a]:
            self._act_item[0] = a
            self._games.step_unchecked(self._act)
        else:
            try:
                self._games.step(a)  # raises, or (penalty mode) ends the episode
            except IllegalActionError as error:
                raise IllegalActionError(f"{agent}: {error}") from None
        self._obs = self._row.copy()
        self._mask = self._legal_int8.copy()
        if self._ended_flags[0] == 0 and self._hand_number[0] == self._hands:
            if self._rewards_dirty:
                self._clear_rewards()
                self._rewards_dirty = False
            self.agent_selection = self._obs_agent = self.possible_agents[self._to_move[0]]
        else:
            self._end_of_hand(agent, a)
        if self.render_mode == "human":
            self.render()

    def _action_id(self, agent: str, action: Any) -> int:
        """The action id of anything but a plain ``int`` (NumPy integers, ``operator.index``)."""
        bad = f"{agent}: an action must be an integer in 0..{self._num_actions - 1}, got {action!r}"
        if isinstance(action, (bool, np.bool_)):
            raise IllegalActionError(bad)
        try:
            return operator.index(action)
        except TypeError:
            raise IllegalActionError(bad) from None

    def _end_of_hand(self, mover: str, action: int) -> None:
        """Rewards of a finished hand (R16-R18) or of an illegal action, and the episode's end."""
        games = self._games
        self._hands = int(games.state.hand_number[0])
        self.rewards = {agent: float(games.rewards[0, q]) for q, agent in enumerate(self.possible_agents)}
        self._rewards_dirty = True
        self._accumulate_rewards()
        flags = int(games.ended[0])
        if flags:
            self._ended = True
            self._obs_agent = None
            ended = self.terminations if flags & ENDED_TERMINATED else self.truncations
            summary = games.summary(0)
            for agent in self.agents:
                ended[agent] = True
                self.infos[agent] = {**summary, "seat": self._seat[agent]}
            if flags & ENDED_ILLEGAL:
                self.infos[mover]["illegal_action"] = action
        else:
            self.agent_selection = self._obs_agent = self.possible_agents[self._to_move[0]]

    # --- rendering ---------------------------------------------------------------
    def render(self) -> str | np.ndarray | None:
        if not self._has_reset:
            raise AssertionError("reset() needs to be called before render()")
        text = render_table(self._games.state, self.rules, 0, self.possible_agents)
        return show(text, self.render_mode, lambda msg: warnings.warn(msg, stacklevel=3))

    def close(self) -> None:
        pass

    # --- copies and pickles: the game in progress comes along ------------------------
    def __getstate__(self) -> dict:
        return {**EzPickle.__getstate__(self), "progress": _progress(self)}

    def __setstate__(self, state: dict) -> None:
        progress = state.pop("progress")
        EzPickle.__setstate__(self, state)
        self.__dict__.update(progress)
        self._track()


_PROGRESS = (
    "_games", "_hands", "_mask", "_obs", "_next_seed", "_has_reset", "_ended", "_rewards_dirty", "_obs_agent",
    "agents", "rewards", "_cumulative_rewards", "terminations", "truncations", "infos", "agent_selection",
)  # fmt: skip


def _progress(e: raw_env) -> dict:
    import copy

    return {name: copy.deepcopy(e.__dict__[name]) for name in _PROGRESS if name in e.__dict__}


def env(rules: Rules | None = None, **kwargs: Any) -> raw_env:
    """The environment users get: :class:`raw_env`, with the order, bounds and
    illegal-move checks built in (no extra wrapper layers). Takes a
    :class:`~kanaszta_env.rules.Rules` or its fields as keyword arguments."""
    return raw_env(rules, **kwargs)
