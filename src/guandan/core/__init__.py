"""The core: cards, moves and their order, the packed formats, legal-move generation, and
the native core's deals, search parts, encodings and tables.

The lowest layer of the package (above :mod:`guandan.errors` only). It knows the cards and
the combinations of the rules: :mod:`~guandan.core.cards` (cards, ranks, suits, the text
notation), :mod:`~guandan.core.moves` (moves and their types), :mod:`~guandan.core.order`
(their order, ``beats``), :mod:`~guandan.core.classify` (what cards make),
:mod:`~guandan.core.notation` (moves as people write them), :mod:`~guandan.core.packed` (the
packed words the native core reads and writes), :mod:`~guandan.core.movegen` (legal moves
from the native core), :mod:`~guandan.core.batch` (many positions per call),
:mod:`~guandan.core.reference` (the pure-Python generator the native one is checked
against) and :mod:`~guandan.core.rng` (the seeded generator).

The compiled module ``_core`` (``_core.pyx`` and its ``_core_*.pxi`` parts over ``csrc/``) is
the core's own: the layers above reach it through the typed modules here — those above, and
:mod:`~guandan.core.playouts` (native deals: perft, playouts, rollouts, the policies' moves),
:mod:`~guandan.core.search` (the search's native parts), :mod:`~guandan.core.encode` (the
encodings for learning agents) and :mod:`~guandan.core.tables` (vectorized tables).
"""
