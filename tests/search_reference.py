"""The search of ``mc`` in plain Python, to check the native one (``gd_search``, with and without
its tree of later decisions, ``gd_tree``) against, decision by decision.

It builds on native parts that are checked on their own elsewhere — the sampled deals
(``_core.sample_deals``: world w from the stream of the seed and w), the learned and smart
policies (``_core.learned_move``, ``_core.smart_move``), the candidates
(``_core.deal_candidates``) and a move's canonical cards (``_core.deal_play``) — and writes out
again what the search does with them: the rounds of successive halving and their budget, which
candidates each world plays, the standings, the walk of each playout through the tree, the PUCT
choice, the batches and the order in which the tree learns. A rollout budget and the
``learned`` or ``smart`` rollout policy only (``learned`` drawing its moves at ``temperature``
above 0 from each world's stream of the seed, as ``gd_stream(seed, w, 2)``, by
``reference_sample``); no endgame solves, no belief weighting. With a state value
(``Params.value``), a rollout reads the value ``value_plies`` plies after its candidate
(``_core.value_of``, checked against its numpy twin on its own) and scores it, or with
``value_mix`` below 1 plays on and blends it with the deal's result, in the search's fixed
point.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from guandan.bots.rollout_policy import reference_sample
from guandan.core import _core
from guandan.core.packed import PASS_WORD, DealState, size_of_bits, word_size
from guandan.core.rng import SplitMix64

BATCH = 8  # GD_TREE_BATCH
DEPTH = 24  # GD_TREE_DEPTH
MAX_MOVES = 16  # GD_TREE_MAX_MOVES
MASK64 = (1 << 64) - 1


def _mix(x: int) -> int:
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


def tree_key(key: int, seat: int, word: int) -> int:
    """``gd_tree_key``."""
    k = _mix(key ^ _mix((word + 0x9E3779B97F4A7C15 * (seat + 1)) & MASK64))
    return k or 1


@dataclass
class Node:
    moves: list[int]
    hand: int
    beat: int
    visits: int = 0
    total: int = 0
    n: list[int] = field(default_factory=list)
    sum: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.n = [0] * len(self.moves)
        self.sum = [0] * len(self.moves)

    def choose(self, c: float, first: float) -> int:
        """``gd_tree_choose``: PUCT, ties to the lowest index."""
        k = len(self.moves)
        root_n = math.sqrt(float(sum(self.n)))
        mean = self.total / self.visits if self.visits else 0.0
        other = (1.0 - first) / (k - 1) if k > 1 else 0.0
        best, top = 0, 0.0
        for i in range(k):
            q = self.sum[i] / self.n[i] if self.n[i] else mean
            prior = 1.0 if k == 1 else first if i == 0 else other
            score = q + c * prior * root_n / (1.0 + self.n[i])
            if i == 0 or score > top:
                best, top = i, score
        return best


@dataclass
class Params:
    rollouts: int
    seed: int = 0
    policy: str = "learned"
    weights: Any = None
    promotion: tuple[int, int, int] = (3, 2, 1)
    objective: str = "levels"
    tries: int = 1
    pass_weight: float = 1.0
    bomb_weight: float = 1.0
    tree_moves: int = 0
    tree_visits: int = 8
    tree_nodes: int = 4096
    tree_c: float = 1.0
    tree_first: float = 0.5
    payoff: tuple[int, ...] | None = None  # objective: six payoffs (a win with the partner 2nd..4th; a loss)
    prior_rollouts: float = 0.0  # with search's prior: the rollouts it counts for in the standings
    value: Any = None  # a StateValue: rollouts read it value_plies plies after the candidate
    value_plies: int = 0
    value_mix: float = 1.0  # below 1: the rollout plays on, scoring (1 - mix) result + mix value
    temperature: float = 0.0  # > 0: the learned policy draws its moves (reference_sample)


VALUE_ONE = 65536  # the search's fixed point with a value (GD_VALUE_ONE)


def _llround(x: float) -> int:
    """C's llround: the nearest integer, halves away from zero."""
    return int(math.floor(abs(x) + 0.5)) * (1 if x >= 0 else -1)


def _value_result(state: Any, side: int, p: Params, rng: SplitMix64) -> int:
    """A rollout the value ends, in VALUE_ONE fixed point (gd_search.c's value_playout)."""
    for _ in range(p.value_plies):
        if _over(state):
            break
        state, _ = _core.deal_play(state, _policy_move(state, p, rng))
    if _over(state):
        return _score(state, side, p) * VALUE_ONE
    v = _core.value_of(state, p.value.flat(), p.value.hidden)
    if state[2] & 1 != side:
        v = -v
    v = -64.0 if not v > -64.0 else min(v, 64.0)  # NaN too, as the C
    if p.value_mix < 1.0:
        while not _over(state):
            state, _ = _core.deal_play(state, _policy_move(state, p, rng))
        return _llround(((1.0 - p.value_mix) * float(_score(state, side, p)) + p.value_mix * v) * VALUE_ONE)
    return _llround(v * VALUE_ONE)


