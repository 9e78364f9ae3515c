"""The docstring examples of the installed package run as doctests."""

import doctest
import importlib

import pytest

MODULES = [
    "guandan.rng",
    "guandan.movegen",
    "guandan",
    "guandan.errors",
    "guandan.cards",
    "guandan.combos",
    "guandan._packed",
    "guandan.reference",
    "guandan._core",
    "guandan.notation",
    "guandan.jsonio",
    "guandan.protocol",
    "guandan.cli",
    "guandan.history",
    "guandan.observation",
    "guandan.rules",
    "guandan.deal",
    "guandan.match",
    "guandan.agents",
    "guandan.records",
    "guandan.table",
    "guandan.terminal",
    "guandan.batch",
    "guandan.playout",
    "guandan.perft",
    "guandan.determinize",
    "guandan.search",
    "guandan.registry",
    "guandan.simulate",
    "guandan.platform",
    "guandan.platform.messages",
    "guandan.platform.table",
    "guandan.platform.server",
    "guandan.platform.client",
]


def test_every_module_of_the_package_is_listed():
    import pathlib

    import guandan

    package = pathlib.Path(guandan.__file__).parent
    names = {"guandan" if p.stem == "__init__" else f"guandan.{p.stem}" for p in package.glob("*.py")}
    for sub in package.glob("*/__init__.py"):  # subpackages
        prefix = f"guandan.{sub.parent.name}"
        names |= {prefix if p.stem == "__init__" else f"{prefix}.{p.stem}" for p in sub.parent.glob("*.py")}
    names |= {f"guandan.{p.name.split('.')[0]}" for p in package.glob("_core*.so")}
    assert names - {"guandan.__main__"} <= set(MODULES), sorted(names - set(MODULES))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} doctest failure(s) in {name}"
