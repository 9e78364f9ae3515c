"""The exact endgame value in plain Python, to check the native solver (``gd_solve``) against:
minimax over a :class:`~guandan.Deal`, every rank-level move of the seat to act played with its
canonical cards (:func:`~guandan.core.movegen.canonical_move`, as the native search spends
them), no pruning; a position met again is looked up by its whole state (the value of a
position is a function of it), which changes no value — exact by construction."""

from __future__ import annotations

from guandan import Deal
from guandan.core.movegen import canonical_move, pack_rank_move


def deal_value(deal: Deal, side: int, promotion: tuple[int, int, int] = (3, 2, 1)) -> int:
    """A finished deal's result for ``side``, in levels under ``promotion``."""
    result = deal.result
    assert result is not None
    gain = promotion[result.partner_place - 2]
    return gain if result.winning_side == side else -gain


def solve(deal: Deal, side: int, promotion: tuple[int, int, int] = (3, 2, 1)) -> int:
    """The value of ``deal`` for ``side`` with both sides playing best (the deal is restored)."""
    return _value(deal, side, promotion, {})


def _value(deal: Deal, side: int, promotion: tuple[int, int, int], seen: dict[object, int]) -> int:
    if deal.is_over:
        return deal_value(deal, side, promotion)
    key = deal.native_state()
    if key in seen:
        return seen[key]
    mine = (deal.turn & 1) == side
    values = []
    hand = deal.hand(deal.turn)
    for move in deal.legal_moves("rank"):
        deal.play(canonical_move(pack_rank_move(move), hand, deal.level))
        values.append(_value(deal, side, promotion, seen))
        deal.undo()
    seen[key] = max(values) if mine else min(values)
    return seen[key]
