"""A run's checkpoints rated against a pool: the round robin holds the last checkpoints and
the fixed bots, the curve follows the checkpoints' frames, the same command continues its
log (and a changed pool starts a new one), bad input is refused by name with status 2."""

from __future__ import annotations

import json

import pytest

from guandan.errors import GuandanError
from guandan.rl.pool import checkpoints, main, rate_checkpoints
from guandan.rl.qnet import QNetwork


def write_checkpoints(folder, frames):
    for f in frames:
        QNetwork(hidden=(4,), seed=f).to_onnx(str(folder / f"model-{f}.onnx"))


@pytest.mark.slow
def test_the_pool_rates_the_last_checkpoints_and_its_log_continues(tmp_path):
    write_checkpoints(tmp_path, (100, 200, 300))
    one = rate_checkpoints(str(tmp_path), last=2, fixed=["random"], pairs=2, seed=4, workers=1)
    bots = one.tournament.bots
    assert bots == ["random", f"onnx:model={tmp_path}/model-200.onnx", f"onnx:model={tmp_path}/model-300.onnx"]
    assert [row["frames"] for row in one.curve()] == [200, 300]
    assert len(one.tournament.results) == 3 * 2  # three pairings, two pairs each
    log = tmp_path / "pool.jsonl"
    lines = log.read_text().splitlines()
    again = rate_checkpoints(str(tmp_path), last=2, fixed=["random"], pairs=2, seed=4, workers=1)
    assert again.summary() == one.summary()  # read back, nothing played again
    assert sum(1 for line in log.read_text().splitlines() if '"run"' not in line) == \
        sum(1 for line in lines if '"run"' not in line)
    write_checkpoints(tmp_path, (400,))
    grown = rate_checkpoints(str(tmp_path), last=2, fixed=["random"], pairs=1, seed=4, workers=1)
    assert [row["frames"] for row in grown.curve()] == [300, 400]
    assert (tmp_path / "pool.jsonl.old").exists()  # the changed pool's log set aside


@pytest.mark.slow
def test_the_command_prints_json_and_draws_the_curve(tmp_path, capsys):
    write_checkpoints(tmp_path, (5, 9))
    plot = tmp_path / "curve.png"
    assert main([str(tmp_path), "--fixed", "random", "--pairs", "1", "--workers", "1", "--json",
                 "--plot", str(plot), "--out", ""]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert [row["frames"] for row in summary["curve"]] == [5, 9] and summary["anchor"] == "random"
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_checkpoints_are_found_by_their_frames(tmp_path):
    write_checkpoints(tmp_path, (30, 4))
    (tmp_path / "model.onnx").write_text("")
    assert [f for f, _ in checkpoints(str(tmp_path))] == [4, 30]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (dict(last=0), "last is an int >= 1"),
        (dict(fixed="greedy"), "fixed is a list"),
        (dict(fixed=["nobot"]), "nobot"),
    ],
)
def test_bad_options_are_refused_by_name(tmp_path, options, message):
    write_checkpoints(tmp_path, (1,))
    with pytest.raises(GuandanError, match=message):
        rate_checkpoints(str(tmp_path), **options)


def test_a_folder_without_checkpoints_is_refused_with_status_2(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        main([str(tmp_path)])
    assert stop.value.code == 2
    assert "no checkpoint (model-<frames>.onnx) in" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main([str(tmp_path / "missing")])
    assert stop.value.code == 2
