"""A match as text for a person: the table, the hand, the moves, the events (the terminal
table draws with it, and so do the learning environments' ``render()``).

Seats are named from the viewer's chair: play passes from a seat to the next
counter-clockwise, so the next seat (``seat + 1``) sits at the viewer's right, the
partner opposite, the previous seat at the left.

>>> from guandan.game.match import Match
>>> m = Match(seed=1)
>>> seat_name(1, viewer=0), seat_name(2, viewer=0), seat_name(3, viewer=0), seat_name(0, viewer=0)
('Right (seat 1)', 'Partner (seat 2)', 'Left (seat 3)', 'You (seat 0)')
>>> print(format_hand(Cards.parse("S3 H2 SA SB D2"), level=Rank.TWO))
♠3 ♠A ♦2 ♥2* SB
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.cards import Cards, Rank, card_name, card_rank, card_suit, wild_card
from ..core.moves import Move, MoveType
from ..core.notation import sort_moves
from ..core.order import elevated_order
from ..errors import GuandanError
from .history import Phase, Play, Return, Tribute
from .match import DealSummary, Match

__all__ = [
    "seat_name",
    "seat_does",
    "format_hand",
    "format_card",
    "format_move",
    "format_action",
    "render_table",
    "format_moves",
    "format_move_groups",
    "format_tributes",
    "format_summary",
    "phrase_error",
    "format_replay",
]

_RELATIVE = ("You", "Right", "Partner", "Left")


def seat_name(seat: int, viewer: int) -> str:
    """A seat named from the viewer's chair: ``You``, ``Right``, ``Partner``, ``Left`` (and its number)."""
    return f"{_RELATIVE[(seat - viewer) % 4]} (seat {seat})"


def seat_does(seat: int, viewer: int, does: str, do: str) -> str:
    """A seat and its verb, the viewer's own in the second person.

    >>> seat_does(3, 0, "leads", "lead"), seat_does(0, 0, "leads", "lead")
    ('Left (seat 3) leads', 'You (seat 0) lead')
    """
    return f"{seat_name(seat, viewer)} {do if seat == viewer else does}"


def _who(seat: int, viewer: int) -> str:
    """A seat in the middle of a sentence: ``you``, or its place and number."""
    return "you" if seat == viewer else seat_name(seat, viewer)


def _names(cards: Sequence[int]) -> str:
    return " ".join(card_name(c) for c in cards)


_RETURN_RULES = {
    "low": "a card of rank 2 to 10 that is not of the level rank (or, holding none, your lowest card)",
    "any": "any card",
}


def phrase_error(error: GuandanError, viewer: int) -> str:
    """An error of the game as the person at seat ``viewer`` reads it, phrased from the
    error's fields (:mod:`guandan.errors`), never from its English message: "you" for their
    own seat, the others by their place at the table. An error without a reason (a bad
    argument, a parse error) is its message.

    >>> from guandan import Deal, IllegalMoveError, classify
    >>> deal = Deal(["S3 S4", "S9", "D5", "D6"], level=2, leader=0)
    >>> try:
    ...     deal.play(classify("S9", 2)[0], seat=0)
    ... except IllegalMoveError as error:
    ...     phrase_error(error, 0), phrase_error(error, 2)
    ('you do not hold S9', 'Partner (seat 0) does not hold S9')
    >>> deal.play_index(0)
    >>> try:
    ...     deal.play(classify("S9", 2)[0], seat=3)
    ... except IllegalMoveError as error:
    ...     phrase_error(error, 3)
    'not your turn: Partner (seat 1) is to play'
    """
    reason, e = error.reason, error
    if reason == "not_turn":
        does = {Phase.TRIBUTE: "pays tribute now", Phase.RETURN: "returns a card now"}.get(e.phase, "is to play")
        if e.turn == viewer:
            does = {Phase.TRIBUTE: "pay tribute now", Phase.RETURN: "return a card now"}.get(e.phase, "are to play")
        head = "not your turn" if e.seat == viewer else f"not {_who(e.seat, viewer)}'s turn"
        return f"{head}: {_who(e.turn, viewer)} {does}"
    if reason == "not_held":
        return f"{_who(e.seat, viewer)} {'do' if e.seat == viewer else 'does'} not hold {e.cards}"
    if reason == "leads_cannot_pass":
        return "you lead and cannot pass" if e.seat == viewer else f"{_who(e.seat, viewer)} leads and cannot pass"
    if reason == "does_not_beat":
        by = "you" if e.to_beat_seat == viewer else seat_name(e.to_beat_seat, viewer).replace(" (", ", ").rstrip(")")
        return f"{e.move.format()} does not beat {e.to_beat.format()} ({by})"
    if reason == "tribute_not_allowed":
        whose = ("you", "your") if e.seat == viewer else (_who(e.seat, viewer), "its")
        allowed = _names(e.expected)
        return f"{whose[0]} must pay {whose[1]} highest card except a wild: {allowed}, not {card_name(e.got)}"
    if reason == "return_not_allowed":
        rule = _RETURN_RULES.get(e.rule, "a card the rules allow")
        who = "you" if e.seat == viewer else _who(e.seat, viewer)
        return f"{who} must return {rule}: {_names(e.expected)}, not {card_name(e.got)}"
    if reason == "wrong_phase":
        return f"{e.expected.label} is not due now: the match is in the {e.phase.label} phase"
    return str(error)


