/* The native move generator. See gd_core.h for the packed formats.
 *
 * Rank level first: every combination is a set of *groups* (rank, count), each filled
 * with natural cards of that rank and wilds. Responses are generated directly above the
 * play to beat: each generator takes the order value its moves must exceed.
 *
 * The hand is held as nibble words (one 4-bit field per rank), so "the ranks with at least
 * t natural cards" is one add and one mask, and a sequence type's windows are all tested at
 * once: the naturals each window can use are summed lane by lane, then compared with what
 * the window needs less the wilds.
 *
 * Card level expands each rank-level move into the physical faces it can spend, using
 * tables of the sub-multisets of a rank's four suits.
 */
#include "gd_core.h"

#include <string.h>

#if defined(__GNUC__)
#define GD_INLINE static inline __attribute__((always_inline))
#else
#define GD_INLINE static inline
#endif

/* ---- tables --------------------------------------------------------------------------- */

/* The sub-multisets of a rank byte (four suits, 2 bits each) with c cards: how many, and
 * which. At most 19 (c = 4 from two copies of each suit). */
static uint8_t sub_count[256][9];
static uint8_t sub_list[256][9][20]; /* 19 at most, and room to read four at a time */
/* window_nibbles[len][s]: the rank nibbles of the window of len line positions from s. */
static uint64_t window_nibbles[6][14];
/* A 7-bit mask with each bit moved to the bottom of a nibble of its own (bit b to bit 4b). */
static uint64_t spread7[128];
static int initialized;

/* Sequence line: position 0 is the low ace, position p (1..13) is rank p - 1. */
static inline int rank_at(int position) { return position == 0 ? 12 : position - 1; }
static inline int window_start(int key) { return key == 12 ? 0 : key + 1; }

static unsigned byte_sum(unsigned b) { return (b & 3u) + ((b >> 2) & 3u) + ((b >> 4) & 3u) + ((b >> 6) & 3u); }

void gd_init(void) {
    if (initialized) return;
    memset(sub_count, 0, sizeof sub_count);
    for (unsigned b = 0; b < 256; b++) {
        int valid = 1;
        for (int f = 0; f < 4; f++)
            if (((b >> (2 * f)) & 3u) == 3u) valid = 0;
        if (!valid) continue;
        for (unsigned s = 0; s < 256; s++) {
            int inside = 1;
            for (int f = 0; f < 4; f++)
                if (((s >> (2 * f)) & 3u) > ((b >> (2 * f)) & 3u)) inside = 0;
            if (!inside) continue;
            unsigned c = byte_sum(s);
            sub_list[b][c][sub_count[b][c]++] = (uint8_t)s;
        }
    }
    for (int len = 2; len <= 5; len++)
        for (int s = 0; s + len <= 14; s++) {
            uint64_t m = 0;
            for (int p = s; p < s + len; p++) m |= (uint64_t)15 << (4 * rank_at(p));
            window_nibbles[len][s] = m;
        }
    for (unsigned m = 0; m < 128; m++) {
        uint64_t x = 0;
        for (int b = 0; b < 7; b++)
            if ((m >> b) & 1u) x |= (uint64_t)1 << (4 * b);
        spread7[m] = x;
    }
    initialized = 1;
}

/* ---- nibble words ---------------------------------------------------------------------- */

#define ONES13 0x1111111111111ull  /* a 1 in each of the 13 rank nibbles */
#define HIGHS13 0x8888888888888ull /* the top bit of each rank nibble */
#define ONES14 0x11111111111111ull /* a 1 in each of the 14 line nibbles */
#define HIGHS14 0x88888888888888ull
#define NIB(r) ((uint64_t)1 << (4 * (r)))
#define WILD1 ((uint64_t)1 << 52)

/* Rank nibbles (as 1s) holding at least t (1..8) natural cards. */
GD_INLINE uint64_t at_least(uint64_t count, int t) {
    if (t > 8) return 0;
    if (t < 1) t = 1;
    return ((count + (uint64_t)(8 - t) * ONES13) & HIGHS13) >> 3;
}

/* A 13-bit rank mask as rank nibbles (as 1s). */
GD_INLINE uint64_t mask_to_nibbles(unsigned mask) { return spread7[mask & 127u] | spread7[(mask >> 7) & 63u] << 28; }

/* Rank nibbles to line nibbles: rank r to position r + 1, the ace also to position 0. */
GD_INLINE uint64_t to_line(uint64_t nibbles) { return (nibbles << 4) | ((nibbles >> 48) & 15u); }

/* Nibble s of the result: the sum of nibbles s..s+len-1 (no lane overflows here: <= 6). */
GD_INLINE uint64_t window_sums(uint64_t nib, int len) {
    uint64_t sum = nib;
    for (int i = 1; i < len; i++) sum += nib >> (4 * i);
    return sum;
}

GD_INLINE unsigned low_nibble_index(uint64_t m) { return (unsigned)__builtin_ctzll(m) >> 2; }

/* How many line nibbles (as 1s) are set: the multiply sums them all into nibble 13. */
GD_INLINE unsigned count_nibbles(uint64_t ones) { return (unsigned)((ones * ONES14) >> 52) & 15u; }

/* The sum of the 13 rank nibbles of a word (at most 13 * 15). */
GD_INLINE unsigned nibble_sum(uint64_t x) {
    const uint64_t bytes = (x & 0x0F0F0F0F0F0F0F0Full) + ((x >> 4) & 0x0F0F0F0F0F0F0F0Full);
    return (unsigned)((bytes * 0x0101010101010101ull) >> 56);
}

/* The rank nibbles (as 1s) of a nibble word that are not zero. */
GD_INLINE uint64_t nonzero_nibbles(uint64_t x) { return (x | (x >> 1) | (x >> 2) | (x >> 3)) & ONES13; }

/* Iterate the set nibbles (marked by their bit 0) of a nibble mask: var is the nibble index. */
#define FOR_EACH_NIBBLE(var, mask) \
    for (uint64_t _m = (mask), var; _m && ((var = low_nibble_index(_m)), 1); _m &= _m - 1)

/* ---- cards ---------------------------------------------------------------------------- */

/* n (<= 8) bytes as a little-endian word, whatever the machine's byte order. */
GD_INLINE uint64_t load_bytes(const uint8_t *p, int n) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t x = 0;
    memcpy(&x, p, (size_t)n);
    return x;
#else
    uint64_t x = 0;
    for (int i = 0; i < n; i++) x |= (uint64_t)p[i] << (8 * i);
    return x;
#endif
}

/* Two code paths prepare a position: SSE2 (every x86-64 CPU has it) handles 16 bytes, or two
 * words, per instruction; the portable path does the same with 64-bit words. Define
 * GD_PORTABLE to build the portable path on x86-64 too (the test suite compares the two). */
#if defined(__SSE2__) && defined(__x86_64__) && !defined(GD_PORTABLE)
#define GD_SSE2 1
#include <emmintrin.h>
#else
#define GD_SSE2 0
#endif

/* The first count above 2 among 54 read into chunk (the face, its count in *bad_count). */
static int first_bad_count(const uint8_t *chunk, unsigned *bad_count) {
    for (int f = 0; f < GD_FACES; f++)
        if (chunk[f] > 2) {
            *bad_count = chunk[f];
            return f;
        }
    return -1;
}

#if GD_SSE2
/* gd_pack_cards, also giving the bad count: each count is read once, into four registers
 * (the caller's memory may change meanwhile: what is checked must be what is packed, and
 * what an error names). The counts are checked 16 at a time (an unsigned max with 2), and
 * packed by two rounds of "merge the two halves of each 16-bit lane, then narrow the lanes
 * to bytes": 1 face a byte, 2 faces a byte (4 bits each), 4 faces a byte (2 bits each). */
GD_INLINE int pack_counts(const uint8_t *counts, gd_cards *out, unsigned *bad_count) {
    const __m128i a = _mm_loadu_si128((const __m128i *)counts), b = _mm_loadu_si128((const __m128i *)(counts + 16)),
                  c = _mm_loadu_si128((const __m128i *)(counts + 32)),
                  d = _mm_cvtsi64_si128((long long)load_bytes(counts + 48, 6)); /* faces 48..53, then zeros */
    const __m128i two = _mm_set1_epi8(2);
    const __m128i top = _mm_max_epu8(_mm_max_epu8(a, b), _mm_max_epu8(c, d));
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(top, two), two)) != 0xFFFF) {
        uint8_t chunk[64];
        _mm_storeu_si128((__m128i *)chunk, a);
        _mm_storeu_si128((__m128i *)(chunk + 16), b);
        _mm_storeu_si128((__m128i *)(chunk + 32), c);
        _mm_storeu_si128((__m128i *)(chunk + 48), d);
        return first_bad_count(chunk, bad_count);
    }
    const __m128i low4 = _mm_set1_epi16(0x000F), low8 = _mm_set1_epi16(0x00FF);
#define GD_MERGE2(x) _mm_and_si128(_mm_or_si128((x), _mm_srli_epi16((x), 6)), low4) /* 2 faces: 4 bits */
#define GD_MERGE4(x) _mm_and_si128(_mm_or_si128((x), _mm_srli_epi16((x), 4)), low8) /* 4 faces: 8 bits */
    const __m128i ab = _mm_packus_epi16(GD_MERGE2(a), GD_MERGE2(b)), cd = _mm_packus_epi16(GD_MERGE2(c), GD_MERGE2(d));
    const __m128i packed = _mm_packus_epi16(GD_MERGE4(ab), GD_MERGE4(cd));
