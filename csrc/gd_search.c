/* Search over hidden hands. See gd_search.h. */
#define _POSIX_C_SOURCE 200809L
#include "gd_search.h"

#include "gd_solve.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef GD_NO_THREADS
#include <pthread.h>
#endif

#define M52 ((1ull << 52) - 1)
#define ONES13 0x1111111111111ull

/* ---- small helpers --------------------------------------------------------------------- */

/* Per nibble of x: 1 at the nibble's low bit when the nibble is nonzero. */
static inline uint64_t nz(uint64_t x) { return (x | x >> 1 | x >> 2 | x >> 3) & ONES13; }
/* Per nibble: 1 when the nibble is 4 or more (nibbles hold at most 8). */
static inline uint64_t ge4(uint64_t x) { return (x >> 2 | x >> 3) & ONES13; }
/* How many nibbles an indicator word (bits at 4r only) marks. */
static inline unsigned nsum(uint64_t ind) { return (unsigned)((ind * ONES13) >> 48) & 15u; }

static int holding(const gd_deal *d, int seat) {
    for (int i = 0; i < d->n_finished; i++)
        if (d->finished[i] == seat) return 0;
    return 1;
}

static int is_bomb(gd_move m) {
    const unsigned t = GD_MOVE_TYPE(m);
    return t == GD_BOMB || t == GD_STRAIGHT_FLUSH || t == GD_JOKER_BOMB;
}

/* Elevated order of a key: the level rank above the aces (12), the jokers 13 and 14. */
static inline int elevated(int key, int level) {
    if (key >= 13) return key;
    if (key == level) return 12;
    return key < level ? key : key - 1;
}

/* The order a move's key gives it among moves of its type: sequences by their window (the
 * ace-low window 0), the others by the elevated order of the key. */
static int key_order(gd_move m, int level) {
    const unsigned type = GD_MOVE_TYPE(m), key = GD_MOVE_KEY(m);
    if (type == GD_STRAIGHT || type == GD_PAIR_RUN || type == GD_TRIPLE_RUN || type == GD_STRAIGHT_FLUSH)
        return key == 12 ? 0 : (int)key + 1;
    return elevated((int)key, level);
}

/* Bomb strength, as gd_play's weakness: class (size, straight flush, joker bomb), then key. */
static uint32_t bomb_order(gd_move m, int level) {
    const unsigned type = GD_MOVE_TYPE(m), size = gd_move_cards(m);
    const unsigned cls = type == GD_JOKER_BOMB ? 8 : type == GD_STRAIGHT_FLUSH ? 2 : size <= 5 ? size - 4 : size - 3;
    return cls << 8 | (unsigned)key_order(m, level) << 2 | GD_MOVE_WILDS(m);
}

uint64_t gd_stream(uint64_t seed, uint64_t a, uint64_t b) {
    gd_rng r = {seed ^ 0x5851F42D4C957F2Dull};
    uint64_t x = gd_rng_next(&r);
    r.state = x ^ (a * 0x9E3779B97F4A7C15ull);
    x = gd_rng_next(&r);
    r.state = x ^ (b * 0xD1B54A32D192ED03ull);
    return gd_rng_next(&r);
}

static double uniform01(gd_rng *rng) { return (double)(gd_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0); }

/* ---- the smart policy ------------------------------------------------------------------ *
 *
 * The greedy policy's frame (go out when one move empties the hand; let a partner's play
 * stand; otherwise the cheapest combination, bombs kept), with a cost that sees the shape of
 * the hand and the table:
 *
 * - a combination's cost: 10 per step of its key's order, less 3 per card when leading
 *   (dumping more cards at once), plus 300 for each rank it splits (leaves part of a pair
 *   or triple behind: a combination that keeps the hand's groups whole is preferred to any
 *   that splits one), 60 for each rank held four times or more that it breaks up (a bomb),
 *   25 per wild spent, 60 for spending a joker of a joker bomb;
 * - leading with 10 cards or fewer, a combination that no opponent can beat (in a rollout
 *   the deal is known: the policy looks at the opponents' hands) and after which one move
 *   plays out the rest comes first;
 * - leading with an opponent about to go out (1 or 2 cards), combinations it could answer
 *   with its last cards (no more cards than it holds) cost 100 more; with the partner about
 *   to go out and the opponents not, the lowest single or pair is led to it;
 * - responding to an opponent: the cheapest combination that beats it, if it spends no wild
 *   and breaks no bomb, else only when an opponent is close to going out (5 cards or fewer);
 *   a bomb, the smallest, when no combination is played and the play's owner holds 10 cards
 *   or fewer, or an opponent 4 or fewer, or when the bomb leaves this seat 8 cards or fewer.
 */

/* Whether a hand can be played out in one move (it holds a lead of all its cards). */
static int one_move(const gd_cards *hand, int level) {
    gd_view v;
    gd_move moves[GD_MAX_RANK_MOVES];
    gd_view_init(&v, hand, level);
    const unsigned n = gd_card_total(hand);
    if (n == 0) return 1;
    const size_t k = gd_rank_moves(&v, GD_PASS_MOVE, moves);
    for (size_t i = 0; i < k; i++)
        if (gd_move_cards(moves[i]) == n) return 1;
    return 0;
}

/* Whether a seat holds a move that beats m. */
static int can_beat(const gd_deal *d, int seat, gd_move m) {
    gd_view v;
    gd_move moves[GD_MAX_RANK_MOVES];
    gd_view_init(&v, &d->hands[seat], d->level);
    return gd_rank_moves(&v, m, moves) > 1; /* the pass and at least one play */
}

typedef struct smart_ctx {
    gd_view v;
    int level, seat, leading, from_partner;
    unsigned mine, owner_count, opp_min, partner_count;
    uint64_t four;     /* ranks held four times or more naturally (indicator nibbles) */
    int joker_bomb;    /* all four jokers held */
} smart_ctx;

static void smart_init(smart_ctx *c, const gd_deal *d) {
    const int seat = d->turn;
    gd_view_init(&c->v, &d->hands[seat], d->level);
    c->level = d->level;
    c->seat = seat;
    c->leading = d->beat == GD_PASS_MOVE;
    c->from_partner = !c->leading && d->last == (seat ^ 2);
    c->mine = gd_card_total(&d->hands[seat]);
    c->opp_min = 99;
    for (int s = 0; s < 4; s++)
        if ((s & 1) != (seat & 1) && holding(d, s)) {
            const unsigned n = gd_card_total(&d->hands[s]);
            if (n < c->opp_min) c->opp_min = n;
        }
    c->owner_count = c->leading ? 0 : gd_card_total(&d->hands[d->last]);
    c->partner_count = holding(d, seat ^ 2) ? gd_card_total(&d->hands[seat ^ 2]) : 0;
    c->four = ge4(c->v.count);
    c->joker_bomb = c->v.small == 2 && c->v.big == 2;
}

static int uses_jokers(gd_move m) {
    const unsigned type = GD_MOVE_TYPE(m), key = GD_MOVE_KEY(m);
    return type == GD_JOKER_BOMB || (type == GD_FULL_HOUSE && GD_MOVE_X(m)) ||
           ((type == GD_SINGLE || type == GD_PAIR) && (key == GD_KEY_SMALL_JOKER || key == GD_KEY_BIG_JOKER));
}

/* Cost of a non-bomb (see above); `dirty` set when it spends a wild or breaks a bomb. */
static int smart_cost(const smart_ctx *c, gd_move m, int *dirty) {
    const uint64_t spent = m & M52;
    const uint64_t touched = nz(spent);
    const uint64_t left = c->v.count - spent;
    const unsigned broken = nsum(touched & c->four);
    const unsigned wilds = GD_MOVE_WILDS(m);
    const int joker = c->joker_bomb && uses_jokers(m);
    int cost = 10 * key_order(m, c->level);
    cost += 300 * (int)nsum(touched & nz(left) & ~c->four);
    cost += 60 * (int)broken + 25 * (int)wilds + (joker ? 60 : 0);
    *dirty = broken || wilds || joker;
    return cost;
}

/* Whether leading m leaves a hand that one move plays out, and no opponent can beat m: then
 * m keeps the lead and the next lead goes out. */
static int last_but_one(const gd_deal *d, const smart_ctx *c, gd_move m) {
    gd_cards spent, rest = d->hands[c->seat];
    gd_spend(&rest, c->level, m, &spent);
    rest.w[0] -= spent.w[0];
    rest.w[1] -= spent.w[1];
    if (!one_move(&rest, c->level)) return 0;
    for (int s = 0; s < 4; s++)
        if ((s & 1) != (c->seat & 1) && holding(d, s) && can_beat(d, s, m)) return 0;
    return 1;
}

