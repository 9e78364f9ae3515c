/* The native move generator. See gd_core.h for the packed formats.
 *
 * Rank level first: every combination is a set of *groups* (rank, count), each filled
 * with natural cards of that rank and wilds. Responses are generated directly above the
 * play to beat: each generator takes the order value its moves must exceed.
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

/* A rank byte holds the counts (0..2) of the four suits, 2 bits each. */
static uint8_t byte_sum[256];
/* The sub-multisets of a rank byte with c cards: how many, and which. At most 19 (c = 4
 * from two copies of each suit). */
static uint8_t sub_count[256][9];
static uint8_t sub_list[256][9][19];
static int initialized;
static void init_windows(void);

static int byte_is_valid(unsigned b) {
    for (int f = 0; f < 4; f++)
        if (((b >> (2 * f)) & 3u) == 3u) return 0;
    return 1;
}

void gd_init(void) {
    if (initialized) return;
    for (unsigned b = 0; b < 256; b++) {
        byte_sum[b] = (uint8_t)((b & 3) + ((b >> 2) & 3) + ((b >> 4) & 3) + ((b >> 6) & 3));
        memset(sub_count[b], 0, sizeof sub_count[b]);
    }
    for (unsigned b = 0; b < 256; b++) {
        if (!byte_is_valid(b)) continue;
        for (unsigned s = 0; s < 256; s++) {
            int inside = 1;
            for (int f = 0; f < 4; f++)
                if (((s >> (2 * f)) & 3u) > ((b >> (2 * f)) & 3u)) inside = 0;
            if (!inside) continue;
            unsigned c = byte_sum[s];
            sub_list[b][c][sub_count[b][c]++] = (uint8_t)s;
        }
    }
    init_windows();
    initialized = 1;
}

/* ---- cards ---------------------------------------------------------------------------- */

int gd_pack_cards(const uint8_t *counts, gd_cards *out) {
    uint64_t w[2] = {0, 0};
    for (int f = 0; f < GD_FACES; f++) {
        if (counts[f] > 2) return f;
        w[f >> 5] |= (uint64_t)counts[f] << (2 * (f & 31));
    }
    out->w[0] = w[0];
    out->w[1] = w[1];
    return -1;
}

void gd_unpack_cards(const gd_cards *cards, uint8_t *counts) {
    for (int f = 0; f < GD_FACES; f++) counts[f] = (uint8_t)gd_face_count(cards, f);
}

int gd_check_cards(const gd_cards *cards) {
    for (int f = 0; f < GD_FACES; f++)
        if (gd_face_count(cards, f) == 3) return f;
    if (cards->w[1] >> 44) return GD_FACES;
    return -1;
}

/* Sequence line: position 0 is the low ace, position p (1..13) is rank p - 1. */
GD_INLINE int rank_at(int position) { return position == 0 ? 12 : position - 1; }
GD_INLINE int window_start(int key) { return key == 12 ? 0 : key + 1; }
GD_INLINE unsigned to_line(unsigned rank_mask) { return ((rank_mask << 1) | (rank_mask >> 12)) & 0x3FFFu; }

/* window_nibbles[len][s]: the nibbles of the ranks in the window of len positions from s. */
static uint64_t window_nibbles[6][14];

/* A line mask with each bit moved to a nibble of its own (bit p to bit 4p). */
static uint64_t spread7[128];
GD_INLINE uint64_t spread(unsigned line) { return spread7[line & 127u] | spread7[(line >> 7) & 127u] << 28; }

/* Sum of len consecutive nibbles for every start at once: nibble s of the result is the
 * sum of nibbles s..s+len-1 (no nibble overflows: at most 5 x 3 = 15). */
GD_INLINE uint64_t window_sums(uint64_t nib, int len) {
    uint64_t sum = nib;
    for (int i = 1; i < len; i++) sum += nib >> (4 * i);
    return sum;
}

static void init_windows(void) {
    for (unsigned m = 0; m < 128; m++) {
        uint64_t x = 0;
        for (int b = 0; b < 7; b++)
            if ((m >> b) & 1u) x |= (uint64_t)1 << (4 * b);
        spread7[m] = x;
    }
    for (int len = 2; len <= 5; len++)
        for (int s = 0; s + len <= 14; s++) {
            uint64_t m = 0;
            for (int p = s; p < s + len; p++) m |= (uint64_t)15 << (4 * rank_at(p));
            window_nibbles[len][s] = m;
        }
}

