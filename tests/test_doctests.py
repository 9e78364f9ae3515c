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
    "guandan.reference",
    "guandan._core",
    "guandan.notation",
    "guandan.jsonio",
    "guandan.protocol",
    "guandan.cli",
    "guandan.observation",
    "guandan.rules",
    "guandan.deal",
    "guandan.match",
    "guandan.agents",
    "guandan.records",
    "guandan.table",
    "guandan.terminal",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} doctest failure(s) in {name}"
