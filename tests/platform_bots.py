"""Test bots for the platform server, written from the platform's protocol, not
from the server's code.

:class:`Checker` follows one seat's view of the games message by message and checks each
one: its fields and their types, the order of the stages, the seat's hand and every seat's
card count, and that an ``actionList`` is exactly the engine's legal actions for the hand,
level and play to beat the message itself states (``PASS`` first when responding).
:func:`run_bot` connects a checking bot over a real WebSocket and plays with a seeded
random choice; it can also misbehave on purpose (bad answers, leaving, going silent).
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from guandan import Cards, legal_moves, parse_card
from guandan.game.tribute import return_choices, tribute_choices
from guandan.platform.actions import from_action, to_action

CARD = re.compile(r"^([SHCD][A2-9TJQK]|SB|HR)$")
RANK_CHARS = set("A23456789TJQK")
TYPES = {"Single", "Pair", "Trips", "ThreeWithTwo", "ThreePair", "TwoTrips", "Straight", "StraightFlush", "Bomb"}
ACTION_RANKS = RANK_CHARS | {"B", "R", "JOKER"}

# the protocol's table: every field of each kind (besides type and stage)
NOTIFY_FIELDS = {
    "beginning": {"handCards", "myPos"},
    "play": {"curPos", "curAction", "greaterPos", "greaterAction"},
    "tribute": {"result"},
    "anti-tribute": {"antiNums", "antiPos"},
    "back": {"result"},
    "episodeOver": {"order", "curRank", "restCards"},
    "gameOver": {"curTimes", "settingTimes"},
    "gameResult": {"victoryNum", "draws"},
}
ACT_FIELDS = {
    "handCards",
    "publicInfo",
    "selfRank",
    "oppoRank",
    "curRank",
    "curPos",
    "curAction",
    "greaterPos",
    "greaterAction",
    "actionList",
    "indexRange",
}
ACT_STAGES = {"play", "tribute", "back"}
#: The kinds every whole game shows (all but anti-tribute, which needs both big jokers with the payers).
EVERY_GAME_KINDS = {f"notify {stage}" for stage in NOTIFY_FIELDS if stage != "anti-tribute"} | {
    f"act {stage}" for stage in ACT_STAGES
}


class ProtocolViolation(AssertionError):
    """A message that breaks the protocol."""


def expect(condition: bool, what: str) -> None:
    if not condition:
        raise ProtocolViolation(what)


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_cards(cards: Any, what: str) -> None:
    expect(isinstance(cards, list) and all(isinstance(c, str) and CARD.match(c) for c in cards), f"{what}: {cards!r}")


def check_action(action: Any, what: str) -> None:
    expect(isinstance(action, list) and len(action) == 3, f"{what}: an action is [type, rank, cards], got {action!r}")
    kind, rank, cards = action
    if kind == "PASS":
        expect(rank == "PASS" and cards == "PASS", f"{what}: a pass is ['PASS', 'PASS', 'PASS'], got {action!r}")
        return
    if kind in ("tribute", "back"):
        expect(rank == kind, f"{what}: {action!r}")
        check_cards(cards, what)
        expect(len(cards) == 1, f"{what}: one card, got {action!r}")
        return
    expect(kind in TYPES, f"{what}: unknown action type {kind!r}")
    expect(rank in ACTION_RANKS, f"{what}: bad rank {rank!r}")
    check_cards(cards, what)
    expect(len(cards) >= 1, f"{what}: a play has cards")


def check_seat(value: Any, what: str, allow_none: bool = False) -> None:
    ok = is_int(value) and (0 <= value <= 3 or (allow_none and value == -1))
    expect(ok, f"{what}: a seat 0..3{' or -1' if allow_none else ''}, got {value!r}")


def expected_play_actions(hand: list[str], level: str, greater: list[Any] | None) -> list[list[Any]]:
    """The engine's legal actions for this hand, level and play to beat, PASS first when responding."""
    beat = None if greater is None else from_action(greater, level)
    moves = list(legal_moves(Cards.from_cards(parse_card(c) for c in hand), level, beat=beat))
    actions = [to_action(m) for m in moves]
    passes = [a for a in actions if a[0] == "PASS"]
    return passes + [a for a in actions if a[0] != "PASS"]


def codes(faces: tuple[int, ...]) -> list[str]:
    return Cards.from_cards(faces).codes()