void gd_view_init(gd_view *v, const gd_cards *cards, int level) {
    memset(v, 0, sizeof *v);
    v->cards = *cards;
    v->level = (uint8_t)level;
    uint64_t suit_nib[4] = {0, 0, 0, 0};
    unsigned suit[4] = {0, 0, 0, 0};
    for (int r = 0; r < GD_RANKS; r++) {
        unsigned b = gd_rank_byte(cards, r);
        if (r == level) {
            v->wilds = (uint8_t)((b >> (2 * GD_HEARTS)) & 3u);
            b &= ~(3u << (2 * GD_HEARTS));
        }
        unsigned n = byte_sum[b];
        v->nat[r] = (uint8_t)b;
        v->n[r] = (uint8_t)n;
        for (unsigned t = 0; t <= n; t++) v->ge[t] |= (uint16_t)(1u << r);
        for (unsigned k = 1; k <= 3; k++) v->capped[k] |= (uint64_t)(n < k ? n : k) << (4 * r);
        for (int s = 0; s < 4; s++)
            if ((b >> (2 * s)) & 3u) {
                suit[s] |= 1u << r;
                suit_nib[s] |= (uint64_t)1 << (4 * r);
            }
    }
    for (int t = 1; t <= 3; t++) {
        v->line_ge[t] = (uint16_t)to_line(v->ge[t]);
        v->line_nib[t] = v->line_nib[t - 1] + spread(v->line_ge[t]);
    }
    for (int s = 0; s < 4; s++) {
        v->line_suit[s] = (uint16_t)to_line(suit[s]);
        v->suit_nib[s] = suit_nib[s];
        v->suit_line_nib[s] = spread(v->line_suit[s]);
    }
    unsigned j = gd_rank_byte(cards, 13);
    v->small = (uint8_t)(j & 3u);
    v->big = (uint8_t)((j >> 2) & 3u);
}

/* ---- order ---------------------------------------------------------------------------- */

/* Elevated order of a key: ranks below the level keep their place, ranks above move down
 * one, the level is 12, the jokers 13 and 14. */
GD_INLINE int elevated(int key, int level) {
    if (key >= 13) return key;
    if (key == level) return 12;
    return key < level ? key : key - 1;
}

/* The ranks whose elevated order is above `above` (-1: all). */
GD_INLINE unsigned ranks_above(int above, int level) {
    if (above < 0) return 0x1FFFu;
    if (above >= 12) return 0;
    /* orders 0..11 are the ranks other than the level, in natural order */
    unsigned natural = above < level ? (0x1FFFu << (above + 1)) : (0x1FFFu << (above + 2));
    return (natural | (1u << level)) & 0x1FFFu;
}

/* 4 cards < 5 cards < straight flush < 6 < 7 < 8 < 9 < 10 cards < joker bomb. */
GD_INLINE int bomb_class(int size) { return size <= 5 ? size - 4 : size - 3; }
#define GD_CLASS_STRAIGHT_FLUSH 2
#define GD_CLASS_JOKER_BOMB 8

#define NIB(r) ((uint64_t)1 << (4 * (r)))
#define WILD1 ((uint64_t)1 << 52)

/* Each generator writes to out unless out is NULL (then it only counts), and returns the
 * new count. They are inlined into the two entry points, so the NULL tests vanish. The
 * buffer always has room for one more move than the final count (GD_MAX_RANK_MOVES is far
 * above any position's count), so EMIT_IF may store before it knows whether to keep. */
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

#define FOR_EACH_BIT(var, mask) for (unsigned _m = (mask), var; _m && ((var = (unsigned)__builtin_ctz(_m)), 1); _m &= _m - 1)

/* Groups of g cards of one rank (single, pair, triple, bomb of g) with elevated order above
 * `above`: naturals plus wilds, at least one natural unless the rank is the level (the wilds
 * are its own cards). */
