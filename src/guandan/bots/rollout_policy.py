"""The learned rollout policy of ``mc``: a linear score over features of a move, in C.

``mc:policy=learned`` plays each turn of its rollouts with the legal move of the highest
score ``w · f(move)``, where ``f`` are the :data:`FEATURES` of the move in its position (a
leading and a responding set of weights, :data:`WEIGHTS` numbers in all) — after the one
rule it shares with the ``smart`` policy: a move that plays out the whole hand is played.
A policy may add a hidden layer of :data:`HIDDEN` units a half over the same features (a
tiny network: ``w · f + Σ v_j max(0, u_j · f + b_j)``, :data:`NET_WEIGHTS` numbers;
made by :func:`guandan.rl.imitate.with_hidden`), evaluated in C too.
The weights were learned from ``mc``'s own decisions at a high budget
(:mod:`guandan.rl.imitate`, the command that made them is in the file) and ship with the
package (``rollout_policy.json``, :func:`load_weights`).

This module also holds the plain-Python version of the features and of the choice
(:func:`reference_features`, :func:`reference_move`), which the native core is checked
against move for move.

>>> from guandan import Deal
>>> from guandan.core.playouts import learned_move
>>> state = Deal.new(seed=5, level=2).native_state()
>>> weights = load_weights()
>>> learned_move(state, weights)[0] == reference_move(state, weights)
True
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from importlib import resources
from typing import Any

import numpy as np

from ..core import playouts as native
from ..core.movegen import pack_rank_move, rank_moves
from ..core.moves import BOMB_TYPES, SEQUENCE_TYPES, MoveType, window_start
from ..core.order import elevated_order
from ..core.packed import (
    KEY_BIG_JOKER,
    KEY_SMALL_JOKER,
    MASK52,
    PASS_WORD,
    DealState,
    cards_of_bits,
    size_of_bits,
    spend_cards,
    word_counts,
    word_key,
    word_size,
    word_type,
    word_wilds,
    word_x,
)
from ..core.rng import SplitMix64
from ..errors import GuandanError, describe, is_number
from ..game.history import Play
from ..game.observation import Observation
from .determinize import sampled_deal

__all__ = [
    "FEATURES",
    "FIRST_FEATURES",
    "WEIGHTS",
    "HIDDEN",
    "NET_WEIGHTS",
    "feature_dims",
    "load_weights",
    "policy_features",
    "reference_features",
    "reference_move",
    "reference_belief",
    "policy_file",
]

#: The features of a move, in the order of the native core (``csrc/gd_search.h``), each
#: described in ``csrc/gd_search.c`` (and summed up in ``docs/search-bots.md``).
FEATURES: tuple[str, ...] = (
    "pass", "pass_opp5", "pass_partner", "pass_owner5",
    "bomb", "bomb_class", "bomb_opp4", "bomb_left8", "bomb_owner10",
    "key", "key2", "size", "splits", "broken", "wilds", "jokers",
    "last_but_one", "answerable", "feed", "over_partner", "dirty_opp5",
    "single", "pair", "triple", "full_house", "straight", "pair_run", "triple_run",
    "left", "smart",
    "opp_over", "partner_over", "pass_jiefeng", "bomb_partner_out",
)  # fmt: skip
#: The weights of a policy: one for each feature when leading, then one each when responding.
WEIGHTS = 2 * len(FEATURES)
#: The hidden units of each half (leading, responding) of a policy with a hidden layer.
HIDDEN: int = native.HIDDEN
#: The weights of a policy with a hidden layer: the :data:`WEIGHTS`, then for the leading
#: and the responding half each unit's inputs (one per feature), its bias and its output.
NET_WEIGHTS = WEIGHTS + 2 * HIDDEN * (len(FEATURES) + 2)
_UNIT = len(FEATURES) + 2
#: The features the first two iterations of the policy learned (the rest came later: what the
#: other hands can beat, jiefeng, a bomb with the partner out). A policy file names the
#: features it learned; those it does not name weigh 0.
FIRST_FEATURES: tuple[str, ...] = FEATURES[:30]

_SEQUENCES = frozenset(int(t) for t in (*SEQUENCE_TYPES, MoveType.STRAIGHT_FLUSH))
_BOMBS = frozenset(int(t) for t in BOMB_TYPES)
_STRAIGHT_FLUSH, _JOKER_BOMB, _FULL_HOUSE = (
    int(MoveType.STRAIGHT_FLUSH),
    int(MoveType.JOKER_BOMB),
    int(MoveType.FULL_HOUSE),
)
_SINGLE, _PAIR = int(MoveType.SINGLE), int(MoveType.PAIR)


def policy_file() -> Any:
    """The shipped weights' file (``guandan/bots/rollout_policy.json``)."""
    return resources.files(__package__).joinpath("rollout_policy.json")


