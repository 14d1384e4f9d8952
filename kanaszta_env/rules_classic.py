"""The configuration keys of classic canasta (docs/rules/classic.md, C0) and
their place in the kernels' config vector.

Every difference between the presets ``pl`` and ``sk`` is a
:class:`~kanaszta_env.rules.Rules` field whose default (``None``) means "the
preset's value"; :func:`resolve_classic` fills them in and checks them.
"""

from __future__ import annotations

from typing import Any

from .core.config import CFG_GAME, CFG_SIDE_OF, CFG_SIDES, CFG_SIZE, MAX_SEATS
from .variants.classic import CLASSIC

#: C1.1: decks shuffled together, by number of players
DECKS = {2: 2, 3: 2, 4: 2, 5: 2, 6: 3}
#: C3.1: cards dealt to each active player, by number of players
DEAL = {2: 15, 3: 13, 4: 11, 5: 11, 6: 13}


def deck_cards(players: int) -> int:
    """Cards in the game of ``players`` (C1.1): 108, or 162 with six."""
    return CLASSIC.deck_size * DECKS[players] // max(DECKS.values())


#: C0: every key with its value in each preset
CLASSIC_PRESETS: dict[str, dict[str, Any]] = {
    "pl": {
        "six_player_sides": "2x3",  # unused: pl has no 6-player game
        "red_three_draw_replaced": False,  # C4.2
        "opening_scope": "table",  # C11.1
        "canasta_counts_for_opening": False,  # C11.3
        "wild_freeze": "top",  # C8.2
        "pile_meld_same_turn": True,  # C7.6
        "wild_canastas": False,  # C5.6
        "black_three_meld": "going_out",  # C10.2
        "black_three_in_hand": -100,  # C10.4
        "red_threes_partial_penalty": False,  # C9.4
        "go_out_by_meld": True,  # C12.1
        "going_out_bonus": 100,  # C13.3
        "from_hand": 200,  # C13.3: instead of the 100
        "from_hand_scope": "table",  # C13.3
        "partner_permission": True,  # C12.5
        "canastaless_melds_negative": False,  # C13.4
        "exhaustion_penalty": 0,  # C13.6
        "target_strict": True,  # C14.2: more than the target
        "free_upcard": False,  # C4.4
    },
    "sk": {
        "six_player_sides": "2x3",  # C2.5
        "red_three_draw_replaced": True,
        "opening_scope": "side",
        "canasta_counts_for_opening": True,
        "wild_freeze": "pile",
        "pile_meld_same_turn": False,
        "wild_canastas": True,
        "black_three_meld": "never",
        "black_three_in_hand": -100,
        "red_threes_partial_penalty": True,
        "go_out_by_meld": False,
        "going_out_bonus": 100,
        "from_hand": 1000,  # C13.3: on top of the 100
        "from_hand_scope": "meld",  # sk: a new meld of 7+ cards from his hand
        "partner_permission": False,
        "canastaless_melds_negative": False,
        "exhaustion_penalty": 100,
        "target_strict": False,
        "free_upcard": False,
    },
}
CLASSIC_KEYS = tuple(CLASSIC_PRESETS["pl"])
#: C11.2 (sk, reconstructed): (lowest side total, minimum) in ascending order
SK_SCHEDULE = ((-1_000_000, 15), (0, 50), (1500, 90), (3000, 120), (5000, 150))
PL_OPENING = 80
#: each preset's settings (:attr:`Game.presets`): its players (C2), its C0 keys, the scopes of
#: the from-hand bonus it counts (C13.3) and its opening schedule (C11.2; None: a fixed minimum)
PRESET_SETTINGS = {
    "pl": {"players": (2, 3, 4), "keys": CLASSIC_PRESETS["pl"], "from_hand_scopes": ("table", "player"),
           "opening_schedule": None},
    "sk": {"players": (2, 3, 4, 5, 6), "keys": CLASSIC_PRESETS["sk"], "from_hand_scopes": ("meld",),
           "opening_schedule": SK_SCHEDULE},
}  # fmt: skip

_CHOICES: dict[str, tuple[Any, ...]] = {
    "six_player_sides": ("2x3", "3x2"),
    "opening_scope": ("table", "side"),
    "wild_freeze": ("top", "pile"),
    "black_three_meld": ("going_out", "never"),
    "black_three_in_hand": (-100, -5),
    "going_out_bonus": (100, 200),
    "from_hand": (0, 200, 500, 1000),
    "from_hand_scope": ("table", "player", "meld"),
    "exhaustion_penalty": (0, 100),
}

