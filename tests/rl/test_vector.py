"""The vectorized tables against their plain-Python version, table for table and step for step;
their seeds, rewards and bad input."""

from __future__ import annotations

import numpy as np
import pytest

from guandan import Deal, GuandanError, IllegalMoveError
from guandan.core.batch import ACTION_SPACE
from guandan.core.packed import cards_of_bits
from guandan.game.encoding import encode_rows
from guandan.rl.vector import PyTables, VecTables


def _same(a, b, observe):
    assert (a.seats == b.seats).all()
    for i in range(a.n):
        assert a.table(i) == b.table(i)
    if observe != "rows":
        assert (a.mask == b.mask).all()
    if observe != "mask":
        assert (a.states == b.states).all()
    if observe == "rows":
        assert (a.offsets == b.offsets).all()
        assert (a.actions[: a.offsets[-1]] == b.actions).all()


CASES = [
    ("mask", "external", 2),
    ("state+mask", ("external", "greedy", "external", "random"), None),
    ("rows", ("random", "external", "greedy", "greedy"), 2),
    ("rows", "external", None),
]


@pytest.mark.parametrize(("observe", "policies", "level"), CASES)
def test_native_tables_equal_the_plain_python_tables_step_for_step(observe, policies, level):
    a = VecTables(4, seed=11, observe=observe, policies=policies, level=level)
    b = PyTables(4, seed=11, observe=observe, policies=policies, level=level)
    for k in range(120):
        _same(a, b, observe)
        actions = a.random_actions(k)
        for x, y in zip(a.step(actions), b.step(actions)):
            assert (x == y).all()
    _same(a, b, observe)


@pytest.mark.slow
@pytest.mark.parametrize("objective", ["levels", "wins"])
@pytest.mark.parametrize(("observe", "policies", "level"), CASES)
def test_native_tables_equal_the_plain_python_tables_over_many_deals(observe, policies, level, objective):
    a = VecTables(6, seed=3, observe=observe, policies=policies, level=level, objective=objective)
    b = PyTables(6, seed=3, observe=observe, policies=policies, level=level, objective=objective)
    deals = 0
    for k in range(700):
        _same(a, b, observe)
        actions = a.random_actions(1000 + k)
        ra, rb = a.step(actions), b.step(actions)
        for x, y in zip(ra, rb):
            assert (x == y).all()
        deals += int(ra[1].sum())
    assert deals >= 10


def test_a_table_deals_its_seeds_as_deal_new_and_rows_are_the_deals_rows():
    tables = VecTables(3, seed=9, observe="rows", level=None)
    for i in range(3):
        info = tables.table(i)
        deal = Deal.new(info.seed, info.level)
        assert deal.native_state() == info.state
        assert np.array_equal(tables.rows(i), encode_rows(deal.observation(deal.turn)))
        assert np.array_equal(tables.legal_moves(i), deal.legal_moves().array)


def test_the_same_seed_gives_the_same_tables_and_another_seed_others():
    a, b, c = VecTables(8, seed=1), VecTables(8, seed=1), VecTables(8, seed=2)
    assert [a.table(i) for i in range(8)] == [b.table(i) for i in range(8)]
    assert [a.table(i).seed for i in range(8)] != [c.table(i).seed for i in range(8)]
    a.reset(seed=2)
    assert [a.table(i) for i in range(8)] == [c.table(i) for i in range(8)]


def test_a_finished_deal_is_scored_and_the_next_dealt():
    tables = VecTables(4, seed=5, objective="levels")
    total_deals = 0
    for k in range(2000):
        rewards, ended, finish = tables.step(tables.random_actions(k))
        for i in np.flatnonzero(ended):
            total_deals += 1
            first = finish[i, 0]
            assert rewards[i, first] > 0 and rewards[i, first ^ 2] == rewards[i, first]
            assert rewards[i, first ^ 1] == -rewards[i, first]
            assert tables.table(i).plies == 0 or tables.policies != ("external",) * 4
        assert not rewards[ended == 0].any()
    assert total_deals > 4