#undef GD_MERGE2
#undef GD_MERGE4
    _mm_storeu_si128((__m128i *)out->w, packed);
    return -1;
}
#else
/* Eight counts (bytes 0..2) to sixteen bits of 2-bit fields. */
GD_INLINE uint64_t compress_counts(uint64_t x) {
    x = (x | (x >> 6)) & 0x000F000F000F000Full;
    x = (x | (x >> 12)) & 0x000000FF000000FFull;
    return (x | (x >> 24)) & 0xFFFFull;
}

/* Any byte above 2? */
GD_INLINE int over_two(uint64_t x) {
    return (((x & 0x7F7F7F7F7F7F7F7Full) + 0x7D7D7D7D7D7D7D7Dull) | x) & 0x8080808080808080ull ? 1 : 0;
}

/* gd_pack_cards, also giving the bad count: the counts are read once, into chunk[] (the
 * caller's memory may change meanwhile: what is checked must be what is packed, and what an
 * error names). */
GD_INLINE int pack_counts(const uint8_t *counts, gd_cards *out, unsigned *bad_count) {
    uint64_t chunk[7];
    int bad = 0;
    for (int i = 0; i < 6; i++) {
        chunk[i] = load_bytes(counts + 8 * i, 8);
        bad |= over_two(chunk[i]);
    }
    chunk[6] = load_bytes(counts + 48, 6);
    bad |= over_two(chunk[6]);
    if (bad) {
        uint8_t bytes[56];
        for (int f = 0; f < 56; f++) bytes[f] = (uint8_t)(chunk[f >> 3] >> (8 * (f & 7)));
        return first_bad_count(bytes, bad_count);
    }
    out->w[0] = compress_counts(chunk[0]) | compress_counts(chunk[1]) << 16 | compress_counts(chunk[2]) << 32 |
                compress_counts(chunk[3]) << 48;
    out->w[1] = compress_counts(chunk[4]) | compress_counts(chunk[5]) << 16 | compress_counts(chunk[6]) << 32;
    return -1;
}
#endif

int gd_pack_cards(const uint8_t *counts, gd_cards *out) {
    unsigned bad_count;
    return pack_counts(counts, out, &bad_count);
}

void gd_unpack_cards(const gd_cards *cards, uint8_t *counts) {
    for (int f = 0; f < GD_FACES; f++) counts[f] = (uint8_t)gd_face_count(cards, f);
}

/* gd_check_cards on two words: a face with 3 copies has both bits of its field set. */
GD_INLINE int check_words(uint64_t lo, uint64_t hi) {
    const uint64_t three_lo = lo & (lo >> 1) & 0x5555555555555555ull, three_hi = hi & (hi >> 1) & 0x5555555555555555ull;
    if (three_lo) return __builtin_ctzll(three_lo) >> 1;
    if (three_hi & 0xFFFFFFFFFFFull) return 32 + (__builtin_ctzll(three_hi) >> 1);
    if (hi >> 44) return GD_FACES;
    return -1;
}

int gd_check_cards(const gd_cards *cards) { return check_words(cards->w[0], cards->w[1]); }

/* The view of a hand given as two words (valid cards) at a level (rank 0..12): the counts of
 * natural cards per rank and the suits each rank holds naturally, as nibble words. Per rank
 * byte: the sum of its four 2-bit fields, and a bit per suit present; then each is gathered
 * from one byte a rank to one nibble a rank. */
GD_INLINE void view_from(gd_view *v, uint64_t lo, uint64_t hi, int level) {
    const int wild_bit = 8 * (level & 7) + 2 * GD_HEARTS;
    /* the level's hearts are in word 0 or 1: masks, not a branch (the level varies from one
     * position to the next) */
    const uint64_t in_lo = (uint64_t)0 - (uint64_t)(level < 8), wild_field = (uint64_t)3 << wild_bit;
    const uint64_t wild_lo = wild_field & in_lo, wild_hi = wild_field & ~in_lo;
    const uint64_t nat_lo = lo & ~wild_lo, nat_hi = hi & ~wild_hi;
    v->cards.w[0] = lo;
    v->cards.w[1] = hi;
    v->naturals.w[0] = nat_lo;
    v->naturals.w[1] = nat_hi;
    v->level = (uint8_t)level;
    v->wilds = (uint8_t)((((lo & wild_lo) | (hi & wild_hi)) >> wild_bit) & 3u);
    v->small = (uint8_t)((hi >> 40) & 3u);
    v->big = (uint8_t)((hi >> 42) & 3u);
    uint64_t suits;
#if GD_SSE2
    const __m128i n = _mm_set_epi64x((long long)(nat_hi & 0xFFFFFFFFFFull), (long long)nat_lo); /* ranks 0..12 */
    const __m128i m33 = _mm_set1_epi8(0x33), m0f = _mm_set1_epi8(0x0F), m55 = _mm_set1_epi8(0x55),
                  low8 = _mm_set1_epi16(0x00FF);
    __m128i sum = _mm_add_epi64(_mm_and_si128(n, m33), _mm_and_si128(_mm_srli_epi64(n, 2), m33));
    sum = _mm_add_epi64(_mm_and_si128(sum, m0f), _mm_and_si128(_mm_srli_epi64(sum, 4), m0f));
    const __m128i p = _mm_and_si128(_mm_or_si128(n, _mm_srli_epi64(n, 1)), m55); /* bit 2s: suit s present */
    __m128i q = _mm_and_si128(_mm_or_si128(p, _mm_srli_epi64(p, 1)), m33);       /* bits 0, 1, 4, 5 */
    q = _mm_and_si128(_mm_or_si128(q, _mm_srli_epi64(q, 2)), m0f);               /* bits 0..3 */
    /* two nibbles a 16-bit lane, then the lanes narrowed to bytes: one nibble a rank */
    sum = _mm_and_si128(_mm_or_si128(sum, _mm_srli_epi64(sum, 4)), low8);
    q = _mm_and_si128(_mm_or_si128(q, _mm_srli_epi64(q, 4)), low8);
    const __m128i both = _mm_packus_epi16(sum, q);
    v->count = (uint64_t)_mm_cvtsi128_si64(both);
    suits = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(both, both));
    /* each suit's ranks as 13 bits: its present bit moved to the top of each rank byte */
    const uint64_t ranks_of[4] = {(uint64_t)_mm_movemask_epi8(_mm_slli_epi64(p, 7)),
                                  (uint64_t)_mm_movemask_epi8(_mm_slli_epi64(p, 5)),
                                  (uint64_t)_mm_movemask_epi8(_mm_slli_epi64(p, 3)),
                                  (uint64_t)_mm_movemask_epi8(_mm_slli_epi64(p, 1))};
#else
    const uint64_t nat[2] = {nat_lo, nat_hi & 0xFFFFFFFFFFull}; /* ranks 0..12 */
    uint64_t count[2], suit[2];
    for (int i = 0; i < 2; i++) {
        uint64_t w = (nat[i] & 0x3333333333333333ull) + ((nat[i] >> 2) & 0x3333333333333333ull);
        w = (w & 0x0F0F0F0F0F0F0F0Full) + ((w >> 4) & 0x0F0F0F0F0F0F0F0Full);
        const uint64_t p = (nat[i] | (nat[i] >> 1)) & 0x5555555555555555ull; /* bit 2s: suit s present */
        uint64_t q = (p | (p >> 1)) & 0x3333333333333333ull;                 /* bits 0, 1, 4, 5 */
        q = (q | (q >> 2)) & 0x0F0F0F0F0F0F0F0Full;                          /* bits 0..3 */
        /* bytes to nibbles */
        w = (w | (w >> 4)) & 0x00FF00FF00FF00FFull;
        w = (w | (w >> 8)) & 0x0000FFFF0000FFFFull;
        q = (q | (q >> 4)) & 0x00FF00FF00FF00FFull;
        q = (q | (q >> 8)) & 0x0000FFFF0000FFFFull;
        count[i] = (w | (w >> 16)) & 0xFFFFFFFFull;
        suit[i] = (q | (q >> 16)) & 0xFFFFFFFFull;
    }
    v->count = count[0] | count[1] << 32;
    suits = suit[0] | suit[1] << 32;
    uint64_t ranks_of[4];
    for (int s = 0; s < 4; s++) { /* suit s's ranks as 13 bits: bits 4r gathered */
        uint64_t x = (suits >> s) & ONES13;
        x = (x | (x >> 3)) & 0x0303030303030303ull;
        x = (x | (x >> 6)) & 0x000F000F000F000Full;
        x = (x | (x >> 12)) & 0x000000FF000000FFull;
        ranks_of[s] = (x | (x >> 24)) & 0xFFFFull;
    }
#endif
    /* per rank: bit s set if suit s has a natural; all four suits of a rank in its nibble */
    for (int s = 0; s < 4; s++) v->suit_nib[s] = (suits >> s) & ONES13;
    /* per suit, 16 bits: the line positions held (the ace also at position 0) */
    uint64_t lines = 0;
    for (int s = 0; s < 4; s++) lines |= ((ranks_of[s] << 1) | ((ranks_of[s] >> 12) & 1u)) << (16 * s);
    v->suit_lines = lines;
}

void gd_view_init(gd_view *v, const gd_cards *cards, int level) { view_from(v, cards->w[0], cards->w[1], level); }

/* The rest of preparing a position whose level and hand are checked: the play to beat, then
 * the view of the hand's (checked) words. */