/* A move that plays out the whole hand: the weakest such (non-bombs first); else the pass. */
static gd_move going_out(const smart_ctx *c, const gd_move *moves, size_t k) {
    gd_move out = GD_PASS_MOVE;
    if (c->mine > 27) return out;
    uint32_t out_w = UINT32_MAX;
    for (size_t i = 0; i < k; i++) {
        const gd_move m = moves[i];
        if (m == GD_PASS_MOVE || gd_move_cards(m) != c->mine) continue;
        const uint32_t w = is_bomb(m) ? (1u << 20) | bomb_order(m, c->level) : (uint32_t)key_order(m, c->level);
        if (w < out_w) out_w = w, out = m;
    }
    return out;
}

/* Whether last_but_one holds for moves[i], remembered in lbo[i] (-1: not known yet) when
 * lbo is given. */
static int lbo_at(const gd_deal *d, const smart_ctx *c, const gd_move *moves, size_t i, int8_t *lbo) {
    if (!lbo) return last_but_one(d, c, moves[i]);
    if (lbo[i] < 0) lbo[i] = (int8_t)last_but_one(d, c, moves[i]);
    return lbo[i];
}

/* The smart policy's choice among the legal moves once no move plays out the hand. */
static gd_move smart_pick(const gd_deal *d, const smart_ctx *c, const gd_move *moves, size_t k, int8_t *lbo) {
    if (c->from_partner) return GD_PASS_MOVE;
    gd_move best = GD_PASS_MOVE, bomb = GD_PASS_MOVE;
    int best_cost = INT32_MAX, best_dirty = 0;
    uint32_t bomb_w = UINT32_MAX;
    const int feed = c->leading && c->partner_count && c->partner_count <= 2 && c->opp_min > 2;
    for (size_t i = 0; i < k; i++) {
        const gd_move m = moves[i];
        if (m == GD_PASS_MOVE) continue;
        if (is_bomb(m)) {
            const uint32_t w = bomb_order(m, c->level);
            if (w < bomb_w) bomb_w = w, bomb = m;
            continue;
        }
        int dirty;
        int cost = smart_cost(c, m, &dirty);
        if (c->leading) {
            const unsigned size = gd_move_cards(m);
            cost -= 3 * (int)size;
            if (c->opp_min <= 2 && size <= c->opp_min) cost += 100;
            if (feed && size <= c->partner_count && !dirty) cost -= 200;
            if (c->mine <= 10 && lbo_at(d, c, moves, i, lbo)) cost -= 2000;
        }
        if (cost < best_cost) best_cost = cost, best = m, best_dirty = dirty;
    }
    if (c->leading) return best != GD_PASS_MOVE ? best : bomb;
    if (best != GD_PASS_MOVE && (!best_dirty || c->opp_min <= 5)) return best;
    if (bomb != GD_PASS_MOVE) {
        const unsigned left = c->mine - gd_move_cards(bomb);
        if (c->owner_count <= 10 || c->opp_min <= 4 || left <= 8) return bomb;
    }
    return GD_PASS_MOVE;
}

/* What the smart and the learned policies share: the seat's context and legal moves, and
 * the moves that need no choosing (the pass when it is the only move; a move that plays out
 * the hand). Returns 1 with *decided set when the move is decided, else 0. */
static int policy_start(const gd_deal *d, smart_ctx *c, gd_move *moves, size_t *k, gd_move *decided) {
    smart_init(c, d);
    *k = gd_rank_moves(&c->v, d->beat, moves);
    *decided = GD_PASS_MOVE;
    if (!c->leading && *k == 1) return 1;
    *decided = going_out(c, moves, *k);
    return *decided != GD_PASS_MOVE;
}

gd_move gd_smart_move(const gd_deal *d) {
    gd_move moves[GD_MAX_RANK_MOVES], decided;
    smart_ctx c;
    size_t k;
    if (policy_start(d, &c, moves, &k, &decided)) return decided;
    return smart_pick(d, &c, moves, k, NULL);
}

/* ---- the learned policy ---------------------------------------------------------------- *
 *
 * A linear score over features of a move in its position, the weights learned from the
 * search's own decisions (guandan.rl.imitate). The features, each 0 unless said, for a move
 * m of the seat to act (size: its cards; left: the seat's cards after it; opp_min: the fewest
 * cards an opponent still holding has; owner: the seat of the play to beat):
 *
 * pass:        1 for the pass; pass_opp5: the pass while an opponent holds 5 cards or
 *              fewer; pass_partner: the pass on the partner's play; pass_owner5: the pass on
 *              an opponent's play that left it 5 cards or fewer;
 * bomb:        1 for a bomb; bomb_class: (its class 0..8 + its key order / 15) / 9 (the
 *              order of bombs); bomb_opp4, bomb_left8, bomb_owner10: a bomb while an
 *              opponent holds 4 cards or fewer, leaving the seat 8 or fewer, on the play of a
 *              seat holding 10 or fewer;
 * key, key2:   a non-bomb's key order / 15 and its square (sequences by their window);
 * size:        a non-bomb's cards / 10;
 * splits:      ranks a non-bomb leaves part of behind (of ranks held fewer than 4 times);
 * broken:      ranks held 4 times or more that a non-bomb breaks up;
 * wilds:       wilds a non-bomb spends; jokers: 1 when a non-bomb spends a joker of a held
 *              joker bomb;
 * last_but_one: (10 cards or fewer) no opponent can beat m and one move plays out the rest;
 * answerable:  opp_min <= 2 and m holds no more cards than that opponent;
 * feed:        the partner holds 1 or 2 cards, the opponents more, and a non-bomb spending
 *              no wild and breaking no bomb holds no more cards than the partner;
 * over_partner: m (not the pass) beats the partner's play;
 * dirty_opp5:  a non-bomb that spends a wild, breaks a bomb or a joker bomb, opp_min <= 5;
 * single .. triple_run: 1 for a non-bomb of that type;
 * left:        left / 27 (every move but the pass);
 * smart:       1 for the smart policy's move (gd_smart_move);
 * opp_over, partner_over: m is a single, pair or triple and an opponent still holding (the
 *              partner, still holding) can beat it with one of the same type, of its natural
 *              cards and wilds (in a rollout the deal is known; bombs not counted);
 * pass_jiefeng: the pass on the play with which the partner went out (the lead comes to this
 *              seat if the others pass too);
 * bomb_partner_out: a bomb while the partner has gone out.
 */

/* What the learned policy sees of the other hands: the highest elevated order of a single,
 * a pair and a triple (no bomb) an opponent still holding, and the partner still holding,
 * can make of its natural cards and wilds; -1 for none. */
typedef struct over_ctx {
    int opp[3], partner[3];
} over_ctx;

/* The highest elevated order among the ranks an indicator word marks (bits at 4r), -1 for
 * none. */
static int top_order(uint64_t ind, int level) {
    if (!ind) return -1;
    if ((ind >> (4 * level)) & 1u) return 12;
    const int r = (63 - __builtin_clzll(ind)) >> 2;
    return r < level ? r : r - 1;
}

static void seat_tops(const gd_deal *d, int seat, int top[3]) {
    gd_view v;
    gd_view_init(&v, &d->hands[seat], d->level);
    const uint64_t x = v.count; /* nibbles hold at most 8 */
    const uint64_t at_least[4] = {ONES13, nz(x), (x >> 1 | x >> 2 | x >> 3) & ONES13,
                                  ((x & x >> 1) | x >> 2 | x >> 3) & ONES13};
    for (int n = 1; n <= 3; n++) {
        const int need = n - (int)v.wilds;
        int best = top_order(at_least[need > 0 ? need : 0], d->level);
        if (n <= 2 && v.small >= n) best = 13;
        if (n <= 2 && v.big >= n) best = 14;
        top[n - 1] = best;
    }
}

static void over_init(over_ctx *o, const gd_deal *d) {
    const int seat = d->turn;
    for (int n = 0; n < 3; n++) o->opp[n] = o->partner[n] = -1;
    for (int s = 0; s < 4; s++) {
        if (s == seat || !holding(d, s)) continue;
        int top[3];
        seat_tops(d, s, top);
        int *into = s == (seat ^ 2) ? o->partner : o->opp;
        for (int n = 0; n < 3; n++)
            if (top[n] > into[n]) into[n] = top[n];
    }
}

