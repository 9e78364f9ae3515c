/* Encodings for learning agents. See gd_encode.h and docs/encodings.md. */
#include "gd_encode.h"

#include <string.h>

/* the card-vector suit of each of the core's suits (spades, hearts, clubs, diamonds) */
static const int VECTOR_SUIT[4] = {1, 0, 2, 3};

int gd_vector_index(int face) { return face >= 52 ? face : VECTOR_SUIT[face & 3] * 13 + (face >> 2); }

void gd_record_init(gd_record *r) {
    memset(r, 0, sizeof *r);
    r->latest = -1;
}

void gd_record_apply(gd_record *r, int seat, const gd_cards *spent) {
    r->played[seat].w[0] += spent->w[0];
    r->played[seat].w[1] += spent->w[1];
    r->last[seat] = *spent;
    r->acted |= (uint8_t)(1u << seat);
    r->latest = (int8_t)seat;
}

/* Adds the counts of `cards` times `sign` to the vector (the faces held only: a few dozen at most). */
static void add_vector(const gd_cards *cards, float sign, float *out) {
    for (int w = 0; w < 2; w++) {
        uint64_t bits = cards->w[w];
        while (bits) {
            const int f = __builtin_ctzll(bits) >> 1; /* the face's 2-bit field in this word */
            const unsigned count = (unsigned)(cards->w[w] >> (2 * f)) & 3u;
            out[gd_vector_index(32 * w + f)] += sign * (float)count;
            bits &= ~((uint64_t)3 << (2 * f));
        }
    }
}

void gd_card_vector(const gd_cards *cards, float *out) {
    memset(out, 0, GD_ACTION_SIZE * sizeof(float));
    add_vector(cards, 1.0f, out);
}

static void fill(float *out, int n, float value) {
    for (int i = 0; i < n; i++) out[i] = value;
}

void gd_wild_flags(const gd_cards *hand, int level, float *out) {
    memset(out, 0, GD_WILD_FLAGS * sizeof(float));
    if (!gd_face_count(hand, 4 * level + GD_HEARTS)) return;
    out[0] = 1.0f;
    /* presence[s][r]: the hand holds rank r of card-vector suit s, the wild's own face left out */
    uint8_t presence[4][13];
    memset(presence, 0, sizeof presence);
    for (int face = 0; face < 52; face++)
        if (gd_face_count(hand, face)) presence[VECTOR_SUIT[face & 3]][face >> 2] = 1;
    presence[0][level] = 0;
    /* [1]: a suit with a window of five ranks starting at 2..9 missing at most one rank */
    for (int s = 0; s < 4 && !out[1]; s++)
        for (int start = 0; start <= 7; start++) {
            int held = 0;
            for (int r = start; r < start + 5; r++) held += presence[s][r];
            if (held >= 4) {
                out[1] = 1.0f;
                break;
            }
        }
    int n[13], most = 0;
    for (int r = 0; r < 13; r++) {
        n[r] = presence[0][r] + presence[1][r] + presence[2][r] + presence[3][r];
        if (n[r] > most) most = n[r];
    }
    /* [2:8] by the most suits held at one rank: 6+ sets 2..7, 5 sets 3..7, 4 sets 4..7, 3 sets
     * 5..7, 2 sets 6..7, else 7 alone (only 4 suits exist: [2] and [3] stay 0) */
    const int from = most >= 6 ? 2 : most == 5 ? 3 : most == 4 ? 4 : most == 3 ? 5 : most == 2 ? 6 : 7;
    for (int i = from; i < 8; i++) out[i] = 1.0f;
    int run = 0;
    for (int r = 0; r < 13; r++) {
        run = n[r] > 0 ? run + 1 : 0;
        if (r >= 1) {
            if ((n[r] == 2 && n[r - 1] >= 3) || (n[r] >= 3 && n[r - 1] == 2))
                out[9] = 1.0f;
            else if (n[r] == 2 && n[r - 1] == 2)
                out[11] = 1.0f;
        }
        if (r >= 2) {
            const int a = n[r - 2], b = n[r - 1], c = n[r];
            const int ones = (a == 1) + (b == 1) + (c == 1), twos = (a >= 2) + (b >= 2) + (c >= 2);
            if (ones == 1 && twos == 2) out[10] = 1.0f;
        }
    }
    if (run >= 4) out[8] = 1.0f;
}

static void one_hot(float *out, int n, int index) {
    memset(out, 0, (size_t)n * sizeof(float));
    if (index >= 0 && index < n) out[index] = 1.0f;
}

void gd_encode_state(const gd_cards *hand, int seat, const gd_record *r, const uint8_t counts[4], int level,
                     int own_level, int other_level, float *out) {
    const int next = (seat + 1) & 3, mate = seat ^ 2, prev = (seat + 3) & 3;
    gd_card_vector(hand, out);
    gd_wild_flags(hand, level, out + 54);
    float *unseen = out + 66;
    fill(unseen, 54, 2.0f);
    add_vector(hand, -1.0f, unseen);
    for (int s = 0; s < 4; s++) add_vector(&r->played[s], -1.0f, unseen);
    /* the last action in turn order: the previous seat's, when it acted last */
    if (r->latest < 0)
        fill(out + 120, 54, -1.0f);
    else if (r->latest == prev)
        gd_card_vector(&r->last[prev], out + 120);
    else
        fill(out + 120, 54, counts[prev] ? 0.0f : -1.0f);
    if (!((r->acted >> mate) & 1u) || !counts[mate])
        fill(out + 174, 54, -1.0f);
    else
        gd_card_vector(&r->last[mate], out + 174);
    gd_card_vector(&r->played[next], out + 228);
    gd_card_vector(&r->played[mate], out + 282);
    gd_card_vector(&r->played[prev], out + 336);
    /* a tribute's receiver holds 28 cards until it returns one: counted as 27 */
    one_hot(out + 390, 28, counts[next] > 27 ? 27 : counts[next]);
    one_hot(out + 418, 28, counts[mate] > 27 ? 27 : counts[mate]);
    one_hot(out + 446, 28, counts[prev] > 27 ? 27 : counts[prev]);
    one_hot(out + 474, 13, own_level);
    one_hot(out + 487, 13, other_level);
    one_hot(out + 500, 13, level);
}

void gd_encode_actions(const uint64_t *moves, size_t n, float *out) {
    for (size_t i = 0; i < n; i++) {
        const gd_cards spent = {{moves[2 * i], moves[2 * i + 1] & ~GD_DECL_MASK}};
        gd_card_vector(&spent, out + i * GD_ACTION_SIZE);
    }
}

void gd_encode_rows(const float *state, const uint64_t *moves, size_t n, float *out) {
    for (size_t i = 0; i < n; i++) {
        float *row = out + i * GD_ROW_SIZE;
        memcpy(row, state, GD_STATE_SIZE * sizeof(float));
        const gd_cards spent = {{moves[2 * i], moves[2 * i + 1] & ~GD_DECL_MASK}};
        gd_card_vector(&spent, row + GD_STATE_SIZE);
    }
}
