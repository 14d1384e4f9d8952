"""The app in a real browser: a server on a free local port in a thread, and
headless Chromium driven by Selenium (the browser tests and the screenshot
script, ``scripts/serve_screenshots.py``).

Only the system's Chromium and chromedriver are used (Debian: ``apt-get
install chromium chromium-driver``); nothing downloads a browser. Selenium
is a test dependency (the ``test`` extra).
"""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .cli import listening_socket

#: where Debian and Ubuntu put them
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
DRIVER_NAMES = ("chromedriver",)


def find_chromium() -> tuple[str, str] | None:
    """(browser, driver) executables found on the PATH, or None."""
    browser = next((p for p in map(shutil.which, CHROMIUM_NAMES) if p), None)
    driver = next((p for p in map(shutil.which, DRIVER_NAMES) if p), None)
    return (browser, driver) if browser and driver else None


@contextmanager
def running_server(app: Any) -> Iterator[str]:
    """Serve ``app`` on 127.0.0.1 and a free port in a thread; yields the base URL."""
    import uvicorn

    sock = listening_socket("127.0.0.1", 0)
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


@contextmanager
def headless_chromium(width: int = 1400, height: int = 1000) -> Iterator[Any]:
    """A Selenium WebDriver of the system's headless Chromium."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    found = find_chromium()
    if found is None:
        raise RuntimeError("no chromium and chromedriver on the PATH (Debian: chromium, chromium-driver)")
    browser, driver_path = found
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 f"--window-size={width},{height}", "--force-device-scale-factor=1"):  # fmt: skip
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def wait_for(driver: Any, condition: Any, timeout: float = 20.0) -> Any:
    """The first true value of ``condition(driver)`` within ``timeout`` seconds."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(condition)


def click_and_wait(driver: Any, element: Any, timeout: float = 20.0) -> None:
    """Click ``element`` and wait until the page has drawn the server's answer
    (the page counts its renders in ``body[data-version]``)."""
    version = driver.find_element("tag name", "body").get_attribute("data-version")
    element.click()
    wait_for(
        driver,
        lambda d: (
            d.find_element("tag name", "body").get_attribute("data-version") != version
            and d.find_element("tag name", "body").get_attribute("data-busy") == "0"
        ),
        timeout,
    )


def css(driver: Any, selector: str) -> list[Any]:
    """The elements matching a CSS selector."""
    return driver.find_elements("css selector", selector)


def play_one_move(driver: Any, meld: bool = False) -> str:
    """Make one move of the person's turn by clicking, as a cautious player
    would: keep cut cards, draw, say yes to a partner's "may I go out?", and
    discard the last discardable card; with ``meld``, first lay three or more
    naturals of one rank in one gesture, and withdraw the turn's melds if they
    do not make the opening (the next call must then be without ``meld``, or it
    would lay them again). Returns what it did."""
    if css(driver, "#mine .hand .card.selected"):
        click_and_wait(driver, driver.find_element("id", "clear-selection"))
    buttons = {b.get_attribute("data-action"): b for b in css(driver, "#buttons button")}
    for name in ("keep", "draw", "yes"):
        if name in buttons:
            click_and_wait(driver, buttons[name])
            return name
    if meld and _meld_triple(driver):
        return "meld"
    if "withdraw" in buttons and not css(driver, "#mine .hand .card.can-discard"):
        click_and_wait(driver, buttons["withdraw"])
        return "withdraw"
    cards = css(driver, "#mine .hand .card.can-discard")
    if cards:
        click_and_wait(driver, cards[-1])
        click_and_wait(driver, driver.find_element("id", "discard"))
        return "discard"
    move = css(driver, "#all-moves-list button")[0]
    name = move.get_attribute("data-action")  # read before the click redraws the list
    driver.execute_script("document.getElementById('all-moves').open = true")
    click_and_wait(driver, move)
    return name


def _meld_triple(driver: Any) -> bool:
    """Select three or more meldable naturals of one rank and click "Meld selected",
    keeping two cards in the hand (no going out, which a game may forbid)."""
    by_rank: dict[str, list[Any]] = {}
    hand = css(driver, "#mine .hand .card[data-card]")
    for card in css(driver, "#mine .hand .card.playable"):
        name = card.get_attribute("data-card")
        if name not in ("2S", "2H", "2D", "2C", "JK") and not name.startswith("3"):
            by_rank.setdefault(name[:-1], []).append(card)
    triple = next((cards for cards in by_rank.values() if 3 <= len(cards) <= len(hand) - 2), None)
    if triple is None:
        return False
    for index in [c.get_attribute("data-index") for c in triple]:
        click_and_wait(driver, css(driver, f"#mine .hand .card[data-index='{index}']")[0])
    click_and_wait(driver, driver.find_element("id", "meld"))
    return True
