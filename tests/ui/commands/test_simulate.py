"""``guandan.ui.commands.simulate``: its parser, and how an agent's own exception is reported
from the play loop's note (a whole run with a raising bot: tests/ui/test_cli_edges.py)."""

from guandan import Deal
from guandan.bots.loop import AgentRaised, play_out
from guandan.ui.cli import build_parser, main
from guandan.ui.commands.simulate import agent_error


class Broken:
    name = "broken"

    def act(self, observation):
        raise RuntimeError("broken on purpose")


def raised(names):
    try:
        play_out(Deal.new(3, level=2, leader=0), [Broken()] * 4, names=names)
    except RuntimeError as error:
        return error
    raise AssertionError("the agent did not raise")


def test_the_defaults():
    args = build_parser().parse_args(["simulate", "10"])
    assert (args.n, args.agents, args.seed, args.workers, args.deals, args.ruleset) == (
        10, "greedy", 0, None, False, "competitive_2022",
    )  # fmt: skip


def test_a_plug_in_agent_s_exception_is_one_line_with_the_task_seed_seat_and_agent_then_its_frames(capsys):
    error = raised(["mybot:Broken"] * 4)
    note = next(n for n in error.__notes__ if isinstance(n, AgentRaised))
    note.task, note.seed = 7, 99
    assert agent_error(error)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == (
        "guandan: error: task 7 (seed 99): the agent of seat 0 (mybot:Broken) acting in the play phase "
        "raised RuntimeError: broken on purpose"
    )
    assert any("test_simulate.py" in line for line in lines[1:])
    assert not any("guandan/" in line for line in lines[1:])


def test_a_registered_agent_s_exception_is_a_bug_of_the_library_and_is_not_reported(capsys):
    assert not agent_error(raised(["greedy"] * 4))
    assert not agent_error(RuntimeError("no note"))
    assert capsys.readouterr().err == ""


def test_a_bad_count_is_refused(capsys):
    assert main(["simulate", "0"]) == 2
    assert capsys.readouterr().err == "guandan: error: N must be at least 1, got 0\n"
