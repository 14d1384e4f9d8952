"""The keys and names of the position format (docs/position.md) and their defaults."""

from __future__ import annotations

from typing import Any

END_NAMES = ("none", "out", "exhausted", "truncated")
PICKUP_NAMES = ("none", "free", "pile")
#: optional rule keys and their defaults (those of :class:`~kanaszta_env.rules.Rules`)
RULE_DEFAULTS: dict[str, Any] = {"opening_schedule": None, "target_score": 10_000, "max_turns": 200,
                                 "episode": "hand", "max_hands": 200}  # fmt: skip
REQUIRED_KEYS = ("variant", "opening_minimum", "num_players", "starter", "to_move", "phase", "stock",
                 "discard", "players")  # fmt: skip
OPTIONAL_KEYS = (*RULE_DEFAULTS, "turn", "hand_number", "rng", "end_reason", "out_player",
                 "stock_known_bottom", "discard_owners", "top_fresh", "cut", "turn_state")  # fmt: skip
PLAYER_REQUIRED = ("hand", "groups", "separate_heart_aces", "red_threes", "twins", "opened",
                   "free_pickup", "total")  # fmt: skip
PLAYER_OPTIONAL = ("red_three_hearts", "red_three_debt", "known", "turns_played", "hand_score")
TURN_STATE_KEYS = ("checkpoint", "locked", "lifted", "lifted_from", "changed", "pickup")
CHECKPOINT_KEYS = ("hand", "groups", "separate_heart_aces")
PICKUP_KEYS = ("kind", "size", "card", "from_hand")

INT32 = 2**31 - 1
#: phases in which the mover's groups may be incomplete
TURN_PHASES = ("meld", "pickup")
#: group index -> card types, sorted
Groups = dict[int, list[int]]