def _card_text(card: int, wild: int) -> str:
    name = card_name(card, "unicode")
    return name + "*" if card == wild else name


def format_card(card: int, level: Rank) -> str:
    """One card with its Unicode suit; a wild is marked ``*``.

    >>> format_card(wild_card(Rank.FIVE), Rank.FIVE), format_card(52, Rank.FIVE)
    ('♥5*', 'SB')
    """
    return _card_text(card, wild_card(level))


def format_hand(hand: Cards, level: Rank) -> str:
    """A hand sorted as it plays: low to high in the elevated order (the level cards above
    the aces, wilds last among them, then the jokers), suits in order within a rank."""
    wild = wild_card(level)
    cards = sorted(hand, key=lambda c: (elevated_order(card_rank(c), level), c == wild, card_suit(c) or 0))
    return " ".join(_card_text(c, wild) for c in cards)


def format_move(move: Move) -> str:
    """A move with Unicode suits, its cards in the order they play: a sequence from its
    lowest rank (the ace first in an ace-low one), any other move as the hand is sorted
    (:func:`format_hand`: the level rank above the ace); a wild last, with what it stands for.

    >>> from guandan import classify
    >>> format_move(classify("S2 C2 S4 H4 D4", 2)[0]), format_move(classify("C2 S3 C4 D5 SA", 2)[0])
    ('full_house 4: ♠4 ♥4 ♦4 ♠2 ♣2', 'straight A: ♠A ♣2 ♠3 ♣4 ♦5')
    >>> format_move(classify("S5 H2", 2)[0])
    'pair 5: ♠5 ♥2 (♥2 as 5)'
    """
    text = move.format("unicode")
    if move.type == MoveType.PASS:
        return text
    head, _, rest = text.partition(": ")
    note = rest[rest.index(" (") :] if " (" in rest else ""
    level = move.level
    wild = wild_card(level)
    # a wild that stands for another card goes last; one that plays as itself takes its place
    placed = [c for c in move.cards if c != wild or not note]
    if move.type in _SEQUENCES and move.key is not None:
        low = int(move.key)
        placed.sort(key=lambda c: ((int(card_rank(c)) - low) % 13, card_suit(c) or 0))
    else:
        placed.sort(key=lambda c: (elevated_order(card_rank(c), level), c == wild, card_suit(c) or 0))
    order = placed + [wild] * (len(move.cards) - len(placed))
    return f"{head}: {' '.join(card_name(c, 'unicode') for c in order)}{note}"


