"""Expert iteration for the search's rollouts: the learned rollout policy of ``mc``.

``mc``'s rollouts are played by a cheap native policy; the better that policy plays, the
more a rollout's result says about a candidate. This module makes the learned one
(:mod:`guandan.bots.rollout_policy`) on this engine:

1. **Positions** (:func:`expert_positions`): seeded deals played by four ``mc`` bots at a
   high budget; at each decision in play with two candidates or more, the whole deal (the
   four hands: the simulator knows them) and every candidate with its searched value.
2. **Fit** (:func:`fit_policy`): the linear score ``w · f(move)`` over the move features of
   the native core (``playouts.move_features``), regressed by softmax (conditional logit) on
   the search's choice among the legal moves, with an L2 penalty; plain numpy (Newton
   steps), deterministic.
3. **Improvement by play** (:func:`improve`): an evolution strategy over the weights, each
   generation's directions played in seeded native duels against the smart policy or
   against a learned policy of other weights (a next iteration: against the policy it
   starts from). With ``--hidden`` it first adds a hidden layer to a linear policy
   (:func:`with_hidden`) and moves the layer's weights too.

The weights ship in the package (``guandan/bots/rollout_policy.json``) and ``mc`` plays
its rollouts with them. The commands that made them (``--help`` lists the options): a
first policy by imitation and play against the smart policy, then improved by play
against that first policy::

    python -m guandan.rl.imitate positions --deals 60 --first 0 --rollouts 8000 --out pos-0.jsonl
    python -m guandan.rl.imitate positions --deals 60 --first 150 --rollouts 8000 --out pos-1.jsonl
    python -m guandan.rl.imitate fit pos-0.jsonl pos-1.jsonl --features first --out fit.json
    python -m guandan.rl.imitate improve --weights fit.json --generations 40 --out first.json
    python -m guandan.rl.imitate improve --weights first.json --opponent first.json --generations 40 \
        --out second-40.json
    python -m guandan.rl.imitate improve --weights second-40.json --opponent first.json --generations 160 \
        --population 16 --seed 1 --out rollout_policy.json

The same options give the same positions and the same weights, on any machine.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from ..bots.agents import Agent
from ..bots.rollout_policy import (
    FEATURES,
    FIRST_FEATURES,
    HIDDEN,
    NET_WEIGHTS,
    WEIGHTS,
    feature_dims,
    load_weights,
    policy_features,
    policy_file,
)
from ..bots.search import MonteCarloAgent, SearchResult
from ..core import playouts
from ..core.movegen import pack_rank_move, rank_moves
from ..core.moves import Move
from ..core.packed import PASS_WORD, DealState, cards_of_bits, size_of_bits, word_size
from ..core.rng import SplitMix64
from ..errors import GuandanError, check_int, check_number, describe
from ..game.deal import Deal
from ..game.history import Phase
from ..game.observation import Observation

__all__ = [
    "with_hidden",
    "expert_positions",
    "searched_decisions",
    "deal_level",
    "state_of_row",
    "read_positions",
    "position_rows",
    "fit_policy",
    "agreement",
    "duel",
    "opponent_policy",
    "improve",
    "main",
]

#: The deals of :func:`improve`'s duels (seeds from here) and of the held-out duels that
#: measure a policy (:func:`duel`'s default), disjoint.
IMPROVE_FIRST = 200_000
DUEL_FIRST = 100_000
#: The native policies a learned policy duels by name (a learned one is given by its weights).
_NAMED_OPPONENTS = ("smart", "greedy", "random")


def deal_level(seed: int) -> int:
    """The level (2..14) of the positions' deal of a seed: drawn from the seed, so that every
    level is seen.

    >>> [deal_level(s) for s in range(5)] == [deal_level(s) for s in range(5)]
    True
    >>> all(2 <= deal_level(s) <= 14 for s in range(50))
    True
    """
    return 2 + int(SplitMix64(seed ^ 0x1E7E1).below(13))


def _state_row(state: DealState) -> dict[str, Any]:
    return {
        "hands": [format(h, "x") for h in state.hands],
        "level": state.level,
        "turn": state.turn,
        "last": state.last,
        "beat": format(state.beat, "x"),
        "passes": state.passes,
        "finished": list(state.finished),
    }


def state_of_row(row: dict[str, Any]) -> DealState:
    """The native deal state of a position row (the inverse of how :func:`expert_positions`
    writes it)."""
    return DealState(
        tuple(int(h, 16) for h in row["hands"]),
        int(row["level"]),
        int(row["turn"]),
        int(row["last"]),
        int(row["beat"], 16),
        int(row["passes"]),
        tuple(int(s) for s in row["finished"]),
    )


def searched_decisions(
    deal: Deal, bots: Sequence[MonteCarloAgent], play: Sequence[Agent] | None = None
) -> Iterator[tuple[Observation, SearchResult]]:
    """Play ``deal`` out with the search ``bots`` (one a seat), yielding each decision in play
    whose search had two candidates or more, with its search's result, before its choice is
    played (a decision of one legal action is played at once, unsearched). With ``play`` (four
    agents, one a seat), the move played is that seat's agent's, the search only judging it.

    >>> deal = Deal.new(3, level=2)
    >>> bots = [MonteCarloAgent(seed=s, rollouts=40) for s in range(4)]
    >>> decisions = list(searched_decisions(deal, bots))
    >>> len(decisions) > 5, all(len(r.choices) >= 2 for _, r in decisions), deal.phase is Phase.OVER
    (True, True, True)
    """
    while deal.phase is Phase.PLAY:
        seat = deal.turn
        assert seat is not None
        observation = deal.observation(seat)
        if len(observation.legal_actions) == 1:
            deal.play(observation.legal_actions[0])
            continue
        result = bots[seat].analyze(observation)
        if len(result.choices) >= 2:
            yield observation, result
        move = result.best if play is None else play[seat].act(observation)
        assert isinstance(move, Move)  # in play, a move
        deal.play(move)


def expert_positions(
    deals: int,
    first: int = 0,
    rollouts: int = 16000,
    candidates: int = 32,
    policy: str = "smart",
    weights: str | None = None,
) -> Iterator[dict[str, Any]]:
    """The decisions of ``deals`` seeded deals (seeds ``first`` .. ``first + deals - 1``, the
    level :func:`deal_level`, the holder of the opening card leading) played by four ``mc``
    bots at ``rollouts`` a decision with the rollout ``policy`` (``smart`` by default: the
    first weights were learned from its positions; ``learned`` scores with the package's
    weights or those of the policy file ``weights``: a next iteration; bot seeds from the
    deal's seed and the seat), one row a
    decision in play with two candidates or more: the deal's seed, the native state (the
    four hands as hex), and ``words`` / ``values`` / ``rollouts``: each candidate's rank-level
    move word (hex), its searched value and its rollouts, the chosen one first.

    >>> rows = list(expert_positions(1, first=3, rollouts=50))
    >>> len(rows) > 5, all(len(r["words"]) >= 2 for r in rows)
    (True, True)
    """
    for seed in range(first, first + deals):
        deal = Deal.new(seed, level=deal_level(seed))
        bots = [
            MonteCarloAgent(
                seed=seed * 4 + seat,
                rollouts=rollouts,
                candidates=candidates,
                policy=policy,  # type: ignore[arg-type]
                weights=weights,
            )
            for seat in range(4)
        ]
        for _observation, result in searched_decisions(deal, bots):
            moves = [c.action for c in result.choices]
            assert all(isinstance(m, Move) for m in moves)  # in play, moves
            words = [format(pack_rank_move(m.to_rank()), "x") for m in moves if isinstance(m, Move)]
            row = {"seed": seed, **_state_row(deal.native_state())}
            row["words"] = words
            row["values"] = [round(c.value, 6) for c in result.choices]
            row["rollouts"] = [c.rollouts for c in result.choices]
            yield row


def read_positions(paths: Sequence[str]) -> list[dict[str, Any]]:
    """The rows of position files, in the order of their deals' seeds (then as written), so
    that how the deals were split among files does not matter."""
    rows: list[tuple[int, int, dict[str, Any]]] = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                for i, line in enumerate(f):
                    if line.strip():
                        row = json.loads(line)
                        rows.append((int(row["seed"]), i, row))
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise GuandanError(f"cannot read the positions {path!r}: {error}") from None
    rows.sort(key=lambda t: (t[0], t[1]))
    return [r for _, _, r in rows]


def position_rows(row: dict[str, Any]) -> tuple[np.ndarray, int] | None:
    """A position's design matrix for the fit: the features of every legal rank-level move
    (``float32 (k, WEIGHTS)``, ``playouts.move_features``) and the index of the search's choice;
    ``None`` when the policy does not score it (a move plays out the whole hand).

    >>> from guandan.bots.rollout_policy import WEIGHTS
    >>> row = next(expert_positions(1, first=3, rollouts=50))
    >>> x, y = position_rows(row); x.shape[1] == WEIGHTS and 0 <= y < x.shape[0]
    True
    """
    state = state_of_row(row)
    hand = state.hands[state.turn]
    words = [int(w) for w in rank_moves(cards_of_bits(hand).counts, state.level, state.beat)]
    mine = size_of_bits(hand)
    if any(w != PASS_WORD and word_size(w) == mine for w in words):
        return None
    chosen = int(row["words"][0], 16)
    return playouts.move_features(state, words), words.index(chosen)


def _design(rows: Sequence[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All positions' rows stacked: the features, where each position's rows start, and the
    chosen rows."""
    blocks, starts, chosen = [], [], []
    start = 0
    for row in rows:
        got = position_rows(row)
        if got is None:
            continue
        x, y = got
        blocks.append(x)
        starts.append(start)
        chosen.append(start + y)
        start += x.shape[0]
    if not blocks:
        raise GuandanError("no position to fit: every one was a move that plays out the hand")
    return np.concatenate(blocks).astype(np.float64), np.array(starts, dtype=np.int64), np.array(chosen, dtype=np.int64)


