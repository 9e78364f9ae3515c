"""Vectorized tables: ``n`` seeded deals stepped in the C core in one call, the GIL released.

Each table plays deals one after another. Its seats are the caller's (``"external"``) or
played inside the core by a built-in policy (``"random"``, ``"greedy"``: the rank-level
policies of the playouts). A step plays the caller's action at every table, then the
built-in seats up to the caller's next decision; a deal that ends is scored and the next
is dealt at once (its first decision is what the step observes).

**Observations**, written into arrays the tables own and overwrite each step (copy what you
keep), by ``observe``:

* ``"mask"``: ``seats`` (``int8 (n,)``, the seat to act at each table) and ``mask`` (``bool
  (n, 2213)``: the legal rank-level moves over :data:`guandan.core.batch.ACTION_SPACE`); an
  action is an index of the action space, played with its cards chosen canonically (the
  suits holding the most copies first: :func:`guandan.core.movegen.canonical_move`);
* ``"state+mask"``: the same and ``states`` (``float32 (n, 513)``, the state values of the
  567-value rows: :mod:`guandan.game.encoding`);
* ``"rows"``: ``seats``, ``states`` and the card vectors of every table's card-level legal
  moves, ``actions`` (``float32 (total, 54)``) with ``offsets`` (``int64 (n + 1,)``: table
  ``i``'s are ``actions[offsets[i]:offsets[i + 1]]``, in the order of
  ``Deal.legal_moves()``); table ``i``'s 567-value rows are ``states[i]`` beside each of
  them (:meth:`VecTables.rows`); an action is an index into the table's legal moves.

**Seeds.** Table ``i`` draws the seed of each of its deals from
``SplitMix64(derive_seed(seed, i, 0))`` (``next_u64``; then, with ``level=None``, the level
``2 + below(13)``) and deals it as :meth:`guandan.Deal.new` does; its built-in seats draw the
seed of each decision from ``SplitMix64(derive_seed(seed, i, 1))``. The same seed gives the
same tables on every platform. :class:`PyTables` is the same in plain Python, over
:class:`~guandan.Deal` objects: the tables are checked against it, table for table.

**Rewards.** ``step`` returns ``(rewards, ended, finish)``: each seat's reward (``float32
(n, 4)``) of the deals that ended in the step (0 elsewhere) — the levels its side gains (+) or
its opponents gain (−) under the ruleset's promotion (:mod:`guandan.game.scoring`), or ±1
with ``objective="wins"``; the number of deals that ended (``int32 (n,)``: built-in seats may
finish a deal and its successor's first plies) and the finish order of the last one
(``int8 (n, 4)``, -1 where undecided).

>>> tables = VecTables(4, seed=1)
>>> tables.mask.shape, tables.seats.tolist() == [tables.table(i).state[2] for i in range(4)]
((4, 2213), True)
>>> rewards, ended, finish = tables.step(tables.random_actions(seed=5))
>>> rewards.shape, ended.tolist()
((4, 4), [0, 0, 0, 0])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, NamedTuple, overload

import numpy as np

from ..core.batch import ACTION_SPACE, action_indices
from ..core.movegen import canonical_move, pack_rank_move, spent_move
from ..core.moves import Move
from ..core.packed import cards_of_bits
from ..core.playouts import choose
from ..core.rng import SplitMix64, derive_seed
from ..core.search import deal_candidates
from ..core.tables import NativeTables
from ..errors import GuandanError, IllegalMoveError, check_choice, check_int, describe
from ..game.deal import Deal
from ..game.encoding import ACTION_SIZE, ROW_SIZE, STATE_SIZE, encode_actions, encode_state
from ..game.rules import Ruleset, get_ruleset
from ..game.scoring import side_scores

__all__ = ["VecTables", "PyTables", "TableInfo", "Observe", "table_seeds", "check_seed"]

Observe = Literal["mask", "state+mask", "rows"]
_OBSERVE = ("mask", "state+mask", "rows")
_POLICIES = ("external", "random", "greedy")


class TableInfo(NamedTuple):
    """A table now: its current deal's seed and level (2..14), the deals dealt so far, the plies
    of this deal, the deal's native state ``(hands, level, turn, last, beat, passes, finished)``."""

    seed: int
    level: int
    dealt: int
    plies: int
    state: tuple[Any, ...]


