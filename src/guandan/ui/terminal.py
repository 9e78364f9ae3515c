"""An interactive match at the terminal: one person against three bots (``guandan play``).

Reads commands line by line and writes to a text stream, so it runs the same on a
terminal and under a test feeding scripted input. On a terminal the prompt is
:func:`input`'s, with :mod:`readline` when Python has it (line editing, and the arrow
keys recall earlier lines); from a pipe or a file each line read is echoed after its
prompt, so the transcript reads as typed. Bad input never ends the match: the message
says what was wrong and the prompt comes back.

The match ends early on ``quit`` or at the end of input (Ctrl-D on a terminal), with
``Bye.`` and status 0, or on Ctrl-C, with one line and status 130 (the shell's status for
an interrupted command); never with a traceback.

>>> import io
>>> out = io.StringIO()
>>> play_match(seat=0, seed=1, bots="greedy", stdin=io.StringIO("quit\\n"), stdout=out)
0
>>> "Your hand (27)" in out.getvalue(), out.getvalue().rstrip().endswith("Your play> quit\\nBye.")
(True, True)
"""

from __future__ import annotations

import difflib
import json
import os
import sys
import time
from collections.abc import Sequence
from typing import Any, TextIO

from ..bots.loop import play_out
from ..bots.registry import AgentSpec, agent_name, make_agents, seat_specs
from ..bots.search import MonteCarloAgent
from ..core.cards import Cards, card_name, parse_card, parse_rank
from ..core.moves import Move, MoveType, parse_declaration
from ..core.notation import parse_play
from ..core.rng import derive_seed
from ..errors import (
    AmbiguousMoveError,
    GuandanError,
    IllegalMoveError,
    InvalidCardsError,
    InvalidMoveError,
    check_int,
    describe,
)
from ..game.history import Phase, Play
from ..game.match import Match
from ..game.observation import Observation
from ..game.render import (
    format_action,
    format_move,
    format_move_groups,
    format_moves,
    format_summary,
    format_tributes,
    numbered_moves,
    phrase_error,
    render_table,
    seat_does,
    seat_name,
)
from ..game.rules import get_ruleset
from ..records.games import record as record_of
from .interrupt import INTERRUPTED, interrupts_reach_the_main_thread

__all__ = ["play_match"]

#: At most this many legal moves are listed one by one at a turn; more are grouped by type and key.
SHOW_AT_MOST = 30

_HELP = """\
At your turn, type:
  pair Q, straight 3, bomb 9, joker_bomb   play that type and key (asks which cards
                                            only when the choice matters)
  pair, bomb                                a type alone: choose among every key of it
  S3 C3 S5 C5 H9 [as full_house:5]          play those cards
  a number                                  play that move of the numbered list on the screen
  pass                                      pass (when responding)
  moves        your moves, grouped by type and key (numbered when few)
  moves all    every legal move, numbered (1 = the weakest)
  moves pair   the moves of one type, numbered
  hint         the search bot's three best moves, with their estimated value
  help         this help
  quit         leave the match (the whole word; Ctrl-D too; Ctrl-C stops at once)
A rank alone (Q, 10) is not a play: say which, e.g. 'single Q' or 'pair Q'.
Tribute and return: a number from the list, or a card (e.g. HA); hint works there too."""

#: What the first screen says, once.
_WELCOME = "Type 'help' for the commands, 'moves' for your moves; 'quit' leaves the match."

_TYPE_NAMES = {t.label for t in MoveType if t != MoveType.PASS}


def _type_and_key(text: str) -> tuple[str, str] | None:
    """A short form split into its type's label and its key's text, ``None`` if ``text``
    names no type: ``pair Q``, ``full_house 5``, ``full house 5``, ``pair-run 3``.

    >>> _type_and_key("Full House 5"), _type_and_key("joker bomb"), _type_and_key("S3 C3")
    (('full_house', '5'), ('joker_bomb', ''), None)
    """
    words = text.split()
    for n in (2, 1):
        label = "_".join(words[:n]).lower().replace("-", "_")
        if len(words) >= n and label in _TYPE_NAMES:
            return label, "".join(words[n:])
    return None