GD_INLINE size_t gen_sets(const gd_view *v, int type, int g, int above, gd_move *out, size_t n) {
    const int level = v->level, w = v->wilds;
    unsigned candidates = v->ge[g - w >= 1 ? g - w : 1];
    if (v->n[level] + w >= g) candidates |= 1u << level;
    candidates &= ranks_above(above, level);
    FOR_EACH_BIT(r, candidates) {
        int have = v->n[r];
        int lo = g - have > 0 ? g - have : 0;
        int hi = g - ((int)r != level);
        if (hi > w) hi = w;
        if (!out) {
            n += (size_t)(hi - lo + 1);
            continue;
        }
        for (int j = lo; j <= hi; j++) EMIT(GD_DECL(type, r, 0, j) | (uint64_t)(g - j) << (4 * r));
    }
    return n;
}

GD_INLINE size_t gen_joker_sets(const gd_view *v, int type, int g, int above, gd_move *out, size_t n) {
    if (v->small >= g && GD_KEY_SMALL_JOKER > above) EMIT(GD_DECL(type, GD_KEY_SMALL_JOKER, 0, 0));
    if (v->big >= g && GD_KEY_BIG_JOKER > above) EMIT(GD_DECL(type, GD_KEY_BIG_JOKER, 0, 0));
    return n;
}

GD_INLINE size_t gen_full_houses(const gd_view *v, int above, gd_move *out, size_t n) {
    const int level = v->level, w = v->wilds;
    /* every natural pair with the wilds it uses, fewest wilds first: upto[j] pairs use <= j */
    gd_move pair[GD_RANKS * 2 + 1];
    uint8_t pair_rank[GD_RANKS * 2 + 1];
    unsigned upto[3], np = 0;
    unsigned pairs_with[3] = {0, 0, 0}; /* rank masks of the pairs using exactly j wilds */
    for (int j = 0; j <= 2; j++) {
        if (j <= w) {
            unsigned mask = j == 0 ? v->ge[2] : j == 1 ? (v->ge[1] & ~(1u << level)) | (v->n[level] >= 1 ? 1u << level : 0)
                                                       : (1u << level);
            pairs_with[j] = mask;
            FOR_EACH_BIT(p, mask) {
                pair[np] = (uint64_t)(2 - j) << (4 * p) | (uint64_t)j << 52;
                pair_rank[np] = (uint8_t)p;
                np++;
            }
        }
        upto[j] = np;
    }
    const unsigned jokers = (v->small == 2) + (v->big == 2);
    unsigned triples = v->ge[3 - w >= 1 ? 3 - w : 1];
    if (v->n[level] + w >= 3) triples |= 1u << level;
    triples &= ranks_above(above, level);
    FOR_EACH_BIT(t, triples) {
        int have = v->n[t];
        int lo = 3 - have > 0 ? 3 - have : 0;
        int hi = 3 - ((int)t != level);
        if (hi > w) hi = w;
        for (int jt = lo; jt <= hi; jt++) {
            const unsigned left = (unsigned)(w - jt), count = upto[left];
            if (!out) {
                /* every pair but one of the triple's own rank */
                unsigned own = 0;
                for (unsigned j = 0; j <= left; j++) own += (pairs_with[j] >> t) & 1u;
                n += count - own + jokers;
                continue;
            }
            const gd_move base = GD_DECL(GD_FULL_HOUSE, t, 0, jt) | (uint64_t)(3 - jt) << (4 * t);
            for (unsigned i = 0; i < count; i++) EMIT_IF(pair_rank[i] != t, base + pair[i]);
            if (v->small == 2) EMIT(base | (uint64_t)1 << 54);
            if (v->big == 2) EMIT(base | (uint64_t)2 << 54);
        }
    }
    return n;
}

/* Windows of len positions with k cards each, starting above a window position.
 * `nibs[t]` (t = 1..k) has a nibble per line position: the naturals a window may use there
 * up to t (min(have, t)), so nibs[k] is what a window uses; `levels[t]` (t = 1, 2) are the
 * line masks of positions with at least t naturals; `capped` is the nibble word of usable
 * naturals per rank. A window takes its missing cards from the wilds; wilds to spare may then
 * stand in for naturals, one per natural card used, in every combination. */
