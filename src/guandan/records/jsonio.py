"""Moves as JSON-ready values: the form the command line prints and game records reuse.

A move becomes a ``dict`` of plain values (``json.dumps`` takes it as is):

* ``type`` — the type's label (``pair_run``, ``joker_bomb``; ``pass`` for the pass);
* ``key`` — the key's rank letter as the AI-competition protocol writes it
  (``2``-``9``, ``T``, ``J``, ``Q``, ``K``, ``A``, ``B``, ``R``; a sequence by the
  lowest rank of its window, ``A`` for ace-low windows), ``JOKER`` for the joker
  bomb, ``None`` for the pass;
* ``size`` — how many cards it spends;
* ``suit`` — the suit letter of a straight flush, else ``None``;
* at card granularity (:class:`~guandan.Move`): ``cards``, the physical card codes
  spent, and ``as``, the declared faces (each wild replaced by what it stands for);
* at rank granularity (:class:`~guandan.RankMove`): ``ranks``, rank letter → natural
  (non-wild) cards spent of that rank, nonzero counts only, and ``wilds``.

>>> import json
>>> from guandan import classify
>>> move = classify("S3 C4 D4 C5 D5 H2", 2)[0]
>>> print(json.dumps(move_to_json(move)))
{"type": "pair_run", "key": "3", "size": 6, "suit": null, "cards": ["H2", "S3", "C4", "D4", "C5", "D5"],
 "as": ["S3", "H3", "C4", "D4", "C5", "D5"]}
>>> print(json.dumps(move_to_json(move.to_rank())))
{"type": "pair_run", "key": "3", "size": 6, "suit": null, "ranks": {"3": 1, "4": 2, "5": 2}, "wilds": 1}
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..core.cards import card_name, parse_level
from ..core.movegen import check_granularity
from ..core.moves import AnyMove, Move, MoveType, RankMove
from ..errors import InvalidMoveError

__all__ = ["move_to_json", "moves_to_json"]


def move_to_json(move: AnyMove) -> dict[str, Any]:
    """A move as a ``dict`` of JSON values (see the module's description of the fields).

    >>> from guandan import Move, classify
    >>> move_to_json(Move.pass_(2))
    {'type': 'pass', 'key': None, 'size': 0, 'suit': None, 'cards': [], 'as': []}
    >>> move_to_json(classify("S3 S4 H5 S6 S7", 5)[1])["as"]
    ['S3', 'S4', 'S5', 'S6', 'S7']
    >>> move_to_json(classify("SB SB HR HR", 5)[0].to_rank())
    {'type': 'joker_bomb', 'key': 'JOKER', 'size': 4, 'suit': None, 'ranks': {'B': 2, 'R': 2}, 'wilds': 0}
    """
    if not isinstance(move, Move | RankMove):
        raise InvalidMoveError(f"not a move: {move!r:.80}")
    out: dict[str, Any] = {
        "type": move.type.label,
        "key": None if move.type == MoveType.PASS else move.key_letter,
        "size": move.size,
        "suit": None if move.suit is None else move.suit.letter,
    }
    if isinstance(move, Move):
        out["cards"] = move.cards.codes()
        out["as"] = [card_name(c, "code") for c in move.declared]
    else:
        out["ranks"] = {rank.letter: n for rank, n in move.rank_counts().items()}
        out["wilds"] = move.wilds
    return out


def moves_to_json(moves: Iterable[AnyMove], level: int | str, granularity: str) -> dict[str, Any]:
    """A list of moves at a level as one JSON object:
    ``{"level": letter, "granularity": "card"|"rank", "moves": [...]}``.

    >>> from guandan import legal_moves
    >>> moves_to_json(legal_moves("S5", 2), 2, "card")
    {'level': '2', 'granularity': 'card',
     'moves': [{'type': 'single', 'key': '5', 'size': 1, 'suit': None, 'cards': ['S5'], 'as': ['S5']}]}
    """
    granularity = check_granularity(granularity)
    lvl = parse_level(level)
    kind = Move if granularity == "card" else RankMove
    out = []
    for move in moves:
        data = move_to_json(move)
        if not isinstance(move, kind) or move.level != lvl:
            raise InvalidMoveError(
                f"{move} is a {'card' if isinstance(move, Move) else 'rank'}-level move at level {move.level.label},"
                f" not a {granularity}-level move at level {lvl.label}"
            )
        out.append(data)
    return {"level": lvl.letter, "granularity": granularity, "moves": out}