/* The features of m (see above), last_but_one given (0 or 1: computed by the caller). */
static void features(const smart_ctx *c, const over_ctx *o, gd_move smart, gd_move m, int lbo, float *f) {
    memset(f, 0, GD_FEATURES * sizeof(float));
    f[GD_F_SMART] = m == smart;
    if (m == GD_PASS_MOVE) {
        f[GD_F_PASS] = 1.0f;
        f[GD_F_PASS_JIEFENG] = c->from_partner && c->partner_count == 0;
        f[GD_F_PASS_OPP5] = c->opp_min <= 5;
        f[GD_F_PASS_PARTNER] = c->from_partner;
        f[GD_F_PASS_OWNER5] = !c->leading && !c->from_partner && c->owner_count <= 5;
        return;
    }
    const unsigned size = gd_move_cards(m), left = c->mine - size;
    f[GD_F_LEFT] = (float)left / 27.0f;
    f[GD_F_OVER_PARTNER] = c->from_partner;
    f[GD_F_ANSWERABLE] = c->opp_min <= 2 && size <= c->opp_min;
    f[GD_F_LAST_BUT_ONE] = (float)lbo;
    if (is_bomb(m)) {
        const unsigned type = GD_MOVE_TYPE(m);
        const unsigned cls = type == GD_JOKER_BOMB ? 8 : type == GD_STRAIGHT_FLUSH ? 2 : size <= 5 ? size - 4 : size - 3;
        const int order = type == GD_JOKER_BOMB ? 0 : key_order(m, c->level);
        f[GD_F_BOMB] = 1.0f;
        f[GD_F_BOMB_CLASS] = ((float)cls + (float)order / 15.0f) / 9.0f;
        f[GD_F_BOMB_OPP4] = c->opp_min <= 4;
        f[GD_F_BOMB_LEFT8] = left <= 8;
        f[GD_F_BOMB_OWNER10] = !c->leading && c->owner_count <= 10;
        f[GD_F_BOMB_PARTNER_OUT] = c->partner_count == 0;
        return;
    }
    const uint64_t spent = m & M52, touched = nz(spent), rest = c->v.count - spent;
    const unsigned broken = nsum(touched & c->four), wilds = GD_MOVE_WILDS(m);
    const int joker = c->joker_bomb && uses_jokers(m);
    const float key = (float)key_order(m, c->level) / 15.0f;
    f[GD_F_KEY] = key;
    f[GD_F_KEY2] = key * key;
    f[GD_F_SIZE] = (float)size / 10.0f;
    f[GD_F_SPLITS] = (float)nsum(touched & nz(rest) & ~c->four);
    f[GD_F_BROKEN] = (float)broken;
    f[GD_F_WILDS] = (float)wilds;
    f[GD_F_JOKERS] = (float)joker;
    const int dirty = broken || wilds || joker;
    f[GD_F_FEED] = c->partner_count && c->partner_count <= 2 && c->opp_min > 2 && size <= c->partner_count && !dirty;
    f[GD_F_DIRTY_OPP5] = dirty && c->opp_min <= 5;
    const unsigned type = GD_MOVE_TYPE(m);
    f[GD_F_SINGLE + type - GD_SINGLE] = 1.0f;
    if (type == GD_SINGLE || type == GD_PAIR || type == GD_TRIPLE) {
        const int order = key_order(m, c->level), n = (int)(type - GD_SINGLE);
        f[GD_F_OPP_OVER] = o->opp[n] > order;
        f[GD_F_PARTNER_OVER] = o->partner[n] > order;
    }
}

void gd_move_features(const gd_deal *d, gd_move m, float out[GD_POLICY_WEIGHTS]) {
    smart_ctx c;
    over_ctx o;
    smart_init(&c, d);
    over_init(&o, d);
    memset(out, 0, GD_POLICY_WEIGHTS * sizeof(float));
    const int lbo = m != GD_PASS_MOVE && c.mine <= 10 && last_but_one(d, &c, m);
    features(&c, &o, gd_smart_move(d), m, lbo, out + (c.leading ? 0 : GD_FEATURES));
}

/* A move's score in half h (0: leading) under the weights: the linear score, plus the hidden
 * layer's when there is one (gd_linear). Each sum is accumulated in index order. A move has
 * a few of its 34 features nonzero, so the hidden units' sums run over those alone: a term
 * of 0 adds nothing to a float sum, so each is the full sum, bit for bit (up to the sign of
 * a zero, which no comparison sees). */
static float policy_score(const gd_linear *lin, int h, const float *f) {
    const float *w = lin->w + h * GD_FEATURES;
    float score = 0.0f;
    for (int j = 0; j < GD_FEATURES; j++) score += w[j] * f[j];
    if (!lin->hidden) return score;
    int nz[GD_FEATURES], n = 0;
    for (int j = 0; j < GD_FEATURES; j++)
        if (f[j] != 0.0f) nz[n++] = j;
    for (int j = 0; j < lin->hidden; j++) {
        const float *u = lin->u[h][j];
        float a = 0.0f;
        for (int t = 0; t < n; t++) a += u[nz[t]] * f[nz[t]];
        a += lin->b[h][j];
        if (a > 0.0f) score += lin->v[h][j] * a;
    }
    return score;
}

/* The start the learned choices share (gd_learned_move, gd_learned_sample): the moves and
 * their context, the smart policy's pick (a feature), the half of the weights (0: leading),
 * and in the endgame last_but_one not yet known (-1) for every move. */
typedef struct {
    smart_ctx c;
    gd_move moves[GD_MAX_RANK_MOVES];
    size_t k;
    int endgame, h;
    int8_t lbo[GD_MAX_RANK_MOVES];
    gd_move smart;
} learned_ctx;

/* Fills *l; returns 1 instead when the choice is made before any score (*decided: the only
 * move when responding, or going out). */
static int learned_start(const gd_deal *d, learned_ctx *l, gd_move *decided) {
    if (policy_start(d, &l->c, l->moves, &l->k, decided)) return 1;
    l->endgame = l->c.mine <= 10;
    if (l->endgame) memset(l->lbo, -1, l->k);
    l->smart = smart_pick(d, &l->c, l->moves, l->k, l->endgame ? l->lbo : NULL);
    l->h = l->c.leading ? 0 : 1;
    return 0;
}

/* The learned choice. last_but_one (a move generation for the rest of the hand and one for
 * each opponent) is the dear feature: it is computed only where it can change the choice.
 * While it is not known, a move has two scores, with it false and with it true (with a
 * hidden layer, the same sums as once it is known; for a linear score, the score plus the
 * feature's weight, up to rounding, which a margin covers); the best of the lower ones is a
 * score some move reaches, so a move whose higher score falls short of it cannot be chosen
 * and needs no last_but_one. Only the others compute it; the choice is the same as with
 * every feature computed, for any weights (of either sign), a hidden layer or not. */
gd_move gd_learned_move(const gd_deal *d, const gd_linear *lin) {
    learned_ctx l;
    gd_move decided;
    if (learned_start(d, &l, &decided)) return decided;
    const smart_ctx *c = &l.c;
    const gd_move *moves = l.moves;
    const size_t k = l.k;
    int8_t *lbo = l.lbo; /* in the endgame: -1 while not known */
    const int endgame = l.endgame, h = l.h;
    const gd_move smart = l.smart;
    const float *w = lin->w + h * GD_FEATURES;
    over_ctx o; /* the other hands' tops: three views, only when a weight looks at them */
    if (lin->hidden || w[GD_F_OPP_OVER] != 0.0f || w[GD_F_PARTNER_OVER] != 0.0f) {
        over_init(&o, d);
    } else {
        for (int n = 0; n < 3; n++) o.opp[n] = o.partner[n] = -1;
    }
    float f[GD_FEATURES], score[GD_MAX_RANK_MOVES], if_true[GD_MAX_RANK_MOVES];
    float top = 0.0f;
    for (size_t i = 0; !endgame && i < k; i++) { /* before the endgame: no last_but_one */
        features(c, &o, smart, moves[i], 0, f);
        score[i] = policy_score(lin, h, f);
    }
    for (size_t i = 0; endgame && i < k; i++) {
        if (moves[i] == GD_PASS_MOVE) lbo[i] = 0;
        features(c, &o, smart, moves[i], lbo[i] > 0, f);
        score[i] = policy_score(lin, h, f);
        float low = score[i];
        if (lbo[i] < 0) {
            f[GD_F_LAST_BUT_ONE] = 1.0f;
            /* a linear score: the score plus the feature's weight, up to rounding (margin) */
            if_true[i] = lin->hidden ? policy_score(lin, h, f) : score[i] + w[GD_F_LAST_BUT_ONE];
            if (if_true[i] < low) low = if_true[i];
        }
        if (i == 0 || low > top) top = low;
    }
    const float margin = lin->hidden ? 0.0f : 1e-3f * (1.0f + fabsf(top) + fabsf(w[GD_F_LAST_BUT_ONE]));
    for (size_t i = 0; endgame && i < k; i++) {
        if (lbo[i] >= 0) continue;
        if (score[i] + margin < top && if_true[i] + margin < top) {
            if (if_true[i] < score[i]) score[i] = if_true[i]; /* below the chosen move's */
        } else if (lbo_at(d, c, moves, i, lbo)) {
            if (lin->hidden) {
                score[i] = if_true[i];
            } else {
                features(c, &o, smart, moves[i], 1, f);
                score[i] = policy_score(lin, h, f);
            }
        }
    }
    size_t best = 0;
    for (size_t i = 1; i < k; i++)
        if (score[i] > score[best]) best = i;
    return moves[best];
}

