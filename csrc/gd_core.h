/* The native core of the guandan engine: packed hands and moves, legal-move generation.
 *
 * Flat C, no Python, no allocation. Everything here is reentrant and runs without the
 * GIL; gd_init() must have run once before the first call (the extension module calls it
 * at import).
 *
 * Cards. Faces are numbered 0..53: face = 4 * rank + suit for the natural ranks (rank
 * 0..12 is 2..A, suit 0..3 is spades, hearts, clubs, diamonds), then 52 (small joker) and
 * 53 (big joker). A multiset of cards (gd_cards) keeps 2 bits per face in two 64-bit
 * words, so byte r (r = 0..12) holds the four suits of rank r and byte 13 the jokers.
 *
 * Rank-level move (gd_move, one 64-bit word):
 *   bits  0..51  13 nibbles: natural (non-wild) cards spent per rank, rank r at bit 4r
 *   bits 52..53  wilds spent (0..2)
 *   bits 54..55  x: the suit of a straight flush; the joker pair of a full house
 *                (0 none, 1 small jokers, 2 big jokers); else 0
 *   bits 56..59  key: rank 0..12, 13 small joker, 14 big joker, 15 none (pass, joker bomb).
 *                A sequence's key is the lowest rank of its window (12, the ace, for the
 *                ace-low windows A2345, AA2233, AAA222).
 *   bits 60..63  type (GD_PASS .. GD_JOKER_BOMB)
 * Jokers spent follow from the declaration (single/pair of a joker key, a full house's x,
 * the joker bomb). The top 12 bits are the *declaration*.
 *
 * Card-level move (two 64-bit words, lo and hi): the physical faces spent, laid out as a
 * gd_cards (108 bits), with the declaration of the rank-level move in bits 52..63 of hi.
 */
#ifndef GD_CORE_H
#define GD_CORE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GD_FACES 54
#define GD_RANKS 13
#define GD_SMALL_JOKER 52
#define GD_BIG_JOKER 53
#define GD_HEARTS 1

/* Move types, as guandan.MoveType. */
enum {
    GD_PASS = 0,
    GD_SINGLE = 1,
    GD_PAIR = 2,
    GD_TRIPLE = 3,
    GD_FULL_HOUSE = 4,
    GD_STRAIGHT = 5,
    GD_PAIR_RUN = 6,
    GD_TRIPLE_RUN = 7,
    GD_BOMB = 8,
    GD_STRAIGHT_FLUSH = 9,
    GD_JOKER_BOMB = 10
};

#define GD_KEY_SMALL_JOKER 13
#define GD_KEY_BIG_JOKER 14
#define GD_KEY_NONE 15

/* The most rank-level moves any position has: every legal hand is a sub-multiset of the
 * double deck, moves are monotone in the hand, and the whole deck led at its worst level
 * has fewer than this (checked by the test suite). */
#define GD_MAX_RANK_MOVES 4096

typedef uint64_t gd_move;

typedef struct gd_cards {
    uint64_t w[2];
} gd_cards;

#define GD_DECL(type, key, x, wilds)                                                       \
    (((uint64_t)(type) << 60) | ((uint64_t)(key) << 56) | ((uint64_t)(x) << 54) |        \
     ((uint64_t)(wilds) << 52))
#define GD_DECL_MASK (0xFFFull << 52)
#define GD_MOVE_TYPE(m) ((unsigned)((m) >> 60))
#define GD_MOVE_KEY(m) ((unsigned)((m) >> 56) & 15u)
#define GD_MOVE_X(m) ((unsigned)((m) >> 54) & 3u)
#define GD_MOVE_WILDS(m) ((unsigned)((m) >> 52) & 3u)
#define GD_MOVE_NIBBLE(m, r) ((unsigned)((m) >> (4 * (r))) & 15u)

/* The pass; as the play to beat it means "nothing to beat": the position is a lead. */
#define GD_PASS_MOVE GD_DECL(GD_PASS, GD_KEY_NONE, 0, 0)

/* A hand prepared for generation at a level. "Nibble words" hold one 4-bit field per rank
 * (rank r at bit 4r), like the natural counts of a rank-level move. */
typedef struct gd_view {
    gd_cards cards;        /* the hand */
    gd_cards naturals;     /* the hand without its wilds */
    uint64_t count;        /* nibble word: natural (non-wild) cards per rank */
    uint64_t suit_nib[4];  /* nibble word: 1 at each rank held naturally in that suit */
    uint8_t wilds, small, big, level;
    uint64_t suit_lines;   /* 16 bits a suit (suit s at bit 16s): bit p set when the suit has a
                              natural at sequence line position p (0: the low ace, p: rank p - 1) */
} gd_view;

/* Build the tables. Idempotent; call once before anything else. */
void gd_init(void);

/* Pack a count vector of 54 faces. Returns -1 when every count is 0..2, else the index of
 * the first face with a bad count (and leaves *out unchanged). Each count is read once, so
 * what is packed is what was checked even if the counts change meanwhile. */
int gd_pack_cards(const uint8_t *counts, gd_cards *out);

/* Unpack into a count vector of 54 faces. */
void gd_unpack_cards(const gd_cards *cards, uint8_t *counts);

/* Whether packed cards are valid: no bits beyond the 54 faces, no face with 3 copies.
 * Returns -1 if valid, else the first bad face (54 for stray high bits). */
int gd_check_cards(const gd_cards *cards);

/* Prepare a hand at a level (rank 0..12). The cards must be valid (gd_check_cards). */
void gd_view_init(gd_view *v, const gd_cards *cards, int level);

