/* Agents over card-level moves: the choice of guandan.bots.agents.GreedyAgent, made natively.
 *
 * Flat C, no Python, no allocation; reentrant. The moves are the card-level move array of a
 * position (n rows of two words, lo then hi: see gd_core.h), as guandan.Deal holds it.
 */
#ifndef GD_AGENTS_H
#define GD_AGENTS_H

#include <stddef.h>
#include <stdint.h>

#include "gd_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the greedy agent knows of the position besides its moves. */
typedef struct gd_greedy_seat {
    gd_cards hand;        /* the seat's own cards (checked: gd_check_cards) */
    int level;            /* rank 0..12 */
    int mine;             /* how many cards the seat holds */
    int responding;       /* 1 when there is a play to beat */
    int partner_play;     /* 1 when the play to beat is the partner's */
    int opponent_low;     /* 1 when an opponent holding cards holds bomb_threshold or fewer */
} gd_greedy_seat;

/* The index 0..n-1 of the move guandan.bots.agents.GreedyAgent.choose picks among the n >= 1 rows
 * of `moves` (see that method for the rules; this is the same choice, made in one pass
 * that reads each row once). Returns -1 - i when row i is not a card-level move word (a type
 * above GD_JOKER_BOMB, a face held 3 times, bits beyond the 54 faces); every row is read
 * and checked, whatever the choice. */
ptrdiff_t gd_greedy_choose(const uint64_t *moves, size_t n, const gd_greedy_seat *seat);

#ifdef __cplusplus
}
#endif
#endif
