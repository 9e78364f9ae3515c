"""benchmarks/sparring.py starts the field bots with their random choices seeded, so that a
sparring run can be replayed move for move; checked here on a stand-in bot that draws the way
the field bots do (``from random import randint`` in a module beside the script)."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest
from scripts import load_script

from guandan import Match
from guandan.records.games import replay

sparring = load_script("sparring")
kept_records = load_script("kept_records", register=True)  # its dataclass looks its module up

HELPER = """from random import randint


def draws():
    return [randint(0, 10**9) for _ in range(4)]
"""
BOT = """import sys

import helper

if __name__ == "__main__":
    print(sys.argv[0], helper.draws(), hash("jiefeng") % 1000)
"""


def _run(folder: pathlib.Path, seed: int) -> str:
    args, env = sparring.field_bot_command(sys.executable, "bot.py", seed)
    done = subprocess.run(args, cwd=folder, env=env, capture_output=True, text=True, timeout=60, check=True)
    return done.stdout


@pytest.mark.slow
def test_a_field_bot_runs_as_main_with_seeded_draws(tmp_path):
    (tmp_path / "helper.py").write_text(HELPER, encoding="utf-8")
    (tmp_path / "bot.py").write_text(BOT, encoding="utf-8")
    first, again, other = _run(tmp_path, 11), _run(tmp_path, 11), _run(tmp_path, 12)
    assert first.startswith("bot.py [")  # run as __main__, its own name in argv, its folder importable
    assert first == again  # the same seed: the same draws and the same string hashes
    assert first.split("[")[1] != other.split("[")[1]  # another seed: other draws


def test_the_records_digest_tells_games_apart():
    games = [{"deals": [{"actions": [{"seat": 0, "type": "single", "key": "5"}]}]}]
    changed = [{"deals": [{"actions": [{"seat": 0, "type": "single", "key": "6"}]}]}]
    assert sparring._digest(games) == sparring._digest([dict(g) for g in games])
    assert sparring._digest(games) != sparring._digest(changed)


@pytest.mark.slow
def test_kept_records_replay_and_tally_like_the_run(tmp_path, capsys):
    kept, again = tmp_path / "kept", tmp_path / "again"
    assert sparring.main(["greedy", "random", "--games", "2", "--seed", "5", "--keep-records", str(kept)]) == 0
    printed = capsys.readouterr().out
    index = json.loads((kept / "games.json").read_text(encoding="utf-8"))
    assert (index["spec"], index["opponent"], index["seed"]) == ("greedy", "random", 5)
    assert [g["spec_side"] for g in index["games"]] == [0, 1]  # the sides swapped
    won = deals = 0
    for game in index["games"]:
        match = replay(json.loads((kept / game["file"]).read_text(encoding="utf-8")))
        assert isinstance(match, Match) and match.is_over and game["over"]
        assert game["deals"] == len(match.results)
        mine = sum(s.result.winning_side == game["spec_side"] for s in match.results)
        assert game["deals_won"] == mine and game["won"] == (match.winner == game["spec_side"])
        won, deals = won + mine, deals + len(match.results)
    assert f"deals won {won}/{deals} " in printed and index["records_sha256"] in printed
    sparring.main(["greedy", "random", "--games", "2", "--seed", "5", "--keep-records", str(again)])
    assert json.loads((again / "games.json").read_text(encoding="utf-8")) == index  # a seeded run replays


@pytest.mark.slow
def test_the_survey_of_kept_games_counts_their_deals_and_the_straight_flushes_broken(tmp_path, capsys):
    kept = tmp_path / "kept"
    sparring.main(["greedy", "random", "--games", "8", "--seed", "5", "--keep-records", str(kept)])
    index = json.loads((kept / "games.json").read_text(encoding="utf-8"))
    survey = kept_records.survey([kept])
    assert survey.games == 8 and survey.won["first"][1] == 8  # a first deal a game
    assert survey.deals == sum(g["deals"] for g in index["games"])
    assert survey.deals_won == sum(g["deals_won"] for g in index["games"])
    # greedy spends its cards canonically: some of its plays break a straight flush
    assert survey.plays > 1000 and 0 < survey.broke_last <= survey.broke and 0 < len(survey.broke_deals) <= survey.broke
    # greedy goes out whenever it can (its first preference): it never declines
    assert survey.could_go_out >= survey.games and survey.declined == 0 and not survey.declined_deals
    took, declined = survey.first_chance["took"], survey.first_chance["declined"]
    assert 0 < took[0] <= survey.deals and declined == [0, 0.0] and -3 * took[0] <= took[1] <= 3 * took[0]
    # random plays any legal move: it often declines to go out, and its side loses some of those deals
    rand = tmp_path / "random"
    sparring.main(["random", "random", "--games", "2", "--seed", "5", "--keep-records", str(rand)])
    other = kept_records.survey([rand])
    assert 0 < other.declined < other.could_go_out and other.declined_lost <= other.declined_deals
    assert 0 < len(other.declined_lost)
    declined = other.first_chance["declined"][0]
    assert 0 < declined <= len(other.declined_deals) and sum(other.declined_first_out.values()) == declined
    capsys.readouterr()
    assert kept_records.main([str(kept)]) == 0
    assert f"the spec's plays: {survey.plays}; {survey.broke} broke" in capsys.readouterr().out


@pytest.mark.slow
def test_mc_breaks_no_straight_flush_another_choice_of_suits_keeps(tmp_path):
    kept = tmp_path / "kept"
    sparring.main(["mc:rollouts=30", "greedy", "--games", "2", "--seed", "5", "--keep-records", str(kept)])
    survey = kept_records.survey([kept])
    assert survey.plays > 100 and survey.broke == 0
