"""Spectators and a reloaded page in a real browser (headless Chromium, Selenium): the list of
tables at /watch and a table watched live from it, read only, with no hand shown (and every
hand when the server is told to); a page reloaded in the middle of its game takes its seat
back and plays the match out; the edges of the table page (your own pass logged once, the
centre's words after the match, no hint left under the end panel). Every wait is bounded."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest
from browser import (
    answered,
    choose,
    chrome,
    click,
    click_cards,
    console_errors,
    first_choice,
    page_state,
    play_through,
    wait_for,
)

from guandan.platform import run_client
from guandan.records.games import replay
from guandan.web.server import start_web

RULES = "competitive_2022+cap1"


def spectator_state(driver):
    return driver.execute_script(
        """
        const s = window.guandan && window.guandan.state;
        if (!s) return null;
        return {spectator: s.spectator, finished: s.finished, counts: s.counts, hands: s.hands, deal: s.deal,
                turn: s.turn, connected: s.connected,
                handArea: getComputedStyle(document.querySelector('.hand-area')).display,
                seatHands: [...document.querySelectorAll('.seat-hand')].map(e => e.querySelectorAll('.card').length),
                seatCards: [...document.querySelectorAll('.seat .card')].map(e => e.dataset.code),
                centre: document.getElementById('trick-info').textContent,
                log: [...document.querySelectorAll('#log .line')].map(e => e.textContent)};
        """
    )


def person_in_thread(url, name="you"):
    """A greedy bot at the person's seat, from a thread of its own; the thread and its result."""
    result = {}

    def run():
        result["client"] = asyncio.run(asyncio.wait_for(run_client(url, "greedy", name=name), 120))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, result


@pytest.mark.slow
def test_a_table_is_watched_live_from_the_list_and_no_hand_is_shown(tmp_path):
    from selenium.webdriver.common.by import By

    running = start_web(seat=1, bots="greedy", seed=21, ruleset=RULES, records=tmp_path)
    try:
        with chrome() as driver:
            driver.get(running.page_url + "watch")
            link = wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "#tables a.watch"), 20, "the tables")
            assert "Table 0: seating" in driver.find_element(By.ID, "tables").text
            assert "spectators see no hand" in driver.find_element(By.ID, "summary").text
            link[0].click()
            wait_for(lambda: (spectator_state(driver) or {}).get("connected"), 20, "the spectator's socket")
            seen = spectator_state(driver)
            assert seen["spectator"] is True and seen["handArea"] == "none"
            assert not driver.find_element(By.ID, "pass").is_displayed()
            thread, result = person_in_thread(running.url)
            # live: the plays reach the page while the game goes on
            wait_for(lambda: any(": pass" in line or "Seat 1" in line for line in spectator_state(driver)["log"]),
                     30, "the first plays")
            thread.join(120)
            done = wait_for(lambda: (s := spectator_state(driver)) and s["finished"] and s, 60, "the games' end")
            overlay_text = driver.find_element(By.ID, "overlay-panel").text
            hand_cards = driver.find_elements(By.CSS_SELECTOR, "#hand .card")
            errors = console_errors(driver, allowed=("WebSocket",))
    finally:
        running.stop()
    assert result["client"].complete
    assert done["hands"] is None and done["seatHands"] == [] and hand_cards == []
    data = json.loads(open(running.server.web_record_files[0]).read())
    assert data["over"]
    # the only cards on the page are cards played (a seat's last play of the trick), never a hand
    played = {c for deal in data["deals"] for a in deal["actions"] for c in a.get("cards", [])}
    assert set(done["seatCards"]) <= played
    assert any(line.startswith("Seat 1 \u00b7 you") for line in done["log"])
    assert done["centre"].startswith("The games are over") and "seats 0, 2 won" in done["centre"].lower()
    assert "Result: seats 0, 2 won" in overlay_text
    assert errors == []


