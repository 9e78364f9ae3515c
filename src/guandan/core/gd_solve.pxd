# The C core's exact endgames (csrc/gd_solve.h): the perfect-information value of a deal by
# alpha-beta search with a transposition table, under a node budget.

from libc.stdint cimport int8_t, int64_t, uint8_t, uint32_t, uint64_t

from .gd_core cimport gd_move
from .gd_play cimport gd_deal


cdef extern from "gd_solve.h" nogil:
    ctypedef struct gd_solve_entry:
        uint64_t key
        uint32_t generation
        int8_t lower
        int8_t upper
    ctypedef struct gd_solver:
        gd_solve_entry *table
        uint64_t mask
        uint32_t generation
        int64_t nodes
        int64_t budget
        uint8_t promotion[3]
        int aborted
    void gd_solver_clear(gd_solver *s)
    unsigned gd_cards_left(const gd_deal *d)
    int gd_solve(gd_solver *s, const gd_deal *d, int side, int *value)
    int gd_solve_move(gd_solver *s, const gd_deal *d, gd_move *move, int *value)
