"""The page in a real browser (headless Chromium, Selenium): whole deals played through the
table by clicking cards and declaration buttons — choosing between declarations, passing,
paying tribute and returning a card — and by the keyboard; the hint; the replay viewer
stepped forward and back; bad input shown on the page (a record that does not replay, a
stale or malformed message, a taken seat, the server stopped); the page at phone width;
no console errors. Every test stops by itself (each wait has a deadline).

``GUANDAN_SCREENSHOTS=docs`` makes the table and viewer tests write the README's
screenshots there (``web-table.png``, ``web-viewer.png``, ``web-phone.png``).
"""

from __future__ import annotations

import json
import os
import pathlib
import time

import pytest
from browser import (
    RECORD_TYPES,
    chrome,
    click_cards,
    console_errors,
    declaration_buttons,
    first_choice,
    page_state,
    play_through,
    wait_for,
)

from guandan import Match
from guandan.records.games import replay
from guandan.web.server import start_web

SHOTS = os.environ.get("GUANDAN_SCREENSHOTS")

# Game 1: the person (seat 0) came 4th, pays the tribute (SB), and leads S3 C3 S5 C5 H9 at
# level 9 — full house 3 or full house 5 — and D6 D7 D8 D9 DT — straight flush or straight.
# Game 2: the person came 1st and returns a card to its partner, who paid SA.
SCRIPTED = [
    dict(levels=(9, 9), previous=(1, 2, 3, 0),
         hands=[["S3 C3 S5 C5 H9 D6 D7 D8 D9 DT SB", "S4 S6 H3", "C4 C6", "D4 H6"]]),
    dict(levels=(9, 9), previous=(0, 1, 3, 2), hands=[["S4 S7 DJ HQ", "C8 CJ", "SA C5", "D3 DQ"]]),
]


def scripted_match(game):
    return Match(100 + game, "competitive_2022+cap1", **SCRIPTED[game])


def shot(driver, tmp_path, name, docs=True):
    """A screenshot: to ``tmp_path`` (checked to be a PNG), and with GUANDAN_SCREENSHOTS (and
    ``docs``) to that directory."""
    path = tmp_path / name
    driver.save_screenshot(str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    if SHOTS and docs:
        pathlib.Path(SHOTS).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(pathlib.Path(SHOTS) / name))


def person_actions(data, seat):
    """The person's actions of a match record: (type, key, sorted cards) of plays, ('pass',),
    ('tribute', card), ('return', card)."""
    out = []
    for deal in data["deals"]:
        for a in deal["actions"]:
            if a["seat"] != seat:
                continue
            if a["type"] in ("tribute", "return"):
                out.append((a["type"], a["card"]))
            elif a["type"] == "pass":
                out.append(("pass",))
            else:
                out.append((a["type"], a["key"], tuple(sorted(a["cards"]))))
    return out


def entry_action(entry):
    kind, rank, cards = entry
    if kind == "PASS":
        return ("pass",)
    if kind in ("tribute", "back"):
        return ("tribute" if kind == "tribute" else "return", cards[0])
    if kind == "Bomb" and rank == "JOKER":
        return ("joker_bomb", "JOKER", tuple(sorted(cards)))
    return (RECORD_TYPES[kind], rank, tuple(sorted(cards)))