GD_INLINE size_t gen_windows(const gd_view *v, const uint64_t *nibs, const uint16_t *levels, uint64_t capped,
                             int type, int len, int k, int x, int above, gd_move *out, size_t n) {
    const int w = v->wilds, need = k * len;
    const unsigned full = (1u << len) - 1;
    const uint64_t sums = window_sums(nibs[k], len);
    for (int s = above + 1; s + len <= 14; s++) {
        const int missing = need - (int)((sums >> (4 * s)) & 15u);
        if (missing > w) continue;
        const int spare = w - missing;
        if (!out) {
            /* q positions can give up one natural, d of them a second */
            const unsigned q = spare ? (unsigned)(window_sums(nibs[1], len) >> (4 * s)) & 15u : 0;
            const unsigned d = spare >= 2 && k >= 2 ? (unsigned)(window_sums(nibs[2] - nibs[1], len) >> (4 * s)) & 15u : 0;
            n += 1 + q + (spare >= 2 ? q * (q - 1) / 2 + d : 0);
            continue;
        }
        const gd_move base = GD_DECL(type, rank_at(s), x, missing) | (capped & window_nibbles[len][s]);
        EMIT(base);
        if (!spare) continue;
        const unsigned window = full << s;
        const unsigned once = levels[1] & window, twice = k >= 2 ? levels[2] & window : 0;
        FOR_EACH_BIT(p, once) {
            const gd_move one = base - NIB(rank_at((int)p)) + WILD1;
            EMIT(one);
            if (spare < 2) continue;
            if ((twice >> p) & 1u) EMIT(one - NIB(rank_at((int)p)) + WILD1);
            FOR_EACH_BIT(p2, once & ~((2u << p) - 1)) EMIT(one - NIB(rank_at((int)p2)) + WILD1);
        }
    }
    return n;
}

GD_INLINE size_t gen_straight_flushes(const gd_view *v, int above, gd_move *out, size_t n) {
    for (int s = 0; s < 4; s++) {
        const uint16_t levels[2] = {0, v->line_suit[s]};
        const uint64_t nibs[2] = {0, v->suit_line_nib[s]};
        n = gen_windows(v, nibs, levels, v->suit_nib[s], GD_STRAIGHT_FLUSH, 5, 1, s, above, out, n);
    }
    return n;
}

#define GEN_STRAIGHTS(above) gen_windows(v, v->line_nib, v->line_ge, v->capped[1], GD_STRAIGHT, 5, 1, 0, (above), out, n)
#define GEN_PAIR_RUNS(above) gen_windows(v, v->line_nib, v->line_ge, v->capped[2], GD_PAIR_RUN, 3, 2, 0, (above), out, n)
#define GEN_TRIPLE_RUNS(above) gen_windows(v, v->line_nib, v->line_ge, v->capped[3], GD_TRIPLE_RUN, 2, 3, 0, (above), out, n)

/* Bombs stronger than (class, key order): rank bombs by size then elevated rank, straight
 * flushes by window, the joker bomb above all. */
GD_INLINE size_t gen_bombs(const gd_view *v, int above_class, int above_key, gd_move *out, size_t n) {
    int top = 0; /* the largest bomb: most naturals of a rank, plus the wilds */
    for (int t = 8; t >= 1; t--)
        if (v->ge[t]) {
            top = t;
            break;
        }
    top += v->wilds;
    for (int g = 4; g <= 10 && g <= top; g++) {
        int c = bomb_class(g);
        if (c < above_class) continue;
        n = gen_sets(v, GD_BOMB, g, c == above_class ? above_key : -1, out, n);
    }
    if (GD_CLASS_STRAIGHT_FLUSH >= above_class)
        n = gen_straight_flushes(v, GD_CLASS_STRAIGHT_FLUSH == above_class ? above_key : -1, out, n);
    if (GD_CLASS_JOKER_BOMB > above_class && v->small == 2 && v->big == 2)
        EMIT(GD_DECL(GD_JOKER_BOMB, GD_KEY_NONE, 0, 0));
    return n;
}

