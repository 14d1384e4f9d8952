"""Converting between action ids and their stable names, for the action spaces whose names
are matched case-insensitively as a whole (classic canasta, Turkish kanasta)."""

from __future__ import annotations

from collections.abc import Callable


def name_lookup(names: tuple[str, ...], game: str) -> tuple[Callable[[int], str], Callable[[str], int]]:
    """``(action_name, action_from_name)`` for the action space ``names`` of ``game``: an id to
    its name, and a name (any case, surrounding spaces ignored) to its id; anything else raises
    ``ValueError`` naming the bad value."""
    index = {n.lower(): a for a, n in enumerate(names)}

    def action_name(action: int) -> str:
        """Stable name of an action id, e.g. ``action_name(a) == ACTION_NAMES[a]``."""
        a = int(action)
        if not 0 <= a < len(names):
            raise ValueError(f"action id {action!r} is outside 0..{len(names) - 1}")
        return names[a]

    def action_from_name(name: str) -> int:
        """Action id of a name (case-insensitive), e.g. ``"draw"``."""
        if not isinstance(name, str):
            raise ValueError(f"action name must be a string, got {name!r}")
        a = index.get(name.strip().lower())
        if a is None:
            raise ValueError(f"unknown {game} action name {name!r}")
        return a

    return action_name, action_from_name
