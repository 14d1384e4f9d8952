"""Training configuration: one dataclass of arguments, each with a docstring.

Values come from three layers, later ones winning: the defaults below (the
quick start's budget), an optional TOML file (``--config run.toml``, keys named as
the fields, at the top level or in a ``[train]`` table) and command-line
flags (``--num-envs 64``). :func:`parse_config` does all three.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import tomllib

from kanaszta_env import Rules
from kanaszta_env.cli import bounded_int, check_int, field_docs, int_requirement

from .shaping_games import POTENTIALS

T = TypeVar("T")


@dataclass
class TrainConfig:
    """Arguments of ``kanaszta train`` (defaults: the quick start's budget, with a policy that
    reads the observation only; ``training/configs/quickstart.toml`` adds the hint)."""

    # --- run ---------------------------------------------------------------------
    run_dir: str = "runs/quickstart"
    """folder for checkpoints, TensorBoard logs, the report and the learning curve"""
    seed: int = 0
    """seed of the network initialisation, the deals and the opponent sampling"""
    total_timesteps: int = 1_000_000
    """learner decisions to train for (counted over all parallel games; a resumed run counts on).
    The quick start's budget is in decisions, not minutes, so that a busy machine reaches the
    same number of decisions as an idle one, only later (about 4 minutes of PPO on 2 cores)"""
    stop_timesteps: int = 0
    """stop with the update of the rollout that reaches this many learner decisions, the schedule
    still running over total_timesteps (0: at total_timesteps); unlike max_minutes, where a recipe
    stops does not depend on the machine's load"""
    max_minutes: float = 0.0
    """stop training after this many minutes of wall time even if steps remain (0: no limit)"""
    resume: str = ""
    """checkpoint (.zip) to go on from (its network, this config's PPO settings; snapshots, curve reloaded)"""
    torch_threads: int = 1
    """threads PyTorch may use; 1 is fastest for the small per-step batches, far faster on a busy machine"""
    progress_bar: bool = True
    """show a progress bar while training"""
    tensorboard: bool = True
    """write TensorBoard logs to RUN_DIR/tb"""

    # --- game ----------------------------------------------------------------------
    num_players: int = 0
    """players per game (0: the preset's default); the learner takes one seat (his partners: copies)"""
    variant: str = "2003-02"
    """rules preset: 2003-02, 2003-01 (Díszített kanaszta), pl, sk (classic canasta) or tr (Turkish)"""
    max_turns: int = 200
    """turn limit of a training hand (R19.2)"""
    eval_max_turns: int = 200
    """turn limit of the evaluation hands (200 = the default rules)"""

    # --- environment -----------------------------------------------------------------
    num_envs: int = 128
    """parallel games stepped together in one batched VecEnv"""
    opponent_slots: int = 4
    """the games are split into this many groups, each playing one opponent drawn from the pool per rollout"""
    opponents: str = "random:2,greedy:1,self:1"
    """opponent pool as name:weight pairs: bots (random, greedy, heuristic, search) or self (snapshots)"""
    snapshot_every: int = 250_000
    """learner decisions between frozen snapshots of the learner added to the pool (self-play)"""
    max_snapshots: int = 8
    """snapshots kept in the pool (the oldest is dropped)"""
    latest_snapshot_prob: float = 0.5
    """when self is drawn: probability of the newest snapshot, otherwise a uniformly drawn older one"""
    reward_scale: float = 1e-3
    """the hand-end reward is the hand-score difference times this"""
    shaping: float = 1.0
    """weight of the potential-based shaping (0: hand-end reward only); see training/games/*/shaping.py"""
    shaping_hand_weight: float = 0.5
    """weight of the hand cards' (negative) value in the shaping potential"""
    shaping_canasta: float = 0.0
    """weight of the canasta-progress term of the potential (convex in the cards of an unfinished group)"""
    shaping_out: float = 0.0
    """weight of the going-out-readiness term of the potential (a canasta and few cards in hand)"""
    shaping_dead_end: float = 1.0
    """weight of the dead-end term of the potential (no canasta and at most 3 cards in hand)"""
    win_bonus: float = 1.0
    """extra hand-end reward: +this for a hand won, -this for a hand lost (1.0 weighs like 1000 points)"""
    step_cost: float = 0.0
    """reward taken from every learner decision (prices no-op loops; a hand of 500 decisions costs 1.0)"""
    bootstrap_truncation: bool = False
    """treat a turn-limit truncation as a time limit (bootstrap the value), not as the hand's end (R16.6)"""

    # --- imitation warm start (training.imitation) -----------------------------------
    warm_start: str = "heuristic"
    """teacher whose play the policy imitates before PPO starts: a bot spec of agents.registry ("" = none)"""
    warm_start_steps: int = 4000
    """vectorised steps of teacher play recorded per round (each is num_envs learner decisions)"""
    warm_start_rounds: int = 1
    """rounds of collect-and-fit; rounds after the first let the student play half the hands (DAgger)"""
    warm_start_epochs: int = 8
    """passes of supervised learning over the recorded decisions, per round"""
    warm_start_lr: float = 3e-3
    """Adam step size of the supervised fit"""
    warm_start_smoothing: float = 0.0
    """share of the imitation target spread over the legal actions (keeps a hinted policy exploring)"""
    warm_start_threads: int = 1
    """PyTorch threads of the supervised fit (2 help on idle cores only; beside a busy job 3.4x slower)"""

    # --- PPO -------------------------------------------------------------------------
    trainer: str = "lean"
    """PPO loops: lean (training.lean_ppo) or sb3 (sb3-contrib's); both write MaskablePPO checkpoints"""
    update_threads: int = 1
    """PyTorch threads of the PPO update with the lean trainer (2 helps on an idle 2-core machine only)"""
    overlap: bool = True
    """lean trainer: update on rollout k in a thread while collecting k+1 (both cores; one update stale)"""
    n_steps: int = 128
    """rollout length per game: each update uses num_envs * n_steps decisions"""
    batch_size: int = 4096
    """minibatch size of the PPO update"""
    n_epochs: int = 4
    """passes over each rollout"""
    learning_rate: float = 5e-4
    """Adam step size"""
    anneal_lr: bool = False
    """decay the learning rate linearly to zero over total_timesteps"""
    gamma: float = 1.0
    """discount per learner decision (1.0: a hand's end counts in full however many decisions away)"""
    gae_lambda: float = 0.95
    """GAE lambda"""
    clip_range: float = 0.2
    """PPO clipping of the probability ratio"""
    ent_coef: float = 0.01
    """entropy bonus"""
    vf_coef: float = 0.5
    """value loss weight"""
    max_grad_norm: float = 0.5
    """gradient clipping"""
    target_kl: float = 0.0
    """stop an update's epochs early past this KL divergence (0: never)"""
    net_arch: list[int] = field(default_factory=lambda: [128, 128])
    """hidden layer sizes of the policy and of the value network (separate MLPs)"""
    count_features: bool = True
    """append one-hot hand sizes and canasta counts to the network input (training.features)"""
    hint: str = ""
    """bot whose choice the network also reads, as 200 one-hot inputs (agents.hinted; "" = none)"""
    privileged_critic: bool = False
    """the value network also reads the other seats' hands (training only; training.privileged)"""

    # --- evaluation and checkpoints ----------------------------------------------------
    eval_every: int = 500_000
    """learner decisions between evaluations against the bots (0: only at the end)"""
    eval_hands: int = 200
    """hands per periodic evaluation and bot, an even number (duplicate deals: half as many, seats swapped)"""
    eval_bots: str = "random,greedy"
    """bots of the periodic evaluations"""
    best_by: str = ""
    """bot of eval_bots whose periodic evaluations pick best.zip (top score difference; "" = the last bot)"""
    final_eval_hands: int = 2000
    """hands per bot in the final report, an even number (0: skip the report)"""
    final_eval_bots: str = "random,greedy,heuristic"
    """bots of the final report"""
    checkpoint_every: int = 500_000
    """learner decisions between checkpoints (besides the final one)"""
    eval_seed: int = 1_000_000
    """first deal of the evaluations (training deals are far from it, see training.opponents)"""

    # --- derived ---------------------------------------------------------------------
    def rules(self) -> Rules:
        """The rules of the training games."""
        return Rules(variant=self.variant, num_players=self.num_players or None, max_turns=self.max_turns)

    def eval_rules(self) -> Rules:
        """The rules of the evaluation games."""
        return dataclasses.replace(self.rules(), max_turns=self.eval_max_turns)

    def best_bot(self) -> str:
        """The bot whose periodic evaluations pick ``best.zip``."""
        bots = bot_list(self.eval_bots)
        return self.best_by or (bots[-1] if bots else "")

    def stop_at(self) -> int:
        """The learner decision count at which training stops (``stop_timesteps`` or ``total_timesteps``)."""
        return self.stop_timesteps or self.total_timesteps

    def validate(self) -> TrainConfig:
        """Raise ``ValueError`` on inconsistent values, before anything is written; returns ``self``."""
        if not (game := self.rules().game).has("training") or game.name not in POTENTIALS:
            raise ValueError(f"training on {game.title} (variant {self.variant}) is not "
                             "supported yet: its envs work with sb3-contrib directly")  # fmt: skip
        self.eval_rules()
        for name, (minimum, even) in INT_BOUNDS.items():
            value = getattr(self, name)
            if not check_int(value, minimum, even):
                raise ValueError(f"{name} must be {int_requirement(minimum, even)}, got {value!r}")
        if self.trainer not in ("lean", "sb3"):
            raise ValueError(f"trainer must be lean or sb3, got {self.trainer!r}")
        if self.max_minutes < 0:
            raise ValueError(f"max_minutes must be non-negative (0: no limit), got {self.max_minutes}")
        for part, whole in (("stop_timesteps", "total_timesteps"), ("opponent_slots", "num_envs")):
            if (n := getattr(self, part)) > (limit := getattr(self, whole)):
                raise ValueError(f"{part} ({n}) cannot exceed {whole} ({limit})")
        if not 0.0 <= self.latest_snapshot_prob <= 1.0:
            raise ValueError("latest_snapshot_prob must lie in [0, 1]")
        if not 0.0 <= self.warm_start_smoothing < 1.0:
            raise ValueError(f"warm_start_smoothing must lie in [0, 1), got {self.warm_start_smoothing}")
        if not self.net_arch or any(int(n) < 1 for n in self.net_arch):
            raise ValueError(f"net_arch needs positive layer sizes, got {self.net_arch}")
        if self.resume and not Path(self.resume).is_file():
            raise ValueError(f"resume: no checkpoint at {self.resume!r}")
        if self.resume:  # lazy: reading a checkpoint needs the training extras
            from .hinted_env import check_resume_hint

            check_resume_hint(self.resume, self.hint, self.privileged_critic)
        self._check_opponents()
        if self.best_by and self.best_by not in bot_list(self.eval_bots):
            raise ValueError(f"best_by {self.best_by!r} is not one of the eval_bots {self.eval_bots!r}")
        from agents.hinted import check_hint  # lazy: the bots are not needed to read a config
        from agents.registry import BOT_NAMES

        if self.hint:
            check_hint(self.hint, self.rules())

        teacher = self.warm_start.partition(":")[0].strip()
        if teacher and teacher not in BOT_NAMES:
            raise ValueError(
                f"unknown warm-start teacher {self.warm_start!r}: choose one of {BOT_NAMES} or ''"
            )
        if self.warm_start:
            check_bot("warm_start", self.warm_start, self.rules())
        for name in ("eval_bots", "final_eval_bots"):
            for spec in bot_list(getattr(self, name)):
                check_bot(name, spec, self.eval_rules())
        return self

    def _check_opponents(self) -> None:
        """The opponent pool: known bots or ``self``, and something to play before a first snapshot."""
        from agents.registry import BOT_NAMES

        weights = parse_weights(self.opponents)
        unknown = [name for name in weights if name != "self" and name not in BOT_NAMES]
        if unknown:
            raise ValueError(
                f"opponents: unknown opponent(s) {', '.join(map(repr, unknown))} in {self.opponents!r}: "
                f"use name:weight pairs of the bots ({', '.join(BOT_NAMES)}) or self"
            )
        if {name for name, w in weights.items() if w > 0} == {"self"} and not self.resume:
            raise ValueError(
                "opponents: a pool of only 'self' needs a first opponent: add a bot (e.g. random:1)"
            )

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able values."""
        return dataclasses.asdict(self)


#: fields that may be 0 (a seed, an interval or a report that 0 turns off)
_MAY_BE_ZERO = (
    "seed", "stop_timesteps", "snapshot_every", "eval_every", "final_eval_hands",
    "checkpoint_every", "eval_seed",
)  # fmt: skip
#: integer fields (num_players aside: 0 or what the rules accept) with their least value and whether
#: they must be even (duplicate evaluations play every deal twice); the flags check them at parse
#: time, :meth:`TrainConfig.validate` again
INT_BOUNDS: dict[str, tuple[int, bool]] = {
    f.name: (0 if f.name in _MAY_BE_ZERO else 1, f.name.endswith("eval_hands"))
    for f in dataclasses.fields(TrainConfig)
    if f.type == "int" and f.name != "num_players"
}


def bot_list(text: str) -> list[str]:
    """``"random,greedy"`` -> ``["random", "greedy"]`` (the eval_bots and final_eval_bots fields)."""
    return [name for name in text.split(",") if name]


def parse_weights(text: str) -> dict[str, float]:
    """``"random:1,greedy:2,self"`` -> ``{"random": 1.0, "greedy": 2.0, "self": 1.0}``."""
    weights: dict[str, float] = {}
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        name, _, value = item.partition(":")
        try:
            w = float(value) if value else 1.0
        except ValueError:
            raise ValueError(f"bad opponent weight {item!r}: expected name:number") from None
        if w < 0:
            raise ValueError(f"opponent weight of {name!r} is negative")
        weights[name.strip().lower()] = w
    if not weights or sum(weights.values()) <= 0:
        raise ValueError(f"the opponent pool {text!r} has no opponent with a positive weight")
    return weights


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """One ``--flag`` per field (default: not given, so the TOML file or the default applies)."""
    parser.add_argument(
        "--config", default=None, help="TOML file with field = value lines (flags override it)"
    )
    docs = field_docs(TrainConfig)
    for f in dataclasses.fields(TrainConfig):
        flag = "--" + f.name.replace("_", "-")
        default = f.default if f.default is not dataclasses.MISSING else f.default_factory()  # type: ignore[misc]
        help_text = f"{docs.get(f.name, '')} (default: {default})".replace("%", "%%")  # argparse formats help
        if isinstance(default, bool):
            kind: dict[str, Any] = {"action": argparse.BooleanOptionalAction}
        elif isinstance(default, list):
            kind = {"type": int, "nargs": "+"}
        else:
            kind = {"type": bounded_int(*INT_BOUNDS[f.name]) if f.name in INT_BOUNDS else type(default)}
        parser.add_argument(flag, dest=f.name, default=None, help=help_text, **kind)


def load_toml(path: str | Path) -> dict[str, Any]:
    """Field values of a TOML file; a malformed file, unknown keys or values of the wrong
    type raise ``ValueError`` naming the file (and the key)."""
    with open(path, "rb") as handle:
        try:
            doc = tomllib.load(handle)
        except tomllib.TOMLDecodeError as error:
            raise ValueError(f"{path} is not valid TOML: {error}") from None
    values = doc.get("train", doc)
    if values is doc:  # the [rllib] table belongs to training.rllib.options
        values = {k: v for k, v in doc.items() if k != "rllib"}
    if not isinstance(values, dict):
        raise ValueError(f"{path}: [train] must be a table of field = value lines")
    known = {f.name for f in dataclasses.fields(TrainConfig)}
    unknown = sorted(set(values) - known)
    if unknown:
        raise ValueError(f"{path}: unknown training option(s) {unknown}")
    return {name: _coerce(name, value, str(path)) for name, value in values.items()}


def parse_config(args: argparse.Namespace | Sequence[str] | None = None) -> TrainConfig:
    """Defaults, then the ``--config`` TOML file, then the flags given; validated."""
    if args is None or not isinstance(args, argparse.Namespace):
        parser = argparse.ArgumentParser()
        add_arguments(parser)
        args = parser.parse_args(list(args) if args is not None else None)
    return layered(TrainConfig, args, load_toml).validate()


def layered(cls: Callable[..., T], args: argparse.Namespace, load: Callable[[str], dict[str, Any]]) -> T:
    """The dataclass ``cls`` of its defaults, then the values ``load`` reads from the ``--config``
    file, then the flags given (not None) in ``args``."""
    values = load(args.config) if getattr(args, "config", None) else {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        if getattr(args, f.name, None) is not None:
            values[f.name] = getattr(args, f.name)
    return cls(**values)


def _coerce(name: str, value: Any, source: str) -> Any:
    """A TOML value checked against the field's type: ints where floats are expected become
    floats; a value of the wrong type raises ``ValueError`` naming the key, the type and the value."""
    default = {f.name: f for f in dataclasses.fields(TrainConfig)}[name].default
    is_int = isinstance(value, int) and not isinstance(value, bool)
    if isinstance(default, bool):
        ok, expected = isinstance(value, bool), "true or false"
    elif isinstance(default, int):
        ok, expected = is_int, "an integer"
    elif isinstance(default, float):
        ok, expected = is_int or isinstance(value, float), "a number"
        value = float(value) if ok else value
    elif isinstance(default, str):
        ok, expected = isinstance(value, str), "a string"
    else:  # net_arch, the only list
        ok = isinstance(value, list) and all(isinstance(n, int) and not isinstance(n, bool) for n in value)
        expected = "a list of integers"
    if not ok:
        raise ValueError(f"{source}: {name} must be {expected}, got {value!r}")
    return value


def check_bot(name: str, spec: str, rules: Rules) -> None:
    """``spec`` (a field's bot) must build as a bot of :mod:`agents.registry`; else ``ValueError``."""
    from agents.registry import BOT_NAMES, make_agent  # lazy: the bots are not needed to read a config

    clean = spec.strip().lower()
    if clean.partition(":")[0] not in BOT_NAMES:
        raise ValueError(f"{name}: unknown bot {spec!r}: choose one of {', '.join(BOT_NAMES)}")
    try:
        make_agent(clean, rules)
    except ValueError as error:
        raise ValueError(f"{name}: {error}") from None


def save_config(config: TrainConfig, path: str | Path) -> None:
    """Write the config as JSON (next to checkpoints, for the record)."""
    Path(path).write_text(json.dumps(config.to_dict(), indent=2) + "\n", encoding="utf-8")
