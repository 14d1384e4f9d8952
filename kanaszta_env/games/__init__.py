"""The registry of games and of agents by name.

``get_game("classic")`` is the :class:`~.base.Game` of classic canasta;
``game_of_preset("pl")`` the game a preset plays; :func:`preset_names` every
preset of every registered game, in registration order. A user's game (or a
test's) is added with :func:`register_game`, a user's variant of a game with
:func:`register_preset`; either is then accepted by ``Rules(variant=<its preset>)``
and everything built on it.

Agents by name (``"heuristic"``, ``"search:samples=8"``) live one layer up, in
the ``agents`` package; :func:`make_named_agent` reaches them through the
factory that package installs (:func:`set_agent_factory`), found through the
``kanaszta_env.agents`` entry point when nothing has installed one yet. So the
envs take bot names without importing the layer above them.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any

from ..variants import Variant, register_variant
from .base import CAPABILITIES, Game
from .classic import CLASSIC_GAME
from .diszitett import DISZITETT_GAME
from .turkish import TURKISH_GAME

_GAMES: dict[str, Game] = {}
_PRESETS: dict[str, Game] = {}
_AGENT_FACTORY: list[Callable[..., Any]] = []
#: the entry-point group through which the agents layer offers its factory
AGENT_ENTRY_POINTS = "kanaszta_env.agents"


def register_game(game: Game) -> Game:
    """Add ``game`` and its presets (names must be new, or already this game's)."""
    if not isinstance(game, Game):
        raise TypeError(f"expected a Game, got {type(game).__name__}")
    known = _GAMES.get(game.name)
    if known is not None and known is not game:
        raise ValueError(f"a different game is already registered as {game.name!r}")
    for preset in game.presets:
        owner = _PRESETS.get(preset)
        if owner is not None and owner is not game:
            raise ValueError(f"preset {preset!r} already belongs to {owner.title}")
    _GAMES[game.name] = game
    for preset in game.presets:
        _PRESETS[preset] = game
    return game


def register_preset(name: str, *, like: str, spec: Variant | None = None, **settings: Any) -> str:
    """Add the preset ``name``: the game of the preset ``like`` with its settings, changed by
    ``settings`` (e.g. ``players=(2, 4)``, Díszített's ``heart_aces``) and, with ``spec``, a
    variant of its compile-time spec (e.g. ``dataclasses.replace(CLASSIC, name=...,
    canasta_bonus=...)``: other score tables, card values, deal or meld sizes, compiled for
    it; the deck, the seats and the rule set stay the game's).
    ``Rules(variant=name)`` then plays it in every env, bot, tournament and position."""
    game = game_of_preset(like)
    if not isinstance(name, str) or not name:
        raise ValueError(f"a preset's name must be a non-empty string, got {name!r}")
    if name in _PRESETS:
        raise ValueError(f"preset {name!r} already belongs to {_PRESETS[name].title}")
    merged = {**game.presets[like], **settings}
    base = game.spec_of(like)
    if spec is not None:
        if not isinstance(spec, Variant):
            raise TypeError(f"spec must be a Variant, got {type(spec).__name__}")
        kept = ("rule_set", "meld_family", "type_copies", "player_counts", "partnerships")
        changed = [k for k in kept if getattr(spec, k) != getattr(base, k)]
        if changed:  # the layouts of observations and positions follow the game's deck and seats
            raise ValueError(f"spec {spec.name!r} must keep {game.title}'s {', '.join(changed)}")
        register_variant(spec)
        merged["spec"] = spec
    players = tuple(merged["players"])
    allowed = merged.get("spec", base).player_counts
    if not players or any(p not in allowed for p in players) or merged["default_players"] not in players:
        raise ValueError(f"players {players} (default {merged['default_players']}) must be among {allowed}")
    game.add_preset(name, merged)
    _PRESETS[name] = game
    return name


def get_game(name: str) -> Game:
    """The registered game called ``name``."""
    try:
        return _GAMES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown game {name!r}: choose one of {sorted(_GAMES)}") from None


def game_of_preset(preset: object) -> Game:
    """The game the preset ``preset`` plays; ``ValueError`` naming the presets otherwise."""
    game = _PRESETS.get(preset) if isinstance(preset, str) else None
    if game is None:
        raise ValueError(f"unknown variant {preset!r}: choose one of {sorted(_PRESETS)}")
    return game


def all_games() -> tuple[Game, ...]:
    """Every registered game, in registration order."""
    return tuple(_GAMES.values())


def preset_names() -> tuple[str, ...]:
    """Every preset of every registered game, in registration order."""
    return tuple(_PRESETS)


def set_agent_factory(factory: Callable[..., Any]) -> None:
    """Install ``factory(spec, rules, seed=0) -> agent``, the resolver of agent names."""
    _AGENT_FACTORY[:] = [factory]


def make_named_agent(spec: str, rules: Any, seed: int = 0) -> Any:
    """The agent called ``spec`` for ``rules``, from the installed agents layer."""
    if not _AGENT_FACTORY:
        for point in entry_points(group=AGENT_ENTRY_POINTS):
            point.load()  # importing the agents layer installs its factory
    if not _AGENT_FACTORY:
        raise ValueError(f"agent {spec!r} needs the agents package, which is not installed")
    return _AGENT_FACTORY[0](spec, rules, seed=seed)


for _game in (DISZITETT_GAME, CLASSIC_GAME, TURKISH_GAME):
    register_game(_game)

__all__ = [
    "CAPABILITIES",
    "Game",
    "all_games",
    "game_of_preset",
    "get_game",
    "make_named_agent",
    "preset_names",
    "register_game",
    "register_preset",
    "set_agent_factory",
]
