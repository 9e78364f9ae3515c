"""``guandan replay``'s errors in the command line's own terms: deals and actions counted from
1, as ``--deal N`` and the printed replay count them, and a JSON file that is not a record
named for what it is."""

from __future__ import annotations

import json
import re

from guandan import GreedyAgent, Match, play_out, record
from guandan.ui.cli import main


def _match_record(tmp_path):
    match = Match(2, "competitive_2022+cap2")
    play_out(match, [GreedyAgent()] * 4)
    return record(match)


def test_the_deal_and_action_an_error_names_are_those_replay_prints_with_the_same_numbers(tmp_path, capsys):
    data = _match_record(tmp_path)
    actions = data["deals"][1]["actions"]
    assert main(["replay", _write(tmp_path, "good.json", data), "--deal", "2"]) == 0
    shown = capsys.readouterr().out
    seat = actions[0]["seat"]
    actions[0]["seat"] = (seat + 1) % 4  # the second deal's first action, by the wrong seat
    assert main(["replay", _write(tmp_path, "bad.json", data)]) == 2
    err = capsys.readouterr().err
    assert re.match(r"guandan: error: \S*bad\.json does not replay: deal 2 action 1 ", err), err
    assert "\nDeal 2 at" in shown and "Deal 1 at" not in shown  # --deal 2: the deal the error calls deal 2


def test_a_json_file_that_is_not_a_record_is_named_for_what_it_is(tmp_path, capsys):
    serve_summary = {"seed": 1, "games": 1, "games_played": 1, "deals": 9, "wins": [1, 0], "tables": []}
    assert main(["replay", _write(tmp_path, "summary.json", serve_summary)]) == 2
    err = capsys.readouterr().err
    assert "summary.json does not replay: the summary of a guandan serve run (summary.json), not a record" in err
    assert "format null" not in err
    assert main(["replay", _write(tmp_path, "other.json", {"hello": 1})]) == 2
    err = capsys.readouterr().err
    assert "not a record: a JSON object with no format (a record's is guandan.match or guandan.deal)" in err
    assert main(["replay", _write(tmp_path, "chess.json", {"format": "chess", "version": 1})]) == 2
    assert 'not a guandan.deal record: format "chess"' in capsys.readouterr().err


def _write(tmp_path, name: str, data) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)
