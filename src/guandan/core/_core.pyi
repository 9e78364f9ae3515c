"""Type stub of the compiled core (``_core.pyx``): packed hands and moves, legal-move
generation, batches, native deals.

Every function checks its arguments and raises an error of :mod:`guandan.errors` (all
``ValueError``) for a wrong type, dtype, shape, layout or value.
"""

from collections.abc import Iterable, Sequence
from typing import Any, Literal, TypeAlias

import numpy as np
import numpy.typing as npt
from typing_extensions import Buffer, disjoint_base

from guandan.core.search import SearchParams

#: A count vector of 54 faces: bytes, bytearray or a 1-D C-contiguous ``uint8`` array.
_Counts: TypeAlias = Buffer
#: A Python or numpy integer.
_Int: TypeAlias = int | np.integer
#: A native deal state: (hands, level, turn, last, beat, passes, finished); hands as four
#: packed 108-bit ints (Python or numpy) or a ``uint8 (4, 54)`` count array.
_DealState: TypeAlias = tuple[
    tuple[_Int, _Int, _Int, _Int] | Sequence[_Int] | npt.NDArray[np.uint8], _Int, _Int, _Int, _Int, _Int, Sequence[_Int]
]
_Policy: TypeAlias = Literal["random", "greedy"]
_Granularity: TypeAlias = Literal["card", "rank"]

PASS_MOVE: int
MAX_RANK_MOVES: int
_MAX_ROWS: int
POLICIES: dict[str, int]
ACTION_SPACE: npt.NDArray[np.uint64]
__test__: dict[str, str]  # the docstrings' examples, for doctest

def _int_arg(value: object, what: str, lo: int, hi: int) -> int: ...
def check_move(beat: _Int) -> None: ...
def move_size(m: _Int) -> int: ...
def pack_cards(counts: _Counts) -> tuple[int, int]: ...
def unpack_cards(lo: _Int, hi: _Int) -> bytes: ...
def card_to_rank(lo: _Int, hi: _Int, level: _Int) -> int: ...

# -- one position
def rank_moves(counts: _Counts, level: _Int, beat: _Int = ...) -> npt.NDArray[np.uint64]: ...
def count_rank_moves(counts: _Counts, level: _Int, beat: _Int = ...) -> int: ...
def card_moves(counts: _Counts, level: _Int, beat: _Int = ...) -> npt.NDArray[np.uint64]: ...
def count_card_moves(counts: _Counts, level: _Int, beat: _Int = ...) -> int: ...

# -- batches
def _check_batch(hands: object, levels: object, beats: object, packed: bool | np.bool_ = False) -> None: ...
def batch_count(
    hands: npt.NDArray[np.uint8] | npt.NDArray[np.uint64],
    levels: npt.NDArray[np.uint8],
    beats: npt.NDArray[np.uint64],
    granularity: _Granularity = "rank",
    start: _Int = 0,
    end: _Int | None = None,
    out: npt.NDArray[np.int64] | None = None,
    packed: bool | np.bool_ = False,
) -> npt.NDArray[np.int64]: ...
def batch_rank_moves(
    hands: npt.NDArray[np.uint8] | npt.NDArray[np.uint64],
    levels: npt.NDArray[np.uint8],
    beats: npt.NDArray[np.uint64],
    start: _Int = 0,
    end: _Int | None = None,
    packed: bool | np.bool_ = False,
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64]]: ...
def batch_card_moves(
    hands: npt.NDArray[np.uint8] | npt.NDArray[np.uint64],
    levels: npt.NDArray[np.uint8],
    beats: npt.NDArray[np.uint64],
    start: _Int = 0,
    end: _Int | None = None,
    packed: bool | np.bool_ = False,
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64]]: ...
def batch_mask(
    hands: npt.NDArray[np.uint8] | npt.NDArray[np.uint64],
    levels: npt.NDArray[np.uint8],
    beats: npt.NDArray[np.uint64],
    start: _Int = 0,
    end: _Int | None = None,
    out: npt.NDArray[np.bool_] | None = None,
    packed: bool | np.bool_ = False,
) -> npt.NDArray[np.bool_]: ...
def batch_pack(hands: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint64]: ...
def action_indices(words: npt.ArrayLike) -> npt.NDArray[np.intp]: ...
def fill_rank_moves(
    hands: npt.NDArray[np.uint8] | npt.NDArray[np.uint64],
    levels: npt.NDArray[np.uint8],
    beats: npt.NDArray[np.uint64],
    start: _Int,
    end: _Int,
    out: npt.NDArray[np.uint64],
    offsets: npt.NDArray[np.int64],
    packed: bool | np.bool_ = False,
) -> int: ...
def fill_card_moves(
    hands: npt.NDArray[np.uint8] | npt.NDArray[np.uint64],
    levels: npt.NDArray[np.uint8],
    beats: npt.NDArray[np.uint64],
    start: _Int,
    end: _Int,
    out: npt.NDArray[np.uint64],
    offsets: npt.NDArray[np.int64],
    packed: bool | np.bool_ = False,
) -> int: ...