class _Quit(Exception):
    pass


class _Console:
    """The person's side of the table: lines written to ``out``, lines read from ``inp``
    (through :func:`input`, with readline, when both are this process's terminal)."""

    def __init__(self, inp: TextIO, out: TextIO) -> None:
        self.inp = inp
        self.out = out
        self.terminal = inp is sys.stdin and out is sys.stdout and _isatty(inp) and _isatty(out)
        self.echo = not _isatty(inp)
        if self.terminal:
            try:
                import readline  # noqa: F401  (input() then edits lines and keeps a history)
            except ImportError:  # pragma: no cover - Python built without readline
                pass

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def read(self, prompt: str) -> str:
        """A line typed at the prompt, stripped; ``quit`` and the end of input raise :class:`_Quit`."""
        if self.terminal:
            try:
                line = input(prompt)
            except EOFError:
                self.say()
                self.say("(end of input)")
                raise _Quit from None
        else:
            self.out.write(prompt)
            self.out.flush()
            line = self.inp.readline()
            if not line:
                self.say()
                self.say("(end of input)")
                raise _Quit
            if self.echo:
                self.out.write(line if line.endswith("\n") else line + "\n")
        text = line.strip()
        if text.lower() in ("quit", "exit"):  # the whole word: a single letter may be a card (Q, a queen)
            raise _Quit
        return text


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False


def play_match(
    seat: int = 0,
    seed: int | None = None,
    bots: AgentSpec | Sequence[AgentSpec] = "greedy",
    ruleset: str = "competitive_2022",
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    record: str | None = None,
) -> int:
    """Play a match with a person at ``seat`` and ``bots`` in the other seats; returns the
    exit status: 0 at the end of the match, on ``quit`` or at the end of input, 130 on Ctrl-C.
    ``record``: a file where the match's record is written when it ends (finished or left:
    a record of an unfinished match replays too), the format of ``guandan serve --records``.

    ``bots``: agent specs as :func:`guandan.bots.registry.seat_specs` takes them — one for all
    three bots, two (seats 0 and 2, then seats 1 and 3) or four (the person's seat ignored).
    Raises :class:`~guandan.GuandanError` for a bad seat, bot or ruleset (before anything
    is played).

    A SIGINT (Ctrl-C) ends it at any moment, whichever thread of the process the system gives
    it to (:func:`guandan.ui.interrupt.interrupts_reach_the_main_thread`).
    """
    with interrupts_reach_the_main_thread():
        return _play_match(seat, seed, bots, ruleset, stdin, stdout, record)


def _play_match(
    seat: int,
    seed: int | None,
    bots: AgentSpec | Sequence[AgentSpec],
    ruleset: str,
    stdin: TextIO | None,
    stdout: TextIO | None,
    record: str | None,
) -> int:
    console = _Console(sys.stdin if stdin is None else stdin, sys.stdout if stdout is None else stdout)
    say = console.say
    seat = check_int("--seat", seat, 0, 3, expected="a seat 0..3")
    if seed is None:
        seed = time.time_ns() & ((1 << 63) - 1)
    rules = get_ruleset(ruleset)
    specs = seat_specs(bots)
    agents = make_agents(specs, seed)
    named = _bot_names(specs, seat)
    if record is not None:
        _check_record_file(record)

    match = Match(seed, rules)
    hinter = MonteCarloAgent(seed=derive_seed(seed, 4 + seat))  # mc with its default budget, behind ``hint``
    agents[seat] = _Person(match, seat, console, hinter)
    say(f"Guandan · {rules.title} · seed {seed} · you are seat {seat}; bots: {named}")
    say(_WELCOME)
    if match.deal is not None and match.deal.opening_card is not None:
        card = card_name(match.deal.opening_card, "unicode")
        say(f"Card turned up: {card} — {seat_does(match.deal.leader, seat, 'leads', 'lead')}.")
    table = _Announcer(match, seat, console)
    try:
        play_out(match, agents, on_action=table.after)
    except _Quit:
        _write_record(record, match, say)
        say("Bye.")
        return 0
    except KeyboardInterrupt:
        say()
        say("Interrupted: the match is left unfinished.")
        _write_record(record, match, say)
        return INTERRUPTED
    winner = "You and your partner win" if match.winner == seat % 2 else "The opponents win"
    say(f"{winner} the match ({match.end_reason}) after {len(match.results)} deals.")
    _write_record(record, match, say)  # the result first, then where the record of it is
    return 0


