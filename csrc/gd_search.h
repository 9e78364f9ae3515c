/* Search over hidden hands: sampling deals from one seat's information, the smart rollout
 * policy, and a determinized Monte Carlo search whose budget goes where it matters
 * (successive halving over the candidate moves), on threads.
 *
 * Built on gd_play.h (gd_deal, gd_spend, gd_deal_apply, gd_choose) and gd_core.h (move
 * generation). Everything here is reentrant: no global mutable state; a search's threads
 * share only read-only inputs, each writing its own slots of the result table.
 */
#ifndef GD_SEARCH_H
#define GD_SEARCH_H

#include "gd_play.h"
#include "gd_tree.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- rollout policies ------------------------------------------------------------------ */

/* GD_POLICY_RANDOM and GD_POLICY_GREEDY are gd_choose's (gd_play.h). The smart and the
 * learned policies (see gd_smart_move, gd_learned_move) are this module's. */
enum { GD_POLICY_SMART = 2, GD_POLICY_LEARNED = 3, GD_POLICY_COUNT = 4 };

/* The move the smart policy plays for the seat to act. Deterministic (no randomness): the
 * rule of guandan's `smart` policy, documented in gd_search.c. */
gd_move gd_smart_move(const gd_deal *d);

/* The features of a move for the learned policy: GD_FEATURES numbers describing the move in
 * its position (gd_search.c lists them; guandan.bots.rollout_policy.FEATURES names them),
 * written to the leading half of a GD_POLICY_WEIGHTS vector when the seat leads and to the
 * responding half when it responds, the other half zero. */
enum {
    GD_F_PASS, GD_F_PASS_OPP5, GD_F_PASS_PARTNER, GD_F_PASS_OWNER5,
    GD_F_BOMB, GD_F_BOMB_CLASS, GD_F_BOMB_OPP4, GD_F_BOMB_LEFT8, GD_F_BOMB_OWNER10,
    GD_F_KEY, GD_F_KEY2, GD_F_SIZE, GD_F_SPLITS, GD_F_BROKEN, GD_F_WILDS, GD_F_JOKERS,
    GD_F_LAST_BUT_ONE, GD_F_ANSWERABLE, GD_F_FEED, GD_F_OVER_PARTNER, GD_F_DIRTY_OPP5,
    GD_F_SINGLE, GD_F_PAIR, GD_F_TRIPLE, GD_F_FULL_HOUSE, GD_F_STRAIGHT, GD_F_PAIR_RUN,
    GD_F_TRIPLE_RUN, GD_F_LEFT, GD_F_SMART,
    GD_F_OPP_OVER, GD_F_PARTNER_OVER, GD_F_PASS_JIEFENG, GD_F_BOMB_PARTNER_OUT,
    GD_FEATURES
};
#define GD_POLICY_WEIGHTS (2 * GD_FEATURES)

/* The learned policy's weights. A move's score is the dot product of its features f and
 * the weights w of its half (leading or responding); with a hidden layer (hidden =
 * GD_HIDDEN), plus, for each hidden unit j of that half, v[j] * max(0, u[j] . f + b[j]): a
 * tiny network over the same features. Each sum is accumulated in float, in index order
 * (the plain-Python version sums alike, so both choose the same move). */
#define GD_HIDDEN 8
typedef struct gd_linear {
    float w[GD_POLICY_WEIGHTS];
    int hidden; /* 0: the linear score alone; GD_HIDDEN: with the hidden layer */
    float u[2][GD_HIDDEN][GD_FEATURES];
    float b[2][GD_HIDDEN];
    float v[2][GD_HIDDEN];
    double temperature; /* 0: the highest score plays (gd_learned_move); > 0: in a rollout
                           (gd_policy_move_linear), a move drawn with probability proportional
                           to exp(score / temperature) (gd_learned_sample) */
} gd_linear;
/* The weights of a policy with the hidden layer, as a flat vector: w, then for the leading
 * and the responding half each unit's u (GD_FEATURES), b and v. */
#define GD_POLICY_NET (GD_POLICY_WEIGHTS + 2 * GD_HIDDEN * (GD_FEATURES + 2))

/* The features of the legal rank-level move m (or the pass, when responding) for the seat to
 * act (see GD_FEATURES). */
void gd_move_features(const gd_deal *d, gd_move m, float out[GD_POLICY_WEIGHTS]);

/* The move the learned policy plays for the seat to act: a move that plays out the whole
 * hand as the smart policy does, else the legal move (the pass included when responding) of
 * the highest score under the weights, the first in the generator's order on ties.
 * Deterministic. */
gd_move gd_learned_move(const gd_deal *d, const gd_linear *lin);