# -- native deals
def deal_step(state: _DealState, lo: _Int, hi: _Int) -> tuple[_DealState, bool]: ...
def playouts(state: _DealState, n: _Int, policy: _Policy = "random", seed: _Int = 0) -> npt.NDArray[np.int8]: ...
def choose(state: _DealState, policy: _Policy = "greedy", seed: _Int = 0) -> tuple[int, int]: ...
def perft(state: _DealState, depth: _Int) -> int: ...
def evaluate(
    states: Sequence[_DealState],
    firsts: Iterable[_Int] | npt.NDArray[np.uint64],
    n: _Int = 1,
    policy: _Policy = "greedy",
    seed: _Int = 0,
) -> npt.NDArray[np.int8]: ...
def spend_cards(counts: _Counts, level: _Int, word: _Int) -> int: ...
def rng_draws(seed: _Int, bounds: Sequence[_Int]) -> list[int]: ...

# -- agents over card-level moves
def greedy_choose(
    moves: npt.NDArray[np.uint64],
    level: _Int,
    hand: _Int,
    mine: _Int,
    responding: bool,
    partner_play: bool,
    opponent_low: bool,
) -> int: ...

# -- a deal's legal moves from its packed hand
def packed_card_moves(lo: _Int, hi: _Int, level: _Int, beat: _Int = ...) -> npt.NDArray[np.uint64]: ...

# -- search
_SearchPolicy: TypeAlias = Literal["smart", "learned", "greedy", "random"]
_Packed: TypeAlias = _Int
#: (seat, level, hand, pool, known, forbid, need, events): see guandan.bots.determinize.information_set.
_InfoSetTuple: TypeAlias = tuple[
    _Int, _Int, _Packed, _Packed, Sequence[_Packed], Sequence[_Packed], Sequence[_Int], npt.NDArray[np.uint64]
]
#: (level, turn, last, beat, passes, finished): a deal state without its hands.
_SearchState: TypeAlias = tuple[_Int, _Int, _Int, _Int, _Int, Sequence[_Int]]

SEARCH_POLICIES: dict[str, int]
_Weights: TypeAlias = Sequence[float] | npt.NDArray[np.floating[Any]]
MAX_THREADS: int
TREE_MAX_MOVES: int
TREE_MAX_NODES: int

def sample_deals(
    infoset: _InfoSetTuple,
    n: _Int,
    seed: _Int = 0,
    tries: _Int = 1,
    pass_weight: float = 1.0,
    bomb_weight: float = 1.0,
) -> tuple[tuple[int, int, int, int], ...]: ...
def deal_weight(
    infoset: _InfoSetTuple, hands: Sequence[_Packed], pass_weight: float = 1.0, bomb_weight: float = 1.0
) -> float: ...
def policy_belief(
    infoset: _InfoSetTuple, hands: Sequence[_Packed], weights: _Weights, miss: float, events: _Int
) -> float: ...
def deal_play(state: _DealState, word: _Int) -> tuple[_DealState, bool]: ...
def deal_candidates(state: _DealState, limit: _Int) -> npt.NDArray[np.uint64]: ...
def search_candidates(infoset: _InfoSetTuple, state: _SearchState, limit: _Int) -> npt.NDArray[np.uint64]: ...
def search(
    infoset: _InfoSetTuple,
    state: _SearchState,
    candidates: Iterable[_Int] | npt.NDArray[np.uint64],
    params: SearchParams,
    prior: Sequence[float] | npt.NDArray[np.floating[Any]] | None = None,
) -> tuple[npt.NDArray[np.float64], int]: ...
def rollouts(
    state: _DealState,
    n: _Int,
    policies: _SearchPolicy | Sequence[_SearchPolicy] = "smart",
    seed: _Int = 0,
    weights: _Weights | None = None,
    seat_weights: Sequence[_Weights | None] | None = None,
) -> npt.NDArray[np.int8]: ...
def smart_move(state: _DealState) -> tuple[int, int]: ...

# -- the learned rollout policy
FEATURES: int
POLICY_WEIGHTS: int
HIDDEN: int
POLICY_NET: int

def move_features(state: _DealState, words: Iterable[_Int] | npt.NDArray[np.uint64]) -> npt.NDArray[np.float32]: ...
def learned_move(
    state: _DealState, weights: _Weights, temperature: float = ..., seed: int = ...
) -> tuple[int, int]: ...

VALUE_FEATURES: int
VALUE_HIDDEN: int

