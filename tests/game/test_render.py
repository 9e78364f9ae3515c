"""``guandan.game.render``: a match as a person sees it at the terminal: seats named from the
viewer's chair, the hand in playing order, numbered moves, the table, and errors phrased from
their fields."""

from __future__ import annotations

import numpy as np
import pytest
from strategies import random_hand

from guandan import (
    Cards,
    GreedyAgent,
    IllegalMoveError,
    Match,
    Phase,
    Rank,
    card_rank,
    classify,
    legal_moves,
    wild_card,
)
from guandan.bots.loop import play_out
from guandan.core.order import elevated_order
from guandan.errors import GuandanError
from guandan.game.render import (
    format_card,
    format_hand,
    format_moves,
    numbered_moves,
    phrase_error,
    render_table,
    seat_does,
    seat_name,
)


@pytest.mark.parametrize(
    "fields, viewer, text",
    [
        ({"reason": "not_held", "seat": 0, "cards": Cards.parse("SA")}, 0, "you do not hold SA"),
        ({"reason": "not_held", "seat": 3, "cards": Cards.parse("SA")}, 0, "Left (seat 3) does not hold SA"),
        ({"reason": "leads_cannot_pass", "seat": 1}, 1, "you lead and cannot pass"),
        ({"reason": "not_turn", "seat": 1, "turn": 2, "phase": Phase.TRIBUTE}, 1,
         "not your turn: Right (seat 2) pays tribute now"),
        ({"reason": "tribute_not_allowed", "seat": 2, "expected": (51,), "got": 28}, 2,
         "you must pay your highest card except a wild: DA, not S9"),
    ],
)
def test_the_terminal_phrases_errors_from_their_fields_not_their_message(fields, viewer, text):
    # a message reworded (here: none at all) phrases the same: the fields decide
    assert phrase_error(IllegalMoveError("reworded", **fields), viewer) == text
    assert phrase_error(IllegalMoveError("", **fields), viewer) == text


def test_an_error_without_a_reason_is_its_message():
    assert phrase_error(GuandanError("bad card token 'XX'"), 0) == "bad card token 'XX'"


def test_seats_are_named_from_the_viewers_chair():
    for viewer in range(4):
        names = [seat_name((viewer + step) % 4, viewer) for step in range(4)]
        assert [n.split(" (")[0] for n in names] == ["You", "Right", "Partner", "Left"]
        assert all(n.endswith(f"(seat {(viewer + step) % 4})") for step, n in enumerate(names))
        assert seat_does(viewer, viewer, "plays", "play") == f"You (seat {viewer}) play"
        assert seat_does((viewer + 2) % 4, viewer, "plays", "play") == f"Partner (seat {(viewer + 2) % 4}) plays"


@pytest.mark.parametrize("level", [2, 7, 14])
def test_a_hand_is_shown_low_to_high_in_the_elevated_order_with_the_wilds_marked(level):
    hand = random_hand(np.random.default_rng(level), size=27)
    shown = format_hand(hand, Rank(level)).split()
    wild = format_card(wild_card(level), Rank(level))
    assert len(shown) == len(hand) and shown.count(wild) == hand.count(wild_card(level))
    order = {format_card(c, Rank(level)): elevated_order(card_rank(c), level) for c in range(54)}
    assert [order[t] for t in shown] == sorted(order[t] for t in shown)
    assert all(t.endswith("*") == (t == wild) for t in shown)


def test_the_moves_are_numbered_from_1_weakest_first_the_pass_last():
    moves = numbered_moves(legal_moves("S5 C5 D5 S6 S7 S8 S9", 2, beat=classify("S4", 2)[0]))
    lines = format_moves(moves)
    assert lines[-1].endswith(". pass") and len(lines) == len(moves)
    assert [line.split(".")[0].strip() for line in lines] == [str(i) for i in range(1, len(moves) + 1)]
    assert all(len(line.split(".")[0]) == len(str(len(moves))) for line in lines)  # numbers aligned


@pytest.mark.parametrize("viewer", range(4))
def test_the_table_shows_every_count_whose_turn_the_play_to_beat_and_the_viewers_hand(viewer):
    match = Match(seed=6)
    for _ in range(5):
        text = render_table(match, viewer)
        lines = text.splitlines()
        assert lines[0].startswith(f"═══ Deal {match.deal_index + 1} · level {match.level.label}")
        for seat in range(4):
            (row,) = [line for line in lines if line.startswith(f"  {seat_name(seat, viewer)}")]
            assert f" {match.card_counts[seat]} card" in row and (("◀ to act" in row) == (seat == match.turn))
        assert lines[-1] == f"Your hand ({match.card_counts[viewer]}): {format_hand(match.hands[viewer], match.level)}"
        beat = match.deal.to_beat
        if beat is None:
            assert seat_does(match.turn, viewer, "leads", "lead") + "." in lines
        else:
            assert f"To beat: {beat.move.format('unicode')} — by {seat_name(beat.seat, viewer)}" in lines
        play_out(match, [GreedyAgent()] * 4, max_actions=9)
