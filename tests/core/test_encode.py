"""guandan.core.encode: the encodings under their public names, the sizes the docs state."""

import numpy as np

from guandan import Deal
from guandan.core import _core, encode


def test_the_names_are_the_native_ones():
    for name in encode.__all__:
        assert getattr(encode, name) is getattr(_core, name) or getattr(encode, name) == getattr(_core, name), name
    assert (encode.STATE_SIZE, encode.ACTION_SIZE, encode.ROW_SIZE) == (513, 54, 567)
    assert encode.ROW_SIZE == encode.STATE_SIZE + encode.ACTION_SIZE
    assert sorted(encode.VECTOR_INDEX) == list(range(54))


def test_an_actions_vector_counts_its_cards():
    moves = Deal.new(seed=3, level=2).legal_moves()
    vectors = encode.encode_actions(moves.array)
    assert vectors.shape == (len(moves), encode.ACTION_SIZE) and vectors.dtype == np.float32
    assert [int(v.sum()) for v in vectors] == [len(m.cards) for m in moves]