/* The learned policy's move drawn at lin->temperature (> 0): a move that plays out the whole
 * hand as gd_learned_move; else each legal move (the pass included when responding) with
 * probability exp((score - top) / temperature) / their sum, every feature computed (scores in
 * float as gd_learned_move sums them; the weights and their sum in double, in the generator's
 * order), one uniform01 draw of rng picking the first move whose running sum exceeds it. */
gd_move gd_learned_sample(const gd_deal *d, const gd_linear *lin, gd_rng *rng);

/* The move any policy plays for the seat to act (random draws from rng; the learned policy
 * scores with lin, drawing its move when lin->temperature > 0, or plays the smart policy's
 * move when lin is NULL). */
gd_move gd_policy_move(const gd_deal *d, int policy, gd_rng *rng);
gd_move gd_policy_move_linear(const gd_deal *d, int policy, const gd_linear *lin, gd_rng *rng);

/* Play the deal to its end, seat s playing policies[s]; returns the plies played. */
int gd_rollout(gd_deal *d, const uint8_t policies[4], gd_rng *rng);
int gd_rollout_linear(gd_deal *d, const uint8_t policies[4], const gd_linear *lin, gd_rng *rng);
/* The same with a learned policy's weights per seat (lins[s] for seat s; NULL: smart's move). */
int gd_rollout_seats(gd_deal *d, const uint8_t policies[4], const gd_linear *const lins[4], gd_rng *rng);

/* ---- information sets: what one seat knows, and deals sampled from it ------------------ */

/* One public event of the deal so far, for inference. A play: `seat` played the card-level
 * move (lo, hi) (cards and declaration). A pass: `seat` passed on the play (lo, hi) that
 * `other` made. */
enum { GD_EVENT_PLAY = 1, GD_EVENT_PASS = 2 };
typedef struct gd_event {
    uint64_t lo, hi;
    gd_move word;  /* the rank-level move of (lo, hi): gd_card_to_rank(lo, hi, level) */
    uint8_t kind, seat, other;
} gd_event;

typedef struct gd_infoset {
    gd_cards hand;       /* the seat's own hand */
    gd_cards pool;       /* the cards whose place is unknown: dealt to the other seats (any
                            left over are in no hand: a deal of given hands, not the deck) */
    gd_cards known[4];   /* cards each other seat is known to hold (tribute, return) */
    gd_cards forbid[4];  /* faces a seat cannot be dealt from the pool (a tribute payer's
                            cards above its tribute) */
    uint8_t need[4];     /* how many pool cards each seat is dealt (0 for the seat itself) */
    uint8_t seat;        /* the seat whose information this is */
    uint8_t level;       /* rank 0..12 */
    const gd_event *events; /* the deal's plays and passes, oldest first */
    size_t n_events;
} gd_infoset;

/* How samples are weighted by what the play so far reveals. Each sample's likelihood is the
 * product, over the other seats' events, of `pass_weight` for a pass on an opponent's play
 * that the seat could have beaten then with a non-bomb of the same type that spends no wild
 * and breaks no bomb, and `bomb_weight` for a non-bomb play that broke up a rank held four
 * times or more. `tries` deals are drawn for each sample and one is kept with probability
 * proportional to its likelihood (sampling-importance-resampling); tries = 1 is the
 * consistent-deal sampler alone. */
typedef struct gd_infer {
    double pass_weight, bomb_weight;
    int tries;
} gd_infer;

/* Check an information set built from outside: returns 0 when consistent, else a code for
 * gd_infoset_error. */
int gd_infoset_check(const gd_infoset *s);
const char *gd_infoset_error(int code);

/* One deal consistent with the information set: the seat's own hand, each other seat its
 * known cards plus `need` pool cards (the rest of the pool in no hand), no seat dealt a face
 * it is forbidden (as long as the other seats have room for it: with forbidden faces for
 * one seat only the deals are exactly uniform among those consistent), uniformly otherwise. */
void gd_sample_deal(const gd_infoset *s, gd_rng *rng, gd_cards hands[4]);

/* The likelihood weight of a sampled deal (see gd_infer), in (0, 1]. */
double gd_deal_weight(const gd_infoset *s, const gd_infer *inf, const gd_cards hands[4]);

/* A weighted sample: `inf->tries` deals drawn by gd_sample_deal, one kept by weight. */
void gd_sample_weighted(const gd_infoset *s, const gd_infer *inf, gd_rng *rng, gd_cards hands[4]);

/* How likely the other seats' plays were under the learned policy, in a sampled deal: the
 * deal is replayed from the start of play (each seat's hand then: its hand now and the
 * cards it has played since; the first event's seat leading) and, at each of the other
 * seats' latest `events` plays and passes, the learned policy (`lin`) chooses in that
 * state; the result is `miss` raised to the number of those choices that differ from the
 * play made (multiplied out in order: the same double everywhere). 1.0 when the events do
 * not replay as a deal (an information set built by hand), when miss >= 1 or events <= 0.
 * `s` passes gd_infoset_check. */
