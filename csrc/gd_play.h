/* Native deals: the trick flow of rules §6 and playouts to the end of a deal, for search.
 *
 * A gd_deal is a deal in progress: four physical hands, the level, whose turn it is, the
 * play to beat and its seat, the passes since it, and the finish order. Moves are
 * rank-level words; the physical cards they spend are chosen canonically (gd_spend), so a
 * playout never expands card-level moves.
 */
#ifndef GD_PLAY_H
#define GD_PLAY_H

#include "gd_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* SplitMix64, bit for bit as guandan.core.rng.SplitMix64. */
typedef struct gd_rng {
    uint64_t state;
} gd_rng;

uint64_t gd_rng_next(gd_rng *rng);
/* Uniform in [0, n), n >= 1 (Lemire's method, as guandan.core.rng.SplitMix64.below). */
uint64_t gd_rng_below(gd_rng *rng, uint64_t n);

typedef struct gd_deal {
    gd_cards hands[4];
    gd_move beat;          /* the play to beat, GD_PASS_MOVE when the turn leads */
    int8_t last;           /* the seat of the play to beat, -1 when the turn leads */
    uint8_t level;         /* rank 0..12 */
    uint8_t turn;          /* the seat to act */
    uint8_t passes;        /* passes since the last play */
    uint8_t n_finished;    /* seats out so far, in order in finished[] */
    uint8_t finished[4];
    uint8_t over;          /* 1 once both seats of a side are out */
} gd_deal;

enum { GD_POLICY_RANDOM = 0, GD_POLICY_GREEDY = 1 };

/* Check a deal state built from outside: valid hands, seats and counts consistent
 * (finished seats hold no cards), a well-formed play to beat with a seat still relevant.
 * Returns 0 when consistent, else a code for gd_deal_error. */
int gd_deal_check(const gd_deal *d);
const char *gd_deal_error(int code);

/* The physical cards a rank-level move spends from a hand, chosen canonically: the wilds,
 * the jokers, the flush suit for a straight flush, otherwise for each rank the copies of
 * the suits holding the most copies first (lowest suit first on ties), keeping one card
 * of as many suits as possible. The move must be legal for the hand. */
void gd_spend(const gd_cards *hand, int level, gd_move m, gd_cards *spent);

/* Play a legal rank-level move (or the pass) for the seat whose turn it is, spending the
 * given physical cards; then advance the turn per rules §6 (trick ends, going out,
 * jiefeng, the end of the deal). The state must be consistent (gd_deal_check passes): the
 * seats out are exactly those with empty hands, which is how this tells them apart. */
void gd_deal_apply(gd_deal *d, gd_move m, const gd_cards *spent);

/* The move a built-in policy plays for the seat to act:
 * random: uniform over the rank-level legal moves (the pass included when responding),
 *   drawn without listing them all: the moves counted by kind (gd_count_rank_moves_by_kind),
 *   one gd_rng_below draw of an index below the count, the move at that index of
 *   gd_rank_moves's order (gd_rank_move_at, which makes only that kind's moves);
 * greedy: the rules of guandan.bots.agents.GreedyAgent at rank granularity — a move that plays
 *   out the whole hand (10 cards or fewer); let a partner's play stand; otherwise the
 *   weakest non-bomb (lowest key, then most cards, then fewest wilds) that spends no wild,
 *   no card of a rank held four or more times and no joker of a full set; failing that,
 *   when leading or when an opponent holds 5 cards or fewer, the weakest non-bomb or else
 *   the weakest bomb; else pass. */
gd_move gd_choose(const gd_deal *d, int policy, gd_rng *rng);

/* Play the deal to its end with a policy; returns the number of plies played. */
int gd_playout(gd_deal *d, int policy, gd_rng *rng);

/* perft: the number of card-level action sequences of exactly `depth` plies from a state
 * (passes and every declaration counted; a sequence cut short by the end of the deal counts
 * 0; depth 0 counts 1). The last ply is counted, not played. -1 if memory ran out. */
int64_t gd_perft(const gd_deal *d, int depth);

/* A finished deal's result for a side (0: seats 0 and 2), in levels under a ruleset's
 * promotion (the levels of a win with the partner 2nd, 3rd, 4th: 3, 2, 1 in the competitive
 * rules): +promotion[k] when the side wins with the partner in place k + 2, negative when it
 * loses likewise; 0 for a deal not over. */
int gd_deal_score(const gd_deal *d, int side, const uint8_t promotion[3]);

/* A finished deal's result for a side under a payoff table (gd_search_params.payoff); 0 for
 * a deal not over. */
int gd_deal_payoff(const gd_deal *d, int side, const int32_t payoff[6]);

/* Whether the side's seat finished first (the deal won, whatever it is worth): +1, else -1;
 * 0 for a deal not over. */
int gd_deal_won(const gd_deal *d, int side);

#ifdef __cplusplus
}
#endif
#endif
