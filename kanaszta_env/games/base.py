"""The :class:`Game` interface: what every layer above the kernels asks a game.

A game (Díszített kanaszta, classic canasta, Turkish kanasta, or a user's own)
is one object. Its spec (:class:`~kanaszta_env.variants.Variant`) holds the
numbers the compiled kernels read; the object adds what the Python layers
need: its presets and their options, the side of every seat, the kernels'
config vector, its action names, its observation pieces, its position codec,
its table as JSON (also drawn as text, :mod:`.text_table`) and what it can do
(:data:`CAPABILITIES`). Envs, the CLI, the web app, training and the tools ask the
game; nothing outside a game's own modules branches on which game it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from ..core.config import CFG_SIDE_OF, CFG_SIDES, MAX_SEATS

if TYPE_CHECKING:  # the layers above import the games, never the reverse at import time
    import numpy as np

    from ..rules import Rules
    from ..variants import Variant

#: what a game may offer beyond the rules and the envs every game has:
#: ``views`` structured seat views and the compiled bots built on them;
#: ``rank_melds`` the VecEnv's one-action-per-meld layer; ``training`` the
#: learner's shaping and features; ``webapp`` a table in ``kanaszta serve`` (the picture hooks)
CAPABILITIES = ("views", "rank_melds", "training", "webapp")


#: how a hand ended (``state.end_reason``, the ``END_*`` codes of core/common.py), in words
class Game:
    """One game of the canasta family, as the Python layers see it.

    Subclasses set the class attributes and implement the hooks; one instance
    per game is registered with :func:`kanaszta_env.games.register_game`.
    """

    #: registry key, also the spec's name
    name: ClassVar[str]
    #: preset name -> its settings: ``players`` (accepted counts), ``default_players``,
    #: optionally ``table_players`` (the CLI's and web app's table when none is asked for),
    #: ``random_starter`` (the first hand's starter drawn from the seed; default seat 0)
    #: and ``spec`` (a variant of the game's spec, e.g. a user's, :func:`register_preset`),
    #: and the game's own keys (read by the game's hooks only)
    presets: ClassVar[Mapping[str, Mapping[str, Any]]]
    #: the game's own :class:`~kanaszta_env.rules.Rules` fields (``None`` = the preset's value)
    options: ClassVar[tuple[str, ...]] = ()
    #: members of :data:`CAPABILITIES` this game offers
    capabilities: ClassVar[frozenset[str]] = frozenset()
    #: the turn-limit's meaning etc. are shared; these are the game's defaults
    default_target: ClassVar[int]
    #: the opening minimum of a ``Rules`` that gives none (``None``: the game sets it itself)
    default_opening: ClassVar[int | None] = None

    def __init__(self) -> None:
        unknown = set(self.capabilities) - set(CAPABILITIES)
        if unknown:
            raise ValueError(f"game {self.name!r}: unknown capabilities {sorted(unknown)}")
        self.presets = MappingProxyType({k: MappingProxyType(dict(v)) for k, v in self.presets.items()})

    def __repr__(self) -> str:
        return f"<Game {self.name}: {', '.join(self.presets)}>"

    # --- facts ----------------------------------------------------------------------------
    @property
    def spec(self) -> Variant:
        """The compile-time spec: deck, deal, melds and score tables."""
        raise NotImplementedError

    @property
    def title(self) -> str:
        """The game's name for people, e.g. ``"Classic canasta"``."""
        return self.spec.title

    @property
    def partnerships(self) -> bool:
        """Whether partners may share melds and score."""
        return self.spec.partnerships

    def has(self, capability: str) -> bool:
        """Whether the game offers ``capability`` (one of :data:`CAPABILITIES`)."""
        if capability not in CAPABILITIES:
            raise ValueError(f"unknown capability {capability!r}: one of {CAPABILITIES}")
        return capability in self.capabilities

    def spec_of(self, preset: str) -> Variant:
        """The compile-time spec ``preset`` plays: its own, or the game's."""
        return self.presets[preset].get("spec", self.spec)

    def add_preset(self, name: str, settings: Mapping[str, Any]) -> None:
        """Add the preset ``name`` (:func:`kanaszta_env.games.register_preset` checks it)."""
        self.presets = MappingProxyType({**self.presets, name: MappingProxyType(dict(settings))})

    def player_counts(self, preset: str) -> tuple[int, ...]:
        """The numbers of players ``preset`` is played by."""
        return tuple(self.presets[preset]["players"])

    # --- rules: defaults, checks, config --------------------------------------------------
    def defaults(self, rules: Rules) -> dict[str, Any]:
        """Values for the shared ``Rules`` fields left ``None`` (players, opening, target, starter),
        and refusals of fields the game fixes. Returns field -> value."""
        preset = self.presets[rules.variant]
        out: dict[str, Any] = {}
        if rules.num_players is None:
            out["num_players"] = preset["default_players"]
        if rules.target_score is None:
            out["target_score"] = self.default_target
        if rules.random_starter is None:
            out["random_starter"] = preset.get("random_starter", False)
        if rules.opening_minimum is None and self.default_opening is not None:
            out["opening_minimum"] = self.default_opening
        return out

    def validate(self, rules: Rules) -> dict[str, Any]:
        """Check the game's fields of ``rules`` (already defaulted); returns the game's own
        option values resolved (field -> value). Raises ``ValueError`` naming the field."""
        raise NotImplementedError

    def check_schedule_minimum(self, minimum: int) -> None:
        """Raise ``ValueError`` if ``minimum`` may not appear in an opening schedule."""
        raise NotImplementedError

    def sides(self, rules: Rules) -> tuple[int, ...]:
        """Side of every seat (partners share one)."""
        return self.spec.sides(rules.num_players)

    def write_config(self, rules: Rules, cfg: np.ndarray) -> None:
        """Fill the game's part of the kernels' config vector (after the shared ``CFG_*``):
        by default the sides, which the side-aware parts of the engine read."""
        sides = self.sides(rules)
        if len(sides) > MAX_SEATS:  # the config vector holds the sides of MAX_SEATS seats
            raise ValueError(f"{self.title}: at most {MAX_SEATS} players, got {len(sides)}")
        cfg[CFG_SIDES] = max(sides) + 1
        cfg[CFG_SIDE_OF : CFG_SIDE_OF + len(sides)] = sides

    def preset_setting(self, rules: Rules, key: str, default: Any = None) -> Any:
        """A setting of the preset ``rules`` play (e.g. Díszített's ``heart_aces``)."""
        return self.presets[rules.variant].get(key, default)

    # --- what the layers above read --------------------------------------------------------
    def action_names(self, rules: Rules) -> tuple[str, ...]:
        """The stable names of every action id."""
        raise NotImplementedError

    def observation_pieces(self, rules: Rules, piece: type) -> tuple:
        """The named pieces of the observation vector, in order (built with ``piece``)."""
        raise NotImplementedError

    def render_table(self, state: Any, rules: Rules, game: int, names: list[str], viewer: int | None) -> str:
        """Game ``game`` of a batch state as text: its :meth:`table_picture` drawn by
        :func:`~kanaszta_env.games.text_table.table_text` (``viewer``: hide the other hands)."""
        from .text_table import table_text

        return table_text(self.table_picture(state, rules, game, names, viewer))

    def table_picture(
        self, state: Any, rules: Rules, game: int, names: list[str], viewer: int | None
    ) -> dict[str, Any]:
        """Game ``game`` of a batch state as the web app's JSON (capability ``webapp``; keys in
        docs/webapp.md): seats, sides and their melds, extras, pile and stock, and ``notes``
        for the rest. With a ``viewer`` seat the other hands are their sizes and publicly
        known cards only, until the hand is over."""
        return self.pictures()[0](state, rules, game, names, viewer)

    def move_picture(self, state: Any, rules: Rules, game: int, legal: np.ndarray) -> dict[str, Any]:
        """The legal actions of mask row ``legal`` by what the web app's page clicks (capability
        ``webapp``; docs/webapp.md): ``cards`` (hand card -> ``[{"action", "to": meld id}]``),
        ``melds`` (meld id -> ``[{"action", "label"}]``), ``discard`` (hand card -> action) and
        ``buttons`` (the other actions)."""
        return self.pictures()[1](state, rules, game, legal)

    def pictures(self) -> tuple[Callable, Callable]:
        """The functions behind :meth:`table_picture` and :meth:`move_picture`, taking the same
        arguments (a game's ``picture`` module, imported when first asked: it reads the rules)."""
        raise NotImplementedError

    @property
    def position(self) -> Any:
        """The position codec: a module with ``load``, ``load_batch``, ``canonical``, ``dump``."""
        raise NotImplementedError