GD_INLINE int prepare_checked(const gd_cards *hand, int level, gd_move beat, gd_view *v, int *detail) {
    const int code = gd_check_move(beat);
    if (code) {
        *detail = code;
        return GD_POSITION_BEAT;
    }
    view_from(v, hand->w[0], hand->w[1], level - 2);
    return GD_POSITION_OK;
}

int gd_prepare(const uint8_t *counts, int level, gd_move beat, gd_view *v, int *detail) {
    gd_cards packed = {{0, 0}};
    if (level < 2 || level > 14) return GD_POSITION_LEVEL;
    unsigned bad_count = 0;
    const int bad = pack_counts(counts, &packed, &bad_count);
    if (bad >= 0) {
        *detail = GD_COUNTS_DETAIL(bad, bad_count);
        return GD_POSITION_COUNTS;
    }
    return prepare_checked(&packed, level, beat, v, detail);
}

int gd_prepare_packed(const gd_cards *cards, int level, gd_move beat, gd_view *v, int *detail) {
    gd_cards packed;
    memcpy(&packed, cards, sizeof packed); /* read once: only this copy is checked and used */
    if (level < 2 || level > 14) return GD_POSITION_LEVEL;
    const int bad = check_words(packed.w[0], packed.w[1]);
    if (bad >= 0) {
        *detail = bad;
        return GD_POSITION_PACKED;
    }
    return prepare_checked(&packed, level, beat, v, detail);
}

/* ---- order ---------------------------------------------------------------------------- */

/* Elevated order of a key: ranks below the level keep their place, ranks above move down
 * one, the level is 12, the jokers 13 and 14. */
GD_INLINE int elevated(int key, int level) {
    if (key >= 13) return key;
    if (key == level) return 12;
    return key < level ? key : key - 1;
}

/* The rank nibbles (as 1s) whose elevated order is above `above` (-1: all). */
GD_INLINE uint64_t ranks_above(int above, int level) {
    if (above < 0) return ONES13;
    if (above >= 12) return 0;
    /* orders 0..11 are the ranks other than the level, in natural order */
    unsigned natural = above < level ? (0x1FFFu << (above + 1)) : (0x1FFFu << (above + 2));
    return mask_to_nibbles((natural | (1u << level)) & 0x1FFFu);
}

/* 4 cards < 5 cards < straight flush < 6 < 7 < 8 < 9 < 10 cards < joker bomb. */
GD_INLINE int bomb_class(int size) { return size <= 5 ? size - 4 : size - 3; }
#define GD_CLASS_STRAIGHT_FLUSH 2
#define GD_CLASS_JOKER_BOMB 8

/* ---- rank level ------------------------------------------------------------------------ */

/* Each generator writes to out unless out is NULL (then it only counts), and returns the
 * new count. They are inlined into the two entry points, so the NULL tests vanish. The
 * buffer always has room for a few more moves than the final count (GD_MAX_RANK_MOVES is far
 * above any position's count), so EMIT_IF may store before it knows whether to keep, and a
 * group of up to three moves is stored whole before counting those kept. */
#define EMIT(m)                       \
    do {                              \
        if (out) out[n] = (m);        \
        n++;                          \
    } while (0)
#define EMIT_IF(cond, m)              \
    do {                              \
        if (out) out[n] = (m);        \
        n += (cond) ? 1 : 0;          \
    } while (0)

#define N_OF(v, r) ((int)(((v)->count >> (4 * (r))) & 15u))

/* The ranks that can make a group of g cards: at least one natural and the wilds to fill
 * the rest, or the level rank, whose wilds are its own cards. */
GD_INLINE uint64_t group_candidates(const gd_view *v, int g) {
    uint64_t c = at_least(v->count, g - v->wilds);
    if (N_OF(v, v->level) + v->wilds >= g) c |= NIB(v->level);
    return c;
}

/* How many wilds a group of g cards of rank r may use: *lo .. *hi (the naturals fill the
 * rest; at least one natural unless r is the level rank, whose wilds are its own cards). */
GD_INLINE void group_wilds(const gd_view *v, int r, int g, int *lo, int *hi) {
    const int have = N_OF(v, r);
    *lo = g - have > 0 ? g - have : 0;
    *hi = g - (r != v->level);
    if (*hi > v->wilds) *hi = v->wilds;
}

/* Every way to make a group of g cards of rank r, as moves of a type (single, pair, triple,
 * bomb). */
GD_INLINE size_t emit_groups(const gd_view *v, int type, int r, int g, gd_move *out, size_t n) {
    int lo, hi;
    group_wilds(v, r, g, &lo, &hi);
    if (!out) return n + (size_t)(hi - lo + 1);
    /* each next move: one wild more, one natural fewer; at most three (wilds <= 2), written
     * whether kept or not, so that no branch depends on how many */
    const gd_move m = GD_DECL(type, r, 0, lo) | (uint64_t)(g - lo) << (4 * r), step = WILD1 - NIB(r);
    out[n] = m;
    out[n + 1] = m + step;
    out[n + 2] = m + 2 * step;
    return n + (size_t)(hi - lo + 1);
}

/* Groups of g cards of one rank (single, pair, triple, bomb of g) with elevated order above
 * `above`. */
GD_INLINE size_t gen_sets(const gd_view *v, int type, int g, int above, gd_move *out, size_t n) {
    const uint64_t allowed = ranks_above(above, v->level);
    if (!out) {
        /* A rank with `have` naturals makes a group with j wilds, for each j <= min(wilds,
         * g - 1) with have >= g - j; the level rank also of g wilds alone. Counted for all
         * ranks at once, one wild count at a time. */
        const int most = v->wilds < g - 1 ? v->wilds : g - 1;
        for (int j = 0; j <= most; j++) n += count_nibbles(at_least(v->count, g - j) & allowed);
        return n + (v->wilds >= g && ((allowed >> (4 * v->level)) & 1u));
    }
    if (!v->wilds) { /* one move a rank: the ranks with g naturals */
        const gd_move decl = GD_DECL(type, 0, 0, 0);
        FOR_EACH_NIBBLE(r, at_least(v->count, g) & allowed) out[n++] = decl | r << 56 | (uint64_t)g << (4 * r);
        return n;
    }
    FOR_EACH_NIBBLE(r, group_candidates(v, g) & allowed) n = emit_groups(v, type, (int)r, g, out, n);
    return n;
}

GD_INLINE size_t gen_joker_sets(const gd_view *v, int type, int g, int above, gd_move *out, size_t n) {
    if (v->small >= g && GD_KEY_SMALL_JOKER > above) EMIT(GD_DECL(type, GD_KEY_SMALL_JOKER, 0, 0));
    if (v->big >= g && GD_KEY_BIG_JOKER > above) EMIT(GD_DECL(type, GD_KEY_BIG_JOKER, 0, 0));
    return n;
}

GD_INLINE size_t gen_full_houses(const gd_view *v, int above, gd_move *out, size_t n) {
    const int level = v->level, w = v->wilds;
    /* the pairs, by the wilds they use: two naturals; a natural and a wild; two wilds (the
     * level pair). upto[j]: how many use at most j wilds. */
    const uint64_t with[3] = {at_least(v->count, 2), w >= 1 ? at_least(v->count, 1) : 0, w >= 2 ? NIB(level) : 0};
    const uint64_t allowed = ranks_above(above, level);
    if (!out) {
        /* The triples with jt wilds are the ranks with at least 3 - jt naturals (jt <= 2, and
         * the wilds); each takes every pair using at most the wilds left, but those of its own
         * rank, or a joker pair. Counted for all ranks at once. */
        const unsigned jokers = (v->small == 2) + (v->big == 2);
        for (int jt = 0; jt <= w && jt <= 2; jt++) {
            const uint64_t triples = at_least(v->count, 3 - jt) & allowed;
            const unsigned t = count_nibbles(triples);
            n += t * jokers;
            for (int j = 0; j <= w - jt; j++) n += t * count_nibbles(with[j]) - count_nibbles(triples & with[j]);
        }
        return n;
    }
    /* the pairs, by the wilds they use, rank by rank within each: upto[j] use at most j wilds */
    gd_move pair[GD_RANKS * 2 + 1];
    uint8_t pair_rank[GD_RANKS * 2 + 1];
    unsigned upto[3], np = 0;
    for (int j = 0; j <= 2; j++) {
        FOR_EACH_NIBBLE(p, with[j]) {
            pair[np] = (uint64_t)(2 - j) << (4 * p) | (uint64_t)j << 52;
            pair_rank[np++] = (uint8_t)p;
        }
        upto[j] = np;
    }
    FOR_EACH_NIBBLE(t, group_candidates(v, 3) & allowed) {
        int lo, hi;
        group_wilds(v, (int)t, 3, &lo, &hi);
        for (int jt = lo; jt <= hi; jt++) {
            const unsigned count = upto[w - jt];
            const gd_move base = GD_DECL(GD_FULL_HOUSE, t, 0, jt) | (uint64_t)(3 - jt) << (4 * t);
            /* every pair using at most the wilds left but those of t's own rank: one loop of the
             * same length for every triple (no branch to mispredict), each kept or not */
            for (unsigned i = 0; i < count; i++) EMIT_IF(pair_rank[i] != t, base + pair[i]);
            if (v->small == 2) EMIT(base | (uint64_t)1 << 54);
            if (v->big == 2) EMIT(base | (uint64_t)2 << 54);
        }
    }
    return n;
}

/* The starts (line nibbles as 1s) above `above` of the windows of len positions that lack at
 * most the wilds of the `need` cards they take, given the naturals each rank can give
 * (`capped`, rank nibbles); *sums gets every window's sum of those naturals. */