def test_rank_actions_are_played_with_canonical_cards():
    tables = VecTables(1, seed=4)
    info = tables.table(0)
    deal = Deal.new(info.seed, info.level)
    a = int(np.flatnonzero(tables.mask[0])[3])
    tables.step(np.array([a]))
    from guandan.core.movegen import canonical_move

    deal.play(canonical_move(int(ACTION_SPACE[a]), cards_of_bits(deal.native_state().hands[deal.turn]), deal.level))
    assert tables.table(0).state == deal.native_state()


# -- bad input -------------------------------------------------------------------------------------


def test_bad_actions_raise_naming_the_problem_and_leave_the_tables_as_they_were():
    for observe in ("mask", "rows"):
        tables = VecTables(3, seed=2, observe=observe)
        before = [tables.table(i) for i in range(3)]
        good = tables.random_actions(0)
        illegal = good.copy()
        illegal[1] = len(ACTION_SPACE) + 5 if observe == "mask" else 10_000
        with pytest.raises(IllegalMoveError, match="table 1: action"):
            tables.step(illegal)
        if observe == "mask":
            not_legal = good.copy()
            not_legal[2] = int(np.flatnonzero(~tables.mask[2])[0])
            with pytest.raises(IllegalMoveError, match="table 2"):
                tables.step(not_legal)
        with pytest.raises(GuandanError, match=r"shape \(3,\)"):
            tables.step(good[:2])
        with pytest.raises(GuandanError, match="integer array"):
            tables.step(good.astype(np.float64))
        with pytest.raises(GuandanError, match="integer array"):
            tables.step("0 1 2")  # type: ignore[arg-type]
        assert [tables.table(i) for i in range(3)] == before
        tables.step(good)  # still playable


def test_bad_arguments_of_the_tables_raise_naming_them():
    with pytest.raises(GuandanError, match="number of tables"):
        VecTables(0)
    with pytest.raises(GuandanError, match="observe"):
        VecTables(1, observe="pixels")  # type: ignore[arg-type]
    with pytest.raises(GuandanError, match="caller's"):
        VecTables(1, policies="greedy")
    with pytest.raises(GuandanError, match="policies"):
        VecTables(1, policies=("external", "smart", "external", "random"))
    with pytest.raises(GuandanError, match="level"):
        VecTables(1, level=15)
    with pytest.raises(GuandanError, match="objective"):
        VecTables(1, objective="money")  # type: ignore[arg-type]
    with pytest.raises(GuandanError, match="table index"):
        VecTables(2).table(2)
    with pytest.raises(GuandanError, match="observe='rows'"):
        VecTables(2).rows(0)


def test_arrays_of_the_wrong_shape_or_dtype_handed_to_the_native_tables_raise():
    tables = VecTables(2, seed=0)
    native = tables._native
    with pytest.raises(GuandanError, match="mask must be a writable C-contiguous bool array"):
        native.observe_mask(np.zeros((2, 2213), dtype=np.uint8), tables.seats)
    with pytest.raises(GuandanError, match="rewards"):
        native.step_rank(np.zeros(2, np.int64), np.zeros((2, 4)), np.zeros(2, np.int32), np.zeros((2, 4), np.int8))
    with pytest.raises(GuandanError, match="deal_states"):
        native.restart(np.zeros(3, dtype=np.uint64), np.zeros(2, dtype=np.uint64))
    with pytest.raises(GuandanError, match="states"):
        native.observe_states(np.zeros((2, 512), dtype=np.float32), tables.seats)