def stream(seed: int, a: int, b: int) -> SplitMix64:
    """``gd_stream``: the generator of the search's stream ``(seed, a, b)``."""
    r = SplitMix64(seed ^ 0x5851F42D4C957F2D)
    x = r.next_u64()
    r.state = x ^ ((a * 0x9E3779B97F4A7C15) & MASK64)
    x = r.next_u64()
    r.state = x ^ ((b * 0xD1B54A32D192ED03) & MASK64)
    return SplitMix64(r.next_u64())


def _policy_move(state: Any, p: Params, rng: SplitMix64) -> int:
    if p.policy == "learned" and p.temperature > 0:
        return reference_sample(_deal_state(state), p.weights, p.temperature, rng)
    if p.policy == "learned":
        return int(_core.learned_move(state, p.weights)[0])
    assert p.policy == "smart", "a deterministic rollout policy"
    return int(_core.smart_move(state)[0])


def _deal_state(state: Any) -> DealState:
    """A native state tuple as the :class:`~guandan.core.packed.DealState` the plain-Python policy reads."""
    return state if isinstance(state, DealState) else DealState(*state)


def _score(state: Any, side: int, p: Params) -> int:
    finished = state[6]
    first = finished[0]
    if p.objective == "wins":
        return 1 if first % 2 == side else -1
    place = 4
    for i in range(1, len(finished)):
        if finished[i] == first ^ 2:
            place = i + 1
    if p.payoff is not None:
        return p.payoff[(0 if first % 2 == side else 3) + place - 2]
    gain = p.promotion[place - 2]
    return gain if first % 2 == side else -gain


def _node_moves(state: Any, p: Params, rng: SplitMix64) -> list[int]:
    first = _policy_move(state, p, rng)
    hand = state[0][state[2]]
    if first != PASS_WORD and word_size(first) == size_of_bits(hand):
        return [first]
    limit = min(p.tree_moves, MAX_MOVES)
    out = [first]
    for w in (int(x) for x in _core.deal_candidates(state, limit)):
        if len(out) >= limit:
            break
        if w != first:
            out.append(w)
    return out


class Tree:
    """The tree of later decisions (``gd_tree``): nodes by key, at most ``limit``."""

    def __init__(self, limit: int, counted: Counter[str]) -> None:
        self.nodes: dict[int, Node] = {}
        self.limit = limit
        self.counted = counted  # "chose": the choices the nodes made

    def playout(
        self, state: Any, move: int, me: int, p: Params, rng: SplitMix64
    ) -> tuple[Any, list[tuple[Node, int]], Any]:
        """Play on from a root candidate's state: the final state, the walk (node, choice or
        -1) and the node to add (key, moves, hand, beat) or None."""
        key = tree_key(0, me, move)
        walking, walk, new = True, [], None
        while not _over(state):
            seat = state[2]
            m = None
            if walking and seat == me:
                node = self.nodes.get(key)
                if node is not None and (node.beat != state[4] or node.hand != state[0][seat]):
                    node, walking = None, False
                elif node is not None:
                    choice = -1
                    if len(walk) < DEPTH:
                        if node.visits >= p.tree_visits:
                            choice = node.choose(p.tree_c, p.tree_first)
                        walk.append((node, choice))
                    if choice >= 0:
                        m = node.moves[choice]
                        self.counted["chose"] += 1
                    else:
                        walking = False
                else:
                    moves = _node_moves(state, p, rng)
                    m = moves[0]
                    if len(moves) > 1:
                        walking = False
                        if len(self.nodes) < self.limit:
                            new = (key, moves, state[0][seat], state[4])
            if m is None:
                m = _policy_move(state, p, rng)
            state, _ = _core.deal_play(state, m)
            if walking:
                key = tree_key(key, seat, m)
        return state, walk, new

    def apply(self, walks: list[tuple[list[tuple[Node, int]], Any, int]]) -> None:
        for walk, new, result in walks:
            for node, choice in walk:
                node.visits += 1
                node.total += result
                if choice >= 0:
                    node.n[choice] += 1
                    node.sum[choice] += result
            if new is not None and new[0] not in self.nodes and len(self.nodes) < self.limit:
                key, moves, hand, beat = new
                self.nodes[key] = Node(moves, hand, beat, visits=1, total=result)


def _over(state: Any) -> bool:
    # a deal is over once both seats of a side are out
    finished = state[6]
    return any({s, s ^ 2} <= set(finished) for s in (0, 1))