double gd_policy_belief(const gd_infoset *s, const gd_linear *lin, double miss, int events, const gd_cards hands[4]);

/* ---- the state value ------------------------------------------------------------------- */

/* A whole deal state's value: the levels the side of the seat to act can expect from it, as a
 * small network over GD_VALUE_FEATURES numbers of the state (all four hands: the playouts'
 * sampled deals know them). For the seat to act t, relative seat r = 0..3 is seat (t + r) % 4,
 * and the numbers are, for each r, 21 at r * 21:
 *   0..12  the natural cards (the level's hearts, the wilds, apart) of each rank, in the
 *          level's order (2..A without the level's rank, then the level's rank), each / 4
 *   13     the wilds / 2;  14, 15  the small and the big jokers / 2;  16  the cards / 27
 *   17..20 one-hot: still in, out first, second, third (or later)
 * then, at 84: the seat of the play to beat, one-hot over the relative seats (84..87) or 88
 * when the turn leads; the play's type, one-hot over single .. joker bomb (89..98); its key in
 * the level's order / 14 (99); its cards / 10 (100); the passes since it / 3 (101); the level
 * (rank 0..12) / 12 (102). */
#define GD_VALUE_FEATURES 103
#define GD_VALUE_HIDDEN 256 /* the widest hidden layer */
void gd_value_features(const gd_deal *d, float out[GD_VALUE_FEATURES]);

/* The network: two hidden layers of widths hidden[0], hidden[1] (1..GD_VALUE_HIDDEN) with
 * ReLU, then one output. Its weights w, flat: the first layer's inputs by unit, transposed
 * (GD_VALUE_FEATURES rows of hidden[0]), its biases, the second's likewise (hidden[0] rows of
 * hidden[1]), its biases, the output's hidden[1] weights and its bias. Each unit's sum is
 * accumulated in float over its inputs in index order, skipping the inputs that are zero. */
typedef struct gd_value {
    int hidden[2];
    int plies;      /* a playout's plies after the candidate before the value is read (>= 0) */
    double mix;     /* 0..1: the value's share of the playout's score; below 1 the playout goes on to
                     * the deal's end and its result takes the rest (1: the value ends it) */
    const float *w; /* gd_value_size(hidden) floats */
} gd_value;
size_t gd_value_size(const int hidden[2]);

/* The value of a deal state (not over) for the side of the seat to act. */
double gd_value_eval(const gd_value *v, const gd_deal *d);

/* ---- candidates ------------------------------------------------------------------------ */

/* The candidate moves of a search for a hand at a level against a play to beat
 * (GD_PASS_MOVE to lead), at most `limit` (>= 1) of them, in the smart policy's order of
 * preference (its own choice first; the pass, when responding, always among them). Writes
 * them to out (room for GD_MAX_RANK_MOVES) and returns how many. */
size_t gd_candidates(const gd_deal *d, size_t limit, gd_move *out);

/* The place of each of k card-level moves of the seat to act (two words each, as
 * gd_card_moves writes them) among its candidates (gd_candidates, at most `limit`, capped at
 * 127): 0 for the smart policy's own choice, and so on; -1 for a move whose rank-level move is
 * not among them. Every card-level move of a candidate's rank-level move has its place. */
void gd_candidate_places(const gd_deal *d, size_t limit, const uint64_t *moves, size_t k, int8_t *out);

/* ---- the search ------------------------------------------------------------------------ */

