"""``guandan play`` as a new player meets it, at a real terminal (a pseudo-terminal,
``tests/pty_terminal.py``): what the first screen says, input that means one thing to a
person and was read as another (a lone ``Q``, a number of a list not on the screen, a
misspelt type, a rank alone), what a type alone offers, the "Which" prompt, the order of a
move's cards, a hint with one choice, and the jiefeng lead. Every wait has a time bound."""

from __future__ import annotations

import pytest
from pty_terminal import terminals

PROMPT = "Your play> "
WHICH = "Which (a number, a key or the cards; empty to go back)> "


@pytest.fixture
def terminal():
    yield from terminals()


def answer(t, keys: str, wanted: str = PROMPT) -> str:
    """Type a line and return the screen up to the next ``wanted``."""
    t.type(keys + "\r")
    return t.read_until(wanted)


@pytest.mark.slow
def test_a_new_players_input_is_read_as_meant_and_explained(terminal):
    t = terminal("--seed", "3")
    first = t.read_until(PROMPT)
    assert "Type 'help' for the commands, 'moves' for your moves; 'quit' leaves the match." in first
    # the hand and a move list put the level card (2) in the same place: above the ace
    assert "Your hand (27): " in first and first.split("Your hand (27): ")[1].startswith("♥3 ♠4")
    assert "♠A ♠2 ♣2 ♥2* SB SB" in first
    moves = answer(t, "moves full_house")
    assert "full_house 4: ♠4 ♥4 ♦4 ♠2 ♣2" in moves and "♠2 ♣2 ♠4" not in moves
    # a queen is not "quit"
    screen = answer(t, "Q")
    assert "Not understood: 'Q'. Did you mean 'single Q' or 'pair Q' or 'triple Q' or 'full_house Q'?" in screen
    # a number plays only a move of a list on the screen (the moves are grouped, not numbered)
    assert "No list on the screen numbers a move 7: type 'moves all'" in answer(t, "7")
    assert "Not understood: 'trple 7'. Did you mean 'triple 7' or 'triple_run 7'?" in answer(t, "trple 7")
    assert "Did you mean 'single K' or 'pair K'?" in answer(t, "K")
    # a parse error is not called illegal; an illegal move is
    assert "Not understood: bad card token 'X9'" in answer(t, "S3 X9")
    assert "Not legal: you do not hold SA." in answer(t, "SA SA")
    # a type alone offers every key the summary lists, the wild-only ones (*) included
    bombs = answer(t, "bomb", WHICH)
    assert "bomb can be played 3 ways:\n1. bomb 4: ♠4 ♥4 ♦4 ♥2 (♥2 as 4)\n" in bombs
    answer(t, "")  # back
    pairs = answer(t, "pair", WHICH)
    assert "pair can be played 14 ways:" in pairs and "1. pair 3: ♥3 ♥2 (♥2 as 3)" in pairs
    assert "pair 7: ♠7 ♥2 (♥2 as 7)" in pairs and "pair SB: SB SB" in pairs
    # "Which" takes a key (or the cards), not only a number
    played = answer(t, "Q")
    assert "You (seat 0) play pair Q: ♠Q ♠Q" in played
    t.type("quit\r")
    tail = t.rest()
    assert t.wait() == 0 and "Bye." in tail


def _only_pass(screen: str) -> bool:
    return "\n1. pass\n" in screen and "\n2. " not in screen


@pytest.mark.slow
def test_a_hint_with_one_choice_searches_nothing_and_a_jiefeng_lead_is_announced(terminal):
    t = terminal("--seed", "8")
    screen = t.read_until(PROMPT)
    hinted = 0
    for _ in range(120):
        if "Jiefeng: " in screen:
            break
        if screen.endswith(PROMPT) and _only_pass(screen):
            assert "You can only pass." in screen
            hint = answer(t, "hint")
            assert "Hint: you have one choice only, pass (type 1): nothing to weigh." in hint, hint
            assert "rollouts" not in hint
            hinted += 1
            screen = answer(t, "pass", "> ")
        elif screen.endswith(PROMPT):
            answer(t, "moves all")
            screen = answer(t, "1", "> ")
        else:  # a tribute or return prompt
            screen = answer(t, "1", "> ")
    assert hinted >= 1
    line = next(x for x in screen.splitlines() if x.startswith("Jiefeng: "))
    assert line == "Jiefeng: Right (seat 1) went out and won the trick; Left (seat 3) leads in its place."
    t.type("quit\r")
    t.rest()
    assert t.wait() == 0