GD_INLINE size_t generate(const gd_view *v, gd_move beat, gd_move *out) {
    size_t n = 0;
    const unsigned type = GD_MOVE_TYPE(beat), key = GD_MOVE_KEY(beat);
    const int level = v->level;
    switch (type) {
    case GD_PASS: /* a lead: everything */
        n = gen_sets(v, GD_SINGLE, 1, -1, out, n);
        n = gen_joker_sets(v, GD_SINGLE, 1, -1, out, n);
        n = gen_sets(v, GD_PAIR, 2, -1, out, n);
        n = gen_joker_sets(v, GD_PAIR, 2, -1, out, n);
        n = gen_sets(v, GD_TRIPLE, 3, -1, out, n);
        n = gen_full_houses(v, -1, out, n);
        n = GEN_STRAIGHTS(-1);
        n = GEN_PAIR_RUNS(-1);
        n = GEN_TRIPLE_RUNS(-1);
        return gen_bombs(v, 0, -1, out, n);
    case GD_SINGLE:
        n = gen_sets(v, GD_SINGLE, 1, elevated((int)key, level), out, n);
        n = gen_joker_sets(v, GD_SINGLE, 1, elevated((int)key, level), out, n);
        n = gen_bombs(v, 0, -1, out, n);
        break;
    case GD_PAIR:
        n = gen_sets(v, GD_PAIR, 2, elevated((int)key, level), out, n);
        n = gen_joker_sets(v, GD_PAIR, 2, elevated((int)key, level), out, n);
        n = gen_bombs(v, 0, -1, out, n);
        break;
    case GD_TRIPLE:
        n = gen_sets(v, GD_TRIPLE, 3, elevated((int)key, level), out, n);
        n = gen_bombs(v, 0, -1, out, n);
        break;
    case GD_FULL_HOUSE:
        n = gen_full_houses(v, elevated((int)key, level), out, n);
        n = gen_bombs(v, 0, -1, out, n);
        break;
    case GD_STRAIGHT:
        n = GEN_STRAIGHTS(window_start((int)key));
        n = gen_bombs(v, 0, -1, out, n);
        break;
    case GD_PAIR_RUN:
        n = GEN_PAIR_RUNS(window_start((int)key));
        n = gen_bombs(v, 0, -1, out, n);
        break;
    case GD_TRIPLE_RUN:
        n = GEN_TRIPLE_RUNS(window_start((int)key));
        n = gen_bombs(v, 0, -1, out, n);
        break;
    case GD_BOMB:
        n = gen_bombs(v, bomb_class((int)(GD_MOVE_NIBBLE(beat, key) + GD_MOVE_WILDS(beat))),
                      elevated((int)key, level), out, n);
        break;
    case GD_STRAIGHT_FLUSH:
        n = gen_bombs(v, GD_CLASS_STRAIGHT_FLUSH, window_start((int)key), out, n);
        break;
    default: /* the joker bomb: nothing beats it */
        break;
    }
    EMIT(GD_PASS_MOVE);
    return n;
}

size_t gd_rank_moves(const gd_view *v, gd_move beat, gd_move *out) { return generate(v, beat, out); }

size_t gd_count_rank_moves(const gd_view *v, gd_move beat) { return generate(v, beat, NULL); }

/* ---- card level ------------------------------------------------------------------------ */

/* Jokers spent by a rank-level move, as the jokers' byte (small in bits 0-1, big in 2-3). */
static unsigned joker_byte(gd_move m) {
    const unsigned type = GD_MOVE_TYPE(m), key = GD_MOVE_KEY(m);
    switch (type) {
    case GD_SINGLE:
    case GD_PAIR: {
        unsigned c = type == GD_SINGLE ? 1u : 2u;
        if (key == GD_KEY_SMALL_JOKER) return c;
        if (key == GD_KEY_BIG_JOKER) return c << 2;
        return 0;
    }
    case GD_FULL_HOUSE:
        return GD_MOVE_X(m) == 1 ? 2u : GD_MOVE_X(m) == 2 ? 8u : 0u;
    case GD_JOKER_BOMB:
        return 10u;
    default:
        return 0;
    }
}

GD_INLINE void add_byte(uint64_t *w, int r, unsigned b) { w[r >> 3] += (uint64_t)b << (8 * (r & 7)); }