gd_move gd_learned_sample(const gd_deal *d, const gd_linear *lin, gd_rng *rng) {
    learned_ctx l;
    gd_move decided;
    if (learned_start(d, &l, &decided)) return decided;
    over_ctx o;
    over_init(&o, d);
    float f[GD_FEATURES], score[GD_MAX_RANK_MOVES];
    for (size_t i = 0; i < l.k; i++) {
        const gd_move m = l.moves[i];
        const int last = l.endgame && m != GD_PASS_MOVE && lbo_at(d, &l.c, l.moves, i, l.lbo);
        features(&l.c, &o, l.smart, m, last, f);
        score[i] = policy_score(lin, l.h, f);
    }
    float top = score[0];
    for (size_t i = 1; i < l.k; i++)
        if (score[i] > top) top = score[i];
    double weight[GD_MAX_RANK_MOVES], total = 0.0;
    for (size_t i = 0; i < l.k; i++) total += weight[i] = exp(((double)score[i] - (double)top) / lin->temperature);
    const double u = uniform01(rng) * total;
    double run = 0.0;
    for (size_t i = 0; i < l.k; i++) {
        run += weight[i];
        if (u < run) return l.moves[i];
    }
    return l.moves[l.k - 1]; /* rounding at the top end */
}

gd_move gd_policy_move_linear(const gd_deal *d, int policy, const gd_linear *lin, gd_rng *rng) {
    if (policy == GD_POLICY_LEARNED && lin && lin->temperature > 0.0) return gd_learned_sample(d, lin, rng);
    if (policy == GD_POLICY_LEARNED) return lin ? gd_learned_move(d, lin) : gd_smart_move(d);
    if (policy == GD_POLICY_SMART) return gd_smart_move(d);
    return gd_choose(d, policy, rng);
}

gd_move gd_policy_move(const gd_deal *d, int policy, gd_rng *rng) {
    return gd_policy_move_linear(d, policy, NULL, rng);
}

int gd_rollout(gd_deal *d, const uint8_t policies[4], gd_rng *rng) { return gd_rollout_linear(d, policies, NULL, rng); }

int gd_rollout_linear(gd_deal *d, const uint8_t policies[4], const gd_linear *lin, gd_rng *rng) {
    const gd_linear *lins[4] = {lin, lin, lin, lin};
    return gd_rollout_seats(d, policies, lins, rng);
}

int gd_rollout_seats(gd_deal *d, const uint8_t policies[4], const gd_linear *const lins[4], gd_rng *rng) {
    int plies = 0;
    while (!d->over && plies < 100000) {
        const gd_move m = gd_policy_move_linear(d, policies[d->turn], lins[d->turn], rng);
        gd_cards spent;
        gd_spend(&d->hands[d->turn], d->level, m, &spent);
        gd_deal_apply(d, m, &spent);
        plies++;
    }
    return plies;
}

/* ---- the state value ------------------------------------------------------------------- */

void gd_value_features(const gd_deal *d, float out[GD_VALUE_FEATURES]) {
    memset(out, 0, GD_VALUE_FEATURES * sizeof(float));
    const int t = d->turn, level = d->level;
    int place[4] = {0, 0, 0, 0};
    for (int i = 0; i < d->n_finished && i < 4; i++) place[d->finished[i] & 3] = i + 1 < 3 ? i + 1 : 3;
    for (int r = 0; r < 4; r++) {
        const int seat = (t + r) & 3;
        uint8_t counts[GD_FACES];
        gd_unpack_cards(&d->hands[seat], counts);
        float *f = out + 21 * r;
        int total = 0;
        for (int rank = 0; rank < GD_RANKS; rank++) {
            int n = 0;
            for (int suit = 0; suit < 4; suit++)
                if (!(rank == level && suit == GD_HEARTS)) n += counts[4 * rank + suit];
            total += n;
            f[elevated(rank, level)] = (float)n / 4.0f;
        }
        const int wilds = counts[4 * level + GD_HEARTS];
        f[13] = (float)wilds / 2.0f;
        f[14] = (float)counts[GD_SMALL_JOKER] / 2.0f;
        f[15] = (float)counts[GD_BIG_JOKER] / 2.0f;
        total += wilds + counts[GD_SMALL_JOKER] + counts[GD_BIG_JOKER];
        f[16] = (float)total / 27.0f;
        f[17 + place[seat]] = 1.0f;
    }
    float *g = out + 84;
    if (d->last >= 0 && d->beat != GD_PASS_MOVE) {
        g[(d->last - t) & 3] = 1.0f;
        const unsigned type = GD_MOVE_TYPE(d->beat);
        if (type >= GD_SINGLE && type <= GD_JOKER_BOMB) g[5 + type - GD_SINGLE] = 1.0f;
        g[15] = (float)key_order(d->beat, level) / 14.0f;
        g[16] = (float)gd_move_size(d->beat) / 10.0f;
    } else {
        g[4] = 1.0f;
    }
    g[17] = (float)d->passes / 3.0f;
    g[18] = (float)level / 12.0f;
}

size_t gd_value_size(const int hidden[2]) {
    const size_t a = (size_t)hidden[0], b = (size_t)hidden[1];
    return GD_VALUE_FEATURES * a + a + a * b + b + b + 1;
}

/* A layer's units: out[j] = bias[j] + sum of x[i] * w[i][j] over the nonzero inputs i, in
 * index order; then ReLU. */
static void value_layer(const float *x, int n_in, const float *w, const float *bias, int n_out, float *out) {
    for (int j = 0; j < n_out; j++) out[j] = 0.0f;
    for (int i = 0; i < n_in; i++) {
        const float xi = x[i];
        if (xi == 0.0f) continue;
        const float *row = w + (size_t)i * n_out;
        for (int j = 0; j < n_out; j++) out[j] += xi * row[j];
    }
    for (int j = 0; j < n_out; j++) {
        const float a = out[j] + bias[j];
        out[j] = a > 0.0f ? a : 0.0f;
    }
}

double gd_value_eval(const gd_value *v, const gd_deal *d) {
    float x[GD_VALUE_FEATURES], h1[GD_VALUE_HIDDEN], h2[GD_VALUE_HIDDEN];
    const int a = v->hidden[0], b = v->hidden[1];
    gd_value_features(d, x);
    const float *w = v->w;
    value_layer(x, GD_VALUE_FEATURES, w, w + GD_VALUE_FEATURES * a, a, h1);
    w += GD_VALUE_FEATURES * a + a;
    value_layer(h1, a, w, w + (size_t)a * b, b, h2);
    w += (size_t)a * b + b;
    float out = 0.0f;
    for (int j = 0; j < b; j++) out += h2[j] * w[j];
    return (double)(out + w[b]);
}

/* A playout that the value ends: the rollout policy's plies, at most v->plies, then the value
 * of the state reached for `side`, or the result when the deal ended first; in GD_VALUE_ONE
 * fixed point. With v->mix < 1 the playout goes on to the end from there and scores
 * (1 - mix) * its result + mix * the value. */
static int64_t value_playout(gd_deal *d, const uint8_t policies[4], const gd_linear *lin, const gd_value *v,
                             int side, const uint8_t promotion[3], gd_rng *rng) {
    for (int plies = 0; !d->over && plies < v->plies; plies++) {
        const gd_move m = gd_policy_move_linear(d, policies[d->turn], lin, rng);
        gd_cards spent;
        gd_spend(&d->hands[d->turn], d->level, m, &spent);
        gd_deal_apply(d, m, &spent);
    }
    if (d->over) return (int64_t)gd_deal_score(d, side, promotion) * GD_VALUE_ONE;
    double value = 0.0; /* a share of 0 reads no value */
    if (v->mix > 0.0) {
        value = gd_value_eval(v, d);
        if ((d->turn & 1) != side) value = -value;
        if (!(value > -64.0)) value = -64.0; /* NaN too: a value out of range stays bounded */
        if (value > 64.0) value = 64.0;
    }
    if (v->mix == 1.0) return (int64_t)llround(value * GD_VALUE_ONE);
    gd_rollout_linear(d, policies, lin, rng);
    const double result = (double)gd_deal_score(d, side, promotion);
    return (int64_t)llround(((1.0 - v->mix) * result + v->mix * value) * GD_VALUE_ONE);
}

