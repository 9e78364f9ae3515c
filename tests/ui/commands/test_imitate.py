"""``guandan imitate``: the steps of ``python -m guandan.rl.imitate`` (their runs:
tests/rl/test_imitate.py)."""

from guandan.ui.cli import build_parser, main


def test_each_step_reads_its_options():
    parser = build_parser()
    args = parser.parse_args(["imitate", "positions", "--out", "p.jsonl", "--deals", "3"])
    assert (args.step, args.deals, args.rollouts, args.out) == ("positions", 3, 16000, "p.jsonl")
    args = parser.parse_args(["imitate", "improve", "--weights", "fit.json"])
    assert (args.step, args.generations, args.opponent) == ("improve", 30, "smart")


def test_a_bad_count_is_refused_with_status_2(capsys):
    assert main(["imitate", "positions", "--deals", "0", "--out", "p.jsonl"]) == 2
    assert capsys.readouterr().err.startswith("guandan: error: --deals is an int >= 1, got 0")


def test_a_step_is_required(capsys):
    assert main(["imitate"]) == 2
    assert "required: STEP" in capsys.readouterr().err