@pytest.mark.parametrize(
    "policies", [("external", "greedy", "external", "greedy"), ("random", "external", "greedy", "random")]
)
def test_final_states_are_each_seats_state_as_its_deal_ended_table_for_table(policies):
    native, ref = VecTables(6, seed=8, policies=policies), PyTables(6, seed=8, policies=policies)
    assert not native.final_states(range(6), 0).any()  # no deal has ended yet
    ended = 0
    for k in range(150):
        actions = native.random_actions(k)
        _, e, _ = native.step(actions)
        ref.step(actions)
        done = np.flatnonzero(e)
        for seat in range(4):
            assert np.array_equal(native.final_states(done, seat), ref.final_states(done, seat))
        ended += len(done)
    assert ended > 10
    with pytest.raises(GuandanError, match="a seat is an int"):
        native.final_states([0], 4)
    with pytest.raises(GuandanError, match="a table index"):
        native.final_states([6], 0)


@pytest.mark.parametrize("observe", ["mask", "rows"])
def test_tables_restored_from_their_state_go_on_exactly_as_the_originals(observe):
    a = VecTables(5, seed=2, observe=observe, policies=("external", "greedy", "external", "random"))
    for k in range(30):
        a.step(a.random_actions(k))
    state = a.get_state()
    b = VecTables(5, seed=99, observe=observe, policies=("external", "greedy", "external", "random"))
    b.set_state(state)
    for k in range(30, 90):
        ra, ea, fa = (x.copy() for x in a.step(a.random_actions(k)))
        rb, eb, fb = b.step(b.random_actions(k))
        assert np.array_equal(ra, rb) and np.array_equal(ea, eb) and np.array_equal(fa, fb)
        assert [a.table(i) for i in range(5)] == [b.table(i) for i in range(5)]
    with pytest.raises(GuandanError, match="a state of 3 tables"):
        VecTables(3).set_state(state)
    with pytest.raises(GuandanError, match="bytes dump"):
        b._native.load(state["tables"][:-1])


@pytest.mark.parametrize("limit", [1, 4, 32])
def test_the_places_of_the_actions_among_the_candidates_equal_the_plain_python_tables(limit):
    a = VecTables(6, seed=21, observe="rows", level=None, policies=("external", "greedy", "external", "external"))
    b = PyTables(6, seed=21, observe="rows", level=None, policies=("external", "greedy", "external", "external"))
    seen = set()
    for k in range(150):
        places = a.places(limit)
        assert (places == b.places(limit)).all()
        assert places.max() < limit and places.min() >= -1
        for i in range(a.n):  # the smart policy's own choice, place 0, is always legal
            mine = places[a.offsets[i] : a.offsets[i + 1]]
            assert (mine == 0).any()
            assert set(mine[mine >= 0].tolist()) == set(range(int(mine.max()) + 1))  # no candidate is missing
        seen.update(places.tolist())
        actions = a.random_actions(k)
        a.step(actions)
        b.step(actions)
    assert -1 in seen or limit == 32  # with few candidates, some actions are none of them


def test_places_are_refused_where_they_are_not_observed_or_the_limit_is_bad():
    with pytest.raises(GuandanError, match="observe='rows'"):
        VecTables(2, seed=0).places()
    tables = VecTables(2, seed=0, observe="rows")
    for bad in (0, 128, "8"):
        with pytest.raises(GuandanError, match="limit"):
            tables.places(bad)
    with pytest.raises(GuandanError, match="int8"):
        tables._native.places(np.zeros(1, dtype=np.int64), 8)


def test_the_places_name_the_moves_the_net_agent_chooses_among():
    from guandan.bots.network import search_candidates
    from guandan.core.movegen import pack_rank_move

    tables = PyTables(4, seed=5, observe="rows", level=None)
    for k in range(60):
        places = tables.places(16)
        for i, deal in enumerate(tables.deals):
            mine = places[tables.offsets[i] : tables.offsets[i + 1]]
            words = [int(pack_rank_move(m.to_rank())) for m in deal.legal_moves()]
            placed = {w: int(p) for w, p in zip(words, mine.tolist()) if p >= 0}
            agent = [int(pack_rank_move(m.to_rank())) for m in search_candidates(deal.observation(deal.turn), 16)]
            assert placed == {w: n for n, w in enumerate(agent)}
        counts = np.diff(tables.offsets)
        tables.step((np.random.default_rng(k).random(tables.n) * counts).astype(np.int64))
