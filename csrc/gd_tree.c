/* The tree of a search's later decisions. See gd_tree.h. */
#include "gd_tree.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int gd_tree_init(gd_tree *t, uint32_t max_nodes) {
    uint64_t slots = 16;
    while (slots / 4 * 3 < max_nodes) slots <<= 1;
    t->nodes = (gd_tree_node *)calloc((size_t)slots, sizeof(gd_tree_node));
    t->size = 0;
    if (!t->nodes) {
        t->mask = 0, t->limit = 0;
        return -1;
    }
    t->mask = slots - 1;
    t->limit = max_nodes;
    return 0;
}

void gd_tree_free(gd_tree *t) {
    free(t->nodes);
    t->nodes = NULL;
    t->size = t->limit = 0;
}

static uint64_t mix(uint64_t x) { /* SplitMix64's finalizer */
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

uint64_t gd_tree_key(uint64_t key, int seat, gd_move m) {
    const uint64_t k = mix(key ^ mix(m + 0x9E3779B97F4A7C15ull * (uint64_t)(seat + 1)));
    return k ? k : 1;
}

int32_t gd_tree_find(const gd_tree *t, uint64_t key) {
    if (!t->nodes) return -1;
    for (uint64_t i = key & t->mask;; i = (i + 1) & t->mask) {
        if (t->nodes[i].key == key) return (int32_t)i;
        if (t->nodes[i].key == 0) return -1;
    }
}

int32_t gd_tree_add(gd_tree *t, uint64_t key, const gd_cards *hand, gd_move beat, const gd_move *moves, uint32_t k) {
    if (!t->nodes || t->size >= t->limit || k == 0) return -1;
    if (k > GD_TREE_MAX_MOVES) k = GD_TREE_MAX_MOVES;
    uint64_t i = key & t->mask;
    while (t->nodes[i].key != 0) i = (i + 1) & t->mask;
    gd_tree_node *n = &t->nodes[i];
    memset(n, 0, sizeof(*n));
    n->key = key;
    n->hand = *hand;
    n->beat = beat;
    n->k = k;
    memcpy(n->moves, moves, k * sizeof(gd_move));
    t->size++;
    return (int32_t)i;
}

uint32_t gd_tree_choose(const gd_tree_node *node, double c, double first) {
    uint64_t played = 0;
    for (uint32_t i = 0; i < node->k; i++) played += node->n[i];
    const double root_n = sqrt((double)played);
    const double mean = node->visits ? (double)node->total / (double)node->visits : 0.0;
    const double other = node->k > 1 ? (1.0 - first) / (double)(node->k - 1) : 0.0;
    uint32_t best = 0;
    double top = 0.0;
    for (uint32_t i = 0; i < node->k; i++) {
        const double q = node->n[i] ? (double)node->sum[i] / (double)node->n[i] : mean;
        const double prior = node->k == 1 ? 1.0 : i == 0 ? first : other;
        const double score = q + c * prior * root_n / (1.0 + (double)node->n[i]);
        if (i == 0 || score > top) top = score, best = i;
    }
    return best;
}
