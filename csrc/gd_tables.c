/* Vectorized tables. See gd_tables.h. */
#include "gd_tables.h"

#include <string.h>

void gd_deal_seeded(gd_deal *d, uint64_t seed, int level) {
    uint8_t deck[108];
    for (int f = 0; f < 54; f++) deck[2 * f] = deck[2 * f + 1] = (uint8_t)f;
    gd_rng rng = {seed};
    for (int i = 107; i > 0; i--) { /* Fisher-Yates from the end, as guandan.core.rng.SplitMix64.shuffle */
        const int j = (int)gd_rng_below(&rng, (uint64_t)i + 1);
        const uint8_t x = deck[i];
        deck[i] = deck[j];
        deck[j] = x;
    }
    const int opening = (int)gd_rng_below(&rng, 108); /* the card turned face up: its holder leads */
    memset(d, 0, sizeof *d);
    for (int k = 0; k < 108; k++) d->hands[k / 27].w[deck[k] >> 5] += (uint64_t)1 << (2 * (deck[k] & 31));
    d->beat = GD_PASS_MOVE;
    d->last = -1;
    d->level = (uint8_t)level;
    d->turn = (uint8_t)(opening / 27);
}

/* The action space's words by open addressing: a multiplicative hash, linear probing; 8,192
 * slots for 2,213 words keep the probes short (built once, at import, by gd_space_init). */
#define SLOTS 8192
static uint64_t slot_word[SLOTS];
static int16_t slot_index[SLOTS];

static inline unsigned slot_of(uint64_t word) { return (unsigned)((word * 0x9E3779B97F4A7C15ull) >> 51); }

void gd_space_init(const uint64_t *space) {
    for (int i = 0; i < SLOTS; i++) slot_index[i] = -1;
    for (int a = 0; a < GD_SPACE_SIZE; a++) {
        unsigned h = slot_of(space[a]);
        while (slot_index[h] >= 0) h = (h + 1) & (SLOTS - 1);
        slot_word[h] = space[a];
        slot_index[h] = (int16_t)a;
    }
}

ptrdiff_t gd_space_index(const uint64_t *space, uint64_t word) {
    (void)space;
    for (unsigned h = slot_of(word);; h = (h + 1) & (SLOTS - 1)) {
        if (slot_index[h] < 0) return -1;
        if (slot_word[h] == word) return slot_index[h];
    }
}

int64_t gd_table_random_action(const gd_table *t, gd_rng *rng) {
    unsigned total = 0;
    for (int w = 0; w < GD_SPACE_WORDS; w++) total += (unsigned)__builtin_popcountll(t->legal[w]);
    if (!total) return -1;
    unsigned k = (unsigned)gd_rng_below(rng, total);
    for (int w = 0; w < GD_SPACE_WORDS; w++) {
        uint64_t bits = t->legal[w];
        const unsigned c = (unsigned)__builtin_popcountll(bits);
        if (k >= c) {
            k -= c;
            continue;
        }
        for (; k; k--) bits &= bits - 1;
        return 64 * w + __builtin_ctzll(bits);
    }
    return -1;
}

static void new_deal(gd_table *t, const gd_tables_config *c) {
    t->seed = gd_rng_next(&t->deals);
    const int level = c->level >= 0 ? c->level : (int)gd_rng_below(&t->deals, 13);
    gd_deal_seeded(&t->deal, t->seed, level);
    gd_record_init(&t->record);
    t->plies = 0;
    t->dealt++;
}

/* One ply by the seat to act, the cards given; the record follows. */
static void apply(gd_table *t, gd_move m, const gd_cards *spent) {
    gd_record_apply(&t->record, t->deal.turn, spent);
    gd_deal_apply(&t->deal, m, spent);
    t->plies++;
}

/* Add a finished deal's rewards and finish order; deal the next. */
static void settle(gd_table *t, const gd_tables_config *c, float *rewards, int8_t *finish) {
    const gd_deal *d = &t->deal;
    const int first = d->finished[0];
    int place = 4; /* the partner's place: 2nd, 3rd, else 4th */
    for (int k = 1; k < d->n_finished; k++)
        if (d->finished[k] == (first ^ 2)) place = k + 1;
    const float gain = c->wins ? 1.0f : (float)c->promotion[place - 2];
    for (int s = 0; s < 4; s++) rewards[s] += (s & 1) == (first & 1) ? gain : -gain;
    for (int k = 0; k < 4; k++) finish[k] = -1;
    for (int k = 0; k < d->n_finished; k++) finish[k] = (int8_t)d->finished[k];
    if (d->n_finished == 3) { /* the 4th: the seat still holding cards */
        unsigned placed = 0;
        for (int k = 0; k < 3; k++) placed |= 1u << d->finished[k];
        for (int s = 0; s < 4; s++)
            if (!((placed >> s) & 1u)) finish[3] = (int8_t)s;
    }
    t->final_deal = t->deal;
    t->final_record = t->record;
    new_deal(t, c);
}

