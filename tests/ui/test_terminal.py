"""``guandan.ui.terminal`` (``guandan play``): a match at the terminal against three bots, driven here
by scripted input."""

from __future__ import annotations

import io
import re
import time

import pytest
from pty_terminal import terminals

from guandan.ui.cli import main


def play(monkeypatch, capsys, script: str, *args: str):
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    status = main(["play", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_table_shows_hand_counts_levels_and_turn_then_quit(monkeypatch, capsys):
    status, out, err = play(monkeypatch, capsys, "quit\n", "--seed", "3")
    assert status == 0 and err == ""
    assert "Card turned up: ♦10 — You (seat 0) lead." in out
    assert "Levels: you & partner 2 · opponents 2" in out
    for name in ("Partner (seat 2)", "Left (seat 3)", "Right (seat 1)", "You (seat 0)"):
        assert f"{name:<17} 27 cards" in out
    assert "Your hand (27): ♥3 ♠4 ♥4 ♦4" in out and "♥2* SB SB" in out
    assert "◀ to act" in out and out.rstrip().endswith("Your play> quit\nBye.")


def test_a_few_turns_choosing_move_1(monkeypatch, capsys):
    status, out, _ = play(monkeypatch, capsys, "moves all\n1\n" * 3 + "quit\n", "--seed", "3")
    assert status == 0
    assert out.count("Your play> ") == 7
    assert "Your play> 1\nYou (seat 0) play single 3: ♥3" in out  # the line read, echoed after its prompt
    assert "To beat: single 7: ♥7 — by Left (seat 3)" in out
    assert "Right (seat 1) plays" in out and "Partner (seat 2) plays" in out


def test_illegal_input_is_explained_and_the_prompt_comes_back(monkeypatch, capsys):
    script = "\n".join(
        ["XX", "5000", "pass", "SA SA", "S4 H4 H5 D5 H2", "help", "S4 H4 H5 D5 H2 as full_house:5", "quit"]
    )
    status, out, _ = play(monkeypatch, capsys, script + "\n", "--seed", "3")
    assert status == 0
    assert "Not understood: bad card token 'XX'" in out
    assert "No move 5000: choose 1 to 1074." in out
    assert "You lead: you cannot pass." in out
    assert "Not legal: you do not hold SA." in out
    assert "can be played as full_house:4 or full_house:5 at level 2: add 'as TYPE:KEY'." in out
    assert "At your turn, type:" in out
    assert "You (seat 0) play full_house 5: ♠4 ♥4 ♥5 ♦5 ♥2 (♥2 as 5)" in out


def test_moves_all_lists_every_legal_move_numbered(monkeypatch, capsys):
    _, out, _ = play(monkeypatch, capsys, "moves all\nquit\n", "--seed", "3")
    assert "   1. single 3: ♥3" in out and "1074. " in out


def test_many_moves_are_grouped_by_type_and_key(monkeypatch, capsys):
    _, out, _ = play(monkeypatch, capsys, "moves\nmoves bomb\nmoves pear\nquit\n", "--seed", "3")
    grouped = "\n".join(
        [
            "1074 legal moves, by type and key (* only with a wild); type e.g. 'pair Q' to play one:",
            "  single          3 4 5 6 7 8 9 10 J Q K A 2 SB",
            "  pair            3* 4 5 6 7* 8 9* 10 J* Q K* A* 2 SB",
            "  triple          4 5* 6* 8* 10* Q 2*",
            "  full_house      4 5* 6* 8* 10* Q 2*",
            "  straight        A 2 3 4 5 6 7 8 9 10 (by the lowest rank)",
            "  pair_run        2* 3* 4 5* 6* 8* 10* (by the lowest rank)",
            "  triple_run      4* (by the lowest rank)",
            "  bomb            4* Q (4-6 cards)",
            "  straight_flush  ♥2* ♥3* ♥4* ♣8* (by the lowest rank)",
        ]
    )
    assert out.count(grouped) == 2  # at the turn, and again for 'moves'
    assert "1074 legal moves: type" not in out
    bombs = out.split("Your play> moves bomb\n")[1].split("Your play> ")[0].splitlines()
    assert len(bombs) == 18 and all(". bomb " in line for line in bombs)  # numbered as in 'moves all'
    assert bombs[0] == "1053. bomb 4: ♠4 ♥4 ♦4 ♥2 (♥2 as 4)"
    assert bombs[-1] == "1070. bomb Q: ♠Q ♠Q ♥Q ♣Q ♦Q ♥2 (♥2 as Q)"
    assert "No move type 'pear': one of bomb, full_house" in out


@pytest.mark.parametrize(
    ("typed", "played"),
    [
        ("straight 9", "straight 9: ♣9 ♥10 ♣J ♠Q ♦K"),  # five more spend the wild: not chosen
        ("pair q", "pair Q: ♠Q ♠Q"),  # the lowest cards; typed out, ♣Q ♦Q would be played
        ("pair-run 4", "pair_run 4: ♠4 ♥4 ♥5 ♦5 ♥6 ♦6"),
        ("Pair Run 4", "pair_run 4: ♠4 ♥4 ♥5 ♦5 ♥6 ♦6"),
        ("single SB", "single SB: SB"),
        ("triple 5", "triple 5: ♥5 ♦5 ♥2 (♥2 as 5)"),  # only with a wild: it is spent
    ],
)
def test_a_short_form_plays_at_once_when_the_cards_do_not_matter(monkeypatch, capsys, typed, played):
    _, out, _ = play(monkeypatch, capsys, f"{typed}\nquit\n", "--seed", "3")
    assert f"Your play> {typed}\nYou (seat 0) play {played}\n" in out


def test_a_short_form_asks_which_cards_when_it_matters(monkeypatch, capsys):
    script = "bomb Q\n3\n\nbomb Q\n2\nquit\n"
    _, out, _ = play(monkeypatch, capsys, script, "--seed", "3")
    asked = "bomb Q can be played 2 ways:\n1. bomb Q: ♠Q ♠Q ♥Q ♣Q\n2. bomb Q: ♠Q ♠Q ♥Q ♣Q ♦Q\n"
    assert out.count(asked) == 2
    which = "Which (a number, a key or the cards; empty to go back)> "
    assert f"{which}3\nChoose 1 to 2, a key or the cards of one of them, or an empty line to go back." in out
    assert f"{which}\nYour play> bomb Q" in out  # an empty line goes back
    assert "You (seat 0) play bomb Q: ♠Q ♠Q ♥Q ♣Q ♦Q" in out


def test_a_short_form_that_names_nothing_playable_is_explained(monkeypatch, capsys):
    _, out, _ = play(monkeypatch, capsys, "triple_run 9\njoker_bomb\npair W\nquit\n", "--seed", "3")
    assert "You have no triple_run 9 to play now ('moves' lists what you can play)." in out
    assert "You have no joker_bomb to play now" in out
    assert "Not understood: bad rank 'W'" in out


@pytest.mark.slow
def test_hint_shows_the_search_bots_three_best_moves_with_their_values(monkeypatch, capsys):
    _, out, _ = play(monkeypatch, capsys, "hint\nquit\n", "--seed", "3")
    lines = out.split("Your play> hint\n")[1].splitlines()
    from guandan.bots.search import DEFAULT_ROLLOUTS

    assert lines[0] == f"Hint ({DEFAULT_ROLLOUTS:,} rollouts) — the mean result in levels for your side (+3 to -3):"
    hinted = [re.fullmatch(r"  ([123])\. (.+?)  +([+-]\d\.\d\d)   type (\d+)", line) for line in lines[1:4]]
    assert all(hinted) and [h[1] for h in hinted] == ["1", "2", "3"]
    values = [float(h[3]) for h in hinted]
    assert all(-3 <= v <= 3 for v in values)
    # the number typed plays the hinted move; the same seed gives the same hint
    number, move = hinted[0][4], hinted[0][2]
    _, again, _ = play(monkeypatch, capsys, f"hint\n{number}\nquit\n", "--seed", "3")
    assert f"Your play> {number}\nYou (seat 0) play {move}" in again
    assert again.split("Your play> hint\n")[1].splitlines()[1:4] == lines[1:4]


def test_hint_in_the_tribute_and_return_phases():
    from guandan import Match
    from guandan.bots.search import MonteCarloAgent
    from guandan.ui.terminal import _Console, _hint

    out = io.StringIO()
    console = _Console(io.StringIO(), out)
    hinter = MonteCarloAgent(seed=1, rollouts=300)
    match = Match(seed=3, levels=(5, 9), previous=(1, 0, 3, 2), hands=[["S3 HR", "D4 HR", "S8 SA DA C7 D7", "C5"]])
    _hint(hinter, match.observation(2), console, list(match.legal_actions()))  # seat 2 pays: ♠A or ♦A
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("Hint (300 rollouts") and len(lines) == 3
    assert {re.sub(r" +[+-]\d\.\d\d   type \d", "", line) for line in lines[1:]} == {"  1. ♠A", "  2. ♦A"}
    match.pay_tribute(lines[1].split()[1].replace("♠", "S").replace("♦", "D"))
    out.seek(0)
    out.truncate(0)
    _hint(hinter, match.observation(1), console, list(match.legal_actions()))  # seat 1 returns one of its low cards
    assert out.getvalue().count("type ") == min(3, len(match.legal_actions()))


def test_end_of_input_quits_cleanly(monkeypatch, capsys):
    status, out, _ = play(monkeypatch, capsys, "", "--seed", "3")
    assert status == 0 and "(end of input)" in out and out.rstrip().endswith("Bye.")


@pytest.mark.slow
def test_a_whole_match_always_choosing_move_1(monkeypatch, capsys):
    status, out, _ = play(monkeypatch, capsys, "moves all\n1\n" * 10000, "--seed", "3")
    assert status == 0
    assert "win the match (passed A)" in out
    assert "Tribute> " in out and "You pay tribute" in out
    assert "Deal 2 at level" in out and "It goes to" in out
    assert "who pass A!" in out and "level A → A" not in out
    # every tribute is followed, once settled, by who receives each card
    settled = [line for line in out.splitlines() if line.startswith("Tribute settled: ")]
    assert settled and all(" from " in line and " to " in line for line in settled)
    assert len(settled) == out.count("\nTribute: ") == 5  # each tribute due is settled and said


@pytest.mark.slow
@pytest.mark.parametrize("args", [("--seat", "2", "--bots", "random"), ("--seat", "1", "--ruleset", "nanjing")])
def test_a_whole_match_at_another_seat_with_other_bots_or_rules(monkeypatch, capsys, args):
    status, out, _ = play(monkeypatch, capsys, "moves all\n1\n" * 15000, "--seed", "5", *args)
    assert status == 0 and "win the match" in out


def test_bad_options_are_errors(monkeypatch, capsys):
    status, _, err = play(monkeypatch, capsys, "", "--bots", "smart")
    assert status == 2 and "unknown agent 'smart'" in err
    status, _, err = play(monkeypatch, capsys, "", "--ruleset", "paris")
    assert status == 2 and "unknown ruleset 'paris'" in err


# -- at a real terminal: a pseudo-terminal, `python -m guandan play` in a process of its own -------


@pytest.fixture
def terminal():
    yield from terminals()


@pytest.mark.slow
def test_at_a_terminal_the_prompt_keeps_the_cursor_lines_are_edited_and_recalled_and_ctrl_c_ends_cleanly(terminal):
    t = terminal("--seed", "3")
    screen = t.read_until("Your play> ")  # the cursor waits after the prompt, on its line
    assert "You (seat 0) lead." in screen and "Your play> \n" not in screen
    t.type("help\r")
    assert "At your turn, type:" in t.read_until("Your play> ")  # the text since the last prompt
    t.type("\x1b[A\r")  # the up arrow recalls "help" (readline's history)
    assert "At your turn, type:" in t.read_until("Your play> ")
    t.type("ass\x01p\r")  # typed "ass", Ctrl-A to the start of the line, "p": "pass"
    assert "You lead: you cannot pass." in t.read_until("Your play> ")
    t.type("pasx\x7fs\r")  # a typo rubbed out
    assert "You lead: you cannot pass." in t.read_until("Your play> ")
    # Ctrl-C, as a person types it: not in the instant the prompt appears (CPython's readline
    # sees a SIGINT that arrives before it starts waiting for a key only at the next key)
    time.sleep(0.5)
    t.type("\x03")
    tail = t.rest()
    if t.proc.poll() is None:
        # on a loaded machine the SIGINT may still have come before readline waited: then
        # it is seen at the next key, which alone (a letter, no Enter) would not end the match
        t.type("x")
        tail += t.rest()
    assert t.wait() == 130
    assert "Interrupted: the match is left unfinished." in tail and "Traceback" not in t.text + tail


@pytest.mark.slow
def test_at_a_terminal_ctrl_d_ends_the_match_with_status_0(terminal):
    t = terminal("--seed", "3")
    t.read_until("Your play> ")
    t.type("\x04")  # Ctrl-D at the start of a line: the end of input
    tail = t.rest()
    assert t.wait() == 0
    assert "(end of input)\nBye." in tail and "Traceback" not in tail


@pytest.mark.slow
def test_a_finished_match_says_its_result_before_where_its_record_is(monkeypatch, tmp_path):
    """The result is what the person waited for: it comes first, then the record's path."""
    from guandan import GreedyAgent
    from guandan.ui import terminal as table

    monkeypatch.setattr(table, "_Person", lambda match, seat, console, hinter: GreedyAgent())
    out = io.StringIO()
    path = tmp_path / "mine.json"
    assert table.play_match(seat=0, seed=3, stdin=io.StringIO(""), stdout=out, record=str(path)) == 0
    *_, result, where = out.getvalue().splitlines()
    assert re.fullmatch(r"(You and your partner|The opponents) win the match \(.+\) after \d+ deals\.", result)
    assert where.startswith(f"The match's record is in {path} ") and path.exists()