@lru_cache(maxsize=1)
def _shipped() -> tuple[tuple[str, ...], tuple[float, ...]]:
    return _read_policy(json.loads(policy_file().read_text(encoding="utf-8")), "the shipped rollout policy")


def _policy_data(path: str) -> Any:
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as error:
        raise GuandanError(f"cannot read the rollout policy {path!r}: {error}") from None


def load_weights(path: str | None = None) -> np.ndarray:
    """The learned policy's weights: ``float64 (WEIGHTS,)``, the leading half first, or
    ``(NET_WEIGHTS,)`` for a file with a hidden layer; from the package's file, or from a
    file :mod:`guandan.rl.imitate` wrote. A feature the file does not name weighs 0.

    >>> w = load_weights(); w.shape == (WEIGHTS,)
    True
    """
    if path is None:
        return np.array(_shipped()[1], dtype=np.float64)
    return np.array(_read_policy(_policy_data(path), repr(path))[1], dtype=np.float64)


def policy_features(path: str | None = None) -> tuple[str, ...]:
    """The features a policy file names (the package's by default), in :data:`FEATURES`
    order: those its weights were learned over.

    >>> set(policy_features()) <= set(FEATURES)
    True
    """
    if path is None:
        return _shipped()[0]
    return _read_policy(_policy_data(path), repr(path))[0]


def feature_dims(names: Any, hidden: bool = False) -> np.ndarray:
    """The places of the named features' weights in a :data:`WEIGHTS` vector: each name's
    leading weight, then each one's responding weight (names in :data:`FEATURES` order).
    With ``hidden``, in a :data:`NET_WEIGHTS` vector: those, then every hidden unit's inputs
    from the named features, its bias and its output.

    >>> feature_dims(["pass", "key"]).tolist() == [0, 9, len(FEATURES), len(FEATURES) + 9]
    True
    >>> len(feature_dims(["pass", "key"], hidden=True)) == 4 + 2 * HIDDEN * (2 + 2)
    True
    """
    ordered = [i for i, name in enumerate(FEATURES) if name in set(names)]
    dims = ordered + [len(FEATURES) + i for i in ordered]
    if hidden:
        for unit in range(2 * HIDDEN):
            at = WEIGHTS + unit * _UNIT
            dims += [at + i for i in ordered] + [at + len(FEATURES), at + len(FEATURES) + 1]
    return np.array(dims, dtype=np.int64)


def _read_policy(data: Any, what: str) -> tuple[tuple[str, ...], tuple[float, ...]]:
    """The features a policy file names (in :data:`FEATURES` order) and its weights as a
    :data:`WEIGHTS` vector (a feature it does not name weighs 0: a file of an earlier,
    shorter list still loads)."""
    names = data.get("features") if isinstance(data, dict) else None
    if (
        not isinstance(names, list)
        or not names
        or not all(isinstance(n, str) and n in FEATURES for n in names)
        or len(set(names)) != len(names)
    ):
        raise GuandanError(
            f"{what} is not a rollout policy of these features (a 'features' list of {FEATURES[0]!r} ..)"
        )
    out = [0.0] * WEIGHTS
    for h, half in enumerate(("leading", "responding")):
        values = data.get(half)
        if not isinstance(values, list) or len(values) != len(names):
            raise GuandanError(f"{what}: {half!r} is {len(names)} numbers, got {describe(values)}")
        for name, v in zip(names, values, strict=True):
            if not is_number(v) or not abs(v) < 1e30:
                raise GuandanError(f"{what}: {half!r} holds {describe(v)}, not a finite number")
            out[h * len(FEATURES) + FEATURES.index(name)] = float(v)
    hidden = data.get("hidden")
    if hidden is not None:
        out += _read_hidden(hidden, names, what)
    return tuple(n for n in FEATURES if n in names), tuple(out)


