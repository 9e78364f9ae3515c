/* Exact endgames by alpha-beta search with a transposition table (see gd_solve.h).
 *
 * Values are kept from side 0's point of view (side 0 maximizes, side 1 minimizes) and
 * turned round for side 1 at the door, so one table serves both sides. A value is one of
 * the few results of a deal (-promotion[0] .. +promotion[0]), so entries hold it in a byte.
 * Moves are tried in an order that finds cut-offs early: a move that plays out the hand
 * first, then the moves that spend the most cards, the pass last.
 */
#include "gd_solve.h"

#include <string.h>

enum { INF = 127 };

void gd_solver_clear(gd_solver *s) {
    if (++s->generation == 0) { /* wrapped round: clear the table for real */
        memset(s->table, 0, (size_t)(s->mask + 1) * sizeof(gd_solve_entry));
        s->generation = 1;
    }
}

unsigned gd_cards_left(const gd_deal *d) {
    unsigned n = 0;
    for (int s = 0; s < 4; s++) n += gd_card_total(&d->hands[s]);
    return n;
}

static inline uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A hash of everything the value depends on: the hands, the seat to act, the play to beat
 * and its seat, the passes since it, the finish order. */
static uint64_t state_key(const gd_deal *d) {
    uint64_t h = 0x9E3779B97F4A7C15ull;
    for (int s = 0; s < 4; s++) {
        h = mix(h ^ d->hands[s].w[0]);
        h = mix(h ^ d->hands[s].w[1] ^ ((uint64_t)s << 60));
    }
    h = mix(h ^ d->beat);
    uint64_t small = (uint64_t)(uint8_t)d->last | (uint64_t)d->turn << 8 | (uint64_t)d->passes << 16 |
                     (uint64_t)d->n_finished << 24;
    for (int i = 0; i < 4; i++) small |= (uint64_t)d->finished[i] << (32 + 8 * i);
    h = mix(h ^ small);
    return h | 1; /* never 0: 0 marks an empty entry */
}

typedef struct ordered {
    gd_move m;
    int key;
} ordered;

/* The moves of the seat to act, best-first for a cut-off: going out, then the most cards,
 * the pass last. Returns how many. */
static size_t ordered_moves(const gd_deal *d, gd_move *out) {
    gd_view v;
    gd_view_init(&v, &d->hands[d->turn], d->level);
    gd_move moves[GD_MAX_RANK_MOVES];
    const size_t n = gd_rank_moves(&v, d->beat, moves);
    const unsigned held = gd_card_total(&d->hands[d->turn]);
    /* counting sort by cards spent (0..10; going out above all) */
    size_t bucket[12] = {0};
    unsigned size[GD_MAX_RANK_MOVES];
    for (size_t i = 0; i < n; i++) {
        const unsigned c = moves[i] == GD_PASS_MOVE ? 0 : gd_move_cards(moves[i]);
        size[i] = c == held ? 11 : c;
        bucket[size[i]]++;
    }
    size_t start[12], at = 0;
    for (int c = 11; c >= 0; c--) {
        start[c] = at;
        at += bucket[c];
    }
    for (size_t i = 0; i < n; i++) out[start[size[i]]++] = moves[i];
    return n;
}

static int node(gd_solver *s, const gd_deal *d, int alpha, int beta) {
    if (d->over) return gd_deal_score(d, 0, s->promotion);
    if (++s->nodes > s->budget) {
        s->aborted = 1;
        return 0;
    }
    const uint64_t key = state_key(d);
    gd_solve_entry *e = &s->table[key & s->mask];
    int lower = -INF, upper = INF;
    if (e->key == key && e->generation == s->generation) {
        lower = e->lower;
        upper = e->upper;
        if (lower == upper || lower >= beta) return lower;
        if (upper <= alpha) return upper;
        if (lower > alpha) alpha = lower;
        if (upper < beta) beta = upper;
    }
    const int a0 = alpha, b0 = beta;
    const int maximizing = (d->turn & 1) == 0;
    gd_move moves[GD_MAX_RANK_MOVES];
    const size_t n = ordered_moves(d, moves);
    int best = maximizing ? -INF : INF;
    for (size_t i = 0; i < n; i++) {
        gd_deal child = *d;
        gd_cards spent = {{0, 0}};
        if (moves[i] != GD_PASS_MOVE) gd_spend(&child.hands[child.turn], child.level, moves[i], &spent);
        gd_deal_apply(&child, moves[i], &spent);
        const int v = node(s, &child, alpha, beta);
        if (s->aborted) return 0;
        if (maximizing) {
            if (v > best) best = v;
            if (v > alpha) alpha = v;
        } else {
            if (v < best) best = v;
            if (v < beta) beta = v;
        }
        if (alpha >= beta) break;
    }
    /* what this search proved: an exact value, or a bound when it failed low or high */
    if (best <= a0) upper = best < upper ? best : upper;
    else if (best >= b0) lower = best > lower ? best : lower;
    else lower = upper = best;
    e->key = key; /* a different state's entry is replaced: the newer is the likelier to be needed */
    e->generation = s->generation;
    e->lower = (int8_t)lower;
    e->upper = (int8_t)upper;
    return best;
}

int gd_solve(gd_solver *s, const gd_deal *d, int side, int *value) {
    s->nodes = 0;
    s->aborted = 0;
    const int v = node(s, d, -INF, INF);
    if (s->aborted) return 0;
    *value = side == 0 ? v : -v;
    return 1;
}

int gd_solve_move(gd_solver *s, const gd_deal *d, gd_move *move, int *value) {
    if (d->over) return 0;
    const int side = d->turn & 1;
    gd_move moves[GD_MAX_RANK_MOVES];
    const size_t n = ordered_moves(d, moves);
    int64_t used = 0;
    int best = -INF;
    gd_move choice = moves[0];
    for (size_t i = 0; i < n; i++) {
        gd_deal child = *d;
        gd_cards spent = {{0, 0}};
        if (moves[i] != GD_PASS_MOVE) gd_spend(&child.hands[child.turn], child.level, moves[i], &spent);
        gd_deal_apply(&child, moves[i], &spent);
        int v;
        const int64_t budget = s->budget;
        s->budget = budget - used;
        const int ok = s->budget > 0 && gd_solve(s, &child, side, &v);
        s->budget = budget;
        used += s->nodes;
        if (!ok) {
            s->nodes = used;
            return 0;
        }
        if (v > best) best = v, choice = moves[i];
    }
    s->nodes = used;
    *move = choice;
    *value = best;
    return 1;
}