/* ---- candidates ------------------------------------------------------------------------ */

typedef struct ranked {
    gd_move m;
    int64_t key;
} ranked;

static int by_key(const void *a, const void *b) {
    const int64_t x = ((const ranked *)a)->key, y = ((const ranked *)b)->key;
    return x < y ? -1 : x > y;
}

size_t gd_candidates(const gd_deal *d, size_t limit, gd_move *out) {
    gd_move moves[GD_MAX_RANK_MOVES];
    smart_ctx c;
    smart_init(&c, d);
    const size_t k = gd_rank_moves(&c.v, d->beat, moves);
    const gd_move choice = gd_smart_move(d);
    ranked *r = (ranked *)malloc((k ? k : 1) * sizeof(ranked));
    if (!r || limit == 0) { /* out of memory: the policy's choice alone */
        free(r);
        out[0] = choice;
        return 1;
    }
    size_t n = 0, taken = 0;
    gd_move bomb = GD_PASS_MOVE;
    uint32_t bomb_w = UINT32_MAX;
    out[taken++] = choice;
    if (!c.leading && choice != GD_PASS_MOVE && limit >= 2) out[taken++] = GD_PASS_MOVE;
    for (size_t i = 0; i < k; i++) {
        const gd_move m = moves[i];
        if (m == choice || m == GD_PASS_MOVE) continue;
        int64_t key;
        if (is_bomb(m)) {
            const uint32_t w = bomb_order(m, c.level);
            if (w < bomb_w) bomb_w = w, bomb = m;
            key = ((int64_t)1 << 20) + w;
        } else {
            int dirty;
            key = smart_cost(&c, m, &dirty) - (c.leading ? 3 * (int)gd_move_cards(m) : 0) + (dirty ? 1000 : 0);
        }
        r[n].m = m;
        r[n].key = key * 4096 + (int64_t)i; /* ties: the generator's order */
        n++;
    }
    qsort(r, n, sizeof(ranked), by_key);
    const size_t forced = taken;
    for (size_t i = 0; i < n && taken < limit; i++) out[taken++] = r[i].m;
    /* the smallest bomb is a candidate whenever there is room for one more than the forced */
    if (bomb != GD_PASS_MOVE && limit > forced) {
        int present = 0;
        for (size_t i = 0; i < taken && !present; i++) present = out[i] == bomb;
        if (!present) out[taken - 1] = bomb;
    }
    free(r);
    return taken;
}

void gd_candidate_places(const gd_deal *d, size_t limit, const uint64_t *moves, size_t k, int8_t *out) {
    gd_move cands[128]; /* gd_candidates writes at most its limit */
    const size_t n = gd_candidates(d, limit < 127 ? limit : 127, cands);
    for (size_t i = 0; i < k; i++) {
        const gd_move m = gd_card_to_rank(moves[2 * i], moves[2 * i + 1], d->level);
        int8_t place = -1;
        for (size_t j = 0; j < n && place < 0; j++)
            if (cands[j] == m) place = (int8_t)j;
        out[i] = place;
    }
}

/* ---- information sets ------------------------------------------------------------------ */

enum {
    GD_INFO_OK = 0,
    GD_INFO_SEAT,
    GD_INFO_LEVEL,
    GD_INFO_CARDS,
    GD_INFO_DECK,
    GD_INFO_NEED,
    GD_INFO_EVENT
};

const char *gd_infoset_error(int code) {
    switch (code) {
    case GD_INFO_OK: return "consistent";
    case GD_INFO_SEAT: return "the seat must be 0..3";
    case GD_INFO_LEVEL: return "the level must be a rank 2..14";
    case GD_INFO_CARDS: return "a hand, the pool, a known or forbidden set is not a valid card multiset";
    case GD_INFO_DECK: return "the hand, the pool and the known cards hold more than two copies of a face";
    case GD_INFO_NEED: return "the pool must hold the cards dealt to the other seats (none to the seat itself, at most 28 a seat: a tribute receiver before its return)";
    case GD_INFO_EVENT: return "an event is malformed (a play or a pass by a seat 0..3, with a legal move's cards)";
    default: return "inconsistent information set";
    }
}

int gd_infoset_check(const gd_infoset *s) {
    if (s->seat > 3) return GD_INFO_SEAT;
    if (s->level > 12) return GD_INFO_LEVEL;
    if (gd_check_cards(&s->hand) >= 0 || gd_check_cards(&s->pool) >= 0) return GD_INFO_CARDS;
    for (int i = 0; i < 4; i++)
        if (gd_check_cards(&s->known[i]) >= 0 || gd_check_cards(&s->forbid[i]) >= 0) return GD_INFO_CARDS;
    for (int f = 0; f < GD_FACES; f++) {
        unsigned total = gd_face_count(&s->hand, f) + gd_face_count(&s->pool, f);
        for (int i = 0; i < 4; i++) total += gd_face_count(&s->known[i], f);
        if (total > 2) return GD_INFO_DECK;
    }
    if (s->need[s->seat] || gd_card_total(&s->known[s->seat])) return GD_INFO_NEED;
    unsigned dealt = 0;
    for (int i = 0; i < 4; i++) {
        if (s->need[i] + gd_card_total(&s->known[i]) > 28) return GD_INFO_NEED;
        dealt += s->need[i];
    }
    if (dealt > gd_card_total(&s->pool)) return GD_INFO_NEED;
    for (size_t e = 0; e < s->n_events; e++) {
        const gd_event *ev = &s->events[e];
        if ((ev->kind != GD_EVENT_PLAY && ev->kind != GD_EVENT_PASS) || ev->seat > 3 || ev->other > 3)
            return GD_INFO_EVENT;
    }
    return GD_INFO_OK;
}

void gd_sample_deal(const gd_infoset *s, gd_rng *rng, gd_cards hands[4]) {
    uint8_t cards[108];
    int n = 0;
    for (int f = 0; f < GD_FACES; f++)
        for (unsigned c = gd_face_count(&s->pool, f); c; c--) cards[n++] = (uint8_t)f;
    for (int i = n - 1; i > 0; i--) {
        const int j = (int)gd_rng_below(rng, (uint64_t)i + 1);
        const uint8_t t = cards[i];
        cards[i] = cards[j];
        cards[j] = t;
    }
    /* rooms: the four seats, and a fifth for the cards in no hand (a deal of given hands,
     * not of the whole deck) */
    int room[5], dealt = 0;
    for (int i = 0; i < 4; i++) {
        hands[i] = i == s->seat ? s->hand : s->known[i];
        room[i] = i == s->seat ? 0 : s->need[i];
        dealt += room[i];
    }
    room[4] = n - dealt;
    /* the cards some seat may not hold go first, each to a room that may take it with
     * probability proportional to its size; then the rest fill the rooms in order */
    int forbidden_any = 0;
    for (int i = 0; i < 4; i++) forbidden_any |= (s->forbid[i].w[0] | s->forbid[i].w[1]) != 0 && room[i];
    uint8_t rest[108];
    int n_rest = 0;
    for (int i = 0; i < n; i++) {
        const int f = cards[i];
        int allowed[5], total = 0, all = 0;
        if (forbidden_any) {
            for (int t = 0; t < 5; t++) {
                allowed[t] = room[t] > 0 && (t == 4 || !gd_face_count(&s->forbid[t], f));
                total += allowed[t] ? room[t] : 0;
                all += room[t];
            }
        }
        if (!forbidden_any || total == all) {
            rest[n_rest++] = (uint8_t)f; /* no room is closed to it */
            continue;
        }
        if (total == 0) /* no room may take it: ignore the restriction */
            for (int t = 0; t < 5; t++) allowed[t] = room[t] > 0, total += room[t];
        int pick = (int)gd_rng_below(rng, (uint64_t)total), t = 0;
        for (;; t++)
            if (allowed[t]) {
                if (pick < room[t]) break;
                pick -= room[t];
            }
        if (t < 4) hands[t].w[f >> 5] += (uint64_t)1 << (2 * (f & 31));
        room[t]--;
    }
    int t = 0;
    for (int i = 0; i < n_rest; i++) {
        while (t < 4 && room[t] == 0) t++;
        if (t == 4) break; /* the rest are in no hand */
        const int f = rest[i];
        hands[t].w[f >> 5] += (uint64_t)1 << (2 * (f & 31));
        room[t]--;
    }
}

/* Whether a hand could have beaten `beat` with a non-bomb of the same type that spends no
 * wild, breaks no bomb and (for jokers) keeps a joker bomb. */
