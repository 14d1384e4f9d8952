"""``kanaszta serve`` in a real browser: headless system Chromium,
driven by Selenium, plays a whole hand of Díszített kanaszta, of classic canasta
with four players and of Turkish kanasta by clicking (melds of three cards
selected and laid in one gesture included) to its scoring, shows the engine's reason
for an illegal move, and steps through a replay forward, back and from a seat.

Chromium and chromedriver come from the system (Debian: ``chromium``,
``chromium-driver``; ``scripts/test.sh`` installs them when it runs as root).
Without them the tests are skipped, except in CI (``CI`` set), where they fail.
"""

from __future__ import annotations

import json
import os
import urllib.request
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("starlette", reason="kanaszta serve needs the web extra: pip install -e '.[web]'")
pytest.importorskip("uvicorn", reason="kanaszta serve needs the web extra: pip install -e '.[web]'")
pytest.importorskip("selenium", reason="the browser tests need selenium (the test extra)")

from selenium.webdriver.support.ui import Select

from agents.records import GameRecord, final_scores, replay
from agents.registry import make_agent
from agents.watch import Show, watch
from kanaszta_env import GameBatch, Rules
from webapp.app import create_app
from webapp.browser import (
    click_and_wait,
    css,
    find_chromium,
    headless_chromium,
    play_one_move,
    running_server,
    wait_for as wait,
)

SEED = 3  # a deal where the person holds three naturals of a rank to meld after a draw


@pytest.fixture(scope="module")
def driver():
    if find_chromium() is None:
        message = (
            "chromium and chromedriver are not installed (Debian: apt-get install chromium chromium-driver)"
        )
        if os.environ.get("CI"):
            pytest.fail(f"{message}; scripts/test.sh installs them when run as root")
        pytest.skip(message)
    with headless_chromium() as browser:
        yield browser


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> tuple[str, dict]:
    folder = tmp_path_factory.mktemp("records")
    rules = Rules(num_players=2)
    agents = [make_agent("heuristic", rules), make_agent("random", rules)]
    with open(os.devnull, "w") as sink:
        record = watch(agents, rules, seed=2, show=Show(sink))
    record.save(folder / "bots.json")
    with running_server(create_app(records_dir=folder)) as url:
        yield url, record.to_dict()


def _text(driver, element_id: str) -> str:
    return driver.find_element("id", element_id).text


def _play_hand(driver, narrated: bool = False) -> list[str]:
    """The person's moves, made by clicking until the hand's scoring shows, each checked;
    with ``narrated``, the log tells each of his melds as it is laid."""
    done: list[str] = []
    while not driver.find_element("id", "hand-end").is_displayed():
        melded = len(css(driver, "#mine .meld .card"))
        done.append(play_one_move(driver, meld=done[-1:] != ["withdraw"]))
        assert not driver.find_element("id", "error").is_displayed(), _text(driver, "error")
        if done[-1] == "meld":  # three or more cards selected and laid by one click
            assert len(css(driver, "#mine .meld .card")) >= melded + 3
            told = any(line.text.startswith("you laid") for line in css(driver, "#log-lines li"))
            assert told or not narrated
        assert len(done) < 300
    assert "meld" in done and "discard" in done and "draw" in done
    return done


@pytest.mark.parametrize(
    ("game", "seed", "opponent", "title"),
    [
        ("2003-02", SEED, "random", "Díszített kanaszta"),
        ("pl", 12, "heuristic", "Classic canasta"),
        ("tr", 2, "random", "Turkish kanasta"),
    ],
)
def test_a_hand_is_played_to_its_scoring_by_clicking(driver, served, game, seed, opponent, title) -> None:
    """Díszített kanaszta against a RandomBot (an illegal move sent first: the engine's reason
    shows and nothing changes), classic canasta with four players and Turkish kanasta: in a
    partnership the person's side (his hand and his partner's, hidden) below, the other side
    above, Turkish kanasta's Fis as counts; the header the game's rules; a whole hand is played
    by clicking, and its scoring shows the scores of the engine's replay of the hand's record
    (by sides in a partnership)."""
    url, _ = served
    four = game != "2003-02"
    warm = GameBatch(Rules(variant=game, num_players=4 if four else 2), 1)  # compiled here, not in a click
    warm.reset(seed=0)
    while not warm.done[0]:  # to the hand's end: its scoring compiled too
        warm.step(np.flatnonzero(warm.legal_mask()[0])[:1])
    driver.get(url)
    wait(driver, lambda d: css(d, "#play-opponent-0 option"))
    Select(driver.find_element("id", "play-game")).select_by_value(game)
    wait(driver, lambda d: len(css(d, "#play-opponents select")) == (3 if four else 1))
    assert ("(partner)" in _text(driver, "play-opponents")) == four
    Select(driver.find_element("id", f"play-opponent-{int(four)}")).select_by_value(opponent)  # seat 2 or 1
    driver.find_element("id", "play-seed").send_keys(str(seed))
    if not four:
        driver.find_element("id", "play-max-turns").clear()
        driver.find_element("id", "play-max-turns").send_keys("16")
    click_and_wait(driver, driver.find_element("id", "start-play"))
    assert _text(driver, "rules-line").startswith(title)
    assert not css(driver, "#others .hand .card[data-card]")  # no card of another hand is shown
    if four:
        assert len(css(driver, "#mine .side")) == 1 and len(css(driver, "#mine .side .seat")) == 2
        assert len(css(driver, "#others .side .seat .hand .card.back")) > 0
    else:
        assert "your move" in _text(driver, "info") and "phase cut" in _text(driver, "info")
        board = _text(driver, "board").replace(_text(driver, "log"), "")
        assert board.count("cut cards") == 1  # the cut cards are shown once
        cards = len(css(driver, "#mine .hand .card"))
        driver.execute_script("sendActions(['take_pile'])")  # what no button offers: the server refuses it
        wait(driver, lambda d: d.find_element("id", "error").is_displayed())
        assert "take_pile is not legal now" in _text(driver, "error")
        assert len(css(driver, "#mine .hand .card")) == cards
    if game == "tr":
        assert [e.get_attribute("data-extra") for e in css(driver, "#extras .extra")] == ["Fi 1", "Fi 2"]
        assert "11 cards" in _text(driver, "extras")
    _play_hand(driver, narrated=not four)
    ended, sheet = _text(driver, "hand-end-title"), _text(driver, "hand-end-sheet")
    assert (
        ended.startswith("Hand 1: " + ("stock exhausted" if four else "turn limit reached"))
        or "went out" in ended
    )
    players = css(driver, "#hand-end-table tr")[1:]  # below the header: a row per seat
    rows = [[td.text for td in tr.find_elements("tag name", "td")] for tr in players]
    session = driver.execute_script("return ui.session")
    with urllib.request.urlopen(f"{url}/api/play/{session}/record") as answer:
        record = GameRecord.from_dict(json.load(answer))
    scores = final_scores(replay(record))  # the clicked hand replayed by the engine
    assert [int(row[-2]) for row in rows] == scores
    if four:
        assert [row[1] for row in rows] == ["side 0", "side 1", "side 0", "side 1"]
        assert scores[0] == scores[2] and scores[1] == scores[3]
    else:  # the game's score sheet, item by item
        assert "cards in hand" in sheet and "melded cards" in sheet
    driver.find_element("id", "close-hand-end").click()
    css(driver, ".tab[data-tab=watch]")[0].click()
    assert _text(driver, "rules-line") == ""  # no game on the board: no rules of the last one


