"""Helpers for the browser tests: headless Chromium driven by Selenium (Debian's ``chromium``
and ``chromium-driver``), and the moves of a person at the page's table — clicking the
cards of a choice, then the button of its declaration.

Without a browser the tests are skipped with a message saying how to install one (the only
skip of the suite): ``apt-get install chromium chromium-driver`` and ``pip install selenium``
(the ``test`` extra). ``.ci/run`` installs both, and sets ``GUANDAN_REQUIRE_BROWSER=1``: there
a missing browser fails the tests.
"""

from __future__ import annotations

import contextlib
import os
import time

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
INSTALL = (
    "no browser for the browser tests: install headless Chromium and its driver "
    "(Debian: sudo apt-get install -y chromium chromium-driver) and Selenium (pip install selenium)"
)
#: The platform's type names, as a record names them.
RECORD_TYPES = {
    "Single": "single", "Pair": "pair", "Trips": "triple", "ThreeWithTwo": "full_house", "ThreePair": "pair_run",
    "TwoTrips": "triple_run", "Straight": "straight", "StraightFlush": "straight_flush", "Bomb": "bomb",
}


def _no_browser() -> None:
    if os.environ.get("GUANDAN_REQUIRE_BROWSER") == "1":  # CI installs one: its absence is a failure
        pytest.fail(INSTALL)
    pytest.skip(INSTALL)


@contextlib.contextmanager
def chrome(width: int = 1280, height: int = 900, phone: bool = False):
    """A headless Chromium (skipping the test when there is none), quit at the end; ``phone``:
    a phone's screen of ``width`` x ``height`` CSS pixels (touch, device pixel ratio 2)."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _no_browser()
    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        _no_browser()
    os.environ["SE_AVOID_STATS"] = "true"  # else Selenium Manager reaches for the network
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={width},{height}",
                 "--disable-dev-shm-usage", "--no-first-run", "--disable-extensions"):
        options.add_argument(flag)
    if phone:
        options.add_experimental_option(
            "mobileEmulation", {"deviceMetrics": {"width": width, "height": height, "pixelRatio": 2, "touch": True}}
        )
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


def console_errors(driver, allowed=()):
    """The page's console errors (SEVERE), less those naming one of ``allowed``."""
    return [
        entry["message"] for entry in driver.get_log("browser")
        if entry["level"] == "SEVERE" and not any(a in entry["message"] for a in allowed)
    ]


def wait_for(predicate, timeout: float = 20, what: str = "the page"):
    """Poll ``predicate`` until it returns a true value (returned), failing after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.03)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def page_state(driver):
    """What the table's page holds now: the request awaiting the person (or None), whether the
    games ended, whether the end-of-deal panel is open, the banner."""
    return driver.execute_script(
        """
        const s = window.guandan && window.guandan.state;
        if (!s) return null;
        return {
          act: s.act ? {stage: s.act.stage, actionList: s.act.actionList, asked: s.asked} : null,
          finished: s.finished, connected: s.connected, seat: s.seat, hand: s.hand, level: s.level,
          overlay: !document.getElementById('overlay').hidden,
          banner: document.getElementById('banner').hidden ? '' : document.getElementById('banner').textContent,
        };
        """
    )


def click(driver, selector, tries: int = 20):
    """Click the first element matching a CSS selector, finding it again if the page redrew
    it in between (the page redraws its buttons when a reply comes)."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    for _ in range(tries):
        found = driver.find_elements(By.CSS_SELECTOR, selector)
        assert found, f"nothing on the page matches {selector}"
        try:
            found[0].click()
            return
        except StaleElementReferenceException:
            time.sleep(0.02)
    raise AssertionError(f"{selector} kept being redrawn")


def click_cards(driver, codes):
    """Click, in the person's hand, one card for each code (a card not yet selected)."""
    for code in codes:
        click(driver, f'#hand .card[data-code="{code}"]:not(.selected)')


def declaration_buttons(driver):
    """The declaration buttons shown: their actionList indices and their texts (read at once)."""
    script = "return [...document.querySelectorAll('#declarations button')].map(b => [+b.dataset.index, b.textContent])"
    return [tuple(pair) for pair in driver.execute_script(script)]


def choose(driver, index):
    """Click the declaration button of actionList entry ``index``."""
    click(driver, f'#declarations button[data-index="{index}"]')


def answered(driver, before):
    """Wait until the request ``before`` is no longer the one awaiting an answer."""
    wait_for(lambda: (page_state(driver) or {}).get("act") != before, 20, "the answer to be taken")


def play_through(driver, decide, timeout: float = 240, selected=None, panels=None):
    """Play the person's seat through the page until the games end: ``decide(act)`` returns
    the actionList index to play (its cards are clicked, then its button; the pass by the
    Pass button); ``selected(act, index)``, if given, is called once the cards are selected.
    Closes the end-of-deal panels (their text appended to ``panels``, if given). Returns every
    (act, index) chosen."""
    from selenium.webdriver.common.by import By

    chosen = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = page_state(driver)
        if state is None:
            time.sleep(0.05)
            continue
        if state["overlay"]:
            if panels is not None:
                time.sleep(0.2)  # the panel may grow (the match's end, the result)
                panels.append(driver.find_element(By.ID, "overlay-panel").text)
            click(driver, "#overlay-close")
            continue
        if state["finished"]:
            return chosen
        act = state["act"]
        if act is None:
            if not state["connected"] and state["banner"] and state["seat"] is not None:
                raise AssertionError(f"the page lost the table: {state['banner']}")
            time.sleep(0.03)
            continue
        index = decide(act)
        entry = act["actionList"][index]
        if entry[0] == "PASS":
            click(driver, "#pass")
        else:
            if driver.find_element(By.ID, "clear").is_enabled():
                click(driver, "#clear")
            click_cards(driver, entry[2])
            indices = [i for i, _ in declaration_buttons(driver)]
            cards = sorted(entry[2])
            same = sorted(i for i, e in enumerate(act["actionList"]) if e[0] != "PASS" and sorted(e[2]) == cards)
            assert sorted(indices) == same, f"the buttons {indices} are not the entries of those cards {same}"
            if selected is not None:
                selected(act, index)
            choose(driver, index)
        chosen.append((act, index))
        answered(driver, act)
    raise AssertionError(f"the games did not end within {timeout} s")


def first_choice(act):
    """Lead the first entry; answer with the first play, or pass every other time one is asked."""
    entries = act["actionList"]
    if entries[0][0] == "PASS":
        first_choice.turn = getattr(first_choice, "turn", 0) + 1
        if first_choice.turn % 2 == 0 or len(entries) == 1:
            return 0
        return 1
    return 0