def _read_hidden(hidden: Any, names: list[str], what: str) -> list[float]:
    """A policy file's hidden layer: ``{"leading": units, "responding": units}``, each of
    :data:`HIDDEN` units ``{"inputs": [one per named feature], "bias": b, "output": v}``; as
    the tail of a :data:`NET_WEIGHTS` vector."""

    def number(v: Any, where: str) -> float:
        if not is_number(v) or not abs(v) < 1e30:
            raise GuandanError(f"{what}: the hidden layer's {where} is {describe(v)}, not a finite number")
        return float(v)

    if not isinstance(hidden, dict):
        raise GuandanError(f"{what}: 'hidden' is an object of 'leading' and 'responding' units, got {describe(hidden)}")
    out: list[float] = []
    for half in ("leading", "responding"):
        units = hidden.get(half)
        if not isinstance(units, list) or len(units) != HIDDEN:
            raise GuandanError(f"{what}: the hidden layer's {half!r} is {HIDDEN} units, got {describe(units)}")
        for j, unit in enumerate(units):
            inputs = unit.get("inputs") if isinstance(unit, dict) else None
            if not isinstance(inputs, list) or len(inputs) != len(names):
                raise GuandanError(
                    f"{what}: hidden unit {half} {j} has 'inputs' (one per feature, {len(names)}), "
                    f"'bias' and 'output'; got {describe(unit)}"
                )
            row = [0.0] * _UNIT
            for name, v in zip(names, inputs, strict=True):
                row[FEATURES.index(name)] = number(v, f"unit {half} {j} input {name!r}")
            row[len(FEATURES)] = number(unit.get("bias"), f"unit {half} {j} bias")
            row[len(FEATURES) + 1] = number(unit.get("output"), f"unit {half} {j} output")
            out += row
    return out


# -- the plain-Python version ------------------------------------------------------------------


def _key_order(word: int, level: int) -> int:
    """The order of a word's key among moves of its type (``csrc/gd_search.c``'s key_order):
    sequences by their window, the others by the elevated order (ranks 0..12 here, 2..14 as
    :class:`~guandan.core.cards.Rank`)."""
    key = word_key(word)
    if word_type(word) in _SEQUENCES:
        return window_start(key + 2)
    if key >= KEY_SMALL_JOKER:  # the jokers keep their places above the level; no key (15) stays 15
        return key
    return elevated_order(key + 2, level + 2)


def _bomb_class(word: int) -> int:
    """4 cards < 5 < straight flush < 6 < .. < 10 cards < the joker bomb: 0 .. 8."""
    t, size = word_type(word), word_size(word)
    return 8 if t == _JOKER_BOMB else 2 if t == _STRAIGHT_FLUSH else size - 4 if size <= 5 else size - 3


def _moves(hand: int, level: int, beat: int) -> list[int]:
    return [int(w) for w in rank_moves(cards_of_bits(hand).counts, level + 2, beat)]


def _naturals(hand: int, level: int) -> list[int]:
    """Natural (non-wild) cards per rank 0..12."""
    out = []
    for r in range(13):
        n = sum((hand >> (2 * (4 * r + s))) & 3 for s in range(4))
        if r == level:
            n -= (hand >> (2 * (4 * r + 1))) & 3  # the hearts of the level are wild
        out.append(n)
    return out


def _uses_jokers(word: int) -> bool:
    t, key = word_type(word), word_key(word)
    return (
        t == _JOKER_BOMB
        or (t == _FULL_HOUSE and word_x(word) != 0)
        or (t in (_SINGLE, _PAIR) and key in (KEY_SMALL_JOKER, KEY_BIG_JOKER))
    )


