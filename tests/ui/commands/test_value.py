"""``guandan value``: the steps of ``python -m guandan.rl.state_value`` (their runs:
tests/rl/test_state_value.py)."""

from guandan.ui.cli import build_parser
from guandan.ui.cli import main as guandan


def test_each_step_reads_its_options():
    parser = build_parser()
    args = parser.parse_args(["value", "collect", "--out", "states", "--states", "300", "--seed", "4"])
    assert (args.step, args.out, args.states, args.chunk, args.tables, args.seed, args.epsilon, args.workers) == (
        "collect", "states", 300, 500_000, 256, 4, 0.1, 1)  # fmt: skip
    assert args.exploration == "once"
    chosen = parser.parse_args(["value", "collect", "--out", "s", "--exploration", "decisions"])
    assert chosen.exploration == "decisions"
    args = parser.parse_args(["value", "train", "a", "b", "--out", "v.npz", "--hidden", "32", "16", "--plies", "4"])
    assert (args.step, args.data, args.out, args.hidden, args.plies, args.epochs) == (
        "train", ["a", "b"], "v.npz", [32, 16], 4, 4)  # fmt: skip
    assert parser.parse_args(["value", "train", "a", "--out", "v.npz"]).hidden == [256, 128]


def test_a_step_is_required(capsys):
    assert guandan(["value"]) == 2
    assert "required: STEP" in capsys.readouterr().err


def test_bad_options_are_said_before_anything_is_played(tmp_path, capsys):
    out = tmp_path / "states"
    assert guandan(["value", "collect", "--out", str(out), "--epsilon", "1.5"]) == 2
    assert capsys.readouterr().err.startswith("guandan: error: epsilon")
    assert guandan(["value", "collect", "--out", str(out), "--states", "0"]) == 2
    assert capsys.readouterr().err.startswith("guandan: error: states")
    assert guandan(["value", "collect", "--out", str(out), "--workers", "0"]) == 2
    assert capsys.readouterr().err.startswith("guandan: error: workers")
    assert guandan(["value", "collect", "--out", str(out), "--exploration", "never"]) == 2
    assert "invalid choice: 'never'" in capsys.readouterr().err
    assert not out.exists()
    assert guandan(["value", "train", str(tmp_path / "none"), "--out", str(tmp_path / "v.npz")]) == 2
    assert "no states-NNN.npz chunks" in capsys.readouterr().err