typedef struct gd_search_params {
    uint64_t seed;
    int64_t rollouts;  /* > 0: exactly this many rollouts (when 2 candidates or more) */
    double seconds;    /* > 0: stop starting rollouts once this much time has passed */
    int threads;       /* >= 1 */
    uint8_t policy;    /* the rollout policy of every seat */
    uint8_t objective; /* what a rollout scores: GD_OBJECTIVE_LEVELS or GD_OBJECTIVE_WINS */
    uint8_t promotion[3]; /* the levels of a win with the partner 2nd, 3rd, 4th (GD_OBJECTIVE_LEVELS) */
    int32_t payoff[6];    /* GD_OBJECTIVE_TABLE: the result when the side wins with its partner 2nd, 3rd,
                             4th, then when it loses with the other side's partner 2nd, 3rd, 4th
                             (|value| <= 1e6); no endgame solves with it */
    uint8_t solve_cards;  /* > 0: when the root holds this many cards or fewer in all four hands, every
                             sampled deal after a candidate is solved exactly (gd_solve) instead of
                             played out, a solve counting as solve_cost rollouts of the budget */
    uint32_t solve_cost;  /* >= 1 */
    int64_t solve_nodes;  /* the most states one solve may visit; one that runs out is played out */
    gd_infer infer;
    const gd_linear *linear; /* the learned policy's weights (GD_POLICY_LEARNED; NULL: smart) */
    double policy_weight;  /* < 1 (with linear): each sampled deal counts in the candidates' means
                              with the weight gd_policy_belief(s, linear, policy_weight,
                              policy_events, hands): importance weights, on top of `infer` */
    int policy_events;
    uint8_t tree_moves;    /* > 0: the searching seat's own later decisions in the playouts are searched
                              too, in a tree keyed by the public line of play (gd_tree.h), at most this
                              many moves a decision (<= GD_TREE_MAX_MOVES); 0: the rollout policy plays them */
    uint32_t tree_visits;  /* the playouts a decision must have seen before its node chooses (>= 1) */
    uint32_t tree_nodes;   /* the most nodes of the tree (>= 1) */
    double tree_c;         /* PUCT's exploration, in results (levels or wins) */
    double tree_first;     /* the prior of the rollout policy's move at a node, in (0, 1] */
    const double *prior;   /* NULL, or a value for each candidate (in the rollouts' unit): a prior that
                              counts as prior_rollouts rollouts in every standing (see gd_search) */
    double prior_rollouts; /* >= 0 */
    const gd_value *value; /* NULL, or (objective GD_OBJECTIVE_LEVELS, no tree, no policy weights): a
                              playout reads the value of the state it reached value->plies plies
                              after the candidate, for the searching side (gd_value_eval), and scores
                              it (value->mix 1) or blends it with the deal's result (below 1); a
                              result in GD_VALUE_ONE fixed point like every other */
} gd_search_params;

/* With a value, results are kept in this fixed point (an exact result: its levels times it). */
#define GD_VALUE_ONE 65536

/* With a tree, a round's sampled deals are played in batches of this many: the threads read
 * the tree as the batch began, and the batch's playouts update it in the deals' order after. */
#define GD_TREE_BATCH 8

/* The transposition table of an endgame's solves: 2^GD_SEARCH_SOLVE_BITS entries a thread. */
#define GD_SEARCH_SOLVE_BITS 17

/* A rollout's result for the searching side: levels under the params' promotion
 * (gd_deal_score), the deal won (+1) or lost (-1, gd_deal_won), or the params' payoff table
 * (gd_deal_payoff: a match's stakes, what each result is worth). */
enum { GD_OBJECTIVE_LEVELS = 0, GD_OBJECTIVE_WINS = 1, GD_OBJECTIVE_TABLE = 2 };

/* Per candidate: rollouts, the weighted sum of their results (levels, for the searching
 * seat's side) and the sum of their deals' weights (its mean: sum / weight; both the rollouts'
 * count and the plain sum when no policy weighting), the last round it took part in
 * (successive halving), and its rank (0 = the choice). */
typedef struct gd_candidate_stats {
    int64_t n;
    double sum, weight;
    int32_t round;
    int32_t rank;
} gd_candidate_stats;

/* Search the state `root` (the searching seat to act; the other seats' hands are ignored
 * and sampled from `s`) over the k candidate moves (legal, distinct), filling stats[k].
 * Successive halving: ceil(log2 k) rounds share the budget equally; each round plays every
 * candidate still in on the same sampled deals (world w is the same deal for every
 * candidate, drawn from a stream of the seed and w; rollout randomness likewise), then keeps
 * the better half by mean result. With p->prior (and p->prior_rollouts > 0), a standing's
 * mean is the blend (sum + a * (q + shift)) / (weight + a) of the candidate's results and its
 * prior value q counted as a = prior_rollouts rollouts, shift making the priors' mean weighted
 * by the candidates' weights (over those ranked together) the means' one (a constant prior
 * draws each mean towards their pooled mean, more the fewer its rollouts): the eliminations
 * and the final ranking both, a candidate no rollout reached standing at q + shift among the
 * others; stats keep the rollouts' own sums. With p->tree_moves, the searching seat's later decisions
 * in those playouts are chosen by the tree (gd_tree.h) that the playouts grow, one node a
 * playout at most. With a rollout budget the result does not depend on the thread count.
 * With only a time budget, the rollout budget is estimated from the first worlds' speed.
 * Returns the rollouts played, or -1 if memory ran out. */
int64_t gd_search(const gd_infoset *s, const gd_deal *root, const gd_move *cands, size_t k,
                  const gd_search_params *p, gd_candidate_stats *stats);

/* A stream's starting state for (seed, a, b): distinct streams for distinct (a, b). */
uint64_t gd_stream(uint64_t seed, uint64_t a, uint64_t b);

#ifdef __cplusplus
}
#endif
#endif