@pytest.mark.slow
def test_a_spectator_sees_every_hand_when_the_server_shows_them():
    running = start_web(seat=0, bots="greedy", seed=22, ruleset=RULES, spectators_see_hands=True)
    try:
        with chrome() as driver:
            driver.get(running.page_url + "?watch=0")
            wait_for(lambda: (spectator_state(driver) or {}).get("connected"), 20, "the spectator's socket")
            thread, result = person_in_thread(running.url)
            dealt = wait_for(lambda: (s := spectator_state(driver)) and s["hands"] and s, 30, "the hands")
            thread.join(120)
            match = running.game.table.matches[0]
    finally:
        running.stop()
    assert result["client"].complete
    hands = [sorted(h.codes()) for h in match.deal_logs[0].dealt]
    assert len(dealt["seatHands"]) == 4
    # what the page holds is the dealt hands, less what was played by the time it was read
    for seat in range(4):
        assert set(dealt["hands"][seat]) <= set(hands[seat])


@pytest.mark.slow
def test_a_page_reloaded_mid_game_takes_its_seat_back_and_plays_the_match_out(tmp_path):
    running = start_web(seat=0, bots="greedy", seed=23, ruleset=RULES, records=tmp_path, hint="mc:rollouts=100")
    try:
        with chrome() as driver:
            driver.get(running.page_url)
            act = wait_for(lambda: (page_state(driver) or {}).get("act"), 30, "the first request")
            key = f"guandan-seat-127.0.0.1:{running.server.port}"
            secret = driver.execute_script(f"return sessionStorage.getItem('{key}')")
            assert secret and len(secret) >= 32
            # a hint, then the answer: the hint is gone with its request
            click(driver, "#hint")
            wait_for(lambda: driver.find_elements("css selector", ".hint-choice"), 60, "the hint")
            play_through_some(driver, 3)
            driver.refresh()
            back = wait_for(lambda: (s := page_state(driver)) and s["act"] and s, 30, "the request after the reload")
            log = driver.execute_script("return [...document.querySelectorAll('#log .line')].map(e => e.textContent)")
            assert any("Back at your seat (seat 0)" in line for line in log)
            assert back["seat"] == 0 and back["hand"]
            panels = []
            chosen = play_through(driver, first_choice, panels=panels)
            state = page_state(driver)
            centre = driver.execute_script("return document.getElementById('trick-info').textContent")
            hints = driver.execute_script("return document.getElementById('hints').textContent")
            log = driver.execute_script("return [...document.querySelectorAll('#log .line')].map(e => e.textContent)")
            errors = console_errors(driver, allowed=("WebSocket",))
        table_state = running.game.table.state.value
    finally:
        running.stop()
    assert table_state == "finished" and state["finished"]
    assert act is not None
    data = json.loads(open(running.server.web_record_files[0]).read())
    assert replay(data).is_over
    # your own pass is in the log once, as "You: pass"
    passes = sum(1 for a, i in chosen if a["actionList"][i][0] == "PASS")
    assert passes > 0
    assert sum(1 for line in log if line == "You: pass") == passes
    assert not any(line.startswith("You (seat 0") and line.endswith("pass") for line in log)
    # after the match the centre says so, and no hint is left
    assert centre.startswith("The games are over") and "To beat" not in centre
    assert hints == ""
    assert errors == []


def play_through_some(driver, answers):
    """Answer ``answers`` requests with the page's first choice (a pass when there is one)."""
    for _ in range(answers):
        act = wait_for(lambda: (s := page_state(driver)) and (s["act"] or s["overlay"]) and s, 30, "a request")
        if act["overlay"]:
            click(driver, "#overlay-close")
            continue
        entries = act["act"]["actionList"]
        if entries[0][0] == "PASS":
            click(driver, "#pass")
        else:
            click_cards(driver, entries[0][2])
            choose(driver, 0)
        answered(driver, act["act"])