GD_INLINE uint64_t feasible_windows(const gd_view *v, uint64_t capped, int len, int need, int above, uint64_t *sums) {
    *sums = window_sums(to_line(capped), len);
    /* sum >= need - wilds, tested in every lane */
    uint64_t feasible = ((*sums + (uint64_t)(8 - (need - v->wilds)) * ONES14) & HIGHS14) >> 3;
    feasible &= ONES14 >> (4 * (14 - (15 - len))); /* starts 0 .. 14 - len */
    return feasible & ~((uint64_t)0) << (4 * (above + 1));
}

/* Windows of len line positions with k cards each, starting above a window position.
 * `have[t]` (t = 1..k): rank nibbles (as 1s) holding at least t usable naturals; the
 * naturals a window uses at a rank are min(have, k). A window takes its missing cards from
 * the wilds; wilds to spare may then stand in for naturals, one per natural card used, in
 * every combination. */
GD_INLINE size_t gen_windows(const gd_view *v, const uint64_t *have, int type, int len, int k, int x, int above,
                             gd_move *out, size_t n) {
    const int w = v->wilds, need = k * len;
    uint64_t capped = have[1], sums;
    for (int t = 2; t <= k; t++) capped += have[t];
    const uint64_t feasible = feasible_windows(v, capped, len, need, above, &sums);
    if (!feasible) return n;
    const uint64_t line1 = to_line(have[1]), line2 = k >= 2 ? to_line(have[2]) : 0;
    if (!out) {
        /* per window: q positions can give up one natural to a spare wild, d of them a second */
        if (!w) return n + count_nibbles(feasible);
        const uint64_t q_sums = window_sums(line1, len), d_sums = k >= 2 && w >= 2 ? window_sums(line2, len) : 0;
        FOR_EACH_NIBBLE(s, feasible) {
            const int spare = w - (need - (int)((sums >> (4 * s)) & 15u));
            const unsigned q = spare ? (unsigned)(q_sums >> (4 * s)) & 15u : 0;
            const unsigned d = spare >= 2 ? (unsigned)(d_sums >> (4 * s)) & 15u : 0;
            n += 1 + q + (spare >= 2 ? q * (q - 1) / 2 + d : 0);
        }
        return n;
    }
    FOR_EACH_NIBBLE(s, feasible) {
        const int missing = need - (int)((sums >> (4 * s)) & 15u);
        const int spare = w - missing;
        const gd_move base = GD_DECL(type, rank_at((int)s), x, missing) | (capped & window_nibbles[len][s]);
        EMIT(base);
        if (!spare) continue;
        const uint64_t window = (((uint64_t)1 << (4 * len)) - 1) << (4 * s);
        const uint64_t once = line1 & window, twice = line2 & window;
        FOR_EACH_NIBBLE(p, once) {
            const gd_move one = base - NIB(rank_at((int)p)) + WILD1;
            EMIT(one);
            if (spare < 2) continue;
            if ((twice >> (4 * p)) & 1u) EMIT(one - NIB(rank_at((int)p)) + WILD1);
            FOR_EACH_NIBBLE(p2, once & (~(uint64_t)0 << (4 * p + 4))) EMIT(one - NIB(rank_at((int)p2)) + WILD1);
        }
    }
    return n;
}

GD_INLINE size_t gen_sequences(const gd_view *v, int type, int len, int k, int above, gd_move *out, size_t n) {
    const uint64_t have[4] = {0, at_least(v->count, 1), k >= 2 ? at_least(v->count, 2) : 0,
                              k >= 3 ? at_least(v->count, 3) : 0};
    return gen_windows(v, have, type, len, k, 0, above, out, n);
}

/* Straight flushes, all four suits at once: lane s (16 bits) of v->suit_lines marks the line
 * positions where suit s has a natural, so the five shifted copies of the lines, added bit by
 * bit (two full adders: count = s2 + 2 (c1 + c2)), give every window's naturals in every suit.
 * A window is feasible when they reach 5 less the wilds. Windows start above the line
 * position `above`, suit by suit, each as gen_windows makes it. */
GD_INLINE size_t gen_straight_flushes(const gd_view *v, int above, gd_move *out, size_t n) {
    const int w = v->wilds;
    const uint64_t a0 = v->suit_lines, a1 = a0 >> 1, a2 = a0 >> 2, a3 = a0 >> 3, a4 = a0 >> 4;
    const uint64_t x1 = a0 ^ a1, s1 = x1 ^ a2, c1 = (a0 & a1) | (a2 & x1);
    const uint64_t x2 = s1 ^ a3, s2 = x2 ^ a4, c2 = (s1 & a3) | (a4 & x2);
    const uint64_t four = c1 & c2; /* count 4 or 5 */
    uint64_t feasible = w == 0 ? four & s2 : w == 1 ? four : four | ((c1 ^ c2) & s2);
    /* starts 0..9 of each lane, above `above` */
    feasible &= (uint64_t)((0x3FFu << (above + 1)) & 0x3FFu) * 0x0001000100010001ull;
    if (!feasible) return n;
    for (uint64_t f = feasible; f; f &= f - 1) {
        const unsigned bit = (unsigned)__builtin_ctzll(f), suit = bit >> 4, start = bit & 15u;
        const unsigned present = (unsigned)(a0 >> bit) & 31u; /* the window's positions held */
        const int q = (int)(((s2 >> bit) & 1u) + 2 * (((c1 ^ c2) >> bit) & 1u) + 4 * ((four >> bit) & 1u));
        const int spare = w - (5 - q);
        if (!out) {
            n += 1 + (spare >= 1 ? (size_t)q : 0) + (spare >= 2 ? (size_t)(q * (q - 1) / 2) : 0);
            continue;
        }
        const gd_move base = GD_DECL(GD_STRAIGHT_FLUSH, rank_at((int)start), suit, 5 - q) |
                             (v->suit_nib[suit] & window_nibbles[5][start]);
        EMIT(base);
        if (spare <= 0) continue;
        for (unsigned m = present; m; m &= m - 1) {
            const int p = (int)start + __builtin_ctz(m);
            const gd_move one = base - NIB(rank_at(p)) + WILD1;
            EMIT(one);
            if (spare < 2) continue;
            for (unsigned m2 = m & (m - 1); m2; m2 &= m2 - 1)
                EMIT(one - NIB(rank_at((int)start + __builtin_ctz(m2))) + WILD1);
        }
    }
    return n;
}

/* The sizes of rank r's bombs (a candidate for a group of 4) stronger than (class, key order):
 * *first .. the size returned. A rank makes bombs of 4 .. naturals + wilds (at most 10) cards;
 * the class grows with the size. */
GD_INLINE int bomb_sizes(const gd_view *v, int r, int above_class, int above_key, int *first) {
    const int have = N_OF(v, r), most = have + v->wilds > 10 ? 10 : have + v->wilds;
    int g = 4;
    if (above_class > 0 || above_key >= 0) {
        const int order = elevated(r, v->level);
        while (g <= most && (bomb_class(g) < above_class || (bomb_class(g) == above_class && order <= above_key)))
            g++;
    }
    *first = g;
    return most;
}

/* The rank bombs of GD_BOMB_SEGMENTS, rank by rank, each by size (bomb_sizes). */
GD_INLINE size_t gen_rank_bombs(const gd_view *v, int above_class, int above_key, gd_move *out, size_t n) {
    const int w = v->wilds;
    FOR_EACH_NIBBLE(r, group_candidates(v, 4)) {
        const int have = N_OF(v, r);
        int g;
        const int most = bomb_sizes(v, (int)r, above_class, above_key, &g);
        if (!out) {
            for (; g <= most; g++) n += (size_t)(w - (g - have > 0 ? g - have : 0) + 1);
            continue;
        }
        /* a bomb of g cards may take 0 .. all the wilds (g >= 4 > wilds), and needs g - wilds
         * naturals: each next move one wild more, one natural fewer */
        const gd_move decl = GD_DECL(GD_BOMB, r, 0, 0), step = WILD1 - NIB(r);
        for (; g <= most; g++) {
            const int j = g - have > 0 ? g - have : 0;
            const gd_move m = decl | (uint64_t)j << 52 | (uint64_t)(g - j) << (4 * r);
            out[n] = m; /* j .. wilds: at most three, written whether kept or not (no branch) */
            out[n + 1] = m + step;
            out[n + 2] = m + 2 * step;
            n += (size_t)(w - j + 1);
        }
    }
    return n;
}

/* The rank bombs stronger than (class, key order), as gen_rank_bombs makes them; every rank
 * bomb counted for all ranks at once. */
GD_INLINE size_t gen_bombs_of_ranks(const gd_view *v, int above_class, int above_key, gd_move *out, size_t n) {
    if (out || above_class > 0 || above_key >= 0) return gen_rank_bombs(v, above_class, above_key, out, n);
    /* with j wilds, a rank with `have` naturals makes one bomb of each size 4 .. have + j (<= 10),
     * max(0, have + j - 3) */
    uint64_t bytes = 0;
    for (int j = 0; j <= v->wilds; j++) {
        const uint64_t x = v->count + (uint64_t)j * ONES13;        /* <= 10 a lane */
        const uint64_t big = ((x + 4 * ONES13) & HIGHS13) >> 3;    /* lanes with x >= 4 */
        const uint64_t y = (x & (big * 15)) - 3 * big;
        bytes += (y & 0x0F0F0F0F0F0F0F0Full) + ((y >> 4) & 0x0F0F0F0F0F0F0F0Full);
    }
    return n + (size_t)((bytes * 0x0101010101010101ull) >> 56);
}

