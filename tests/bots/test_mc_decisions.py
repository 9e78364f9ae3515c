"""``mc`` makes the same decisions for the same spec and seed as the code before its options
became one frozen configuration (``guandan.bots.search.SearchConfig``) and the core's search
took one parameter object (``guandan.core.search.SearchParams``).

How the fixture was made: ``tests/bots/data/mc_decisions.json`` holds, for each case below,
every action record (``str(record)``) of a seeded match played by the agents the spec names
(:func:`guandan.bots.registry.make_agents`, seeded from the case's seed) for its first
``ACTIONS`` actions (two deals or more: play, tribute and return decisions), computed by
``python tests/bots/test_mc_decisions.py --write`` on the code of main at ``d68ef56``,
before any of that change. The cases cover the options kept: the budgets (``rollouts``,
``max_cost``), ``threads``, the rollout policies, ``candidates``, the sampler's ``tries``,
``pass_weight`` and ``bomb_weight``, and each ``objective``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from guandan import Match
from guandan.bots.loop import play_out
from guandan.bots.registry import make_agents

FIXTURE = Path(__file__).parent / "data" / "mc_decisions.json"
#: The actions recorded per case.
ACTIONS = 220

#: (agents spec, the match's seed, the agents' seed)
CASES = [
    ("mc:rollouts=200", 1, 11),
    ("mc:rollouts=150:policy=smart,greedy", 2, 12),
    ("mc:max_cost=120:objective=wins,mc:rollouts=100:tries=1", 3, 13),
    ("mc:rollouts=120:threads=2:pass_weight=0.3:bomb_weight=0.2,random", 4, 14),
    ("mc:rollouts=150:objective=match,greedy", 5, 15),
    ("mc-basic,mc:rollouts=100:candidates=8:policy=greedy", 6, 16),
]


def decisions(spec: str, match_seed: int, agents_seed: int) -> list[str]:
    """The action records of the case's match, in order."""
    seen: list[str] = []
    play_out(Match(seed=match_seed), make_agents(spec, agents_seed), ACTIONS, on_action=lambda r: seen.append(str(r)))
    return seen


@pytest.mark.slow
@pytest.mark.parametrize(("spec", "match_seed", "agents_seed"), CASES)
def test_same_decisions_as_recorded(spec: str, match_seed: int, agents_seed: int) -> None:
    recorded = json.loads(FIXTURE.read_text())[spec]
    assert recorded["seeds"] == [match_seed, agents_seed]
    assert decisions(spec, match_seed, agents_seed) == recorded["actions"]


def test_fixture_covers_tribute_and_return() -> None:
    """The recorded matches reach the tribute and return phases, not only play."""
    text = json.dumps(json.loads(FIXTURE.read_text()))
    assert "tribute" in text.lower() and "return" in text.lower()


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    out = {spec: {"seeds": [m, a], "actions": decisions(spec, m, a)} for spec, m, a in CASES}
    FIXTURE.write_text(json.dumps(out, indent=1) + "\n")
