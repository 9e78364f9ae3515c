"""A game record as the replay viewer shows it: replayed and checked by
:func:`guandan.records.games.replay`, then every deal's hands and every action with the
table it leaves behind — whose turn it is, the trick on the table, who is out.

The timeline is a JSON value (``json.dumps`` takes it as is)::

    {"format": "guandan.match" | "guandan.deal", "ruleset", "title", "seed", "over",
     "winner", "end_reason", "levels",
     "deals": [{"index", "level", "level_side", "levels_before", "dealt", "hands",
                "resisted", "leader", "steps", "finish_order", "result",
                "levels_after", "gained", "passed_a"}]}

``dealt`` are the hands as dealt, ``hands`` the hands once the tribute and return are
made (``null`` while they are under way). A step is one action, ``{"seat", "kind", …}``:
``tribute`` and ``return`` give ``card`` (and ``to``); ``play`` gives the declaration as a
record writes it (``type``, ``key``, ``suit``, ``cards``, ``as`` — each wild's declared
face) and ``text``; ``pass`` nothing more. Every step also gives the table after it:
``turn`` (the seat to act, ``null`` when the deal is over or in the tribute), ``trick``
(the indices of the steps on the table, the current trick's plays and passes), ``lead``
(the seat that led it), ``out`` (the finish order so far) and ``counts`` (cards held).

>>> from guandan.game.deal import Deal
>>> from guandan.bots.agents import GreedyAgent
>>> from guandan.bots.loop import play_out
>>> from guandan.records.games import record
>>> deal = Deal.new(seed=3, level=2, leader=0)
>>> play_out(deal, [GreedyAgent()] * 4)
>>> line = timeline(record(deal))
>>> line["format"], len(line["deals"]), line["deals"][0]["steps"][0]["seat"]
('guandan.deal', 1, 0)
>>> line["deals"][0]["steps"][-1]["turn"] is None, line["deals"][0]["finish_order"] == list(deal.finish_order)
(True, True)
"""

from __future__ import annotations

import json
from typing import Any

from ..core.cards import Cards, card_name
from ..errors import GuandanError, RecordError
from ..game.deal import Deal
from ..game.history import Return, Tribute
from ..game.match import DealLog, Match
from ..game.rules import Ruleset
from ..records.games import replay
from ..records.jsonio import move_to_json

__all__ = ["timeline", "read_record", "MAX_RECORD_BYTES"]

#: The largest record the viewer reads: 4 MiB (a match of 16 deals is about 230 KB, so this
#: is a match of some 250 deals); with it, what one request can make the server hold is bounded
#: (see the platform's limits in the docs).
MAX_RECORD_BYTES = 4 * 2**20


def read_record(text: str | bytes) -> Any:
    """The JSON value of a record's text; :class:`~guandan.errors.RecordError` when it is
    too large or not JSON (naming where).

    >>> read_record('{"format": "guandan.deal"}')
    {'format': 'guandan.deal'}
    >>> read_record("{oops")
    Traceback (most recent call last):
    ...
    guandan.errors.RecordError: not a record: not JSON (Expecting property name enclosed in double quotes: ...)
    """
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"not a record: {len(text):,} bytes, more than the {MAX_RECORD_BYTES:,} a record may have")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise RecordError(f"not a record: not UTF-8 text ({error})") from None
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as error:
        raise RecordError(f"not a record: not JSON ({error})") from None


def _codes(cards: Cards) -> list[str]:
    return cards.codes()


def _card(card: int) -> str:
    return card_name(card, "code")


def _state(deal: Deal, done: int, offset: int) -> dict[str, Any]:
    """The table after the ``done``-th play or pass of ``deal`` (its steps indexed from
    ``offset``): the turn, the steps of the trick on the table, who led it, who is out."""
    trick = deal.trick
    first = offset + done - len(trick)
    return {
        "turn": None if deal.is_over else deal.turn,
        "trick": list(range(first, offset + done)),
        "lead": trick[0].seat if trick else None,
        "out": list(deal.finish_order),
        "counts": list(deal.card_counts),
    }


