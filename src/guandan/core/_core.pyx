# cython: language_level=3
"""The compiled core: packed hands and moves, legal-move generation without the GIL.

This is the thin typed boundary between Python and the C core in ``csrc/``; most
users want :mod:`guandan` (``guandan.legal_moves``, ``guandan.core.batch``). Levels are
rank numbers 2..14 here as everywhere in the Python API.

A hand is a count vector of 54 faces (``uint8``, 0..2 each: anything exposing the
buffer protocol, e.g. ``Cards.counts`` or a numpy row). A rank-level move is one
``uint64`` word, a card-level move two (see ``csrc/gd_core.h`` for the layout).

>>> from guandan import Cards
>>> hand = Cards.parse("S3 C4 D4 C5 D5 H2").counts
>>> count_rank_moves(hand, 2), count_card_moves(hand, 2)
(14, 18)
>>> len(rank_moves(hand, 2)) == 14
True
"""

from cpython.buffer cimport PyBUF_C_CONTIGUOUS, PyBUF_FORMAT, PyBuffer_Release, PyObject_GetBuffer
from cpython.bytes cimport PyBytes_FromStringAndSize
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memset

cimport cython
from cython.view cimport array as cvarray

# the C core's declarations: a .pxd per header of csrc/ (gd_core.h, gd_play.h, gd_agents.h, gd_search.h,
# gd_encode.h, gd_tables.h, gd_solve.h)
from .gd_agents cimport gd_greedy_choose, gd_greedy_seat
from .gd_core cimport (
    GD_DETAIL_COUNT,
    GD_DETAIL_FACE,
    GD_FACES,
    GD_MAX_RANK_MOVES,
    GD_PASS_MOVE,
    GD_POSITION_COUNTS,
    GD_POSITION_LEVEL,
    GD_POSITION_OK,
    GD_POSITION_PACKED,
    gd_card_moves,
    gd_card_to_rank,
    gd_cards,
    gd_check_cards,
    gd_check_move,
    gd_count_card_moves,
    gd_count_rank_moves,
    gd_init,
    gd_move,
    gd_move_error,
    gd_move_size,
    gd_pack_cards,
    gd_prepare,
    gd_prepare_packed,
    gd_rank_moves,
    gd_unpack_cards,
    gd_view,
    gd_view_init,
)
from .gd_encode cimport (
    GD_ACTION_SIZE,
    GD_ROW_SIZE,
    GD_STATE_SIZE,
    GD_WILD_FLAGS,
    gd_encode_actions,
    gd_encode_rows,
    gd_encode_state,
    gd_record,
    gd_record_apply,
    gd_record_init,
    gd_vector_index,
    gd_wild_flags,
)
from .gd_tables cimport (
    GD_EXTERNAL,
    GD_SPACE_SIZE,
    gd_deal_seeded,
    gd_space_index,
    gd_space_init,
    gd_table,
    gd_table_random_action,
    gd_table_card_moves,
    gd_table_mask,
    gd_table_play_card,
    gd_table_play_rank,
    gd_table_rank_legal,
    gd_table_start,
    gd_table_final_state,
    gd_table_state,
    gd_tables_config,
)
from .gd_play cimport (
    GD_POLICY_GREEDY,
    GD_POLICY_RANDOM,
    gd_choose,
    gd_deal,
    gd_deal_apply,
    gd_deal_check,
    gd_deal_error,
    gd_perft,
    gd_playout,
    gd_rng,
    gd_rng_below,
    gd_rng_next,
    gd_spend,
)
from .gd_search cimport (
    GD_EVENT_PASS,
    GD_EVENT_PLAY,
    GD_OBJECTIVE_LEVELS,
    GD_OBJECTIVE_TABLE,
    GD_OBJECTIVE_WINS,
    GD_FEATURES,
    GD_POLICY_LEARNED,
    GD_POLICY_SMART,
    GD_POLICY_WEIGHTS,
    GD_HIDDEN,
    GD_POLICY_NET,
    GD_TREE_MAX_MOVES,
    GD_TREE_MAX_NODES,
    GD_VALUE_FEATURES,
    GD_VALUE_HIDDEN,
    gd_candidate_places,
    gd_candidate_stats,
    gd_candidates,
    gd_deal_weight,
    gd_event,
    gd_infer,
    gd_infoset,
    gd_infoset_check,
    gd_infoset_error,
    gd_learned_move,
    gd_learned_sample,
    gd_linear,
    gd_move_features,
    gd_policy_belief,
    gd_rollout_seats,
    gd_sample_deal,
    gd_sample_weighted,
    gd_search,
    gd_search_params,
    gd_smart_move,
    gd_stream,
    gd_value,
    gd_value_eval,
    gd_value_features,
    gd_value_size,
)
from .gd_solve cimport gd_cards_left, gd_solve, gd_solve_entry, gd_solve_move, gd_solver

import numpy as np

gd_init()

#: The pass word; as a play to beat it means "lead".
PASS_MOVE = GD_PASS_MOVE
#: Room for the rank-level moves of any position.
MAX_RANK_MOVES = GD_MAX_RANK_MOVES

_FACE_NAMES = [("S", "H", "C", "D")[f % 4]
               + ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")[f // 4]
               for f in range(52)] + ["SB", "HR"]


_ERRORS = None


def _errors():
    """guandan.errors (imported on first use: this module is imported while the package is)."""
    global _ERRORS
    if _ERRORS is None:
        from guandan import errors
        _ERRORS = errors
    return _ERRORS


# The module's parts, in order (each names what it holds; the C declarations they use are
# cimported above, once): textual includes, so the module is the one it was as a single file.
include "_core_checks.pxi"
include "_core_moves.pxi"
include "_core_deals.pxi"
include "_core_search.pxi"
include "_core_encode.pxi"
include "_core_tables.pxi"
