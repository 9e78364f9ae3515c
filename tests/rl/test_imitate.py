"""Learning the rollout policy: the search's positions, the fit, the improvement by play, and
the command line.

The positions are seeded (the same command, the same rows) and say what the deal was; the fit
recovers a policy whose choices are known (rows labelled by the smart policy: the fitted
policy then plays the smart policy's move) and is deterministic; the improvement is
deterministic in its seed and its duels count what they say.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from refusals import check

from guandan import Deal, GuandanError
from guandan.bots.rollout_policy import (
    FEATURES,
    FIRST_FEATURES,
    HIDDEN,
    NET_WEIGHTS,
    WEIGHTS,
    feature_dims,
    load_weights,
    policy_features,
    policy_file,
)
from guandan.core import _core
from guandan.core.packed import cards_of_bits
from guandan.rl import imitate
from guandan.rl.imitate import (
    agreement,
    deal_level,
    duel,
    expert_positions,
    fit_policy,
    improve,
    opponent_policy,
    position_rows,
    read_positions,
    state_of_row,
    with_hidden,
)


@pytest.fixture(scope="module")
def rows():
    return list(expert_positions(2, first=7, rollouts=150))


@pytest.mark.slow
def test_positions_are_seeded_and_hold_the_deal_and_the_searched_candidates(rows):
    assert rows == list(expert_positions(2, first=7, rollouts=150))
    assert {r["seed"] for r in rows} == {7, 8}
    starts = {s: Deal.new(s, level=deal_level(s)).native_state() for s in (7, 8)}
    for row in rows:
        state = state_of_row(row)
        start = starts[row["seed"]]
        assert state.level == start.level
        for seat in range(4):  # each hand is what is left of the seat's dealt hand
            assert all(((state.hands[seat] >> 2 * f) & 3) <= ((start.hands[seat] >> 2 * f) & 3) for f in range(54))
        hand = state.hands[state.turn]
        legal = {int(w) for w in _core.rank_moves(cards_of_bits(hand).counts, state.level, state.beat)}
        words = [int(w, 16) for w in row["words"]]
        assert len(words) >= 2 and set(words) <= legal and len(set(words)) == len(words)
        assert len(row["values"]) == len(words) == len(row["rollouts"])


@pytest.mark.slow
def test_a_next_iterations_positions_search_with_the_weights_of_a_policy_file(tmp_path):
    """``policy="learned"`` scores with the package's weights, or a file's: the file of the
    package's weights gives the same rows, another file other searches."""
    same, other = tmp_path / "same.json", tmp_path / "other.json"
    same.write_text(policy_file().read_text())
    data = json.loads(policy_file().read_text())
    data["leading"] = [-v for v in data["leading"]]
    other.write_text(json.dumps(data))
    shipped = list(expert_positions(1, first=4, rollouts=60, policy="learned"))
    assert shipped == list(expert_positions(1, first=4, rollouts=60, policy="learned", weights=str(same)))
    assert shipped != list(expert_positions(1, first=4, rollouts=60, policy="learned", weights=str(other)))


@pytest.mark.slow
def test_a_fit_with_a_prior_stays_near_it_as_its_penalty_grows(rows):
    """``prior``: the penalty is the distance to the prior's weights; a heavy one keeps the
    fit at the prior, a light one lets it move towards the search's choices."""
    w0 = load_weights()
    heavy, _ = fit_policy(rows, l2=1e9, steps=5, prior=w0)
    light, info = fit_policy(rows, l2=1.0, steps=10, prior=w0)
    free, _ = fit_policy(rows, l2=1.0, steps=10)
    assert np.abs(heavy - w0).max() < 1e-3
    assert np.abs(light - w0).max() > 1e-2 and not np.array_equal(light, free)
    assert info["log_likelihood"] >= fit_policy(rows, l2=1e9, steps=5, prior=w0)[1]["log_likelihood"]


@pytest.mark.slow
def test_a_fit_to_the_smart_policys_choices_plays_the_smart_policys_moves(rows):
    relabelled = []
    for row in rows:
        smart = _core.smart_move(state_of_row(row))[0]
        relabelled.append({**row, "words": [format(int(smart), "x")]})
    w, info = fit_policy(relabelled, l2=0.01, steps=20)
    assert w[FEATURES.index("smart")] > 1 and w[len(FEATURES) + FEATURES.index("smart")] > 1
    assert info["agreement"] == agreement(relabelled, None) == 1.0
    assert np.array_equal(w, fit_policy(relabelled, l2=0.01, steps=20)[0])