/* Every physical way to spend a rank-level move: writes while n < cap, returns the new count. */
static size_t expand(const gd_view *v, gd_move m, uint64_t *out, size_t cap, size_t n) {
    uint64_t w[2] = {0, m & GD_DECL_MASK};
    add_byte(w, 13, joker_byte(m));
    add_byte(w, v->level, GD_MOVE_WILDS(m) << (2 * GD_HEARTS));
    if (GD_MOVE_TYPE(m) == GD_STRAIGHT_FLUSH) {
        const unsigned suit = GD_MOVE_X(m);
        for (int r = 0; r < GD_RANKS; r++)
            if (GD_MOVE_NIBBLE(m, r)) add_byte(w, r, 1u << (2 * suit));
        if (n < cap) {
            out[2 * n] = w[0];
            out[2 * n + 1] = w[1];
        }
        return n + 1;
    }
    int rk[GD_RANKS], len = 0;
    const uint8_t *opt[GD_RANKS];
    unsigned nopt[GD_RANKS], idx[GD_RANKS];
    for (int r = 0; r < GD_RANKS; r++) {
        unsigned c = GD_MOVE_NIBBLE(m, r);
        if (!c) continue;
        rk[len] = r;
        opt[len] = sub_list[v->nat[r]][c];
        nopt[len] = sub_count[v->nat[r]][c];
        idx[len] = 0;
        len++;
    }
    for (;;) {
        if (n < cap) {
            uint64_t x[2] = {w[0], w[1]};
            for (int i = 0; i < len; i++) add_byte(x, rk[i], opt[i][idx[i]]);
            out[2 * n] = x[0];
            out[2 * n + 1] = x[1];
        }
        n++;
        int i = 0;
        while (i < len && ++idx[i] == nopt[i]) idx[i++] = 0;
        if (i == len) return n;
    }
}

static size_t ways(const gd_view *v, gd_move m) {
    if (GD_MOVE_TYPE(m) == GD_STRAIGHT_FLUSH) return 1;
    size_t product = 1;
    for (int r = 0; r < GD_RANKS; r++) {
        unsigned c = GD_MOVE_NIBBLE(m, r);
        if (c) product *= sub_count[v->nat[r]][c];
    }
    return product;
}

size_t gd_card_moves(const gd_view *v, gd_move beat, uint64_t *out, size_t cap) {
    gd_move moves[GD_MAX_RANK_MOVES];
    size_t k = generate(v, beat, moves), n = 0;
    for (size_t i = 0; i < k; i++) n = expand(v, moves[i], out, cap, n);
    return n;
}

size_t gd_count_card_moves(const gd_view *v, gd_move beat) {
    gd_move moves[GD_MAX_RANK_MOVES];
    size_t k = generate(v, beat, moves), n = 0;
    for (size_t i = 0; i < k; i++) n += ways(v, moves[i]);
    return n;
}

gd_move gd_card_to_rank(uint64_t lo, uint64_t hi, int level) {
    gd_cards c = {{lo, hi & ~GD_DECL_MASK}};
    gd_move m = hi & GD_DECL_MASK & ~((uint64_t)3 << 52);
    for (int r = 0; r < GD_RANKS; r++) {
        unsigned b = gd_rank_byte(&c, r);
        if (r == level) {
            m |= (uint64_t)((b >> (2 * GD_HEARTS)) & 3u) << 52;
            b &= ~(3u << (2 * GD_HEARTS));
        }
        m |= (uint64_t)byte_sum[b] << (4 * r);
    }
    return m;
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

unsigned gd_move_size(gd_move m) {
    unsigned size = GD_MOVE_WILDS(m);
    for (int r = 0; r < GD_RANKS; r++) size += GD_MOVE_NIBBLE(m, r);
    unsigned j = joker_byte(m);
    return size + (j & 3u) + (j >> 2);
}

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
        for (int p = 0; p < GD_RANKS; p++)
            if (rest == (uint64_t)GD_MOVE_NIBBLE(m, p) << (4 * p))
                return GD_MOVE_NIBBLE(m, p) + pair_wilds == 2 ? GD_OK : GD_E_SHAPE;
        return GD_E_SHAPE;
    }
    default: { /* sequences */
        const int len = type == GD_PAIR_RUN ? 3 : type == GD_TRIPLE_RUN ? 2 : 5;
        const unsigned k = type == GD_PAIR_RUN ? 2 : type == GD_TRIPLE_RUN ? 3 : 1;
        if (key >= GD_RANKS) return GD_E_KEY;
        const int s = window_start((int)key);
        if (s + len > 14) return GD_E_KEY;
        if (x && type != GD_STRAIGHT_FLUSH) return GD_E_X;
        uint64_t inside = 0;
        unsigned total = w;
        for (int i = 0; i < len; i++) {
            int r = rank_at(s + i);
            unsigned c = GD_MOVE_NIBBLE(m, r);
            if (c > k) return GD_E_SHAPE;
            inside |= (uint64_t)15 << (4 * r);
            total += c;
        }
        if (m & ((1ull << 52) - 1) & ~inside) return GD_E_SHAPE;
        return total == (unsigned)len * k ? GD_OK : GD_E_SIZE;
    }
    }
}
