"""Does a shorter decision chain learn faster?

Trains the quick-start PPO from scratch (no imitation warm start) on one of two
action layers, with the same seed, opponents and settings otherwise:

* ``atomic``: the default action space, one card per meld decision;
* ``rank_melds``: the same plus one action per rank that melds all of the
  learner's naturals of that rank in one decision (:mod:`kanaszta_env.envs.rank_melds`).

Every ``--eval-every`` learner decisions the policy plays ``--hands`` hands
against each bot in its own action layer (the same deals and seats for both
arms), and the study records the learner decisions, the hands played in
training and the wall time so far. Run the arms side by side (one core each),
then draw both on one figure:

    python scripts/horizon_study.py --arm atomic --decisions 4000000
    python scripts/horizon_study.py --arm rank_melds --decisions 4000000
    python scripts/horizon_study.py --plot

Results go to ``docs/results/horizon/ARM_seedS.json``; ``--plot`` draws every such file into
``docs/results/horizon/study.png``.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import numpy as np
import torch
from stable_baselines3.common.callbacks import BaseCallback, CallbackList
from tqdm import tqdm

from agents.checkpoint import frozen_actor
from agents.tournament import mean_ci
from kanaszta_env.envs.vec_env import KanasztaVecEnv
from training.config import TrainConfig, bot_list, parse_weights
from training.opponents import OpponentPool, make_bot
from training.train import SelfPlayCallback, build_env, build_model

OUT = Path(__file__).resolve().parents[1] / "docs" / "results" / "horizon"
ARMS = ("atomic", "rank_melds")


class _Hands(BaseCallback):
    """Counts the hands the learner finishes in training."""

    def __init__(self) -> None:
        super().__init__()
        self.hands = 0

    def _on_step(self) -> bool:
        self.hands += int(np.asarray(self.locals["dones"]).sum())
        return True


def evaluate(agent, rules, bot: str, hands: int, seed: int, rank_melds: bool) -> dict:
    """``hands`` hands (one per game, dealt from ``seed + i``) against ``bot``: the learner's score
    minus the bot's, per hand, and the learner's decisions per hand."""
    env = KanasztaVecEnv(
        hands, rules, opponents=make_bot(bot, rules, seed=seed), rank_melds=rank_melds, reward_scale=1.0
    )
    env.seed(seed)
    obs = env.reset()
    total = np.zeros(hands)
    decisions = np.zeros(hands)
    finished = np.zeros(hands, dtype=bool)
    while not finished.all():
        actions = agent.act(obs, env.action_masks())
        obs, rewards, dones, _ = env.step(actions)
        total[~finished] += rewards[~finished]
        decisions[~finished] += 1
        finished |= dones
    mean, low, high = mean_ci(total)
    return {
        "mean": mean,
        "low": low,
        "high": high,
        "win": float((total > 0).mean()),
        "decisions_per_hand": float(decisions.mean()),
    }


def run_arm(args: argparse.Namespace) -> Path:
    torch.set_num_threads(1)
    config = TrainConfig(
        run_dir=tempfile.mkdtemp(prefix=f"horizon_{args.arm}_"),
        seed=args.seed,
        opponents=args.opponents,
        warm_start="",  # from scratch
        overlap=False,  # one core per arm: the two arms run side by side
        tensorboard=False,
        progress_bar=False,
    ).validate()
    rules = config.rules()
    rank_melds = args.arm == "rank_melds"
    pool = OpponentPool(parse_weights(config.opponents), rules, seed=config.seed)
    env, base = build_env(config, pool, rank_melds=rank_melds)
    model = build_model(config, env, None)
    counter = _Hands()
    # the slots draw their opponents per rollout as in training
    selfplay = SelfPlayCallback(
        pool, base, config.snapshot_every, Path(config.run_dir) / "snapshots", first=0
    )
    callbacks = CallbackList([selfplay, counter])
    history: list[dict] = []
    path = OUT / f"{args.arm}_seed{args.seed}.json"
    OUT.mkdir(parents=True, exist_ok=True)
    started, trained = time.perf_counter(), 0.0

    def record() -> None:
        agent = frozen_actor(model, args.arm, deterministic=True)
        row = {"decisions": model.num_timesteps, "hands": counter.hands, "minutes": trained / 60}
        for bot in bot_list(args.bots):
            row[bot] = evaluate(agent, rules, bot, args.hands, args.eval_seed, rank_melds)
        history.append(row)
        document = {"arm": args.arm, "command": vars(args), "history": history}
        path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
        shown = ", ".join(f"{b} {row[b]['mean']:+.0f}" for b in bot_list(args.bots))
        tqdm.write(f"{args.arm}: {row['decisions']:,} decisions, {row['hands']:,} hands, {shown}")

    record()
    with tqdm(total=args.decisions, desc=args.arm, unit="decision", unit_scale=True) as bar:
        while model.num_timesteps < args.decisions:
            before, t0 = model.num_timesteps, time.perf_counter()
            model.learn(args.eval_every, callback=callbacks, reset_num_timesteps=False)
            trained += time.perf_counter() - t0
            bar.update(model.num_timesteps - before)
            record()
    print(f"{args.arm}: {time.perf_counter() - started:.0f} s in all; history in {path}")
    return path


def plot(bots: list[str]) -> Path:
    """Score difference (95 % interval) over training hands and over wall time, both arms."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs = [json.loads(path.read_text(encoding="utf-8")) for path in sorted(OUT.glob("*_seed*.json"))]
    colours = {arm: f"C{i}" for i, arm in enumerate(ARMS)}
    seeds = sorted({run["command"]["seed"] for run in runs})
    fig, axes = plt.subplots(len(bots), 2, figsize=(11, 3.6 * len(bots)), squeeze=False)
    for i, bot in enumerate(bots):
        for j, (axis, label) in enumerate(
            (("hands", "hands played in training"), ("minutes", "minutes of training"))
        ):
            ax = axes[i, j]
            for run in runs:
                rows, arm = run["history"], run["arm"]
                x = [r[axis] for r in rows]
                seed = run["command"]["seed"]
                style = ("-", "--", ":")[seeds.index(seed) % 3]
                ax.plot(
                    x,
                    [r[bot]["mean"] for r in rows],
                    style,
                    marker="o",
                    color=colours[arm],
                    label=f"{arm}, seed {seed}",
                )
                ax.fill_between(
                    x,
                    [r[bot]["low"] for r in rows],
                    [r[bot]["high"] for r in rows],
                    color=colours[arm],
                    alpha=0.15,
                )
            ax.axhline(0, color="grey", lw=0.8)
            ax.set_xlabel(label)
            ax.set_ylabel(f"score − {bot}, per hand")
            ax.legend()
    fig.suptitle("Horizon study: atomic melds vs one action per rank (PPO from scratch)")
    fig.tight_layout()
    out = OUT / "study.png"
    fig.savefig(out, dpi=110)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--arm", choices=ARMS, help="the action layer to train")
    parser.add_argument("--plot", action="store_true", help="draw both arms' histories")
    parser.add_argument("--decisions", type=int, default=4_000_000, help="learner decisions to train")
    parser.add_argument(
        "--eval-every", type=int, default=500_000, help="learner decisions between evaluations"
    )
    parser.add_argument("--hands", type=int, default=400, help="evaluation hands per bot")
    parser.add_argument("--bots", default="random,greedy", help="evaluation opponents")
    parser.add_argument("--opponents", default="random:2,greedy:1", help="training opponent pool")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-seed", type=int, default=40_000_000)
    args = parser.parse_args()
    if args.plot:
        print(plot(bot_list(args.bots)))
    elif args.arm:
        if args.arm == "rank_melds" and "self" in parse_weights(args.opponents):
            # a snapshot of the rank layer's network would sit in an opponent seat of atomic actions
            parser.error("the rank_melds arm cannot train against 'self': its snapshots play 211 actions")
        run_arm(args)
    else:
        parser.error("give --arm ARM or --plot")


if __name__ == "__main__":
    main()
