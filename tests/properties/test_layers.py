"""The package's layers (:mod:`guandan.layers`, the one statement of the rule): every module
of every subpackage imports only from its own layer and lower ones, no modules import
one another in a circle, and every module's tests are found by its path (``tests/<layer>/test_<module>.py``).

Every import counts — at the top, under ``TYPE_CHECKING``, inside a function — read from the
source with :mod:`ast`, so an import added anywhere is seen before it is run."""

from __future__ import annotations

import ast
import functools
import pathlib

import pytest

import guandan
from guandan import Cards, Deal, InvalidCardsError, Match, Rank, parse_card
from guandan.bots.agents import GreedyAgent
from guandan.bots.loop import play_out
from guandan.game import perft, scoring, tribute
from guandan.layers import LAYERS, layer_of, may_import
from guandan.records import games as records

PACKAGE = pathlib.Path(guandan.__file__).parent
SOURCE = pathlib.Path(__file__).resolve().parents[2] / "src" / "guandan"


def package_dir() -> pathlib.Path:
    """The source tree when the tests run from a checkout, else the installed package."""
    return SOURCE if (SOURCE / "__init__.py").exists() else PACKAGE


def modules(root: pathlib.Path, package: str = "guandan") -> dict[str, pathlib.Path]:
    """Every module below ``root`` by its dotted name (a package by its own name), with the
    compiled core (its ``.pyx``, or the built module) as a module too."""
    found: dict[str, pathlib.Path] = {}
    for path in sorted(root.rglob("*.py")) + sorted(root.rglob("*.pyx")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join([package, *parts])] = path
    return found


def imports(path: pathlib.Path, module: str, names: set[str]) -> set[str]:
    """The modules of ``names`` that ``module`` (at ``path``) imports, anywhere in it:
    relative or absolute, ``from X import name`` counting ``X.name`` when that is a module."""
    is_package = path.stem == "__init__"
    here = module.split(".") if is_package else module.split(".")[:-1]
    found: set[str] = set()
    if path.suffix != ".py":
        return found  # the Cython module imports only guandan.errors, lazily (checked below)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            elif node.module and (node.module == "guandan" or node.module.startswith("guandan.")):
                target = node.module
            else:
                continue
            for alias in node.names:
                full = f"{target}.{alias.name}"
                found.add(full if full in names else target)
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.startswith("guandan")}
    # a module imported through its package (guandan.core.cards) also runs the package
    return {m for m in found if m in names} - {module}


def graph(root: pathlib.Path, package: str = "guandan") -> dict[str, set[str]]:
    mods = modules(root, package)
    return {name: imports(path, name, set(mods)) for name, path in mods.items()}


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
    sub = tmp_path / "sub"
    sub.mkdir()
    (tmp_path / "__init__.py").write_text("")
    (sub / "__init__.py").write_text("")
    (sub / "a.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "from .b import x\n"
        "if TYPE_CHECKING:\n    from guandan.c import y\n"
        "def f():\n    from . import d\n    import guandan.e\n    from .. import f\n"
    )
    for name in "bd":
        (sub / f"{name}.py").write_text("")
    for name in "cef":
        (tmp_path / f"{name}.py").write_text("")
    assert graph(tmp_path)["guandan.sub.a"] == {"guandan.sub.b", "guandan.c", "guandan.sub.d", "guandan.e", "guandan.f"}


def test_the_circle_finder_finds_circles():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


@functools.cache
def package_graph() -> dict[str, set[str]]:
    """The package's import graph, read once for the tests that ask about it module by module."""
    return graph(package_dir())


@pytest.mark.slow
def test_no_modules_import_one_another_in_a_circle():
    assert circles(package_graph()) == []


@pytest.mark.slow
def test_every_subpackage_is_a_layer_and_every_module_has_one():
    root = package_dir()
    subpackages = {p.parent.name for p in root.glob("*/__init__.py")}
    assert subpackages == set(LAYERS) - {"errors"}
    for name in package_graph():
        if name not in ("guandan", "guandan.__main__", "guandan.layers"):
            assert layer_of(name) in LAYERS, name


#: Modules whose tests are not at ``tests/<layer>/test_<module>.py``, and where they are.
TESTED_ELSEWHERE = {
    "guandan.__main__": "ui/test_cli.py",  # python -m guandan
    "guandan.core._core": "core/test_native.py",  # the native core against the reference
    "guandan.errors": "properties/test_errors.py",
    "guandan.layers": "properties/test_layers.py",
}


def test_every_module_has_its_test_file_at_its_path():
    """A module's tests are found by its path: ``guandan/<layer>/<module>.py`` has
    ``tests/<layer>/test_<module>.py`` (the few exceptions listed above)."""
    tests = pathlib.Path(__file__).resolve().parents[1]
    missing = []
    for name, path in modules(SOURCE).items():
        if path.stem == "__init__" or name == "guandan":
            continue
        parts = name.split(".")[1:]
        expected = TESTED_ELSEWHERE.get(name, "/".join(parts[:-1] + [f"test_{parts[-1]}.py"]))
        if not (tests / expected).exists():
            missing.append(f"{name}: tests/{expected}")
    assert not missing, f"modules without their test file: {missing}"


