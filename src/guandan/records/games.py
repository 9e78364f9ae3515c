"""Game records: every deal and match as a JSON value, and :func:`replay` back to the state.

A record is a ``dict`` of plain JSON values (``json.dumps`` takes it as is). It holds
what is needed to rebuild the state exactly — the format and version, the seed, the
ruleset (its name and every field), the hands as dealt, the levels, every action in
order — and what the game produced, so that a replay can check it: finish order,
result, levels after each deal, the winner. :func:`record` writes one, from the public
state of a :class:`~guandan.Deal` or a :class:`~guandan.Match`.

>>> import json
>>> from guandan.game.deal import Deal
>>> from guandan.bots.agents import GreedyAgent
>>> from guandan.bots.loop import play_out
>>> deal = Deal.new(seed=11, level=5)
>>> play_out(deal, [GreedyAgent()] * 4)
>>> data = record(deal)
>>> data["format"], data["version"], data["level"], data["actions"][0]["seat"] == deal.leader
('guandan.deal', 1, '5', True)
>>> again = replay(json.loads(json.dumps(data)))
>>> again == deal, record(again) == data
(True, True)

Actions are written as :func:`guandan.records.jsonio.move_to_json` writes moves, plus the seat:
``{"seat": 1, "type": "pair", "key": "5", "size": 2, "suit": null, "cards": ["S5", "C5"],
"as": ["S5", "C5"]}`` (the declaration: type, key, suit; the physical cards; the
declared faces). Tribute and return actions are ``{"seat": 3, "type": "tribute",
"card": "HR"}`` and ``{"seat": 0, "type": "return", "card": "S3", "to": 3}``.

:func:`replay` checks the type of every field it reads (objects, lists, strings, ints —
never a bool where an int is meant) before the game sees a value, and raises
:class:`~guandan.errors.RecordError` naming the field, or the action and its number
(deals and actions counted from 1, as ``guandan replay --deal`` counts them; a field's
path indexes its lists from 0) when an action is malformed, illegal where it is replayed,
or disagrees with itself (its ``as`` or ``size``), or the field where the state it
reaches differs from what the record says. Only errors of :mod:`guandan.errors` raised
by the game become a ``RecordError``: any other exception is a bug and propagates.
"""

from __future__ import annotations

import json
from typing import Any

from ..core.cards import Cards, Rank, card_name, parse_card, parse_level
from ..core.classify import classify
from ..core.moves import Move, MoveType
from ..core.rng import derive_seed
from ..errors import GuandanError, RecordError
from ..game.deal import Deal
from ..game.history import Play, Return, Tribute
from ..game.match import DealLog, Match
from ..game.protocol import Game
from ..game.rules import Ruleset
from ..game.scoring import DealResult
from .jsonio import move_to_json

__all__ = ["FORMAT_VERSION", "deal_record", "match_record", "record", "replay", "move_from_json", "RecordError"]

#: The version of the record format this module writes and reads.
FORMAT_VERSION = 1
DEAL_FORMAT = "guandan.deal"
MATCH_FORMAT = "guandan.match"


# -- writing ---------------------------------------------------------------------------------------


def _codes(cards: Cards) -> list[str]:
    return cards.codes()