# positions of the classic keys in the config vector (a game's part, core/config.py CFG_GAME)
CC_BASE = CFG_GAME
CC_DECKS = CC_BASE + 0  # 2 (108 cards) or 3 (162 cards)
CC_DEAL = CC_BASE + 1  # cards dealt to each active player
CC_SIDES = CFG_SIDES  # the shared sides (number, then side of each seat)
CC_SIDE_OF = CFG_SIDE_OF
CC_FIVE = CC_SIDE_OF + MAX_SEATS  # 1: five players, a trio member sits out each hand
CC_RED_REPLACED = CC_FIVE + 1
CC_TABLE_OPENING = CC_RED_REPLACED + 1
CC_CANASTA_OPENING = CC_TABLE_OPENING + 1
CC_PILE_FREEZE = CC_CANASTA_OPENING + 1
CC_PILE_SAME_TURN = CC_PILE_FREEZE + 1
CC_WILD_CANASTAS = CC_PILE_SAME_TURN + 1
CC_BLACK_MELD = CC_WILD_CANASTAS + 1
CC_BLACK_IN_HAND = CC_BLACK_MELD + 1  # positive: what a black three in hand costs
CC_RED_PARTIAL = CC_BLACK_IN_HAND + 1
CC_GO_OUT_BY_MELD = CC_RED_PARTIAL + 1
CC_GOING_OUT = CC_GO_OUT_BY_MELD + 1
CC_FROM_HAND = CC_GOING_OUT + 1
# CC_FROM_HAND_SCOPE: 0 table (pl, instead of going out), 1 player (pl), 2 meld (sk, on top)
CC_FROM_HAND_SCOPE = CC_FROM_HAND + 1
CC_PERMISSION = CC_FROM_HAND_SCOPE + 1
CC_MELDS_NEGATIVE = CC_PERMISSION + 1
CC_EXHAUSTION = CC_MELDS_NEGATIVE + 1
CC_TARGET_STRICT = CC_EXHAUSTION + 1
CC_FREE_UPCARD = CC_TARGET_STRICT + 1
CC_END = CC_FREE_UPCARD + 1
assert CC_DEAL < CC_SIDES and CC_END <= CFG_SIZE


def resolve_classic(preset: str, settings: Any, given: dict[str, Any], players: int) -> dict[str, Any]:
    """The classic keys of ``preset`` (its ``settings``) with the ``given`` (non-None) values, checked."""
    if players not in settings["players"]:
        allowed = tuple(settings["players"])
        raise ValueError(f"num_players must be one of {allowed} for classic preset {preset!r}, got {players}")
    out = dict(settings["keys"])
    for key, value in given.items():
        if value is None:
            continue
        choices = _CHOICES.get(key)
        if choices is None:
            if not isinstance(value, bool):
                raise ValueError(f"{key} must be True or False, got {value!r}")
        elif isinstance(value, bool) or value not in choices:
            raise ValueError(f"{key} must be one of {choices}, got {value!r}")
        out[key] = value
    scopes = settings["from_hand_scopes"]
    if out["from_hand_scope"] not in scopes:
        raise ValueError(
            f"from_hand_scope {out['from_hand_scope']!r} is not a {preset} rule: {preset} counts "
            + " or ".join(repr(s) for s in scopes)
        )
    return out


def side_of_seats(players: int, keys: dict[str, Any]) -> tuple[int, ...]:
    """Side of every seat (C2): partners sit opposite; a lone player is his own side."""
    if players == 4:
        return tuple(seat % 2 for seat in range(4))
    if players == 5:  # C2.4: the trio (seats 0, 2, 4) against the pair (1, 3)
        return (0, 1, 0, 1, 0)
    if players == 6:
        width = 2 if keys["six_player_sides"] == "2x3" else 3
        return tuple(seat % width for seat in range(6))
    return tuple(range(players))


def write_classic_config(cfg, preset: str, keys: dict[str, Any], players: int) -> None:
    """Fill the classic part of the config vector ``cfg``."""
    sides = side_of_seats(players, keys)
    cfg[CC_DECKS] = DECKS[players]
    cfg[CC_DEAL] = DEAL[players]
    cfg[CC_SIDES] = max(sides) + 1
    for seat in range(6):
        cfg[CC_SIDE_OF + seat] = sides[seat] if seat < players else -1
    cfg[CC_FIVE] = int(players == 5)
    cfg[CC_RED_REPLACED] = int(keys["red_three_draw_replaced"])
    cfg[CC_TABLE_OPENING] = int(keys["opening_scope"] == "table")
    cfg[CC_CANASTA_OPENING] = int(keys["canasta_counts_for_opening"])
    cfg[CC_PILE_FREEZE] = int(keys["wild_freeze"] == "pile")
    cfg[CC_PILE_SAME_TURN] = int(keys["pile_meld_same_turn"])
    cfg[CC_WILD_CANASTAS] = int(keys["wild_canastas"])
    cfg[CC_BLACK_MELD] = int(keys["black_three_meld"] == "going_out")
    cfg[CC_BLACK_IN_HAND] = -keys["black_three_in_hand"]
    cfg[CC_RED_PARTIAL] = int(keys["red_threes_partial_penalty"])
    cfg[CC_GO_OUT_BY_MELD] = int(keys["go_out_by_meld"])
    cfg[CC_GOING_OUT] = keys["going_out_bonus"]
    cfg[CC_FROM_HAND] = keys["from_hand"]
    cfg[CC_FROM_HAND_SCOPE] = ("table", "player", "meld").index(keys["from_hand_scope"])
    cfg[CC_PERMISSION] = int(keys["partner_permission"] and players == 4)
    cfg[CC_MELDS_NEGATIVE] = int(keys["canastaless_melds_negative"])
    cfg[CC_EXHAUSTION] = keys["exhaustion_penalty"]
    cfg[CC_TARGET_STRICT] = int(keys["target_strict"])
    cfg[CC_FREE_UPCARD] = int(keys["free_upcard"])
