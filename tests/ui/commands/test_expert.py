"""``guandan expert``: the steps of ``python -m guandan.rl.expert`` (their runs:
tests/rl/test_expert.py and tests/rl/test_distill.py)."""

import numpy as np

from guandan.rl import expert
from guandan.ui.cli import build_parser


def test_each_step_reads_its_options():
    parser = build_parser()
    args = parser.parse_args(["expert", "positions", "--out", "pos", "--deals", "3"])
    assert (args.step, args.deals, args.rollouts, args.chunk, args.workers) == ("positions", 3, 200, 4, 1)
    args = parser.parse_args(["expert", "train", "a", "b", "--out", "run", "--advantage", "--place-prior"])
    assert (args.step, args.positions, args.advantage, args.place_prior, args.legal) == ("train", ["a", "b"], True,
                                                                                          True, False)  # fmt: skip


def test_a_step_is_required(capsys):
    from guandan.ui.cli import main as guandan

    assert guandan(["expert"]) == 2
    assert "required: STEP" in capsys.readouterr().err


def test_guandan_expert_is_the_same_command_and_says_its_errors_as_guandan(tmp_path, capsys):
    from guandan.ui.cli import main as guandan

    assert guandan(["expert", "positions", "--out", str(tmp_path / "a"), "--deals", "1", "--first", "3",
                    "--rollouts", "20", "--chunk", "1"]) == 0  # fmt: skip
    assert expert.main(["positions", "--out", str(tmp_path / "b"), "--deals", "1", "--first", "3", "--rollouts", "20",
                 "--chunk", "1"]) == 0  # fmt: skip
    a, b = (expert.read_chunks([str(tmp_path / d)]) for d in "ab")
    assert all(np.array_equal(a[k], b[k], equal_nan=True) for k in a) and len(a["chosen"]) > 5
    capsys.readouterr()
    assert guandan(["expert", "positions", "--out", str(tmp_path / "c"), "--deals", "0"]) == 2
    assert capsys.readouterr().err.startswith("guandan: error: deals is an int >= 1, got 0")
    assert not (tmp_path / "c").exists()