static int could_beat(const gd_cards *hand, int level, gd_move beat) {
    const unsigned type = GD_MOVE_TYPE(beat);
    if (type == GD_PASS || is_bomb(beat)) return 0;
    gd_view v;
    gd_view_init(&v, hand, level);
    const uint64_t four = ge4(v.count);
    const int joker_bomb = v.small == 2 && v.big == 2;
    if (type <= GD_TRIPLE) {
        const int need = (int)type, above = elevated((int)GD_MOVE_KEY(beat), level);
        for (int r = 0; r < GD_RANKS; r++) {
            const int c = (int)((v.count >> (4 * r)) & 15u);
            if (c >= need && c < 4 && elevated(r, level) > above) return 1;
        }
        if (type != GD_TRIPLE && !joker_bomb) {
            if (above < 13 && v.small >= need) return 1;
            if (above < 14 && v.big >= need) return 1;
        }
        return 0;
    }
    gd_move moves[GD_MAX_RANK_MOVES];
    const size_t k = gd_rank_moves(&v, beat, moves);
    for (size_t i = 0; i < k; i++) {
        const gd_move m = moves[i];
        if (GD_MOVE_TYPE(m) != type || GD_MOVE_WILDS(m)) continue;
        if (nz(m & M52) & four) continue;
        if (joker_bomb && uses_jokers(m)) continue;
        return 1;
    }
    return 0;
}

double gd_deal_weight(const gd_infoset *s, const gd_infer *inf, const gd_cards hands[4]) {
    const int passes = inf->pass_weight < 1.0, bombs = inf->bomb_weight < 1.0;
    if (!passes && !bombs) return 1.0;
    gd_cards h[4];
    memcpy(h, hands, sizeof(h));
    double w = 1.0;
    for (size_t e = s->n_events; e-- > 0;) {
        const gd_event *ev = &s->events[e];
        const int seat = ev->seat;
        if (seat == s->seat) continue;
        if (ev->kind == GD_EVENT_PLAY) {
            h[seat].w[0] += ev->lo;
            h[seat].w[1] += ev->hi & M52;
            if (bombs && !is_bomb(ev->word)) {
                gd_view v;
                gd_view_init(&v, &h[seat], s->level);
                if (nz(ev->word & M52) & ge4(v.count)) w *= inf->bomb_weight;
            }
        } else if (passes && (ev->other & 1) != (seat & 1) && could_beat(&h[seat], s->level, ev->word)) {
            w *= inf->pass_weight;
        }
    }
    return w;
}

void gd_sample_weighted(const gd_infoset *s, const gd_infer *inf, gd_rng *rng, gd_cards hands[4]) {
    if (inf->tries <= 1 || (inf->pass_weight >= 1.0 && inf->bomb_weight >= 1.0)) {
        gd_sample_deal(s, rng, hands);
        return;
    }
    gd_cards drawn[4];
    double total = 0.0;
    for (int t = 0; t < inf->tries; t++) {
        gd_sample_deal(s, rng, drawn);
        const double w = gd_deal_weight(s, inf, drawn);
        total += w;
        /* keep each draw with probability w / total so far: the kept one is drawn in
         * proportion to its weight */
        if (t == 0 || uniform01(rng) * total < w) memcpy(hands, drawn, sizeof(drawn));
    }
}

double gd_policy_belief(const gd_infoset *s, const gd_linear *lin, double miss, int events, const gd_cards hands[4]) {
    if (!lin || !(miss < 1.0) || events <= 0 || s->n_events == 0) return 1.0;
    gd_deal d;
    memset(&d, 0, sizeof(d));
    memcpy(d.hands, hands, sizeof(d.hands));
    size_t first = s->n_events; /* the first event that counts: the other seats' latest `events` */
    for (int counted = 0; first > 0 && counted < events;)
        counted += s->events[--first].seat != s->seat;
    for (size_t e = 0; e < s->n_events; e++) {
        const gd_event *ev = &s->events[e]; /* seats 0..3: gd_infoset_check */
        if (ev->kind == GD_EVENT_PLAY) {
            const gd_cards played = {{ev->lo, ev->hi & M52}};
            const unsigned before = gd_card_total(&d.hands[ev->seat]);
            d.hands[ev->seat].w[0] += played.w[0];
            d.hands[ev->seat].w[1] += played.w[1];
            /* a face dealt more than twice would carry into the next: not a deal */
            if (gd_check_cards(&played) >= 0 || gd_card_total(&d.hands[ev->seat]) != before + gd_card_total(&played))
                return 1.0;
        }
    }
    d.beat = GD_PASS_MOVE, d.last = -1, d.level = s->level, d.turn = s->events[0].seat;
    if (gd_deal_check(&d)) return 1.0;
    double w = 1.0;
    for (size_t e = 0; e < s->n_events; e++) {
        const gd_event *ev = &s->events[e];
        if (d.over || d.turn != ev->seat) return 1.0; /* not the deal's order of play */
        const int play = ev->kind == GD_EVENT_PLAY;
        const gd_move m = play ? ev->word : GD_PASS_MOVE;
        if (play ? m == GD_PASS_MOVE : d.beat == GD_PASS_MOVE) return 1.0;
        gd_cards spent = {{0, 0}}; /* in the seat's hand: its hand then holds every card it plays from then on */
        if (play) spent.w[0] = ev->lo, spent.w[1] = ev->hi & M52;
        if (e >= first && ev->seat != s->seat && gd_learned_move(&d, lin) != m) w *= miss;
        gd_deal_apply(&d, m, &spent);
    }
    return w;
}

/* ---- the search ------------------------------------------------------------------------ */

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct round_job {
    const gd_infoset *s;
    const gd_deal *root;
    const gd_move *cands;
    const gd_search_params *p;
    const uint32_t *alive; /* the candidates of this round, in order */
    size_t n_alive;
    size_t n_last;         /* how many of them the round's last world plays */
    uint64_t w0, n_worlds; /* worlds w0 .. w0 + n_worlds - 1 */
    double deadline;       /* 0: none */
    int endgame;           /* the deals are solved exactly (gd_search_params.solve_cards) */
    uint64_t next;         /* the next world to take (atomic) */
    uint64_t batch, end;   /* the worlds of this pass: batch .. end - 1 (all of the round without a tree) */
    int stop;              /* set once the deadline passed (atomic) */
    gd_tree *tree;         /* the tree of the searching seat's later decisions (NULL: none) */
    struct tree_trace *traces; /* per world of the batch and candidate of the round: its walk */
} round_job;

/* A playout's walk through the tree: the nodes it passed and the move each chose (-1: the
 * node had not yet seen tree_visits playouts and the policy played), the node to add where
 * it left the tree (new_k moves; 0: none), and its result. Written by the thread that plays
 * it, applied to the tree after the batch (tree_apply). */
typedef struct tree_trace {
    int32_t node[GD_TREE_DEPTH];
    int8_t choice[GD_TREE_DEPTH];
    uint8_t len, played, new_k;
    int result;
    uint64_t new_key;
    gd_cards new_hand;
    gd_move new_beat;
    gd_move new_moves[GD_TREE_MAX_MOVES];
} tree_trace;

/* A sampled deal's weight in the candidates' means, in fixed point (GD_BELIEF_ONE = 1):
 * 1 without policy weighting, else gd_policy_belief rounded to 24 bits (at least 1). */
#define GD_BELIEF_ONE (1 << 24)

/* One thread's share of a round: its own tallies per candidate of the round. Results and
 * weights are integers (levels or wins; fixed-point weights), so the tallies' sums do not
 * depend on which thread played which world, nor in which order. */
typedef struct round_share {
    round_job *job;
    int64_t *n, *sum, *weight; /* [n_alive] each: rollouts, weighted results, weights */
    gd_solver *solver; /* the thread's own, in an endgame (NULL otherwise) */
} round_share;

/* The moves of a new tree node for the seat to act: the rollout policy's move first, then
 * the search's candidates (gd_candidates) in their order, at most `limit` in all; only the
 * policy's move when it plays out the hand. */
static uint32_t node_moves(const gd_deal *d, const gd_search_params *p, gd_rng *rng, gd_move *out) {
    out[0] = gd_policy_move_linear(d, p->policy, p->linear, rng);
    if (out[0] != GD_PASS_MOVE && gd_move_cards(out[0]) == gd_card_total(&d->hands[d->turn])) return 1;
    gd_move cands[GD_MAX_RANK_MOVES];
    const size_t limit = p->tree_moves < GD_TREE_MAX_MOVES ? p->tree_moves : GD_TREE_MAX_MOVES;
    const size_t n = gd_candidates(d, limit, cands);
    uint32_t k = 1;
    for (size_t i = 0; i < n && k < limit; i++)
        if (cands[i] != out[0]) out[k++] = cands[i];
    return k;
}

