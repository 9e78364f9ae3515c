"""Two hypothesis profiles for a property that takes a second or more: it runs twice, as
``[quick]`` with a tenth of its examples (at least 10) in the quick subset (``-m "not slow"``),
and as ``[thorough]`` with all of them, marked ``slow`` (and ``thorough``). The thorough run
is the property as written; the quick one is the same property on fewer examples, so an edit
that breaks it usually fails at once, and the whole suite still searches as hard as before.

    @profiled(400, small_hands())                 # instead of @settings(max_examples=400) @given(...)
    def test_every_declaration_really_forms_its_combination(position): ...

Keyword strategies are given as keywords; ``settings=`` takes the other settings
(``suppress_health_check``, …; the deadline is off, as everywhere in this suite). The test
takes only what hypothesis draws (no fixtures, no other parameters).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings

#: The quick profile's share of a property's examples, and its floor.
QUICK_SHARE, QUICK_FLOOR = 10, 10


#: The two runs of a property: the thorough one in the slow subset.
PROFILES = [
    pytest.param("quick", id="quick"),
    pytest.param("thorough", id="thorough", marks=[pytest.mark.slow, pytest.mark.thorough]),
]


def quick_examples(examples: int) -> int:
    """The examples of the quick profile of a property of ``examples`` examples."""
    return min(examples, max(QUICK_FLOOR, examples // QUICK_SHARE))


def profiled(examples: int, *strategies: Any, settings: dict[str, Any] | None = None, **keyword_strategies: Any):
    """The decorator: the property with ``examples`` examples, as a test of two profiles."""
    extra = {"deadline": None, **(settings or {})}

    def wrap(test):
        runs = {
            profile: hypothesis_settings(max_examples=n, **extra)(given(*strategies, **keyword_strategies)(test))
            for profile, n in (("quick", quick_examples(examples)), ("thorough", examples))
        }

        @pytest.mark.parametrize("profile", PROFILES)
        def run(profile):
            runs[profile]()

        for name in ("__module__", "__name__", "__qualname__", "__doc__"):  # no __wrapped__: pytest reads its signature
            setattr(run, name, getattr(test, name))
        return run

    return wrap
