"""The codec of a game whose positions are read in two steps (parse each key, check the
whole) and converted to and from a batch: what ``position.load`` and friends call."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine import GameBatch


@dataclass(frozen=True)
class Codec:
    """``load``, ``load_batch``, ``canonical`` and ``dump`` of one game's documents."""

    parse: Callable[[Any], dict]  # the document's keys read, optional ones derived
    check: Callable[[dict], None]  # the position as a whole; ValueError naming the problem
    to_games: Callable[[list[dict]], GameBatch]  # parsed positions -> a batch, one game each
    to_doc: Callable[[dict], dict]  # parsed position -> canonical document
    from_games: Callable[[GameBatch, int], dict]  # one game of a batch -> parsed position

    def checked(self, doc: Any) -> dict:
        """The parsed and validated form of ``doc``."""
        c = self.parse(doc)
        self.check(c)
        return c

    def load(self, doc: Any) -> GameBatch:
        return self.to_games([self.checked(doc)])

    def load_batch(self, docs: Sequence[Any]) -> GameBatch:
        return self.to_games([self.checked(doc) for doc in docs])

    def canonical(self, doc: Any) -> dict:
        return self.to_doc(self.checked(doc))

    def dump(self, games: GameBatch, index: int) -> dict:
        return self.to_doc(self.from_games(games, index))
