/* The C core alone, for instruction counts under callgrind (no Python in the way).
 *
 * Deals n random 27-card hands at random levels (xorshift, fixed seed), then times one call
 * per position, five times over:
 *
 *   lead-rank | lead-count | lead-card       the hands leading
 *   response-rank | response-count          the hands answering a random rank-level move
 *                                            of the other 27 cards of the deal
 *   mixed-count                              gd_prepare + count: every 4th position a lead
 *   playout-random | playout-greedy          n deals (four 27-card hands, seat 0 leads) each
 *                                            played to the end with a built-in policy
 *
 * Build and run (from the repository root):
 *   gcc -O3 -fno-tree-loop-vectorize -DNDEBUG -g -Icsrc benchmarks/core_bench.c csrc/gd_core.c csrc/gd_play.c \
 *       -o /tmp/core_bench
 *   /tmp/core_bench lead-card 20000
 *   valgrind --tool=callgrind --toggle-collect=gd_card_moves /tmp/core_bench lead-card 500
 *   valgrind --tool=callgrind --toggle-collect=gd_playout /tmp/core_bench playout-random 200
 * With --toggle-collect on the timed function, callgrind's total / (5 n) is the
 * instructions per position (per playout in the playout modes). A third argument `digest`
 * adds a digest of every move made (after the timing) or of every finish order, to compare
 * builds (the playout modes always print it).
 */
#include "gd_core.h"
#include "gd_play.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t state = 88172645463325252ull;
static uint64_t next(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

/* n seeded deals played out five times over with a policy (one SplitMix64 stream). */
static int playouts(int policy, const char *name, int n) {
    gd_deal *deals = calloc((size_t)n, sizeof(gd_deal));
    for (int i = 0; i < n; i++) {
        uint8_t deck[108];
        for (int k = 0; k < 108; k++) deck[k] = (uint8_t)(k / 2);
        for (int k = 0; k < 107; k++) {
            const int j = k + (int)(next() % (uint64_t)(108 - k));
            const uint8_t t = deck[k];
            deck[k] = deck[j], deck[j] = t;
        }
        for (int k = 0; k < 108; k++) {
            const int f = deck[k];
            deals[i].hands[k / 27].w[f >> 5] += (uint64_t)1 << (2 * (f & 31));
        }
        deals[i].beat = GD_PASS_MOVE;
        deals[i].last = -1;
        deals[i].level = (uint8_t)(next() % 13);
    }
    gd_rng rng = {12345};
    long plies = 0;
    uint64_t digest = 0; /* of every finish order, so that runs (and builds) can be compared */
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int rep = 0; rep < 5; rep++)
        for (int i = 0; i < n; i++) {
            gd_deal d = deals[i];
            plies += gd_playout(&d, policy, &rng);
            for (int k = 0; k < d.n_finished; k++) digest = (digest ^ d.finished[k]) * 0x100000001B3ull;
        }
    clock_gettime(CLOCK_MONOTONIC, &b);
    const double dt = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
    printf("%s: %.0f playouts/s, %.1f plies a playout, digest %016llx\n", name, 5.0 * n / dt,
           (double)plies / (5.0 * n), (unsigned long long)digest);
    free(deals);
    return 0;
}

int main(int argc, char **argv) {
    static const char *modes[] = {"lead-rank", "lead-count", "lead-card", "response-rank", "response-count",
                                  "mixed-count", "playout-random", "playout-greedy"};
    int mode = -1;
    for (int i = 0; argc > 1 && i < 8; i++)
        if (!strcmp(argv[1], modes[i])) mode = i;
    if (mode < 0) {
        fprintf(stderr, "usage: core_bench lead-rank|lead-count|lead-card|response-rank|response-count|mixed-count|"
                        "playout-random|playout-greedy [n] [digest]\n");
        return 2;
    }
    const int n = argc > 2 ? atoi(argv[2]) : 20000;
    const int with_digest = argc > 3 && !strcmp(argv[3], "digest");
    gd_init();
    if (mode >= 6) return playouts(mode == 6 ? GD_POLICY_RANDOM : GD_POLICY_GREEDY, modes[mode], n);
    uint8_t *hands = calloc((size_t)n, GD_FACES), *levels = malloc((size_t)n);
    gd_move *beats = malloc(sizeof(gd_move) * (size_t)n);
    static gd_move rank_buf[GD_MAX_RANK_MOVES];
    static uint64_t card_buf[2 * 200000];
    for (int i = 0; i < n; i++) {
        uint8_t deck[108], *hand = hands + GD_FACES * i, other[GD_FACES] = {0};
        for (int k = 0; k < 108; k++) deck[k] = (uint8_t)(k / 2);
        for (int k = 0; k < 54; k++) {
            const int j = k + (int)(next() % (uint64_t)(108 - k));
            const uint8_t t = deck[k];
            deck[k] = deck[j], deck[j] = t;
        }
        for (int k = 0; k < 27; k++) hand[deck[k]]++, other[deck[27 + k]]++;
        levels[i] = (uint8_t)(2 + next() % 13);
        beats[i] = GD_PASS_MOVE;
        if (mode == 3 || mode == 4 || (mode == 5 && i % 4)) {
            gd_view v;
            int detail;
            gd_prepare(other, levels[i], GD_PASS_MOVE, &v, &detail);
            beats[i] = rank_buf[next() % gd_rank_moves(&v, GD_PASS_MOVE, rank_buf)];
        }
    }
    size_t total = 0;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int rep = 0; rep < 5; rep++)
        for (int i = 0; i < n; i++) {
            gd_view v;
            int detail;
            if (gd_prepare(hands + GD_FACES * i, levels[i], beats[i], &v, &detail)) return 1;
            switch (mode) {
            case 0: case 3: total += gd_rank_moves(&v, beats[i], rank_buf); break;
            case 1: case 4: case 5: total += gd_count_rank_moves(&v, beats[i]); break;
            default: total += gd_card_moves(&v, beats[i], card_buf, 200000); break;
            }
        }
    clock_gettime(CLOCK_MONOTONIC, &b);
    const double dt = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
    /* after the timing, when asked: a digest of what was made (every move word, in order; the
     * counts), so that builds can be compared */
    uint64_t digest = 0;
    for (int i = 0; i < n && with_digest; i++) {
        gd_view v;
        int detail;
        gd_prepare(hands + GD_FACES * i, levels[i], beats[i], &v, &detail);
        size_t k, words = 0;
        const uint64_t *w = rank_buf;
        switch (mode) {
        case 0: case 3: k = words = gd_rank_moves(&v, beats[i], rank_buf); break;
        case 1: case 4: case 5: k = gd_count_rank_moves(&v, beats[i]); break;
        default: k = gd_card_moves(&v, beats[i], card_buf, 200000), words = 2 * k, w = card_buf; break;
        }
        digest = (digest ^ k) * 0x100000001B3ull;
        for (size_t j = 0; j < words; j++) digest = (digest ^ w[j]) * 0x100000001B3ull;
    }
    printf("%s: %.2f M positions/s, %.1f moves a position (gd_prepare included)", modes[mode], 5.0 * n / dt / 1e6,
           (double)total / (5.0 * n));
    if (with_digest) printf(", digest %016llx", (unsigned long long)digest);
    printf("\n");
    return 0;
}
