"""Rulesets: the complete, named presets a match is played under (rules §7, §8).

A :class:`Ruleset` is a frozen value. Each preset is a whole, coherent set of rules
(not a pile of toggles); the default, :data:`COMPETITIVE_2022`, is the 2022 Competitive
Guandan Rules (Trial), and every feature of the engine works with it.

>>> from guandan.game.rules import COMPETITIVE_2022, NANJING, RULESETS
>>> COMPETITIVE_2022.promotion, NANJING.promotion
((3, 2, 1), (3, 2, 0))
>>> sorted(RULESETS)
['competitive_2022', 'huaian', 'nanjing', 'platform']
>>> RULESETS["huaian"].failed_a_limit, RULESETS["huaian"].return_rule
(3, 'any')

What a ruleset's fields mean in play is applied by :mod:`guandan.game.tribute` (who pays,
the cards allowed), :mod:`guandan.game.scoring` (levels gained, promotion) and
:mod:`guandan.game.match` (passing A, dropping back, the cap).

Decisions where the rules and the source texts are silent (they are the project's docs):

* **Return card, ``low`` rule** (competitive, Nanjing): a card of natural rank 2..10 that
  is not of the level rank — i.e. a card no higher than a 10 in the elevated order, so
  never a level card and never a wild. The receiver chooses among all such faces in its
  hand *after* receiving the tribute (the tribute card itself is eligible if it
  qualifies). With none, the receiver's lowest card in the elevated order, the receiver
  choosing among equal-lowest faces (a wild counts as a level card there). Nanjing's
  "10 or lower" is read the same way: a level card ranks above the ace.
* **Return card, ``any`` rule** (Huai'an): any card the receiver holds after receiving
  the tribute, wilds and jokers included.
* **Tribute card**: the highest card in the elevated order of the *new* deal's level,
  wilds excluded; the payer chooses among equal-highest faces (for example two suits of
  the level rank).
* **Failed A**: a deal at a side's *own* A (a deal played at level A with that side as the
  level side) fails when that side does not pass A in it: when it loses it or wins it
  1st-and-4th (and, under the platform's rules, 1st-and-3rd). Failures accumulate
  (a deal at the opponents' level neither counts nor resets them) until the side passes
  A or reaches :attr:`Ruleset.failed_a_limit`, when it drops to level 2 and its count
  restarts at 0. ``None`` (the competitive default) never demotes.
* **Nanjing's 1st-and-4th win** promotes by 0 levels; the winning side still becomes the
  level side (the next deal is played at its level).
* **Deal cap** (:attr:`Ruleset.max_deals`, off in every preset; set it with
  :meth:`Ruleset.with_deal_cap`): after that many deals without a side passing A, the
  side with the higher level wins; on equal levels the side that won the last deal wins
  (it is the side whose level would be played next), so a capped match always has a
  winner.
* **Plain straight of a same-suit five** (rules §3): listed by default
  (:attr:`Ruleset.plain_straight_flush`); a ruleset that drops it removes, at card
  granularity, every plain straight whose natural cards share one suit (the same cards
  are then only a straight flush). At rank granularity suits are abstracted away, so
  nothing is dropped there.

**The platform ruleset** (:data:`PLATFORM`, ``"platform"``): the rules of the public
Guandan AI competition's offline server (its manual: the 2017 Huai'an competition rules,
with the 2017 Jiangsu simplified rules as a supplement), as far as its manual and public
re-implementations show them. It differs from the default in three fields; each point
where the sources disagree is a field, with the default chosen here:

* **Passing A** (:attr:`Ruleset.pass_a_places`, platform ``(2,)``; default ``(2, 3)``): a
  side at its own A passes only when its partner finishes 2nd, i.e. it finishes 1st and
  2nd. Every other deal at its own A (lost, or won 1st-and-3rd or 1st-and-4th) is a
  failure.
* **Dropping back to 2** (:attr:`Ruleset.failed_a_limit`, platform ``2``): the manual
  says a side still at A "after two deals" drops to 2; one public re-implementation drops
  after more than three failures (``failed_a_limit=4``). The default follows the manual.
* **A draw** (:attr:`Ruleset.draw_after_drops`, platform ``50``; default ``None``, never):
  every drop of either side back to 2 counts once; when the count reaches this number
  the match ends as a draw (``winner`` ``None``, ``end_reason`` ``"draw"``).
* **Equal cards in a double tribute** (:attr:`Ruleset.double_tribute_tie`, ``"next"`` in
  every preset): ``"next"``, the seat that plays next after the 1st-place seat pays the
  1st (and leads), as the public re-implementation of the platform and rules §7 do;
  ``"previous"``, the other payer (the seat playing just before the 1st-place seat) does,
  as some rule sheets read "clockwise". Which one the closed server uses is not known.
* Tribute, return and resisting are those of the default rules: the highest card other
  than the heart level wild; a return of rank 10 or below, not of the level rank; both
  big jokers resist; the previous 1st place leads after resisting.

The new fields are written into a record's ``rules`` only when they differ from their
defaults, so the records of the other presets are exactly those of earlier versions.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from dataclasses import fields as dataclass_fields
from typing import Any, Literal

from ..errors import GuandanError, check_bool, check_choice, check_int, describe, is_int

__all__ = [
    "Ruleset",
    "COMPETITIVE_2022",
    "HUAIAN",
    "NANJING",
    "PLATFORM",
    "RULESETS",
    "get_ruleset",
]

ReturnRule = Literal["low", "any"]
TieRule = Literal["next", "previous"]

#: Fields added after the first record format: written only when they differ from these defaults.
_LATER_FIELDS: dict[str, Any] = {"pass_a_places": (2, 3), "draw_after_drops": None, "double_tribute_tie": "next"}


@dataclass(frozen=True)
class Ruleset:
    """A complete set of match rules.

    ``promotion``: levels gained by the winning side when the winner's partner finishes
    2nd, 3rd, 4th. ``return_rule``: ``"low"`` (natural 2..10, not the level rank; else the
    lowest card) or ``"any"``. ``failed_a_limit``: failed deals at the side's own A before
    it drops to 2 (``None``: never). ``max_deals``: the deal cap (``None``: none).
    ``plain_straight_flush``: whether a same-suit five may also be declared a plain straight.
    ``pass_a_places``: the places of the partner with which a side at its own A passes it
    (``(2, 3)``; the platform's ``(2,)``). ``draw_after_drops``: drops back to 2 (both
    sides counted) after which the match is a draw (``None``: never).
    ``double_tribute_tie``: who pays the 1st-place seat when the two tribute cards are
    equal, ``"next"`` (the seat after it) or ``"previous"`` (the seat before it).

    >>> COMPETITIVE_2022.gain(2), COMPETITIVE_2022.gain(4), NANJING.gain(4)
    (3, 1, 0)
    >>> COMPETITIVE_2022.with_deal_cap(8).max_deals
    8
    >>> PLATFORM.pass_a_places, PLATFORM.failed_a_limit, PLATFORM.draw_after_drops
    ((2,), 2, 50)
    """

    name: str
    title: str
    promotion: tuple[int, int, int] = (3, 2, 1)
    return_rule: ReturnRule = "low"
    failed_a_limit: int | None = None
    max_deals: int | None = None
    plain_straight_flush: bool = True
    pass_a_places: tuple[int, ...] = (2, 3)
    draw_after_drops: int | None = None
    double_tribute_tie: TieRule = "next"

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not isinstance(self.title, str):
            raise GuandanError(
                f"a ruleset's name and title are strings, got {describe(self.name)}, {describe(self.title)}"
            )
        if (
            not isinstance(self.promotion, tuple)
            or len(self.promotion) != 3
            or not all(is_int(g) and 0 <= g <= 12 for g in self.promotion)
        ):
            raise GuandanError(f"promotion must be three gains 0..12, got {describe(self.promotion)}")
        check_choice("return_rule", self.return_rule, ("low", "any"), "'low' or 'any'")
        check_bool("plain_straight_flush", self.plain_straight_flush)
        places = self.pass_a_places
        if (
            not isinstance(places, tuple)
            or not places
            or not all(is_int(p) and p in (2, 3, 4) for p in places)
            or list(places) != sorted(set(places))
        ):
            raise GuandanError(f"pass_a_places must be ascending distinct places from 2, 3, 4, got {describe(places)}")
        check_choice("double_tribute_tie", self.double_tribute_tie, ("next", "previous"), "'next' or 'previous'")
        # the numbers as Python ints (a numpy integer is accepted, and written to records as an int)
        for name in ("failed_a_limit", "max_deals", "draw_after_drops"):
            object.__setattr__(self, name, check_int(name, getattr(self, name), 1, optional=True))
        object.__setattr__(self, "promotion", tuple(int(g) for g in self.promotion))
        object.__setattr__(self, "pass_a_places", tuple(int(p) for p in places))

    def gain(self, partner_place: int) -> int:
        """Levels gained by the winning side whose second seat finished ``partner_place`` (2, 3 or 4)."""
        check_choice("the winner's partner's place", partner_place, (2, 3, 4), "2nd, 3rd or 4th")
        return self.promotion[partner_place - 2]

    def with_deal_cap(self, max_deals: int | None) -> Ruleset:
        """The same rules with a deal cap (competition format); the name gets a ``+cap{N}`` suffix."""
        base = self.name.split("+cap")[0]
        name = base if max_deals is None else f"{base}+cap{max_deals}"
        return replace(self, name=name, max_deals=max_deals)

    def to_json(self) -> dict[str, Any]:
        """Every field as JSON values (records store it, so a custom ruleset replays too); the
        fields added later (``pass_a_places``, ``draw_after_drops``, ``double_tribute_tie``)
        only when they differ from their defaults.

        >>> sorted(PLATFORM.to_json())[:3], "double_tribute_tie" in PLATFORM.to_json()
        (['draw_after_drops', 'failed_a_limit', 'max_deals'], False)
        >>> Ruleset.from_json(PLATFORM.to_json()) == PLATFORM
        True
        """
        out = asdict(self)
        out["promotion"] = list(self.promotion)
        for field, default in _LATER_FIELDS.items():
            if out[field] == default:
                del out[field]
        if "pass_a_places" in out:
            out["pass_a_places"] = list(self.pass_a_places)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Ruleset:
        """The ruleset of :meth:`to_json` (:class:`~guandan.GuandanError` if it is not one)."""
        if not isinstance(data, dict):
            raise GuandanError(f"a ruleset is a JSON object, got {describe(data)}")
        fields = dict(data)
        promotion = fields.get("promotion")
        if not isinstance(promotion, list | tuple):
            raise GuandanError(f"a ruleset's promotion is a list of three gains, got {describe(promotion)}")
        fields["promotion"] = tuple(promotion)
        if isinstance(fields.get("pass_a_places"), list):
            fields["pass_a_places"] = tuple(fields["pass_a_places"])
        names = [f.name for f in dataclass_fields(cls)]
        unknown = [k for k in fields if k not in names]
        missing = [n for n in ("name", "title") if n not in fields]
        if unknown or missing:
            what = f"unknown fields {describe(unknown)}" if unknown else f"missing fields {describe(missing)}"
            raise GuandanError(f"not a ruleset: {what}")
        return cls(**fields)


#: The 2022 Competitive Guandan Rules (Trial): the default.
COMPETITIVE_2022 = Ruleset(
    name="competitive_2022",
    title="2022 Competitive Guandan Rules (Trial)",
)

#: Huai'an folk rules: any return card; three failed A rounds drop to 2.
HUAIAN = Ruleset(
    name="huaian",
    title="Huai'an rules",
    return_rule="any",
    failed_a_limit=3,
)

#: Nanjing rules: return 10 or lower; no promotion for a 1st-and-4th win; three failed A rounds drop to 2.
NANJING = Ruleset(
    name="nanjing",
    title="Nanjing rules",
    promotion=(3, 2, 0),
    failed_a_limit=3,
)

#: The AI-competition platform's rules (see the module's description): pass A only 1st and 2nd,
#: two failures at A drop to 2, a draw after 50 drops.
PLATFORM = Ruleset(
    name="platform",
    title="Guandan AI-competition platform rules",
    failed_a_limit=2,
    pass_a_places=(2,),
    draw_after_drops=50,
)

#: The presets by name.
RULESETS: dict[str, Ruleset] = {r.name: r for r in (COMPETITIVE_2022, HUAIAN, NANJING, PLATFORM)}


def get_ruleset(value: Ruleset | str | None) -> Ruleset:
    """A ruleset given as itself, by preset name (``competitive_2022``, ``huaian``, ``nanjing``,
    ``platform``, optionally with a ``+capN`` deal cap), or ``None`` for the default.

    >>> get_ruleset("nanjing") is NANJING, get_ruleset("huaian+cap6").max_deals
    (True, 6)
    """
    if value is None:
        return COMPETITIVE_2022
    if isinstance(value, Ruleset):
        return value
    if isinstance(value, str):
        base, _, cap = value.strip().lower().partition("+cap")
        preset = RULESETS.get(base)
        if preset is not None:
            if not cap:
                return preset
            if cap.isdigit() and int(cap) > 0:
                return preset.with_deal_cap(int(cap))
        names = ", ".join(RULESETS)
        raise GuandanError(f"unknown ruleset {describe(value)} (one of {names}, optionally +capN)")
    raise GuandanError(f"a ruleset is a Ruleset or a preset name, got {describe(value)}")
