"""Turkish kanasta's kernels read melds and hands as bits of card types (bit ``t``: type ``t``):
the readings agree with plain loops over the counts and with the meld analysis itself, and a
batch of observations beyond STREAM_BYTES is streamed out with the same bytes."""

from __future__ import annotations

import numpy as np
import pytest

from kanaszta_env import GameBatch, Rules
from kanaszta_env.cards import NUM_TYPES
from kanaszta_env.games.turkish.kernels import melds as M
from kanaszta_env.games.turkish.kernels.tables import JK, NEW_INDEX, RANK, SUIT, VALUE
from kanaszta_env.observation import observation_size

WILDS = (4, 5, 6, 7, JK)


def random_melds(count: int, seed: int) -> np.ndarray:
    """Card counts of sets, runs (with wilds, with a stray card) and random cards, at most two
    of a type as in the deck."""
    rng = np.random.default_rng(seed)
    rows = np.zeros((count, NUM_TYPES), dtype=np.int8)
    for c in rows:
        shape = rng.integers(0, 3)
        if shape == 0:
            for t in rng.integers(0, NUM_TYPES, size=rng.integers(1, 12)):
                c[t] += 1
        elif shape == 1:
            rank = rng.choice([0, *range(2, 13)])
            for _ in range(rng.integers(1, 9)):
                c[4 * rank + rng.integers(0, 4)] += 1
        else:
            suit, low = rng.integers(0, 4), rng.integers(0, 13)
            for rank in range(low, min(low + rng.integers(1, 14), 13)):
                c[4 * rank + suit] += rng.random() < 0.9
            if rng.random() < 0.2:
                c[rng.integers(0, NUM_TYPES)] += 1
        for _ in range(rng.integers(0, 3)):
            c[rng.choice(WILDS)] += 1
        np.minimum(c, 2, out=c)
    return rows


def plain_scan(c: np.ndarray) -> tuple:
    """What ``melds._scan`` reads, by a loop over the 52 types but the joker (2s skipped)."""
    nat = value = 0
    rank = suit = -1
    multi_rank = multi_suit = dup = False
    mask = 0
    for t in range(JK):
        k = int(c[t])
        if k == 0 or RANK[t] == 1:
            continue
        nat += k
        value += k * int(VALUE[t])
        if rank < 0:
            rank, suit = int(RANK[t]), int(SUIT[t])
        multi_rank = multi_rank or RANK[t] != rank
        multi_suit = multi_suit or SUIT[t] != suit
        dup = dup or k > 1
        mask |= 1 << int(RANK[t])
    return nat, value, rank, suit, multi_rank, multi_suit, dup, mask


def test_bits_read_the_counts() -> None:
    """``present_bits`` sets exactly the types held; ``_scan`` reads what a plain loop reads."""
    for c in random_melds(3000, seed=1):
        assert M.present_bits(c) == sum(1 << t for t in range(NUM_TYPES) if c[t] > 0)
        assert tuple(M._scan(c)) == plain_scan(c), np.flatnonzero(c)


def test_type_bits_name_the_naturals_and_the_wilds() -> None:
    """The naturals' bits are the types of the ``new_*`` actions; with the wilds' bits they
    cover the 53 types once."""
    naturals = [t for t in range(NUM_TYPES) if (M.NATURAL_BITS >> t) & 1]
    wilds = [t for t in range(NUM_TYPES) if (M.WILD_BITS >> t) & 1]
    assert naturals == [t for t in range(NUM_TYPES) if NEW_INDEX[t] >= 0]
    assert wilds == list(WILDS) and sorted(naturals + wilds) == list(range(NUM_TYPES))


def test_accepted_types_keep_the_meld_alive() -> None:
    """On a meld that can still become a set or a run, ``accepted`` marks exactly the card
    types after which the cards can still become one (T5-T7)."""
    checked = 0
    for c in random_melds(3000, seed=2):
        if M.analyse(c)[0] == M.DEAD:
            continue
        bits = M.accepted(c)
        for t in range(NUM_TYPES):
            c[t] += 1
            alive = M.analyse(c)[0] != M.DEAD
            c[t] -= 1
            assert bool((bits >> t) & 1) == alive, (np.flatnonzero(c), t)
        checked += 1
    assert checked > 1000


@pytest.mark.parametrize("offset", [0, 1])
def test_large_batch_streams_the_same_rows(offset: int) -> None:
    """A batch beyond STREAM_BYTES is encoded row by row into a scratch row and streamed out:
    the same bytes as the plain writes of small batches, whatever the rows' alignment."""
    from kanaszta_env.core.stream import STREAM_BYTES
    from kanaszta_env.games.turkish.kernels.observe import encode_games

    rules = Rules(variant="tr")
    size = observation_size(rules)
    n = STREAM_BYTES // (4 * size) + 3
    batch = GameBatch(rules, n, auto_reset=True, illegal="penalty")
    batch.reset(seed=4)
    rng = np.random.default_rng(3)
    for _ in range(60):  # random legal play: draws, melds, withdraws and discards
        mask = batch.legal_mask()
        batch.step(np.array([rng.choice(np.flatnonzero(row)) for row in mask]))
    s, cfg = batch.state, rules.to_config()
    rows, seats = np.arange(n), (np.arange(n) % 4).astype(np.int64)
    flat = np.full(n * size + offset, 7.0, np.float32)
    streamed = flat[offset:].reshape(n, size)
    encode_games(s, cfg, rows, seats, streamed)
    plain = np.full((n, size), 7.0, np.float32)
    for a in range(0, n, 256):
        encode_games(s, cfg, rows[a : a + 256], seats[a : a + 256], plain[a : a + 256])
    assert plain.tobytes() == streamed.tobytes() and flat[:offset].tolist() == [7.0] * offset