@pytest.mark.slow
def test_a_person_plays_tribute_declarations_passes_and_a_return_through_the_page(tmp_path):
    seen = {}

    def decide(act):
        entries = act["actionList"]
        if act["stage"] in ("tribute", "back"):
            seen.setdefault(act["stage"], entries)
            return 0
        cards = {tuple(sorted(e[2])): i for i, e in enumerate(entries)}
        for wanted, declared in ((("C3", "C5", "H9", "S3", "S5"), "5"), (("D6", "D7", "D8", "D9", "DT"), "Straight")):
            if wanted in cards:
                same = [i for i, e in enumerate(entries) if tuple(sorted(e[2])) == wanted]
                seen[wanted] = [entries[i] for i in same]
                return next(i for i in same if declared in (entries[i][1], entries[i][0]))
        if entries[0][0] == "PASS":
            seen["pass"] = True
            return 0
        return 0

    with start_web(seat=0, bots="greedy", seed=21, games=2, ruleset="competitive_2022+cap1", records=tmp_path,
                   new_match=scripted_match, hint="mc:rollouts=200") as running, chrome() as driver:
        driver.get(running.page_url)
        wait_for(lambda: (page_state(driver) or {}).get("act"), 20, "the first request")
        # the tribute: the one card allowed is preselected, and its button offered
        wait_for(lambda: declaration_buttons(driver), 10, "the tribute's button")
        assert [t for _, t in declaration_buttons(driver)] == ["1. Pay tribute: small joker"]
        shot(driver, tmp_path, "web-tribute.png", docs=False)
        def selected(act, index):
            if act["actionList"][index][0] == "ThreeWithTwo":  # the two ways to declare the cards, on show
                wait_for(lambda: "♥9 as" in " ".join(t for _, t in declaration_buttons(driver)), 10, "the wording")
                shot(driver, tmp_path, "web-declarations.png")

        panels = []
        chosen = play_through(driver, decide, timeout=120, selected=selected, panels=panels)
        assert (tmp_path / "web-declarations.png").exists()
        assert console_errors(driver) == []
    full_house = seen[("C3", "C5", "H9", "S3", "S5")]
    assert sorted(e[1] for e in full_house) == ["3", "5"] and {e[0] for e in full_house} == {"ThreeWithTwo"}
    assert sorted(e[0] for e in seen[("D6", "D7", "D8", "D9", "DT")]) == ["Straight", "StraightFlush"]
    assert seen["tribute"] == [["tribute", "tribute", ["SB"]]] and len(seen["back"]) == 2 and seen.get("pass")
    records = sorted(tmp_path.glob("web-21-game*.json"))
    assert len(records) == 2
    # the end of each game's one deal: its finish order, who won and the levels gained, the match's end
    assert len(panels) == 2 and all(p.startswith("Deal 1 over (level 9)") for p in panels)
    assert "Game 1 of 2 over" in panels[0] and "Game 2 of 2 over" in panels[1] and "Result: your side won" in panels[1]
    for panel, path in zip(panels, records):
        result = json.loads(path.read_text())["deals"][0]["result"]
        ours = result["winning_side"] == 0
        gained = {2: 3, 3: 2, 4: 1}[result["partner_place"]]
        assert f"{'Your side' if ours else 'The opponents'} won: partner" in panel and f"+{gained} level" in panel
    played = []
    for path in records:
        data = json.loads(path.read_text())
        replay(data)
        played += person_actions(data, 0)
    assert played == [entry_action(act["actionList"][i]) for act, i in chosen]
    assert ("full_house", "5", ("C3", "C5", "H9", "S3", "S5")) in played
    assert ("straight", "6", ("D6", "D7", "D8", "D9", "DT")) in played