def _result_json(result: DealResult | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {
        "finish_order": list(result.finish_order),
        "winning_side": result.winning_side,
        "partner_place": result.partner_place,
        "double_down": result.is_double_down,
    }


def _action_json(action: Play | Tribute | Return) -> dict[str, Any]:
    if isinstance(action, Play):
        return {"seat": action.seat, **move_to_json(action.move)}
    if isinstance(action, Tribute):
        return {"seat": action.seat, "type": "tribute", "card": card_name(action.card, "code")}
    return {"seat": action.seat, "type": "return", "card": card_name(action.card, "code"), "to": action.to}


def _opening_json(opening: tuple[int, int] | None) -> dict[str, Any] | None:
    if opening is None:
        return None
    return {"position": opening[0], "card": card_name(opening[1], "code")}


def deal_record(deal: Deal) -> dict[str, Any]:
    """The record of a standalone deal (finished or not).

    >>> deal_record(Deal.new(1))["actions"]
    []
    """
    if not isinstance(deal, Deal):
        raise GuandanError(f"not a deal: {deal!r:.80}")
    return {
        "format": DEAL_FORMAT,
        "version": FORMAT_VERSION,
        "seed": deal.seed,
        "ruleset": deal.ruleset.name,
        "rules": deal.ruleset.to_json(),
        "level": deal.level.letter,
        "leader": deal.leader,
        "opening": _opening_json(deal.opening),
        "hands": [_codes(h) for h in deal.initial_hands],
        "finished_before": list(deal.initial_finish_order),
        "actions": [_action_json(p) for p in deal.history],
        "finish_order": list(deal.finish_order),
        "result": _result_json(deal.result),
        "over": deal.is_over,
    }


def _tribute_json(triples: tuple[tuple[int, int, int], ...]) -> list[dict[str, Any]]:
    return [{"seat": a, "to": b, "card": card_name(c, "code")} for a, b, c in triples]


def _deal_log_json(log: DealLog, match: Match) -> dict[str, Any]:
    summary = next((s for s in match.results if s.index == log.index), None)
    deal = log.deal
    actions = [_action_json(a) for a in log.before_play]
    if deal is not None:
        actions += [_action_json(p) for p in deal.history]
    start = match.start
    return {
        "index": log.index,
        "seed": log.seed,
        "dealt_from_seed": log.index - start.deal_index >= len(start.hands),
        "level": log.level.letter,
        "level_side": log.level_side,
        "levels_before": [lv.letter for lv in log.levels_before],
        "hands": [_codes(h) for h in log.dealt],
        "opening": _opening_json(log.opening),
        "resisted": log.resisted,
        "tributes": _tribute_json(log.tributes),
        "returns": _tribute_json(log.returns),
        "leader": deal.leader if deal is not None else None,
        "actions": actions,
        "finish_order": list(deal.finish_order) if deal is not None else [],
        "result": _result_json(summary.result) if summary else None,
        "levels_after": [lv.letter for lv in summary.levels_after] if summary else None,
        "passed_a": summary.passed_a if summary else False,
        "demoted": summary.demoted if summary else None,
    }


def match_record(match: Match) -> dict[str, Any]:
    """The record of a match (finished or not): its start, every deal, the outcome.

    >>> data = match_record(Match(seed=1))
    >>> data["start"]["levels"], len(data["deals"]), data["phase"]
    (['2', '2'], 1, 'play')
    """
    if not isinstance(match, Match):
        raise GuandanError(f"not a match: {match!r:.80}")
    start = match.start
    return {
        "format": MATCH_FORMAT,
        "version": FORMAT_VERSION,
        "seed": match.seed,
        "ruleset": match.ruleset.name,
        "rules": match.ruleset.to_json(),
        "start": {
            "levels": [lv.letter for lv in start.levels],
            "previous": None if start.previous is None else list(start.previous),
            "level_side": start.level_side,
            "failures": list(start.failures),
            "deal_index": start.deal_index,
            "hands_given": len(start.hands),
        },
        "deals": [_deal_log_json(log, match) for log in match.deal_logs],
        "phase": match.phase.label,
        "levels": [lv.letter for lv in match.levels],
        "failures": list(match.failures),
        "over": match.is_over,
        "winner": match.winner,
        "end_reason": match.end_reason,
    }


def record(state: Game) -> dict[str, Any]:
    """The record of a deal or a match (:func:`deal_record`, :func:`match_record`): the one
    way to write either.

    >>> from guandan.game.deal import Deal
    >>> sorted(record(Deal.new(1)))[:6]
    ['actions', 'finish_order', 'finished_before', 'format', 'hands', 'leader']
    """
    if isinstance(state, Match):
        return match_record(state)
    if isinstance(state, Deal):
        return deal_record(state)
    raise GuandanError(f"not a deal or a match: {state!r:.80}")


# -- reading: JSON values checked before the game sees them ----------------------------------------

#: How deep :func:`_describe` shows nested values, and how many items of each.
_SHOW_DEPTH = 4
_SHOW_ITEMS = 12


def _show(value: Any, depth: int) -> str:
    """A JSON value as compact JSON text, cut at ``depth`` levels and ``_SHOW_ITEMS`` items
    (bounded work and recursion whatever the value)."""
    if value is None or isinstance(value, bool | float | str):
        return json.dumps(value[:200] if isinstance(value, str) else value)
    if isinstance(value, int):
        return str(value) if value.bit_length() <= 256 else f"<int of {value.bit_length()} bits>"
    if isinstance(value, list | dict):
        if depth <= 0:
            return "[...]" if isinstance(value, list) else "{...}"
        if isinstance(value, list):
            items = [_show(v, depth - 1) for v in value[:_SHOW_ITEMS]]
        else:
            items = [f"{_show(k, 0)}:{_show(v, depth - 1)}" for k, v in list(value.items())[:_SHOW_ITEMS]]
        more = ",..." if len(value) > _SHOW_ITEMS else ""
        text = ",".join(items) + more
        return f"[{text}]" if isinstance(value, list) else f"{{{text}}}"
    return f"<{type(value).__name__}>"


def _describe(value: Any) -> str:
    """A value of a record as short text for a message (at most 200 characters)."""
    text = _show(value, _SHOW_DEPTH)
    return text if len(text) <= 200 else text[:197] + "..."


#: The largest int a record holds, in bits: far above any seed or count, small enough to print.
_INT_BITS = 4096

_KINDS: dict[str, tuple[str, Any]] = {
    # a JSON value: a Python int only (is_int would also take numpy's, which a record never holds)
    "int": ("an int", lambda v: isinstance(v, int) and not isinstance(v, bool) and v.bit_length() <= _INT_BITS),
    "str": ("a string", lambda v: isinstance(v, str)),
    "list": ("a list", lambda v: isinstance(v, list)),
    "dict": ("an object", lambda v: isinstance(v, dict)),
}


def _check(value: Any, kind: str, where: str, nullable: bool = False) -> Any:
    """``value`` if it is of ``kind`` (or ``None`` when ``nullable``), else a RecordError naming ``where``."""
    name, test = _KINDS[kind]
    if (nullable and value is None) or test(value):
        return value
    raise RecordError(f"{where} is {name}{' or null' if nullable else ''}, got {_describe(value)}")


def _field(obj: dict[str, Any], key: str, kind: str, where: str, nullable: bool = False) -> Any:
    """The field ``key`` of a JSON object, of ``kind``; a RecordError names it when missing or mistyped."""
    if key not in obj:
        raise RecordError(f"{where}{key} is missing")
    return _check(obj[key], kind, f"{where}{key}", nullable)


def _list_of(value: Any, kind: str, where: str, length: int | None = None) -> list[Any]:
    """A list of values of ``kind`` (of ``length`` items when given)."""
    items: list[Any] = _check(value, "list", where)
    if length is not None and len(items) != length:
        raise RecordError(f"{where} has {length} items, got {len(items)}")
    for i, item in enumerate(items):
        _check(item, kind, f"{where}.{i}")
    return items


def _hands_of(value: Any, where: str) -> list[Cards]:
    """Four hands of card codes: the types checked here, the cards by the game."""
    hands = _list_of(value, "list", where, 4)
    for seat, hand in enumerate(hands):
        _list_of(hand, "str", f"{where}.{seat}")
    return [Cards.from_cards(parse_card(c) for c in hand) for hand in hands]


def _is_text(value: Any, text: str) -> bool:
    """Whether ``value`` is the string ``text`` (compared only once known to be a string)."""
    return isinstance(value, str) and value == text


#: Other JSON objects the package writes, by fields only they have: what to call them.
_NOT_RECORDS = (
    ({"games_played", "tables", "wins"}, "the summary of a guandan serve run (summary.json), not a record"),
    ({"sides", "deals_per_match"}, "the summary of a guandan simulate run (--json), not a record"),
)


def _require(data: Any, fmt: str) -> None:
    if not isinstance(data, dict):
        raise RecordError(f"a record is a JSON object, got {type(data).__name__}")
    if "format" not in data:
        for fields, what in _NOT_RECORDS:
            if fields <= data.keys():
                raise RecordError(f"{what}: a record has a format, {MATCH_FORMAT} or {DEAL_FORMAT}")
        raise RecordError(f"not a record: a JSON object with no format (a record's is {MATCH_FORMAT} or {DEAL_FORMAT})")
    if not _is_text(data.get("format"), fmt):
        raise RecordError(f"not a {fmt} record: format {_describe(data.get('format'))}")
    version = data.get("version")
    if type(version) is not int or version != FORMAT_VERSION:
        raise RecordError(
            f"record version {_describe(version)} is not supported (this is version {FORMAT_VERSION})"
        )


def _ruleset_of(data: dict[str, Any]) -> Ruleset:
    try:
        ruleset = Ruleset.from_json(data.get("rules"))  # type: ignore[arg-type]
    except GuandanError as error:
        raise RecordError(f"bad rules in record: {error}") from None
    if not _is_text(data.get("ruleset"), ruleset.name):
        raise RecordError(f"record names ruleset {_describe(data.get('ruleset'))} but its rules are {ruleset.name!r}")
    return ruleset


_MISSING = object()


def _compare(expected: Any, got: Any) -> None:
    """Raise naming the first field where the replayed record (``got``) differs from the given one.

    Walks both with a stack, not recursion: the given record may nest without bound; the
    walk goes only as deep as the replayed record, which the game wrote."""
    stack: list[tuple[Any, Any, str]] = [(expected, got, "")]
    while stack:
        a, b, where = stack.pop()
        if a is _MISSING or b is _MISSING:
            state = "is missing" if a is _MISSING else "is unexpected"
            raise RecordError(f"record field {where.rstrip('.')} {state}")
        if isinstance(a, dict) and isinstance(b, dict):
            keys = list(a) + [k for k in b if k not in a]
            stack.extend((a.get(k, _MISSING), b.get(k, _MISSING), f"{where}{k}.") for k in reversed(keys))
            continue
        if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            stack.extend((x, y, f"{where}{i}.") for i, (x, y) in reversed(list(enumerate(zip(a, b)))))
            continue
        # b, written by the game, is a JSON scalar, or a list or object unlike a: the values are
        # compared only when of one type (True is not 1 in a record), never element by element
        if type(a) is not type(b) or isinstance(b, list | dict) or a != b:
            raise RecordError(
                f"record field {where.rstrip('.')} says {_describe(a)} but the replay gives {_describe(b)}"
            )


def _move_from_json(action: dict[str, Any], level: Rank, where: str) -> Move:
    """The move an action object declares, its fields' types checked (``where`` names the
    action in messages); errors of the game propagate, for the caller to name the action."""
    field = f"{where} field "
    move_type = MoveType.parse(_field(action, "type", "str", field))
    if move_type == MoveType.PASS:
        move = Move.pass_(level)
    else:
        tokens = _list_of(_field(action, "cards", "list", field), "str", f"{field}cards")
        key = _check(action.get("key"), "str", f"{field}key", nullable=True)
        suit = _check(action.get("suit"), "str", f"{field}suit", nullable=True)
        cards = Cards.from_cards(parse_card(c) for c in tokens)
        found = [
            m
            for m in classify(cards, level)
            if m.type == move_type and m.key_letter == key and (None if m.suit is None else m.suit.letter) == suit
        ]
        if not found:
            raise GuandanError(f"{cards} cannot be played as {move_type.label} {key} at level {level.label}")
        move = found[0]
    written = move_to_json(move)
    if "size" in action and _check(action["size"], "int", f"{field}size") != written["size"]:
        raise GuandanError(f"its 'size' is {action['size']!r} but the move has {written['size']!r}")
    if "as" in action and _list_of(action["as"], "str", f"{field}as") != written["as"]:
        raise GuandanError(f"its 'as' is {_describe(action['as'])} but the move has {written['as']!r}")
    return move


def move_from_json(data: dict[str, Any], level: int | str | Rank) -> Move:
    """The move an action of a record declares, checked against its own ``as`` and ``size``.

    Raises :class:`RecordError` when ``data`` is not an action object (a ``dict`` with a
    string ``type`` and, unless a pass, a list of string ``cards``; a string or null
    ``key`` and ``suit``; an int ``size`` and a list of strings ``as`` when given), and an
    error of :mod:`guandan.errors` when its cards or declaration are bad.

    >>> print(move_from_json({"type": "pair", "key": "5", "suit": None, "cards": ["S5", "H2"]}, 2))
    pair 5: S5 H2 (H2 as 5)
    """
    lvl = parse_level(level)
    return _move_from_json(_check(data, "dict", "an action"), lvl, "action")


def _replay_deal(data: Any) -> Deal:
    _require(data, DEAL_FORMAT)
    ruleset = _ruleset_of(data)
    field = "record field "
    level_text = _field(data, "level", "str", field)
    seed = _field(data, "seed", "int", field, nullable=True)
    leader = _field(data, "leader", "int", field)
    hand_codes = _field(data, "hands", "list", field)
    actions = _field(data, "actions", "list", field)
    before: list[int] = []
    if seed is None:
        before = _list_of(_field(data, "finished_before", "list", field), "int", f"{field}finished_before")
    try:
        level = parse_level(level_text)
        hands = _hands_of(hand_codes, f"{field}hands")
        if seed is not None:
            deal = Deal.new(seed, level, leader=leader, ruleset=ruleset)
        else:
            deal = Deal(hands, level, leader, finish_order=before, ruleset=ruleset)
    except RecordError:
        raise
    except GuandanError as error:
        raise RecordError(f"record cannot set up the deal: {error}") from None
    if seed is not None and list(deal.initial_hands) != hands:
        raise RecordError(f"the hands of the record are not those dealt from seed {seed}")
    for i, action in enumerate(actions):
        where = f"action {i + 1}"
        obj = _check(action, "dict", where)
        seat = _field(obj, "seat", "int", f"{where} field ")
        try:
            deal.play(_move_from_json(obj, level, where), seat)
        except RecordError:
            raise
        except GuandanError as error:
            raise RecordError(f"{where} {_describe(action)}: {error}") from None
    _compare(data, deal_record(deal))
    return deal


def _start_match(data: dict[str, Any], ruleset: Ruleset) -> tuple[Match, list[dict[str, Any]]]:
    """The match a record starts from, and its deals (checked to be a list of objects)."""
    field = "record field "
    seed = _field(data, "seed", "int", field)
    start = _field(data, "start", "dict", field)
    deals = _list_of(_field(data, "deals", "list", field), "dict", f"{field}deals")
    field = "record field start."
    levels = _list_of(_field(start, "levels", "list", field), "str", f"{field}levels", 2)
    previous = _field(start, "previous", "list", field, nullable=True)
    if previous is not None:
        _list_of(previous, "int", f"{field}previous")
    level_side = _field(start, "level_side", "int", field, nullable=True)
    failures = _list_of(_field(start, "failures", "list", field), "int", f"{field}failures", 2)
    deal_index = _field(start, "deal_index", "int", field)
    hands_given = _field(start, "hands_given", "int", field)
    if not 0 <= hands_given <= len(deals):
        raise RecordError(f"{field}hands_given is {hands_given}, but the record has {len(deals)} deals")
    given = [_field(deals[i], "hands", "list", f"record field deals.{i}.") for i in range(hands_given)]
    try:
        match = Match(
            seed,
            ruleset,
            levels=(parse_level(levels[0]), parse_level(levels[1])),
            previous=previous,
            level_side=level_side,
            failures=(failures[0], failures[1]),
            deal_index=deal_index,
            hands=[_hands_of(hands, f"record field deals.{i}.hands") for i, hands in enumerate(given)],
        )
    except RecordError:
        raise
    except GuandanError as error:
        raise RecordError(f"record cannot set up the match: {error}") from None
    return match, deals


def _replay_match_action(match: Match, action: dict[str, Any], where: str) -> None:
    """Apply one action object of a match record (its fields' types checked; errors of the
    game propagate, for the caller to name the action)."""
    field = f"{where} field "
    seat = _field(action, "seat", "int", field)
    kind = _field(action, "type", "str", field)
    if kind == "tribute":
        match.pay_tribute(parse_card(_field(action, "card", "str", field)), seat)
    elif kind == "return":
        card = parse_card(_field(action, "card", "str", field))
        to = _field(action, "to", "int", field)
        due = match.returns_due
        if due and to != due[0][1]:
            raise GuandanError(f"the card goes to seat {due[0][1]}, not {to}")
        match.return_card(card, seat)
    else:
        match.play(_move_from_json(action, match.level, where), seat)


def _replay_match(data: Any) -> Match:
    _require(data, MATCH_FORMAT)
    ruleset = _ruleset_of(data)
    match, deals = _start_match(data, ruleset)
    for d, deal in enumerate(deals, 1):  # counted from 1 in messages, from 0 in the fields' paths
        field = f"record field deals.{d - 1}."
        if match.is_over:
            raise RecordError(f"deal {d}: the match is already over")
        index = _field(deal, "index", "int", field)
        actions = _field(deal, "actions", "list", field)
        if match.deal_index != index:
            raise RecordError(f"deal {d}: its index is {index}, the replay is at index {match.deal_index}")
        try:
            hands = _hands_of(_field(deal, "hands", "list", field), f"{field}hands")
        except RecordError:
            raise
        except GuandanError as error:
            raise RecordError(f"deal {d}: bad hands: {error}") from None
        if list(match.dealt_hands) != hands:
            raise RecordError(
                f"deal {d}: the hands of the record are not those dealt "
                f"(seed {derive_seed(match.seed, match.deal_index)})"
            )
        for i, action in enumerate(actions, 1):
            where = f"deal {d} action {i}"
            obj = _check(action, "dict", where)
            try:
                _replay_match_action(match, obj, where)
            except RecordError:
                raise
            except GuandanError as error:
                raise RecordError(f"{where} {_describe(action)}: {error}") from None
    _compare(data, match_record(match))
    return match


def replay(data: dict[str, Any]) -> Deal | Match:
    """The deal or match a record describes, rebuilt action by action and checked.

    >>> from guandan.game.match import Match
    >>> m = Match(seed=4)
    >>> _ = m.play(m.legal_actions()[0])
    >>> replay(record(m)) == m
    True

    Raises :class:`RecordError` for anything that is not a record that replays.
    """
    if isinstance(data, dict) and _is_text(data.get("format"), MATCH_FORMAT):
        return _replay_match(data)
    return _replay_deal(data)