def _tops(hand: int, level: int) -> list[int]:
    """The highest elevated order of a single, a pair and a triple (no bomb) a hand makes of
    its natural cards and wilds, -1 for none (``csrc/gd_search.c``'s seat_tops)."""
    count = _naturals(hand, level)
    wilds = (hand >> (2 * (4 * level + 1))) & 3
    small, big = (hand >> 104) & 3, (hand >> 106) & 3
    out = []
    for n in (1, 2, 3):
        orders = [elevated_order(r + 2, level + 2) for r in range(13) if count[r] + wilds >= n]
        if n <= 2 and small >= n:
            orders.append(13)
        if n <= 2 and big >= n:
            orders.append(14)
        out.append(max(orders, default=-1))
    return out


class _Context:
    def __init__(self, state: DealState) -> None:
        self.state = state
        self.level = state.level - 2
        self.seat = seat = state.turn
        self.hand = state.hands[seat]
        self.leading = state.beat == PASS_WORD
        self.from_partner = not self.leading and state.last == seat ^ 2
        self.mine = size_of_bits(self.hand)
        holding = [s not in state.finished for s in range(4)]
        self.holding = holding
        self.opp_min = min(
            (size_of_bits(state.hands[s]) for s in range(4) if s % 2 != seat % 2 and holding[s]), default=99
        )
        self.owner_count = 0 if self.leading else size_of_bits(state.hands[state.last])
        self.partner_count = size_of_bits(state.hands[seat ^ 2]) if holding[seat ^ 2] else 0
        self.count = _naturals(self.hand, self.level)
        self.four = [c >= 4 for c in self.count]
        small, big = (self.hand >> 104) & 3, (self.hand >> 106) & 3
        self.joker_bomb = small == 2 and big == 2
        self.smart = int(native.smart_move(state)[0])
        self.opp_top, self.partner_top = [-1] * 3, [-1] * 3
        for s in range(4):
            if s != seat and holding[s]:
                into = self.partner_top if s == seat ^ 2 else self.opp_top
                for n, top in enumerate(_tops(state.hands[s], self.level)):
                    into[n] = max(into[n], top)

    def last_but_one(self, word: int) -> bool:
        spent = spend_cards(cards_of_bits(self.hand).counts, self.level + 2, word)
        rest = self.hand - spent
        n = size_of_bits(rest)
        if n and not any(word_size(m) == n for m in _moves(rest, self.level, PASS_WORD)):
            return False
        for s in range(4):
            if s % 2 != self.seat % 2 and self.holding[s] and len(_moves(self.state.hands[s], self.level, word)) > 1:
                return False
        return True


def _features(c: _Context, word: int) -> list[float]:
    f = dict.fromkeys(FEATURES, 0.0)
    f["smart"] = float(word == c.smart)
    if word == PASS_WORD:
        f["pass"] = 1.0
        f["pass_opp5"] = float(c.opp_min <= 5)
        f["pass_partner"] = float(c.from_partner)
        f["pass_owner5"] = float(not c.leading and not c.from_partner and c.owner_count <= 5)
        f["pass_jiefeng"] = float(c.from_partner and c.partner_count == 0)
        return list(f.values())
    size = word_size(word)
    left = c.mine - size
    f["left"] = left / 27
    f["over_partner"] = float(c.from_partner)
    f["answerable"] = float(c.opp_min <= 2 and size <= c.opp_min)
    if c.mine <= 10:
        f["last_but_one"] = float(c.last_but_one(word))
    t = word_type(word)
    if t in _BOMBS:
        order = 0 if t == _JOKER_BOMB else _key_order(word, c.level)
        f["bomb"] = 1.0
        f["bomb_class"] = (_bomb_class(word) + order / 15) / 9
        f["bomb_opp4"] = float(c.opp_min <= 4)
        f["bomb_left8"] = float(left <= 8)
        f["bomb_owner10"] = float(not c.leading and c.owner_count <= 10)
        f["bomb_partner_out"] = float(c.partner_count == 0)
        return list(f.values())
    spent = word_counts(word & MASK52)
    touched = [n > 0 for n in spent]
    broken = sum(1 for r in range(13) if touched[r] and c.four[r])
    splits = sum(1 for r in range(13) if touched[r] and not c.four[r] and c.count[r] - spent[r] > 0)
    wilds = word_wilds(word)
    joker = c.joker_bomb and _uses_jokers(word)
    key = _key_order(word, c.level) / 15
    f["key"], f["key2"], f["size"] = key, key * key, size / 10
    f["splits"], f["broken"], f["wilds"], f["jokers"] = float(splits), float(broken), float(wilds), float(joker)
    dirty = broken > 0 or wilds > 0 or joker
    f["feed"] = float(0 < c.partner_count <= 2 and c.opp_min > 2 and size <= c.partner_count and not dirty)
    f["dirty_opp5"] = float(dirty and c.opp_min <= 5)
    f[FEATURES[FEATURES.index("single") + t - _SINGLE]] = 1.0
    if t - _SINGLE < 3:  # a single, a pair or a triple
        order = _key_order(word, c.level)
        f["opp_over"] = float(c.opp_top[t - _SINGLE] > order)
        f["partner_over"] = float(c.partner_top[t - _SINGLE] > order)
    return list(f.values())


