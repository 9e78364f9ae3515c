/* Encodings of a seat's information for learning agents (docs/encodings.md).
 *
 * The 567-value rows: for one decision, one row per legal action, each the 513 values of the
 * seat's state followed by the 54 values of the candidate action. Every value is computed
 * from what the seat may know: its own hand, the public record of the deal (who played
 * which cards), the card counts and the levels.
 *
 * Card vectors. 54 float counts (0..2) indexed suit * 13 + rank with the suits in the order
 * hearts, spades, clubs, diamonds and the ranks 2..A (0..12), then 52 = small joker, 53 = big
 * joker. This differs from the core's face numbering (face = 4 * rank + suit, suits spades,
 * hearts, clubs, diamonds): gd_vector_index maps one to the other.
 */
#ifndef GD_ENCODE_H
#define GD_ENCODE_H

#include "gd_core.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GD_STATE_SIZE 513
#define GD_ACTION_SIZE 54
#define GD_ROW_SIZE 567
#define GD_WILD_FLAGS 12

/* The public record of a deal the state encoding reads, kept up to date action by action. */
typedef struct gd_record {
    gd_cards played[4]; /* every card each seat has played in the deal */
    gd_cards last[4];   /* each seat's latest action (a pass: no cards) */
    uint8_t acted;      /* bit s: seat s has acted in the deal */
    int8_t latest;      /* the seat of the latest action, -1 before the first */
} gd_record;

/* The card-vector index of a face of the core (0..53). */
int gd_vector_index(int face);

/* A record before any action; then one action (a pass: spent holds no cards). */
void gd_record_init(gd_record *r);
void gd_record_apply(gd_record *r, int seat, const gd_cards *spent);

/* The card vector of a multiset of cards: out[54]. */
void gd_card_vector(const gd_cards *cards, float *out);

/* The 12 wild flags of a hand at a level (rank 0..12): out[12] (docs/encodings.md). */
void gd_wild_flags(const gd_cards *hand, int level, float *out);

/* The 513 state values of `seat` holding `hand`: the record of the deal so far, every seat's
 * card count (a seat with none has finished; 28, a tribute's receiver's, counts as 27), the
 * deal's level and the levels of the seat's side and of the other side (ranks 0..12). */
void gd_encode_state(const gd_cards *hand, int seat, const gd_record *r, const uint8_t counts[4], int level,
                     int own_level, int other_level, float *out);

/* The 54 action values of card-level moves (two words each, the core's card-level layout; a
 * pass spends nothing): out[n * 54]. */
void gd_encode_actions(const uint64_t *moves, size_t n, float *out);

/* Full rows: the state (513 values) then each move's 54: out[n * 567]. */
void gd_encode_rows(const float *state, const uint64_t *moves, size_t n, float *out);

#ifdef __cplusplus
}
#endif
#endif