@pytest.mark.slow
def test_a_whole_dealt_match_through_the_page_and_its_replay_in_the_viewer(tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    with start_web(seat=0, bots="greedy", seed=3, ruleset="competitive_2022+cap1", records=tmp_path,
                   hint="mc:rollouts=300") as running, chrome() as driver:
        driver.get(running.page_url)
        state = wait_for(lambda: (page_state(driver) or {}).get("act") and page_state(driver), 20, "a request")
        # the table: four seats with their counts, the levels, the hand sorted with the level cards marked
        seats = driver.find_elements(By.CSS_SELECTOR, ".felt .seat")
        assert len(seats) == 4 and all("cards" in s.text for s in seats)
        assert "Your side (seats 0, 2): 2" in driver.find_element(By.ID, "levels").text
        codes = [c.get_attribute("data-code") for c in driver.find_elements(By.CSS_SELECTOR, "#hand .card")]
        assert sorted(codes) == sorted(state["hand"]) and len(codes) == 27
        ranks = "3456789TJQKA2"
        order = [14 if c == "HR" else 13 if c == "SB" else ranks.index(c[1]) for c in codes]
        assert order == sorted(order)  # low to high, the level's 2s above the aces, the jokers last
        level_cards = driver.find_elements(By.CSS_SELECTOR, "#hand .card.level, #hand .card.wild")
        assert [c.get_attribute("data-code")[1] for c in level_cards] == ["2"] * len(level_cards)
        wilds = driver.find_elements(By.CSS_SELECTOR, "#hand .card.wild")
        assert all(c.get_attribute("data-code") == "H2" for c in wilds)
        # the hint: the search bot's best three, each a button that selects its cards
        driver.find_element(By.ID, "hint").click()
        hints = wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, ".hint-choice"), 30, "the hint")
        assert 1 <= len(hints) <= 3 and all(("+" in h.text or "-" in h.text) for h in hints)
        hints[0].click()
        if state["act"]["actionList"][0][0] != "PASS":
            wait_for(lambda: declaration_buttons(driver), 5, "the hint's cards to be selected")
            buttons = driver.find_elements(By.CSS_SELECTOR, "#declarations button")
            assert any("hinted" in b.get_attribute("class") for b in buttons)
        shot(driver, tmp_path, "web-table.png")
        driver.find_element(By.ID, "clear").click()
        # one play by the keyboard: select the cards of the first entry with the arrows and Space, then 1
        act = page_state(driver)["act"]
        target = next(e for e in act["actionList"] if e[0] != "PASS")
        body = driver.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.HOME)
        hand = [c.get_attribute("data-code") for c in driver.find_elements(By.CSS_SELECTOR, "#hand .card")]
        wanted = list(target[2])
        for code in hand:
            if code in wanted:
                wanted.remove(code)
                body.send_keys(Keys.SPACE)
            if wanted:
                body.send_keys(Keys.ARROW_RIGHT)
        wait_for(lambda: declaration_buttons(driver), 5, "the keyboard's selection")
        body.send_keys("1")
        wait_for(lambda: page_state(driver)["act"] != act, 20, "the keyboard's play")
        chosen = play_through(driver, first_choice, timeout=180)
        assert chosen and console_errors(driver) == []
        assert "The games are over" in wait_for(lambda: page_state(driver)["banner"], 10, "the end")
        # the viewer: the record of this match, by name
        name = sorted(p.name for p in tmp_path.glob("web-3-game*.json"))[0]
        data = json.loads((tmp_path / name).read_text())
        driver.get(running.page_url + f"viewer?record={name}")
        wait_for(lambda: driver.execute_script("return window.guandan.view.line !== null"), 20, "the replay")
        deal = data["deals"][0]
        steps = len(deal["actions"])
        assert driver.find_element(By.ID, "position").text == f"action 0 of {steps}"
        counts = [int(e.text.split()[0]) for e in driver.find_elements(By.CSS_SELECTOR, ".felt .count")]
        assert counts == [27, 27, 27, 27]
        driver.find_element(By.ID, "next").click()
        first = deal["actions"][0]
        assert driver.find_element(By.CSS_SELECTOR, ".step-text").text.startswith(f"seat {first['seat']}:")
        body = driver.find_element(By.TAG_NAME, "body")
        for _ in range(5):
            body.send_keys(Keys.ARROW_RIGHT)
        assert driver.find_element(By.ID, "position").text == f"action 6 of {steps}"
        body.send_keys(Keys.ARROW_LEFT)
        assert driver.find_element(By.ID, "position").text == f"action 5 of {steps}"
        # the hands after five actions: the dealt hands less the cards played
        held = [list(h) for h in deal["hands"]]
        for a in deal["actions"][:5]:
            for c in a.get("cards", []):
                held[a["seat"]].remove(c)
        shown = driver.execute_script(
            "return ['seat-bottom','seat-right','seat-top','seat-left'].map(id => "
            "[...document.querySelectorAll('#' + id + ' .hand-row .card')].map(c => c.dataset.code))")
        assert [sorted(h) for h in shown] == [sorted(h) for h in held]
        # one seat's view: the others' hands hidden
        driver.find_element(By.CSS_SELECTOR, "#view option[value='1']").click()
        hidden = driver.find_elements(By.CSS_SELECTOR, ".hidden-hand")
        assert len(hidden) == 3 and "Seat 1" in driver.find_element(By.ID, "seat-bottom").text
        body.send_keys(Keys.END)
        assert driver.find_element(By.ID, "position").text == f"action {steps} of {steps}"
        assert "finish order" in driver.find_element(By.ID, "summary").text
        driver.find_element(By.CSS_SELECTOR, "#view option[value='all']").click()
        driver.find_element(By.ID, "first").click()
        for _ in range(12):
            body.send_keys(Keys.ARROW_RIGHT)
        shot(driver, tmp_path, "web-viewer.png")
        assert console_errors(driver) == []


