"""Helpers for the game tests: positions from chosen hands, forcing a finish order, checked loops."""

from __future__ import annotations

import copy

from guandan import Cards, Deal, Match, Move, parse_card
from guandan.bots.agents import GreedyAgent
from guandan.bots.playout import native_state
from guandan.core.notation import parse_play
from guandan.core.rng import derive_seed
from guandan.game.deal import deal_hands, opening_leader, opening_position


def play(state, cards: str, declared: str | None = None, seat: int | None = None):
    """Play ``cards`` (declared as ``declared`` when ambiguous) in a deal or a match."""
    return state.play(parse_play(cards, state.level, declared), seat)


def pass_(state, seat: int | None = None):
    return state.play(Move.pass_(state.level), seat)


def state_of(deal: Deal) -> tuple:
    """Everything observable about a deal, for before/after comparisons."""
    return (
        deal.snapshot(),
        deal.hands,
        deal.card_counts,
        deal.turn,
        deal.to_beat,
        deal.finish_order,
        deal.history,
        deal.is_over,
        deal.result,
        tuple(deal.legal_moves().array.ravel().tolist()),
    )


def match_state(match: Match) -> tuple:
    return (match.snapshot(), match.hands, match.card_counts, match.turn, match.phase, match.history, match.levels)


def seed_with_leader(hands, seat: int, start: int = 0) -> int:
    """The first seed from ``start`` whose opening card (drawn among ``hands``) is held by ``seat``."""
    cards = [Cards.parse(h) if isinstance(h, str) else h for h in hands]
    for seed in range(start, start + 10_000):
        if opening_leader(cards, opening_position(derive_seed(seed, 0)))[0] == seat:
            return seed
    raise AssertionError("no seed found")


def force_order(deal: Deal, order: tuple[int, ...]) -> bool:
    """Play the deal (depth-first over its legal moves, with undo) until it ends with
    ``order`` as its finish order; False (and the deal unchanged) if no line of play does."""
    if deal.is_over:
        return deal.finish_order == tuple(order)
    if tuple(deal.finish_order) != tuple(order[: len(deal.finish_order)]):
        return False
    for move in list(deal.legal_moves()):
        deal.play(move)
        if force_order(deal, order):
            return True
        deal.undo()
    return False


def force_match_deal(match: Match, order: tuple[int, ...]) -> None:
    """Pay and return the first legal cards, then play the current deal of a match to ``order``."""
    while match.phase.label in ("tribute", "return"):
        match.act(match.legal_actions()[0])
    trial = match.deal.copy()
    assert force_order(trial, order), f"no line of play gives {order}"
    start = len(match.deal.history)
    for play_ in trial.history[start:]:
        match.play(play_.move, play_.seat)


def second_deal_position(seed: int, plays: int = 0, ruleset=None) -> Match:
    """A match played by ``greedy`` into its second deal (after tribute and return), ``plays``
    plays and passes into that deal's play."""
    match, greedy = Match(seed=seed, ruleset=ruleset), GreedyAgent()
    while not (match.deal_index >= 1 and match.phase.label == "play" and len(match.deal.history) >= plays):
        match.act(greedy.act(match.observation(match.turn)))
    return match


def played_cards(deal: Deal) -> int:
    return sum(p.move.size for p in deal.history)


def json_paths(value, prefix=()):
    """Every path into a JSON value (a tuple of keys and indices; the value's own, (), first)."""
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from json_paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from json_paths(v, (*prefix, i))


def json_at(value, path):
    for key in path:
        value = value[key]
    return value


def replaced(value, path, new):
    """A deep copy of the JSON ``value`` with the item at ``path`` replaced by ``new`` (not copied)."""
    if not path:
        return new
    out = copy.deepcopy(value)
    json_at(out, path[:-1])[path[-1]] = new
    return out


def nested(depth, leaf=None, kind=list):
    """A value nested ``depth`` deep, built without recursion (``repr`` and ``json.dumps`` cannot show it)."""
    value = leaf
    for _ in range(depth):
        value = [value] if kind is list else {"x": value}
    return value


__all__ = [
    "play",
    "pass_",
    "state_of",
    "match_state",
    "seed_with_leader",
    "force_order",
    "force_match_deal",
    "played_cards",
    "json_paths",
    "json_at",
    "replaced",
    "nested",
    "deal_hands",
]


def search_case(seed: int, plies: int = 9, limit: int = 4):
    """A search's doors after ``plies`` greedy actions of deal ``seed``: the acting seat's
    information set (plays and passes among its events), its search state and ``limit``
    candidates."""
    from guandan.bots import playout
    from guandan.bots.agents import GreedyAgent
    from guandan.bots.determinize import information_set
    from guandan.core import _core

    deal = Deal.new(seed)
    for _ in range(plies):
        deal.act(GreedyAgent().act(deal.observation(deal.turn)))
    obs = deal.observation(deal.turn)
    info = information_set(obs)
    state = playout.public_state(int(obs.level), obs.seat, obs.to_beat, obs.history, ())
    return info, state, _core.search_candidates(info, state, limit)


def full_hands_with_big_jokers(seats, seed=1):
    """A whole deal (27 cards a seat) in which each of ``seats`` holds one big joker."""
    hands = [list(h) for h in deal_hands(seed)]
    big = parse_card("HR")
    for seat in seats:
        if big in hands[seat]:
            continue
        holder = next(s for s in range(4) if hands[s].count(big) and (s not in seats or hands[s].count(big) == 2))
        other = next(c for c in hands[seat] if c != big)
        hands[holder].remove(big)
        hands[seat].remove(other)
        hands[holder].append(other)
        hands[seat].append(big)
    return [Cards.from_cards(h) for h in hands]


def small_tribute_match() -> Match:
    """A match at its tribute: seat 2 (last in the previous deal) owes seat 1 its highest card, DA,
    from four small hands (seat 0 holds S3 HR, seat 1 D4 HR, seat 2 S8 SA DA, seat 3 C5)."""
    return Match(seed=3, levels=(5, 9), previous=(1, 0, 3, 2), hands=[["S3 HR", "D4 HR", "S8 SA DA", "C5"]])


def positions_with_deals(seeds, plies):
    """(observation of the seat to act, its deal) after ``plies`` greedy plays of seeded deals."""
    for seed in seeds:
        deal = Deal.new(seed=seed, level=2 + seed % 13)
        for _ in range(plies):
            if deal.is_over:
                break
            deal.act(GreedyAgent().act(deal.observation(deal.turn)))
        if not deal.is_over:
            yield deal.observation(deal.turn), deal


def deal_state_of(obs):
    """The search state of an observation: (level, turn, last, beat, passes, finished)."""
    return native_state((obs.hand,) * 4, int(obs.level), obs.seat, obs.to_beat, obs.history, obs.finish_order)[1:]
