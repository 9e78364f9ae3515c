"""Positions from search (guandan.rl.expert): what a chunk holds, the same files however they are
made (resumed, one or two workers), and the command's errors."""

from __future__ import annotations

import os

import numpy as np
import pytest

from guandan import Deal, GuandanError
from guandan.bots.search import MonteCarloAgent
from guandan.game.encoding import STATE_SIZE, encode_rows
from guandan.rl.expert import _rank_word, chunk_name, deal_positions, main, make_positions, read_chunks
from guandan.rl.imitate import deal_level


def test_a_chunk_holds_each_decisions_rows_values_and_the_searched_choice():
    chunk = deal_positions([7], rollouts=30)
    offsets, values, chosen = chunk["offsets"], chunk["values"], chunk["chosen"]
    assert len(chunk["states"]) == len(chosen) == len(offsets) - 1 > 10
    assert offsets[-1] == len(chunk["actions"]) == len(values) == len(chunk["rollouts"])
    for d in range(len(chosen)):
        a, b = offsets[d], offsets[d + 1]
        assert b - a >= 2 and a <= chosen[d] < b
        searched = np.isfinite(values[a:b])
        assert searched.sum() >= 2  # the search had two candidates or more
        # a candidate the search dropped before its first rollout: value 0 of 0 rollouts
        assert (chunk["rollouts"][a:b][~searched] == 0).all()
        assert np.isfinite(values[chosen[d]]) and chunk["rollouts"][chosen[d]] > 0
        assert (np.abs(values[a:b][searched]) <= 3).all()


@pytest.mark.slow
def test_the_first_decision_is_the_search_of_the_deals_first_position_encoded_as_the_onnx_agent_sees_it():
    chunk = deal_positions([7], rollouts=30)
    deal = Deal.new(7, level=deal_level(7))
    obs = deal.observation(deal.turn)
    rows = encode_rows(obs)
    result = MonteCarloAgent(seed=7 * 4 + deal.turn, rollouts=30).analyze(obs)
    n = chunk["offsets"][1]
    assert n == len(rows)
    assert (chunk["states"][0] == rows[0, :STATE_SIZE]).all() and (chunk["actions"][:n] == rows[:, STATE_SIZE:]).all()
    legal = list(obs.legal_actions)
    assert legal[chunk["chosen"][0]] == result.best
    by_word = {_rank_word(c.action): c.value for c in result.choices}
    for i, move in enumerate(legal):  # every card-level action carries its rank-level move's value
        assert chunk["values"][i] == pytest.approx(by_word.get(_rank_word(move), np.nan), nan_ok=True)


def test_a_stopped_run_goes_on_and_makes_the_same_files_as_one_run_and_as_two_workers(tmp_path):
    whole, parts = tmp_path / "whole", tmp_path / "parts"
    assert make_positions(str(whole), 3, first=20, rollouts=20, chunk=1) > 0
    make_positions(str(parts), 1, first=21, rollouts=20, chunk=1)  # a run stopped after its second chunk
    assert make_positions(str(parts), 3, first=20, rollouts=20, chunk=1, workers=2) > 0
    assert make_positions(str(parts), 3, first=20, rollouts=20, chunk=1) == 0  # nothing left
    assert sorted(os.listdir(whole)) == sorted(os.listdir(parts)) == [chunk_name(s) for s in (20, 21, 22)]
    a, b = read_chunks([str(whole)]), read_chunks([str(parts)])
    for key in a:
        assert np.array_equal(a[key], b[key], equal_nan=key == "values"), key
    assert sorted(set(a["seeds"].tolist())) == [20, 21, 22]


test_a_stopped_run_goes_on_and_makes_the_same_files_as_one_run_and_as_two_workers = pytest.mark.slow(
    test_a_stopped_run_goes_on_and_makes_the_same_files_as_one_run_and_as_two_workers
)


def test_bad_options_and_missing_positions_are_refused_naming_them(tmp_path, capsys):
    with pytest.raises(GuandanError, match="rollouts is an int >= 1"):
        make_positions(str(tmp_path), 1, rollouts=0)
    with pytest.raises(GuandanError, match="no positions at"):
        read_chunks([str(tmp_path / "none")])
    with pytest.raises(GuandanError, match="no chunk of positions"):
        read_chunks([str(tmp_path)])
    assert main(["positions", "--out", str(tmp_path), "--deals", "0"]) == 2
    assert "deals is an int >= 1" in capsys.readouterr().err



def test_with_play_the_deal_goes_as_those_agents_play_it_and_mc_judges_each_decision():
    from guandan.bots.registry import make_agent

    chunk = deal_positions([5], rollouts=20, play=("greedy", "random"))
    deal = Deal.new(5, level=deal_level(5))
    agents = [make_agent(("greedy", "random")[s & 1], seed=5 * 4 + s) for s in range(4)]
    states = []
    while not deal.is_over:
        obs = deal.observation(deal.turn)
        if len(obs.legal_actions) == 1:  # played at once, as the positions play it
            deal.play(obs.legal_actions[0])
            continue
        states.append(encode_rows(obs)[0, :STATE_SIZE].astype(np.int8).tobytes())
        deal.play(agents[deal.turn].act(obs))
    assert len(chunk["states"]) > 5 and all(s.tobytes() in states for s in chunk["states"])
    searched = deal_positions([5], rollouts=20)
    assert not np.array_equal(searched["states"][: len(chunk["states"])], chunk["states"][: len(searched["states"])])
    c = chunk["chosen"]  # the choice stored is mc's, a candidate it searched, whatever was played
    assert np.isfinite(chunk["values"][c]).all() and (chunk["rollouts"][c] > 0).all()
    with pytest.raises(GuandanError, match="play is two agent specs"):
        make_positions("unused", 1, play=["greedy"])
    with pytest.raises(GuandanError, match="unknown agent 'nope'"):
        make_positions("unused", 1, play=["greedy", "nope"])
