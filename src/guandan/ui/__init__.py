"""What people use: the terminal table and the ``guandan`` command line.

The top layer: :mod:`~guandan.ui.terminal` (``guandan play``, drawing with
:mod:`guandan.game.render`) and :mod:`~guandan.ui.cli` (the ``guandan`` command, a module
a subcommand in :mod:`~guandan.ui.commands`).
"""