def _check_record_file(path: str) -> None:
    """Refuse, before the match, a record file that cannot be written."""
    if not isinstance(path, str) or not path:
        raise GuandanError(f"--record: a file name, got {describe(path)}")
    if os.path.isdir(path):
        raise GuandanError(f"--record: {path!r} is a directory, not a file")
    directory = os.path.dirname(path) or "."
    if not os.path.isdir(directory):
        raise GuandanError(f"--record: no directory {directory!r} to write {os.path.basename(path)!r} in")
    if not os.access(directory, os.W_OK):
        raise GuandanError(f"--record: cannot write in the directory {directory!r}")


def _write_record(path: str | None, match: Match, say: Any) -> None:
    if path is None:
        return
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(json.dumps(record_of(match)) + "\n")
    except OSError as error:
        say(f"Could not write the record {path}: {error.strerror}.")
        return
    say(f"The match's record is in {path} (guandan replay {path}, or the viewer of guandan web).")


class _Announcer:
    """What the table says after each action: the action, the tribute once settled, a
    jiefeng lead, the summary of a deal that just ended and how the next one starts."""

    def __init__(self, match: Match, seat: int, console: _Console) -> None:
        self.match = match
        self.seat = seat
        self.console = console
        self.seen = 0  # deal summaries said
        self.settled = -1  # the last deal whose tribute was announced
        self.last_player: int | None = None  # who made the last play of the current trick

    def after(self, record: Any) -> None:
        match, seat, say = self.match, self.seat, self.console.say
        say(format_action(record, seat))
        if match.tributes and self.settled != match.deal_index and match.phase != Phase.TRIBUTE:
            self.settled = match.deal_index
            say(format_tributes(match.tributes, seat))
        if isinstance(record, Play):
            self._jiefeng(record)
        self.seen = _announce(match, seat, self.seen, self.console)

    def _jiefeng(self, record: Play) -> None:
        """A trick won by a seat that has gone out passes the lead to its partner (rules §6): say so."""
        if not record.is_pass:
            self.last_player = record.seat
            return
        match, deal, winner = self.match, self.match.deal, self.last_player
        if deal is None or deal.is_over or deal.trick or winner is None or len(match.results) != self.seen:
            return  # the trick goes on, or the deal just ended
        self.last_player = None
        if deal.card_counts[winner] == 0 and match.turn is not None and match.turn != winner:
            who, place = ("you", "your") if winner == self.seat else (seat_name(winner, self.seat), "its")
            leads = seat_does(match.turn, self.seat, "leads", "lead")
            self.console.say(f"Jiefeng: {who} went out and won the trick; {leads} in {place} place.")


def _bot_names(specs: list[AgentSpec], seat: int) -> str:
    """The bots' names, partner first (one name when the three are the same).

    >>> _bot_names(["greedy"] * 4, 0), _bot_names(["x", "mc", "greedy", "mc"], 0)
    ('greedy', 'partner greedy, left mc, right mc')
    """
    places = (("partner", 2), ("left", 3), ("right", 1))
    others = [(place, agent_name(specs[(seat + step) % 4])) for place, step in places]
    if len({name for _, name in others}) == 1:
        return others[0][1]
    return ", ".join(f"{place} {name}" for place, name in others)


