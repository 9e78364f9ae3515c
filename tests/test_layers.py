"""The package's layers: lower modules never import higher ones, and no modules import one another
in a circle (STYLE.md: cards and notation → combinations → move generation → deal → match →
agents → simulation → CLI).

Every import counts — at the top, under ``TYPE_CHECKING``, inside a function — read from the
source with :mod:`ast`, so an import added anywhere is seen before it is run."""

from __future__ import annotations

import ast
import functools
import pathlib

import pytest

import guandan
from guandan import Cards, Deal, InvalidCardsError, Match, Rank, parse_card, perft, records, rules
from guandan.agents import GreedyAgent, play_out

PACKAGE = pathlib.Path(guandan.__file__).parent
SOURCE = pathlib.Path(__file__).resolve().parent.parent / "src" / "guandan"

#: The layer of each module, lowest first: a module imports only modules of lower layers
#: (or of its own layer, without a circle). ``__init__`` and ``__main__`` are the package's
#: front doors, above everything.
LAYERS: list[set[str]] = [
    {"errors", "rng", "_core"},
    {"cards"},
    {"_packed"},
    {"combos"},
    {"notation", "jsonio", "protocol", "reference", "movegen", "batch"},
    {"rules"},
    {"history"},
    {"observation"},
    {"deal"},
    {"match"},
    {"records", "agents", "playout", "determinize", "perft"},
    {"search"},
    {"registry"},
    {"simulate", "table"},
    {"terminal"},
    {"cli"},
    {"__init__", "__main__"},
]
LEVEL = {name: i for i, layer in enumerate(LAYERS) for name in layer}


def package_dir() -> pathlib.Path:
    """The source tree when the tests run from a checkout, else the installed package."""
    return SOURCE if (SOURCE / "__init__.py").exists() else PACKAGE


def modules(root: pathlib.Path) -> dict[str, pathlib.Path]:
    return {p.stem: p for p in sorted(root.glob("*.py"))}


def imports(path: pathlib.Path, names: set[str]) -> set[str]:
    """The package modules ``path`` imports, anywhere in it (relative or absolute imports)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:
                base = node.module or ""
            elif node.level == 0 and node.module and (node.module == "guandan" or node.module.startswith("guandan.")):
                base = node.module.removeprefix("guandan").lstrip(".")
            else:
                continue
            first = base.split(".")[0]
            if first:
                found.add(first)
            else:  # from . import x / from guandan import x: x may be a module
                found |= {a.name for a in node.names if a.name in names}
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("guandan."):
                    found.add(alias.name.split(".")[1])
    return found & names


def graph(root: pathlib.Path) -> dict[str, set[str]]:
    mods = modules(root)
    names = set(mods) | {"_core"}
    return {name: imports(path, names) - {name, "__init__"} for name, path in mods.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    for start in edges:
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on.add(start)
        while work:
            v, children = work[-1]
            w = next(children, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                group = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    group.append(w)
                    if w == v:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_the_import_reader_sees_every_kind_of_import(tmp_path):
    (tmp_path / "a.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "from .b import x\n"
        "if TYPE_CHECKING:\n    from guandan.c import y\n"
        "def f():\n    from . import d\n    import guandan.e\n"
    )
    for name in "bcde":
        (tmp_path / f"{name}.py").write_text("")
    assert graph(tmp_path)["a"] == {"b", "c", "d", "e"}


def test_the_circle_finder_finds_circles():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_modules_import_one_another_in_a_circle():
    assert circles(graph(package_dir())) == []


def test_every_module_has_a_layer():
    assert set(modules(package_dir())) - set(LEVEL) == set()


@functools.cache
def package_graph() -> dict[str, set[str]]:
    """The package's import graph, read once for the tests that ask about it module by module."""
    return graph(package_dir())


@pytest.mark.parametrize("name", sorted(modules(package_dir())))
def test_a_module_imports_only_lower_layers(name):
    higher = {m for m in package_graph()[name] if LEVEL.get(m, -1) > LEVEL.get(name, -1)}
    assert not higher, f"{name} (layer {LEVEL.get(name)}) imports higher layers: {sorted(higher)}"


def test_observation_never_imports_the_deal_and_the_agents_never_the_search_bot():
    edges = graph(package_dir())
    assert "deal" not in edges["observation"] and "match" not in edges["observation"]
    assert "search" not in edges["agents"] and "registry" not in edges["agents"]
    assert "records" not in edges["deal"] and "records" not in edges["match"]


# -- a level enters as int | str | Rank, is parsed at the door, and travels as a Rank --------------

LEVEL_FORMS = [9, "9", " 9 ", Rank.NINE]
BAD_LEVELS = ["1", 15, "SB", True, None, 9.0, "nine"]


@pytest.mark.parametrize("level", LEVEL_FORMS, ids=repr)
def test_every_door_takes_a_level_as_an_int_a_string_or_a_rank(level):
    deal = Deal.new(1, level)
    assert deal.level is Rank.NINE and deal.observation(0).level is Rank.NINE
    assert Deal(["S3", "S4", "S5", "S6"], level=level).level is Rank.NINE
    match = Match(1, levels=(level, level))
    assert match.levels == (Rank.NINE, Rank.NINE) and match.start.levels == (Rank.NINE, Rank.NINE)
    assert all(type(lv) is Rank for lv in (*match.levels, match.level, match.deal_logs[-1].level))
    counts = Cards.parse("S9 H9 SA DA S3").counts
    assert rules.tribute_choices(counts, level) == (parse_card("S9"),)  # H9 is wild; S9 ranks above the aces
    assert rules.return_choices(counts, level) == rules.return_choices(counts, Rank.NINE) == (parse_card("S3"),)
    assert rules.promote(level, 2) is Rank.JACK
    single = {"type": "single", "key": "3", "suit": None, "cards": ["S3"]}
    assert records.move_from_json(single, level).level is Rank.NINE
    assert perft.position(1, 3, level=level).level is Rank.NINE


@pytest.mark.parametrize("level", BAD_LEVELS, ids=repr)
def test_every_door_refuses_a_bad_level_with_invalid_cards_error(level):
    counts = Cards.parse("S3").counts
    for call in (
        lambda: Deal.new(1, level),
        lambda: Match(1, levels=(level, 2), level_side=1),
        lambda: rules.tribute_choices(counts, level),
        lambda: rules.return_choices(counts, level),
        lambda: rules.promote(level, 1),
        lambda: records.move_from_json({"type": "pass"}, level),
    ):
        with pytest.raises(InvalidCardsError, match="level"):
            call()


def test_a_deal_and_a_match_parse_their_levels_once_and_never_while_played(monkeypatch):
    import guandan.deal
    import guandan.match

    calls = {"deal": 0, "match": 0}

    def counting(module):
        parse = module.parse_level

        def parse_level(value):
            calls[module.__name__.rsplit(".", 1)[1]] += 1
            return parse(value)

        return parse_level

    monkeypatch.setattr(guandan.deal, "parse_level", counting(guandan.deal))
    monkeypatch.setattr(guandan.match, "parse_level", counting(guandan.match))
    deal = Deal.new(4, "J")
    play_out(deal, [GreedyAgent()] * 4)
    assert deal.is_over and calls["deal"] == 1
    match = Match(4, levels=("9", "Q"), level_side=0)
    play_out(match, [GreedyAgent()] * 4, max_actions=400)
    assert len(match.results) >= 1 and calls["match"] == 2
