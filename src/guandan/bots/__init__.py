"""Bots: agents, the play loop, the registry of agent specs, playouts, search, simulation.

Above :mod:`guandan.records`: :mod:`~guandan.bots.agents` (the agent protocol and the
built-in agents), :mod:`~guandan.bots.registry` (agents by spec),
:mod:`~guandan.bots.playout` (native playouts), :mod:`~guandan.bots.determinize` (sampling
the hidden hands), :mod:`~guandan.bots.search` (the search bot) and
:mod:`~guandan.bots.simulate` (many seeded games on any executor).
"""
