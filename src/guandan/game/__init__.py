"""The game: rulesets, a deal, a match, what each seat sees.

Above :mod:`guandan.core`: :mod:`~guandan.game.rules` (rulesets, tribute and return
choices, promotion), :mod:`~guandan.game.history` (the actions and the phase),
:mod:`~guandan.game.observation` (one seat's view), :mod:`~guandan.game.deal` (a deal as a
state machine), :mod:`~guandan.game.match` (deals in a row, levels, tribute),
:mod:`~guandan.game.protocol` (the :class:`~guandan.game.protocol.Game` both satisfy),
:mod:`~guandan.game.scoring` (a deal's result, settled into levels),
:mod:`~guandan.game.tribute` (tribute and return), :mod:`~guandan.game.perft` (counting the
game tree), :mod:`~guandan.game.render` (a match as text) and :mod:`~guandan.game.encoding`
(what a seat knows as numbers, for learning agents).
"""
