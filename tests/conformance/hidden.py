"""Every card a seat cannot place dealt again at random, for the tests that hidden cards
change nothing a seat sees (tests/conformance/test_envs.py, tests/test_agents.py,
tests/test_hinted.py)."""

from __future__ import annotations

import numpy as np

from kanaszta_env import GameBatch
from kanaszta_env.engine.kernels import kernels_for


def redeal(games: GameBatch, p: int, rng: np.random.Generator, only: np.ndarray | None = None) -> GameBatch:
    """A copy of ``games`` with every card seat ``p`` cannot place dealt again at random,
    keeping every count (the deck stays whole) and every publicly known card; the random
    state too (in the games ``only`` selects, by default all)."""
    other = games.copy()
    ruleset, cfg = kernels_for(games.rules.spec).ruleset, games.rules.to_config()
    s, phases = other.state, ruleset.PHASE_NAMES
    for b in np.flatnonzero(np.ones(games.batch_size, bool) if only is None else only):
        lo = min(int(s.stock_known[b]), int(s.stock_len[b])) if hasattr(s, "stock_known") else 0
        hi = int(s.stock_len[b]) - (games.rules.spec.cut_cards if phases[s.phase[b]] == "cut" else 0)
        known = getattr(s, "known", np.zeros_like(s.hand))  # cards publicly known in a hand
        unseen = {q: s.hand[b, q] - known[b, q] for q in range(games.rules.num_players) if q != p}
        fis = [f for f in range(s.fi.shape[1]) if s.fi_taker[b, f] < 0] if hasattr(s, "fi") else []
        pool = [*s.stock[b, lo:hi], *(t for f in fis for t in s.fi[b, f])]
        pool += [t for cards in unseen.values() for t in np.repeat(np.arange(len(cards)), cards)]
        pool = rng.permutation(np.array(pool, dtype=s.stock.dtype))
        s.stock[b, lo:hi], pool = pool[: hi - lo], pool[hi - lo :]
        for f in fis:
            s.fi[b, f], pool = pool[: s.fi.shape[2]], pool[s.fi.shape[2] :]
        mover = int(getattr(s, "mover", s.to_move)[b])  # the turn's checkpoint hand is his
        for q, cards in unseen.items():
            new = known[b, q] + np.bincount(pool[: cards.sum()], minlength=len(cards))
            pool = pool[cards.sum() :]
            if q == mover and hasattr(s, "cp_hand"):
                s.cp_hand[b] += (new - s.hand[b, q]).astype(s.cp_hand.dtype)
            s.hand[b, q] = new
        assert len(pool) == 0 and ruleset.conserved(s, cfg, b, np.zeros(53, dtype=np.int64))
        s.rng[b] = rng.integers(0, 2**63, dtype=np.uint64)
    return other
