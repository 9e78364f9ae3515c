"""Game records: every deal and match as a JSON value, and :func:`replay` back to the state.

A record is a ``dict`` of plain JSON values (``json.dumps`` takes it as is). It holds
what is needed to rebuild the state exactly — the format and version, the seed, the
ruleset (its name and every field), the hands as dealt, the levels, every action in
order — and what the game produced, so that a replay can check it: finish order,
result, levels after each deal, the winner.

>>> import json
>>> from guandan.deal import Deal
>>> from guandan.agents import GreedyAgent, play_out
>>> deal = Deal.new(seed=11, level=5)
>>> play_out(deal, [GreedyAgent()] * 4)
>>> record = deal.to_record()
>>> record["format"], record["version"], record["level"], record["actions"][0]["seat"] == deal.leader
('guandan.deal', 1, '5', True)
>>> again = replay(json.loads(json.dumps(record)))
>>> again == deal, again.to_record() == record
(True, True)

Actions are written as :func:`guandan.jsonio.move_to_json` writes moves, plus the seat:
``{"seat": 1, "type": "pair", "key": "5", "size": 2, "suit": null, "cards": ["S5", "C5"],
"as": ["S5", "C5"]}`` (the declaration: type, key, suit; the physical cards; the
declared faces). Tribute and return actions are ``{"seat": 3, "type": "tribute",
"card": "HR"}`` and ``{"seat": 0, "type": "return", "card": "S3", "to": 3}``.

:func:`replay` raises :class:`~guandan.errors.RecordError` naming the action and its
index when an action is malformed, illegal where it is replayed, or disagrees with
itself (its ``as`` or ``size``), and naming the field when the state it reaches differs
from what the record says.
"""

from __future__ import annotations

import json
from typing import Any

from .cards import Cards, card_name, parse_card, parse_level
from .combos import Move, MoveType, classify
from .deal import Deal, DealResult, Play, Return, Tribute
from .errors import GuandanError, RecordError
from .jsonio import move_to_json
from .match import Match
from .rng import derive_seed
from .rules import Ruleset

__all__ = ["FORMAT_VERSION", "deal_record", "match_record", "record", "replay", "move_from_json", "RecordError"]

#: The version of the record format this module writes and reads.
FORMAT_VERSION = 1
DEAL_FORMAT = "guandan.deal"
MATCH_FORMAT = "guandan.match"


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


def _action_json(action: Any) -> dict[str, Any]:
    if isinstance(action, Play):
        return {"seat": action.seat, **move_to_json(action.move)}
    if isinstance(action, Tribute):
        return {"seat": action.seat, "type": "tribute", "card": card_name(action.card, "code")}
    if isinstance(action, Return):
        return {"seat": action.seat, "type": "return", "card": card_name(action.card, "code"), "to": action.to}
    raise GuandanError(f"not an action: {action!r:.80}")


def _opening_json(opening: tuple[int, int] | None) -> dict[str, Any] | None:
    if opening is None:
        return None
    return {"position": opening[0], "card": card_name(opening[1], "code")}


def deal_record(deal: Deal) -> dict[str, Any]:
    """The record of a standalone deal (finished or not)."""
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
        "finished_before": list(deal._initial_finished),
        "actions": [_action_json(p) for p in deal.history],
        "finish_order": list(deal.finish_order),
        "result": _result_json(deal.result),
        "over": deal.is_over,
    }


def _tribute_json(triples: tuple[tuple[int, int, int], ...]) -> list[dict[str, Any]]:
    return [{"seat": a, "to": b, "card": card_name(c, "code")} for a, b, c in triples]


def match_record(match: Match) -> dict[str, Any]:
    """The record of a match (finished or not): its start, every deal, the outcome."""
    start = match._start
    deals = []
    summaries = list(match.results)
    entries = list(match._archive)
    if not match.is_over:
        entries.append(match._current_archive())
    for i, entry in enumerate(entries):
        summary = summaries[i] if i < len(summaries) else None
        deal = entry["deal"]
        actions = [_action_json(a) for a in entry["pre"]]
        if deal is not None:
            actions += [_action_json(p) for p in deal.history]
        offset = entry["index"] - start["deal_index"]
        deals.append(
            {
                "index": entry["index"],
                "seed": entry["seed"],
                "dealt_from_seed": offset >= start["hands_given"],
                "level": entry["level"].letter,
                "level_side": entry["level_side"],
                "levels_before": [lv.letter for lv in entry["levels_before"]],
                "hands": [_codes(h) for h in entry["dealt"]],
                "opening": _opening_json(entry["opening"]),
                "resisted": entry["resisted"],
                "tributes": _tribute_json(entry["tributes"]),
                "returns": _tribute_json(entry["returns"]),
                "leader": deal.leader if deal is not None else None,
                "actions": actions,
                "finish_order": list(deal.finish_order) if deal is not None else [],
                "result": _result_json(summary.result) if summary else None,
                "levels_after": [lv.letter for lv in summary.levels_after] if summary else None,
                "passed_a": summary.passed_a if summary else False,
                "demoted": summary.demoted if summary else None,
            }
        )
    return {
        "format": MATCH_FORMAT,
        "version": FORMAT_VERSION,
        "seed": match.seed,
        "ruleset": match.ruleset.name,
        "rules": match.ruleset.to_json(),
        "start": {
            "levels": [lv.letter for lv in start["levels"]],
            "previous": None if start["previous"] is None else list(start["previous"]),
            "level_side": start["level_side"],
            "failures": list(start["failures"]),
            "deal_index": start["deal_index"],
            "hands_given": start["hands_given"],
        },
        "deals": deals,
        "phase": match.phase.label,
        "levels": [lv.letter for lv in match.levels],
        "failures": list(match.failures),
        "over": match.is_over,
        "winner": match.winner,
        "end_reason": match.end_reason,
    }