def search(
    infoset: Any,
    root: Any,
    candidates: list[int],
    p: Params,
    counted: Counter[str] | None = None,
    prior: list[float] | None = None,
) -> list[tuple[int, float, int, int]]:
    """Each candidate's (rollouts, mean, last round, rank), as ``_core.search`` gives them
    (``root``: the whole deal state of the seat to act; its other hands are not read), and in
    ``counted["chose"]`` the choices the tree's nodes made. ``prior``: a value a candidate,
    counted as ``p.prior_rollouts`` rollouts in the standings."""
    blend = (prior, p.prior_rollouts) if prior is not None and p.prior_rollouts > 0 else None
    k = len(candidates)
    stats = [{"n": 0, "sum": 0, "round": 0, "rank": i} for i in range(k)]
    if k <= 1:
        return [(0, 0.0, 0, i) for i in range(k)]
    rounds = 0
    while (1 << rounds) < k:
        rounds += 1
    hands0, level, turn, last, beat, passes, finished = root
    side = turn & 1
    tree = Tree(p.tree_nodes, counted if counted is not None else Counter()) if p.tree_moves > 0 else None
    alive = list(range(k))
    done, world = 0, 0
    budget = p.rollouts
    deals = _core.sample_deals(infoset, budget + 1, p.seed, p.tries, p.pass_weight, p.bomb_weight)
    for r in range(rounds):
        share = budget - done if r == rounds - 1 else (budget - done) // (rounds - r)
        if share <= 0:
            continue
        n_alive = len(alive)
        full, extra = divmod(share, n_alive)
        n_worlds = full + (1 if extra else 0)
        n_last = extra if extra else n_alive
        step = BATCH if tree is not None else max(n_worlds, 1)
        for batch in range(0, n_worlds, step):
            walks = []
            for i in range(batch, min(batch + step, n_worlds)):
                w = world + i
                start = (tuple(deals[w]), level, turn, last, beat, passes, finished)
                for ci in range(n_last if i + 1 == n_worlds else n_alive):
                    move = candidates[alive[ci]]
                    state, over = _core.deal_play(start, move)
                    rng = stream(p.seed, w, 2)  # each candidate's playout of world w: the same stream
                    walk, new = [], None
                    if tree is not None and not over:
                        state, walk, new = tree.playout(state, move, turn, p, rng)
                    elif p.value is not None:
                        result = _score(state, side, p) * VALUE_ONE if over else _value_result(state, side, p, rng)
                    elif not over:
                        while not _over(state):
                            state, _ = _core.deal_play(state, _policy_move(state, p, rng))
                    if p.value is None or tree is not None:
                        result = _score(state, side, p)
                    stats[alive[ci]]["n"] += 1
                    # in levels: a fixed-point result over VALUE_ONE is exact, and so are their sums
                    stats[alive[ci]]["sum"] += result / VALUE_ONE if p.value is not None and tree is None else result
                    walks.append((walk, new, result))
                    done += 1
            if tree is not None:
                tree.apply(walks)
        world += n_worlds
        for ci in alive:
            stats[ci]["round"] = r
        if r < rounds - 1:
            ordered = _standings(stats, alive, blend)
            alive = sorted(ordered[: (n_alive + 1) // 2])
            for ci in alive:
                stats[ci]["round"] = r + 1
    for rank, i in enumerate(_standings(stats, list(range(k)), blend)):
        stats[i]["rank"] = rank
    return [
        (s["n"], s["sum"] / s["n"] if s["n"] else 0.0, s["round"], s["rank"])  # type: ignore[operator]
        for s in stats
    ]


def _standings(stats: list[dict[str, int]], which: list[int], blend: tuple[list[float], float] | None) -> list[int]:
    """Later round first, then played before unplayed, then the higher mean, then the index.
    With a prior (``blend``: the values and the rollouts they count for), a mean is
    ``(sum + a * (q + shift)) / (n + a)``, ``shift`` the mean of ``sum - n * q`` over the
    played candidates ranked, weighted by their rollouts (summed in ``which``'s order), and an
    unplayed candidate stands by it too (``q + shift``), among the played."""
    shift = 0.0
    if blend is not None:
        q, a = blend
        total = 0.0
        for i in which:
            if stats[i]["n"]:
                shift += stats[i]["sum"] - stats[i]["n"] * q[i]
                total += stats[i]["n"]
        shift = shift / total if total > 0 else 0.0

    def key(i: int) -> tuple[int, int, float, int]:
        s = stats[i]
        if blend is not None:  # an unplayed candidate stands by its prior, among the others
            return (-s["round"], 0, -((s["sum"] + a * (q[i] + shift)) / (s["n"] + a)), i)
        mean = s["sum"] / s["n"] if s["n"] else 0.0
        return (-s["round"], 0 if s["n"] else 1, -mean if s["n"] else 0.0, i)

    return sorted(which, key=key)