/* Play a deal on from a root candidate `move`, the searching seat's decisions by the tree
 * while the walk stays in it (see tree_trace), every other by the rollout policy. */
static void tree_playout(const round_share *share, gd_deal *d, gd_move move, gd_rng *rng, const uint8_t policies[4],
                         tree_trace *tr) {
    const round_job *j = share->job;
    const gd_search_params *p = j->p;
    const gd_tree *t = j->tree;
    const int me = j->root->turn;
    uint64_t key = gd_tree_key(0, me, move);
    int walking = 1;
    tr->len = 0, tr->new_k = 0;
    while (!d->over) {
        const int seat = d->turn;
        gd_move m = GD_PASS_MOVE;
        int decided = 0;
        if (walking && seat == me) {
            const int32_t at = gd_tree_find(t, key);
            const gd_tree_node *node = at >= 0 ? &t->nodes[at] : NULL;
            if (node && (node->beat != d->beat || memcmp(&node->hand, &d->hands[seat], sizeof(gd_cards)) != 0))
                node = NULL, walking = 0; /* a clash of keys: not this line (the policy plays on) */
            else if (node) {
                int choice = -1;
                if (tr->len < GD_TREE_DEPTH) {
                    if (node->visits >= p->tree_visits) choice = (int)gd_tree_choose(node, p->tree_c, p->tree_first);
                    tr->node[tr->len] = at, tr->choice[tr->len] = (int8_t)choice, tr->len++;
                }
                if (choice >= 0) m = node->moves[choice], decided = 1;
                else walking = 0;
            } else if (walking) {
                gd_move moves[GD_TREE_MAX_MOVES];
                const uint32_t k = node_moves(d, p, rng, moves);
                m = moves[0], decided = 1;
                if (k > 1) { /* a decision: a new node, and the walk ends */
                    walking = 0;
                    if (t->size < t->limit) {
                        tr->new_key = key, tr->new_hand = d->hands[seat], tr->new_beat = d->beat;
                        tr->new_k = (uint8_t)k;
                        memcpy(tr->new_moves, moves, k * sizeof(gd_move));
                    }
                }
            }
        }
        if (!decided) m = gd_policy_move_linear(d, policies[seat], p->linear, rng);
        gd_cards spent;
        gd_spend(&d->hands[seat], d->level, m, &spent);
        gd_deal_apply(d, m, &spent);
        if (walking) key = gd_tree_key(key, seat, m);
    }
}

/* The fixed point of a search's results: GD_VALUE_ONE when its playouts end in the value
 * (gd_search_params.value), else 1 (whole levels, wins or payoffs). */
static int64_t result_unit(const gd_search_params *p) {
    const int weighted = p->linear && p->policy_weight < 1.0;
    return p->value && p->tree_moves == 0 && p->objective == GD_OBJECTIVE_LEVELS && !weighted ? GD_VALUE_ONE : 1;
}

/* A candidate's result in one sampled deal, for the searching side: the deal solved exactly
 * when the search is an endgame and the solve fits its budget, else played out (through the
 * tree, when the search has one: tr). */
static int64_t world_result(const round_share *share, gd_deal *d, gd_move move, int side, uint64_t w,
                            const uint8_t policies[4], tree_trace *tr) {
    const gd_search_params *p = share->job->p;
    const int64_t unit = result_unit(p);
    if (tr) tr->len = 0, tr->new_k = 0;
    if (share->solver && !d->over) {
        int value;
        if (gd_solve(share->solver, d, side, &value)) return (int64_t)value * unit;
    }
    gd_rng rng = {gd_stream(p->seed, w, 2)};
    if (tr) tree_playout(share, d, move, &rng, policies, tr);
    else if (unit > 1) return value_playout(d, policies, p->linear, p->value, side, p->promotion, &rng);
    else gd_rollout_linear(d, policies, p->linear, &rng);
    if (p->objective == GD_OBJECTIVE_TABLE) return gd_deal_payoff(d, side, p->payoff);
    return p->objective == GD_OBJECTIVE_WINS ? gd_deal_won(d, side) : gd_deal_score(d, side, p->promotion);
}

/* Add a batch's walks to the tree, in the order of the deals and candidates. */
static void tree_apply(gd_tree *t, const tree_trace *tr, size_t count) {
    for (size_t i = 0; i < count; i++, tr++) {
        if (!tr->played) continue;
        for (int e = 0; e < tr->len; e++) {
            gd_tree_node *node = &t->nodes[tr->node[e]];
            node->visits++;
            node->total += tr->result;
            if (tr->choice[e] >= 0) {
                node->n[tr->choice[e]]++;
                node->sum[tr->choice[e]] += tr->result;
            }
        }
        if (tr->new_k && gd_tree_find(t, tr->new_key) < 0) {
            const int32_t at = gd_tree_add(t, tr->new_key, &tr->new_hand, tr->new_beat, tr->new_moves, tr->new_k);
            if (at >= 0) t->nodes[at].visits = 1, t->nodes[at].total = tr->result;
        }
    }
}

static void *round_worker(void *arg) {
    round_share *share = (round_share *)arg;
    round_job *j = share->job;
    const gd_search_params *p = j->p;
    const int side = j->root->turn & 1;
    uint8_t policies[4] = {p->policy, p->policy, p->policy, p->policy};
    for (;;) {
        const uint64_t i = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED);
        if (i >= j->end) break;
        if (__atomic_load_n(&j->stop, __ATOMIC_RELAXED)) break;
        const uint64_t w = j->w0 + i;
        gd_rng deal_rng = {gd_stream(p->seed, w, 1)};
        gd_deal world = *j->root;
        gd_sample_weighted(j->s, &p->infer, &deal_rng, world.hands);
        int64_t weight = 1;
        if (p->linear && p->policy_weight < 1.0) {
            const double b = gd_policy_belief(j->s, p->linear, p->policy_weight, p->policy_events, world.hands);
            weight = (int64_t)(b * GD_BELIEF_ONE + 0.5);
            if (weight < 1) weight = 1;
        }
        const size_t m = i + 1 == j->n_worlds ? j->n_last : j->n_alive;
        if (share->solver) gd_solver_clear(share->solver); /* a world's solves share what they learn, no more */
        for (size_t ci = 0; ci < m; ci++) {
            if (j->deadline > 0 && now_seconds() >= j->deadline) {
                __atomic_store_n(&j->stop, 1, __ATOMIC_RELAXED);
                break;
            }
            const gd_move move = j->cands[j->alive[ci]];
            gd_deal d = world;
            gd_cards spent;
            gd_spend(&d.hands[d.turn], d.level, move, &spent);
            gd_deal_apply(&d, move, &spent);
            tree_trace *tr = j->tree ? &j->traces[(i - j->batch) * j->n_alive + ci] : NULL;
            const int64_t result = world_result(share, &d, move, side, w, policies, tr);
            if (tr) tr->result = (int)result, tr->played = 1;
            share->sum[ci] += weight * result;
            share->weight[ci] += weight;
            share->n[ci]++;
        }
    }
    return NULL;
}

/* Play one round on up to p->threads threads (the calling thread one of them) and add its
 * tallies to the candidates' stats; returns the rollouts played, -1 if memory ran out. */