GD_INLINE size_t gen_joker_bomb(const gd_view *v, gd_move *out, size_t n) {
    if (v->small == 2 && v->big == 2) EMIT(GD_DECL(GD_JOKER_BOMB, GD_KEY_NONE, 0, 0));
    return n;
}

GD_INLINE size_t gen_pass(const gd_view *v, gd_move *out, size_t n) {
    (void)v;
    EMIT(GD_PASS_MOVE);
    return n;
}

/* The legal rank-level moves of a position as a list of *segments*, in the order gd_rank_moves
 * lists them: SEG(gen, args...) stands for the generator call gen(args..., out, n). A lead:
 * singles, pairs, triples (each followed by the joker ones), full houses, straights, pair runs,
 * triple runs; a response: the combinations of the play's type above it; then the bombs
 * stronger than the play (rank bombs by size then elevated rank, straight flushes by window,
 * the joker bomb above all: GD_BOMB_SEGMENTS, the bombs beating (class, key order)); then,
 * when responding, the pass. for_cards leaves out the full houses, the straights and the pass
 * (the card level makes them directly, the pass last). */
#define GD_BOMB_SEGMENTS(v, cls, key, SEG)                                               \
    do {                                                                                 \
        if ((cls) < GD_CLASS_JOKER_BOMB) SEG(gen_bombs_of_ranks, v, cls, key);           \
        if ((cls) <= GD_CLASS_STRAIGHT_FLUSH)                                            \
            SEG(gen_straight_flushes, v, (cls) == GD_CLASS_STRAIGHT_FLUSH ? (key) : -1); \
        if ((cls) < GD_CLASS_JOKER_BOMB) SEG(gen_joker_bomb, v);                         \
    } while (0)

#define GD_SEGMENTS(v, beat, for_cards, SEG)                                                         \
    do {                                                                                             \
        const unsigned type_ = GD_MOVE_TYPE(beat), key_ = GD_MOVE_KEY(beat);                         \
        switch (type_) {                                                                             \
        case GD_PASS: /* a lead: everything */                                                       \
            SEG(gen_sets, v, GD_SINGLE, 1, -1);                                                      \
            SEG(gen_joker_sets, v, GD_SINGLE, 1, -1);                                                \
            SEG(gen_sets, v, GD_PAIR, 2, -1);                                                        \
            SEG(gen_joker_sets, v, GD_PAIR, 2, -1);                                                  \
            SEG(gen_sets, v, GD_TRIPLE, 3, -1);                                                      \
            if (!(for_cards)) SEG(gen_full_houses, v, -1);                                           \
            if (!(for_cards)) SEG(gen_sequences, v, GD_STRAIGHT, 5, 1, -1);                          \
            SEG(gen_sequences, v, GD_PAIR_RUN, 3, 2, -1);                                            \
            SEG(gen_sequences, v, GD_TRIPLE_RUN, 2, 3, -1);                                          \
            GD_BOMB_SEGMENTS(v, 0, -1, SEG);                                                         \
            break;                                                                                   \
        case GD_SINGLE:                                                                              \
            SEG(gen_sets, v, GD_SINGLE, 1, elevated((int)key_, (v)->level));                         \
            SEG(gen_joker_sets, v, GD_SINGLE, 1, elevated((int)key_, (v)->level));                   \
            GD_BOMB_SEGMENTS(v, 0, -1, SEG);                                                         \
            break;                                                                                   \
        case GD_PAIR:                                                                                \
            SEG(gen_sets, v, GD_PAIR, 2, elevated((int)key_, (v)->level));                           \
            SEG(gen_joker_sets, v, GD_PAIR, 2, elevated((int)key_, (v)->level));                     \
            GD_BOMB_SEGMENTS(v, 0, -1, SEG);                                                         \
            break;                                                                                   \
        case GD_TRIPLE:                                                                              \
            SEG(gen_sets, v, GD_TRIPLE, 3, elevated((int)key_, (v)->level));                         \
            GD_BOMB_SEGMENTS(v, 0, -1, SEG);                                                         \
            break;                                                                                   \
        case GD_FULL_HOUSE:                                                                          \
            if (!(for_cards)) SEG(gen_full_houses, v, elevated((int)key_, (v)->level));              \
            GD_BOMB_SEGMENTS(v, 0, -1, SEG);                                                         \
            break;                                                                                   \
        case GD_STRAIGHT:                                                                            \
            if (!(for_cards)) SEG(gen_sequences, v, GD_STRAIGHT, 5, 1, window_start((int)key_));     \
            GD_BOMB_SEGMENTS(v, 0, -1, SEG);                                                         \
            break;                                                                                   \
        case GD_PAIR_RUN:                                                                            \
            SEG(gen_sequences, v, GD_PAIR_RUN, 3, 2, window_start((int)key_));                       \
            GD_BOMB_SEGMENTS(v, 0, -1, SEG);                                                         \
            break;                                                                                   \
        case GD_TRIPLE_RUN:                                                                          \
            SEG(gen_sequences, v, GD_TRIPLE_RUN, 2, 3, window_start((int)key_));                     \
            GD_BOMB_SEGMENTS(v, 0, -1, SEG);                                                         \
            break;                                                                                   \
        case GD_BOMB:                                                                                \
            GD_BOMB_SEGMENTS(v, bomb_class((int)(GD_MOVE_NIBBLE(beat, key_) + GD_MOVE_WILDS(beat))), \
                             elevated((int)key_, (v)->level), SEG);                                  \
            break;                                                                                   \
        case GD_STRAIGHT_FLUSH:                                                                      \
            GD_BOMB_SEGMENTS(v, GD_CLASS_STRAIGHT_FLUSH, window_start((int)key_), SEG);              \
            break;                                                                                   \
        default: /* the joker bomb: nothing beats it */                                              \
            break;                                                                                   \
        }                                                                                            \
        if (!(for_cards) && type_ != GD_PASS) SEG(gen_pass, v);                                      \
    } while (0)

/* All legal rank-level moves, the pass last when responding (see GD_SEGMENTS). */
GD_INLINE size_t generate(const gd_view *v, gd_move beat, gd_move *out, const int for_cards) {
    size_t n = 0;
#define SEG(gen, ...) n = gen(__VA_ARGS__, out, n)
    GD_SEGMENTS(v, beat, for_cards, SEG);
#undef SEG
    return n;
}

size_t gd_rank_moves(const gd_view *v, gd_move beat, gd_move *out) { return generate(v, beat, out, 0); }

size_t gd_count_rank_moves(const gd_view *v, gd_move beat) { return generate(v, beat, NULL, 0); }

size_t gd_count_rank_moves_by_kind(const gd_view *v, gd_move beat, gd_move_kinds *kinds) {
    size_t total = 0;
    unsigned k = 0;
#define SEG(gen, ...) total += kinds->count[k++] = (uint32_t)gen(__VA_ARGS__, NULL, 0)
    GD_SEGMENTS(v, beat, 0, SEG);
#undef SEG
    kinds->segments = k;
    return total;
}

gd_move gd_rank_move_at(const gd_view *v, gd_move beat, const gd_move_kinds *kinds, size_t i) {
    gd_move buf[GD_MAX_RANK_MOVES];
    unsigned k = 0;
#define SEG(gen, ...)                                       \
    do {                                                    \
        if (i < kinds->count[k]) {                          \
            gen(__VA_ARGS__, buf, 0);          \
            return buf[i];                                  \
        }                                                   \
        i -= kinds->count[k++];                             \
    } while (0)
    GD_SEGMENTS(v, beat, 0, SEG);
#undef SEG
    return GD_PASS_MOVE; /* i is not below the count */
}

/* ---- card level ------------------------------------------------------------------------ */

/* A rank's byte placed in the two words of a packed card set. */
GD_INLINE void add_byte(uint64_t *w, int r, unsigned b) { w[r >> 3] += (uint64_t)b << (8 * (r & 7)); }

/* The physical choices of each rank of a hand: for c natural cards of rank r, the sub-bytes
 * of its natural faces (choices[r][c], count[r][c] of them). */
typedef struct card_choices {
    const uint8_t (*choices[GD_RANKS])[20];
    const uint8_t *count[GD_RANKS];
} card_choices;

static void card_choices_init(card_choices *cc, const gd_view *v) {
    for (int r = 0; r < GD_RANKS; r++) {
        const unsigned b = gd_rank_byte(&v->naturals, r);
        cc->choices[r] = sub_list[b];
        cc->count[r] = sub_count[b];
    }
}

#define STORE(o, w0, w1) ((o)[0] = (w0), (o)[1] = (w1))

/* Store the sum of two packed card sets, word by word: one 128-bit add where the compiler has
 * vector types (the words never carry into each other). */
#if defined(__GNUC__)
typedef uint64_t gd_words __attribute__((vector_size(16)));
GD_INLINE void store_sum(uint64_t *o, const uint64_t *a, const uint64_t *b) {
    gd_words x, y;
    memcpy(&x, a, sizeof x);
    memcpy(&y, b, sizeof y);
    x += y;
    memcpy(o, &x, sizeof x);
}
#else
GD_INLINE void store_sum(uint64_t *o, const uint64_t *a, const uint64_t *b) { STORE(o, a[0] + b[0], a[1] + b[1]); }
#endif

/* The physical ways to spend a move of two to five ranks (pair runs, triple runs), its
 * declaration and wilds already in base: two ranks nest; more combine odometer-style with
 * partial sums, the two ranks with the most choices innermost as one flat run. Writes while
 * it fits in cap, returns the new count (n + the ways, written or not). */
