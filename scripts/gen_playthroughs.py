"""Generate the golden playthroughs in ``tests/playthroughs/``, every game's.

A playthrough is one seeded hand recorded state by state, in the spirit of
OpenSpiel's playthrough files: before every action the position is rendered
as compact text, followed by the sorted legal action names and the action
taken; the file ends with the hand's scores and rewards. Each game says which
hands it records, how it renders them and which seeded policy plays them
(``scripts/playthrough_games/<game>.py``); the recorder is shared
(``scripts/playthrough_games/recorder.py``).

``tests/test_playthroughs.py`` replays each file's actions from its seed and
compares the fresh rendering with the file, so any change of behaviour shows
up as a readable diff. When a change is intended, regenerate with::

    python scripts/gen_playthroughs.py [--game classic] [--check]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the game modules beside this script
from playthrough_games import classic, diszitett, turkish
from playthrough_games.recorder import OUT_DIR, ROOT, record

#: game name -> its playthroughs (``SPECS``, ``RENDERERS``, ``LEGEND``, ``policy``)
GAMES: dict[str, ModuleType] = {"diszitett": diszitett, "classic": classic, "turkish": turkish}


def generate(game: ModuleType, spec) -> str:
    """The playthrough of ``spec`` as the game's policy plays it."""
    return record(spec, game.policy(spec.seed), game.RENDERERS, game.LEGEND)


def main(argv: list[str] | None = None) -> int:
    """Write every playthrough (or, with ``--check``, report the stale ones)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare, do not write")
    parser.add_argument("--game", choices=sorted(GAMES), action="append", help="only this game's")
    args = parser.parse_args(argv)
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    stale = 0
    for name in args.game or GAMES:
        for spec in GAMES[name].SPECS:
            text = generate(GAMES[name], spec)
            old = spec.path.read_text() if spec.path.exists() else None
            stale += old != text
            if not args.check and old != text:
                spec.path.write_text(text)
            status = "unchanged" if old == text else "changed"
            print(f"{spec.path.relative_to(ROOT)}: {text.count(chr(10))} lines, {status}")
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