@pytest.mark.slow
def test_the_fit_raises_the_likelihood_of_the_searchs_choices(rows):
    _, none = fit_policy(rows, steps=0)
    w, info = fit_policy(rows, steps=10)
    assert info["log_likelihood"] > none["log_likelihood"] and w.shape == (WEIGHTS,)
    assert info["positions"] == sum(position_rows(r) is not None for r in rows)


@pytest.mark.slow
def test_positions_read_in_the_order_of_their_deals(tmp_path, rows):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text("".join(json.dumps(r) + "\n" for r in rows if r["seed"] == 8))
    b.write_text("".join(json.dumps(r) + "\n" for r in rows if r["seed"] == 7))
    assert read_positions([str(a), str(b)]) == rows
    (tmp_path / "c.jsonl").write_text("{not json\n")
    check(lambda: read_positions([str(tmp_path / "c.jsonl")]), GuandanError, "cannot read the positions")


def test_a_duel_counts_the_deals_the_learned_policy_wins():
    w = load_weights()
    smart_alone = np.zeros(WEIGHTS)
    smart_alone[FEATURES.index("smart")] = smart_alone[len(FEATURES) + FEATURES.index("smart")] = 1.0
    # the smart policy's moves against the smart policy: each deal won once of its two seatings
    assert duel(smart_alone, "smart", deals=30) == 30
    won = duel(w, "greedy", deals=30)
    assert 0 <= won <= 60 and won == duel(w, "greedy", deals=30)
    check(lambda: duel(w, "learned", deals=1), GuandanError, "the opponent is smart, greedy, random or weights")
    # a policy against itself: the two seatings play one game, so each deal is won once
    assert duel(w, w, deals=30) == 30
    # against the smart policy written as weights, as against the smart policy by name
    assert duel(w, smart_alone, deals=30) == duel(w, "smart", deals=30)
    assert opponent_policy("greedy") == "greedy" and np.array_equal(opponent_policy("learned"), w)
    check(lambda: opponent_policy("no-such-file.json"), GuandanError, "cannot read the rollout policy")


def test_improve_is_deterministic_in_its_seed():
    w0 = load_weights()
    a, ha = improve(w0, generations=2, population=2, deals=6, pool=12, seed=3)
    b, hb = improve(w0, generations=2, population=2, deals=6, pool=12, seed=3)
    c, _ = improve(w0, generations=2, population=2, deals=6, pool=12, seed=4)
    assert np.array_equal(a, b) and ha == hb and len(ha) == 2
    assert not np.array_equal(a, c) or not np.array_equal(a, w0)


@pytest.mark.slow
def test_an_improvement_with_a_hidden_layer_moves_the_units_that_read_its_features():
    """From ``with_hidden`` (outputs 0), one generation moves the linear weights of the
    features given and every unit's inputs from them, its bias and its output; nothing else."""
    start = with_hidden(load_weights(), seed=4)
    some = ["pass", "key", "smart"]
    moved, history = improve(start, generations=1, population=4, deals=40, pool=40, seed=3, features=some)
    assert moved.shape == (NET_WEIGHTS,) and len(history) == 1
    changed = set(np.flatnonzero(moved != np.round(start, 6)))
    dims = feature_dims(some, hidden=True)
    assert changed and changed <= set(dims) and len(dims) == 6 + 2 * HIDDEN * 5
    outputs = {WEIGHTS + u * (len(FEATURES) + 2) + len(FEATURES) + 1 for u in range(2 * HIDDEN)}
    assert changed & outputs  # the outputs left 0
    check(lambda: with_hidden(start), GuandanError, f"added to {WEIGHTS} linear weights")


@pytest.mark.slow
def test_a_fit_and_an_improvement_learn_only_the_features_they_are_given(rows):
    start = load_weights()
    start[feature_dims(["opp_over", "pass_jiefeng"])] = 0.5
    kept = np.setdiff1d(np.arange(WEIGHTS), feature_dims(FIRST_FEATURES))
    fitted, _ = fit_policy(rows, steps=3, prior=start, features=FIRST_FEATURES)
    assert np.array_equal(fitted[kept], start[kept]) and not np.array_equal(fitted, start)
    # the fit over some features with the others at the prior's weights is the fit of the
    # whole score: the same as fitting with those features' columns only when the rest weigh 0
    zero = np.zeros(WEIGHTS)
    a, _ = fit_policy(rows, steps=3, prior=zero, features=FIRST_FEATURES)
    assert not a[kept].any()
    some = ["pass", "key", "smart"]
    moved, _ = improve(start, generations=1, population=2, deals=6, pool=12, seed=3, features=some)
    changed = np.flatnonzero(moved != np.round(start, 6))
    assert changed.size and set(changed) <= set(feature_dims(some))
    # the directions over all the features of a shorter list are those drawn for it alone:
    # a file of the first features improves as it did before the list grew
    first = np.zeros(WEIGHTS)
    first[feature_dims(FIRST_FEATURES)] = start[feature_dims(FIRST_FEATURES)]
    x, _ = improve(first, generations=1, population=2, deals=6, pool=12, seed=5, features=FIRST_FEATURES)
    assert not x[kept].any()


