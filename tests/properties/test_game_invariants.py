"""Invariants over many seeded games played by greedy and random agents: all 108 cards are
always accounted for, nobody acts out of turn, every action is legal (a sample checked
against the reference generator), and every record replays exactly."""

from __future__ import annotations

import json

import pytest
from games import played_cards

from guandan import Cards, Deal, Match, Move, Phase, make_agents, record
from guandan.core.notation import sort_moves
from guandan.core.reference import generate_moves
from guandan.core.rng import SplitMix64


def check_deal_step(deal: Deal) -> None:
    counts = deal.card_counts
    assert sum(counts) + played_cards(deal) == 108
    assert counts == tuple(len(h) for h in deal.hands)
    if not deal.is_over:
        assert deal.turn not in deal.finish_order and counts[deal.turn] > 0


def run_deal(seed: int, names, level: int, sample: SplitMix64) -> Deal:
    deal = Deal.new(seed, level)
    agents = make_agents(names, seed)
    while not deal.is_over:
        check_deal_step(deal)
        seat = deal.turn
        obs = deal.observation(seat)
        assert obs.is_my_turn and all(not deal.observation(s).legal_actions for s in range(4) if s != seat)
        move = agents[seat].act(obs)
        assert move in deal.legal_moves()
        if sample.below(40) == 0:  # cross-check the position with the reference generator
            beat = deal.to_beat.move if deal.to_beat else None
            ours = sort_moves(deal.legal_moves())
            assert ours == sort_moves(generate_moves(deal.hand(seat), level, beat=beat))
        deal.play(move, seat)
    check_deal_step(deal)
    assert len(deal.finish_order) in (2, 4)
    return deal


@pytest.mark.slow
@pytest.mark.parametrize("names", ["greedy", "random", ["greedy", "random", "random", "greedy"]])
def test_deals_conserve_cards_keep_turns_and_play_only_legal_moves(names):
    sample = SplitMix64(77)
    for seed in range(60):
        deal = run_deal(seed, names, 2 + seed % 13, sample)
        data = json.loads(json.dumps(record(deal)))
        from guandan import replay

        again = replay(data)
        assert again == deal and record(again) == data


@pytest.mark.slow
def test_the_fast_loop_agrees_with_the_checked_loop():
    from guandan.bots.loop import play_out

    for seed in range(150):
        fast = Deal.new(seed, 2 + seed % 13)
        play_out(fast, make_agents("greedy", seed))
        slow = Deal.new(seed, 2 + seed % 13)
        agents = make_agents("greedy", seed)
        while not slow.is_over:
            seat = slow.turn
            move = agents[seat].act(slow.observation(seat))
            slow.play(Move(move.type, move.key, move.suit, move.cards, move.level), seat)  # checked in full
        assert fast == slow
        assert sum(fast.card_counts) + sum(p.move.size for p in fast.history) == 108


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["competitive_2022", "huaian", "nanjing"])
def test_matches_conserve_cards_and_replay(ruleset):
    from guandan import replay

    for seed in range(4):
        names = "greedy" if seed % 2 == 0 else ["random", "greedy", "random", "greedy"]
        match = Match(seed, ruleset)
        agents = make_agents(names, seed)
        steps = 0
        while not match.is_over:
            seat = match.turn
            if match.phase in (Phase.TRIBUTE, Phase.RETURN):
                in_hands = sum(match.card_counts) + len(match.pending_tribute)
                assert in_hands == 108
                assert match.hands[seat] != Cards() and seat in (
                    match.payers if match.phase == Phase.TRIBUTE else [r for r, _ in match.returns_due]
                )
            else:
                check_deal_step(match.deal)
            action = agents[seat].act(match.observation(seat))
            assert action in match.legal_actions()
            match.act(action, seat)
            steps += 1
            assert steps < 40_000
        assert match.winner in (0, 1) and match.results[-1].passed_a
        data = json.loads(json.dumps(record(match)))
        again = replay(data)
        assert again == match and record(again) == data


@pytest.mark.slow
@pytest.mark.parametrize("names", ["greedy", ["random", "greedy", "greedy", "random"]])
def test_a_thousand_fast_deals_end_properly_and_a_sample_replays(names):
    from guandan import replay
    from guandan.bots.loop import play_out

    for seed in range(1000, 1600):
        deal = Deal.new(seed, 2 + seed % 13)
        play_out(deal, make_agents(names, seed))
        order = deal.finish_order
        assert deal.is_over and sum(deal.card_counts) + played_cards(deal) == 108
        assert len(order) == 4 or (len(order) == 2 and order[1] == order[0] ^ 2)
        assert all(deal.card_counts[s] == 0 for s in order[:3]) and len(set(order)) == len(order)
        if seed % 25 == 0:  # a replay re-checks every move from scratch (not from the cached list)
            assert replay(json.loads(json.dumps(record(deal)))) == deal
