"""Gymnasium environment ``Kanaszta-v0``: one learner against opponents.

The learner's seat is drawn from each episode's seed (or fixed); the other
seats are played by the opponents inside :meth:`~KanasztaGymEnv.step` (bots by
name, e.g. ``opponents="heuristic"``, or policies ``(obs, mask) -> actions``),
on a :class:`~kanaszta_env.engine.GameBatch` of one game. Observations are the
learner's vectors of ``docs/observation.md``; :meth:`~KanasztaGymEnv.action_masks`
gives his legal actions for sb3-contrib's ``MaskablePPO`` (also in
``info["action_mask"]``, as ``int8`` so ``action_space.sample(mask=...)`` takes
it). The learner's reward of a hand is delivered even when the hand ends on an
opponent's move; the final ``info`` carries the hand's scores and how it ended.

An illegal action ends the episode (``terminated``) with reward ``illegal_reward`` and
``info["illegal_action"] = True`` (the default ``illegal="penalty"``: Gymnasium's and SB3's
``check_env`` step with unmasked random actions, and a learner without masks learns from the
penalty); ``illegal="raise"`` raises :class:`~kanaszta_env.engine.IllegalActionError` instead,
as the VecEnv and the AEC env do by default and masked training wants (a mask bug surfaces).

``reset(options={"position": doc})`` starts from a position document
(``docs/position.md``) instead of a deal; the learner sits in the seat to move
unless ``options["learner_seat"]`` says otherwise.

Version history: v0 — first release.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle

from ..engine import ENDED_ILLEGAL, GameBatch, IllegalActionError, RandomPolicy, seat_option
from ..rules import Rules, resolve_rules
from ..spaces import ObservationSpace
from .options import PARTNER_COPY, RENDER_MODES, check_render_mode, kwargs_of, learner_seating, load_position
from .render import render_table, show

__all__ = ["KanasztaGymEnv", "RandomPolicy"]


class KanasztaGymEnv(gym.Env, EzPickle):
    """One learner against opponents (Díszített or classic canasta).

    Args:
        rules: a :class:`~kanaszta_env.rules.Rules`; or pass its fields as keyword
            arguments (``variant="pl", num_players=4`` for classic canasta).
        opponents: a bot name (``"random"``, ``"greedy"``, ``"heuristic"``,
            ``"search"``, a checkpoint path), a policy, or one of them per
            opponent seat (in turn order after the learner). Bots are built with the env's rules.
        partner: who plays the learner's partners in classic canasta:
            ``"copy"`` (default: the learner himself — his partners' decisions
            are his steps too, each observed from the deciding seat) or an
            opponent entry (a bot name, a snapshot checkpoint, a policy).
        learner_seat: ``"random"`` (drawn from the game's seed each episode) or a seat.
        reward: ``"score"`` (hand score minus the others' mean × ``reward_scale``) or ``"win"``.
        illegal: ``"penalty"`` (default: end the episode with ``illegal_reward``) or ``"raise"``.
        render_mode: ``None``, ``"ansi"``, ``"human"`` or ``"rgb_array"``.
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        opponents: object = "random",
        partner: object = PARTNER_COPY,
        learner_seat: int | str = "random",
        reward: str = "score",
        reward_scale: float = 1e-3,
        illegal: str = "penalty",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **rule_kwargs: Any,
    ) -> None:
        EzPickle.__init__(self, rules, **kwargs_of(locals()))
        rules = resolve_rules(rules, rule_kwargs)
        check_render_mode(render_mode)
        self.rules = rules
        self.render_mode = render_mode
        self._game_kwargs = {
            **learner_seating(rules, opponents, partner),
            "observe": True,
            "reward": reward,
            "reward_scale": reward_scale,
            "illegal": illegal,
            "illegal_reward": illegal_reward,
        }
        self._first_seat = seat_option(learner_seat, rules.num_players, "learner_seat")
        self._games = GameBatch(rules, 1, first_seat=self._first_seat, **self._game_kwargs)
        self.observation_space = ObservationSpace(rules)
        self.action_space = spaces.Discrete(self._games.num_actions)

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        options = options or {}  # keys other than these two are ignored
        doc = options.get("position")
        seat = options.get("learner_seat")
        if doc is None:
            if seat is not None:
                raise ValueError("options['learner_seat'] goes with options['position']")
            self._games.reset(seed=int(self.np_random.integers(0, 2**63 - 1)))
        else:
            self._start_from(doc, seat)
        if self.render_mode == "human":
            self.render()
        return self._games.observe()[0].copy(), self._info()

    def _start_from(self, doc: object, seat: object) -> None:
        loaded = load_position(doc, self.rules)
        anchor = (
            int(loaded.to_move[0])
            if seat is None
            else seat_option(seat, self.rules.num_players, "learner_seat")
        )
        if anchor == "random":
            anchor = int(self.np_random.integers(self.rules.num_players))
        self._games = GameBatch(self.rules, 1, first_seat=anchor, **self._game_kwargs)
        self._games.state = loaded.state

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        games = self._games
        if not games.has_reset:
            raise gym.error.ResetNeeded("cannot call env.step() before calling env.reset()")
        if games.done[0]:
            raise IllegalActionError("the episode is over: call reset() first")
        try:
            result = games.step(action)
        except IllegalActionError as error:
            raise IllegalActionError(f"the learner (seat {self.learner_seat}): {error}") from None
        info = self._info()
        if games.ended[0] & ENDED_ILLEGAL:
            info["illegal_action"] = True
        if games.ended[0]:
            info.update(games.summary(0))
        if self.render_mode == "human":
            self.render()
        return (
            games.observe()[0].copy(),
            float(games.anchor_rewards[0]),
            bool(result.terminated[0]),
            bool(result.truncated[0]),
            info,
        )

    def action_masks(self) -> np.ndarray:
        """(A,) int8 legal actions of the seat the learner decides for (all 0
        once the episode ended); ``A`` = ``action_space.n``."""
        return self._games.legal_mask()[0].astype(np.int8)

    @property
    def games(self) -> GameBatch:
        """The engine's batch of one game behind this env (read its ``state`` freely)."""
        return self._games

    @property
    def learner_seat(self) -> int:
        """The learner's seat in the current episode."""
        return int(self._games.anchor[0])

    def _info(self) -> dict:
        info = {"action_mask": self.action_masks(), "learner_seat": self.learner_seat}
        if self.rules.partnerships:  # with partner="copy" the learner also decides for his partners
            info["deciding_seat"] = int(self._games.to_move[0])
        return info

    def render(self) -> str | np.ndarray | None:
        names = [
            f"player_{q}" + (" (learner)" if q == self.learner_seat else "")
            for q in range(self.rules.num_players)
        ]
        return show(render_table(self._games.state, self.rules, 0, names), self.render_mode, gym.logger.warn)

    def __getstate__(self) -> dict:
        # EzPickle rebuilds the env from its arguments; the game in progress comes along
        return {**EzPickle.__getstate__(self), "games": self._games, "np_random": self.np_random}

    def __setstate__(self, state: dict) -> None:
        games, rng = state.pop("games"), state.pop("np_random")
        EzPickle.__setstate__(self, state)
        self._games = games
        self._np_random = rng
