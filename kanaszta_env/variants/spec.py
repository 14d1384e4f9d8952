"""The frozen description of one game of the canasta family: :class:`Variant`.

A variant holds every fact the compiled rules read as a constant — the deck,
the deal, the meld family and its sizes, the score tables — so that the rule
kernels name those facts instead of writing Díszített numbers as literals, and
can be compiled once per variant (:mod:`kanaszta_env.engine.kernels`).

Per-game *knobs* a table agrees on before playing (opening minimum, target,
turn limit, episode) stay in :class:`kanaszta_env.rules.Rules`; a ``Rules``
preset names the variant it plays (:attr:`Rules.spec`).
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass

from ..cards import BLACK_THREES, JOKER, NUM_TYPES, RANK_3, card_rank

#: meld families of the package's games (see docs/design.md, "Meld families"); a user's
#: game names its own
MELD_FAMILIES = ("rank_groups", "classic", "turkish")
_LAST_LOW_RANK = 6  # ranks 4-7 are the low cards worth 5, 8-K are worth 10


def card_values(*, joker: int, ace: int, two: int, black_three: int, red_three: int) -> tuple[int, ...]:
    """A :attr:`Variant.card_value` table: the joker, aces, twos and threes worth what is given,
    4 to 7 worth 5 and 8 to K worth 10 (R1.6, C1.6, T1.5)."""

    def value(t: int) -> int:
        if t == JOKER:
            return joker
        rank = card_rank(t)
        if rank == RANK_3:
            return black_three if t in BLACK_THREES else red_three
        return (ace, two)[rank] if rank < RANK_3 else 5 if rank <= _LAST_LOW_RANK else 10

    return tuple(value(t) for t in range(NUM_TYPES))


@dataclass(frozen=True)
class Variant:
    """Compile-time description of a game.

    Card-type tables have one entry per card type (53: the 52 rank-suit pairs
    in ``rank * 4 + suit`` order, then the joker; see :mod:`kanaszta_env.cards`).
    Canasta-kind tables are indexed by the ``CANASTA_*`` codes of the meld
    family (index 0 = not a canasta).
    """

    name: str
    title: str
    rules_page: str  # the game's rules page inside the repository
    # --- cards (R1) ---------------------------------------------------------------
    type_copies: tuple[int, ...]  # copies of each card type in the deck
    card_value: tuple[int, ...]  # value of a card of each type laid in a group (R1.6, R16.4)
    hand_penalty: tuple[int, ...]  # what a card of each type left in hand costs (R16.4)
    # --- players and deal (R2, R3) -----------------------------------------------------
    player_counts: tuple[int, ...]  # numbers of players the game is defined for
    partnerships: bool  # False: every seat is its own side
    cut_cards: int  # cards the starter turns up and keeps or leaves (R3)
    deal_starter: int  # cards dealt to the starter, kept cut cards included (R3.2)
    deal_others: int  # cards dealt to every other player (R3.2)
    # --- melds (R10, R11) ---------------------------------------------------------------
    meld_family: str  # how melds are stored and built: one of MELD_FAMILIES, or a user's game's own
    # module exporting the rule set's entry points (core/ruleset.py): ``games.<game>.kernels.rule_set``
    # inside this package, or an absolute module path outside it (a user's game, ``outside_package``)
    rule_set: str
    min_meld: int  # smallest legal group (R10.1)
    max_natural_group: int  # largest natural group (R10.2)
    max_wild_group: int  # largest wilds-only group (R10.3)
    canasta_size: int  # cards that make a canasta (R11)
    canasta_bonus: tuple[int, ...]  # base score of each canasta kind (R11, R16.1)
    wild_group_card_opening: int  # what each card of a wilds-only group counts in an opening (R12.3)
    # --- score (R16, R17) ---------------------------------------------------------------
    red_three_each: int  # one to three red threes, each (R16.3)
    all_red_threes: int  # all four red threes (R16.3)
    twin: int  # each twin (R6, R16.3)
    going_out: int  # going out (R16.3)
    from_hand: int  # extra for going out from hand (R16.3)
    table_clearing: int  # extra for clearing the table from hand with a big pile (R16.3)
    table_clearing_pile: int  # pile size that makes a pickup "big" for table clearing
    separate_heart_ace: int  # each separate heart ace (R10.6, R16.3)
    tax_brackets: tuple[int, int, int]  # totals from which a score is halved, quartered, cut to a tenth (R17)

    def __post_init__(self) -> None:
        for name in ("type_copies", "card_value", "hand_penalty"):
            table = getattr(self, name)
            if len(table) != NUM_TYPES:
                raise ValueError(f"variant {self.name!r}: {name} needs {NUM_TYPES} entries, got {len(table)}")
        if any(c < 0 for c in self.type_copies) or sum(self.type_copies) == 0:
            raise ValueError(f"variant {self.name!r}: type_copies must be non-negative and not all zero")
        if not isinstance(self.meld_family, str) or not self.meld_family.isidentifier():
            raise ValueError(f"variant {self.name!r}: meld_family {self.meld_family!r} is not a name")
        if len(self.rule_set.split(".")) < 3 or not all(p.isidentifier() for p in self.rule_set.split(".")):
            raise ValueError(f"variant {self.name!r}: rule_set must name <package>.kernels.<module>")
        if not 0 < self.min_meld <= self.canasta_size <= self.max_natural_group:
            raise ValueError(
                f"variant {self.name!r}: needs 0 < min_meld <= canasta_size <= max_natural_group"
            )
        if self.cut_cards < 0 or self.deal_starter < self.cut_cards or self.deal_others < 1:
            raise ValueError(f"variant {self.name!r}: deal sizes are inconsistent")
        most = max(self.player_counts)
        dealt = self.deal_starter + (most - 1) * self.deal_others
        if dealt >= self.deck_size:
            raise ValueError(f"variant {self.name!r}: a deal to {most} players leaves no stock")
        if len(self.tax_brackets) != 3 or list(self.tax_brackets) != sorted(self.tax_brackets):
            raise ValueError(f"variant {self.name!r}: tax_brackets must be three increasing totals (R17)")

    @property
    def outside_package(self) -> str | None:
        """The top-level package of a rule set outside ``kanaszta_env`` (a user's game, e.g.
        ``mygame`` of ``mygame.kernels.rule_set``); ``None`` for a game of this package."""
        top = self.rule_set.split(".")[0]
        return None if top == "games" else top

    @property
    def deck_size(self) -> int:
        """Cards in the deck."""
        return sum(self.type_copies)

    def sides(self, players: int) -> tuple[int, ...]:
        """Side of every seat for ``players`` players (seat → side)."""
        if players not in self.player_counts:
            raise ValueError(f"{self.title} is played by {self.player_counts} players, not {players}")
        if self.partnerships and players % 2 == 0 and players > 2:
            return tuple(seat % 2 for seat in range(players))
        return tuple(range(players))

    @property
    def fingerprint(self) -> str:
        """A short hash of every field: the key of the variant's compiled kernels."""
        return hashlib.sha1(repr(sorted(asdict(self).items())).encode()).hexdigest()[:12]