def _announce(match: Match, seat: int, seen: int, console: _Console) -> int:
    """Print the summaries of deals that just ended, and how the next one starts."""
    say = console.say
    results = match.results
    while seen < len(results):
        for line in format_summary(results[seen], seat):
            say(line)
        seen += 1
        if not match.is_over:
            say()
            say(f"Deal {match.deal_index + 1} at level {match.level.label}.")
            if match.resisted:
                leads = seat_does(match.turn, seat, "leads", "lead")  # type: ignore[arg-type]
                say(f"The tribute is resisted (both big jokers); {leads}.")
            elif match.phase == Phase.TRIBUTE:
                payers = " and ".join(seat_name(p, seat) for p in match.payers)
                say(f"Tribute: {payers} must pay.")
    return seen


def _show_moves(moves: list[Move], console: _Console, which: str = "") -> set[int]:
    """``moves`` (the person's command): grouped when many, numbered when few; ``all`` or a
    type numbered. The numbers now on the screen (a number typed plays only one of those)."""
    say = console.say
    which = which.strip().lower().replace("-", "_").replace(" ", "_")
    if which == "all" or (not which and len(moves) <= SHOW_AT_MOST):
        for line in format_moves(moves):
            say(line)
        return set(range(1, len(moves) + 1))
    if which:
        if which not in _TYPE_NAMES:
            say(f"No move type {which!r}: one of {', '.join(sorted(_TYPE_NAMES))}, or 'all'.")
            return set()
        width = len(str(len(moves)))
        numbers = [i for i, m in enumerate(moves, 1) if m.type.label == which]
        for i in numbers:
            say(f"{i:>{width}}. {format_move(moves[i - 1])}")
        if not numbers:
            say(f"You have no {which} to play now.")
        return set(numbers)
    say(f"{len(moves)} legal moves, by type and key (* only with a wild); type e.g. 'pair Q' to play one:")
    for line in format_move_groups(moves):
        say(line)
    return set()


def _short_form(text: str, moves: list[Move], console: _Console) -> Move | None:
    """The move a short form ``TYPE [KEY]`` names (``pair Q``, ``straight 3``, ``joker_bomb``):
    for each key, spending as few wilds as it can (the cards typed out spend one at will),
    its lowest cards of each suit; the person chooses only when the keys, ranks, size or
    suit differ (a type alone, the pair of a full house, a bomb's size, a straight flush's
    suit). ``None`` when nothing is chosen (the reason already said)."""
    label, key_text = _type_and_key(text) or (text, "")
    try:
        move_type, key = parse_declaration(f"{label}:{key_text}" if key_text else label)
    except (InvalidMoveError, InvalidCardsError) as error:
        console.say(f"Not understood: {phrase_error(error, 0)}.")
        return None
    found = [m for m in moves if m.type == move_type and (key is None or m.key == key)]
    named = f"{move_type.label} {key.label}" if key is not None else move_type.label
    if not found:
        console.say(f"You have no {named} to play now ('moves' lists what you can play).")
        return None
    fewest: dict[object, int] = {}
    for move in found:  # the fewest wilds of each key (a key only a wild makes keeps its wild)
        fewest[move.key] = min(fewest.get(move.key, 2), move.wilds)
    choices: dict[object, Move] = {}
    for move in (m for m in found if m.wilds == fewest[m.key]):  # one choice per way that matters; the lowest cards
        choices.setdefault(move.to_rank(), move)
    options = list(choices.values())
    if len(options) == 1:
        return options[0]
    console.say(f"{named} can be played {len(options)} ways:")
    for line in format_moves(options):
        console.say(line)
    while True:
        answer = console.read("Which (a number, a key or the cards; empty to go back)> ")
        if not answer:
            return None
        chosen = _which(answer, options, moves)
        if chosen is not None:
            return chosen
        console.say(f"Choose 1 to {len(options)}, a key or the cards of one of them, or an empty line to go back.")


