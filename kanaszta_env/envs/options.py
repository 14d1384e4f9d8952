"""The keyword options every environment wrapper accepts, checked in one place:
render modes, and opponents given by name, as policies or as agents."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine import GameBatch, RandomPolicy
from ..games import make_named_agent
from ..rules import Rules

#: render modes of every wrapper: a printed table, the table as a string, an RGB image of it
RENDER_MODES = ("human", "ansi", "rgb_array")


def check_render_mode(render_mode: str | None) -> None:
    """``render_mode`` must be ``None`` or one of :data:`RENDER_MODES`."""
    if render_mode not in (None, *RENDER_MODES):
        raise ValueError(f"render_mode must be one of {list(RENDER_MODES)} or None, got {render_mode!r}")


def kwargs_of(arguments: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments of an env's constructor, read from its ``locals()`` on entry, the
    rule fields it passed on to ``Rules`` among them: what ``EzPickle`` rebuilds the env from."""
    own = {k: v for k, v in arguments.items() if k not in ("self", "rules", "rule_kwargs", "__class__")}
    return {**own, **arguments["rule_kwargs"]}


#: who plays the learner's partners by default: the learner himself (shared-policy self-play)
PARTNER_COPY = "copy"


def has_partners(rules: Rules) -> bool:
    """Whether some side holds more than one seat (classic canasta's partnerships)."""
    sides = rules.sides()
    return len(set(sides)) < len(sides)


def learner_seating(rules: Rules, opponents: object, partner: object) -> dict[str, object]:
    """The ``GameBatch`` keywords (``seats``, ``seat_order``) of a single-learner env.

    Without partnerships the seats after the learner are the opponents in turn
    order. With them (classic canasta) the learner's partners are played by
    ``partner`` — ``"copy"`` (default: the learner decides for them too, a
    shared-policy team; its decisions are the learner's steps) or any opponent
    entry (a bot name, a policy, a snapshot checkpoint) — and the other sides'
    seats by ``opponents``.
    """
    if not has_partners(rules):
        if partner != PARTNER_COPY:
            raise ValueError(
                f"{rules.variant!r} with {rules.num_players} players has no partners: drop partner="
            )
        return {"seats": ["external", *opponent_controllers(opponents, rules)], "seat_order": "turn"}
    if partner == PARTNER_COPY:
        mate: object = "external"
    elif isinstance(partner, (list, tuple)):
        raise ValueError(f"partner must be 'copy', a bot name or a policy, got {partner!r}")
    else:
        mate = opponent_controllers(partner, rules, count=1)[0]
    players = rules.num_players
    counts = {sum(1 for t in rules.sides() if t != side) for side in rules.sides()}
    count = counts.pop() if len(counts) == 1 else None  # sk 5 players: 2 or 3 opponents by seat
    if count is None and not (isinstance(opponents, str) or callable(opponents)):
        raise ValueError(
            f"{players} players of {rules.variant!r} face 2 or 3 opponents by seat: give one opponent for all"
        )
    foes = opponent_controllers(opponents, rules, count=count or players - 2)
    seats = ["external", mate, *foes]
    return {"seats": seats + [foes[-1]] * (players - len(seats)), "seat_order": "side"}


def opponent_controllers(opponents: object, rules: Rules, count: int | None = None) -> list[object]:
    """The controllers of ``count`` seats (default: the ``P - 1`` seats after the
    learner, in turn order).

    ``opponents`` is a bot name (``"random"``, ``"greedy"``, ``"heuristic"``,
    ``"search:samples=8"``, a checkpoint path: anything
    :func:`agents.registry.make_agent` takes), a policy ``(obs, mask) ->
    actions``, or a list of either with one entry per seat. Bots named
    here are built with ``rules``; ``"random"`` and :class:`RandomPolicy` play
    inside the compiled step.
    """
    players = rules.num_players
    count = players - 1 if count is None else count
    if isinstance(opponents, str) or callable(opponents):
        entries: Sequence[object] = [opponents] * count
    elif isinstance(opponents, (list, tuple)):
        entries = opponents
    else:
        raise ValueError(f"opponents must be a bot name, a policy or a list of them, got {opponents!r}")
    if len(entries) != count:
        raise ValueError(f"{players} players need {count} opponents, got {len(entries)}")
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
    """A bot of the agents layer by name (:func:`~kanaszta_env.games.make_named_agent`),
    set up for ``rules``."""
    bot = make_named_agent(spec, rules)
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