@dataclass
class Checker:
    """One seat's view: checks each message it receives (raises :class:`ProtocolViolation`)."""

    seat: int
    return_rule: str = "low"
    mid_match: bool = False  # the games start mid-way (a tribute may come in their first deal)
    hand: Counter[str] = field(default_factory=Counter)
    counts: list[int] = field(default_factory=lambda: [27] * 4)
    stage: str = "start"  # start, dealt, tribute, back, play, deal_over, game_over, done
    deal_in_game: int = 0
    tribute_seen: bool = False
    back_seen: bool = False
    anti_seen: bool = False
    games_over: int = 0
    setting: int | None = None
    asked: dict[str, Any] | None = None  # the last act message, until its notify arrives
    chosen: list[Any] | None = None
    messages: int = 0
    acts: Counter[str] = field(default_factory=Counter)
    deals: int = 0
    stages_seen: Counter[str] = field(default_factory=Counter)
    legal_checked: int = 0
    final: dict[str, Any] | None = None
    last_notice: dict[str, Any] | None = None
    given: str | None = None

    def check(self, message: Any) -> None:
        self.messages += 1
        expect(isinstance(message, dict), f"a message is a JSON object, got {message!r:.80}")
        kind, stage = message.get("type"), message.get("stage")
        expect(kind in ("notify", "act"), f"type is notify or act, got {kind!r}")
        fields = set(message) - {"type", "stage"}
        if kind == "notify":
            expect(stage in NOTIFY_FIELDS, f"unknown notify stage {stage!r}")
            expect(fields == NOTIFY_FIELDS[stage], f"notify {stage} fields {sorted(fields)}")
        else:
            expect(stage in ACT_STAGES, f"unknown act stage {stage!r}")
            expect(fields == ACT_FIELDS, f"act {stage} fields {sorted(fields)}")
        self.stages_seen[f"{kind} {stage}"] += 1
        getattr(self, f"_{kind}_{stage.replace('-', '_')}")(message)

    def _tribute_due(self) -> bool:
        """Whether this deal starts with a tribute (every deal of a game but the first)."""
        return self.deal_in_game > 0 or (self.mid_match and self.games_over == 0)

    # -- notify --------------------------------------------------------------------------------

    def _notify_beginning(self, m: dict[str, Any]) -> None:
        expect(self.stage in ("start", "deal_over", "game_over"), f"beginning after {self.stage}")
        if self.stage == "deal_over":
            self.deal_in_game += 1
        else:
            self.deal_in_game = 0
        expect(m["myPos"] == self.seat, f"myPos {m['myPos']} is not this seat ({self.seat})")
        check_cards(m["handCards"], "handCards")
        expect(len(m["handCards"]) == 27, f"27 cards dealt, got {len(m['handCards'])}")
        self.hand = Counter(m["handCards"])
        self.counts = [27] * 4
        self.stage = "dealt"
        self.tribute_seen = self.back_seen = self.anti_seen = False

    def _notify_anti_tribute(self, m: dict[str, Any]) -> None:
        expect(
            self.stage == "dealt" and self._tribute_due(),
            f"anti-tribute after {self.stage} in deal {self.deal_in_game}",
        )
        expect(is_int(m["antiNums"]) and isinstance(m["antiPos"], list), "antiNums int, antiPos list")
        expect(m["antiNums"] == len(m["antiPos"]) and m["antiNums"] in (1, 2), f"antiNums {m['antiNums']}")
        for s in m["antiPos"]:
            check_seat(s, "antiPos")
        if self.seat in m["antiPos"]:
            expect(self.hand["HR"] >= 1, "a seat that resists holds a big joker")
        self.anti_seen = True
        self.stage = "play"

    def _notify_tribute(self, m: dict[str, Any]) -> None:
        expect(self.stage in ("dealt", "tribute") and self._tribute_due(), f"notify tribute after {self.stage}")
        self._transfers(m["result"], "tribute")
        self.tribute_seen = True
        self.stage = "back"

    def _notify_back(self, m: dict[str, Any]) -> None:
        expect(self.stage == "back" and self.tribute_seen, f"notify back after {self.stage}")
        self._transfers(m["result"], "back")
        self.back_seen = True
        self.stage = "play"

    def _transfers(self, result: Any, what: str) -> None:
        expect(isinstance(result, list) and len(result) in (1, 2), f"{what} result: {result!r}")
        for entry in result:
            expect(isinstance(entry, list) and len(entry) == 3, f"{what} result entry {entry!r}")
            giver, taker, card = entry
            check_seat(giver, f"{what} giver")
            check_seat(taker, f"{what} receiver")
            expect(giver != taker, f"{what} goes to another seat: {entry}")
            check_cards([card], f"{what} card")
            if giver == self.seat:
                expect(card == self.given, f"{what}: this seat gave {self.given}, the result says {card}")
                expect(self.hand[card] > 0, f"{what}: this seat gives {card} it does not hold")
                self.hand[card] -= 1
            if taker == self.seat:
                self.hand[card] += 1
            self.counts[giver] -= 1
            self.counts[taker] += 1

    def _notify_play(self, m: dict[str, Any]) -> None:
        expect(self.stage in ("dealt", "play"), f"notify play after {self.stage}")
        expect(not self._tribute_due() or self.anti_seen or self.back_seen, "play before the tribute was settled")
        self.stage = "play"
        check_seat(m["curPos"], "curPos")
        check_seat(m["greaterPos"], "greaterPos")
        check_action(m["curAction"], "curAction")
        check_action(m["greaterAction"], "greaterAction")
        expect(m["greaterAction"][0] != "PASS", "greaterAction is a play")
        if m["curAction"][0] != "PASS":
            expect(m["greaterPos"] == m["curPos"] and m["greaterAction"] == m["curAction"], "a play is the greater one")
        self.last_notice = m
        who, action = m["curPos"], m["curAction"]
        if self.asked is not None:
            expect(who == self.seat and action == self.chosen, f"the notify after this seat's answer shows {m}")
            self.asked = self.chosen = None
        else:
            expect(who != self.seat, "a notify play for this seat without its answer")
        if action[0] != "PASS":
            self.counts[who] -= len(action[2])
            expect(self.counts[who] >= 0, f"seat {who} played more cards than it holds")
            if who == self.seat:
                for c in action[2]:
                    expect(self.hand[c] > 0, f"this seat played {c} it does not hold")
                    self.hand[c] -= 1

    def _notify_episodeOver(self, m: dict[str, Any]) -> None:
        expect(self.stage == "play" and self.asked is None, f"episodeOver after {self.stage}")
        expect(sorted(m["order"]) == [0, 1, 2, 3], f"order {m['order']}")
        expect(m["curRank"] in RANK_CHARS, f"curRank {m['curRank']!r}")
        rest = m["restCards"]
        expect(isinstance(rest, list), "restCards is a list")
        holding = {s for s in range(4) if self.counts[s]}
        expect({entry[0] for entry in rest} == holding, f"restCards {rest} vs seats holding cards {holding}")
        for seat, cards in rest:
            check_cards(cards, "restCards")
            expect(len(cards) == self.counts[seat], f"restCards of seat {seat}: {len(cards)} vs {self.counts[seat]}")
            if seat == self.seat:
                expect(Counter(cards) == +self.hand, "restCards of this seat are its hand")
        out = [s for s in m["order"] if s not in holding]
        expect(m["order"][: len(out)] == out, "the seats out come first in order")
        self.deals += 1
        self.stage = "deal_over"

    def _notify_gameOver(self, m: dict[str, Any]) -> None:
        expect(self.stage == "deal_over", f"gameOver after {self.stage}")
        expect(is_int(m["curTimes"]) and is_int(m["settingTimes"]), "curTimes, settingTimes ints")
        expect(m["curTimes"] == self.games_over + 1, f"curTimes {m['curTimes']} after {self.games_over} games")
        if self.setting is not None:
            expect(m["settingTimes"] == self.setting, "settingTimes is constant")
        self.setting = m["settingTimes"]
        self.games_over += 1
        expect(self.games_over <= self.setting, "more games than set")
        self.stage = "game_over"

    def _notify_gameResult(self, m: dict[str, Any]) -> None:
        expect(self.stage == "game_over" and self.games_over == self.setting, f"gameResult after {self.stage}")
        v, d = m["victoryNum"], m["draws"]
        expect(isinstance(v, list) and len(v) == 4 and all(is_int(x) for x in v), f"victoryNum {v}")
        expect(isinstance(d, list) and len(d) == 4 and all(is_int(x) for x in d), f"draws {d}")
        expect(v[0] == v[2] and v[1] == v[3] and len(set(d)) == 1, f"partners share results: {v} {d}")
        expect(v[0] + v[1] + d[0] == self.setting, f"wins and draws add up to the games: {v} {d}")
        self.stage = "done"
        self.final = m

    # -- act -----------------------------------------------------------------------------------

    def _act_common(self, m: dict[str, Any]) -> None:
        expect(self.asked is None, "asked again before the previous answer was shown")
        check_cards(m["handCards"], "handCards")
        expect(Counter(m["handCards"]) == +self.hand, f"handCards {m['handCards']} vs the tracked hand")
        info = m["publicInfo"]
        expect(isinstance(info, list) and len(info) == 4, "publicInfo has four entries")
        for s, entry in enumerate(info):
            expect(isinstance(entry, dict) and set(entry) == {"rest", "playArea"}, f"publicInfo entry {entry}")
            expect(entry["rest"] == self.counts[s], f"publicInfo[{s}].rest {entry['rest']} vs {self.counts[s]}")
            if entry["playArea"] is not None:
                check_action(entry["playArea"], "playArea")
        for key in ("selfRank", "oppoRank", "curRank"):
            expect(m[key] in RANK_CHARS, f"{key} {m[key]!r}")
        expect(m["curRank"] in (m["selfRank"], m["oppoRank"]), "the deal is played at one side's level")
        actions = m["actionList"]
        expect(isinstance(actions, list) and actions, "actionList is a non-empty list")
        for a in actions:
            check_action(a, "actionList entry")
        expect(m["indexRange"] == len(actions) - 1, f"indexRange {m['indexRange']} for {len(actions)} actions")
        self.acts[m["stage"]] += 1

    def _act_tribute(self, m: dict[str, Any]) -> None:
        expect(self.stage == "dealt" and self._tribute_due(), f"act tribute after {self.stage}")
        self._act_common(m)
        self._no_trick(m)
        hand = Cards.from_cards(parse_card(c) for c in self.hand.elements())
        expected = [["tribute", "tribute", [c]] for c in codes(tribute_choices(hand.counts, m["curRank"]))]
        expect(m["actionList"] == expected, f"tribute choices {m['actionList']} vs {expected}")
        self.legal_checked += 1
        self.stage = "tribute"

    def _act_back(self, m: dict[str, Any]) -> None:
        expect(self.stage == "back" and self.tribute_seen, f"act back after {self.stage}")
        self._act_common(m)
        self._no_trick(m)
        hand = Cards.from_cards(parse_card(c) for c in self.hand.elements())
        choices = return_choices(hand.counts, m["curRank"], self.return_rule)
        expected = [["back", "back", [c]] for c in codes(choices)]
        expect(m["actionList"] == expected, f"return choices {m['actionList']} vs {expected}")
        self.legal_checked += 1

    def _no_trick(self, m: dict[str, Any]) -> None:
        expect(m["curPos"] == -1 and m["curAction"] is None, "no current action in the tribute phase")
        expect(m["greaterPos"] == -1 and m["greaterAction"] is None, "no greater action in the tribute phase")
        expect(all(e["playArea"] is None for e in m["publicInfo"]), "nothing played in the tribute phase")

    def _act_play(self, m: dict[str, Any]) -> None:
        expect(self.stage in ("dealt", "play"), f"act play after {self.stage}")
        expect(not self._tribute_due() or self.anti_seen or self.back_seen, "play before the tribute was settled")
        self.stage = "play"
        self._act_common(m)
        greater = m["greaterAction"]
        if m["greaterPos"] == -1:
            expect(greater is None and m["curPos"] == -1 and m["curAction"] is None, "a lead has no current action")
            expect(all(e["playArea"] is None for e in m["publicInfo"]), "a new trick: nothing in the play areas")
        else:
            last = self.last_notice
            expect(last is not None, "responding before any play was notified")
            assert last is not None
            expect(
                [m["curPos"], m["curAction"]] == [last["curPos"], last["curAction"]],
                "curPos/curAction: the last action",
            )
            expect(
                [m["greaterPos"], m["greaterAction"]] == [last["greaterPos"], last["greaterAction"]],
                "greaterPos/greaterAction: the play to beat",
            )
            info = m["publicInfo"]
            expect(info[m["greaterPos"]]["playArea"] is not None, "the play to beat is in its seat's play area")
            expect(info[m["curPos"]]["playArea"] == m["curAction"], "the last action is in its seat's play area")
            check_seat(m["greaterPos"], "greaterPos")
            check_seat(m["curPos"], "curPos")
            check_action(greater, "greaterAction")
            check_action(m["curAction"], "curAction")
            expect(m["actionList"][0] == ["PASS", "PASS", "PASS"], "PASS first when responding")
            expect(m["greaterPos"] != self.seat, "a seat never has to beat its own play")
        expected = expected_play_actions(list(self.hand.elements()), m["curRank"], greater)
        expect(m["actionList"] == expected, f"actionList differs from the engine's legal actions ({len(expected)})")
        self.legal_checked += 1

    def answered(self, message: dict[str, Any], index: int) -> None:
        """Record the answer given to an act (its notify must show it)."""
        if message["stage"] == "play":
            self.asked = message
            self.chosen = message["actionList"][index]
        else:
            self.given = message["actionList"][index][2][0]


