"""Rendering a match for a person at the terminal: the table, the hand, the moves, the events.

Seats are named from the viewer's chair: play passes from a seat to the next
counter-clockwise, so the next seat (``seat + 1``) sits at the viewer's right, the
partner opposite, the previous seat at the left.

>>> from guandan.match import Match
>>> m = Match(seed=1)
>>> seat_name(1, viewer=0), seat_name(2, viewer=0), seat_name(3, viewer=0), seat_name(0, viewer=0)
('Right (seat 1)', 'Partner (seat 2)', 'Left (seat 3)', 'You (seat 0)')
>>> print(format_hand(Cards.parse("S3 H2 SA SB D2"), level=Rank.TWO))
♠3 ♠A ♦2 ♥2* SB
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .cards import Cards, Rank, card_name, card_rank, card_suit, wild_card
from .combos import Move, elevated_order
from .history import Phase, Play, Return, Tribute
from .match import DealSummary, Match
from .notation import sort_moves

__all__ = ["seat_name", "format_hand", "format_card", "format_action", "render_table", "format_moves", "format_summary"]

_RELATIVE = ("You", "Right", "Partner", "Left")


def seat_name(seat: int, viewer: int) -> str:
    """A seat named from the viewer's chair: ``You``, ``Right``, ``Partner``, ``Left`` (and its number)."""
    return f"{_RELATIVE[(seat - viewer) % 4]} (seat {seat})"


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
    """A move with Unicode suits: ``pair 5: ♠5 ♥2 (♥2 as 5)``, ``pass``."""
    return move.format("unicode")


def format_action(action: Any, viewer: int) -> str:
    """One line for a play, pass, tribute or return.

    >>> from guandan import classify
    >>> format_action(Play(1, classify("S5 C5", 2)[0]), viewer=0)
    'Right (seat 1) plays pair 5: ♠5 ♣5'
    >>> format_action(Tribute(3, 53), viewer=0)
    'Left (seat 3) pays tribute: HR'
    """
    who = seat_name(action.seat, viewer)
    if isinstance(action, Play):
        return f"{who} passes" if action.is_pass else f"{who} plays {format_move(action.move)}"
    if isinstance(action, Tribute):
        return f"{who} pays tribute: {card_name(action.card, 'unicode')}"
    if isinstance(action, Return):
        return f"{who} returns {card_name(action.card, 'unicode')} to {seat_name(action.to, viewer)}"
    return f"{who}: {action}"


def format_moves(moves: Sequence[Move]) -> list[str]:
    """Numbered lines (from 1) for moves given in the order to number them.

    >>> from guandan import legal_moves
    >>> format_moves(numbered_moves(legal_moves("S5 C5", 2)))
    ['1. single 5: ♠5', '2. single 5: ♣5', '3. pair 5: ♠5 ♣5']
    """
    width = len(str(len(moves)))
    return [f"{i:>{width}}. {format_move(m)}" for i, m in enumerate(moves, 1)]


def numbered_moves(moves: Any) -> list[Move]:
    """The legal moves in the order they are numbered for a person (weakest first, the pass last)."""
    return sort_moves(moves)  # type: ignore[return-value]


def format_summary(summary: DealSummary, viewer: int) -> list[str]:
    """The lines announcing the end of a deal: the finish order, the promotion, the levels.

    >>> m = Match(seed=1, levels=(9, 4), level_side=0, hands=[["S3 S4", "S5", "S6", "S7 S8"]])
    >>> from guandan.agents import GreedyAgent, play_out
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
    lines = [
        f"Deal {summary.index + 1} over: {places}.",
        f"It goes to {winners}: level {before.label} → {after.label}.",
    ]
    if summary.passed_a:
        lines.append(f"{winners[0].upper() + winners[1:]} passed A!")
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
            lines.append(f"{seat_name(turn, viewer) if turn is not None else 'Nobody'} leads.")
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
