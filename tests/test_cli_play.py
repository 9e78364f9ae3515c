"""``guandan play``: a match at the terminal against three bots, driven here by scripted input."""

from __future__ import annotations

import io

import pytest

from guandan.cli import main


def play(monkeypatch, capsys, script: str, *args: str):
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    status = main(["play", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_table_shows_hand_counts_levels_and_turn_then_quit(monkeypatch, capsys):
    status, out, err = play(monkeypatch, capsys, "quit\n", "--seed", "3")
    assert status == 0 and err == ""
    assert "Card turned up: ♦10 — You (seat 0) leads." in out
    assert "Levels: you & partner 2 · opponents 2" in out
    for name in ("Partner (seat 2)", "Left (seat 3)", "Right (seat 1)", "You (seat 0)"):
        assert f"{name:<17} 27 cards" in out
    assert "Your hand (27): ♥3 ♠4 ♥4 ♦4" in out and "♥2* SB SB" in out
    assert "◀ to act" in out and out.rstrip().endswith("Bye.")


def test_a_few_turns_choosing_move_1(monkeypatch, capsys):
    status, out, _ = play(monkeypatch, capsys, "1\n1\n1\nquit\n", "--seed", "3")
    assert status == 0
    assert out.count("Your play> ") == 4
    assert "You (seat 0) plays single 3: ♥3" in out
    assert "To beat: single 7: ♥7 — by Left (seat 3)" in out
    assert "Right (seat 1) plays" in out and "Partner (seat 2) plays" in out


def test_illegal_input_is_explained_and_the_prompt_comes_back(monkeypatch, capsys):
    script = "\n".join(
        ["XX", "5000", "pass", "SA SA", "S4 H4 H5 D5 H2", "help", "S4 H4 H5 D5 H2 as full_house:5", "quit"]
    )
    status, out, _ = play(monkeypatch, capsys, script + "\n", "--seed", "3")
    assert status == 0
    assert "Not legal: bad card token 'XX'" in out
    assert "No move 5000: choose 1 to 1074." in out
    assert "You lead: you cannot pass." in out
    assert "Not legal: seat 0 does not hold SA." in out
    assert "can be played as full_house:4 or full_house:5 at level 2: add 'as TYPE:KEY'." in out
    assert "Type a number to play that move" in out
    assert "You (seat 0) plays full_house 5: ♠4 ♥4 ♥5 ♦5 ♥2 (♥2 as 5)" in out


def test_moves_lists_every_legal_move_numbered(monkeypatch, capsys):
    _, out, _ = play(monkeypatch, capsys, "moves\nquit\n", "--seed", "3")
    assert "   1. single 3: ♥3" in out and "1074. " in out


def test_end_of_input_quits_cleanly(monkeypatch, capsys):
    status, out, _ = play(monkeypatch, capsys, "", "--seed", "3")
    assert status == 0 and "(end of input)" in out and out.rstrip().endswith("Bye.")


def test_a_whole_match_always_choosing_move_1(monkeypatch, capsys):
    status, out, _ = play(monkeypatch, capsys, "1\n" * 20000, "--seed", "3")
    assert status == 0
    assert "win the match (passed A)" in out
    assert "Tribute> " in out and "You pay tribute" in out
    assert "Deal 2 at level" in out and "It goes to" in out


@pytest.mark.parametrize("args", [("--seat", "2", "--bots", "random"), ("--seat", "1", "--ruleset", "nanjing")])
def test_a_whole_match_at_another_seat_with_other_bots_or_rules(monkeypatch, capsys, args):
    status, out, _ = play(monkeypatch, capsys, "1\n" * 30000, "--seed", "5", *args)
    assert status == 0 and "win the match" in out


def test_bad_options_are_errors(monkeypatch, capsys):
    status, _, err = play(monkeypatch, capsys, "", "--bots", "smart")
    assert status == 2 and "unknown agent 'smart'" in err
    status, _, err = play(monkeypatch, capsys, "", "--ruleset", "paris")
    assert status == 2 and "unknown ruleset 'paris'" in err
