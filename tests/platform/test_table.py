"""The platform's table without sockets: whole games driven by messages, every message
checked by the protocol checker of each seat (``platform_bots.Checker``), the tribute
stages with chosen hands, refused answers, seats leaving, draws."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from platform_bots import EVERY_GAME_KINDS, Checker

from guandan import GuandanError, Match, ProtocolError
from guandan.game.rules import PLATFORM
from guandan.platform import PlatformTable, TableState
from guandan.platform.messages import act_message
from guandan.records.games import record, replay


def seated(table: PlatformTable) -> PlatformTable:
    for name in ("north", "east", "south", "west"):
        table.join(name)
    return table


def deliver(sends, checkers, log=None):
    for send in sends:
        for seat in send.seats:
            message = json.loads(json.dumps(send.message))  # what goes over the wire
            checkers[seat].check(message)
            if log is not None:
                log.append((seat, message))


def play_table(table: PlatformTable, seed: int = 0, choose: str = "random", log=None, max_answers=200_000):
    """Drive a seated table to its end: each asked seat answers (seeded random or first), every
    message goes through that seat's checker. Returns the checkers."""
    rng = random.Random(seed)
    checkers = [Checker(s, return_rule=table.ruleset.return_rule) for s in range(4)]
    deliver(table.start(), checkers, log)
    for _ in range(max_answers):
        if table.state is not TableState.PLAYING:
            break
        seat, pending = table.awaiting, table.pending
        index = rng.randint(0, pending["indexRange"]) if choose == "random" else 0
        checkers[seat].answered(pending, index)
        reply = table.receive(seat, json.dumps({"actIndex": index}))
        assert reply.accepted and reply.index == index
        deliver(reply.sends, checkers, log)
    assert table.state is TableState.FINISHED
    return checkers


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
def test_whole_games_pass_every_check_and_end_with_game_result(seed):
    table = seated(PlatformTable(games=2, seed=seed))
    checkers = play_table(table, seed)
    for c in checkers:
        assert c.stage == "done" and c.games_over == 2 and c.deals == table.deals
        assert c.legal_checked == sum(c.acts.values()) > 0
    assert table.games_played == 2 and len(table.matches) == 2
    assert all(m.is_over for m in table.matches)
    assert table.deals == sum(len(m.results) for m in table.matches)
    wins = [sum(1 for m in table.matches if m.winner == side) for side in (0, 1)]
    assert table.victories == wins
    final = checkers[0].final
    assert final["victoryNum"] == [wins[0], wins[1], wins[0], wins[1]]
    assert final["draws"] == [table.draws] * 4
    stages = sum((c.stages_seen for c in checkers), start=type(checkers[0].stages_seen)())
    assert all(stages[kind] > 0 for kind in EVERY_GAME_KINDS), stages
    assert all(replay(record(m)) == m for m in table.matches)


@pytest.mark.slow
def test_the_games_follow_the_seed():
    a = seated(PlatformTable(games=1, seed=9, ruleset="platform+cap3"))
    b = seated(PlatformTable(games=1, seed=9, ruleset="platform+cap3"))
    c = seated(PlatformTable(games=1, seed=10, ruleset="platform+cap3"))
    logs = [[], [], []]
    for table, log in zip((a, b, c), logs):
        play_table(table, seed=4, log=log)
    assert logs[0] == logs[1] and record(a.matches[0]) == record(b.matches[0])
    assert logs[0][0] != logs[2][0]  # other deals
    assert a.matches[0].seed == a.game_seed(0) != c.game_seed(0)


@pytest.mark.slow
def test_the_messages_come_in_the_documented_order():
    table = seated(PlatformTable(games=1, seed=2, ruleset="platform+cap2"))
    log = []
    play_table(table, seed=2, log=log)
    kinds = [f"{m['type']} {m['stage']}" for seat, m in log]
    assert kinds[:4] == ["notify beginning"] * 4 and [s for s, _ in log[:4]] == [0, 1, 2, 3]
    assert kinds[-8:] == ["notify gameOver"] * 4 + ["notify gameResult"] * 4
    second = kinds.index("notify beginning", 4)  # the second deal
    assert kinds[second : second + 4] == ["notify beginning"] * 4
    after = kinds[second + 4]
    if after == "notify anti-tribute":
        assert kinds[second + 8] == "act play"
    else:
        assert after == "act tribute"
        settled = kinds.index("notify tribute", second)
        back = kinds.index("notify back", second)
        assert set(kinds[second + 4 : settled]) == {"act tribute"}
        assert set(kinds[settled + 4 : back]) == {"act back"} and kinds[back + 4] == "act play"
    # every act play is answered and then shown to all four, the actor included
    for i, kind in enumerate(kinds):
        if kind == "act play":
            seat = log[i][0]
            assert kinds[i + 1 : i + 5] == ["notify play"] * 4
            assert [s for s, _ in log[i + 1 : i + 5]] == [0, 1, 2, 3] and log[i + 1][1]["curPos"] == seat


