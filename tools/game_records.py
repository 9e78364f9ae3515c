#!/usr/bin/env python3
"""Seeded games played through the game layer, written down so that two versions can be compared.

    python tools/game_records.py --write /tmp/before.jsonl        # on the old code
    python tools/game_records.py --compare /tmp/before.jsonl      # on the new code: exit 1 on a difference

What it plays (every game seeded, so two runs of the same code write the same lines):

* **deals**: ``Deal.new(seed, level)`` played out by greedy agents, by random agents, by
  both mixed, and by greedy agents with ``bomb_threshold=2`` and under the ``huaian``
  ruleset (no plain same-suit straight), each as its full JSON record
  (:func:`guandan.records.games.record`);
* **matches**: whole matches (tribute and return included) with greedy, random and mixed
  agents, as their records;
* **observations**: every observation an agent is given in some of those games, as the
  values of its public attributes and properties (the hand, the play to beat, the
  history's records, the legal actions' packed array, …), and the index the greedy agent
  chooses;
* **simulations**: the rows of ``simulate`` runs (matches and deals, greedy and random);
* **platform transcripts**: whole platform games played in-process (a
  :class:`~guandan.platform.PlatformTable` and four :class:`~guandan.platform.PlatformClient`
  seats, no sockets), every message's wire text in order: what a ``--log`` holds, less its
  times;
* **search decisions**: the choices and values of the search bot (``mc``, small budgets)
  at every decision of seeded matches, under each ruleset (``--no-search`` leaves them out).

``--compare`` names the first line that differs, and with ``--keep-going`` every line that
differs (one line each). The check that a change plays every game exactly as before, and
that every public value an agent reads is the same.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterator
from typing import Any

from guandan import Deal, Match, record
from guandan.bots.agents import GreedyAgent, RandomAgent
from guandan.bots.loop import play_out
from guandan.bots.registry import make_agents
from guandan.bots.simulate import simulate


def _observation(obs: Any) -> dict[str, Any]:
    """The public values of an observation, as JSON."""
    actions = obs.legal_actions
    array = getattr(actions, "array", None)
    history = obs.history
    return {
        "seat": obs.seat,
        "phase": obs.phase.label,
        "level": obs.level.label,
        "turn": obs.turn,
        "card_counts": list(obs.card_counts),
        "finish_order": list(obs.finish_order),
        "levels": None if obs.levels is None else [lv.label for lv in obs.levels],
        "level_side": obs.level_side,
        "deal_index": obs.deal_index,
        "hand": str(obs.hand),
        "hand_counts": obs.hand_counts.hex(),
        "packed_hand": obs.packed_hand,
        "to_beat": None if obs.to_beat is None else str(obs.to_beat),
        "to_beat_seat": obs.to_beat_seat,
        "is_my_turn": obs.is_my_turn,
        "history": [str(r) for r in history],
        "history_len": len(history),
        "legal": len(actions),
        "legal_array": None if array is None else hashlib.sha256(array.tobytes()).hexdigest()[:16],
        "legal_tuple": list(actions) if isinstance(actions, tuple) else None,
        "first_legal": str(actions[0]) if len(actions) else None,
        "last_legal": str(actions[-1]) if len(actions) else None,
    }


class _Watcher:
    """Acts as ``agent`` and writes down every observation it is given and what it chose."""

    def __init__(self, agent: Any, seen: list[dict[str, Any]]) -> None:
        self.agent = agent
        self.seen = seen

    def act(self, observation: Any) -> Any:
        action = self.agent.act(observation)
        entry = _observation(observation)
        entry["action"] = str(action)
        if isinstance(self.agent, GreedyAgent) and observation.phase.label == "play":
            entry["choose"] = self.agent.choose(observation)
        self.seen.append(entry)
        return action


def lines(scale: int, search: bool = True) -> Iterator[tuple[str, Any]]:
    """(name, JSON value) of every game, in a fixed order; ``scale`` multiplies the counts."""
    n = 60 * scale
    for name, specs, ruleset in (
        ("greedy", "greedy", None),
        ("random", "random", None),
        ("mixed", ["greedy", "random", "random", "greedy"], None),
        ("greedy-threshold-2", "greedy:bomb_threshold=2", None),
        ("greedy-huaian", "greedy", "huaian"),
    ):
        for seed in range(n):
            deal = Deal.new(seed, 2 + seed % 13, ruleset=ruleset)
            play_out(deal, make_agents(specs, seed))
            yield f"deal {name} {seed}", record(deal)
    for name, specs in (("greedy", "greedy"), ("random", "random"), ("mixed", ["random", "greedy"] * 2)):
        for seed in range(4 * scale):
            match = Match(seed)
            play_out(match, make_agents(specs, seed))
            yield f"match {name} {seed}", record(match)
    for seed in range(3 * scale):
        seen: list[dict[str, Any]] = []
        agents = [_Watcher(GreedyAgent(), seen), _Watcher(RandomAgent(seed), seen)] * 2
        match = Match(100 + seed, levels=(2, 2))
        play_out(match, agents, max_actions=400)
        yield f"observations match {seed}", seen
        seen = []
        deal = Deal.new(200 + seed, 2 + seed % 13)
        play_out(deal, [_Watcher(GreedyAgent(), seen) for _ in range(4)])
        yield f"observations deal {seed}", seen
    for kind, specs in (("match", "greedy"), ("deal", "greedy"), ("deal", "random"), ("match", "greedy,random")):
        run = simulate(8 * scale if kind == "match" else 40 * scale, specs, seed=3, kind=kind, workers=1)  # type: ignore[arg-type]
        yield f"simulate {kind} {specs}", run.rows
    for ruleset, specs in (("platform+cap6", "greedy"), ("platform+cap4", "greedy,random,random,greedy")):
        for seed in range(2 * scale):
            yield f"platform {ruleset} {specs} {seed}", _platform_transcript(ruleset, specs, seed)
    if search:
        for ruleset in ("competitive_2022", "nanjing", "huaian", "platform"):
            for seed in range(scale):
                yield f"search {ruleset} {seed}", _search_decisions(ruleset, seed)


def _platform_transcript(ruleset: str, specs: str, seed: int) -> list[str]:
    """Every message of a whole platform game, in order: ``>s`` sent to seat s, ``<s`` received from it."""
    from guandan.platform import PlatformClient, PlatformTable

    table = PlatformTable(games=1, seed=seed, ruleset=ruleset)
    names = specs.split(",") if "," in specs else [specs] * 4
    clients = [PlatformClient(name, seed=seed + i) for i, name in enumerate(names)]
    for name in names:
        table.join(name)
    out: list[str] = []
    pending = list(table.start())
    while pending:
        send = pending.pop(0)
        for seat in send.seats:
            text = send.wire
            out.append(f">{seat} {text}")
            answer = clients[seat].receive(text)
            if answer is not None:
                out.append(f"<{seat} {answer}")
                reply = table.receive(seat, answer)
                pending.extend(reply.sends)
    return out


def _search_decisions(ruleset: str, seed: int) -> list[Any]:
    """The search bot's analysis (choices with values and rollouts) of every decision of seat 0
    in the first two deals of a seeded match, the other seats greedy."""
    from guandan.bots.search import MonteCarloAgent

    bot = MonteCarloAgent(seed=seed, rollouts=300)
    greedy = GreedyAgent()
    match = Match(500 + seed, ruleset)
    out: list[Any] = []
    while not match.is_over and match.deal_index < 2:
        seat = match.turn
        obs = match.observation(seat)
        if seat == 0 and len(obs.legal_actions) > 1:
            result = bot.analyze(obs)
            out.append([[str(c.action), round(c.value, 9), c.rollouts] for c in result.choices])
            match.act(result.best)
        else:
            match.act(greedy.act(obs))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", metavar="FILE", help="write the lines to FILE")
    group.add_argument("--compare", metavar="FILE", help="compare with the lines in FILE")
    parser.add_argument("--scale", type=int, default=1, help="multiply the number of games (default 1)")
    parser.add_argument("--no-search", action="store_true", help="leave out the search decisions (the slow part)")
    parser.add_argument("--keep-going", action="store_true", help="with --compare: name every line that differs")
    args = parser.parse_args(argv)
    digest = hashlib.sha256()
    if args.write:
        count = 0
        with open(args.write, "w", encoding="utf-8") as f:
            for name, value in lines(args.scale, not args.no_search):
                text = json.dumps([name, value], sort_keys=True)
                digest.update(text.encode())
                f.write(text + "\n")
                count += 1
        print(f"{count} lines written to {args.write}, sha256 {digest.hexdigest()[:16]}")
        return 0
    with open(args.compare, encoding="utf-8") as f:
        expected = [line.rstrip("\n") for line in f]
    count = differ = 0
    for i, (name, value) in enumerate(lines(args.scale, not args.no_search)):
        text = json.dumps([name, value], sort_keys=True)
        digest.update(text.encode())
        count += 1
        if i >= len(expected) or text != expected[i]:
            differ += 1
            print(f"line {i + 1} ({name}) differs", file=sys.stderr)
            if args.keep_going:
                continue
            if i < len(expected):
                old = json.loads(expected[i])[1]
                print(f"  was: {json.dumps(old)[:600]}\n  now: {json.dumps(value)[:600]}", file=sys.stderr)
            return 1
    if count != len(expected):
        print(f"{len(expected) - count} lines of {args.compare} were not played", file=sys.stderr)
        return 1
    if differ:
        print(f"{differ} of {count} lines differ", file=sys.stderr)
        return 1
    print(f"{count} lines identical, sha256 {digest.hexdigest()[:16]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