def format_action(action: Any, viewer: int) -> str:
    """One line for a play, pass, tribute or return.

    >>> from guandan import classify
    >>> format_action(Play(1, classify("S5 C5", 2)[0]), viewer=0)
    'Right (seat 1) plays pair 5: ♠5 ♣5'
    >>> format_action(Tribute(3, 53), viewer=0), format_action(Play(0, classify("S5", 2)[0]), viewer=0)
    ('Left (seat 3) pays tribute: HR', 'You (seat 0) play single 5: ♠5')
    """
    seat = action.seat
    if isinstance(action, Play):
        if action.is_pass:
            return seat_does(seat, viewer, "passes", "pass")
        return f"{seat_does(seat, viewer, 'plays', 'play')} {format_move(action.move)}"
    if isinstance(action, Tribute):
        return f"{seat_does(seat, viewer, 'pays', 'pay')} tribute: {card_name(action.card, 'unicode')}"
    if isinstance(action, Return):
        card = card_name(action.card, "unicode")
        return f"{seat_does(seat, viewer, 'returns', 'return')} {card} to {seat_name(action.to, viewer)}"
    return f"{seat_name(seat, viewer)}: {action}"


def format_tributes(tributes: Sequence[tuple[int, int, int]], viewer: int) -> str:
    """Who receives each tribute card, once the tribute is settled (``(payer, receiver, card)``
    triples, as :attr:`Match.tributes <guandan.game.match.Match.tributes>` gives them).

    >>> format_tributes([(3, 0, 53), (1, 2, 49)], viewer=0)
    'Tribute settled: HR from Left (seat 3) to You (seat 0); ♥A from Right (seat 1) to Partner (seat 2).'
    """
    parts = [
        f"{card_name(card, 'unicode')} from {seat_name(payer, viewer)} to {seat_name(receiver, viewer)}"
        for payer, receiver, card in tributes
    ]
    return f"Tribute settled: {'; '.join(parts)}."


def format_moves(moves: Sequence[Move]) -> list[str]:
    """Numbered lines (from 1) for moves given in the order to number them.

    >>> from guandan import legal_moves
    >>> format_moves(numbered_moves(legal_moves("S5 C5", 2)))
    ['1. single 5: ♠5', '2. single 5: ♣5', '3. pair 5: ♠5 ♣5']
    """
    width = len(str(len(moves)))
    return [f"{i:>{width}}. {format_move(m)}" for i, m in enumerate(moves, 1)]


_SEQUENCES = (MoveType.STRAIGHT, MoveType.PAIR_RUN, MoveType.TRIPLE_RUN, MoveType.STRAIGHT_FLUSH)


def format_move_groups(moves: Sequence[Move]) -> list[str]:
    """The moves grouped by type and key, one line a type: the keys in order of strength,
    ``*`` on a key that only a wild makes, a bomb's sizes when it has several; sequences by
    their lowest rank.

    >>> from guandan import legal_moves
    >>> for line in format_move_groups(numbered_moves(legal_moves("S5 C5 D5 H5 S6 S7 S8 S9 H2", 2))):
    ...     print(line)
      single          5 6 7 8 9 2*
      pair            5 6* 7* 8* 9*
      triple          5
      full_house      5*
      straight        4* 5 6* (by the lowest rank)
      bomb            5 (4-5 cards)
      straight_flush  ♠4* ♠5 ♠6* (by the lowest rank)
    """
    groups: dict[MoveType, dict[str, list[Move]]] = {}
    for move in moves:
        if move.type == MoveType.PASS:
            key = ""
        elif move.type == MoveType.STRAIGHT_FLUSH and move.suit is not None:
            key = f"{move.suit.symbol}{move.key.label if move.key is not None else ''}"
        else:
            key = move.key.label if move.key is not None else ""
        groups.setdefault(move.type, {}).setdefault(key, []).append(move)
    lines = []
    for move_type, keys in sorted(groups.items(), key=lambda item: (item[0] == MoveType.PASS, item[0])):
        words = []
        for key, group in keys.items():
            word = key + ("*" if all(m.wilds for m in group) else "")
            sizes = sorted({m.size for m in group})
            if move_type == MoveType.BOMB and len(sizes) > 1:
                word += f" ({sizes[0]}-{sizes[-1]} cards)"
            words.append(word)
        note = " (by the lowest rank)" if move_type in _SEQUENCES else ""
        lines.append(f"  {move_type.label:<15} {' '.join(words)}{note}".rstrip())
    return lines


def numbered_moves(moves: Any) -> list[Move]:
    """The legal moves in the order they are numbered for a person (weakest first, the pass last)."""
    return sort_moves(moves)  # type: ignore[return-value]


