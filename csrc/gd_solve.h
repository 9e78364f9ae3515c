/* Exact endgames: the perfect-information value of a deal, both sides playing their best.
 *
 * With every hand known, a deal is a two-player zero-sum game between the sides (seats 0
 * and 2 against 1 and 3), whose value is the deal's result in levels under a ruleset's
 * promotion (gd_deal_score). gd_solve finds it by alpha-beta search over the rank-level
 * moves, each played with its canonical physical cards (gd_spend, as every playout does),
 * with a transposition table; a node budget bounds the work, and a search that runs out of
 * it says so instead of answering.
 *
 * Flat C, no allocation but the table the caller gives; reentrant (one table per thread).
 */
#ifndef GD_SOLVE_H
#define GD_SOLVE_H

#include "gd_play.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One entry of the transposition table: a state's hash and the bounds of its value known
 * so far (lower <= value <= upper). */
typedef struct gd_solve_entry {
    uint64_t key;
    uint32_t generation;    /* the table's generation that wrote it (older entries are empty) */
    int8_t lower, upper;
} gd_solve_entry;

typedef struct gd_solver {
    gd_solve_entry *table;  /* 2^bits entries, zeroed before the first solve */
    uint64_t mask;          /* 2^bits - 1 */
    uint32_t generation;    /* entries of other generations are ignored: gd_solver_clear */
    int64_t nodes;          /* states visited by the last solve */
    int64_t budget;         /* the most states a solve may visit (>= 1) */
    uint8_t promotion[3];   /* the levels of a win with the partner 2nd, 3rd, 4th */
    int aborted;            /* set when a solve ran out of its budget */
} gd_solver;

/* Forget every entry of the table at once (a new generation), so that what a solve finds
 * cannot depend on what was solved before. */
void gd_solver_clear(gd_solver *s);

/* The cards left in the four hands together. */
unsigned gd_cards_left(const gd_deal *d);

/* Solve a consistent deal state (gd_deal_check passes) for `side`: the result in levels for
 * that side when both sides play best (0 when the deal is already over and... its score).
 * Returns 1 and writes *value when solved within s->budget visited states, else 0 (the
 * table keeps what it learnt: entries are exact bounds, valid for any later solve of the
 * same deal with the same promotion). */
int gd_solve(gd_solver *s, const gd_deal *d, int side, int *value);

/* The best move of the seat to act, by solving each of its moves: writes *move and *value
 * (for the seat's side) and returns 1, or 0 when the budget ran out. */
int gd_solve_move(gd_solver *s, const gd_deal *d, gd_move *move, int *value);

#ifdef __cplusplus
}
#endif
#endif