def _record_file(tmp_path, seed=4):
    from guandan.bots.agents import GreedyAgent
    from guandan.bots.loop import play_out
    from guandan.records.games import record

    match = Match(seed, "competitive_2022+cap3")
    play_out(match, [GreedyAgent()] * 4)
    path = tmp_path / "three-deals.json"
    path.write_text(json.dumps(record(match)))
    return path, record(match)


def _one_deal_record():
    from guandan import Deal
    from guandan.bots.agents import GreedyAgent
    from guandan.bots.loop import play_out
    from guandan.records.games import record

    deal = Deal.new(seed=13, level=4)
    play_out(deal, [GreedyAgent()] * 4)
    return record(deal)


@pytest.mark.slow
def test_the_viewer_opens_a_file_or_a_drop_jumps_between_deals_and_shows_a_wild_declaration(tmp_path):
    from selenium.webdriver.common.by import By

    path, data = _record_file(tmp_path)
    with start_web(seat=0, bots="greedy", seed=1, port=0) as running, chrome() as driver:
        driver.get(running.page_url + "viewer")
        driver.find_element(By.ID, "file").send_keys(str(path))
        wait_for(lambda: driver.execute_script("return window.guandan.view.line !== null"), 20, "the replay")
        options = driver.find_elements(By.CSS_SELECTOR, "#deal option")
        assert len(options) == len(data["deals"]) == 3
        options[2].click()
        deal = data["deals"][2]
        assert driver.find_element(By.ID, "position").text == f"action 0 of {len(deal['actions'])}"
        # the first action of a deal with a tribute is the tribute
        driver.find_element(By.ID, "next").click()
        text = driver.find_element(By.CSS_SELECTOR, ".step-text").text
        first = deal["actions"][0]
        assert text.startswith(f"seat {first['seat']}")
        if first["type"] == "tribute":
            assert "as tribute" in text
        # a play with a wild shows what the wild stands for, as the record's "as" says
        for d, dl in enumerate(data["deals"]):
            wild = next((i for i, a in enumerate(dl["actions"]) if a.get("as") and a["as"] != a["cards"]
                         and sorted(a["as"]) != sorted(a["cards"])), None)
            if wild is not None:
                driver.find_elements(By.CSS_SELECTOR, "#deal option")[d].click()
                step = driver.find_element(By.CSS_SELECTOR, f'#steps button[data-step="{wild + 1}"]')
                driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", step)
                step.click()
                marks = driver.find_elements(By.CSS_SELECTOR, ".play-area .card .as")
                assert marks and all(m.text.startswith("as ") for m in marks)
                break
        else:
            pytest.fail("no play with a wild in the record: choose another seed")
        # a record dropped on the page
        driver.execute_script(
            "const dt = new DataTransfer();"
            "dt.items.add(new File([arguments[0]], 'dropped.json', {type: 'application/json'}));"
            "document.body.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));",
            json.dumps(_one_deal_record()),
        )
        wait_for(lambda: driver.execute_script("return window.guandan.view.name") == "dropped.json", 20, "the drop")
        assert len(driver.find_elements(By.CSS_SELECTOR, "#deal option")) == 1
        assert "deal seed 13" in driver.find_element(By.ID, "title").text
        assert console_errors(driver) == []