def _play_steps(deal: Deal, ruleset: Ruleset, offset: int) -> list[dict[str, Any]]:
    """Every play and pass of a deal (finished or not), stepped again from its start on a
    fresh deal of the same hands, leader and rules, each with the table it leaves."""
    again = Deal(
        list(deal.initial_hands),
        deal.level,
        deal.leader,
        finish_order=list(deal.initial_finish_order),
        ruleset=ruleset,
    )
    steps: list[dict[str, Any]] = []
    for play in deal.history:
        again.play(play.move, play.seat)
        step: dict[str, Any] = {"seat": play.seat, "kind": "pass"}
        if not play.move.is_pass:
            step.update(move_to_json(play.move))
            step.pop("size", None)
            step["kind"] = "play"
            step["text"] = play.move.format("unicode")
        step.update(_state(again, len(steps) + 1, offset))
        steps.append(step)
    return steps


def _prefix_step(action: Tribute | Return, counts: list[int], receiver: int | None) -> dict[str, Any]:
    if isinstance(action, Tribute):
        to = receiver
        step: dict[str, Any] = {"seat": action.seat, "kind": "tribute", "card": _card(action.card), "to": to}
    else:
        to = action.to
        step = {"seat": action.seat, "kind": "return", "card": _card(action.card), "to": to}
    counts[action.seat] -= 1
    if to is not None:
        counts[to] += 1
    step.update({"turn": None, "trick": [], "lead": None, "out": [], "counts": list(counts)})
    return step


def _deal_json(
    log: DealLog | None, deal: Deal | None, ruleset: Ruleset, summary: Any, dealt: list[Cards]
) -> dict[str, Any]:
    steps: list[dict[str, Any]] = []
    counts = [len(h) for h in dealt]
    receivers = {payer: receiver for payer, receiver, _ in (log.tributes if log is not None else ())}
    for action in log.before_play if log is not None else ():
        steps.append(_prefix_step(action, counts, receivers.get(action.seat)))
    if deal is not None:
        steps += _play_steps(deal, ruleset, len(steps))
    result = deal.result if deal is not None else None
    out: dict[str, Any] = {
        "index": log.index if log is not None else 0,
        "level": (log.level if log is not None else deal.level).letter,  # type: ignore[union-attr]
        "level_side": log.level_side if log is not None else None,
        "levels_before": [lv.letter for lv in log.levels_before] if log is not None else None,
        "dealt": [_codes(h) for h in dealt],
        "hands": [_codes(h) for h in deal.initial_hands] if deal is not None else None,
        "finished_before": list(deal.initial_finish_order) if deal is not None else [],
        "resisted": log.resisted if log is not None else False,
        "leader": deal.leader if deal is not None else None,
        "steps": steps,
        "finish_order": list(deal.finish_order) if deal is not None else [],
        "result": None if result is None else {"finish_order": list(result.finish_order),
                                              "winning_side": result.winning_side,
                                              "partner_place": result.partner_place},
        "levels_after": None if summary is None else [lv.letter for lv in summary.levels_after],
        "gained": None if result is None else ruleset.gain(result.partner_place),
        "passed_a": bool(summary.passed_a) if summary is not None else False,
    }
    return out


def timeline(data: Any) -> dict[str, Any]:
    """The viewer's timeline of a record (a parsed JSON value: a deal or match record).

    Raises :class:`~guandan.errors.RecordError` naming the problem when the record does not
    replay (see :func:`guandan.records.games.replay`): the viewer shows only games that
    replay exactly.

    >>> timeline({"format": "guandan.match", "version": 1})
    Traceback (most recent call last):
    ...
    guandan.errors.RecordError: bad rules in record: a ruleset is a JSON object, got None
    """
    try:
        state = replay(data)
    except RecordError:
        raise
    except GuandanError as error:  # replay turns the game's errors into RecordError; this is a guard
        raise RecordError(f"the record does not replay: {error}") from None
    if isinstance(state, Deal):
        deal_line = _deal_json(None, state, state.ruleset, None, list(state.initial_hands))
        return {
            "format": "guandan.deal",
            "ruleset": state.ruleset.name,
            "title": state.ruleset.title,
            "seed": state.seed,
            "over": state.is_over,
            "winner": None if state.result is None else state.result.winning_side,
            "end_reason": None,
            "levels": None,
            "deals": [deal_line],
        }
    match: Match = state
    summaries = {s.index: s for s in match.results}
    deals = [
        _deal_json(log, log.deal, match.ruleset, summaries.get(log.index), list(log.dealt)) for log in match.deal_logs
    ]
    return {
        "format": "guandan.match",
        "ruleset": match.ruleset.name,
        "title": match.ruleset.title,
        "seed": match.seed,
        "over": match.is_over,
        "winner": match.winner,
        "end_reason": match.end_reason,
        "levels": [lv.letter for lv in match.levels],
        "deals": deals,
    }
