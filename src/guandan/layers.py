"""The package's layers, lowest first: a module imports only from its own layer and the
layers below it, and modules never import one another in a circle.

========  ===========================================================================
layer     what it holds
========  ===========================================================================
errors    the exceptions (:mod:`guandan.errors`): every layer raises them
core      cards, moves and their order, the packed formats, legal-move generation,
          the native core (:mod:`guandan.core`)
game      rulesets and scoring, the actions and their history, what a seat sees, a
          deal, a match (:mod:`guandan.game`)
records   moves and whole games as JSON, and their replay (:mod:`guandan.records`)
bots      agents, the one play loop, agents by spec, playouts, sampling the hidden
          hands, the search bot, simulation (:mod:`guandan.bots`)
rl        learning: vectorized tables, the PettingZoo and Gymnasium environments, the
          deep Monte Carlo trainer (:mod:`guandan.rl`)
platform  the AI competition's protocol: its action format, messages, the table, the
          server and the client (:mod:`guandan.platform`)
web       the browser: the table's page and the replay viewer, served on the platform
          server's port (:mod:`guandan.web`)
ui        what people use: the terminal table and the ``guandan`` command
          (:mod:`guandan.ui`)
========  ===========================================================================

The package's front door, ``guandan/__init__.py`` (and ``__main__``), stands above them all:
it hands on the names users import from :mod:`guandan`. This module is the one statement
of the rule; the test suite reads every import of every module and holds it to it.

>>> layer_of("guandan.game.deal"), layer_of("guandan.errors"), layer_of("guandan")
('game', 'errors', None)
>>> may_import("guandan.bots.search", "guandan.game.match"), may_import("guandan.game.deal", "guandan.bots.agents")
(True, False)
"""

from __future__ import annotations

__all__ = ["LAYERS", "layer_of", "may_import"]

#: The layers, lowest first: each is a subpackage of ``guandan`` (``errors`` a module).
LAYERS: tuple[str, ...] = ("errors", "core", "game", "records", "bots", "rl", "platform", "web", "ui")

_FRONT = ("guandan", "guandan.__main__", "guandan.layers")


def layer_of(module: str) -> str | None:
    """The layer a module of the package belongs to (its first part after ``guandan``);
    ``None`` for the front door (``guandan`` itself, ``__main__`` and this module)."""
    if module in _FRONT:
        return None
    parts = module.split(".")
    if parts[0] != "guandan" or len(parts) < 2 or parts[1] not in LAYERS:
        raise ValueError(f"{module!r} is not a module of a layer of the package")
    return parts[1]


def may_import(importer: str, imported: str) -> bool:
    """Whether the rule lets module ``importer`` import module ``imported`` (both dotted,
    ``guandan.…``): the front door imports anything; a layer only its own and lower ones
    (this module is below every layer, which may read it)."""
    here = layer_of(importer)
    if here is None or imported == "guandan.layers":
        return True
    there = layer_of(imported)
    if there is None:  # the front door: nothing below it may import it
        return False
    return LAYERS.index(there) <= LAYERS.index(here)