def value_size(hidden: Sequence[_Int]) -> int: ...
def value_features(state: _DealState) -> npt.NDArray[np.float32]: ...
def value_of(state: _DealState, weights: _Weights, hidden: Sequence[_Int]) -> float: ...

# -- the exact endgame solver
SOLVE_TABLE_BITS: int

def solve(
    state: _DealState, side: _Int, promotion: Sequence[_Int] = (3, 2, 1), budget: _Int = 1_000_000
) -> tuple[int | None, int]: ...
def solve_move(
    state: _DealState, promotion: Sequence[_Int] = (3, 2, 1), budget: _Int = 1_000_000
) -> tuple[int, int, int] | tuple[None, None, int]: ...
def cards_left(state: _DealState) -> int: ...

# -- encodings for learning agents
_Plays: TypeAlias = tuple[tuple[_Int, _Int, _Int], ...] | npt.NDArray[np.uint64]
_Counts4: TypeAlias = tuple[_Int, ...] | list[_Int]

STATE_SIZE: int
ACTION_SIZE: int
ROW_SIZE: int
WILD_FLAGS: int
VECTOR_INDEX: tuple[int, ...]

@disjoint_base
class Record:
    @property
    def plies(self) -> int: ...
    def clear(self) -> None: ...
    def sync(self, plays: tuple[tuple[_Int, _Int, _Int], ...]) -> None: ...
    def encode_state(
        self, hand: _Int, seat: _Int, counts: _Counts4, level: _Int, own_level: _Int, other_level: _Int
    ) -> npt.NDArray[np.float32]: ...

def encode_state(
    hand: _Int, seat: _Int, plays: _Plays, counts: _Counts4, level: _Int, own_level: _Int, other_level: _Int
) -> npt.NDArray[np.float32]: ...
def encode_rows(
    hand: _Int,
    seat: _Int,
    plays: _Plays,
    counts: _Counts4,
    level: _Int,
    own_level: _Int,
    other_level: _Int,
    moves: npt.NDArray[np.uint64],
) -> npt.NDArray[np.float32]: ...
def encode_actions(moves: npt.NDArray[np.uint64]) -> npt.NDArray[np.float32]: ...
def wild_flags(hand: _Int, level: _Int) -> npt.NDArray[np.float32]: ...

# -- vectorized tables
_NativeState: TypeAlias = tuple[tuple[int, int, int, int], int, int, int, int, int, tuple[int, ...]]
TABLE_POLICIES: dict[str, int]

@disjoint_base
class NativeTables:
    @property
    def n(self) -> int: ...
    def __new__(
        cls,
        n: _Int,
        deal_states: npt.NDArray[np.uint64],
        policy_states: npt.NDArray[np.uint64],
        level: _Int | None,
        policies: Sequence[str],
        promotion: Sequence[_Int],
        wins: bool,
    ) -> NativeTables: ...
    def restart(self, deal_states: npt.NDArray[np.uint64], policy_states: npt.NDArray[np.uint64]) -> None: ...
    def observe_mask(self, mask: npt.NDArray[np.bool_], seats: npt.NDArray[np.int8]) -> None: ...
    def observe_states(self, states: npt.NDArray[np.float32], seats: npt.NDArray[np.int8]) -> None: ...
    def dump(self) -> bytes: ...
    def load(self, data: bytes) -> None: ...
    def final_states(self, tables: npt.NDArray[np.int64], seat: _Int, states: npt.NDArray[np.float32]) -> None: ...
    def gather(self, offsets: npt.NDArray[np.int64]) -> int: ...
    def card_vectors(self, out: npt.NDArray[np.float32]) -> None: ...
    def places(self, out: npt.NDArray[np.int8], limit: _Int) -> None: ...
    def moves(self, i: _Int) -> npt.NDArray[np.uint64]: ...
    def step_rank(
        self,
        actions: npt.NDArray[np.integer],
        rewards: npt.NDArray[np.float32],
        ended: npt.NDArray[np.int32],
        finish: npt.NDArray[np.int8],
    ) -> None: ...
    def step_card(
        self,
        actions: npt.NDArray[np.integer],
        rewards: npt.NDArray[np.float32],
        ended: npt.NDArray[np.int32],
        finish: npt.NDArray[np.int8],
    ) -> None: ...
    def random_actions(self, seed: _Int, out: npt.NDArray[np.int64]) -> None: ...
    def table(self, i: _Int) -> tuple[int, int, int, int, _NativeState]: ...

def canonical_words(hand: _Int, level: _Int, beat: _Int, word: _Int) -> tuple[int, int]: ...
def rank_mask(hand: _Int, level: _Int, beat: _Int, out: npt.NDArray[np.int8] | npt.NDArray[np.uint8]) -> int: ...
def deal_seeded(seed: _Int, level: _Int) -> _NativeState: ...
