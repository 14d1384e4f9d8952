"""Generate the pages of ``docs/`` that are built from the code: each game's action space
and observation layout (``scripts/docs_pages/<game>.py``), so they cannot drift from it;
``tests/test_docs.py`` checks that the committed pages equal this output.

    python scripts/gen_docs.py            # write the stale pages
    python scripts/gen_docs.py --check    # only compare (exit 1 if one is stale)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the page modules beside this script
from docs_pages import classic, diszitett, turkish

from kanaszta_env.games import all_games

ROOT = Path(__file__).resolve().parent.parent
#: game name -> its pages (path, renderer)
PAGES: dict[str, tuple[tuple[Path, Callable[[], str]], ...]] = {
    "diszitett": diszitett.PAGES,
    "classic": classic.PAGES,
    "turkish": turkish.PAGES,
}


def main(argv: list[str] | None = None) -> int:
    """Write the stale pages (or, with ``--check``, fail if one is stale)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare, do not write")
    parser.add_argument("--game", choices=sorted(PAGES), action="append", help="only this game's pages")
    args = parser.parse_args(argv)
    missing = [g.name for g in all_games() if g.name not in PAGES]
    if missing:
        print(f"no generated pages for {missing}: add scripts/docs_pages/<game>.py", file=sys.stderr)
    stale = 0
    for game in args.game or PAGES:
        for path, render in PAGES[game]:
            text = render()
            current = path.read_text() if path.exists() else None
            if args.check:
                stale += current != text
                print(f"{path.relative_to(ROOT)}: {'up to date' if current == text else 'stale'}")
            elif current != text:
                path.write_text(text)
                print(f"{path.relative_to(ROOT)}: written")
    return int(stale > 0)


if __name__ == "__main__":
    sys.exit(main())
