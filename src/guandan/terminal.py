"""An interactive match at the terminal: one person against three bots (``guandan play``).

Reads commands line by line from a text stream and writes to another, so it runs the
same on a terminal and under a test feeding scripted input. Bad input never ends the
match: the message says what was wrong and the prompt comes back. End of input quits.

>>> import io
>>> out = io.StringIO()
>>> play_match(seat=0, seed=1, bots="greedy", stdin=io.StringIO("quit\\n"), stdout=out)
0
>>> "Your hand (27)" in out.getvalue(), out.getvalue().rstrip().endswith("Bye.")
(True, True)
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

from .cards import card_name, parse_card
from .errors import AmbiguousMoveError, GuandanError, describe
from .history import Phase
from .match import Match
from .notation import parse_play
from .registry import make_agents
from .rules import get_ruleset
from .table import format_action, format_moves, format_summary, numbered_moves, render_table, seat_name

__all__ = ["play_match"]

#: Prints a line (an empty one without an argument).
Say = Callable[..., None]

_SHOW_AT_MOST = 30
_HELP = """\
Type a number to play that move (1 = the weakest), or the cards to play
(e.g. "S3 C3 S5 C5 H9 as full_house:5"), "pass", "moves" to list every
legal move, "help", or "quit". Tribute and return: a number or a card."""


class _Quit(Exception):
    pass


def play_match(
    seat: int = 0,
    seed: int | None = None,
    bots: str = "greedy",
    ruleset: str = "competitive_2022",
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Play a match with a person at ``seat`` and ``bots`` in the other seats; returns 0.

    Raises :class:`~guandan.GuandanError` for a bad seat, bot name or ruleset (before
    anything is played).
    """
    inp = sys.stdin if stdin is None else stdin
    out = sys.stdout if stdout is None else stdout
    if seat not in range(4):
        raise GuandanError(f"--seat: a seat is 0..3, got {describe(seat)}")
    if seed is None:
        seed = time.time_ns() & ((1 << 63) - 1)
    rules = get_ruleset(ruleset)
    agents = make_agents(bots, seed)

    def say(text: str = "") -> None:
        print(text, file=out)

    match = Match(seed, rules)
    say(f"Guandan · {rules.title} · seed {seed} · you are {seat_name(seat, seat)}, bots: {bots}")
    if match.deal is not None and match.deal.opening_card is not None:
        leader = match.deal.leader
        say(f"Card turned up: {card_name(match.deal.opening_card, 'unicode')} — {seat_name(leader, seat)} leads.")
    seen = 0
    try:
        while not match.is_over:
            turn = match.turn
            assert turn is not None
            if turn == seat:
                _human_turn(match, seat, inp, say)
            else:
                record = match.act(agents[turn].act(match.observation(turn)))
                say(format_action(record, seat))
            seen = _announce(match, seat, seen, say)
    except _Quit:
        say("Bye.")
        return 0
    winner = "You and your partner win" if match.winner == seat % 2 else "The opponents win"
    say(f"{winner} the match ({match.end_reason}) after {len(match.results)} deals.")
    return 0


def _announce(match: Match, seat: int, seen: int, say: Say) -> int:
    """Print the summaries of deals that just ended, and how the next one starts."""
    results = match.results
    while seen < len(results):
        for line in format_summary(results[seen], seat):
            say(line)
        seen += 1
        if not match.is_over:
            say()
            say(f"Deal {match.deal_index + 1} at level {match.level.label}.")
            if match.resisted:
                say(f"The tribute is resisted (both big jokers); {seat_name(match.turn, seat)} leads.")  # type: ignore[arg-type]
            elif match.phase == Phase.TRIBUTE:
                payers = ", ".join(seat_name(p, seat) for p in match.payers)
                say(f"Tribute: {payers} must pay.")
    return seen


def _read(inp: TextIO, say: Say, prompt: str) -> str:
    say(prompt)
    line = inp.readline()
    if not line:
        say("(end of input)")
        raise _Quit
    text = line.strip()
    if text.lower() in ("quit", "q", "exit"):
        raise _Quit
    return text


def _human_turn(match: Match, seat: int, inp: TextIO, say: Say) -> None:
    say()
    say(render_table(match, seat))
    if match.phase in (Phase.TRIBUTE, Phase.RETURN):
        _human_card(match, seat, inp, say)
        return
    moves = numbered_moves(match.legal_actions())
    if len(moves) <= _SHOW_AT_MOST:
        for line in format_moves(moves):
            say(line)
    else:
        say(f"{len(moves)} legal moves: type 'moves' to list them, a number, or the cards to play.")
    while True:
        text = _read(inp, say, "Your play> ")
        if not text:
            continue
        lower = text.lower()
        if lower in ("help", "h", "?"):
            say(_HELP)
            continue
        if lower in ("moves", "m", "list"):
            for line in format_moves(moves):
                say(line)
            continue
        try:
            if text.isdigit():
                n = int(text)
                if not 1 <= n <= len(moves):
                    say(f"No move {n}: choose 1 to {len(moves)}.")
                    continue
                move = moves[n - 1]
            elif lower in ("pass", "p"):
                if match.deal is not None and match.deal.is_leading:
                    say("You lead: you cannot pass.")
                    continue
                move = moves[-1]
            else:
                cards, _, declared = text.partition(" as ")
                move = parse_play(cards, match.level, declared.strip() or None)
            record = match.play(move, seat)
        except AmbiguousMoveError as error:
            say(f"{error}: add 'as TYPE:KEY'.")
            continue
        except GuandanError as error:
            say(f"Not legal: {error}.")
            continue
        say(format_action(record, seat))
        return


def _human_card(match: Match, seat: int, inp: TextIO, say: Say) -> None:
    actions = match.legal_actions()
    assert isinstance(actions, tuple)  # cards, in the tribute and return phases
    choices = list(actions)
    tribute = match.phase == Phase.TRIBUTE
    if tribute:
        say("You pay tribute: your highest card except a wild. Choose:")
    else:
        payer = match.returns_due[0][1]
        say(f"Return a card to {seat_name(payer, seat)}. Choose:")
    for i, c in enumerate(choices, 1):
        say(f"{i:>2}. {card_name(c, 'unicode')}")
    while True:
        text = _read(inp, say, "Tribute> " if tribute else "Return> ")
        if not text:
            continue
        if text.lower() in ("help", "h", "?"):
            say(_HELP)
            continue
        try:
            if text.isdigit():
                n = int(text)
                if not 1 <= n <= len(choices):
                    say(f"No choice {n}: choose 1 to {len(choices)}.")
                    continue
                card = choices[n - 1]
            else:
                card = parse_card(text)
            record = match.pay_tribute(card, seat) if tribute else match.return_card(card, seat)
        except GuandanError as error:
            say(f"Not allowed: {error}.")
            continue
        say(format_action(record, seat))
        return
