# The C core's search (csrc/gd_search.h): information sets and the deals sampled from them,
# the smart policy, rollouts, and the search loop over candidate moves.

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t

from .gd_core cimport gd_cards, gd_move
from .gd_play cimport gd_deal, gd_rng


cdef extern from "gd_search.h" nogil:
    enum:
        GD_POLICY_SMART
        GD_POLICY_LEARNED
        GD_FEATURES
        GD_POLICY_WEIGHTS
        GD_HIDDEN
        GD_POLICY_NET
        GD_EVENT_PLAY
        GD_EVENT_PASS
        GD_OBJECTIVE_LEVELS
        GD_OBJECTIVE_WINS
        GD_OBJECTIVE_TABLE
        GD_TREE_MAX_MOVES
        GD_TREE_MAX_NODES
        GD_VALUE_FEATURES
        GD_VALUE_HIDDEN
        GD_VALUE_ONE
    ctypedef struct gd_event:
        uint64_t lo
        uint64_t hi
        gd_move word
        uint8_t kind
        uint8_t seat
        uint8_t other
    ctypedef struct gd_infoset:
        gd_cards hand
        gd_cards pool
        gd_cards known[4]
        gd_cards forbid[4]
        uint8_t need[4]
        uint8_t seat
        uint8_t level
        const gd_event *events
        size_t n_events
    ctypedef struct gd_infer:
        double pass_weight
        double bomb_weight
        int tries
    ctypedef struct gd_linear:
        float w[GD_POLICY_WEIGHTS]
        int hidden
        float u[2][GD_HIDDEN][GD_FEATURES]
        float b[2][GD_HIDDEN]
        float v[2][GD_HIDDEN]
        double temperature
    ctypedef struct gd_value:
        int hidden[2]
        int plies
        double mix
        const float *w
    ctypedef struct gd_search_params:
        uint64_t seed
        int64_t rollouts
        double seconds
        int threads
        uint8_t policy
        uint8_t objective
        uint8_t promotion[3]
        int32_t payoff[6]
        uint8_t solve_cards
        uint32_t solve_cost
        int64_t solve_nodes
        gd_infer infer
        const gd_linear *linear
        double policy_weight
        int policy_events
        uint8_t tree_moves
        uint32_t tree_visits
        uint32_t tree_nodes
        double tree_c
        double tree_first
        const double *prior
        double prior_rollouts
        const gd_value *value
    ctypedef struct gd_candidate_stats:
        int64_t n
        double sum
        double weight
        int32_t round
        int32_t rank
    gd_move gd_smart_move(const gd_deal *d)
    gd_move gd_policy_move(const gd_deal *d, int policy, gd_rng *rng)
    int gd_rollout(gd_deal *d, const uint8_t *policies, gd_rng *rng)
    int gd_rollout_linear(gd_deal *d, const uint8_t *policies, const gd_linear *lin, gd_rng *rng)
    int gd_rollout_seats(gd_deal *d, const uint8_t *policies, const gd_linear *const *lins, gd_rng *rng)
    void gd_move_features(const gd_deal *d, gd_move m, float *out)
    gd_move gd_learned_move(const gd_deal *d, const gd_linear *lin)
    gd_move gd_learned_sample(const gd_deal *d, const gd_linear *lin, gd_rng *rng)
    int gd_infoset_check(const gd_infoset *s)
    const char *gd_infoset_error(int code)
    void gd_sample_deal(const gd_infoset *s, gd_rng *rng, gd_cards *hands)
    double gd_deal_weight(const gd_infoset *s, const gd_infer *inf, const gd_cards *hands)
    void gd_sample_weighted(const gd_infoset *s, const gd_infer *inf, gd_rng *rng, gd_cards *hands)
    double gd_policy_belief(const gd_infoset *s, const gd_linear *lin, double miss, int events,
                            const gd_cards *hands)
    void gd_value_features(const gd_deal *d, float *out)
    size_t gd_value_size(const int *hidden)
    double gd_value_eval(const gd_value *v, const gd_deal *d)
    size_t gd_candidates(const gd_deal *d, size_t limit, gd_move *out)
    void gd_candidate_places(const gd_deal *d, size_t limit, const uint64_t *moves, size_t k, int8_t *out)
    int64_t gd_search(const gd_infoset *s, const gd_deal *root, const gd_move *cands, size_t k,
                      const gd_search_params *p, gd_candidate_stats *stats)
    uint64_t gd_stream(uint64_t seed, uint64_t a, uint64_t b)