def _which(answer: str, options: list[Move], moves: list[Move]) -> Move | None:
    """The option an answer to "Which" names: its number, its key (when one option has it),
    or its cards (typed out: then exactly those cards, if they are legal)."""
    if answer.isdecimal() and answer.isascii():
        n = int(answer)
        return options[n - 1] if 1 <= n <= len(options) else None
    by_key = [m for m in options if m.key is not None and m.key.label.lower() == answer.lower()]
    if len(by_key) == 1:
        return by_key[0]
    try:
        typed = Cards.parse(answer)
    except GuandanError:
        return None
    same = [m for m in moves if m.cards == typed and any(m.to_rank() == o.to_rank() for o in options)]
    return same[0] if len(same) == 1 else None


def _suggest(text: str, moves: list[Move]) -> str:
    """A hint for input that reads as no move: the move types its first word is close to
    (``trple 7`` → ``triple 7``), or for a rank alone (``K``) the moves of that key the
    person can play; empty when there is nothing to suggest."""
    words = text.split()
    if not words:
        return ""
    first, rest = words[0].lower().replace("-", "_"), " ".join(words[1:])
    if len(words) <= 2 and not _is_card(first):
        near = difflib.get_close_matches(first, sorted(_TYPE_NAMES), n=2, cutoff=0.6)
        if near:
            return " or ".join(f"'{(label + ' ' + rest).strip()}'" for label in near)
    if len(words) == 1:
        try:
            rank = parse_rank(first)
        except GuandanError:
            return ""
        labels = [t.label for t in MoveType if any(m.type == t and m.key == rank for m in moves)]
        if labels:
            return " or ".join(f"'{label} {rank.label}'" for label in labels[:4])
        return f"a move with {rank.label}: you have none to play now"
    return ""


def _is_card(token: str) -> bool:
    try:
        parse_card(token)
    except GuandanError:
        return False
    return True


