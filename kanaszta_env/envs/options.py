"""The keyword options every environment wrapper accepts, checked in one place:
render modes, and opponents given by name, as policies or as agents."""

from __future__ import annotations

import importlib
from collections.abc import Sequence

from ..engine import GameBatch, RandomPolicy
from ..rules import Rules

#: render modes of every wrapper: a printed table, the table as a string, an RGB image of it
RENDER_MODES = ("human", "ansi", "rgb_array")


def check_render_mode(render_mode: str | None) -> None:
    """``render_mode`` must be ``None`` or one of :data:`RENDER_MODES`."""
    if render_mode not in (None, *RENDER_MODES):
        raise ValueError(f"render_mode must be one of {list(RENDER_MODES)} or None, got {render_mode!r}")


def opponent_controllers(opponents: object, rules: Rules) -> list[object]:
    """The controllers of the ``P - 1`` seats after the learner, in turn order.

    ``opponents`` is a bot name (``"random"``, ``"greedy"``, ``"heuristic"``,
    ``"search:samples=8"``, a checkpoint path: anything
    :func:`agents.registry.make_agent` takes), a policy ``(obs, mask) ->
    actions``, or a list of either with one entry per other seat. Bots named
    here are built with ``rules``; ``"random"`` and :class:`RandomPolicy` play
    inside the compiled step.
    """
    players = rules.num_players
    if isinstance(opponents, str) or callable(opponents):
        entries: Sequence[object] = [opponents] * (players - 1)
    elif isinstance(opponents, (list, tuple)):
        entries = opponents
    else:
        raise ValueError(f"opponents must be a bot name, a policy or a list of them, got {opponents!r}")
    if len(entries) != players - 1:
        raise ValueError(f"{players} players need {players - 1} opponents, got {len(entries)}")
    built: dict[str, object] = {}
    out: list[object] = []
    for entry in entries:
        if isinstance(entry, RandomPolicy) or entry == "random":
            out.append("random")
        elif isinstance(entry, str):
            if entry not in built:
                built[entry] = _bot(entry, rules)
            out.append(built[entry])
        elif callable(entry):
            setup = getattr(entry, "setup", None)
            if callable(setup) and getattr(entry, "rules", None) != rules:
                setup(rules)  # an agent set up for other rules would misread the observations
            out.append(entry)
        else:
            raise ValueError(
                f"an opponent must be a bot name or a policy (obs, mask) -> actions, got {entry!r}"
            )
    return out


def _bot(spec: str, rules: Rules) -> object:
    """A bot of the ``agents`` package by name, set up for ``rules``."""
    try:
        registry = importlib.import_module("agents.registry")
    except ImportError as error:  # pragma: no cover - agents ship with the package
        raise ValueError(f"opponents by name need the agents package: {error}") from None
    bot = registry.make_agent(spec, rules)
    bot.setup(rules)
    return bot


def load_position(doc: object, rules: Rules) -> GameBatch:
    """The game of a position document (``reset(options={"position": doc})``),
    which must be of the env's rules and not over."""
    from .. import position  # positions are an optional entry point

    loaded = position.load(doc)  # type: ignore[arg-type]
    if loaded.rules != rules:
        raise ValueError(f"the position's rules {loaded.rules} differ from the env's {rules}")
    if loaded.done[0]:
        raise ValueError("the position is over: there is nothing to play")
    return loaded