static size_t expand_ranks(const card_choices *cc, gd_move m, uint64_t naturals, uint64_t *base, uint64_t *out,
                           size_t cap, size_t n) {
    /* each rank's choices: sub-bytes of the rank's natural faces, placed at (word, shift) */
    const uint8_t *choice[5];
    unsigned count[5], word[5], shift[5], len = 0;
    size_t total = 1;
    FOR_EACH_NIBBLE(r, naturals) {
        const unsigned c = GD_MOVE_NIBBLE(m, r);
        choice[len] = cc->choices[r][c];
        count[len] = cc->count[r][c];
        word[len] = (unsigned)r >> 3;
        shift[len] = 8 * ((unsigned)r & 7);
        total *= count[len];
        len++;
    }
    if (n + total > cap) return n + total; /* no room: count only */
    uint64_t *o = out + 2 * n;
    if (len == 2) {
        for (unsigned i = 0; i < count[0]; i++) {
            uint64_t w[2] = {base[0], base[1]};
            w[word[0]] += (uint64_t)choice[0][i] << shift[0];
            if (word[1] == 0)
                for (unsigned j = 0; j < count[1]; j++, o += 2) STORE(o, w[0] + ((uint64_t)choice[1][j] << shift[1]), w[1]);
            else
                for (unsigned j = 0; j < count[1]; j++, o += 2) STORE(o, w[0], w[1] + ((uint64_t)choice[1][j] << shift[1]));
        }
        return n + total;
    }
    /* three to five ranks: the two with the most choices are combined into one flat run
     * (their product, listed once); the others turn odometer-style with partial sums */
    for (unsigned k = 0; k < 2; k++) {
        const unsigned slot = len - 1 - k;
        unsigned most = slot;
        for (unsigned i = 0; i < slot; i++)
            if (count[i] > count[most]) most = i;
        if (most != slot) {
            const uint8_t *tc = choice[most];
            unsigned t;
            choice[most] = choice[slot], choice[slot] = tc;
            t = count[most], count[most] = count[slot], count[slot] = t;
            t = word[most], word[most] = word[slot], word[slot] = t;
            t = shift[most], shift[most] = shift[slot], shift[slot] = t;
        }
    }
    const unsigned outer = len - 2;
    if (total == (size_t)count[outer] * count[outer + 1]) {
        /* the other ranks have one choice each: fold them into the base, two nested loops */
        for (unsigned i = 0; i < outer; i++) base[word[i]] += (uint64_t)choice[i][0] << shift[i];
        for (unsigned i = 0; i < count[outer]; i++) {
            uint64_t w[2] = {base[0], base[1]};
            w[word[outer]] += (uint64_t)choice[outer][i] << shift[outer];
            const unsigned lw = word[outer + 1], ls = shift[outer + 1];
            for (unsigned j = 0; j < count[outer + 1]; j++, o += 2) {
                STORE(o, w[0], w[1]);
                o[lw] += (uint64_t)choice[outer + 1][j] << ls;
            }
        }
        return n + total;
    }
    uint64_t run[19 * 19][2];
    unsigned runs = 0;
    for (unsigned i = 0; i < count[outer]; i++)
        for (unsigned j = 0; j < count[outer + 1]; j++, runs++) {
            run[runs][0] = run[runs][1] = 0;
            run[runs][word[outer]] += (uint64_t)choice[outer][i] << shift[outer];
            run[runs][word[outer + 1]] += (uint64_t)choice[outer + 1][j] << shift[outer + 1];
        }
    /* part[i]: the base plus the choices of ranks 0..i-1 */
    uint64_t part[5][2];
    unsigned idx[5] = {0, 0, 0, 0, 0};
    part[0][0] = base[0];
    part[0][1] = base[1];
    for (unsigned i = 0; i < outer; i++) {
        part[i + 1][0] = part[i][0];
        part[i + 1][1] = part[i][1];
        part[i + 1][word[i]] += (uint64_t)choice[i][0] << shift[i];
    }
    for (;;) {
        for (unsigned i = 0; i < runs; i++, o += 2) store_sum(o, part[outer], run[i]);
        /* advance the odometer, innermost first */
        int i = (int)outer - 1;
        while (i >= 0 && ++idx[i] == count[i]) idx[i--] = 0;
        if (i < 0) return n + total;
        for (unsigned j = (unsigned)i; j < outer; j++) {
            part[j + 1][0] = part[j][0];
            part[j + 1][1] = part[j][1];
            part[j + 1][word[j]] += (uint64_t)choice[j][idx[j]] << shift[j];
        }
    }
}

/* Every physical way to spend a rank-level move other than a full house or a straight (the
 * card level makes those directly): writes while it fits in cap, returns the new count (n +
 * the ways, written or not). Moves of one way (jokers and wilds only, straight flushes) and
 * of one rank (most moves) are done here, inline; longer ones by expand_ranks. */
GD_INLINE size_t expand(const gd_view *v, const card_choices *cc, gd_move m, uint64_t *out, size_t cap, size_t n) {
    uint64_t base[2] = {0, m & GD_DECL_MASK};
    add_byte(base, v->level, GD_MOVE_WILDS(m) << (2 * GD_HEARTS));
    const uint64_t naturals = nonzero_nibbles(m & ((1ull << 52) - 1));
    if (!naturals || GD_MOVE_TYPE(m) == GD_STRAIGHT_FLUSH) { /* one way: jokers and wilds, or a suit's run */
        const unsigned suit = GD_MOVE_X(m);
        add_byte(base, 13, gd_move_jokers(m));
        FOR_EACH_NIBBLE(r, naturals) add_byte(base, (int)r, 1u << (2 * suit));
        if (n < cap) STORE(out + 2 * n, base[0], base[1]);
        return n + 1;
    }
    if (!(naturals & (naturals - 1))) { /* one rank: singles, pairs, triples, bombs */
        const unsigned r = low_nibble_index(naturals), c = GD_MOVE_NIBBLE(m, r), k = cc->count[r][c];
        if (n + k > cap) return n + k;
        const uint8_t *ch = cc->choices[r][c];
        const unsigned sh = 8 * (r & 7);
        uint64_t *o = out + 2 * n;
        if (r < 8)
            for (unsigned i = 0; i < k; i++, o += 2) STORE(o, base[0] + ((uint64_t)ch[i] << sh), base[1]);
        else
            for (unsigned i = 0; i < k; i++, o += 2) STORE(o, base[0], base[1] + ((uint64_t)ch[i] << sh));
        return n + k;
    }
    return expand_ranks(cc, m, naturals, base, out, cap, n);
}

static size_t ways(const card_choices *cc, gd_move m) {
    if (GD_MOVE_TYPE(m) == GD_STRAIGHT_FLUSH) return 1;
    size_t product = 1;
    FOR_EACH_NIBBLE(r, nonzero_nibbles(m & ((1ull << 52) - 1))) product *= cc->count[r][GD_MOVE_NIBBLE(m, r)];
    return product;
}

/* Card-level full houses, made directly: every physical pair (its faces, its wilds, its
 * joker x) is listed once, by the wilds it uses (0, 1, 2), rank by rank within each; then each
 * physical triple is followed by flat runs over the pairs it may take, the prefix its wilds
 * leave room for less its own rank's pairs (one slice per wild count). Writes while it fits
 * in cap, returns the new count. */
