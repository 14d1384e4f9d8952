"""Throughput of the RL interfaces on one core (median of several timed runs).

* AEC: one game through the default ``kanaszta_env.envs.env()``, random legal
  play as in PettingZoo's ``performance_benchmark`` (``last()``, a random
  choice among the mask's legal actions, ``step()``), episodes restarted.
* OpenSpiel ``gin_rummy``, side by side when ``pyspiel`` is installed: the
  same random playout in C++ with ``observation_tensor`` at every decision
  (the reference the issue sets).
* VecEnv: ``KanasztaVecEnv(N)`` against the built-in random opponents, the
  learner's actions drawn uniformly from ``action_masks()`` by a compiled
  sampler; a step returns observations, rewards, dones and SB3 infos.
  Printed with the rules core's own random-play rate at the same ``N`` (the
  ceiling: a learner step is one or more core decisions plus an observation).

Every figure is of one table: ``--variant`` (default Díszített 2003-02) with
``--players`` (default the preset's). With ``--against REF`` the AEC, VecEnv and
core figures are measured on this tree and on commit REF side by side
(``benchmarks/against.py``), with both medians and the ratio new/old.

    python benchmarks/bench_envs.py [--seconds 2] [--repeats 5] [--num-envs 1024] [--variant tr]
                                    [--players N] [--against REF]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np
from against import Figures, add_arguments, compiled, dispatch, playout


def _rules(table: tuple[str, int | None]):
    from kanaszta_env import Rules

    return Rules(variant=table[0], num_players=table[1])


def aec_rate(table: tuple[str, int | None], seconds: float) -> float:
    from kanaszta_env.envs import env

    e = env(_rules(table))
    e.reset(seed=0)
    steps = 0
    start = time.perf_counter()
    while True:
        for _agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            action = None if term or trunc else random.choice(np.flatnonzero(obs["action_mask"]).tolist())
            e.step(action)
            steps += 1
        e.reset()
        elapsed = time.perf_counter() - start
        if elapsed > seconds:
            return steps / elapsed


def open_spiel_rate(seconds: float) -> float | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    steps = 0
    start = time.perf_counter()
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(random.choice(outcomes)[0])
                continue
            state.observation_tensor(state.current_player())
            state.apply_action(random.choice(state.legal_actions()))
            steps += 1
        elapsed = time.perf_counter() - start
        if elapsed > seconds:
            return steps / elapsed


def vec_rate(table: tuple[str, int | None], num_envs: int, seconds: float) -> float:
    from kanaszta_env.envs.vec_env import KanasztaVecEnv

    sample_uniform = compiled("sample_uniform")

    venv = KanasztaVecEnv(num_envs, _rules(table))
    venv.seed(0)
    venv.reset()
    rng = np.arange(num_envs, dtype=np.uint64) + np.uint64(12345)
    actions = np.zeros(num_envs, dtype=np.int64)
    for _ in range(3):  # warm up
        sample_uniform(venv.action_masks(), rng, actions)
        venv.step(actions)
    steps = 0
    start = time.perf_counter()
    while True:
        sample_uniform(venv.action_masks(), rng, actions)
        venv.step(actions)
        steps += num_envs
        elapsed = time.perf_counter() - start
        if elapsed > seconds:
            return steps / elapsed


def core_rate(table: tuple[str, int | None], num_envs: int, seconds: float) -> float:
    from kanaszta_env import GameBatch

    random_playout = playout(table[0])

    games = GameBatch(_rules(table), batch_size=num_envs)
    games.reset(seed=0)
    seeds = np.arange(num_envs, dtype=np.uint64)
    rng = np.arange(num_envs, dtype=np.uint64) + np.uint64(10**9)
    lengths = np.zeros(16, dtype=np.int64)
    random_playout(games.state, games.rules.to_config(), rng, 2, seeds, lengths)
    decisions = 0
    start = time.perf_counter()
    while True:
        decisions += int(random_playout(games.state, games.rules.to_config(), rng, 10, seeds, lengths)[0])
        elapsed = time.perf_counter() - start
        if elapsed > seconds:
            return decisions / elapsed


def median_of(fn, repeats: int, *args: object) -> tuple[float, list[float]]:
    rates = [fn(*args) for _ in range(repeats)]
    return statistics.median(rates), rates


def figures(args: argparse.Namespace) -> Figures:
    """One run of each figure compared by ``--against``."""
    n, seconds, table = args.num_envs, args.seconds, (args.variant, args.players)
    return {
        "aec": ("AEC env() random play, 1 game, steps/s", lambda: aec_rate(table, seconds)),
        "vec": (f"VecEnv N={n} learner steps/s", lambda: vec_rate(table, n, seconds)),
        "core": (f"core random_playout B={n} decisions/s", lambda: core_rate(table, n, seconds)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one timed run")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per figure (median reported)")
    parser.add_argument("--num-envs", type=int, default=1024, help="games in the VecEnv")
    parser.add_argument("--variant", default="2003-02", help="the table's preset (default: %(default)s)")
    parser.add_argument(
        "--players", type=int, default=None, help="the table's players (default: the preset's)"
    )
    add_arguments(parser)
    args = parser.parse_args()
    if dispatch(args, figures(args), __file__):
        return
    table = (args.variant, args.players)
    print(f"table: {_rules(table).variant}, {_rules(table).num_players} players")

    aec_rate(table, 0.5)  # compile / warm up
    spiel = open_spiel_rate(0.2)
    # AEC and OpenSpiel runs alternate so that both see the same machine load
    aec_all, spiel_all = [], []
    for _ in range(args.repeats):
        aec_all.append(aec_rate(table, args.seconds))
        if spiel is not None:
            spiel_all.append(open_spiel_rate(args.seconds))
    aec = statistics.median(aec_all)
    rows = [("AEC env() random play, 1 game", aec, aec_all)]
    if spiel is not None:
        rows.append(("OpenSpiel gin_rummy + observation_tensor", statistics.median(spiel_all), spiel_all))
    vec, vec_all = median_of(vec_rate, args.repeats, table, args.num_envs, args.seconds)
    rows.append((f"VecEnv N={args.num_envs} learner steps (obs + masks)", vec, vec_all))
    core, core_all = median_of(core_rate, args.repeats, table, args.num_envs, args.seconds)
    rows.append((f"core random_playout B={args.num_envs} decisions", core, core_all))
    for name, med, runs in rows:
        print(f"{name:<52} {med:>12,.0f} /s   runs: {', '.join(f'{r:,.0f}' for r in runs)}")
    if spiel is None:
        print("OpenSpiel not installed (pip install open_spiel): gin_rummy reference skipped")
    else:
        print(f"AEC / OpenSpiel gin_rummy: {aec / rows[1][1]:.2f}x")


if __name__ == "__main__":
    main()