def tribute_table(previous, hands, levels=(5, 5), ruleset=PLATFORM):
    def new_match(game):
        return Match(game, ruleset, levels=levels, previous=previous, hands=[hands])

    return seated(PlatformTable(games=1, seed=0, ruleset=ruleset, new_match=new_match))


def test_resisting_with_both_big_jokers_sends_anti_tribute_and_the_first_leads():
    table = tribute_table((0, 2), ["S3 S4", "S5 HR", "S7 S8", "S9 HR"])  # seats 1 and 3 pay, one big joker each
    sends = table.start()
    stages = [(s.seats, s.message["type"], s.message["stage"]) for s in sends]
    assert stages[:4] == [((s,), "notify", "beginning") for s in range(4)]
    assert stages[4] == ((0, 1, 2, 3), "notify", "anti-tribute")
    assert sends[4].message["antiNums"] == 2 and sends[4].message["antiPos"] == [1, 3]
    assert stages[5] == ((0,), "act", "play") and table.awaiting == 0


def test_one_payer_with_both_big_jokers_resists_alone():
    table = tribute_table((0, 1, 2, 3), ["S3 S4", "S5 S6", "S7 S8", "S9 HR HR"])
    sends = table.start()
    assert sends[4].message == {"type": "notify", "stage": "anti-tribute", "antiNums": 1, "antiPos": [3]}


def test_a_double_tribute_asks_both_payers_then_both_receivers():
    hands = ["S3 S4 SB", "S6 S7", "S8 S9 SK", "ST SJ"]  # seats 0 and 2 pay after 1 and 3 went out first
    table = tribute_table((1, 3), hands, levels=(2, 5))
    sends = table.start()
    assert sends[-1].message["stage"] == "tribute" and sends[-1].seats == (2,)
    assert sends[-1].message["actionList"] == [["tribute", "tribute", ["SK"]]]
    assert sends[-1].message["curPos"] == -1 and sends[-1].message["greaterPos"] == -1
    reply = table.receive(2, '{"actIndex": 0}')
    assert [(s.seats, s.message["stage"]) for s in reply.sends] == [((0,), "tribute")]
    reply = table.receive(0, '{"actIndex": 0}')
    notice, ask = reply.sends
    assert notice.seats == (0, 1, 2, 3) and notice.message == {
        "type": "notify",
        "stage": "tribute",
        "result": [[0, 1, "SB"], [2, 3, "SK"]],
    }
    assert ask.seats == (1,) and ask.message["stage"] == "back"
    assert ask.message["handCards"] == ["S6", "S7", "SB"]  # the tribute is in the receiver's hand
    assert ask.message["actionList"] == [["back", "back", ["S6"]], ["back", "back", ["S7"]]]
    reply = table.receive(1, '{"actIndex": 1}')
    assert reply.sends[0].seats == (3,) and reply.sends[0].message["stage"] == "back"
    reply = table.receive(3, '{"actIndex": 0}')
    back, play = reply.sends
    assert back.message == {"type": "notify", "stage": "back", "result": [[1, 0, "S7"], [3, 2, "ST"]]}
    assert play.seats == (0,) and play.message["stage"] == "play"  # the payer of the larger card leads
    assert play.message["handCards"] == ["S3", "S4", "S7"]


def test_the_act_message_names_the_last_action_and_the_play_to_beat():
    match = Match(1, "platform")
    leader = match.turn
    first, _ = act_message(match, leader)
    assert first["curPos"] == -1 and first["curAction"] is None and first["greaterPos"] == -1
    assert all(e == {"rest": 27, "playArea": None} for e in first["publicInfo"])
    assert first["actionList"][0][0] != "PASS"
    lead = match.legal_actions()[0]
    match.play(lead)
    second, choices = act_message(match, match.turn)
    assert second["curPos"] == leader and second["greaterPos"] == leader
    assert second["curAction"] == second["greaterAction"] == first["actionList"][0]
    assert second["actionList"][0] == ["PASS", "PASS", "PASS"] and choices[0].is_pass
    assert second["publicInfo"][leader]["playArea"] == first["actionList"][0]
    assert second["publicInfo"][leader]["rest"] == 27 - lead.size
    match.play(choices[0])  # a pass
    third, _ = act_message(match, match.turn)
    assert third["curPos"] == (leader + 1) % 4 and third["curAction"] == ["PASS", "PASS", "PASS"]
    assert third["greaterPos"] == leader
    with pytest.raises(ProtocolError, match="not to act"):
        act_message(match, leader)