def format_summary(summary: DealSummary, viewer: int) -> list[str]:
    """The lines announcing the end of a deal: the finish order, the promotion, the levels.

    >>> m = Match(seed=1, levels=(9, 4), level_side=0, hands=[["S3 S4", "S5", "S6", "S7 S8"]])
    >>> from guandan.bots.agents import GreedyAgent
    >>> from guandan.bots.loop import play_out
    >>> play_out(m, [GreedyAgent()] * 4, max_actions=20)
    >>> format_summary(m.results[0], viewer=0)[0].startswith("Deal 1 over: 1. ")
    True
    """
    places = ", ".join(f"{i + 1}. {seat_name(s, viewer)}" for i, s in enumerate(summary.result.finish_order))
    if summary.result.is_double_down:
        places += " (double-down)"
    winners = "you and your partner" if summary.result.winning_side == viewer % 2 else "the opponents"
    before, after = (
        summary.levels_before[summary.result.winning_side],
        summary.levels_after[summary.result.winning_side],
    )
    if summary.passed_a:
        outcome = f"It goes to {winners}, who pass A!"
    elif before == after:  # at A, won without passing it
        outcome = f"It goes to {winners}, who stay at A: A is not passed this deal."
    else:
        outcome = f"It goes to {winners}: level {before.label} → {after.label}."
    lines = [f"Deal {summary.index + 1} over: {places}.", outcome]
    if summary.demoted is not None:
        who = "you and your partner" if summary.demoted == viewer % 2 else "the opponents"
        lines.append(f"After failing at A, {who} drop back to level 2.")
    return lines


def render_table(match: Match, viewer: int, recent: int = 6) -> str:
    """The table as the viewer sees it: deal and levels, every seat's card count (counts of 10
    or fewer flagged), whose turn, the play to beat and who made it, recent actions, the hand.

    >>> print(render_table(Match(seed=1, levels=(9, 4), level_side=0, hands=[["S3 S4", "S5", "S6", "S7 S8"]]), 0))
    ═══ Deal 1 · level 9 (yours) · play ═══
    Levels: you & partner 9 · opponents 4
      Partner (seat 2)   1 card   ← 10 or fewer
      Left (seat 3)      2 cards  ← 10 or fewer  ◀ to act
      Right (seat 1)     1 card   ← 10 or fewer
      You (seat 0)       2 cards
    Left (seat 3) leads.
    Your hand (2): ♠3 ♠4
    """
    mine = viewer % 2
    lv = match.levels
    side_note = ""
    if match.level_side is not None:
        side_note = " (yours)" if match.level_side == mine else " (the opponents')"
    lines = [
        f"═══ Deal {match.deal_index + 1} · level {match.level.label}{side_note} · {match.phase.label} ═══",
        f"Levels: you & partner {lv[mine].label} · opponents {lv[1 - mine].label}",
    ]
    counts = match.card_counts
    finished = match.deal.finish_order if match.deal is not None and match.phase == Phase.PLAY else ()
    turn = match.turn
    for step in (2, 3, 1, 0):  # partner across, then left and right, then you
        s = (viewer + step) % 4
        note = ""
        if s in finished:
            place = finished.index(s) + 1
            note = f"  out ({place}{('st', 'nd', 'rd', 'th')[place - 1]})"
        elif counts[s] <= 10 and step:
            note = "  ← 10 or fewer"
        marker = "  ◀ to act" if s == turn else ""
        noun = "card " if counts[s] == 1 else "cards"
        lines.append(f"  {seat_name(s, viewer):<17} {counts[s]:>2} {noun}{note}{marker}")
    if match.phase == Phase.PLAY and match.deal is not None:
        beat = match.deal.to_beat
        if beat is None:
            lines.append(f"{seat_does(turn, viewer, 'leads', 'lead') if turn is not None else 'Nobody leads'}.")
        else:
            lines.append(f"To beat: {format_move(beat.move)} — by {seat_name(beat.seat, viewer)}")
    history = match.deal_history
    if history:
        lines.append("Recent: " + " · ".join(_short(a, viewer) for a in history[-recent:]))
    lines.append(f"Your hand ({counts[viewer]}): {format_hand(match.hands[viewer], match.level)}")
    return "\n".join(lines)