@pytest.mark.slow
def test_the_page_says_what_went_wrong(tmp_path):
    """A record that does not replay, a malformed and a stale message, a taken seat, the server stopped."""
    from selenium.webdriver.common.by import By

    broken = tmp_path / "broken.json"
    path, data = _record_file(tmp_path, seed=6)
    data["deals"][0]["actions"][3]["cards"] = ["HR", "HR", "HR"]
    broken.write_text(json.dumps(data))
    (tmp_path / "nonsense.json").write_text("{this is not json")
    # bots that think a while: the page's stale answer reaches the table before seat 1 answers
    running = start_web(seat=0, bots="mc:rollouts=4000", seed=2, ruleset="competitive_2022+cap1", records=tmp_path)
    try:
        with chrome() as driver, chrome(390, 844) as second:
            driver.get(running.page_url + "viewer?record=broken.json")
            text = wait_for(lambda: page_state_banner(driver), 20, "the replay's error")
            assert "broken.json does not replay" in text and "deal 1 action 4" in text
            driver.find_element(By.ID, "file").send_keys(str(tmp_path / "nonsense.json"))
            wait_for(lambda: "not JSON" in page_state_banner(driver), 20, "the file's error")
            assert console_errors(driver) == []
            # the table; then a second page for the same seat
            driver.get(running.page_url)
            wait_for(lambda: (page_state(driver) or {}).get("act"), 20, "the first request")
            second.get(running.page_url)
            taken = wait_for(lambda: page_state_banner(second), 20, "the second page's message")
            assert "Your seat (seat 0) is taken" in taken
            # a malformed message, then a stale one
            driver.execute_script("window.guandan.sendRaw('{\"actIndex\": 99999}')")
            malformed = wait_for(lambda: "ignored" in page_state(driver)["banner"] and page_state(driver)["banner"], 20)
            assert "actIndex 99999 is out of range" in malformed and page_state(driver)["act"] is not None
            act = page_state(driver)["act"]
            entry = next(i for i, e in enumerate(act["actionList"]) if e[0] != "PASS")
            click_cards(driver, act["actionList"][entry][2])
            driver.execute_script(  # the answer, and at once a second one: stale, the seat is no longer asked
                f"document.querySelector('#declarations button[data-index=\"{entry}\"]').click();"
                "window.guandan.sendRaw('{\"actIndex\": 0}')")
            stale = wait_for(lambda: "was not asked" in page_state_banner(driver) and page_state_banner(driver), 20)
            assert "ignored" in stale
            # the server stops while the page is open
            running.stop()
            running = None
            stopped = wait_for(lambda: "shut down" in page_state(driver)["banner"] and page_state(driver)["banner"], 20)
            assert "The server shut down" in stopped and page_state(driver)["act"] is None
            assert not driver.find_element(By.ID, "hint").is_enabled()
            errors = console_errors(driver, allowed=("WebSocket", "status.json", "ERR_CONNECTION_REFUSED"))
            assert errors == []
    finally:
        if running is not None:
            running.stop()


def page_state_banner(driver):
    el = driver.find_element("id", "banner")
    return "" if not el.is_displayed() else el.text


@pytest.mark.slow
def test_the_table_and_the_viewer_fit_a_phone(tmp_path):
    from selenium.webdriver.common.by import By

    path, _ = _record_file(tmp_path, seed=5)
    running = start_web(seat=0, bots="greedy", seed=8, ruleset="competitive_2022+cap1")
    with running, chrome(390, 844, phone=True) as driver:
        driver.get(running.page_url)
        wait_for(lambda: (page_state(driver) or {}).get("act"), 20, "the first request")
        width = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], f"the table is wider than the phone: {width}"
        cards = driver.find_elements(By.CSS_SELECTOR, "#hand .card")
        assert len(cards) == 27 and all(c.is_displayed() for c in cards)
        assert all(c.rect["x"] + c.rect["width"] <= width[1] + 1 for c in cards)
        shot(driver, tmp_path, "web-phone.png")
        driver.get(running.page_url + "viewer")
        driver.find_element(By.ID, "file").send_keys(str(path))
        wait_for(lambda: driver.execute_script("return window.guandan.view.line !== null"), 20, "the replay")
        width = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], f"the viewer is wider than the phone: {width}"
        assert console_errors(driver) == []


def test_the_browser_tests_are_bounded():
    """Every wait of the helpers has a deadline: a page that never answers fails, never hangs."""
    started = time.monotonic()
    with pytest.raises(AssertionError, match="timed out after 0.2 s"):
        wait_for(lambda: False, 0.2, "nothing")
    assert time.monotonic() - started < 2
