"""The check of a refused input, shared by every test of bad input: the call raises the given
error of ``guandan.errors`` (its message matching), and that error is of the hierarchy, under
``ValueError`` (see ``tests/properties/test_errors.py``)."""

from __future__ import annotations

import pytest

from guandan import GuandanError


def check(call, error, match=None):
    """``call()`` raises ``error`` with a message matching ``match``, a ``GuandanError`` and a ``ValueError``."""
    with pytest.raises(error, match=match) as caught:
        call()
    assert isinstance(caught.value, GuandanError)  # the hierarchy, under ValueError
    assert isinstance(caught.value, ValueError)