def _short(action: Any, viewer: int) -> str:
    who = _RELATIVE[(action.seat - viewer) % 4]
    if isinstance(action, Play):
        return f"{who} pass" if action.is_pass else f"{who} {format_move(action.move)}"
    if isinstance(action, Tribute):
        return f"{who} tribute {card_name(action.card, 'unicode')}"
    return f"{who} return {card_name(action.card, 'unicode')}"


def format_replay(state: Any, viewer: int = 0, deal: int | None = None) -> list[str]:
    """A replayed record (:func:`guandan.records.games.replay`: a match or a deal) as lines
    for the terminal, seen from seat ``viewer``'s chair: each deal's level and hands as
    dealt, every tribute, return, play and pass, and how the deal ended; ``deal`` (from 1)
    shows one deal of a match.

    >>> from guandan.game.deal import Deal
    >>> d = Deal(["S3 S4", "S5", "S6", "S7 S8"], level=2, leader=0)
    >>> _ = d.play(d.legal_moves()[0])
    >>> print("\\n".join(format_replay(d)))
    Deal at level 2, seed None; You (seat 0) lead.
      You (seat 0):     ♠3 ♠4
      Right (seat 1):   ♠5
      Partner (seat 2): ♠6
      Left (seat 3):    ♠7 ♠8
    You (seat 0) play single 3: ♠3
    (unfinished)
    """
    if isinstance(state, Match):
        logs = state.deal_logs
        summaries = {s.index: s for s in state.results}
        if deal is not None and not 1 <= deal <= len(logs):
            raise GuandanError(f"--deal: the match has deals 1 to {len(logs)}, not {deal}")
        lines = [f"Match · {state.ruleset.title} · seed {state.seed} · {len(logs)} deal{'s' if len(logs) != 1 else ''}"]
        for log in logs if deal is None else [logs[deal - 1]]:
            side = ""
            if log.level_side is not None:
                side = " (yours)" if log.level_side == viewer % 2 else " (the opponents')"
            before = log.levels_before
            lines += ["", f"Deal {log.index + 1} at level {log.level.label}{side}; levels: you & partner "
                      f"{before[viewer % 2].label} · opponents {before[1 - viewer % 2].label}"]
            lines += _hands_lines(log.dealt, log.level, viewer)
            if log.resisted:
                lines.append("The tribute is resisted (both big jokers).")
            lines += [format_action(a, viewer) for a in log.before_play]
            if log.deal is not None:
                lines.append(f"{seat_does(log.deal.leader, viewer, 'leads', 'lead')}.")
                lines += [format_action(p, viewer) for p in log.deal.history]
            summary = summaries.get(log.index)
            lines += format_summary(summary, viewer) if summary is not None else ["(unfinished)"]
        if deal is None or deal == len(logs):
            if state.is_over:
                won = "you and your partner" if state.winner == viewer % 2 else "the opponents"
                lines += ["", f"The match is over ({state.end_reason}): {won} win." if state.winner is not None
                          else f"The match is over ({state.end_reason}): a draw."]
            else:
                lines += ["", "The match is unfinished."]
        return lines
    if deal not in (None, 1):
        raise GuandanError(f"--deal: a deal record has one deal, not {deal}")
    leads = seat_does(state.leader, viewer, "leads", "lead")
    lines = [f"Deal at level {state.level.label}, seed {state.seed}; {leads}."]
    lines += _hands_lines(state.initial_hands, state.level, viewer)
    lines += [format_action(p, viewer) for p in state.history]
    if state.result is None:
        lines.append("(unfinished)")
    else:
        places = ", ".join(f"{i + 1}. {seat_name(s, viewer)}" for i, s in enumerate(state.result.finish_order))
        lines.append(f"Deal over: {places}.")
    return lines


def _hands_lines(hands: Sequence[Cards], level: Rank, viewer: int) -> list[str]:
    width = max(len(seat_name(s, viewer)) for s in range(4)) + 2  # the name and its colon, a space
    return [f"  {seat_name(s, viewer) + ':':<{width}}{format_hand(hands[s], level)}" for s in
            [(viewer + k) % 4 for k in range(4)]]
