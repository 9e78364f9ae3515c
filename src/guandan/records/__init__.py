"""Records: moves and whole games as JSON values, and replaying them.

Above :mod:`guandan.game`: :mod:`~guandan.records.jsonio` (moves as JSON) and
:mod:`~guandan.records.games` (deal and match records, :func:`replay`).
"""