/* The built-in seats play up to the caller's next decision; deals that end are settled. */
static int advance(gd_table *t, const gd_tables_config *c, float *rewards, int8_t *finish) {
    int ended = 0;
    for (;;) {
        if (t->deal.over) {
            settle(t, c, rewards, finish);
            ended++;
            continue;
        }
        const int policy = c->policy[t->deal.turn];
        if (policy == GD_EXTERNAL) return ended;
        gd_rng rng = {gd_rng_next(&t->policies)};
        const gd_move m = gd_choose(&t->deal, policy, &rng);
        gd_cards spent;
        gd_spend(&t->deal.hands[t->deal.turn], t->deal.level, m, &spent);
        apply(t, m, &spent);
    }
}

void gd_table_start(gd_table *t, const gd_tables_config *c, uint64_t deals_state, uint64_t policies_state) {
    memset(t, 0, sizeof *t);
    t->deals.state = deals_state;
    t->policies.state = policies_state;
    new_deal(t, c);
    float rewards[4] = {0, 0, 0, 0};
    int8_t finish[4];
    advance(t, c, rewards, finish);
}

int gd_table_rank_legal(const gd_table *t, int64_t a) {
    return a >= 0 && a < GD_SPACE_SIZE && ((t->legal[a >> 6] >> (a & 63)) & 1u);
}

static void clear(float *rewards, int8_t *finish) {
    for (int s = 0; s < 4; s++) rewards[s] = 0.0f, finish[s] = -1;
}

int gd_table_play_rank(gd_table *t, const gd_tables_config *c, uint64_t word, float *rewards, int8_t *finish) {
    clear(rewards, finish);
    gd_cards spent;
    gd_spend(&t->deal.hands[t->deal.turn], t->deal.level, word, &spent);
    apply(t, word, &spent);
    return advance(t, c, rewards, finish);
}

int gd_table_play_card(gd_table *t, const gd_tables_config *c, uint64_t lo, uint64_t hi, float *rewards,
                       int8_t *finish) {
    clear(rewards, finish);
    const gd_cards spent = {{lo, hi & ~GD_DECL_MASK}};
    apply(t, gd_card_to_rank(lo, hi, t->deal.level), &spent);
    return advance(t, c, rewards, finish);
}

void gd_table_mask(gd_table *t, const gd_tables_config *c, uint8_t *out) {
    gd_view v;
    gd_view_init(&v, &t->deal.hands[t->deal.turn], t->deal.level);
    gd_move moves[GD_MAX_RANK_MOVES];
    const size_t k = gd_rank_moves(&v, t->deal.beat, moves);
    memset(out, 0, GD_SPACE_SIZE);
    memset(t->legal, 0, sizeof t->legal);
    for (size_t i = 0; i < k; i++) {
        const ptrdiff_t a = gd_space_index(c->space, moves[i]);
        if (a >= 0) { /* always: the action space holds every move of any position (tested) */
            out[a] = 1;
            t->legal[a >> 6] |= (uint64_t)1 << (a & 63);
        }
    }
}

size_t gd_table_card_moves(const gd_table *t, uint64_t *out, size_t cap) {
    gd_view v;
    gd_view_init(&v, &t->deal.hands[t->deal.turn], t->deal.level);
    return gd_card_moves(&v, t->deal.beat, out, cap);
}

void gd_table_state(const gd_table *t, float *out) {
    const gd_deal *d = &t->deal;
    uint8_t counts[4];
    for (int s = 0; s < 4; s++) counts[s] = (uint8_t)gd_card_total(&d->hands[s]);
    gd_encode_state(&d->hands[d->turn], d->turn, &t->record, counts, d->level, d->level, d->level, out);
}

void gd_table_final_state(const gd_table *t, int seat, float *out) {
    if (!t->final_deal.over) { /* no deal has ended since the start (gd_table_start zeroes it) */
        memset(out, 0, GD_STATE_SIZE * sizeof *out);
        return;
    }
    const gd_deal *d = &t->final_deal;
    uint8_t counts[4];
    for (int s = 0; s < 4; s++) counts[s] = (uint8_t)gd_card_total(&d->hands[s]);
    gd_encode_state(&d->hands[seat], seat, &t->final_record, counts, d->level, d->level, d->level, out);
}
