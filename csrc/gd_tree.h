/* The tree of a search's later decisions: information-set search below the root.
 *
 * gd_search judges each root candidate by playing sampled deals on. With a tree, the
 * searching seat's own later decisions in those playouts are searched too instead of being
 * left to the rollout policy: each is a node keyed by the public line of play from the
 * root (every seat's move since, which the seat sees whatever the hidden hands), so one
 * node gathers every sampled deal that reached it — the seat's information set there, not
 * one deal's perfect information. A node holds a few moves (the rollout policy's own
 * first) and picks among them by PUCT: the mean result of a move plus
 * c * prior * sqrt(N) / (1 + n), the policy's move holding the prior `first`, the others
 * sharing the rest; an unplayed move counts the node's mean. Only IEEE-exact arithmetic
 * (+, -, *, /, sqrt) goes into a choice, so a search chooses alike on every platform.
 *
 * This file is the data structure alone (the table, the keys, the choice, the updates);
 * the walk of a playout through it is gd_search.c's. Flat C, one allocation per tree,
 * no locks: a search reads the tree from its threads and updates it between batches of
 * sampled deals, in the deals' order, so that its choices do not depend on the threads.
 */
#ifndef GD_TREE_H
#define GD_TREE_H

#include "gd_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most moves a node holds, the most tree decisions one playout walks, and the most
   nodes a tree may be given (about 400 bytes each). */
#define GD_TREE_MAX_MOVES 16
#define GD_TREE_DEPTH 24
#define GD_TREE_MAX_NODES (1u << 20)

typedef struct gd_tree_node {
    uint64_t key;       /* the line of play that reaches it (gd_tree_key); 0: an empty slot */
    gd_cards hand;      /* the seat's hand there and the play to beat: what its moves are legal */
    gd_move beat;       /* for (a walk checks them, so that no clash of keys plays an illegal move) */
    uint32_t visits;    /* playouts that reached it */
    uint32_t k;         /* its moves */
    int64_t total;      /* the sum of those playouts' results */
    gd_move moves[GD_TREE_MAX_MOVES];   /* the rollout policy's move first */
    uint32_t n[GD_TREE_MAX_MOVES];      /* playouts that chose each */
    int64_t sum[GD_TREE_MAX_MOVES];     /* the sum of their results */
} gd_tree_node;

typedef struct gd_tree {
    gd_tree_node *nodes;  /* open addressing by key, 2^bits slots */
    uint64_t mask;
    uint32_t size, limit; /* nodes held; the most it may hold (3/4 of the slots) */
} gd_tree;

/* A tree of room for at least max_nodes nodes (>= 1); returns 0, or -1 if memory ran out
 * (the tree then holds nothing and gd_tree_free is safe). */
int gd_tree_init(gd_tree *t, uint32_t max_nodes);
void gd_tree_free(gd_tree *t);

/* The key of a line of play: the key before it (0 at the root) and the seat's move. Never 0. */
uint64_t gd_tree_key(uint64_t key, int seat, gd_move m);

/* The index in t->nodes of a key's node, -1 when absent. */
int32_t gd_tree_find(const gd_tree *t, uint64_t key);

/* Add a node of k moves (1 <= k <= GD_TREE_MAX_MOVES, legal for the hand against beat)
 * under a key absent from the tree; returns its index, or -1 when the tree is full. */
int32_t gd_tree_add(gd_tree *t, uint64_t key, const gd_cards *hand, gd_move beat, const gd_move *moves, uint32_t k);

/* The move a node plays next (an index into its moves): PUCT as above, ties to the
 * lowest index. */
uint32_t gd_tree_choose(const gd_tree_node *node, double c, double first);

#ifdef __cplusplus
}
#endif
#endif