def reference_features(state: DealState, word: int) -> list[float]:
    """The features of a legal rank-level move in a deal state, placed in the leading or
    the responding half (:data:`WEIGHTS` numbers): the plain-Python version of
    :func:`guandan.core.playouts.move_features`.

    >>> from guandan import Deal
    >>> state = Deal.new(seed=5, level=2).native_state()
    >>> word = int(rank_moves(Deal.new(seed=5, level=2).hands[state.turn].counts, 2, PASS_WORD)[0])
    >>> f = reference_features(state, word); len(f) == WEIGHTS, f[len(FEATURES):] == [0.0] * len(FEATURES)
    (True, True)
    """
    c = _Context(state)
    f = _features(c, word)
    zeros = [0.0] * len(FEATURES)
    return f + zeros if c.leading else zeros + f


def _going_out(c: _Context, moves: list[int]) -> int | None:
    """The policy's move decided before any score: the pass when it is the only move, or a
    move that plays out the hand (the weakest such, non-bombs first); else None."""
    if not c.leading and len(moves) == 1:
        return PASS_WORD
    outs = [m for m in moves if m != PASS_WORD and word_size(m) == c.mine]
    if not outs:
        return None

    def weakness(m: int) -> int:
        if word_type(m) in _BOMBS:
            t, size = word_type(m), word_size(m)
            cls = 8 if t == _JOKER_BOMB else 2 if t == _STRAIGHT_FLUSH else size - 4 if size <= 5 else size - 3
            return 1 << 20 | cls << 8 | _key_order(m, c.level) << 2 | word_wilds(m)
        return _key_order(m, c.level)

    return min(outs, key=weakness)  # min keeps the first of equals, as the core's strict <


def _scores(c: _Context, moves: list[int], weights: Any) -> list[np.float32]:
    """Each move's score, summed in float32 in index order as the core does (with the hidden
    layer when ``weights`` has :data:`NET_WEIGHTS` numbers)."""
    w = np.asarray(weights, dtype=np.float32)
    h = 0 if c.leading else 1
    half = w[h * len(FEATURES) : (h + 1) * len(FEATURES)]
    units = [w[WEIGHTS + (h * HIDDEN + j) * _UNIT :][:_UNIT] for j in range(HIDDEN)] if w.size == NET_WEIGHTS else []

    def dot(a: np.ndarray, f: np.ndarray) -> np.float32:
        total = np.float32(0.0)
        for aj, fj in zip(a, f, strict=True):
            total = np.float32(total + np.float32(aj * fj))
        return total

    scores = []
    for m in moves:
        f = np.asarray(_features(c, m), dtype=np.float32)
        score = dot(half, f)
        for unit in units:
            a = np.float32(dot(unit[: len(FEATURES)], f) + unit[len(FEATURES)])
            if a > 0:
                score = np.float32(score + np.float32(unit[len(FEATURES) + 1] * a))
        scores.append(score)
    return scores


