"""The core: cards, moves and their order, the packed formats, legal-move generation.

The lowest layer of the package (above :mod:`guandan.errors` only). It knows the cards and
the combinations of the rules, not deals or players: :mod:`~guandan.core.cards` (cards,
ranks, suits, the text notation), :mod:`~guandan.core.combos` (moves, their order,
``beats``, ``classify``), :mod:`~guandan.core.packed` (the packed words the native core
reads and writes), :mod:`~guandan.core.movegen` (legal moves from the native core),
:mod:`~guandan.core.batch` (many positions per call), :mod:`~guandan.core.reference` (the
pure-Python generator the native one is checked against), :mod:`~guandan.core.notation`
(moves as people write them) and :mod:`~guandan.core.rng` (the seeded generator).
"""