def record(state: Deal | Match) -> dict[str, Any]:
    """The record of a deal or a match (:func:`deal_record`, :func:`match_record`).

    >>> from guandan.deal import Deal
    >>> sorted(record(Deal.new(1)))[:6]
    ['actions', 'finish_order', 'finished_before', 'format', 'hands', 'leader']
    """
    if isinstance(state, Match):
        return match_record(state)
    if isinstance(state, Deal):
        return deal_record(state)
    raise GuandanError(f"not a deal or a match: {state!r:.80}")


# -- replay ----------------------------------------------------------------------------------------


def move_from_json(data: dict[str, Any], level: int | str) -> Move:
    """The move an action of a record declares, checked against its own ``as`` and ``size``.

    Raises :class:`RecordError` when ``data`` is not an action object (a ``dict`` with a
    string ``type`` and, unless a pass, a list of ``cards``), and an error of
    :mod:`guandan.errors` when its cards or declaration are bad.

    >>> print(move_from_json({"type": "pair", "key": "5", "suit": None, "cards": ["S5", "H2"]}, 2))
    pair 5: S5 H2 (H2 as 5)
    """
    lvl = parse_level(level)
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise RecordError(f"an action is a JSON object with a string 'type', got {_describe(data)}")
    move_type = MoveType.parse(data["type"])
    if move_type == MoveType.PASS:
        move = Move.pass_(lvl)
    else:
        tokens = data.get("cards")
        if not isinstance(tokens, list):
            raise RecordError(f"an action's 'cards' is a list of card codes, got {_describe(tokens)}")
        cards = Cards.from_cards(parse_card(c) for c in tokens)
        key, suit = data.get("key"), data.get("suit")
        found = [
            m
            for m in classify(cards, lvl)
            if m.type == move_type and m.key_letter == key and (None if m.suit is None else m.suit.letter) == suit
        ]
        if not found:
            raise GuandanError(f"{cards} cannot be played as {move_type.label} {key} at level {lvl.label}")
        move = found[0]
    written = move_to_json(move)
    for field in ("size", "as"):
        if field in data and data[field] != written[field]:
            raise GuandanError(f"its {field!r} is {data[field]!r} but the move has {written[field]!r}")
    return move


#: What malformed JSON values raise when read as a record (caught and named as a RecordError).
_MALFORMED = (ValueError, KeyError, TypeError, IndexError, AttributeError, OverflowError, RecursionError)


