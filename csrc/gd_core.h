/* The native core of the guandan engine: packed hands and moves, legal-move generation.
 *
 * Flat C, no Python. Everything here is reentrant and may run without the GIL.
 *
 * Card faces are numbered 0..53: face = 4 * rank + suit for the natural ranks
 * (rank 0..12 is 2..A, suit 0..3 is spades, hearts, clubs, diamonds), then 52 (small
 * joker) and 53 (big joker).
 *
 * A packed multiset of cards (gd_cards) keeps 2 bits per face in two 64-bit words,
 * so byte r (r = 0..12) holds the four suits of rank r and byte 13 the two jokers:
 * face f lives at bits 2*(f % 32) of word f / 32.
 */
#ifndef GD_CORE_H
#define GD_CORE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GD_FACES 54
#define GD_RANKS 13       /* natural ranks 2..A, index 0..12 */
#define GD_SMALL_JOKER 52
#define GD_BIG_JOKER 53

typedef struct gd_cards {
    uint64_t w[2];
} gd_cards;

/* Pack a count vector of 54 faces. Returns -1 when every count is 0..2, else the
 * index of the first face with a bad count (and leaves *out unspecified). */
int gd_pack_cards(const uint8_t *counts, gd_cards *out);

/* Unpack into a count vector of 54 faces. */
void gd_unpack_cards(const gd_cards *cards, uint8_t *counts);

static inline unsigned gd_face_count(const gd_cards *c, int face) {
    return (unsigned)(c->w[face >> 5] >> (2 * (face & 31))) & 3u;
}

/* The four suits' counts of rank r (2 bits each, spades lowest); r = 13 gives the jokers. */
static inline unsigned gd_rank_byte(const gd_cards *c, int r) {
    return (unsigned)(c->w[r >> 3] >> (8 * (r & 7))) & 0xFFu;
}

#ifdef __cplusplus
}
#endif
#endif
