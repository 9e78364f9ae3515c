"""The encodings for learning agents, computed in C: a state's values, a move's card
vector, the rows of a position's legal moves, and :class:`Record`, a deal's public record
kept play by play (see ``docs/encodings.md`` for the layouts; :mod:`guandan.game.encoding`
builds them from observations).

They are the compiled core's own functions and class under their public names, each
documented where it is defined.

>>> import numpy as np
>>> from guandan.game.deal import Deal
>>> deal = Deal.new(seed=1, level=2, leader=0)
>>> vectors = encode_actions(deal.legal_moves().array)
>>> vectors.shape[1] == ACTION_SIZE, vectors.dtype
(True, dtype('float32'))
>>> STATE_SIZE, ACTION_SIZE, ROW_SIZE
(513, 54, 567)
"""

from __future__ import annotations

from . import _core

__all__ = [
    "STATE_SIZE",
    "ACTION_SIZE",
    "ROW_SIZE",
    "WILD_FLAGS",
    "VECTOR_INDEX",
    "Record",
    "encode_state",
    "encode_rows",
    "encode_actions",
]

#: The values of an encoded state.
STATE_SIZE: int = _core.STATE_SIZE
#: The values of a move's card vector.
ACTION_SIZE: int = _core.ACTION_SIZE
#: The values of a row: a state and one move.
ROW_SIZE: int = _core.ROW_SIZE
#: The values flagging the wild cards.
WILD_FLAGS: int = _core.WILD_FLAGS
#: The position of each face in a card vector.
VECTOR_INDEX: tuple[int, ...] = _core.VECTOR_INDEX

#: A deal's public record, kept play by play, that encodes states without re-reading it.
Record = _core.Record
#: A state's values: ``float32 (STATE_SIZE,)``.
encode_state = _core.encode_state
#: A state's values with each legal move's card vector: ``float32 (k, ROW_SIZE)``.
encode_rows = _core.encode_rows
#: The card vectors of card-level moves: ``float32 (k, ACTION_SIZE)``.
encode_actions = _core.encode_actions