@overload
def check_seed(seed: object) -> int: ...
@overload
def check_seed(seed: object, optional: bool) -> int | None: ...
def check_seed(seed: object, optional: bool = False) -> int | None:
    """A seed of the learning environments as an ``int`` in ``[0, 2**64)``: a Python or numpy
    integer (``None`` too when ``optional``); anything else, a bool or an integer out of that
    range (it would be wrapped silently), raises :class:`~guandan.GuandanError`.

    >>> check_seed(np.int64(5)), check_seed(None, optional=True)
    (5, None)
    >>> check_seed(-1)
    Traceback (most recent call last):
    ...
    guandan.errors.ArgumentError: a seed is an int in [0, 2**64), got -1
    """
    in_range = "an int in [0, 2**64)"
    if optional:
        return check_int("a seed", seed, 0, (1 << 64) - 1, optional=True, expected=in_range)
    return check_int("a seed", seed, 0, (1 << 64) - 1, expected=in_range)


def table_seeds(seed: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The starting states of the two generators of ``n`` tables (deal seeds, built-in policies).

    >>> deals, policies = table_seeds(0, 2)
    >>> int(deals[1]) == derive_seed(0, 1, 0), int(policies[0]) == derive_seed(0, 0, 1)
    (True, True)
    """
    seed = check_seed(seed)
    deals = np.array([derive_seed(seed, i, 0) for i in range(n)], dtype=np.uint64)
    policies = np.array([derive_seed(seed, i, 1) for i in range(n)], dtype=np.uint64)
    return deals, policies


def _options(
    n: object, seed: object, observe: object, level: object, policies: object, ruleset: object, objective: object
) -> tuple[int, int, str, int | None, tuple[str, ...], Ruleset, bool]:
    n = check_int("the number of tables", n, 1, 1 << 24, expected="an int 1..2**24")
    seed = check_seed(seed)
    check_choice("observe", observe, _OBSERVE, f"one of {', '.join(_OBSERVE)}")
    level = check_int("level", level, 2, 14, optional=True, expected="a rank number 2..14 (None: drawn per deal)")
    if isinstance(policies, str):
        policies = (policies,) * 4
    if not isinstance(policies, Sequence) or len(policies) != 4 or not all(p in _POLICIES for p in policies):
        raise GuandanError(f"policies are four of {', '.join(_POLICIES)} (one a seat), got {describe(policies)}")
    if "external" not in policies:
        raise GuandanError("at least one seat is the caller's (policy 'external')")
    rules = get_ruleset(ruleset)  # type: ignore[arg-type]
    if not rules.plain_straight_flush:
        raise GuandanError(f"the tables play rulesets that keep same-suit fives as straights; {rules.name} does not")
    check_choice("objective", objective, ("levels", "wins"), "'levels' or 'wins'")
    return n, seed, str(observe), level, tuple(str(p) for p in policies), rules, objective == "wins"


def _actions_arg(actions: object, n: int) -> np.ndarray:
    if not isinstance(actions, np.ndarray):
        if isinstance(actions, (str, bytes)) or not isinstance(actions, Sequence):
            raise GuandanError(f"actions are an integer array of shape ({n},), got {describe(actions)}")
        actions = np.asarray(actions)
    assert isinstance(actions, np.ndarray)
    if actions.dtype.kind not in "iu" or actions.shape != (n,):
        raise GuandanError(
            f"actions are an integer array of shape ({n},), got an array of dtype {actions.dtype} and shape "
            f"{actions.shape}"
        )
    return actions


class VecTables:
    """``n`` tables stepped in the C core (see the module's description).

    ``seed``: the tables' seed; ``observe``: ``"mask"``, ``"state+mask"`` or ``"rows"``;
    ``level``: every deal's level (2..14) or ``None`` for a level drawn per deal;
    ``policies``: the four seats' (``"external"``: the caller's; ``"random"``, ``"greedy"``);
    ``ruleset``: its promotion scores the deals; ``objective``: ``"levels"`` or ``"wins"``.

    >>> tables = VecTables(2, seed=3, observe="rows")
    >>> tables.rows(0).shape == (tables.offsets[1] - tables.offsets[0], 567)
    True
    """

    def __init__(
        self,
        n: int,
        seed: int = 0,
        *,
        observe: Observe = "mask",
        level: int | None = 2,
        policies: str | Sequence[str] = "external",
        ruleset: Ruleset | str | None = None,
        objective: Literal["levels", "wins"] = "levels",
    ) -> None:
        n, seed, mode, lvl, pols, rules, wins = _options(n, seed, observe, level, policies, ruleset, objective)
        self.n = n
        self.observe = mode
        self.policies = pols
        self.ruleset = rules
        self.objective = "wins" if wins else "levels"
        self.seed = seed
        deals, pol = table_seeds(seed, n)
        self._native = NativeTables(n, deals, pol, lvl, pols, rules.promotion, wins)
        self.seats = np.zeros(n, dtype=np.int8)
        self.mask: np.ndarray | None = np.zeros((n, len(ACTION_SPACE)), dtype=np.bool_) if mode != "rows" else None
        self.states: np.ndarray | None = np.zeros((n, STATE_SIZE), dtype=np.float32) if mode != "mask" else None
        self.offsets: np.ndarray | None = np.zeros(n + 1, dtype=np.int64) if mode == "rows" else None
        self.actions: np.ndarray | None = np.zeros((64 * n, ACTION_SIZE), dtype=np.float32) if mode == "rows" else None
        self._rewards = np.zeros((n, 4), dtype=np.float32)
        self._ended = np.zeros(n, dtype=np.int32)
        self._finish = np.full((n, 4), -1, dtype=np.int8)
        self._observe()

    def _observe(self) -> None:
        native = self._native
        if self.mask is not None:
            if self.states is not None:
                native.observe_states(self.states, self.seats)
            native.observe_mask(self.mask, self.seats)
            return
        assert self.states is not None and self.offsets is not None and self.actions is not None
        native.observe_states(self.states, self.seats)
        total = native.gather(self.offsets)
        if total > len(self.actions):
            self.actions = np.zeros((max(total, 2 * len(self.actions)), ACTION_SIZE), dtype=np.float32)
        native.card_vectors(self.actions)

    def reset(self, seed: int | None = None) -> None:
        """Start every table again (from ``seed``, or the tables' own seed).

        >>> tables = VecTables(2, seed=3); first = tables.mask.copy()
        >>> _ = tables.step(tables.random_actions(1)); tables.reset()
        >>> bool((tables.mask == first).all())
        True
        """
        seed = check_seed(seed, optional=True)
        if seed is not None:
            self.seed = seed
        self._native.restart(*table_seeds(self.seed, self.n))
        self._observe()

    def step(self, actions: np.ndarray | Sequence[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Play one action at every table (see the module's description); ``(rewards, ended,
        finish)``. Every action is checked first: a bad one raises (an array of the wrong shape
        or dtype :class:`~guandan.GuandanError`, an illegal index :class:`~guandan.IllegalMoveError`
        naming the table) and no table changes.

        >>> tables = VecTables(3, seed=2, policies=("external", "greedy", "external", "greedy"))
        >>> rewards, ended, finish = tables.step(tables.random_actions(0))
        >>> sorted(set(tables.seats.tolist())) in ([0], [2], [0, 2])
        True
        """
        a = _actions_arg(actions, self.n)
        if self.observe == "rows":
            self._native.step_card(a, self._rewards, self._ended, self._finish)
        else:
            self._native.step_rank(a, self._rewards, self._ended, self._finish)
        self._observe()
        return self._rewards, self._ended, self._finish

    def random_actions(self, seed: int) -> np.ndarray:
        """A legal action of each table drawn uniformly (``int64 (n,)``; drawn in the core from
        the masks with ``"mask"`` observations, else from the move counts), seeded.

        >>> tables = VecTables(2, seed=4)
        >>> bool(all(tables.mask[i, a] for i, a in enumerate(tables.random_actions(7))))
        True
        """
        out = np.zeros(self.n, dtype=np.int64)
        if self.mask is not None:
            self._native.random_actions(seed, out)
            return out
        assert self.offsets is not None
        rng = np.random.default_rng(seed)
        counts = np.diff(self.offsets)
        return (rng.random(self.n) * counts).astype(np.int64)

    def rows(self, i: int) -> np.ndarray:
        """Table ``i``'s 567-value rows (``"rows"`` observations): ``float32 (k, 567)``.

        >>> tables = VecTables(1, seed=0, observe="rows")
        >>> rows = tables.rows(0); bool((rows[:, :513] == tables.states[0]).all())
        True
        """
        if self.observe != "rows":
            raise GuandanError(f"rows are observed with observe='rows', these tables observe {self.observe!r}")
        assert self.offsets is not None and self.actions is not None and self.states is not None
        i = _table_index(i, self.n)
        a, b = int(self.offsets[i]), int(self.offsets[i + 1])
        out = np.empty((b - a, ROW_SIZE), dtype=np.float32)
        out[:, :STATE_SIZE] = self.states[i]
        out[:, STATE_SIZE:] = self.actions[a:b]
        return out

    def legal_moves(self, i: int) -> np.ndarray:
        """Table ``i``'s card-level legal moves (``"rows"`` observations), packed: ``uint64 (k, 2)``.

        >>> tables = VecTables(1, seed=0, observe="rows")
        >>> len(tables.legal_moves(0)) == int(tables.offsets[1])
        True
        """
        if self.observe != "rows":
            raise GuandanError(f"card-level moves are gathered with observe='rows', not {self.observe!r}")
        moves: np.ndarray = self._native.moves(_table_index(i, self.n))
        return moves

    def places(self, limit: int = 32) -> np.ndarray:
        """The place of every observed action (``"rows"`` observations: ``actions[:total]``)
        among its table's search candidates, ``int8 (total,)``: the rank-level moves ``mc``
        weighs, at most ``limit`` (1..127), in the smart policy's order (0: its own choice),
        which the ``net`` agent chooses among; -1 for an action whose rank-level move is not
        one of them. A candidate's every card-level form has its place.

        >>> tables = VecTables(2, seed=0, observe="rows")
        >>> places = tables.places(8)
        >>> len(places) == int(tables.offsets[-1]), [int((places[a:b] == 0).sum()) > 0 for a, b in
        ...                                           zip(tables.offsets[:-1], tables.offsets[1:])]
        (True, [True, True])
        """
        if self.observe != "rows":
            raise GuandanError(f"the actions' places are observed with observe='rows', not {self.observe!r}")
        assert self.offsets is not None
        out = np.zeros(int(self.offsets[-1]), dtype=np.int8)
        self._native.places(out, limit)
        return out

    def get_state(self) -> dict[str, Any]:
        """The tables' whole state for a checkpoint (their native states as bytes, the seed):
        :meth:`set_state` on tables made with the same arguments, in the same build, goes on
        exactly from there.

        >>> a, b = VecTables(2, seed=1), VecTables(2, seed=9)
        >>> _ = a.step(a.random_actions(0)); b.set_state(a.get_state())
        >>> _ = a.step(a.random_actions(1)); _ = b.step(b.random_actions(1))
        >>> bool((a.mask == b.mask).all()), a.table(0) == b.table(0)
        (True, True)
        """
        return {"tables": self._native.dump(), "seed": self.seed, "n": self.n}

    def set_state(self, state: dict[str, Any]) -> None:
        """Go on from :meth:`get_state`'s state (then observe, as after a step)."""
        if not isinstance(state, dict) or state.get("n") != self.n or not isinstance(state.get("tables"), bytes):
            raise GuandanError(f"a state of {self.n} tables from get_state(), got {describe(state)}")
        self._native.load(state["tables"])
        self.seed = check_seed(state.get("seed"))
        self._observe()

    def final_states(self, tables: np.ndarray | Sequence[int], seat: int) -> np.ndarray:
        """The 513 state values of ``seat`` at the end of the last deal that ended at each of
        ``tables`` (table indices): the terminal observations of the deals a step ended
        (``float32 (k, 513)``; zeros at a table where no deal has ended).

        >>> tables = VecTables(2, seed=1)
        >>> tables.final_states([0, 1], seat=0).shape
        (2, 513)
        """
        idx = np.array([_table_index(i, self.n) for i in tables], dtype=np.int64)
        seat = _seat_index(seat)
        out = np.zeros((len(idx), STATE_SIZE), dtype=np.float32)
        self._native.final_states(idx, seat, out)
        return out

    def table(self, i: int) -> TableInfo:
        """Table ``i`` now (:class:`TableInfo`).

        >>> info = VecTables(1, seed=0).table(0)
        >>> Deal.new(info.seed, info.level).native_state() == info.state
        True
        """
        return TableInfo(*self._native.table(_table_index(i, self.n)))


def _seat_index(seat: object) -> int:
    return check_int("a seat", seat, 0, 3)


def _table_index(i: object, n: int) -> int:
    return check_int("a table index", i, 0, n - 1)


class PyTables:
    """The tables in plain Python, over :class:`~guandan.Deal` objects: the same arguments,
    attributes and results as :class:`VecTables` (the reference it is checked against).

    >>> py, native = PyTables(2, seed=6), VecTables(2, seed=6)
    >>> bool((py.mask == native.mask).all()), py.seats.tolist() == native.seats.tolist()
    (True, True)
    """

    def __init__(
        self,
        n: int,
        seed: int = 0,
        *,
        observe: Observe = "mask",
        level: int | None = 2,
        policies: str | Sequence[str] = "external",
        ruleset: Ruleset | str | None = None,
        objective: Literal["levels", "wins"] = "levels",
    ) -> None:
        n, seed, mode, lvl, pols, rules, wins = _options(n, seed, observe, level, policies, ruleset, objective)
        self.n, self.observe, self.policies, self.ruleset = n, mode, pols, rules
        self.mask: np.ndarray | None = None
        self.states: np.ndarray | None = None
        self.offsets: np.ndarray | None = None
        self.actions: np.ndarray | None = None
        self.objective = "wins" if wins else "levels"
        self._level = lvl
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        """Start every table again (from ``seed``, or the tables' own seed)."""
        seed = check_seed(seed, optional=True)
        if seed is not None:
            self.seed = seed
        self._deal_rngs = [SplitMix64(derive_seed(self.seed, i, 0)) for i in range(self.n)]
        self._policy_rngs = [SplitMix64(derive_seed(self.seed, i, 1)) for i in range(self.n)]
        self.deals = [self._new_deal(i) for i in range(self.n)]
        self.final_deals: list[Deal | None] = [None] * self.n
        self.dealt = [1] * self.n
        self.seeds_now = [d.seed for d in self.deals]
        rewards = np.zeros((self.n, 4), dtype=np.float32)
        finish = np.full((self.n, 4), -1, dtype=np.int8)
        for i in range(self.n):
            self._advance(i, rewards, finish)
        self._observe()

    def _new_deal(self, i: int) -> Deal:
        rng = self._deal_rngs[i]
        seed = rng.next_u64()
        level = self._level if self._level is not None else 2 + rng.below(13)
        return Deal.new(seed, level)

    def _advance(self, i: int, rewards: np.ndarray, finish: np.ndarray) -> int:
        ended = 0
        while True:
            deal = self.deals[i]
            if deal.is_over:
                order = deal.finish_order
                row = np.full((1, 4), -1, dtype=np.int64)
                row[0, : len(order)] = order
                gains = [side_scores(row, side, self.ruleset.promotion)[0] for side in (0, 1)]
                winner = order[0] & 1
                for s in range(4):
                    won = (s & 1) == winner
                    rewards[i, s] += (1.0 if won else -1.0) if self.objective == "wins" else gains[s & 1]
                finish[i] = row[0]
                self.final_deals[i] = deal
                self.deals[i] = self._new_deal(i)
                self.dealt[i] += 1
                ended += 1
                continue
            policy = self.policies[deal.turn]  # type: ignore[index]
            if policy == "external":
                return ended
            seed = self._policy_rngs[i].next_u64()
            word, spent = choose(deal.native_state(), "random" if policy == "random" else "greedy", seed)
            deal.play(spent_move(word, spent, deal.level))

    def _observe(self) -> None:
        n = self.n
        self.seats = np.array([d.turn for d in self.deals], dtype=np.int8)
        if self.observe != "rows":
            self.mask = np.zeros((n, len(ACTION_SPACE)), dtype=np.bool_)
            for i, deal in enumerate(self.deals):
                self.mask[i, action_indices(deal.legal_moves("rank").array)] = True
        else:
            self.mask = None
        if self.observe != "mask":
            self.states = np.stack([encode_state(d.observation(d.turn)) for d in self.deals])  # type: ignore[arg-type]
        else:
            self.states = None
        if self.observe == "rows":
            moves = [d.legal_moves().array for d in self.deals]
            self.offsets = np.concatenate([[0], np.cumsum([len(m) for m in moves])]).astype(np.int64)
            self.actions = encode_actions(np.ascontiguousarray(np.concatenate(moves)))
        else:
            self.offsets = self.actions = None

    def step(self, actions: np.ndarray | Sequence[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """As :meth:`VecTables.step`."""
        a = _actions_arg(actions, self.n)
        for i, x in enumerate(a.tolist()):
            if self.observe == "rows":
                assert self.offsets is not None
                count = int(self.offsets[i + 1] - self.offsets[i])
                ok = 0 <= x < count
            else:
                assert self.mask is not None
                ok = 0 <= x < len(ACTION_SPACE) and bool(self.mask[i, x])
            if not ok:
                raise IllegalMoveError(f"table {i}: action {x} is not legal", reason="bad_index", got=x)
        rewards = np.zeros((self.n, 4), dtype=np.float32)
        ended = np.zeros(self.n, dtype=np.int32)
        finish = np.full((self.n, 4), -1, dtype=np.int8)
        for i, x in enumerate(a.tolist()):
            deal = self.deals[i]
            if self.observe == "rows":
                deal.play_index(x)
            else:
                hand = cards_of_bits(deal.native_state().hands[deal.turn])  # type: ignore[index]
                deal.play(canonical_move(int(ACTION_SPACE[x]), hand, deal.level))
            ended[i] = self._advance(i, rewards, finish)
        self._observe()
        return rewards, ended, finish

    def places(self, limit: int = 32) -> np.ndarray:
        """As :meth:`VecTables.places`: each legal move's rank-level word looked up among the
        candidates of the deal's state."""
        if self.observe != "rows":
            raise GuandanError(f"the actions' places are observed with observe='rows', not {self.observe!r}")
        limit = check_int("limit", limit, 1, 127)
        out: list[int] = []
        for deal in self.deals:
            words = [int(w) for w in deal_candidates(deal.native_state(), limit)]
            for move in deal.legal_moves():
                assert isinstance(move, Move)
                w = int(pack_rank_move(move.to_rank()))
                out.append(words.index(w) if w in words else -1)
        return np.array(out, dtype=np.int8)

    def table(self, i: int) -> TableInfo:
        """As :meth:`VecTables.table`."""
        deal = self.deals[_table_index(i, self.n)]
        assert deal.seed is not None
        return TableInfo(deal.seed, int(deal.level), self.dealt[i], deal.ply, deal.native_state())

    def final_states(self, tables: np.ndarray | Sequence[int], seat: int) -> np.ndarray:
        """As :meth:`VecTables.final_states`."""
        seat = _seat_index(seat)
        out = np.zeros((len(tables), STATE_SIZE), dtype=np.float32)
        for j, i in enumerate(tables):
            deal = self.final_deals[_table_index(i, self.n)]
            if deal is not None:
                out[j] = encode_state(deal.observation(seat))
        return out

    def rows(self, i: int) -> np.ndarray:
        """As :meth:`VecTables.rows`."""
        from ..game.encoding import encode_rows

        deal = self.deals[_table_index(i, self.n)]
        return encode_rows(deal.observation(deal.turn))  # type: ignore[arg-type]
