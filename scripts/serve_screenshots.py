"""Screenshots of ``kanaszta serve`` for the README and docs/, taken in headless Chromium.

    python scripts/serve_screenshots.py            # writes docs/images/serve-*.png

Needs the web and test extras and the system's Chromium (Debian: ``apt-get
install chromium chromium-driver``). The games are dealt from fixed seeds, so
the pictures are the same on every run.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agents.registry import make_agent  # noqa: E402
from agents.watch import Show, watch  # noqa: E402
from kanaszta_env import Rules  # noqa: E402
from webapp.app import create_app  # noqa: E402
from webapp.browser import click_and_wait, css, headless_chromium, play_one_move, running_server, wait_for  # noqa: E402


def _record(folder: Path) -> None:
    """A hand of two bots, saved as a record to replay."""
    rules = Rules(num_players=3)
    agents = [make_agent(name, rules, seed=q) for q, name in enumerate(("heuristic", "greedy", "heuristic"))]
    with open("/dev/null", "w") as sink:
        watch(agents, rules, seed=11, show=Show(sink)).save(folder / "bots.json")


def _select(driver, element_id: str, value: str) -> None:
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element("id", element_id)).select_by_value(value)


def _start(driver, url: str, tab: str, game: str, agents: list[str], seed: int) -> None:
    """A new game of ``game`` on the ``tab`` ("play" or "watch") with these bots, dealt from ``seed``."""
    driver.get(url)
    wait_for(driver, lambda d: css(d, "#play-opponent-0 option"))
    css(driver, f".tab[data-tab={tab}]")[0].click()
    _select(driver, f"{tab}-game", game)
    prefix = "play-opponent" if tab == "play" else "watch-agent"
    wait_for(driver, lambda d: len(css(d, f"#{prefix}-{len(agents) - 1}")) == 1)
    for i, name in enumerate(agents):
        _select(driver, f"{prefix}-{i}", name)
    driver.find_element("id", f"{tab}-seed").send_keys(str(seed))
    click_and_wait(driver, driver.find_element("id", f"start-{tab}"), timeout=300)  # a first compile


def _partnerships(driver, url: str, out: Path) -> list[Path]:
    """Classic canasta played from seat 0 and Turkish kanasta watched with every hand open."""
    _start(driver, url, "play", "pl", ["heuristic"] * 3, 4)
    for _ in range(16):  # a few turns: the melds of both sides on the table
        play_one_move(driver)
    for button in css(driver, "#buttons button[data-action=draw]"):  # into the meld phase
        click_and_wait(driver, button)
    driver.save_screenshot(str(out / "serve-classic.png"))
    _start(driver, url, "watch", "tr", ["heuristic"] * 4, 3)
    for _ in range(48):
        click_and_wait(driver, driver.find_element("id", "v-fwd-turn"), timeout=300)
    driver.save_screenshot(str(out / "serve-turkish.png"))
    return [out / "serve-classic.png", out / "serve-turkish.png"]


def shoot(out: Path) -> list[Path]:
    """Play, score and replay a hand in the browser, and show a table of each partnership
    game; save five screenshots in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with tempfile.TemporaryDirectory() as tmp, headless_chromium(1400, 900) as driver:
        _record(Path(tmp))
        with running_server(create_app(records_dir=tmp)) as url:
            driver.get(url)
            wait_for(driver, lambda d: css(d, "#play-opponent-0 option"))
            _select(driver, "play-players", "3")
            for i in range(2):
                _select(driver, f"play-opponent-{i}", "heuristic")
            driver.find_element("id", "play-seed").send_keys("5")
            driver.find_element("id", "play-max-turns").clear()
            driver.find_element("id", "play-max-turns").send_keys("24")
            click_and_wait(driver, driver.find_element("id", "start-play"))
            for _ in range(14):  # a few turns: the bots lay their melds meanwhile
                play_one_move(driver)
            for button in css(driver, "#buttons button[data-action=draw]"):  # into the meld phase
                click_and_wait(driver, button)
            indices = [c.get_attribute("data-index") for c in css(driver, "#mine .hand .card.playable")]
            for index in indices[:2]:  # two cards selected, as before a meld
                click_and_wait(driver, css(driver, f"#mine .hand .card[data-index='{index}']")[0])
            written.append(out / "serve-table.png")
            driver.save_screenshot(str(written[-1]))
            while not driver.find_element("id", "hand-end").is_displayed():
                play_one_move(driver)
            written.append(out / "serve-scoring.png")
            driver.save_screenshot(str(written[-1]))
            driver.find_element("id", "close-hand-end").click()
            css(driver, ".tab[data-tab=replay]")[0].click()
            click_and_wait(driver, driver.find_element("id", "open-replay-file"))
            for _ in range(40):
                click_and_wait(driver, driver.find_element("id", "v-fwd-turn"))
            written.append(out / "serve-replay.png")
            driver.save_screenshot(str(written[-1]))
            written += _partnerships(driver, url, out)
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "images"), help="folder of the PNG files")
    for path in shoot(Path(parser.parse_args().out)):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
