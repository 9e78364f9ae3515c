/* Vectorized tables: many seeded deals stepped in one call, for learning agents.
 *
 * A table plays deals one after another: each deal dealt from a seed drawn from the table's
 * own generator (dealt as guandan.Deal.new deals a seed), the seats either acted for by the
 * caller or played by a built-in policy (gd_choose), a finished deal's rewards written and
 * the next deal dealt at once. The caller's decisions are observed as legal-move masks over
 * the fixed rank-level action space, or as the 513 state values and the 54-value card vectors
 * of the card-level legal moves (gd_encode.h); an action is an index into the one or the
 * other. Nothing here allocates or touches Python: the caller owns every buffer.
 */
#ifndef GD_TABLES_H
#define GD_TABLES_H

#include "gd_encode.h"
#include "gd_play.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The fixed rank-level action space has this many words (checked at import). */
#define GD_SPACE_SIZE 2213
#define GD_SPACE_WORDS ((GD_SPACE_SIZE + 63) / 64)
#define GD_EXTERNAL (-1) /* a seat the caller acts for */

typedef struct gd_tables_config {
    int level;                 /* the level of every deal, rank 0..12; -1: drawn per deal */
    int policy[4];             /* per seat: GD_EXTERNAL, GD_POLICY_RANDOM or GD_POLICY_GREEDY */
    int promotion[3];          /* levels won with the partner 2nd, 3rd, 4th */
    int wins;                  /* 1: a deal is worth +1 / -1 (won or lost), 0: its levels */
    const uint64_t *space;     /* the action space, GD_SPACE_SIZE sorted words */
} gd_tables_config;

typedef struct gd_table {
    gd_deal deal;
    gd_record record;
    gd_rng deals;            /* draws each deal's seed (then its level when drawn) */
    gd_rng policies;         /* draws the seed of each built-in policy's decision */
    uint64_t seed;           /* the current deal's seed */
    uint32_t plies;          /* plies of the current deal */
    uint32_t dealt;          /* deals dealt at this table so far */
    uint64_t legal[GD_SPACE_WORDS]; /* the current decision's rank-level legal moves, as bits */
    gd_deal final_deal;      /* the last deal that ended, as it ended (its record below) */
    gd_record final_record;
} gd_table;

/* Deal a seed as guandan.Deal.new(seed, level) does: the hands and the leader. */
void gd_deal_seeded(gd_deal *d, uint64_t seed, int level);

/* Start a table: its generators' states, then its first deal (built-in seats played up to the
 * first decision of the caller's). The config must have a seat of the caller's. */
void gd_table_start(gd_table *t, const gd_tables_config *c, uint64_t deals_state, uint64_t policies_state);

/* Index the action space (GD_SPACE_SIZE sorted words) for gd_space_index: once, before any table
 * is used. Then the index of a word in it, -1 if absent. */
void gd_space_init(const uint64_t *space);
ptrdiff_t gd_space_index(const uint64_t *space, uint64_t word);

/* A legal action of the table's decision (its mask last observed) drawn uniformly; -1 if none. */
int64_t gd_table_random_action(const gd_table *t, gd_rng *rng);

/* Whether action a (an index of the action space) is legal at the table now (its mask bit). */
int gd_table_rank_legal(const gd_table *t, int64_t a);

/* Play the caller's decision at a table: the rank-level word (cards spent canonically) or a
 * card-level move (two words); then the built-in seats up to the caller's next decision,
 * dealing the next deal when one ends. rewards[4] gets each seat's reward of the deals that
 * ended (0 when none did), finish[4] the finish order of the last that ended (-1s when none or
 * undecided), and the return value is the number of deals that ended. */
int gd_table_play_rank(gd_table *t, const gd_tables_config *c, uint64_t word, float *rewards, int8_t *finish);
int gd_table_play_card(gd_table *t, const gd_tables_config *c, uint64_t lo, uint64_t hi, float *rewards,
                       int8_t *finish);

/* Observe the decision at a table: its legal-move mask over the action space (out[GD_SPACE_SIZE]
 * bytes, kept as bits by the table too). */
void gd_table_mask(gd_table *t, const gd_tables_config *c, uint8_t *out);

/* The card-level legal moves of the decision: writes at most cap (two words each), returns how many. */
size_t gd_table_card_moves(const gd_table *t, uint64_t *out, size_t cap);

/* The 513 state values of the seat to act (outside a match: both sides at the deal's level). */
void gd_table_state(const gd_table *t, float *out);
/* The 513 state values of `seat` at the end of the last deal that ended at the table (its
 * terminal observation; zeros if none has ended). */
void gd_table_final_state(const gd_table *t, int seat, float *out);

#ifdef __cplusplus
}
#endif
#endif