def _softmax(
    x: np.ndarray, starts: np.ndarray, w: np.ndarray, offset: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each row's probability within its position (score ``x @ w + offset``), the row's
    position, and each position's log-partition."""
    s = x @ w + offset
    owner = np.repeat(np.arange(len(starts)), np.diff(np.append(starts, len(s))))
    top = np.maximum.reduceat(s, starts)
    e = np.exp(s - top[owner])
    z = np.add.reduceat(e, starts)
    return e / z[owner], owner, np.log(z) + top


def fit_policy(
    rows: Sequence[dict[str, Any]],
    l2: float = 1.0,
    steps: int = 30,
    prior: np.ndarray | None = None,
    features: Sequence[str] = FEATURES,
) -> tuple[np.ndarray, dict[str, Any]]:
    """Fit the learned policy's weights to positions: the softmax over each position's legal
    moves of ``w · f`` regressed on the search's choice (the negative log-likelihood plus
    ``l2 / 2 * |w - prior|^2``, the prior zero unless given: a next iteration may stay near
    the policy it starts from), by ``steps`` Newton steps from the prior (each halved until
    the objective falls), over the weights of ``features`` only (the others stay at the
    prior's). Returns the weights and what the fit reached (positions, mean
    log-likelihood, how often the policy's move is the search's).

    >>> from guandan.bots.rollout_policy import WEIGHTS
    >>> rows = list(expert_positions(1, first=3, rollouts=50))
    >>> w, info = fit_policy(rows, steps=5)
    >>> w.shape == (WEIGHTS,), info["positions"] > 10, 0 <= info["agreement"] <= 1
    (True, True, True)
    """
    full, starts, chosen = _design(rows)
    whole = np.zeros(full.shape[1]) if prior is None else np.asarray(prior, dtype=np.float64)
    dims = feature_dims(features)
    rest = np.setdiff1d(np.arange(full.shape[1]), dims)
    x = full[:, dims]
    offset = full[:, rest] @ whole[rest]  # the fixed weights' part of every score
    center = whole[dims]
    w = center.copy()
    picked = x[chosen].sum(0)

    def penalty(w: np.ndarray) -> float:
        return 0.5 * l2 * float((w - center) @ (w - center))

    def objective(w: np.ndarray) -> float:
        return float(np.sum(_softmax(x, starts, w, offset)[2]) - picked @ w - offset[chosen].sum()) + penalty(w)

    value = objective(w)
    for _ in range(steps):
        p, owner, _ = _softmax(x, starts, w, offset)
        px = p[:, None] * x
        mean = np.add.reduceat(px, starts, axis=0)
        grad = px.sum(0) - picked + l2 * (w - center)
        hess = px.T @ x - mean.T @ mean + l2 * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        t = 1.0
        while t > 1e-6:
            trial = w - t * step
            v = objective(trial)
            if v <= value:
                w, value = trial, v
                break
            t /= 2
        else:
            break
    w = np.round(w, 6)
    n = len(chosen)
    loglik = -(objective(w) - penalty(w)) / n
    out = whole.copy()
    out[dims] = w
    return out, {"positions": n, "log_likelihood": round(loglik, 6), "agreement": round(agreement(rows, out), 6)}


def agreement(rows: Sequence[dict[str, Any]], weights: np.ndarray | None) -> float:
    """How often a policy plays the search's choice, over the positions the learned policy
    scores: the learned policy with these weights, or the smart policy (``None``)."""
    same = total = 0
    for row in rows:
        if position_rows(row) is None:
            continue
        state = state_of_row(row)
        move = playouts.smart_move(state)[0] if weights is None else playouts.learned_move(state, weights)[0]
        same += int(move) == int(row["words"][0], 16)
        total += 1
    return same / total if total else 0.0


def _fit_command(args: argparse.Namespace, say: Callable[[str], None]) -> int:
    rows = read_positions(args.positions)
    held = [r for r in rows if r["seed"] % args.hold_out_every == 0] if args.hold_out_every else []
    train = [r for r in rows if not args.hold_out_every or r["seed"] % args.hold_out_every]
    say(f"{len(train)} positions to fit, {len(held)} held out")
    start = time.perf_counter()
    prior = load_weights(args.prior) if args.prior else None
    w, info = fit_policy(train, l2=args.l2, steps=args.steps, prior=prior, features=args.features)
    say(f"fitted in {time.perf_counter() - start:.0f} s: {info}")
    if held:
        info["held_out"] = {
            "positions": len(held),
            "agreement": round(agreement(held, w), 6),
            "smart_agreement": round(agreement(held, None), 6),
        }
        say(f"held out: {info['held_out']}")
    command = "python -m guandan.rl.imitate fit " + " ".join(args.positions)
    command += f" --features {args.features_spec}" if args.features_spec != "all" else ""
    command += f" --l2 {args.l2} --steps {args.steps} --hold-out-every {args.hold_out_every}"
    command += f" --prior {args.prior}" if args.prior else ""
    command += f" --duel-deals {args.duel_deals}" + (f" --out {args.out}" if args.out else "")
    info["duels"] = _measured(w, args.duel_deals)
    say(f"held-out duels: {info['duels']}")
    out = args.out or str(policy_file())
    _write_policy(out, w, {"fit": info}, [*args.made_by, command], args.features)
    say(f"-> {out}")
    return 0


def _duel_states(first: int, deals: int) -> list[DealState]:
    return [Deal.new(s, level=deal_level(s)).native_state() for s in range(first, first + deals)]


def duel(
    weights: np.ndarray,
    opponent: str | np.ndarray = "smart",
    deals: int = 1000,
    first: int = DUEL_FIRST,
    states: Sequence[DealState] | None = None,
) -> int:
    """Deals won by the learned policy against another native policy (``smart``, ``greedy``
    or ``random``) or against the learned policy of other weights (an array), the policies
    alone (no search): each deal (seeds ``first`` ..), or each of ``states``, played twice
    from its start, the learned policy on seats 0 and 2, then on 1 and 3. Returns the deals
    won of ``2 * deals``.

    >>> from guandan.bots.rollout_policy import load_weights
    >>> 0 <= duel(load_weights(), "greedy", deals=10) <= 20
    True
    >>> duel(load_weights(), load_weights(), deals=10)  # the same policy on both sides
    10
    """
    if isinstance(opponent, str):
        if opponent not in _NAMED_OPPONENTS:
            raise GuandanError(f"the opponent is smart, greedy, random or weights, got {describe(opponent)}")
        other, theirs = opponent, None
    else:
        other, theirs = "learned", np.asarray(opponent, dtype=np.float64)
    # for each side of the learned policy (seats 0 and 2, then 1 and 3): the seats' policies and weights
    ours = [[s % 2 == side for s in range(4)] for side in (0, 1)]
    seats: list[list[Any]] = [["learned" if mine else other for mine in row] for row in ours]
    per_seat = [[weights if mine else theirs for mine in row] for row in ours]
    wins = 0
    for i, state in enumerate(states if states is not None else _duel_states(first, deals)):
        for side in (0, 1):
            first_out = int(playouts.rollouts(state, 1, seats[side], seed=i, seat_weights=per_seat[side])[0][0])
            wins += first_out % 2 == side
    return wins


def opponent_policy(name: str) -> str | np.ndarray:
    """An opponent of :func:`duel` and :func:`improve` by name: ``smart``, ``greedy`` and
    ``random`` as they are, ``learned`` the package's weights, anything else the path of a
    policy file.

    >>> opponent_policy("smart"), opponent_policy("learned").shape
    ('smart', (68,))
    """
    if name in _NAMED_OPPONENTS:
        return name
    return load_weights(None if name == "learned" else name)


def _normal(rng: SplitMix64, n: int) -> np.ndarray:
    """n standard normal draws (Box-Muller over the generator's doubles: the same on every
    platform)."""
    out = np.empty(n)
    for i in range(0, n, 2):
        u = (rng.next_u64() >> 11) * 2.0**-53
        v = (rng.next_u64() >> 11) * 2.0**-53
        r = np.sqrt(-2.0 * np.log(1.0 - u))
        out[i] = r * np.cos(2 * np.pi * v)
        if i + 1 < n:
            out[i + 1] = r * np.sin(2 * np.pi * v)
    return out


def with_hidden(weights: Any, seed: int = 0, scale: float = 0.3) -> np.ndarray:
    """A linear policy's weights with a hidden layer added (a ``NET_WEIGHTS`` vector of
    :mod:`guandan.bots.rollout_policy`): each hidden unit's inputs drawn at random (normal,
    standard deviation ``scale``, from ``seed``), its bias and its output 0, so that it
    plays exactly as ``weights`` do until :func:`improve` moves its outputs.

    >>> from guandan.bots.rollout_policy import NET_WEIGHTS, WEIGHTS, load_weights
    >>> w = with_hidden(load_weights(), seed=1)
    >>> w.shape == (NET_WEIGHTS,), w[:WEIGHTS].tolist() == load_weights().tolist()
    (True, True)
    """
    w = np.asarray(weights, dtype=np.float64)
    if w.shape != (WEIGHTS,):
        raise GuandanError(f"a hidden layer is added to {WEIGHTS} linear weights, got {describe(weights)}")
    unit = len(FEATURES) + 2
    out = np.zeros(NET_WEIGHTS)
    out[:WEIGHTS] = w
    draws = np.round(scale * _normal(SplitMix64(seed), 2 * HIDDEN * len(FEATURES)), 6)
    n = len(FEATURES)
    for u in range(2 * HIDDEN):
        out[WEIGHTS + u * unit : WEIGHTS + u * unit + n] = draws[u * n : (u + 1) * n]
    return out


def improve(
    weights: np.ndarray,
    generations: int = 30,
    population: int = 8,
    sigma: float = 0.3,
    alpha: float = 0.5,
    deals: int = 500,
    pool: int = 1500,
    seed: int = 0,
    opponent: str | np.ndarray = "smart",
    progress: Callable[[str], None] | None = None,
    features: Sequence[str] = FEATURES,
) -> tuple[np.ndarray, list[dict[str, Any]]]:
    """Improve a learned policy by playing (an evolution strategy over its weights): each
    generation draws ``population`` directions ``e`` and ``deals`` of a ``pool`` of seeded
    deals (seeds from :data:`IMPROVE_FIRST`), plays ``w + sigma e`` and ``w - sigma e``
    against ``opponent`` (a policy's name or weights, :func:`duel`) in them and moves ``w``
    by ``alpha / (population sigma)`` times the sum of ``e`` weighted by the difference of
    their win rates; the directions span the weights of ``features`` only (the others stay
    as given), and with a hidden layer (``NET_WEIGHTS`` numbers) those of every hidden unit
    that read them. Returns the weights and each generation's win rate over the whole pool.
    Deterministic in ``seed`` (the directions come from
    :class:`~guandan.core.rng.SplitMix64`).

    >>> from guandan.bots.rollout_policy import load_weights
    >>> w, history = improve(load_weights(), generations=1, population=2, deals=5, pool=10)
    >>> w.shape, len(history)
    ((68,), 1)
    """
    rng = SplitMix64(seed)
    states = _duel_states(IMPROVE_FIRST, pool)
    w = np.asarray(weights, dtype=np.float64).copy()
    dims = feature_dims(features, hidden=w.size == NET_WEIGHTS)
    history = []
    for g in range(generations):
        start = time.perf_counter()
        eps = np.zeros((population, w.size))
        for e in eps:
            e[dims] = _normal(rng, dims.size)
        picked = sorted({int(rng.below(pool)) for _ in range(deals)})
        sub = [states[i] for i in picked]
        gains = np.array(
            [duel(w + sigma * e, opponent, states=sub) - duel(w - sigma * e, opponent, states=sub) for e in eps]
        )
        w = w + alpha / (population * sigma) * (gains[:, None] / (2 * len(sub)) * eps).sum(0)
        rate = duel(w, opponent, states=states) / (2 * pool)
        history.append({"generation": g + 1, "win_rate": round(rate, 6)})
        if progress is not None:
            against = opponent if isinstance(opponent, str) else "the opponent's weights"
            progress(
                f"generation {g + 1}/{generations}: {rate:.1%} of the pool's deals against {against} "
                f"({time.perf_counter() - start:.0f} s)"
            )
    return np.round(w, 6), history


def _write_policy(
    path: str, w: np.ndarray, info: dict[str, Any], made_by: list[str], features: Sequence[str] = FEATURES
) -> None:
    """A policy file: the weights of the named features (in :data:`FEATURES` order), the
    hidden layer's when there is one, what made them and how."""
    dims = feature_dims(features)
    half = len(dims) // 2
    data: dict[str, Any] = {
        "features": [FEATURES[i] for i in dims[:half]],
        "leading": [float(w[i]) for i in dims[:half]],
        "responding": [float(w[i]) for i in dims[half:]],
    }
    if w.size == NET_WEIGHTS:
        unit = len(FEATURES) + 2
        units = [
            {
                "inputs": [float(w[WEIGHTS + u * unit + i]) for i in dims[:half]],
                "bias": float(w[WEIGHTS + u * unit + len(FEATURES)]),
                "output": float(w[WEIGHTS + u * unit + len(FEATURES) + 1]),
            }
            for u in range(2 * HIDDEN)
        ]
        data["hidden"] = {"leading": units[:HIDDEN], "responding": units[HIDDEN:]}
    data.update(info)
    data["made_by"] = made_by
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
        f.write("\n")


def _measured(w: np.ndarray, deals: int) -> dict[str, Any]:
    return {"deals": 2 * deals, **{f"won_against_{o}": duel(w, o, deals) for o in ("smart", "greedy")}}


def _improve_command(args: argparse.Namespace, say: Callable[[str], None]) -> int:
    start = load_weights(args.weights)
    if args.hidden is not None:
        if start.size != WEIGHTS:
            raise GuandanError(f"{args.weights} has a hidden layer already; --hidden adds one to a linear policy")
        start = with_hidden(start, seed=args.hidden)
    learned = set(policy_features(args.weights)) | set(args.add_features)
    features = [n for n in FEATURES if n in learned]
    opponent = opponent_policy(args.opponent)
    with open(args.weights, encoding="utf-8") as f:
        before = json.load(f)
    w, history = improve(
        start,
        args.generations,
        args.population,
        args.sigma,
        args.alpha,
        args.deals,
        args.pool,
        args.seed,
        opponent,
        say,
        features,
    )
    duels = _measured(w, args.duel_deals)
    if not isinstance(opponent, str):
        duels["won_against_opponent"] = duel(w, opponent, args.duel_deals)
    say(f"held-out duels: {duels}")
    command = (
        f"python -m guandan.rl.imitate improve --weights {args.weights} --generations {args.generations} "
        f"--population {args.population} --sigma {args.sigma} --alpha {args.alpha} --deals {args.deals} "
        f"--pool {args.pool} --seed {args.seed} --opponent {args.opponent} --duel-deals {args.duel_deals}"
    )
    if args.add_features_spec:
        command += f" --add-features {args.add_features_spec}"
    if args.hidden is not None:
        command += f" --hidden {args.hidden}"
    if args.out:
        command += f" --out {args.out}"
    info = {k: before[k] for k in ("fit",) if k in before}
    info["improve"] = {"history": history, "duels": duels}
    made_by = before.get("made_by", [])
    _write_policy(
        args.out or str(policy_file()),
        w,
        info,
        [*(made_by if isinstance(made_by, list) else [made_by]), command],
        features,
    )
    say(f"-> {args.out or policy_file()}")
    return 0


def _positions_command(args: argparse.Namespace, say: Callable[[str], None]) -> int:
    start = time.perf_counter()
    n = 0
    with open(args.out, "w", encoding="utf-8") as out:
        last_seed = None
        for row in expert_positions(args.deals, args.first, args.rollouts, args.candidates, args.policy, args.weights):
            out.write(json.dumps(row, separators=(",", ":")) + "\n")
            n += 1
            if row["seed"] != last_seed:
                last_seed = row["seed"]
                done = last_seed - args.first
                say(f"deal {done + 1}/{args.deals}: {n} positions, {time.perf_counter() - start:.0f} s")
                out.flush()
    say(f"{n} positions from {args.deals} deals in {time.perf_counter() - start:.0f} s -> {args.out}")
    return 0


def _feature_list(spec: str) -> tuple[str, ...]:
    """Features by name: ``all``, ``first`` (:data:`~guandan.bots.rollout_policy.FIRST_FEATURES`)
    or a comma-separated list of :data:`~guandan.bots.rollout_policy.FEATURES`."""
    if spec == "all":
        return FEATURES
    if spec == "first":
        return FIRST_FEATURES
    names = [n.strip() for n in spec.split(",") if n.strip()]
    unknown = [n for n in names if n not in FEATURES]
    if unknown or not names:
        got = describe(unknown[0] if unknown else spec)
        raise GuandanError(f"features are all, first or names of {', '.join(FEATURES)}; got {got}")
    return tuple(n for n in FEATURES if n in names)


#: What the command does, in a line.
DESCRIPTION = "Learn mc's rollout policy from mc's own high-budget decisions."


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: ``positions``, ``fit`` and ``improve`` (see the module's description;
    also ``guandan imitate``, with the same steps and options: :func:`add_arguments`, :func:`run`)."""
    parser = argparse.ArgumentParser(prog="python -m guandan.rl.imitate", description=DESCRIPTION)
    add_arguments(parser)
    return run(parser.parse_args(argv))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's steps (``positions``, ``fit``, ``improve``) and their options, added to ``parser``."""
    sub = parser.add_subparsers(dest="step", metavar="STEP", required=True)
    p = sub.add_parser("positions", help="play seeded deals with mc at a high budget and write its decisions")
    p.add_argument("--deals", type=int, default=100, help="how many deals (default 100)")
    p.add_argument("--first", type=int, default=0, help="the first deal's seed (default 0)")
    p.add_argument("--rollouts", type=int, default=16000, help="mc's budget a decision (default 16000)")
    p.add_argument("--candidates", type=int, default=32, help="mc's candidates (default 32)")
    p.add_argument("--policy", default="smart", help="mc's rollout policy (default smart; learned: a next iteration)")
    p.add_argument("--weights", help="with --policy learned: the policy file to score with (default: the package's)")
    p.add_argument("--out", required=True, help="the JSON-lines file to write (required; no default)")
    p.add_argument("--quiet", action="store_true", help="no progress lines (default: progress lines on stderr)")
    f = sub.add_parser("fit", help="fit the learned rollout policy to position files")
    f.add_argument("positions", nargs="+", help="JSON-lines files written by 'positions' (one or more; no default)")
    f.add_argument("--l2", type=float, default=1.0, help="the L2 penalty (default 1.0)")
    f.add_argument("--steps", type=int, default=30, help="Newton steps (default 30)")
    f.add_argument("--prior", help="a policy file: penalize the distance to its weights, not to zero (default: none, "
                   "the distance to zero)")  # fmt: skip
    f.add_argument(
        "--features",
        default="all",
        help="the features to learn: all (default), first (those of the first policies) or a comma-separated list",
    )
    f.add_argument(
        "--hold-out-every",
        type=int,
        default=10,
        help="hold out the deals whose seed is a multiple of this, to measure (0: none; default 10)",
    )
    f.add_argument(
        "--made-by",
        action="append",
        default=[],
        help="how the positions were made (a command; repeatable), kept in the file (default: none)",
    )
    f.add_argument(
        "--duel-deals",
        type=int,
        default=1000,
        help="held-out deals to measure the policy against smart and greedy (default 1000)",
    )
    f.add_argument("--out", help="the weights file to write (default: the package's)")
    f.add_argument("--quiet", action="store_true", help="no progress lines (default: progress lines on stderr)")
    i = sub.add_parser("improve", help="improve a fitted policy by playing (an evolution strategy)")
    i.add_argument("--weights", required=True,
                   help="the policy file to start from, written by 'fit' (required; no default)")  # fmt: skip
    i.add_argument("--generations", type=int, default=30, help="generations of the evolution strategy (default 30)")
    i.add_argument("--population", type=int, default=8, help="directions a generation (default 8)")
    i.add_argument("--sigma", type=float, default=0.3, help="the directions' scale (default 0.3)")
    i.add_argument("--alpha", type=float, default=0.5, help="the step (default 0.5)")
    i.add_argument("--deals", type=int, default=500, help="deals of the pool a generation plays (default 500)")
    i.add_argument("--pool", type=int, default=1500, help="the pool of seeded deals (default 1500)")
    i.add_argument("--seed", type=int, default=0, help="the directions' seed (default 0)")
    i.add_argument(
        "--opponent",
        default="smart",
        help="smart (default), greedy, random, learned (the package's weights) or a policy file",
    )
    i.add_argument("--duel-deals", type=int, default=1000, help="held-out deals to measure the result (default 1000)")
    i.add_argument(
        "--add-features",
        default="",
        help="features to learn besides those the --weights file names (comma-separated; they start at 0; "
        "default: none)",
    )
    i.add_argument(
        "--hidden",
        type=int,
        metavar="SEED",
        help=f"add a hidden layer ({HIDDEN} units a half, inputs drawn from SEED, outputs 0) to the linear "
        "--weights and learn it too (default: none, the policy as it is)",
    )
    i.add_argument("--out", help="the weights file to write (default: the package's)")
    i.add_argument("--quiet", action="store_true", help="no progress lines (default: progress lines on stderr)")


def run(args: argparse.Namespace) -> int:
    """Run the step the parsed options ``args`` name; the exit status."""
    if args.step == "fit":
        args.features_spec = args.features
        args.features = _feature_list(args.features)
    if args.step == "improve":
        args.add_features_spec = args.add_features
        args.add_features = _feature_list(args.add_features) if args.add_features else ()
    say = (lambda s: None) if args.quiet else (lambda s: print(s, file=sys.stderr, flush=True))
    if args.step == "positions":
        check_int("--deals", args.deals, 1)
        check_int("--rollouts", args.rollouts, 1)
        return _positions_command(args, say)
    if args.step == "improve":
        for name in ("generations", "population", "deals", "pool", "duel_deals"):
            check_int(f"--{name.replace('_', '-')}", getattr(args, name), 1)
        check_number("--sigma", args.sigma, above=0)
        return _improve_command(args, say)
    check_int("--steps", args.steps, 0)
    check_number("--l2", args.l2, at_least=0)
    check_int("--hold-out-every", args.hold_out_every, 0)
    return _fit_command(args, say)


if __name__ == "__main__":
    sys.exit(main())