BAD_ANSWERS = [
    "this is not JSON",
    "[0]",
    '{"action": 0}',
    '{"actIndex": "0"}',
    '{"actIndex": true}',
    '{"actIndex": 1.0}',
    '{"actIndex": -1}',
    '{"actIndex": 100000}',
    b'{"actIndex": 0}\xff',
]


@dataclass
class BotReport:
    name: str
    seat: int
    checker: Checker
    close_code: int | None = None
    close_reason: str | None = None
    answers: int = 0
    bad_sent: int = 0
    error: str | None = None


async def run_bot(
    url: str,
    name: str,
    seat: int,
    *,
    seed: int = 0,
    choose: str = "random",
    bad_answers: int = 0,
    leave_after: int | None = None,
    silent_after: int | None = None,
    return_rule: str = "low",
    out_of_turn: bool = False,
    mid_match: bool = False,
) -> BotReport:
    """Play as a checking bot until the server closes the connection.

    ``choose``: ``random`` (seeded) or ``first``. ``bad_answers``: before each of the first
    that many answers, send every message of :data:`BAD_ANSWERS` (and count them).
    ``out_of_turn``: right after each play answer, send a well-formed answer again, when
    this seat is no longer asked.
    ``leave_after`` / ``silent_after``: after that many answers, disconnect / stop answering."""
    rng = random.Random(seed)
    checker = Checker(seat, return_rule=return_rule, mid_match=mid_match)
    report = BotReport(name, seat, checker)
    async with connect(url + name, max_size=None, compression=None, proxy=None) as ws:
        try:
            async for raw in ws:
                message = json.loads(raw)
                checker.check(message)
                if message["type"] != "act":
                    continue
                if leave_after is not None and report.answers >= leave_after:
                    await ws.close()
                    break
                if silent_after is not None and report.answers >= silent_after:
                    continue
                if report.answers < bad_answers:
                    for bad in BAD_ANSWERS:
                        await ws.send(bad)
                        report.bad_sent += 1
                n = message["indexRange"]
                index = rng.randint(0, n) if choose == "random" else 0
                checker.answered(message, index)
                await ws.send(json.dumps({"actIndex": index}))
                report.answers += 1
                chosen = message["actionList"][index]
                empties = chosen[0] != "PASS" and len(chosen[2]) == len(message["handCards"])
                if out_of_turn and message["stage"] == "play" and not empties:
                    # right after its answer another seat is asked (unless this play ends the hand:
                    # then a new deal may ask this seat at once)
                    await ws.send('{"actIndex": 0}')
                    report.bad_sent += 1
        except ConnectionClosed:
            pass
        except ProtocolViolation as violation:
            report.error = f"{name}: {violation}"
            raise
    report.close_code = ws.close_code
    report.close_reason = ws.close_reason
    return report


async def run_bots(url: str, n: int = 4, *, seed: int = 0, pause: float = 0.02, **options: Any) -> list[BotReport]:
    """Connect ``n`` bots in order (bot ``i`` is seat ``i % 4``) and play until the server ends; their reports.

    ``options`` apply to every bot, except ``per_bot={i: {...}}`` for one bot."""
    per_bot = options.pop("per_bot", {})
    tasks = []
    for i in range(n):
        tasks.append(
            asyncio.create_task(
                run_bot(url, f"bot{i}", i % 4, seed=seed * 100 + i, **{**options, **per_bot.get(i, {})})
            )
        )
        await asyncio.sleep(pause)  # connection order makes the seats
    return list(await asyncio.gather(*tasks))
