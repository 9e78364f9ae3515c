"""What people use: the terminal table and the ``guandan`` command line.

The top layer: :mod:`~guandan.ui.render` (a match drawn as text), :mod:`~guandan.ui.terminal`
(``guandan play``) and :mod:`~guandan.ui.cli` (the ``guandan`` command).
"""