def test_a_replay_steps_forward_and_back_from_a_seat_or_with_every_hand_open(driver, served) -> None:
    url, record = served
    n = len(record["actions"])
    driver.get(url)
    wait(driver, lambda d: css(d, "#replay-file option"))
    css(driver, ".tab[data-tab=replay]")[0].click()
    click_and_wait(driver, driver.find_element("id", "open-replay-file"))
    assert _text(driver, "v-counter") == f"action 0 / {n}"
    for _ in range(3):
        click_and_wait(driver, driver.find_element("id", "v-fwd"))
    assert _text(driver, "v-counter") == f"action 3 / {n}"
    click_and_wait(driver, driver.find_element("id", "v-back"))
    assert _text(driver, "v-counter") == f"action 2 / {n}"
    for _ in range(6):
        click_and_wait(driver, driver.find_element("id", "v-fwd-turn"))
    assert css(driver, "#others .hand .card[data-card]")  # every hand open: the cards are shown
    seat = Select(driver.find_element("id", "v-seat"))
    version = driver.find_element("tag name", "body").get_attribute("data-version")
    seat.select_by_value("0")
    wait(driver, lambda d: d.find_element("tag name", "body").get_attribute("data-version") != version)
    assert css(driver, "#mine .hand .card[data-card]") and not css(driver, "#others .hand .card[data-card]")
    click_and_wait(driver, driver.find_element("id", "v-end"))
    assert _text(driver, "v-counter") == f"action {n} / {n}"
    assert driver.find_element("id", "hand-end").is_displayed()
    driver.find_element("id", "close-hand-end").click()
    click_and_wait(driver, driver.find_element("id", "v-start"))
    assert _text(driver, "v-counter") == f"action 0 / {n}"


def test_the_page_loads_nothing_from_elsewhere() -> None:
    """Offline: every script and style sheet of the page is served by the app itself."""
    static = Path(__file__).resolve().parents[1] / "webapp" / "static"
    text = "".join(p.read_text(encoding="utf-8") for p in static.iterdir())
    assert "http://" not in text and "https://" not in text and "//cdn" not in text


def test_a_new_game_of_a_cold_preset_says_it_is_compiling_while_it_waits(driver, monkeypatch) -> None:
    """A fresh process's tracker (every preset cold) and a new game slowed by a second, as a
    first compile is: the page shows the notice while the request is pending, then the
    game and no notice; the next game of the preset (warm now) shows none."""
    import time

    import webapp.warm
    from webapp.routes import Api

    monkeypatch.setattr(webapp.warm, "WARMTH", webapp.warm.Warmth())
    real = Api.new_play

    def slow(self, doc, query):
        time.sleep(1.0)  # a first compile takes up to a minute; a second shows the notice
        return real(self, doc, query)

    monkeypatch.setattr(Api, "new_play", slow)
    with running_server(create_app()) as url:
        driver.get(url)
        wait(driver, lambda d: css(d, "#play-opponent-0 option"))
        driver.find_element("id", "start-play").click()
        notice = wait(driver, lambda d: d.find_element("id", "notice").is_displayed() and _text(d, "notice"))
        assert notice.startswith("compiling the rules for Díszített kanaszta") and "first use" in notice
        wait(driver, lambda d: d.find_element("tag name", "body").get_attribute("data-busy") == "0")
        wait(driver, lambda d: not d.find_element("id", "notice").is_displayed())
        assert driver.find_element("id", "board").is_displayed()
        driver.find_element("css selector", ".tab[data-tab=play]").click()
        driver.find_element("id", "start-play").click()
        wait(driver, lambda d: d.find_element("tag name", "body").get_attribute("data-busy") == "1")
        assert not driver.find_element("id", "notice").is_displayed()  # warm now: no notice
        wait(driver, lambda d: d.find_element("tag name", "body").get_attribute("data-busy") == "0")