def reference_move(state: DealState, weights: Any) -> int:
    """The move the learned policy plays (the plain-Python version of :func:`guandan.core.playouts.learned_move`):
    a move that plays out the hand, the weakest such, non-bombs first; else the legal move of
    the highest score, the first on ties (scores summed in float32, as the core does; with
    the hidden layer when ``weights`` has :data:`NET_WEIGHTS` numbers)."""
    c = _Context(state)
    moves = _moves(c.hand, c.level, state.beat)
    decided = _going_out(c, moves)
    if decided is not None:
        return decided
    scores = _scores(c, moves, weights)
    best = 0
    for i in range(1, len(moves)):
        if scores[i] > scores[best]:
            best = i
    return moves[best]


def reference_sample(state: DealState, weights: Any, temperature: float, rng: SplitMix64) -> int:
    """The learned policy's move drawn at ``temperature`` > 0 (the plain-Python version of the
    core's ``gd_learned_sample``): a move that plays out the hand as :func:`reference_move`;
    else each legal move with probability ``exp((score - top) / temperature)`` over their
    sum, one uniform draw of ``rng`` (53 bits of its next output) picking the first move whose
    running sum exceeds it.

    >>> from guandan import Deal
    >>> from guandan.core.rng import SplitMix64
    >>> state = Deal.new(seed=5, level=2).native_state()
    >>> w = load_weights()
    >>> reference_sample(state, w, 1e-9, SplitMix64(1)) == reference_move(state, w)
    True
    """
    if not (is_number(temperature) and 0 < temperature <= 1e6):
        raise GuandanError(f"temperature is a number in (0, 1e6], got {describe(temperature)}")
    c = _Context(state)
    moves = _moves(c.hand, c.level, state.beat)
    decided = _going_out(c, moves)
    if decided is not None:
        return decided
    scores = [float(s) for s in _scores(c, moves, weights)]
    top = max(scores)
    weight = [math.exp((s - top) / temperature) for s in scores]
    total = 0.0
    for x in weight:
        total += x
    u = (rng.next_u64() >> 11) * (1.0 / 9007199254740992.0) * total
    run = 0.0
    for m, x in zip(moves, weight, strict=True):
        run += x
        if u < run:
            return m
    return moves[-1]


def reference_belief(observation: Observation, hands: Any, weights: Any, miss: float, events: int) -> float:
    """How likely the other seats' plays were under the learned policy if the four hands of
    now were ``hands`` (packed): the plain-Python version of :func:`guandan.core.search.policy_belief` (the
    search's policy weighting of sampled deals, ``SearchParams.policy_weight``). The deal is replayed
    in the game layer from the start of play, each seat holding its hand of now and every
    card it has played since, the first play's seat leading; at each of the other seats'
    latest ``events`` plays and passes the policy chooses; the result is ``miss`` to the
    power of the choices that differ from what was played (1.0 for a position set up with
    seats already out, which the core does not replay either).

    >>> from guandan import Deal
    >>> from guandan.core.packed import bits_of_cards
    >>> deal = Deal.new(seed=3, level=2, leader=0)
    >>> w = load_weights()
    >>> for _ in range(8):
    ...     deal.play_canonical(int(native.learned_move(deal.native_state(), w)[0]))
    >>> reference_belief(deal.observation(0), [bits_of_cards(h) for h in deal.hands], w, 0.5, 16)
    1.0
    """
    plays = [r for r in observation.history if isinstance(r, Play)]
    me = observation.seat
    if not (miss < 1.0) or events <= 0 or not plays:
        return 1.0
    # the deal at the start of play, in the game layer; the plays are made again below
    replay = sampled_deal(observation, [cards_of_bits(int(h)) for h in hands], replay=False)
    if replay.initial_finish_order:  # a position set up with seats out: not a deal the core replays
        return 1.0
    others = [i for i, r in enumerate(plays) if r.seat != me]
    counted = set(others[-events:])
    belief = 1.0
    for i, r in enumerate(plays):
        if i in counted:
            played = PASS_WORD if r.is_pass else pack_rank_move(r.move.to_rank())
            if reference_move(replay.native_state(), weights) != played:
                belief *= miss
        replay.play(r.move, r.seat)
    return belief