class _Person:
    """The person's seat as an agent of the play loop: its ``act`` shows the table and asks
    at the prompt until the answer is legal (checked with the match's own ``verify_…``; an
    illegal or unreadable answer is explained and asked again)."""

    name = "you"

    def __init__(self, match: Match, seat: int, console: _Console, hinter: MonteCarloAgent) -> None:
        self.match = match
        self.seat = seat
        self.console = console
        self.hinter = hinter

    def act(self, observation: Observation) -> Move | int:
        self.console.say()
        self.console.say(render_table(self.match, self.seat))
        if observation.phase in (Phase.TRIBUTE, Phase.RETURN):
            return self._card(observation)
        return self._play(observation)

    def _play(self, observation: Observation) -> Move:
        match, seat, console = self.match, self.seat, self.console
        say = console.say
        moves = numbered_moves(observation.legal_actions)
        shown = _show_moves(moves, console)  # the numbers on the screen: only those can be typed
        if len(moves) == 1:
            say("You can only pass.")
        while True:
            text = console.read("Your play> ")
            if not text:
                continue
            lower = text.lower()
            first = lower.split()[0].replace("-", "_")
            if lower in ("help", "h", "?"):
                say(_HELP)
                continue
            if first in ("moves", "m", "list"):
                shown = _show_moves(moves, console, lower.partition(" ")[2])
                continue
            if lower == "hint":
                shown |= _hint(self.hinter, observation, console, moves)
                continue
            move: Move | None
            try:
                if text.isdecimal() and text.isascii():
                    n = int(text)
                    if not 1 <= n <= len(moves):
                        say(f"No move {n}: choose 1 to {len(moves)}.")
                        continue
                    if n not in shown:
                        say(
                            f"No list on the screen numbers a move {n}: type 'moves all' to number every move,"
                            " or name the move ('pair Q', or its cards)."
                        )
                        continue
                    move = moves[n - 1]
                elif lower in ("pass", "p"):
                    if observation.to_beat is None:
                        say("You lead: you cannot pass.")
                        continue
                    move = moves[-1]
                elif _type_and_key(text) is not None:
                    move = _short_form(text, moves, console)
                    if move is None:
                        continue
                else:
                    cards, _, declared = text.partition(" as ")
                    move = parse_play(cards, match.level, declared.strip() or None)
                match.verify_play(move, seat)
            except AmbiguousMoveError as error:
                say(f"{error}: add 'as TYPE:KEY'.")
                continue
            except IllegalMoveError as error:
                say(f"Not legal: {phrase_error(error, seat)}.")
                continue
            except GuandanError as error:  # the text reads as no move: not understood
                hint = _suggest(text, moves)
                if hint:
                    say(f"Not understood: {text!r}. Did you mean {hint}?")
                else:
                    say(f"Not understood: {phrase_error(error, seat)}.")
                continue
            return move

    def _card(self, observation: Observation) -> int:
        match, seat, console = self.match, self.seat, self.console
        say = console.say
        choices = list(observation.legal_actions)  # cards, in the tribute and return phases
        tribute = observation.phase == Phase.TRIBUTE
        if tribute:
            say("You pay tribute: your highest card except a wild. Choose:")
        else:
            payer = match.returns_due[0][1]
            say(f"Return a card to {seat_name(payer, seat)}. Choose:")
        for i, c in enumerate(choices, 1):
            say(f"{i:>2}. {card_name(c, 'unicode')}")
        while True:
            text = console.read("Tribute> " if tribute else "Return> ")
            if not text:
                continue
            if text.lower() in ("help", "h", "?"):
                say(_HELP)
                continue
            if text.lower() == "hint":
                _hint(self.hinter, observation, console, choices)
                continue
            try:
                if text.isdecimal() and text.isascii():
                    n = int(text)
                    if not 1 <= n <= len(choices):
                        say(f"No choice {n}: choose 1 to {len(choices)}.")
                        continue
                    card = choices[n - 1]
                else:
                    card = parse_card(text)
                if tribute:
                    match.verify_pay_tribute(card, seat)
                else:
                    match.verify_return_card(card, seat)
            except IllegalMoveError as error:
                say(f"Not allowed: {phrase_error(error, seat)}.")
                continue
            except GuandanError as error:
                say(f"Not understood: {phrase_error(error, seat)}: type a number from the list, or a card (e.g. HA).")
                continue
            return int(card)


def _hint(hinter: MonteCarloAgent, observation: Observation, console: _Console, listed: Sequence[Any]) -> set[int]:
    """``hint``: the search bot's three best actions for the person's seat, each with its
    estimated value in levels for the person's side (its mean result over the rollouts:
    +3 a win with the partner 2nd, -3 a loss with the opponents 1st and 2nd) and its number
    in the list shown; the numbers shown. With a single legal action there is nothing to
    weigh: it is named, and nothing is searched."""
    actions = list(observation.legal_actions)
    if len(actions) == 1:
        only = _action_text(actions[0])
        number = next((n for n, a in enumerate(listed, 1) if a == actions[0]), None)
        where = f" (type {number})" if number is not None else ""
        console.say(f"Hint: you have one choice only, {only}{where}: nothing to weigh.")
        return {number} if number is not None else set()
    result = hinter.analyze(observation)
    top = result.choices[:3]
    console.say(f"Hint ({result.rollouts:,} rollouts) — the mean result in levels for your side (+3 to -3):")
    width = max(len(_action_text(c.action)) for c in top)
    numbers = set()
    for i, choice in enumerate(top, 1):
        number = next((n for n, a in enumerate(listed, 1) if a == choice.action), None)
        where = f"   type {number}" if number is not None else ""
        if number is not None:
            numbers.add(number)
        console.say(f"  {i}. {_action_text(choice.action):<{width}}  {choice.value:+.2f}{where}")
    return numbers


def _action_text(action: Move | int) -> str:
    return format_move(action) if isinstance(action, Move) else card_name(action, "unicode")