@pytest.mark.parametrize(
    "text, problem",
    [
        ("nope", "not JSON"),
        ("[0]", "not a JSON object"),
        ('{"index": 0}', 'no "actIndex"'),
        ('{"actIndex": "0"}', "must be an integer"),
        ('{"actIndex": false}', "must be an integer"),
        ('{"actIndex": 2.0}', "must be an integer"),
        ('{"actIndex": -1}', "out of range"),
        ('{"actIndex": 100000}', "out of range"),
        (b"\xff\xfe", "not UTF-8"),
        ("[" * 100_000, "not JSON"),
    ],
)
def test_a_bad_answer_is_refused_naming_the_problem_and_changes_nothing(text, problem):
    table = seated(PlatformTable(seed=1))
    table.start()
    seat, pending, match_before = table.awaiting, table.pending, table.match.snapshot()
    reply = table.receive(seat, text)
    assert not reply.accepted and problem in reply.error and reply.sends == ()
    assert table.awaiting == seat and table.pending is pending and table.match.snapshot() == match_before
    assert table.receive(seat, '{"actIndex": 0}').accepted  # still waiting for a valid one


def test_an_answer_from_a_seat_not_asked_is_refused():
    table = seated(PlatformTable(seed=1))
    table.start()
    other = (table.awaiting + 1) % 4
    reply = table.receive(other, '{"actIndex": 0}')
    assert not reply.accepted and f"seat {other} answered but was not asked" in reply.error
    assert table.match.deal.history == ()


@pytest.mark.slow
def test_messages_before_the_start_and_after_the_end_are_refused():
    table = PlatformTable(seed=1, ruleset="platform+cap1")
    table.join("a")
    assert "no game is in progress (seating)" in table.receive(0, '{"actIndex": 0}').error
    for name in "bcd":
        table.join(name)
    play_table(table, choose="first")
    assert "no game is in progress (finished)" in table.receive(0, '{"actIndex": 0}').error


def test_seats_go_by_connection_order_and_a_seat_left_before_the_start_is_free_again():
    table = PlatformTable()
    assert [table.join(n) for n in ("a", "b", "c")] == [0, 1, 2]
    table.leave(1)
    assert table.names == ["a", None, "c", None] and not table.is_full
    with pytest.raises(GuandanError, match="four bots"):
        table.start()
    assert table.join("d") == 1 and table.join("e") == 3 and table.is_full
    with pytest.raises(GuandanError, match="full"):
        table.join("f")
    table.start()
    with pytest.raises(GuandanError, match="starts once"):
        table.start()


def test_a_seat_leaving_during_the_games_aborts_the_table():
    table = seated(PlatformTable(seed=1))
    table.start()
    table.receive(table.awaiting, '{"actIndex": 0}')
    table.leave(2)
    assert table.state is TableState.ABORTED and table.is_done and table.awaiting is None
    assert table.abort_reason == "seat 2 (south) disconnected"
    assert "no game is in progress (aborted)" in table.receive(0, '{"actIndex": 0}').error
    table.abort("again")  # once done, nothing changes
    assert table.abort_reason == "seat 2 (south) disconnected"
    data = record(table.match)
    assert not data["over"] and replay(data) == table.match


def test_a_drawn_game_counts_as_a_draw_for_every_seat():
    ruleset = dataclasses.replace(PLATFORM, name="platform_draw1", draw_after_drops=1)
    for seed in range(40):
        table = seated(
            PlatformTable(
                seed=seed,
                ruleset=ruleset,
                new_match=lambda g, s=seed: Match(s, ruleset, levels=("A", "A"), level_side=0, failures=(1, 1)),
            )
        )
        checkers = play_table(table, seed)
        if table.matches[0].end_reason == "draw":
            break
    else:
        pytest.fail("no drawn game in 40 seeds")
    assert table.draws == 1 and table.victories == [0, 0]
    assert checkers[0].final["victoryNum"] == [0, 0, 0, 0] and checkers[0].final["draws"] == [1, 1, 1, 1]


def test_bad_arguments_are_refused():
    with pytest.raises(GuandanError, match="games"):
        PlatformTable(games=0)
    with pytest.raises(GuandanError, match="seed"):
        PlatformTable(seed="1")
    with pytest.raises(GuandanError, match="unknown ruleset"):
        PlatformTable(ruleset="paris")
    table = seated(PlatformTable(new_match=lambda g: "not a match"))
    with pytest.raises(GuandanError, match="new_match"):
        table.start()