@pytest.mark.slow
def test_the_commands_write_positions_and_a_policy_that_loads(tmp_path):
    pos = tmp_path / "pos.jsonl"
    assert (
        imitate.main(["positions", "--deals", "1", "--first", "3", "--rollouts", "100", "--out", str(pos), "--quiet"])
        == 0
    )
    out = tmp_path / "w.json"
    code = imitate.main(
        [
            "fit",
            str(pos),
            "--steps",
            "3",
            "--hold-out-every",
            "0",
            "--duel-deals",
            "5",
            "--out",
            str(out),
            "--made-by",
            "made here",
            "--quiet",
        ]
    )
    assert code == 0
    data = json.loads(out.read_text())
    assert data["made_by"][0] == "made here" and data["made_by"][1].startswith("python -m guandan.rl.imitate fit")
    assert load_weights(str(out)).shape == (WEIGHTS,)
    better = tmp_path / "w2.json"
    code = imitate.main(
        [
            "improve",
            "--weights",
            str(out),
            "--generations",
            "1",
            "--population",
            "1",
            "--deals",
            "3",
            "--pool",
            "4",
            "--duel-deals",
            "3",
            "--opponent",
            str(out),
            "--out",
            str(better),
            "--quiet",
        ]
    )
    improved = json.loads(better.read_text())
    assert code == 0 and "improve" in improved["made_by"][-1] and f"--opponent {out}" in improved["made_by"][-1]
    assert improved["features"] == list(FEATURES)  # fit learns every feature unless told
    # a fit of the first features writes only those; an improvement adds the features it is told
    first = tmp_path / "first.json"
    args = ["fit", str(pos), "--steps", "1", "--hold-out-every", "0", "--duel-deals", "2", "--quiet"]
    assert imitate.main([*args, "--features", "first", "--out", str(first)]) == 0
    data = json.loads(first.read_text())
    assert data["features"] == list(FIRST_FEATURES) and "--features first" in data["made_by"][-1]
    assert policy_features(str(first)) == FIRST_FEATURES
    grown = tmp_path / "grown.json"
    improve_args = ["improve", "--weights", str(first), "--generations", "1", "--population", "1", "--deals", "2"]
    improve_args += ["--pool", "3", "--duel-deals", "2", "--quiet", "--out", str(grown)]
    assert imitate.main([*improve_args, "--add-features", "pass_jiefeng,opp_over"]) == 0
    data = json.loads(grown.read_text())
    assert data["features"] == [n for n in FEATURES if n in {*FIRST_FEATURES, "pass_jiefeng", "opp_over"}]
    assert "--add-features pass_jiefeng,opp_over" in data["made_by"][-1]
    # --hidden adds a hidden layer, learns it and writes it; it refuses a file that has one
    net = tmp_path / "net.json"
    assert imitate.main([*improve_args[:-1], str(net), "--hidden", "7"]) == 0
    data = json.loads(net.read_text())
    assert len(data["hidden"]["leading"]) == HIDDEN and "--hidden 7" in data["made_by"][-1]
    assert load_weights(str(net)).shape == (NET_WEIGHTS,)
    check(lambda: imitate.main([*improve_args[:-2], "--weights", str(net), "--hidden", "1"]), GuandanError, "already")
    check(lambda: imitate.main([*args, "--features", "pass,nothing"]), GuandanError, "got 'nothing'")
    check(lambda: imitate.main([*improve_args, "--add-features", ","]), GuandanError, "features are all, first")
    assert 0 <= improved["improve"]["duels"]["won_against_opponent"] <= 6
    with pytest.raises(SystemExit):
        imitate.main(["--help"])
    check(
        lambda: imitate.main(["positions", "--deals", "0", "--out", str(pos)]),
        GuandanError,
        "--deals is an int >= 1, got 0",
    )
