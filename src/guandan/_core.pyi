"""Type stub of the compiled core (``_core.pyx``): packed hands and moves, legal-move
generation, batches, native deals.

Every function checks its arguments and raises an error of :mod:`guandan.errors` (all
``ValueError``) for a wrong type, dtype, shape, layout or value.
"""

from collections.abc import Iterable, Sequence
from typing import Literal, TypeAlias

import numpy as np
import numpy.typing as npt
from typing_extensions import Buffer

#: A count vector of 54 faces: bytes, bytearray or a 1-D C-contiguous ``uint8`` array.
Counts: TypeAlias = Buffer
#: A Python or numpy integer.
Int: TypeAlias = int | np.integer
#: A native deal state: (hands, level, turn, last, beat, passes, finished); hands as four
#: packed 108-bit ints or a ``uint8 (4, 54)`` count array.
DealState: TypeAlias = tuple[
    tuple[int, int, int, int] | Sequence[int] | npt.NDArray[np.uint8], Int, Int, Int, Int, Int, Sequence[Int]
]
Policy: TypeAlias = Literal["random", "greedy"]
Granularity: TypeAlias = Literal["card", "rank"]

PASS_MOVE: int
MAX_RANK_MOVES: int
POLICIES: dict[str, int]
ACTION_SPACE: npt.NDArray[np.uint64]

def check_move(beat: Int) -> None: ...
def move_size(m: Int) -> int: ...
def pack_cards(counts: Counts) -> tuple[int, int]: ...
def unpack_cards(lo: Int, hi: Int) -> bytes: ...
def card_to_rank(lo: Int, hi: Int, level: Int) -> int: ...

# -- one position
def rank_moves(counts: Counts, level: Int, beat: Int = ...) -> npt.NDArray[np.uint64]: ...
def count_rank_moves(counts: Counts, level: Int, beat: Int = ...) -> int: ...
def card_moves(counts: Counts, level: Int, beat: Int = ...) -> npt.NDArray[np.uint64]: ...
def count_card_moves(counts: Counts, level: Int, beat: Int = ...) -> int: ...

# -- batches
def _check_batch(hands: object, levels: object, beats: object) -> None: ...
def batch_count(
    hands: npt.NDArray[np.uint8],
    levels: npt.NDArray[np.uint8],
    beats: npt.NDArray[np.uint64],
    granularity: Granularity = "rank",
    start: Int = 0,
    end: Int | None = None,
    out: npt.NDArray[np.int64] | None = None,
) -> npt.NDArray[np.int64]: ...
def batch_rank_moves(
    hands: npt.NDArray[np.uint8],
    levels: npt.NDArray[np.uint8],
    beats: npt.NDArray[np.uint64],
    start: Int = 0,
    end: Int | None = None,
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64]]: ...
def batch_card_moves(
    hands: npt.NDArray[np.uint8],
    levels: npt.NDArray[np.uint8],
    beats: npt.NDArray[np.uint64],
    start: Int = 0,
    end: Int | None = None,
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64]]: ...
def batch_mask(
    hands: npt.NDArray[np.uint8],
    levels: npt.NDArray[np.uint8],
    beats: npt.NDArray[np.uint64],
    start: Int = 0,
    end: Int | None = None,
    out: npt.NDArray[np.bool_] | None = None,
) -> npt.NDArray[np.bool_]: ...
def action_indices(words: npt.ArrayLike) -> npt.NDArray[np.intp]: ...
def fill_rank_moves(
    hands: npt.NDArray[np.uint8],
    levels: npt.NDArray[np.uint8],
    beats: npt.NDArray[np.uint64],
    start: Int,
    end: Int,
    out: npt.NDArray[np.uint64],
    offsets: npt.NDArray[np.int64],
) -> int: ...
def fill_card_moves(
    hands: npt.NDArray[np.uint8],
    levels: npt.NDArray[np.uint8],
    beats: npt.NDArray[np.uint64],
    start: Int,
    end: Int,
    out: npt.NDArray[np.uint64],
    offsets: npt.NDArray[np.int64],
) -> int: ...

# -- native deals
def deal_step(state: DealState, lo: Int, hi: Int) -> tuple[DealState, bool]: ...
def playouts(state: DealState, n: Int, policy: Policy = "random", seed: Int = 0) -> npt.NDArray[np.int8]: ...
def choose(state: DealState, policy: Policy = "greedy", seed: Int = 0) -> tuple[int, int]: ...
def perft(state: DealState, depth: Int) -> int: ...
def evaluate(
    states: Sequence[DealState],
    firsts: Iterable[Int] | npt.NDArray[np.uint64],
    n: Int = 1,
    policy: Policy = "greedy",
    seed: Int = 0,
) -> npt.NDArray[np.int8]: ...
def spend_cards(counts: Counts, level: Int, word: Int) -> int: ...
def rng_draws(seed: Int, bounds: Sequence[Int]) -> list[int]: ...
