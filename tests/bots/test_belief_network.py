"""benchmarks/belief_network.py: the views and targets of real deals, the baseline's placement,
and a network that starts as the baseline (torch needed for the last)."""

from __future__ import annotations

import numpy as np
import pytest
from scripts import BENCHMARKS, load_script

belief = load_script("belief_network")


def test_the_targets_are_the_unseen_cards_and_the_views_count_them():
    x, y = belief.collect(2, seed=5)
    assert x.shape[1] == belief.FEATURES and y.shape[1:] == (3, belief.FACES) and len(x) == len(y) > 50
    unseen = x[:, belief.FACES : 2 * belief.FACES] * 2
    np.testing.assert_allclose(y.sum(axis=1), unseen)  # every unseen card in exactly one other hand
    for r in range(3):  # each seat's held count is its copies' total
        held = x[:, 2 * belief.FACES + r * belief.SEAT_FEATURES + belief.FACES] * 27
        np.testing.assert_allclose(y[:, r].sum(axis=1), held, atol=1e-4)
    assert (y[0].sum() == 81) and x[0, : belief.FACES].sum() * 2 == 27  # the first view: 27 cards each


def test_the_baseline_places_by_card_counts_and_the_true_shares_place_more():
    x, y = belief.collect(1, seed=6)
    b = belief.baseline(x)
    np.testing.assert_allclose(b.sum(axis=1), 1.0, atol=1e-6)
    assert 0.3 < belief.placement(b, y) < 0.7
    truth = belief.true_shares(y)
    np.testing.assert_allclose(truth.sum(axis=1)[y.sum(axis=1) > 0], 1.0, atol=1e-6)
    assert 0.8 < belief.placement(truth, y) < 1.0  # below 1: some faces' two copies are split


def test_the_network_starts_as_the_baseline():
    pytest.importorskip("torch")
    x, y = belief.collect(1, seed=7)
    net = belief.fit(x, y, epochs=0, seed=1, hidden=16)
    np.testing.assert_allclose(belief.predict(net, x), belief.baseline(x), atol=1e-5)


@pytest.mark.slow
def test_the_network_learns_its_training_views():
    pytest.importorskip("torch")
    x, y = belief.collect(1, seed=7)
    trained = belief.fit(x, y, epochs=30, seed=1, hidden=32)
    assert belief.placement(belief.predict(trained, x), y) > belief.placement(belief.baseline(x), y) + 0.05


def test_the_command_reports_the_three_placements(capsys):
    pytest.importorskip("torch")
    assert belief.main(["--deals", "5", "--epochs", "1"]) == 0
    out = capsys.readouterr().out
    assert "by card counts" in out and "network" in out and "true shares" in out


@pytest.mark.slow
def test_a_kept_network_is_read_back_and_plays_as_a_belief_in_oracle_headroom(tmp_path, monkeypatch):
    torch = pytest.importorskip("torch")
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # where the script finds it
    x, y = belief.collect(1, seed=8)
    net = belief.fit(x, y, epochs=1, seed=1)
    path = str(tmp_path / "belief.pt")
    torch.save(net.state_dict(), path)
    np.testing.assert_allclose(belief.predict(belief.load(path), x), belief.predict(net, x), atol=1e-6)
    oracle = load_script("oracle_headroom")
    monkeypatch.setattr(oracle.search_module, "information_set", oracle._honest)  # restored after the test
    won0, levels0, won1, levels1 = oracle.play_pair("mc:rollouts=20", 2, 5, belief=(path, 0.6))
    assert won0 in (0, 1) and won1 in (0, 1) and levels0 != 0 and levels1 != 0
    assert oracle._believed is None  # left as it was


def test_a_sure_belief_commits_what_it_is_sure_of_and_rightly():
    x, y = belief.collect(1, seed=9)
    truth = belief.true_shares(y)
    taken, right = belief.committed(truth, y, 0.9)  # the faces wholly in one hand, all rightly
    whole = (y.max(axis=1) == y.sum(axis=1)) & (y.sum(axis=1) > 0)
    assert taken == pytest.approx(y.sum(axis=1)[whole].sum() / y.sum()) and right == pytest.approx(1.0)
    assert belief.committed(belief.baseline(x), y, 0.9)[0] < taken  # the counts are rarely so sure