GD_INLINE size_t card_full_houses(const gd_view *v, const card_choices *cc, int above, uint64_t *out, size_t cap,
                                  size_t n) {
    const int level = v->level, w = v->wilds;
    /* Physical pairs of any multiset: per rank, 10 of two naturals (4 suits, two copies each)
     * and 4 of a natural and a wild; the level pair of two wilds; two joker pairs. (13 * 10 + 3,
     * enough for a dealt hand, overflowed for larger multisets such as the whole deck.) */
    enum { MAX_PAIRS = GD_RANKS * (10 + 4) + 1 + 2 };
    uint64_t pair[MAX_PAIRS][2];
    uint8_t pair_rank[MAX_PAIRS]; /* 13 for a joker pair */
    unsigned upto[3], np = 0;
    /* own[r][j]: where rank r's pairs with j wilds start and end (empty: both at the start of
     * the wild count's pairs) */
    uint8_t own[GD_RANKS][3][2];
    const uint64_t with[3] = {at_least(v->count, 2), w >= 1 ? at_least(v->count, 1) : 0, w >= 2 ? NIB(level) : 0};
    for (int j = 0; j <= 2; j++) {
        for (int r = 0; r < GD_RANKS; r++) own[r][j][0] = own[r][j][1] = (uint8_t)np;
        FOR_EACH_NIBBLE(p, with[j]) {
            const uint8_t *ch = cc->choices[p][2 - j];
            own[p][j][0] = (uint8_t)np;
            for (unsigned i = 0; i < cc->count[p][2 - j]; i++) {
                uint64_t e[2] = {0, (uint64_t)j << 52};
                add_byte(e, (int)p, ch[i]);
                add_byte(e, level, (unsigned)j << (2 * GD_HEARTS));
                pair[np][0] = e[0];
                pair[np][1] = e[1];
                pair_rank[np++] = (uint8_t)p;
            }
            own[p][j][1] = (uint8_t)np;
        }
        if (j == 0) { /* the joker pairs take no wild */
            if (v->small == 2)
                pair[np][0] = 0, pair[np][1] = (uint64_t)2 << 40 | (uint64_t)1 << 54, pair_rank[np++] = 13;
            if (v->big == 2)
                pair[np][0] = 0, pair[np][1] = (uint64_t)8 << 40 | (uint64_t)2 << 54, pair_rank[np++] = 13;
        }
        upto[j] = np;
    }
    FOR_EACH_NIBBLE(t, group_candidates(v, 3) & ranks_above(above, level)) {
        int lo, hi;
        group_wilds(v, (int)t, 3, &lo, &hi);
        for (int jt = lo; jt <= hi; jt++) {
            const int left = w - jt;
            /* the pairs it may take: [cut[2i], cut[2i + 1]) for i = 0 .. left + 1 */
            unsigned cut[8], pairs = upto[left];
            cut[0] = 0;
            for (int j = 0; j <= left; j++) {
                cut[2 * j + 1] = own[t][j][0];
                cut[2 * j + 2] = own[t][j][1];
                pairs -= (unsigned)(own[t][j][1] - own[t][j][0]);
            }
            cut[2 * left + 3] = upto[left];
            const unsigned pieces = (unsigned)left + 2;
            const uint8_t *ch = cc->choices[t][3 - jt];
            const unsigned triples = cc->count[t][3 - jt];
            const size_t total = (size_t)triples * pairs;
            if (!out || n + total > cap) {
                n += total;
                continue;
            }
            uint64_t base[2] = {0, GD_DECL(GD_FULL_HOUSE, t, 0, jt)};
            add_byte(base, level, (unsigned)jt << (2 * GD_HEARTS));
            uint64_t *o = out + 2 * n;
            if (n + total < cap) { /* room for one more: each pair stored, kept unless of t's rank */
                const unsigned count = upto[left];
                for (unsigned a = 0; a < triples; a++) {
                    uint64_t tw[2] = {base[0], base[1]};
                    add_byte(tw, (int)t, ch[a]);
                    for (unsigned i = 0; i < count; i++) {
                        store_sum(o, tw, pair[i]);
                        o += 2 * (pair_rank[i] != t);
                    }
                }
            } else { /* exactly the room left: the pieces between t's own pairs */
                for (unsigned a = 0; a < triples; a++) {
                    uint64_t tw[2] = {base[0], base[1]};
                    add_byte(tw, (int)t, ch[a]);
                    for (unsigned k = 0; k < pieces; k++)
                        for (unsigned i = cut[2 * k]; i < cut[2 * k + 1]; i++, o += 2)
                            store_sum(o, tw, pair[i]);
                }
            }
            n += total;
        }
    }
    return n;
}

/* Card-level straights, made directly. Each position of a feasible window takes one natural
 * face of its rank (one per suit it holds) or a wild, with at most the wilds in hand. The last
 * two positions are listed once as a flat run, fewest wilds first, so that the third position
 * takes the prefix of that run its wilds leave room for; those are listed once as flat runs
 * of the last three positions (one for each count of wilds the first two may use), which the
 * first two positions, nested, take whole (long flat runs: few mispredicted branches). Windows
 * start above the line position `above`. Writes while it fits in cap, returns the new count. */
GD_INLINE size_t card_straights(const gd_view *v, const card_choices *cc, int above, uint64_t *out, size_t cap,
                                size_t n) {
    const unsigned w = v->wilds;
    uint64_t sums;
    const uint64_t feasible = feasible_windows(v, at_least(v->count, 1), 5, 5, above, &sums);
    /* a wild: one more heart of the level, one more wild declared */
    uint64_t wild[2] = {0, WILD1};
    add_byte(wild, v->level, 1u << (2 * GD_HEARTS));
    if (!feasible) return n;
    /* line[p][j]: the words of line position p's option j: its naturals (line_k[p] of them),
     * then the wild; made once for the positions of the feasible windows */
    uint64_t line[14][5][2];
    unsigned line_k[14];
    const uint64_t used = feasible | feasible << 4 | feasible << 8 | feasible << 12 | feasible << 16;
    FOR_EACH_NIBBLE(p, used) { /* each feasible start and the next four positions */
        const int r = rank_at((int)p);
        const uint8_t *ch = cc->choices[r][1];
        const unsigned k = cc->count[r][1], word = (unsigned)r >> 3, shift = 8 * ((unsigned)r & 7);
        for (unsigned j = 0; j < k; j++) {
            line[p][j][word] = (uint64_t)ch[j] << shift;
            line[p][j][!word] = 0;
        }
        line[p][k][0] = wild[0];
        line[p][k][1] = wild[1];
        line_k[p] = k;
    }
    FOR_EACH_NIBBLE(s, feasible) {
        /* opt[i][j]: the words of position i's option j; its naturals k[i], then the wild */
        const uint64_t(*opt[5])[2];
        unsigned k[5];
        size_t ways0 = 1, ways1 = 0, ways2 = 0; /* the window's moves with 0, 1, 2 wilds */
        for (int i = 0; i < 5; i++) {
            opt[i] = line[s + (unsigned)i];
            k[i] = line_k[s + (unsigned)i];
            ways2 = ways2 * k[i] + ways1;
            ways1 = ways1 * k[i] + ways0;
            ways0 *= k[i];
        }
        const size_t total = ways0 + (w >= 1 ? ways1 : 0) + (w >= 2 ? ways2 : 0);
        if (!out || n + total > cap) {
            n += total;
            continue;
        }
        /* the run of positions 3 and 4; upto[j]: its entries with at most j wilds */
        uint64_t run[25][2];
        unsigned upto[3], len = 0;
        const uint64_t(*p3)[2] = opt[3], (*p4)[2] = opt[4];
        for (unsigned d = 0; d < k[3]; d++)
            for (unsigned e = 0; e < k[4]; e++) store_sum(run[len++], p3[d], p4[e]);
        upto[0] = len;
        if (w >= 1) {
            for (unsigned e = 0; e < k[4]; e++) store_sum(run[len++], p3[k[3]], p4[e]);
            for (unsigned d = 0; d < k[3]; d++) store_sum(run[len++], p3[d], p4[k[4]]);
        }
        upto[1] = len;
        if (w >= 2) store_sum(run[len++], wild, wild);
        upto[2] = len;
        /* the runs of positions 2, 3 and 4 after u wilds in positions 0 and 1: each option of
         * position 2 followed by the prefix of the run its wilds leave room for */
        uint64_t run3[3][5 * 25][2];
        unsigned len3[3] = {0, 0, 0};
        for (unsigned u = 0; u <= w; u++)
            for (unsigned c = 0; c < k[2] + (u < w); c++) {
                const unsigned m = upto[w - u - (c == k[2])];
                for (unsigned i = 0; i < m; i++) store_sum(run3[u][len3[u]++], opt[2][c], run[i]);
            }
        uint64_t *o = out + 2 * n;
        const uint64_t decl = GD_DECL(GD_STRAIGHT, rank_at((int)s), 0, 0);
        /* u: wilds used so far; a position offers the wild while u < w */
        for (unsigned a = 0; a < k[0] + (w > 0); a++) {
            const unsigned u1 = a == k[0];
            const uint64_t l1 = opt[0][a][0], h1 = decl + opt[0][a][1];
            for (unsigned b = 0; b < k[1] + (u1 < w); b++) {
                const unsigned u2 = u1 + (b == k[1]);
                const uint64_t part[2] = {l1 + opt[1][b][0], h1 + opt[1][b][1]};
                const uint64_t(*r3)[2] = run3[u2];
                for (unsigned i = 0, m = len3[u2]; i < m; i++, o += 2) store_sum(o, part, r3[i]);
            }
        }
        n += total;
    }
    return n;
}

/* Card-level groups of g cards of one rank (singles, pairs, triples, rank bombs), made
 * directly: for each rank and count of wilds, the sub-multisets of the rank's natural faces of
 * the cards left (as expand would list them for each rank-level move, in gen_sets's order). */
GD_INLINE size_t card_groups(const gd_view *v, const card_choices *cc, int type, int r, int g, uint64_t *out,
                             size_t cap, size_t n) {
    int lo, hi;
    group_wilds(v, r, g, &lo, &hi);
    /* a choice's byte goes to word 0 (ranks 0..7) or 1: masks instead of a branch */
    const uint64_t in_lo = (uint64_t)0 - (r < 8), shift = 8 * ((unsigned)r & 7);
    for (int j = lo; j <= hi; j++) {
        const unsigned k = cc->count[r][g - j];
        if (!out || n + k > cap) {
            n += k;
            continue;
        }
        uint64_t base[2] = {0, GD_DECL(type, r, 0, j)};
        add_byte(base, v->level, (unsigned)j << (2 * GD_HEARTS));
        const uint8_t *ch = cc->choices[r][g - j];
        uint64_t *o = out + 2 * n;
        if (n + ((k + 3) & ~3u) <= cap) { /* four at a time (the choices' table has room) */
            for (unsigned i = 0; i < k; i += 4, o += 8)
                for (unsigned q = 0; q < 4; q++) {
                    const uint64_t x = (uint64_t)ch[i + q] << shift;
                    STORE(o + 2 * q, base[0] + (x & in_lo), base[1] + (x & ~in_lo));
                }
        } else {
            for (unsigned i = 0; i < k; i++, o += 2) {
                const uint64_t x = (uint64_t)ch[i] << shift;
                STORE(o, base[0] + (x & in_lo), base[1] + (x & ~in_lo));
            }
        }
        n += k;
    }
    return n;
}

/* The card-level moves of each kind of rank-level move (a segment of GD_SEGMENTS): groups of
 * one rank made directly; the others made at rank level into `scratch`, then each expanded. */
