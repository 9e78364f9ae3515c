"""Bots a test names by import path (``plugin_bots:FirstChoice``): the tests directory is on
the path of the test run and of its worker processes."""

from __future__ import annotations

from guandan.bots.agents import GreedyAgent, RandomAgent


class FirstChoice:
    """Takes the first legal action; its constructor takes no seed (it is called without one)."""

    def __init__(self) -> None:
        self.acted = 0

    def act(self, observation):
        self.acted += 1
        return observation.legal_actions[0]


class Stateful:
    """Random, but its generator is made once, at construction: a copy given to each task and
    seat starts from the same state, so its results show whether state is shared."""

    name = "stateful"

    def __init__(self, seed: int = 0) -> None:
        self.inner = RandomAgent(seed)

    def act(self, observation):
        return self.inner.act(observation)


def cautious(seed: int = 0, threshold: int = 5) -> GreedyAgent:
    """A factory: the greedy agent with its bomb threshold as an option."""
    return GreedyAgent(seed, bomb_threshold=threshold)


def not_an_agent(seed: int = 0) -> int:
    """A factory that returns something else than an agent."""
    return seed


def everything(**options) -> RandomAgent:
    """A factory taking any option (``**kwargs``), the seed among them."""
    return RandomAgent(options.get("seed", 0))


NOT_CALLABLE = 3


class Passer:
    """Always passes: illegal when it leads."""

    def act(self, observation):
        from guandan import Move

        return Move.pass_(observation.level)


class Announcing:
    """Greedy and slow (``delay`` seconds a decision); at its first decision it writes a file
    named by its process id into the directory ``$GUANDAN_TEST_ANNOUNCE``, so that a test knows
    which worker processes are in the middle of a task."""

    def __init__(self, seed: int = 0, delay: float = 0.02) -> None:
        self.inner = GreedyAgent(seed)
        self.delay = float(delay)
        self.announced = False

    def act(self, observation):
        import os
        import pathlib
        import time

        if not self.announced:
            pathlib.Path(os.environ["GUANDAN_TEST_ANNOUNCE"], str(os.getpid())).touch()
            self.announced = True
        time.sleep(self.delay)
        return self.inner.act(observation)