def _describe(action: Any) -> str:
    try:
        text = json.dumps(action, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        text = repr(action)
    return text if len(text) <= 200 else text[:197] + "..."


def _require(data: dict[str, Any], fmt: str) -> None:
    if not isinstance(data, dict):
        raise RecordError(f"a record is a JSON object, got {type(data).__name__}")
    if data.get("format") != fmt:
        raise RecordError(f"not a {fmt} record: format {data.get('format')!r}")
    if data.get("version") != FORMAT_VERSION:
        raise RecordError(f"record version {data.get('version')!r} is not supported (this is version {FORMAT_VERSION})")


def _ruleset_of(data: dict[str, Any]) -> Ruleset:
    try:
        ruleset = Ruleset.from_json(data["rules"])
    except (KeyError, TypeError, ValueError) as error:
        raise RecordError(f"bad rules in record: {error}") from None
    if ruleset.name != data.get("ruleset"):
        raise RecordError(f"record names ruleset {data.get('ruleset')!r} but its rules are {ruleset.name!r}")
    return ruleset


def _compare(expected: Any, got: Any, where: str) -> None:
    """Raise naming the first field where the replayed record differs from the given one."""
    if isinstance(expected, dict) and isinstance(got, dict):
        for key in list(expected) + [k for k in got if k not in expected]:
            if key not in expected or key not in got:
                state = "is missing" if key not in expected else "is unexpected"
                raise RecordError(f"record field {where}{key} {state}")
            _compare(expected[key], got[key], f"{where}{key}.")
        return
    if isinstance(expected, list) and isinstance(got, list) and len(expected) == len(got):
        for i, (a, b) in enumerate(zip(expected, got)):
            _compare(a, b, f"{where}{i}.")
        return
    if type(expected) is not type(got) or expected != got:  # True is not 1 in a record
        raise RecordError(
            f"record field {where.rstrip('.')} says {_describe(expected)} but the replay gives {_describe(got)}"
        )


def _replay_deal(data: dict[str, Any]) -> Deal:
    _require(data, DEAL_FORMAT)
    ruleset = _ruleset_of(data)
    try:
        level = parse_level(data["level"])
        hands = [Cards.from_cards(parse_card(c) for c in hand) for hand in data["hands"]]
        if data["seed"] is not None:
            deal = Deal.new(data["seed"], level, leader=data["leader"], ruleset=ruleset)
            if list(deal.initial_hands) != hands:
                raise RecordError(f"the hands of the record are not those dealt from seed {data['seed']}")
        else:
            deal = Deal(hands, level, data["leader"], finish_order=data["finished_before"], ruleset=ruleset)
    except RecordError:
        raise
    except _MALFORMED as error:
        raise RecordError(f"record cannot set up the deal: {error}") from None
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise RecordError(f"a record's 'actions' is a list, got {_describe(actions)}")
    for i, action in enumerate(actions):
        try:
            seat = action["seat"]
            deal.play(move_from_json(action, level), seat)
        except _MALFORMED as error:
            raise RecordError(f"action {i} {_describe(action)}: {error}") from None
    _compare(data, deal_record(deal), "")
    return deal


def _replay_match(data: dict[str, Any]) -> Match:
    _require(data, MATCH_FORMAT)
    ruleset = _ruleset_of(data)
    try:
        start = data["start"]
        deals = data["deals"]
        given = [
            [Cards.from_cards(parse_card(c) for c in hand) for hand in deals[i]["hands"]]
            for i in range(start["hands_given"])
        ]
        match = Match(
            data["seed"],
            ruleset,
            levels=tuple(start["levels"]),
            previous=start["previous"],
            level_side=start["level_side"],
            failures=tuple(start["failures"]),
            deal_index=start["deal_index"],
            hands=given,
        )
    except _MALFORMED as error:
        raise RecordError(f"record cannot set up the match: {error}") from None
    if not isinstance(deals, list):
        raise RecordError(f"a match record's 'deals' is a list, got {_describe(deals)}")
    for d, deal in enumerate(deals):
        if match.is_over:
            raise RecordError(f"deal {d}: the match is already over")
        if not isinstance(deal, dict) or not isinstance(deal.get("actions"), list):
            raise RecordError(f"deal {d}: a deal is a JSON object with a list of 'actions', got {_describe(deal)}")
        if match.deal_index != deal.get("index"):
            raise RecordError(
                f"deal {d}: the record says deal number {deal.get('index')}, the replay is at {match.deal_index}"
            )
        try:
            hands = [Cards.from_cards(parse_card(c) for c in hand) for hand in deal["hands"]]
        except _MALFORMED as error:
            raise RecordError(f"deal {d}: bad hands: {error!r}") from None
        if list(match.dealt_hands) != hands:
            raise RecordError(
                f"deal {d}: the hands of the record are not those dealt "
                f"(seed {derive_seed(match.seed, match.deal_index)})"
            )
        for i, action in enumerate(deal["actions"]):
            try:
                seat, kind = action["seat"], action["type"]
                if kind == "tribute":
                    match.pay_tribute(parse_card(action["card"]), seat)
                elif kind == "return":
                    to = match._owed[0][1] if match._owed else None
                    if action.get("to") != to:
                        raise GuandanError(f"the card goes to seat {to}, not {action.get('to')}")
                    match.return_card(parse_card(action["card"]), seat)
                else:
                    match.play(move_from_json(action, match.level), seat)
            except _MALFORMED as error:
                raise RecordError(f"deal {d} action {i} {_describe(action)}: {error}") from None
    _compare(data, match_record(match), "")
    return match


def replay(data: dict[str, Any]) -> Deal | Match:
    """The deal or match a record describes, rebuilt action by action and checked.

    >>> from guandan.match import Match
    >>> m = Match(seed=4)
    >>> _ = m.play(m.legal_actions()[0])
    >>> replay(m.to_record()) == m
    True

    Raises :class:`RecordError` for anything that is not a record that replays.
    """
    if isinstance(data, dict) and data.get("format") == MATCH_FORMAT:
        return _replay_match(data)
    return _replay_deal(data)