GD_INLINE size_t expand_all(const gd_view *v, const card_choices *cc, const gd_move *moves, size_t k, uint64_t *out,
                            size_t cap, size_t n) {
    for (size_t i = 0; i < k; i++) n = out ? expand(v, cc, moves[i], out, cap, n) : n + ways(cc, moves[i]);
    return n;
}

#define GD_CARD_ARGS const card_choices *cc, gd_move *scratch, uint64_t *out, size_t cap, size_t n, const gd_view *v
GD_INLINE size_t card_gen_joker_sets(GD_CARD_ARGS, int type, int g, int above) {
    return expand_all(v, cc, scratch, gen_joker_sets(v, type, g, above, scratch, 0), out, cap, n);
}
GD_INLINE size_t card_gen_full_houses(GD_CARD_ARGS, int above) {
    return expand_all(v, cc, scratch, gen_full_houses(v, above, scratch, 0), out, cap, n);
}
GD_INLINE size_t card_gen_sequences(GD_CARD_ARGS, int type, int len, int per, int above) {
    return expand_all(v, cc, scratch, gen_sequences(v, type, len, per, above, scratch, 0), out, cap, n);
}
GD_INLINE size_t card_gen_straight_flushes(GD_CARD_ARGS, int above) {
    return expand_all(v, cc, scratch, gen_straight_flushes(v, above, scratch, 0), out, cap, n);
}
GD_INLINE size_t card_gen_joker_bomb(GD_CARD_ARGS) {
    return expand_all(v, cc, scratch, gen_joker_bomb(v, scratch, 0), out, cap, n);
}
GD_INLINE size_t card_gen_pass(GD_CARD_ARGS) {
    return expand_all(v, cc, scratch, gen_pass(v, scratch, 0), out, cap, n);
}

GD_INLINE size_t card_gen_sets(GD_CARD_ARGS, int type, int g, int above) {
    (void)scratch;
    FOR_EACH_NIBBLE(r, group_candidates(v, g) & ranks_above(above, v->level))
        n = card_groups(v, cc, type, (int)r, g, out, cap, n);
    return n;
}

GD_INLINE size_t card_gen_bombs_of_ranks(GD_CARD_ARGS, int above_class, int above_key) {
    (void)scratch;
    FOR_EACH_NIBBLE(r, group_candidates(v, 4)) { /* as gen_rank_bombs */
        int g;
        const int most = bomb_sizes(v, (int)r, above_class, above_key, &g);
        for (; g <= most; g++) n = card_groups(v, cc, GD_BOMB, (int)r, g, out, cap, n);
    }
    return n;
}
#undef GD_CARD_ARGS

/* The rank-level moves of a position other than the full houses and straights, expanded (kind
 * by kind, in GD_SEGMENTS's order); then the full houses and straights made at card level
 * (above the play to beat when it is one); then, when responding, the pass. */
static size_t card_level(const gd_view *v, gd_move beat, uint64_t *out, size_t cap) {
    gd_move moves[GD_MAX_RANK_MOVES];
    card_choices cc;
    card_choices_init(&cc, v);
    const unsigned type = GD_MOVE_TYPE(beat);
    size_t n = 0;
#define SEG(gen, ...) n = card_##gen(&cc, moves, out, cap, n, __VA_ARGS__)
    GD_SEGMENTS(v, beat, 1, SEG);
#undef SEG
    if (type == GD_PASS || type == GD_FULL_HOUSE) {
        const int above = type == GD_PASS ? -1 : elevated((int)GD_MOVE_KEY(beat), v->level);
        n = card_full_houses(v, &cc, above, out, cap, n);
    }
    if (type == GD_PASS || type == GD_STRAIGHT)
        n = card_straights(v, &cc, type == GD_PASS ? -1 : window_start((int)GD_MOVE_KEY(beat)), out, cap, n);
    if (type != GD_PASS) n = out ? expand(v, &cc, GD_PASS_MOVE, out, cap, n) : n + 1; /* the pass, last */
    return n;
}

size_t gd_card_moves(const gd_view *v, gd_move beat, uint64_t *out, size_t cap) { return card_level(v, beat, out, cap); }

size_t gd_count_card_moves(const gd_view *v, gd_move beat) { return card_level(v, beat, NULL, 0); }

gd_move gd_card_to_rank(uint64_t lo, uint64_t hi, int level) {
    gd_cards c = {{lo, hi & ~GD_DECL_MASK}};
    gd_view v;
    gd_view_init(&v, &c, level);
    return (hi & GD_DECL_MASK & ~((uint64_t)3 << 52)) | (uint64_t)v.wilds << 52 | v.count;
}

/* ---- checking a move word -------------------------------------------------------------- */

enum {
    GD_OK = 0,
    GD_E_TYPE,
    GD_E_PASS,
    GD_E_KEY,
    GD_E_X,
    GD_E_SHAPE,
    GD_E_SIZE,
    GD_E_JOKER_BOMB,
    GD_E_SPARE_BITS
};

const char *gd_move_error(int code) {
    switch (code) {
    case GD_OK: return "valid";
    case GD_E_TYPE: return "unknown move type (bits 60-63 must be 0..10)";
    case GD_E_PASS: return "a pass has key 15 and no other bits set";
    case GD_E_KEY: return "key out of range for the move type";
    case GD_E_X: return "suit / joker-pair field not allowed for the move type";
    case GD_E_SHAPE: return "cards spent do not form the declared combination";
    case GD_E_SIZE: return "wrong number of cards for the move type";
    case GD_E_JOKER_BOMB: return "a joker bomb has key 15 and no other bits set";
    default: return "malformed move";
    }
}

unsigned gd_move_size(gd_move m) { return gd_move_cards(m); }

/* Natural nibbles other than rank r. */
static uint64_t others(gd_move m, int r) { return m & ((1ull << 52) - 1) & ~((uint64_t)15 << (4 * r)); }

int gd_check_move(gd_move m) {
    const unsigned type = GD_MOVE_TYPE(m), key = GD_MOVE_KEY(m), x = GD_MOVE_X(m), w = GD_MOVE_WILDS(m);
    if (type > GD_JOKER_BOMB) return GD_E_TYPE;
    if (w == 3) return GD_E_SHAPE;
    switch (type) {
    case GD_PASS:
        return m == GD_PASS_MOVE ? GD_OK : GD_E_PASS;
    case GD_JOKER_BOMB:
        return m == GD_DECL(GD_JOKER_BOMB, GD_KEY_NONE, 0, 0) ? GD_OK : GD_E_JOKER_BOMB;
    case GD_SINGLE:
    case GD_PAIR:
    case GD_TRIPLE:
    case GD_BOMB: {
        unsigned g = type == GD_SINGLE ? 1 : type == GD_PAIR ? 2 : type == GD_TRIPLE ? 3 : 0;
        if (x) return GD_E_X;
        if (key >= GD_KEY_SMALL_JOKER) {
            if (type == GD_TRIPLE || type == GD_BOMB || key == GD_KEY_NONE) return GD_E_KEY;
            return (m & ~GD_DECL_MASK) == 0 && w == 0 ? GD_OK : GD_E_SHAPE;
        }
        if (others(m, (int)key)) return GD_E_SHAPE;
        unsigned size = GD_MOVE_NIBBLE(m, key) + w;
        if (type == GD_BOMB) return size >= 4 && size <= 10 && GD_MOVE_NIBBLE(m, key) <= 8 ? GD_OK : GD_E_SIZE;
        return size == g ? GD_OK : GD_E_SIZE;
    }
    case GD_FULL_HOUSE: {
        if (key >= GD_RANKS) return GD_E_KEY;
        if (x == 3) return GD_E_X;
        unsigned t = GD_MOVE_NIBBLE(m, key);
        if (t > 3 || t + w < 3) return GD_E_SHAPE;
        uint64_t rest = others(m, (int)key);
        unsigned pair_wilds = w - (3 - t);
        if (x) return rest == 0 && pair_wilds == 0 ? GD_OK : GD_E_SHAPE;
        if (rest == 0) return pair_wilds == 2 ? GD_OK : GD_E_SHAPE; /* the wilds are the level pair */
        const uint64_t ranks = nonzero_nibbles(rest); /* the pair's rank: exactly one */
        if (ranks & (ranks - 1)) return GD_E_SHAPE;
        return GD_MOVE_NIBBLE(m, low_nibble_index(ranks)) + pair_wilds == 2 ? GD_OK : GD_E_SHAPE;
    }
    default: { /* sequences */
        const int len = type == GD_PAIR_RUN ? 3 : type == GD_TRIPLE_RUN ? 2 : 5;
        const unsigned k = type == GD_PAIR_RUN ? 2 : type == GD_TRIPLE_RUN ? 3 : 1;
        if (key >= GD_RANKS) return GD_E_KEY;
        const int s = window_start((int)key);
        if (s + len > 14) return GD_E_KEY;
        if (x && type != GD_STRAIGHT_FLUSH) return GD_E_X;
        const uint64_t naturals = m & ((1ull << 52) - 1);
        if (naturals & ~window_nibbles[len][s]) return GD_E_SHAPE;
        /* every nibble (0..15) at most k: bit 3 set, or the low three bits plus 7 - k reach 8 */
        if ((naturals | ((naturals & 0x7777777777777ull) + (7 - k) * ONES13)) & HIGHS13) return GD_E_SHAPE;
        return nibble_sum(naturals) + w == (unsigned)len * k ? GD_OK : GD_E_SIZE;
    }
    }
}
