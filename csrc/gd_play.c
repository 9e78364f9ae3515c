/* Native deals and playouts. See gd_play.h. */
#include "gd_play.h"

#include <stdlib.h>
#include <string.h>

/* ---- SplitMix64 ------------------------------------------------------------------------ */

uint64_t gd_rng_next(gd_rng *rng) {
    uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t gd_rng_below(gd_rng *rng, uint64_t n) {
    unsigned __int128 product = (unsigned __int128)gd_rng_next(rng) * n;
    uint64_t low = (uint64_t)product;
    if (low < n) {
        const uint64_t threshold = (0 - n) % n;
        while (low < threshold) {
            product = (unsigned __int128)gd_rng_next(rng) * n;
            low = (uint64_t)product;
        }
    }
    return (uint64_t)(product >> 64);
}

/* ---- helpers --------------------------------------------------------------------------- */

static int partner(int seat) { return seat ^ 2; }

/* Whether a seat still holds cards: in a consistent state (gd_deal_check) the seats out are
 * exactly those with empty hands. */
static inline int holding(const gd_deal *d, int seat) { return (d->hands[seat].w[0] | d->hands[seat].w[1]) != 0; }

static int next_holding(const gd_deal *d, int seat) {
    for (int k = 1; k <= 4; k++) {
        const int s = (seat + k) & 3;
        if (holding(d, s)) return s;
    }
    return seat;
}

/* ---- spending physical cards ----------------------------------------------------------- */

/* c cards from a rank byte: one at a time from the suit holding the most copies (lowest
 * suit first on ties). That is: one from each suit holding two, lowest suit first, then one
 * from each suit holding any, lowest suit first (a suit left with one copy is tied with the
 * others holding one). */
static inline unsigned canonical_take(unsigned b, unsigned c) {
    const unsigned low = b & 0x55u, high = (b >> 1) & 0x55u; /* bit 2s: the suit's count's bits */
    unsigned take = 0;
    for (unsigned two = high; c && two; c--, two &= two - 1) take += two & (0u - two);
    for (unsigned any = low | high; c && any; c--, any &= any - 1) take += any & (0u - any);
    return take;
}

static void put_byte(gd_cards *c, int r, unsigned b) { c->w[r >> 3] += (uint64_t)b << (8 * (r & 7)); }

void gd_spend(const gd_cards *hand, int level, gd_move m, gd_cards *spent) {
    spent->w[0] = spent->w[1] = 0;
    if (m == GD_PASS_MOVE) return;
    const unsigned type = GD_MOVE_TYPE(m), x = GD_MOVE_X(m);
    put_byte(spent, level, GD_MOVE_WILDS(m) << (2 * GD_HEARTS));
    put_byte(spent, 13, gd_move_jokers(m));
    gd_cards naturals = *hand;
    naturals.w[level >> 3] &= ~((uint64_t)3 << (8 * (level & 7) + 2 * GD_HEARTS));
    for (uint64_t ranks = m & ((1ull << 52) - 1); ranks;) {
        const int r = __builtin_ctzll(ranks) >> 2;
        const unsigned c = GD_MOVE_NIBBLE(m, r);
        ranks &= ~((uint64_t)15 << (4 * r));
        put_byte(spent, r, type == GD_STRAIGHT_FLUSH ? 1u << (2 * x) : canonical_take(gd_rank_byte(&naturals, r), c));
    }
}

/* ---- the trick flow -------------------------------------------------------------------- */

void gd_deal_apply(gd_deal *d, gd_move m, const gd_cards *spent) {
    const int seat = d->turn;
    if (m == GD_PASS_MOVE) {
        d->passes++;
    } else {
        d->hands[seat].w[0] -= spent->w[0];
        d->hands[seat].w[1] -= spent->w[1];
        d->beat = m;
        d->last = (int8_t)seat;
        d->passes = 0;
        if (!d->hands[seat].w[0] && !d->hands[seat].w[1]) {
            d->finished[d->n_finished++] = (uint8_t)seat;
            if (!holding(d, partner(seat))) {
                d->over = 1;
                return;
            }
        }
    }
    /* the trick ends when every other seat still holding cards has passed since the play */
    int others = 0;
    for (int s = 0; s < 4; s++) others += s != d->last && holding(d, s);
    if (d->last >= 0 && d->passes >= others) {
        int leader = d->last;
        if (!holding(d, leader)) { /* jiefeng: the partner, else the next seat holding cards */
            leader = partner(leader);
            if (!holding(d, leader)) leader = next_holding(d, d->last);
        }
        d->turn = (uint8_t)leader;
        d->beat = GD_PASS_MOVE;
        d->last = -1;
        d->passes = 0;
    } else {
        d->turn = (uint8_t)next_holding(d, seat);
    }
}

/* ---- a finished deal's result --------------------------------------------------------- */

/* The place (2, 3 or 4) of the first seat's partner in a finished deal. */
static int partner_place(const gd_deal *d) {
    const int first = d->finished[0];
    int place = 4; /* 4th unless it finished before */
    for (int i = 1; i < d->n_finished; i++)
        if (d->finished[i] == (first ^ 2)) place = i + 1;
    return place;
}

int gd_deal_score(const gd_deal *d, int side, const uint8_t promotion[3]) {
    if (!d->over || d->n_finished < 2) return 0;
    const int gain = promotion[partner_place(d) - 2];
    return (d->finished[0] & 1) == side ? gain : -gain;
}

int gd_deal_payoff(const gd_deal *d, int side, const int32_t payoff[6]) {
    if (!d->over || d->n_finished < 2) return 0;
    return payoff[((d->finished[0] & 1) == side ? 0 : 3) + partner_place(d) - 2];
}

int gd_deal_won(const gd_deal *d, int side) {
    if (!d->over || d->n_finished < 2) return 0;
    return (d->finished[0] & 1) == side ? 1 : -1;
}

/* ---- policies -------------------------------------------------------------------------- */

static inline int is_bomb(gd_move m) {
    const unsigned t = GD_MOVE_TYPE(m);
    return t == GD_BOMB || t == GD_STRAIGHT_FLUSH || t == GD_JOKER_BOMB;
}

/* Weakness of a move for the greedy policy (smaller is weaker). Non-bombs: key order (the
 * elevated order of the key, a sequence's window position), then more cards first, then
 * fewer wilds. Bombs: their bomb order. */
static inline uint32_t weakness(gd_move m, int level) {
    const unsigned type = GD_MOVE_TYPE(m), key = GD_MOVE_KEY(m), wilds = GD_MOVE_WILDS(m);
    const unsigned size = gd_move_cards(m);
    if (is_bomb(m)) {
        const unsigned cls = type == GD_JOKER_BOMB ? 8 : type == GD_STRAIGHT_FLUSH ? 2 : size <= 5 ? size - 4 : size - 3;
        const unsigned order = type == GD_STRAIGHT_FLUSH ? (key == 12 ? 0 : key + 1)
                               : key == (unsigned)level ? 12 : key < (unsigned)level ? key : key - 1;
        return (1u << 24) | cls << 16 | order << 8 | wilds;
    }
    unsigned order;
    if (type == GD_STRAIGHT || type == GD_PAIR_RUN || type == GD_TRIPLE_RUN)
        order = key == 12 ? 0 : key + 1;
    else
        order = key >= 13 ? key : key == (unsigned)level ? 12 : key < (unsigned)level ? key : key - 1;
    return order << 16 | (15 - size) << 8 | wilds;
}

/* What the greedy policy keeps: wilds, the cards of a rank held four or more times (a bomb),
 * the jokers when all four are held. */
typedef struct kept {
    uint64_t ranks; /* nibble mask of the ranks held 4 or more times */
    int jokers;     /* all four jokers held */
} kept;

static inline kept kept_of(const gd_view *v) {
    const uint64_t ones = 0x1111111111111ull, highs = 0x8888888888888ull;
    const uint64_t four = ((v->count + 4 * ones) & highs) >> 3; /* lanes holding 4..8 naturals */
    const kept k = {four * 15, v->small == 2 && v->big == 2};
    return k;
}

/* Whether a move spends what the greedy policy keeps. */
static inline int spends_kept(const kept *k, gd_move m) {
    if (GD_MOVE_WILDS(m)) return 1;
    if (m & k->ranks) return 1;
    return k->jokers && gd_move_jokers(m);
}

/* The seat's move by a policy, the seat's view already made. */
static gd_move choose(const gd_deal *d, const gd_view *v, int policy, gd_rng *rng) {
    if (policy == GD_POLICY_RANDOM) { /* uniform: count, draw, make only the kind drawn */
        gd_move_kinds kinds;
        const size_t k = gd_count_rank_moves_by_kind(v, d->beat, &kinds);
        return gd_rank_move_at(v, d->beat, &kinds, gd_rng_below(rng, k));
    }
    /* greedy, as guandan.bots.agents.GreedyAgent at rank granularity */
    gd_move moves[GD_MAX_RANK_MOVES];
    const size_t k = gd_rank_moves(v, d->beat, moves);
    const int seat = d->turn, leading = d->beat == GD_PASS_MOVE;
    const int partners_play = !leading && d->last == partner(seat);
    const unsigned mine = gd_card_total(&d->hands[seat]);
    if (!leading && k == 1) return GD_PASS_MOVE;
    if (partners_play && mine > 10) return GD_PASS_MOVE;
    /* one pass over the moves: the weakest that plays out the whole hand, the weakest non-bomb
     * spending nothing kept, the weakest non-bomb, the weakest bomb (the first of equals) */
    const kept keep = kept_of(v);
    gd_move out = GD_PASS_MOVE, clean = GD_PASS_MOVE, any = GD_PASS_MOVE, bomb = GD_PASS_MOVE;
    uint32_t out_w = UINT32_MAX, clean_w = UINT32_MAX, any_w = UINT32_MAX, bomb_w = UINT32_MAX;
    const size_t plays = leading ? k : k - 1; /* the pass is last when responding */
    for (size_t i = 0; i < plays; i++) {
        const gd_move m = moves[i];
        const uint32_t w = weakness(m, d->level);
        if (mine <= 10 && w < out_w && gd_move_cards(m) == mine) out_w = w, out = m;
        if (is_bomb(m)) {
            if (w < bomb_w) bomb_w = w, bomb = m;
        } else {
            if (w < any_w) any_w = w, any = m;
            if (w < clean_w && !spends_kept(&keep, m)) clean_w = w, clean = m;
        }
    }
    if (out != GD_PASS_MOVE) return out;
    if (partners_play) return GD_PASS_MOVE;
    if (clean != GD_PASS_MOVE) return clean;
    int close = 0; /* an opponent holds at most 5 cards */
    for (int s = (seat + 1) & 1; s < 4; s += 2)
        if (holding(d, s) && gd_card_total(&d->hands[s]) <= 5) close = 1;
    if (leading || close) return any != GD_PASS_MOVE ? any : bomb;
    return GD_PASS_MOVE;
}

gd_move gd_choose(const gd_deal *d, int policy, gd_rng *rng) {
    gd_view v;
    gd_view_init(&v, &d->hands[d->turn], d->level);
    return choose(d, &v, policy, rng);
}

int gd_playout(gd_deal *d, int policy, gd_rng *rng) {
    int plies = 0;
    while (!d->over && plies < 100000) {
        gd_view v;
        gd_view_init(&v, &d->hands[d->turn], d->level);
        const gd_move m = choose(d, &v, policy, rng);
        gd_cards spent;
        gd_spend(&v.cards, d->level, m, &spent);
        gd_deal_apply(d, m, &spent);
        plies++;
    }
    return plies;
}

/* ---- checking a state from outside ----------------------------------------------------- */

enum {
    GD_DEAL_OK = 0,
    GD_DEAL_CARDS,
    GD_DEAL_DECK,
    GD_DEAL_LEVEL,
    GD_DEAL_TURN,
    GD_DEAL_FINISHED,
    GD_DEAL_BEAT,
    GD_DEAL_LAST,
    GD_DEAL_OVER
};

const char *gd_deal_error(int code) {
    switch (code) {
    case GD_DEAL_OK: return "consistent";
    case GD_DEAL_CARDS: return "a hand is not a valid card multiset";
    case GD_DEAL_DECK: return "the hands hold more than two copies of a face between them";
    case GD_DEAL_LEVEL: return "the level must be a rank 2..14";
    case GD_DEAL_TURN: return "the seat to act must be a seat still holding cards";
    case GD_DEAL_FINISHED: return "the finish order must list distinct seats, exactly those with no cards";
    case GD_DEAL_BEAT: return "the play to beat is malformed";
    case GD_DEAL_LAST: return "the seat of the play to beat must be 0..3 with a play, -1 without, and passes 0..3";
    case GD_DEAL_OVER: return "the deal is over (both seats of a side are out)";
    default: return "inconsistent deal";
    }
}

int gd_deal_check(const gd_deal *d) {
    if (d->level > 12) return GD_DEAL_LEVEL;
    for (int s = 0; s < 4; s++)
        if (gd_check_cards(&d->hands[s]) >= 0) return GD_DEAL_CARDS;
    for (int w = 0; w < 2; w++) { /* every face's copies in the four hands, summed in 4-bit lanes */
        uint64_t even = 0, odd = 0; /* the 2-bit fields 0 and 2 of each nibble, then 1 and 3 */
        for (int s = 0; s < 4; s++) {
            even += d->hands[s].w[w] & 0x3333333333333333ull;
            odd += (d->hands[s].w[w] >> 2) & 0x3333333333333333ull;
        }
        /* lanes of 0..8: adding 5 sets a lane's top bit when it holds 3 or more */
        if (((even + 0x5555555555555555ull) | (odd + 0x5555555555555555ull)) & 0x8888888888888888ull)
            return GD_DEAL_DECK;
    }
    if (d->n_finished > 3) return GD_DEAL_FINISHED;
    unsigned seen = 0;
    for (int i = 0; i < d->n_finished; i++) {
        if (d->finished[i] > 3 || (seen >> d->finished[i]) & 1u) return GD_DEAL_FINISHED;
        seen |= 1u << d->finished[i];
    }
    for (int s = 0; s < 4; s++) {
        const int empty = !d->hands[s].w[0] && !d->hands[s].w[1];
        if (empty != (int)((seen >> s) & 1u)) return GD_DEAL_FINISHED;
    }
    if ((seen & 5u) == 5u || (seen & 10u) == 10u) return GD_DEAL_OVER;
    if (d->turn > 3 || !holding(d, d->turn)) return GD_DEAL_TURN;
    if (gd_check_move(d->beat)) return GD_DEAL_BEAT;
    if (d->passes > 3) return GD_DEAL_LAST;
    if (d->beat == GD_PASS_MOVE ? d->last != -1 : (d->last < 0 || d->last > 3)) return GD_DEAL_LAST;
    return GD_DEAL_OK;
}

/* ---- perft ----------------------------------------------------------------------------- */

/* The card-level moves of the seat to act, in a malloc'd array of 2 words per move. */
static uint64_t *card_moves_of(const gd_deal *d, size_t *count) {
    gd_view v;
    gd_view_init(&v, &d->hands[d->turn], d->level);
    const size_t n = gd_count_card_moves(&v, d->beat);
    uint64_t *moves = (uint64_t *)malloc((n ? n : 1) * 2 * sizeof(uint64_t));
    if (moves) gd_card_moves(&v, d->beat, moves, n);
    *count = n;
    return moves;
}

int64_t gd_perft(const gd_deal *d, int depth) {
    if (depth == 0) return 1;
    if (d->over) return 0;
    if (depth == 1) {
        gd_view v;
        gd_view_init(&v, &d->hands[d->turn], d->level);
        return (int64_t)gd_count_card_moves(&v, d->beat);
    }
    size_t n;
    uint64_t *moves = card_moves_of(d, &n);
    if (!moves) return -1;
    int64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        gd_deal next = *d;
        const gd_cards spent = {{moves[2 * i], moves[2 * i + 1] & ~GD_DECL_MASK}};
        gd_deal_apply(&next, gd_card_to_rank(moves[2 * i], moves[2 * i + 1], d->level), &spent);
        const int64_t sub = gd_perft(&next, depth - 1);
        if (sub < 0) {
            total = -1;
            break;
        }
        total += sub;
    }
    free(moves);
    return total;
}