def test_the_rule_refuses_an_import_from_above():
    assert not may_import("guandan.core.cards", "guandan.game.deal")
    assert not may_import("guandan.game.match", "guandan")
    assert may_import("guandan.ui.cli", "guandan.core.cards") and may_import("guandan", "guandan.ui.cli")


@pytest.mark.parametrize("name", sorted(modules(package_dir())))
def test_a_module_imports_only_its_own_and_lower_layers(name):
    higher = sorted(m for m in package_graph()[name] if not may_import(name, m))
    assert not higher, f"{name} (layer {layer_of(name)}) imports from higher layers: {higher}"


def test_the_native_core_imports_only_the_errors():
    core = package_dir() / "core"
    text = "\n".join(p.read_text(encoding="utf-8") for p in [core / "_core.pyx", *sorted(core.glob("_core_*.pxi"))])
    lines = [line.strip() for line in text.splitlines()]
    imported = {line.split()[1] for line in lines if line.startswith(("from guandan", "import guandan"))}
    assert imported <= {"guandan"}, imported
    assert "from guandan import errors" in text


def test_the_c_files_include_one_another_in_no_circle():
    """``csrc/``: a file ``gd_x`` (its ``.c`` and ``.h``) uses ``gd_y`` when it includes
    ``gd_y.h``; no two files use one another, directly or round a longer circle."""
    csrc = pathlib.Path(__file__).resolve().parents[2] / "csrc"
    if not csrc.is_dir():
        pytest.skip("the C sources are not in this checkout")
    uses: dict[str, set[str]] = {}
    for path in sorted(csrc.glob("gd_*.[ch]")):
        included = {line.split('"')[1][:-2] for line in path.read_text(encoding="utf-8").splitlines()
                    if line.startswith('#include "')}
        uses.setdefault(path.stem, set()).update(included - {path.stem})
    assert uses["gd_search"] >= {"gd_solve", "gd_play"}  # the reader sees the includes
    assert circles(uses) == []


def test_only_the_core_imports_the_native_core():
    """The compiled module is the core's own: the layers above use the core's typed modules
    (``packed``, ``movegen``, ``batch``, ``rng``, ``playouts``, ``search``, ``encode``, ``tables``)."""
    edges = package_graph()
    assert "guandan.core._core" in edges["guandan.core.packed"]  # the reader sees the import
    outside = sorted(name for name, imported in edges.items()
                     if "guandan.core._core" in imported and not name.startswith("guandan.core."))
    assert not outside, f"modules outside guandan.core import guandan.core._core: {outside}"


def test_observation_never_imports_the_deal_and_the_agents_never_the_search_bot():
    edges = package_graph()
    observation = edges["guandan.game.observation"]
    assert "guandan.game.deal" not in observation and "guandan.game.match" not in observation
    agents = edges["guandan.bots.agents"]
    assert "guandan.bots.search" not in agents and "guandan.bots.registry" not in agents


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
    assert tribute.tribute_choices(counts, level) == (parse_card("S9"),)  # H9 is wild; S9 ranks above the aces
    assert tribute.return_choices(counts, level) == tribute.return_choices(counts, Rank.NINE) == (parse_card("S3"),)
    assert scoring.promote(level, 2) is Rank.JACK
    single = {"type": "single", "key": "3", "suit": None, "cards": ["S3"]}
    assert records.move_from_json(single, level).level is Rank.NINE
    assert perft.position(1, 3, level=level).level is Rank.NINE


@pytest.mark.parametrize("level", BAD_LEVELS, ids=repr)
def test_every_door_refuses_a_bad_level_with_invalid_cards_error(level):
    counts = Cards.parse("S3").counts
    for call in (
        lambda: Deal.new(1, level),
        lambda: Match(1, levels=(level, 2), level_side=1),
        lambda: tribute.tribute_choices(counts, level),
        lambda: tribute.return_choices(counts, level),
        lambda: scoring.promote(level, 1),
        lambda: records.move_from_json({"type": "pass"}, level),
    ):
        with pytest.raises(InvalidCardsError, match="level"):
            call()


def test_a_deal_and_a_match_parse_their_levels_once_and_never_while_played(monkeypatch):
    import guandan.game.deal
    import guandan.game.match

    calls = {"deal": 0, "match": 0}

    def counting(module):
        parse = module.parse_level

        def parse_level(value):
            calls[module.__name__.rsplit(".", 1)[1]] += 1
            return parse(value)

        return parse_level

    monkeypatch.setattr(guandan.game.deal, "parse_level", counting(guandan.game.deal))
    monkeypatch.setattr(guandan.game.match, "parse_level", counting(guandan.game.match))
    deal = Deal.new(4, "J")
    play_out(deal, [GreedyAgent()] * 4)
    assert deal.is_over and calls["deal"] == 1
    match = Match(4, levels=("9", "Q"), level_side=0)
    play_out(match, [GreedyAgent()] * 4, max_actions=400)
    assert len(match.results) >= 1 and calls["match"] == 2
