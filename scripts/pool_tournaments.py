"""Pool tournaments of one pair played in chunks on disjoint deals into one result.

A long duplicate match (say 5,000 deals of a search agent, hours on one core) runs
as chunks, each ``kanaszta tournament A B --deals D --seed S_k --out chunk_k``
with its own deals, one or two at a time and across sessions. This reads the
chunks' JSON files, checks that they are the same pair under the same rules on
deals that do not overlap, and prints the pooled mean score difference and win
rate per deal with their 95% intervals, from the chunks' per-deal results. With agents
that decide from what they see and their seed alone (not ``random``, nor a sampling
policy) and the same seeds, these are the figures one tournament over all the deals
prints; ``kanaszta tournament`` seeds the agents with ``--seed``, so chunks of it are
the same match with other samples drawn by the search bots.

    python scripts/pool_tournaments.py runs/ledsearch/chunk_*.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from agents.tournament import mean_ci


def pool(paths: list[Path]) -> dict:
    """The pooled figures of the tournaments written at ``paths`` (each of one pair)."""
    diff, wins, deals, first = [], [], set(), None
    for path in paths:
        result = json.loads(path.read_text())
        (pair,) = result["per_deal"]  # one pair a chunk
        settings = result["settings"]
        key = (pair, json.dumps(settings["rules"], sort_keys=True))
        if first is None:
            first = key
        elif key != first:
            raise SystemExit(f"{path}: {pair!r} under other rules than {first[0]!r}: not one match")
        seeds = set(range(settings["seed"], settings["seed"] + settings["deals"]))
        if deals & seeds:
            raise SystemExit(f"{path}: its deals overlap another chunk's")
        deals |= seeds
        diff += result["per_deal"][pair]["diff"]
        wins += result["per_deal"][pair]["wins"]
    m, lo, hi = mean_ci(np.asarray(diff))
    w, wlo, whi = mean_ci(np.asarray(wins))
    span = [min(deals), max(deals)]
    return {"pair": first[0], "chunks": len(paths), "deals": len(diff), "mean_diff": m,
            "diff_ci95": [lo, hi], "win_rate": w, "win_ci95": [wlo, whi],
            "seeds": span, "contiguous": span[1] - span[0] + 1 == len(deals)}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", nargs="+", type=Path, help="tournament JSON files (--out PREFIX)")
    p = pool(parser.parse_args().results)
    lo, hi = p["diff_ci95"]
    wlo, whi = p["win_ci95"]
    print(
        f"{p['pair']}: {p['deals']} deals in {p['chunks']} chunks (seeds {p['seeds'][0]}–{p['seeds'][1]}"
        f"{'' if p['contiguous'] else ', with gaps'}): mean difference {p['mean_diff']:+.1f} "
        f"[{lo:+.1f}, {hi:+.1f}] per hand, {100 * p['win_rate']:.1f}% "
        f"[{100 * wlo:.1f}, {100 * whi:.1f}] of hands won"
    )


if __name__ == "__main__":
    main()