/* Check and prepare one position in one step: a count vector of 54 faces, the level as a
 * rank number 2..14, the play to beat. Returns GD_POSITION_OK, or what is wrong with
 * *detail saying where: GD_POSITION_LEVEL, GD_POSITION_COUNTS (*detail = the first face
 * with more than 2 copies and its count: GD_DETAIL_FACE, GD_DETAIL_COUNT), GD_POSITION_BEAT
 * (*detail = the gd_check_move code). Each count is read once (the view is built from what
 * was checked); generate with the same `beat` value that was checked here (a local copy,
 * never a second read of the caller's memory). */
enum { GD_POSITION_OK = 0, GD_POSITION_LEVEL, GD_POSITION_COUNTS, GD_POSITION_BEAT, GD_POSITION_PACKED };
#define GD_COUNTS_DETAIL(face, count) ((int)(face) | (int)(count) << 8)
#define GD_DETAIL_FACE(detail) ((detail) & 0xFF)
#define GD_DETAIL_COUNT(detail) ((detail) >> 8)
int gd_prepare(const uint8_t *counts, int level, gd_move beat, gd_view *v, int *detail);

/* gd_prepare for a hand already packed (two words, the gd_cards layout), read once: returns
 * GD_POSITION_PACKED with *detail = gd_check_cards's answer (a face with 3 copies, or 54 for
 * bits beyond the 54 faces) when the words are not valid cards; else as gd_prepare. */
int gd_prepare_packed(const gd_cards *cards, int level, gd_move beat, gd_view *v, int *detail);

/* Whether a word is a well-formed rank-level move of some hand at some level (the play to
 * beat is checked with this before generation). Returns 0 when valid, else a nonzero code
 * (see gd_move_error). */
int gd_check_move(gd_move m);
const char *gd_move_error(int code);

/* Cards spent by a rank-level move: total count. */
unsigned gd_move_size(gd_move m);

/* Legal rank-level moves of a position: the hand in v, the play to beat (GD_PASS_MOVE to
 * lead; must pass gd_check_move). Writes the moves to out, which must hold
 * GD_MAX_RANK_MOVES, the pass last when responding; returns how many. */
size_t gd_rank_moves(const gd_view *v, gd_move beat, gd_move *out);

/* The same, only counting. */
size_t gd_count_rank_moves(const gd_view *v, gd_move beat);

/* Drawing one rank-level move without listing them all (e.g. uniformly: the count, a random
 * index below it, the move at that index). gd_count_rank_moves_by_kind counts as
 * gd_count_rank_moves does, keeping the count of each kind of move in *kinds; gd_rank_move_at
 * returns the move at index i (i below the count) of gd_rank_moves's order, making only the
 * moves of i's kind. */
typedef struct gd_move_kinds {
    uint32_t count[16];
    unsigned segments;
} gd_move_kinds;
size_t gd_count_rank_moves_by_kind(const gd_view *v, gd_move beat, gd_move_kinds *kinds);
gd_move gd_rank_move_at(const gd_view *v, gd_move beat, const gd_move_kinds *kinds, size_t i);

/* Legal card-level moves: writes at most cap moves (two words each, 2 * cap words) to out
 * and returns how many there are in all (more than cap means the buffer was too small). */
size_t gd_card_moves(const gd_view *v, gd_move beat, uint64_t *out, size_t cap);

/* The number of card-level moves, without writing them. */
size_t gd_count_card_moves(const gd_view *v, gd_move beat);

/* The rank-level move of a card-level move at a level. */
gd_move gd_card_to_rank(uint64_t lo, uint64_t hi, int level);

/* The jokers a rank-level move spends, as the jokers' byte of a gd_cards (small jokers in bits
 * 0-1, big in 2-3): a single or pair of a joker key, a full house's joker pair, the joker bomb. */
static inline unsigned gd_move_jokers(gd_move m) {
    const unsigned type = GD_MOVE_TYPE(m), key = GD_MOVE_KEY(m);
    switch (type) {
    case GD_SINGLE:
    case GD_PAIR: {
        const unsigned c = type == GD_SINGLE ? 1u : 2u;
        return key == GD_KEY_SMALL_JOKER ? c : key == GD_KEY_BIG_JOKER ? c << 2 : 0u;
    }
    case GD_FULL_HOUSE:
        return GD_MOVE_X(m) == 1 ? 2u : GD_MOVE_X(m) == 2 ? 8u : 0u;
    case GD_JOKER_BOMB:
        return 10u;
    default:
        return 0;
    }
}

/* Cards spent by a rank-level move (as gd_move_size, inline): the naturals, the wilds, the jokers. */
static inline unsigned gd_move_cards(gd_move m) {
    const uint64_t x = m & ((1ull << 52) - 1);
    const uint64_t bytes = (x & 0x0F0F0F0F0F0F0F0Full) + ((x >> 4) & 0x0F0F0F0F0F0F0F0Full);
    const unsigned j = gd_move_jokers(m);
    return (unsigned)((bytes * 0x0101010101010101ull) >> 56) + GD_MOVE_WILDS(m) + (j & 3u) + (j >> 2);
}

/* How many cards a packed hand holds: its 2-bit counts summed word-wide (no popcount
 * instruction: a portable build would make it a library call). */
static inline unsigned gd_card_total(const gd_cards *c) {
    uint64_t a = (c->w[0] & 0x3333333333333333ull) + ((c->w[0] >> 2) & 0x3333333333333333ull);
    uint64_t b = (c->w[1] & 0x3333333333333333ull) + ((c->w[1] >> 2) & 0x3333333333333333ull);
    a = (a & 0x0F0F0F0F0F0F0F0Full) + ((a >> 4) & 0x0F0F0F0F0F0F0F0Full);
    b = (b & 0x0F0F0F0F0F0F0F0Full) + ((b >> 4) & 0x0F0F0F0F0F0F0F0Full);
    return (unsigned)(((a + b) * 0x0101010101010101ull) >> 56);
}

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