static int64_t play_round(round_job *j, gd_candidate_stats *stats) {
    int threads = j->p->threads > 1 ? j->p->threads : 1;
    if ((uint64_t)threads > j->n_worlds) threads = j->n_worlds ? (int)j->n_worlds : 1;
    if (threads > 64) threads = 64;
#ifdef GD_NO_THREADS
    threads = 1;
#endif
    int64_t *tally = (int64_t *)calloc((size_t)threads * 3 * j->n_alive, sizeof(int64_t));
    if (!tally) return -1;
    j->traces = NULL;
    if (j->tree) {
        j->traces = (tree_trace *)malloc((size_t)GD_TREE_BATCH * j->n_alive * sizeof(tree_trace));
        if (!j->traces) {
            free(tally);
            return -1;
        }
    }
    round_share shares[64];
    gd_solver solvers[64];
    for (int t = 0; t < threads; t++) {
        shares[t].job = j, shares[t].n = tally + (size_t)t * 3 * j->n_alive, shares[t].sum = shares[t].n + j->n_alive;
        shares[t].weight = shares[t].sum + j->n_alive;
        shares[t].solver = NULL;
        if (j->endgame) {
            gd_solver *sv = &solvers[t];
            memset(sv, 0, sizeof(*sv));
            sv->mask = ((uint64_t)1 << GD_SEARCH_SOLVE_BITS) - 1;
            sv->table = (gd_solve_entry *)calloc((size_t)sv->mask + 1, sizeof(gd_solve_entry));
            sv->budget = j->p->solve_nodes > 0 ? j->p->solve_nodes : 1;
            sv->generation = 1;
            if (j->p->objective == GD_OBJECTIVE_WINS) sv->promotion[0] = sv->promotion[1] = sv->promotion[2] = 1;
            else memcpy(sv->promotion, j->p->promotion, 3);
            if (sv->table) shares[t].solver = sv; /* out of memory: this thread plays out instead */
        }
    }
    /* without a tree, one pass over the round's worlds; with one, a pass a batch, the tree
     * updated after each */
    const uint64_t step = j->tree ? GD_TREE_BATCH : (j->n_worlds ? j->n_worlds : 1);
    for (uint64_t batch = 0; batch < j->n_worlds && !j->stop; batch += step) {
        j->next = j->batch = batch;
        j->end = batch + step < j->n_worlds ? batch + step : j->n_worlds;
        if (j->tree)
            for (size_t i = 0; i < (size_t)(j->end - batch) * j->n_alive; i++) j->traces[i].played = 0;
#ifndef GD_NO_THREADS
        pthread_t ids[64];
        int started[64] = {0};
        for (int t = 1; t < threads; t++) started[t] = pthread_create(&ids[t], NULL, round_worker, &shares[t]) == 0;
        round_worker(&shares[0]);
        for (int t = 1; t < threads; t++)
            if (started[t]) pthread_join(ids[t], NULL);
#else
        round_worker(&shares[0]);
#endif
        if (j->tree) tree_apply(j->tree, j->traces, (size_t)(j->end - batch) * j->n_alive);
    }
    int64_t played = 0;
    for (int t = 0; t < threads; t++)
        if (shares[t].solver) free(shares[t].solver->table);
    for (int t = 0; t < threads; t++)
        for (size_t ci = 0; ci < j->n_alive; ci++) {
            gd_candidate_stats *st = &stats[j->alive[ci]];
            st->n += shares[t].n[ci];
            st->sum += (double)shares[t].sum[ci] / (double)result_unit(j->p); /* a power of two: exact */
            st->weight += (double)shares[t].weight[ci];
            played += shares[t].n[ci];
        }
    free(tally);
    free(j->traces);
    j->traces = NULL;
    return played;
}

/* Ordering for elimination and the final ranking: later round, then higher mean, then the
 * prior order (the candidate's index). Candidates never played sort last in their round. */
typedef struct standing {
    int32_t round;
    int64_t n;
    double mean;
    uint32_t index;
} standing;

static int by_standing(const void *a, const void *b) {
    const standing *x = (const standing *)a, *y = (const standing *)b;
    if (x->round != y->round) return x->round > y->round ? -1 : 1;
    if ((x->n > 0) != (y->n > 0)) return x->n > 0 ? -1 : 1;
    if (x->n > 0 && x->mean != y->mean) return x->mean > y->mean ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* With a prior, each mean is blended with the candidate's prior value (gd_search). */
static void standings(const gd_candidate_stats *stats, const uint32_t *which, size_t n, const gd_search_params *p,
                      standing *out) {
    const double a = p->prior ? p->prior_rollouts : 0.0;
    double shift = 0.0, total = 0.0;
    if (a > 0) {
        for (size_t i = 0; i < n; i++) {
            const gd_candidate_stats *st = &stats[which[i]];
            if (st->n) shift += st->sum - st->weight * p->prior[which[i]], total += st->weight;
        }
        shift = total > 0 ? shift / total : 0.0;
    }
    for (size_t i = 0; i < n; i++) {
        const gd_candidate_stats *st = &stats[which[i]];
        out[i].round = st->round;
        out[i].n = a > 0 ? 1 : st->n; /* with a prior, an unplayed candidate stands by it (q + shift) */
        out[i].mean = a > 0 ? (st->sum + a * (p->prior[which[i]] + shift)) / (st->weight + a)
                      : st->n ? st->sum / st->weight
                              : 0.0;
        out[i].index = which[i];
    }
    qsort(out, n, sizeof(standing), by_standing);
}

int64_t gd_search(const gd_infoset *s, const gd_deal *root, const gd_move *cands, size_t k,
                  const gd_search_params *p, gd_candidate_stats *stats) {
    const double start = now_seconds();
    const double deadline = p->seconds > 0 ? start + p->seconds : 0.0;
    for (size_t i = 0; i < k; i++) stats[i].n = 0, stats[i].sum = 0.0, stats[i].weight = 0.0, stats[i].round = 0, stats[i].rank = (int32_t)i;
    if (k <= 1) return 0;
    uint32_t *alive = (uint32_t *)malloc(k * sizeof(uint32_t));
    standing *order = (standing *)malloc(k * sizeof(standing));
    if (!alive || !order) {
        free(alive);
        free(order);
        return -1;
    }
    for (size_t i = 0; i < k; i++) alive[i] = (uint32_t)i;
    size_t n_alive = k;
    int rounds = 0;
    while (((size_t)1 << rounds) < k) rounds++;
    const int endgame = p->solve_cards > 0 && p->objective != GD_OBJECTIVE_TABLE && gd_cards_left(root) <= p->solve_cards;
    int64_t done = 0, budget = p->rollouts > 0 ? p->rollouts : 0;
    if (endgame && budget > 0) { /* a solve counts as solve_cost rollouts: the budget in solves */
        const int64_t cost = p->solve_cost > 0 ? (int64_t)p->solve_cost : 1;
        budget = budget / cost > (int64_t)k ? budget / cost : (int64_t)k;
    }
    uint64_t world = 0;
    int failed = 0, stopped = 0;
    round_job j;
    memset(&j, 0, sizeof(j));
    j.s = s, j.root = root, j.cands = cands, j.p = p, j.alive = alive, j.deadline = deadline, j.endgame = endgame;
    gd_tree tree;
    if (p->tree_moves > 0) {
        if (gd_tree_init(&tree, p->tree_nodes > 0 ? p->tree_nodes : 1) < 0) {
            free(alive);
            free(order);
            return -1;
        }
        j.tree = &tree;
    }
    for (int r = 0; r < rounds && !stopped; r++) {
        if (budget == 0) { /* a time budget only: estimate the rollouts it buys from a first world per thread */
            j.n_alive = n_alive, j.n_last = n_alive, j.w0 = world;
            j.n_worlds = (uint64_t)(p->threads > 0 ? p->threads : 1);
            const int64_t played = play_round(&j, stats);
            if (played < 0) {
                failed = 1;
                break;
            }
            done += played;
            world += j.n_worlds;
            const double spent = now_seconds() - start, estimate = spent > 0 ? (double)done * p->seconds / spent : 0;
            budget = estimate > 1e15 ? (int64_t)1e15 : (int64_t)estimate;
            if (budget <= done) budget = done + 1;
            if (j.stop) {
                stopped = 1;
                break;
            }
        }
        int64_t share = r == rounds - 1 ? budget - done : (budget - done) / (rounds - r);
        if (share <= 0) continue;
        const uint64_t full = (uint64_t)share / n_alive, extra = (uint64_t)share % n_alive;
        j.n_alive = n_alive;
        j.w0 = world;
        j.n_worlds = full + (extra ? 1 : 0);
        j.n_last = extra ? extra : n_alive;
        j.stop = 0;
        const int64_t played = play_round(&j, stats);
        if (played < 0) {
            failed = 1;
            break;
        }
        done += played;
        world += j.n_worlds;
        if (j.stop) stopped = 1;
        for (size_t ci = 0; ci < n_alive; ci++) stats[alive[ci]].round = r;
        if (r < rounds - 1 && !stopped) { /* keep the better half */
            standings(stats, alive, n_alive, p, order);
            n_alive = (n_alive + 1) / 2;
            for (size_t ci = 0; ci < n_alive; ci++) alive[ci] = order[ci].index;
            /* keep the prior order among those kept: the same extra-world rule every round */
            for (size_t a = 1; a < n_alive; a++)
                for (size_t b = a; b > 0 && alive[b - 1] > alive[b]; b--) {
                    const uint32_t t = alive[b];
                    alive[b] = alive[b - 1];
                    alive[b - 1] = t;
                }
            for (size_t ci = 0; ci < n_alive; ci++) stats[alive[ci]].round = r + 1;
        }
    }
    for (size_t i = 0; i < k; i++) alive[i] = (uint32_t)i;
    standings(stats, alive, k, p, order);
    for (size_t i = 0; i < k; i++) stats[order[i].index].rank = (int32_t)i;
    if (j.tree) gd_tree_free(j.tree);
    free(alive);
    free(order);
    return failed ? -1 : done;
}
