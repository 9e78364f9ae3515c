/* Agents over card-level moves: see gd_agents.h. */
#include "gd_agents.h"

#define M52 ((1ull << 52) - 1)
#define ODD 0xAAAAAAAAAAAAAAAAull /* the high bit of every 2-bit face count */
#define DIRTY ((int64_t)1 << 20)  /* spends a wild or breaks a bomb */
#define BIG ((int64_t)1 << 40)    /* not a non-bomb */

/* The cards the greedy agent keeps: the wilds, every card of a rank held four or more
 * times (wilds not counted), the jokers when all four are held (as guandan.bots.agents._protected). */
static inline void protected_cards(const gd_cards *hand, int level, uint64_t *plo, uint64_t *phi) {
    const int wild = 4 * level + GD_HEARTS;
    uint64_t lo = 0, hi = 0;
    for (int r = 0; r < GD_RANKS; r++) {
        const int bit = 8 * r;
        const uint64_t byte = bit < 64 ? (hand->w[0] >> bit) & 0xFF : (hand->w[1] >> (bit - 64)) & 0xFF;
        unsigned held = (unsigned)((byte & 3) + ((byte >> 2) & 3) + ((byte >> 4) & 3) + ((byte >> 6) & 3));
        if (r == level) held -= (unsigned)((byte >> (2 * GD_HEARTS)) & 3);
        if (held >= 4) {
            if (bit < 64) lo |= 0xFFull << bit;
            else hi |= 0xFFull << (bit - 64);
        }
    }
    if (wild < 32) lo |= 3ull << (2 * wild);
    else hi |= 3ull << (2 * wild - 64);
    if (((hand->w[1] >> 40) & 0xF) == 0xA) hi |= 0xFull << 40; /* two small and two big jokers */
    *plo = lo;
    *phi = hi;
}

/* Whether (hi, lo) spends lower cards than the best so far: the highest face first compared. */
static inline int lower(uint64_t hi, uint64_t lo, uint64_t best_hi, uint64_t best_lo) {
    return hi < best_hi || (hi == best_hi && lo < best_lo);
}

typedef struct pick {
    ptrdiff_t index; /* -1: none yet */
    int64_t value;
    uint64_t hi, lo;
} pick;

/* Keep row i if its value is smaller, or equal and its cards lower (the first row on a full tie). */
static inline void consider(pick *p, ptrdiff_t i, int64_t value, uint64_t hi, uint64_t lo) {
    if (p->index < 0 || value < p->value || (value == p->value && lower(hi, lo, p->hi, p->lo))) {
        p->index = i;
        p->value = value;
        p->hi = hi;
        p->lo = lo;
    }
}

ptrdiff_t gd_greedy_choose(const uint64_t *moves, size_t n, const gd_greedy_seat *seat) {
    const int level = seat->level, mine = seat->mine;
    /* Per key index: 1 + the elevated order of the key (rank types, bombs); for sequences 0
     * for the ace-low window, else 1 + the place of the window's lowest rank among the ranks
     * other than the level rank. Key 15 (none): 0. */
    int64_t rank_order[16], seq_order[16], plain[256], bomb_order[256];
    for (int k = 0; k < 16; k++) {
        rank_order[k] = k == 15 ? 0 : 1 + (k >= 13 ? k : k == level ? 12 : k < level ? k : k - 1);
        seq_order[k] = (k == 15 || k == 12) ? 0 : k + 1 - (k > level);
    }
    static const int nominal[16] = {0, 1, 2, 3, 5, 5, 6, 6, 0, 0, 0, 0, 0, 0, 0, 0};
    for (int t = 0; t < 16; t++) {
        const int sequence = t == GD_STRAIGHT || t == GD_PAIR_RUN || t == GD_TRIPLE_RUN || t == GD_STRAIGHT_FLUSH;
        for (int k = 0; k < 16; k++) {
            const int64_t order = sequence ? seq_order[k] : rank_order[k];
            plain[16 * t + k] = nominal[t] ? order * 16 + (15 - nominal[t]) : BIG;
            bomb_order[16 * t + k] = order;
        }
    }
    uint64_t plo, phi;
    protected_cards(&seat->hand, level, &plo, &phi);

    pick exact = {-1, 0, 0, 0}, exact_bomb = {-1, 0, 0, 0}, ranked = {-1, 0, 0, 0}, bomb = {-1, 0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        const uint64_t lo = moves[2 * i], word = moves[2 * i + 1];
        const uint64_t hi = word & M52;
        if ((word >> 60) > GD_JOKER_BOMB || (hi >> 44) || (lo & (lo >> 1) & 0x5555555555555555ull) ||
            (hi & (hi >> 1) & 0x5555555555555555ull))
            return -1 - (ptrdiff_t)i;
        const unsigned index = (unsigned)(word >> 56); /* type * 16 + key */
        const int64_t score = plain[index];
        if ((score & 15) == 15 - mine) consider(&exact, (ptrdiff_t)i, 0, hi, lo); /* a non-bomb of all my cards */
        consider(&ranked, (ptrdiff_t)i, score + (((lo & plo) | (hi & phi)) ? DIRTY : 0), hi, lo);
        if (index >= 16 * GD_BOMB) {
            const gd_cards cards = {{lo, hi}};
            const int size = (int)gd_card_total(&cards);
            if (size == mine) consider(&exact_bomb, (ptrdiff_t)i, 0, hi, lo);
            const unsigned type = index >> 4;
            int64_t cls = size <= 5 ? size - 4 : size - 3;
            if (type == GD_STRAIGHT_FLUSH) cls = 2;
            if (type == GD_JOKER_BOMB) cls = 8;
            consider(&bomb, (ptrdiff_t)i, cls * 64 + bomb_order[index], hi, lo);
        }
    }
    const ptrdiff_t pass = (ptrdiff_t)n - 1;
    if (seat->responding && n == 1) return 0;
    if (seat->responding && mine > 10 && seat->partner_play) return pass; /* let the partner's play stand */
    if (mine <= 10) {
        if (exact.index >= 0) return exact.index;
        if (mine >= 4 && exact_bomb.index >= 0) return exact_bomb.index;
    }
    if (seat->responding && seat->partner_play) return pass;
    if (ranked.value < DIRTY) return ranked.index;
    if (!seat->responding || seat->opponent_low) {
        if (ranked.value < BIG) return ranked.index;
        if (bomb.index >= 0) return bomb.index;
    }
    return pass;
}
