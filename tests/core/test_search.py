"""guandan.core.search: the search's native parts under their public names."""

import re
from pathlib import Path

from guandan import Deal
from guandan.bots.determinize import information_set
from guandan.bots.playout import public_state
from guandan.core import _core, search
from guandan.core.packed import cards_of_bits


def test_the_names_are_the_native_functions_and_constants():
    own = {"SearchParams", "SearchPolicyName"}  # the parameter struct's Python face, and its policies' names
    for name in set(search.__all__) - own:
        assert getattr(search, name) is getattr(_core, name) or getattr(search, name) == getattr(_core, name), name
    assert search.MAX_RANK_MOVES >= search.TREE_MAX_MOVES >= 1 and search.MAX_THREADS >= 1


def test_sampled_deals_keep_the_seats_own_hand_and_every_card():
    obs = Deal.new(seed=12, level=4, leader=3).observation(1)
    deals = search.sample_deals(information_set(obs), 3, seed=5)
    assert len(deals) == 3 and deals == search.sample_deals(information_set(obs), 3, seed=5)
    for hands in deals:
        assert hands[1] == obs.packed_hand
        assert sum(len(cards_of_bits(h)) for h in hands) == 108


def test_the_candidates_are_legal_moves_of_the_position():
    deal = Deal.new(seed=2, level=2, leader=0)
    obs = deal.observation(0)
    state = public_state(int(obs.level), 0, obs.to_beat, obs.history, obs.finish_order)
    words = search.search_candidates(information_set(obs), state, 8)
    assert 1 <= len(words) <= 8
    assert {int(w) for w in words} <= {int(w) for w in deal.legal_moves("rank").array}


def test_the_parameters_mirror_the_c_struct_and_are_checked_in_the_core():
    """One SearchParams a search: frozen, the C struct's fields (``gd_search_params``), each
    checked as the core copies it; anything else in its place is refused by name."""
    import dataclasses

    import pytest

    from guandan import GuandanError

    params = search.SearchParams(rollouts=20, seed=3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        params.rollouts = 5  # type: ignore[misc]
    header = (Path(__file__).parents[2] / "csrc" / "gd_search.h").read_text()
    struct = header[header.index("typedef struct gd_search_params {") : header.index("} gd_search_params;")]
    struct = re.sub(r"/\*.*?\*/", "", struct, flags=re.S)  # the comments out
    c_fields = set(re.findall(r"\b(\w+)(?:\[\d+\])?;", struct))
    # the C struct's linear points to the weights given, infer holds tries and the two weights,
    # payoff is an objective of six values, prior points to the values search() is given beside,
    # value points to a gd_value of the state value's weights, widths, plies and mix, and the
    # learned policy's gd_linear holds the temperature beside its weights
    python = {f.name for f in dataclasses.fields(search.SearchParams)}
    assert c_fields - {"linear", "infer", "payoff", "prior"} <= python
    assert python - c_fields == {"weights", "tries", "pass_weight", "bomb_weight", "value_hidden", "value_plies",
                                 "value_mix", "temperature"}
    assert set(_core._SEARCH_FIELDS) == python  # what the core reads of it, each field once
    obs = Deal.new(seed=2, level=2, leader=0).observation(0)
    info = information_set(obs)
    state = public_state(int(obs.level), 0, obs.to_beat, obs.history, obs.finish_order)
    words = search.search_candidates(info, state, 4)
    assert search.search(info, state, words, params)[1] == 20
    with pytest.raises(GuandanError, match="params must be a SearchParams"):
        search.search(info, state, words, {"rollouts": 20})
    with pytest.raises(GuandanError, match="tree_first is a number in"):
        search.search(info, state, words, dataclasses.replace(params, tree_first=0.0))
