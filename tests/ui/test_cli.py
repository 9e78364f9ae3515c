"""The ``guandan`` command line: ``moves`` in text and JSON, --beat/--as, errors, the entry point."""

import io
import json
import subprocess
import sys

import pytest

from guandan import MoveType
from guandan.core.reference import generate_moves
from guandan.ui.cli import main

SEED_HAND = "S3 C4 D4 C5 D5 H2"


def run(capsys, *argv):
    """Run the command; its exit status, stdout and stderr."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def run_json(capsys, *argv):
    status, out, err = run(capsys, *argv, "--json")
    assert status == 0, err
    return json.loads(out)


# -- human output ---------------------------------------------------------------------------------


def test_moves_lists_every_move_with_unicode_suits_and_a_count(capsys):
    status, out, err = run(capsys, "moves", SEED_HAND, "--level", "2")
    lines = out.splitlines()
    assert status == 0 and err == ""
    assert "pair_run 3: ♠3 ♣4 ♦4 ♣5 ♦5 ♥2 (♥2 as 3)" in lines
    assert "full_house 5: ♣4 ♦4 ♣5 ♦5 ♥2 (♥2 as 5)" in lines
    assert lines[-1] == f"{len(lines) - 1} legal moves"
    assert len(lines) - 1 == len(generate_moves(SEED_HAND, 2)) == 18


def test_moves_are_ordered_by_type_then_strength(capsys):
    _, out, _ = run(capsys, "moves", "S2 SA S5 H2", "--level", "2")
    singles = [line for line in out.splitlines() if line.startswith("single")]
    # elevated order at level 2: 5 < A < 2; the plain S2 before the wild H2
    assert singles == ["single 5: ♠5", "single A: ♠A", "single 2: ♠2", "single 2: ♥2"]
    types = [line.split()[0] for line in out.splitlines()[:-1]]
    assert types == sorted(types, key=lambda t: MoveType.parse(t))


def test_hand_may_be_given_as_several_words(capsys):
    _, one, _ = run(capsys, "moves", SEED_HAND, "--level", "2")
    _, many, _ = run(capsys, "moves", *SEED_HAND.split(), "--level", "2")
    assert one == many


def test_level_accepts_letters_and_numbers(capsys):
    _, ten, _ = run(capsys, "moves", "HT ST", "--level", "10")
    _, tee, _ = run(capsys, "moves", "HT ST", "--level", "t")
    assert ten == tee
    assert "pair 10: ♠10 ♥10" in ten.splitlines()


def test_beat_lists_beating_moves_then_the_pass(capsys):
    status, out, _ = run(capsys, "moves", "S5 C5 D5 S9 H2", "--level", "2", "--beat", "S4 C4 D4 S8 C8")
    lines = out.splitlines()
    assert status == 0
    assert lines[-2:] == ["pass", f"{len(lines) - 1} legal moves"]
    assert all(line.startswith(("full_house", "bomb")) for line in lines[:-2])
    assert "full_house 5: ♠5 ♣5 ♦5 ♠9 ♥2 (♥2 as 9)" in lines
    assert "bomb 5: ♠5 ♣5 ♦5 ♥2 (♥2 as 5)" in lines


def test_rank_granularity_text(capsys):
    _, out, _ = run(capsys, "moves", "S5 C5 H2", "--level", "2", "--granularity", "rank")
    assert out.splitlines() == [
        "single 5: 5",
        "single 2: +1 wild",
        "pair 5: 5 5",
        "pair 5: 5 +1 wild",
        "triple 5: 5 5 +1 wild",
        "5 legal moves",
    ]


def test_a_single_move_is_counted_in_the_singular(capsys):
    _, out, _ = run(capsys, "moves", "S5", "--level", "2")
    assert out.splitlines() == ["single 5: ♠5", "1 legal move"]


# -- JSON -----------------------------------------------------------------------------------------


def test_json_seed_example_pair_run_declares_the_wild_as_a_heart_three(capsys):
    doc = run_json(capsys, "moves", SEED_HAND, "--level", "2")
    assert doc["level"] == "2" and doc["granularity"] == "card"
    runs = [m for m in doc["moves"] if m["type"] == "pair_run"]
    assert runs == [
        {
            "type": "pair_run",
            "key": "3",
            "size": 6,
            "suit": None,
            "cards": ["H2", "S3", "C4", "D4", "C5", "D5"],
            "as": ["S3", "H3", "C4", "D4", "C5", "D5"],
        }
    ]
    assert len(doc["moves"]) == 18


def test_json_is_exactly_one_object(capsys):
    status, out, _ = run(capsys, "moves", SEED_HAND, "--level", "2", "--json")
    assert status == 0
    assert out.count("\n") == 1 and isinstance(json.loads(out), dict)


def test_json_level_is_the_rank_letter(capsys):
    assert run_json(capsys, "moves", "S5", "--level", "10")["level"] == "T"


def test_json_pass_joker_bomb_and_straight_flush(capsys):
    doc = run_json(capsys, "moves", "SB SB HR HR D3 D4 D6 D7 H2", "--level", "2", "--beat", "S9 C9 D9 H9")
    moves = doc["moves"]
    assert moves[-1] == {"type": "pass", "key": None, "size": 0, "suit": None, "cards": [], "as": []}
    joker = [m for m in moves if m["type"] == "joker_bomb"]
    assert joker == [
        {
            "type": "joker_bomb",
            "key": "JOKER",
            "size": 4,
            "suit": None,
            "cards": ["SB", "SB", "HR", "HR"],
            "as": ["SB", "SB", "HR", "HR"],
        }
    ]
    flush = [m for m in moves if m["type"] == "straight_flush"]
    assert flush == [
        {
            "type": "straight_flush",
            "key": "3",
            "size": 5,
            "suit": "D",
            "cards": ["H2", "D3", "D4", "D6", "D7"],
            "as": ["D3", "D4", "D5", "D6", "D7"],
        }
    ]


def test_json_rank_granularity(capsys):
    doc = run_json(capsys, "moves", "S5 C5 D5 SB SB H2", "--level", "2", "-g", "rank")
    assert doc["granularity"] == "rank"
    full_houses = [m for m in doc["moves"] if m["type"] == "full_house"]
    head = {"type": "full_house", "key": "5", "size": 5, "suit": None}
    assert head | {"ranks": {"5": 3, "B": 2}, "wilds": 0} in full_houses
    assert head | {"ranks": {"5": 2, "B": 2}, "wilds": 1} in full_houses
    assert all("cards" not in m and "as" not in m for m in doc["moves"])
    assert len(doc["moves"]) == len(generate_moves("S5 C5 D5 SB SB H2", 2, granularity="rank"))


def test_json_ten_card_bomb_declares_ten_nines(capsys):
    # the declared faces of a ten-card bomb cannot be a Cards multiset (at most 2 per face)
    doc = run_json(capsys, "moves", "S9 S9 H9 H9 C9 C9 D9 D9 H2 H2", "--level", "2")
    (ten,) = [m for m in doc["moves"] if m["size"] == 10]
    assert ten["type"] == "bomb" and ten["key"] == "9"
    assert sorted(ten["as"]) == sorted(["S9", "H9", "C9", "D9"] * 2 + ["H9", "H9"])


# -- --beat and --as ------------------------------------------------------------------------------


def test_ambiguous_beat_lists_the_choices(capsys):
    status, out, err = run(capsys, "moves", "SK CK DK H9", "--level", "9", "--beat", "S3 C3 S5 C5 H9")
    assert status == 2 and out == ""
    assert err.startswith("guandan: error: ")
    assert "full_house:3" in err and "full_house:5" in err and "--as" in err
    assert "Traceback" not in err


def test_ambiguous_straight_or_straight_flush_lists_both(capsys):
    status, _, err = run(capsys, "moves", "SK", "--level", "2", "--beat", "D3 D4 D6 D7 H2")
    assert status == 2
    assert "straight:3" in err and "straight_flush:3" in err


def test_as_chooses_the_declaration(capsys):
    base = ["moves", "S4 C4 D4 SK CK H9", "--level", "9", "--beat", "S3 C3 S5 C5 H9"]
    over_threes = run_json(capsys, *base, "--as", "full_house:3")["moves"]
    over_fives = run_json(capsys, *base, "--as", "full_house:5")["moves"]
    keys = lambda moves: {m["key"] for m in moves if m["type"] == "full_house"}  # noqa: E731
    assert "4" in keys(over_threes) and "4" not in keys(over_fives)
    assert keys(over_fives) == {"K"}


def test_as_type_alone_is_enough_when_it_decides(capsys):
    doc = run_json(capsys, "moves", "S4 S5 S6 S7 S8", "--level", "2", "--beat", "D3 D4 D6 D7 H2", "--as", "straight")
    types = {m["type"] for m in doc["moves"]}
    assert types == {"straight", "straight_flush", "pass"}


def test_as_type_alone_can_still_be_ambiguous(capsys):
    status, _, err = run(capsys, "moves", "SK", "--level", "9", "--beat", "S3 C3 S5 C5 H9", "--as", "full_house")
    assert status == 2 and "full_house:3" in err and "full_house:5" in err


def test_as_that_matches_nothing(capsys):
    status, _, err = run(capsys, "moves", "SK", "--level", "9", "--beat", "S3 C3 S5 C5 H9", "--as", "straight:3")
    assert status == 2
    assert "cannot be played as straight:3" in err and "full_house:3" in err


def test_as_needs_beat(capsys):
    status, _, err = run(capsys, "moves", "SK", "--level", "9", "--as", "pair")
    assert status == 2 and "--beat" in err


def test_beat_that_is_no_combination(capsys):
    status, _, err = run(capsys, "moves", "SK", "--level", "2", "--beat", "S3 S4")
    assert status == 2 and "S3 S4 form no combination" in err


def test_beat_at_rank_granularity(capsys):
    doc = run_json(capsys, "moves", "SK CK DK H2", "--level", "2", "--beat", "S9 C9", "-g", "rank")
    assert [(m["type"], m["key"], m["wilds"]) for m in doc["moves"]] == [
        ("pair", "K", 0),
        ("pair", "K", 1),
        ("bomb", "K", 1),
        ("pass", None, 0),
    ]


# -- errors ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["moves", "S3 X9", "--level", "2"], "'X9'"),
        (["moves", "S3 S3 S3", "--level", "2"], "too many copies of S3"),
        (["moves", "S3", "--level", "1"], "bad level '1'"),
        (["moves", "S3", "--level", "SB"], "bad level 'SB'"),
        (["moves", "S3", "--level", "2", "--beat", "S4 Q4"], "'Q4'"),
        (["moves", "S3", "--level", "2", "--beat", "S4", "--as", "quad"], "unknown move type 'quad'"),
    ],
)
def test_bad_input_exits_2_with_a_message(capsys, argv, named):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.startswith("guandan: error: ") and named in err
    assert "Traceback" not in err


def test_usage_errors_exit_2(capsys):
    status, _, err = run(capsys, "moves", "S3")
    assert status == 2 and "--level" in err
    status, _, err = run(capsys)
    assert status == 2 and "COMMAND" in err


def test_help_describes_the_notation_and_gives_an_example(capsys):
    status, out, _ = run(capsys, "--help")
    assert status == 0
    assert "moves" in out and "SB" in out and 'guandan moves "S3 C4 D4 C5 D5 H2" --level 2' in out
    status, out, _ = run(capsys, "--version")
    assert status == 0 and out.startswith("guandan ")
    status, out, _ = run(capsys, "moves", "--help")
    assert status == 0
    for part in ("--level", "--beat", "--as", "--granularity", "--json", "full_house:5", "HR", "examples:"):
        assert part in out


# -- exit statuses: 0 done, 2 bad input (a message, no traceback), a bug is a bug ------------------


@pytest.mark.parametrize(
    ("argv", "status", "named"),
    [
        (["moves", "S3", "--level", "2"], 0, ""),
        (["simulate", "2", "--deals", "--workers", "1", "--quiet"], 0, ""),
        (["moves", "S3", "--level", "Z"], 2, "bad level 'Z'"),
        (["moves"], 2, "HAND"),
        (["simulate", "0"], 2, "N must be at least 1"),
        (["simulate", "x"], 2, "invalid int value"),
        (["simulate", "2", "--agents", "smart", "--workers", "1"], 2, "unknown agent 'smart'"),
        (["simulate", "2", "--agents", "greedy,mc,mc", "--workers", "1"], 2, "one agent for every seat, two"),
        (["simulate", "2", "--ruleset", "paris", "--workers", "1"], 2, "unknown ruleset 'paris'"),
        (["simulate", "2", "--workers", "0"], 2, "--workers: at least 1 process"),
        (["simulate", "2", "--out", "rows.txt"], 2, "--out: 'rows.txt' must end in .jsonl (JSON Lines), .json"),
        (["play", "--bots", "smart"], 2, "unknown agent 'smart'"),
        (["play", "--ruleset", "paris"], 2, "unknown ruleset 'paris'"),
        (["play", "--seat", "7"], 2, "invalid choice"),
        (["chess"], 2, "invalid choice"),
    ],
)
def test_exit_status_of_every_command(monkeypatch, capsys, argv, status, named):
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    got, out, err = run(capsys, *argv)
    assert got == status, err
    assert named in err and "Traceback" not in err
    if status == 2:
        assert err.startswith(("guandan: error: ", "usage: guandan")) and out == ""


class PlantedBug(ValueError):
    """A bug planted in the library for a test: a ValueError, but not an error of guandan.errors."""


def planted(*args, **kwargs):
    raise PlantedBug("planted")


@pytest.mark.parametrize(
    ("target", "argv"),
    [
        ("guandan.ui.commands.moves.legal_moves", ["moves", "S3", "--level", "2"]),
        ("guandan.ui.commands.moves.parse_play", ["moves", "S3", "--level", "2", "--beat", "S4"]),
        ("guandan.bots.simulate.simulate", ["simulate", "2", "--workers", "1", "--quiet"]),
        ("guandan.game.match.Match.play_index", ["simulate", "2", "--workers", "1", "--quiet"]),  # greedy plays indices
        ("guandan.game.match.Match.play", ["simulate", "2", "--workers", "1", "--quiet", "--agents", "mc-basic:determinizations=1"]),  # noqa: E501
        ("guandan.bots.registry.seat_specs", ["simulate", "2", "--workers", "1", "--quiet"]),
        ("guandan.ui.terminal.make_agents", ["play", "--seed", "3"]),
        ("guandan.ui.terminal.get_ruleset", ["play", "--seed", "3"]),
        ("guandan.game.match.Match.play", ["play", "--seed", "3", "--seat", "0"]),
    ],
)
def test_a_bug_inside_the_library_surfaces_instead_of_exiting_as_bad_input(monkeypatch, capsys, target, argv):
    monkeypatch.setattr("sys.stdin", io.StringIO("moves all\n1\n" * 25 + "quit\n"))  # a number of the list shown
    monkeypatch.setattr(target, planted)
    with pytest.raises(PlantedBug):
        main(argv)


# -- the entry point ------------------------------------------------------------------------------


@pytest.mark.slow
def test_python_dash_m_guandan_runs_the_command_line():
    result = subprocess.run(
        [sys.executable, "-m", "guandan", "moves", SEED_HAND, "--level", "2", "--json"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    assert any(m["type"] == "pair_run" and "H3" in m["as"] for m in doc["moves"])


@pytest.mark.slow
def test_python_dash_m_guandan_reports_errors_with_status_2():
    result = subprocess.run(
        [sys.executable, "-m", "guandan", "moves", "S3 ZZ", "--level", "2"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr.startswith("guandan: error: ") and "'ZZ'" in result.stderr


def _interrupt(*args, **kwargs):
    raise KeyboardInterrupt


@pytest.mark.parametrize(
    ("target", "argv"),
    [
        ("guandan.bots.simulate.simulate", ["simulate", "2", "--workers", "1", "--quiet"]),
        ("guandan.ui.commands.moves.legal_moves", ["moves", "S3", "--level", "2"]),
    ],
)
def test_ctrl_c_ends_any_command_with_one_line_and_status_130(monkeypatch, capsys, target, argv):
    monkeypatch.setattr(target, _interrupt)
    assert main(argv) == 130
    assert capsys.readouterr().err == "\nguandan: interrupted\n"


def test_ctrl_c_during_a_bots_turn_ends_the_match_with_status_130(monkeypatch, capsys):
    monkeypatch.setattr("guandan.bots.agents.GreedyAgent.act", _interrupt)
    monkeypatch.setattr("sys.stdin", io.StringIO("moves all\n1\n" * 25))
    assert main(["play", "--seed", "3"]) == 130
    out, err = capsys.readouterr()
    assert out.endswith("\nInterrupted: the match is left unfinished.\n") and err == ""
