"""A match: deals in a row, levels and promotion, the A gate, tribute and return (rules §7, §8).

Both sides start at level 2 (side 0 is seats 0 and 2, side 1 seats 1 and 3). Each deal
is played at the level of the side that won the previous deal (after its promotion);
the first at 2, led by the holder of the card turned face up (drawn from the match
seed). The side of the first-place seat wins the deal and advances by its partner's
place (2nd → 3 levels, 3rd → 2, 4th → 1 by default), stopping at A. A side at A wins
the match by winning a deal played at its own level A with its partner 2nd or 3rd
(:attr:`~guandan.game.rules.Ruleset.pass_a_places`; the platform's rules: 2nd only). Every other
deal at its own A is a failure; the ruleset may drop a side back to 2 after a number of
failures, and call the match a draw after a number of such drops.

From the second deal on, the deal starts with the tribute: the match is in phase
``TRIBUTE`` (payers choose their tribute card: :meth:`Match.pay_tribute`), then
``RETURN`` (receivers choose the card they give back: :meth:`Match.return_card`), then
``PLAY`` (:meth:`Match.play`), until it is ``OVER``. Every action has the pokerkit
triad ``verify_X`` (raises, naming the problem) / ``can_X`` (a bool) / ``X`` (applies and
returns the record it appends to the history); an illegal action changes nothing.
Dealing, settling the tribute, scoring and starting the next deal are automations that
run as soon as no choice is left.

>>> m = Match(seed=1)
>>> m.phase.label, m.level.label, m.levels, m.deal_index
('play', '2', (<Rank.TWO: 2>, <Rank.TWO: 2>), 0)
>>> from guandan.bots.agents import GreedyAgent
>>> from guandan.bots.loop import play_out
>>> play_out(m, [GreedyAgent()] * 4)
>>> m.is_over, m.winner in (0, 1), m.results[-1].passed_a
(True, True, True)

**Tribute** (from the second deal; *single* unless the previous deal was a double-down):

* single: the 4th-place seat pays the 1st-place seat (after a 1st-and-4th result that is
  the winner's own partner); double: both seats of the losing side pay. The tribute card
  is the payer's highest card except a wild, in the elevated order of the *new* deal's
  level; the payer chooses among equal-highest faces (:func:`~guandan.game.tribute.tribute_choices`).
  In a double tribute the payers act in play order from the 1st-place seat; the higher
  card goes to 1st, the lower to 2nd; on equal cards (equal in the elevated order) the
  seat that plays next after 1st pays 1st (``double_tribute_tie='previous'``: the other payer).
* return: each receiver gives the seat that paid it one card by the ruleset's return
  rule (:func:`~guandan.game.tribute.return_choices`); receivers act 1st place first.
* who leads: single — the payer; double — the seat whose card went to 1st.
* resisting: if the paying side holds both big jokers in the new hands (the payer both,
  or one each in a double-down) there is no tribute and no return, and the previous
  1st-place seat leads.

**Decisions** (where the rules and the sources are silent; see also :mod:`guandan.game.rules`):
deal ``k`` (from 0) is dealt from ``derive_seed(seed, k)``; a match built with explicit
``hands`` uses them for the first deals and deals the rest from the seed; the deal cap
counts every deal played in this match object; the tribute phase reports card counts of
the hands as they are (a paid card is on the table, in no hand, until the tribute is
settled).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..core.cards import Cards, CardsLike, Rank, as_card, as_cards, card_name, parse_level
from ..core.movegen import MoveList
from ..core.moves import Move, RankMove
from ..core.packed import bits_of_cards, cards_of_bits, face_bit, size_of_bits
from ..core.rng import derive_seed
from ..errors import GuandanError, IllegalMoveError, InvalidCardsError, Reason, check_int, describe, is_int
from .deal import Deal, check_seat, dealt_hand, opening_leader, shuffled_deck
from .history import History, Phase, Play, Return, Tribute
from .observation import Observation
from .rules import Ruleset, get_ruleset
from .scoring import DealResult, settle
from .tribute import resists, return_choices, settle_tributes, tribute_choices, tribute_payers

__all__ = ["Match", "MatchStart", "DealLog", "DealSummary"]


@dataclass(frozen=True)
class DealSummary:
    """What one deal of a match did.

    ``index``: the deal's number from 0; ``level``: its level; ``level_side``: the side
    whose level it was (``None`` when both sides were at that level in the first deal);
    ``levels_before`` / ``levels_after``: both sides' levels; ``result``: the finish order;
    ``tributes``: (payer, receiver, card) triples; ``returns``: (receiver, payer, card);
    ``resisted``: whether the tribute was resisted; ``leader``: the first leader;
    ``passed_a``: whether the winner passed A (won the match); ``demoted``: the side that
    dropped back to 2 after failing at A, else ``None``.

    >>> from guandan.bots.agents import GreedyAgent
    >>> from guandan.bots.loop import play_out
    >>> m = Match(seed=2); play_out(m, [GreedyAgent()] * 4, max_actions=150)
    >>> first = m.results[0]
    >>> first.index, first.level.label, first.levels_before, first.tributes
    (0, '2', (<Rank.TWO: 2>, <Rank.TWO: 2>), ())
    """

    index: int
    level: Rank
    level_side: int | None
    levels_before: tuple[Rank, Rank]
    result: DealResult
    levels_after: tuple[Rank, Rank]
    tributes: tuple[tuple[int, int, int], ...]
    returns: tuple[tuple[int, int, int], ...]
    resisted: bool
    leader: int
    passed_a: bool
    demoted: int | None


@dataclass(frozen=True)
class MatchStart:
    """How a match was set up: its constructor's arguments, checked (``previous`` as a finish
    order, ``hands`` as the given dealt hands, four :class:`~guandan.Cards` per deal).

    >>> Match(seed=3, levels=(5, 9), level_side=1).start
    MatchStart(levels=(<Rank.FIVE: 5>, <Rank.NINE: 9>), previous=None, level_side=1, failures=(0, 0),
               deal_index=0, hands=())
    """

    levels: tuple[Rank, Rank]
    previous: tuple[int, ...] | None
    level_side: int | None
    failures: tuple[int, int]
    deal_index: int
    hands: tuple[tuple[Cards, ...], ...]


@dataclass(frozen=True)
class DealLog:
    """One deal of a match as it went: how it was dealt and set up, the tribute and return
    records made before play (``before_play``, in order), and the :class:`~guandan.Deal`
    played (``None`` while the tribute and return are under way). A finished deal's log is
    final: its ``deal`` is not to be changed.

    ``index``: the deal's number; ``seed``: the seed it was dealt from; ``dealt``: the hands
    as dealt; ``level``, ``level_side``, ``levels_before``: as in :class:`DealSummary`;
    ``opening``: the opening card's position and face (the first deal), else ``None``;
    ``resisted``, ``tributes``, ``returns``: the tribute settled.

    >>> m = Match(seed=1); log = m.deal_logs[-1]
    >>> log.index, log.level.label, log.deal is m.deal, log.before_play
    (0, '2', True, ())
    """

    index: int
    seed: int
    dealt: tuple[Cards, ...]
    level: Rank
    level_side: int | None
    levels_before: tuple[Rank, Rank]
    opening: tuple[int, int] | None
    resisted: bool
    tributes: tuple[tuple[int, int, int], ...]
    returns: tuple[tuple[int, int, int], ...]
    before_play: tuple[Tribute | Return, ...]
    deal: Deal | None


def _names(cards: Sequence[int]) -> str:
    return " ".join(card_name(c) for c in cards)


def _given_hands(hands: Sequence[Sequence[CardsLike]] | None) -> list[tuple[Cards, ...]]:
    """The dealt hands given to a match, each deal's four checked now (at most 27 cards a seat,
    two copies of a face in all, some cards dealt), so that no later deal fails to start."""
    if hands is None:
        return []
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence):
        raise InvalidCardsError(f"hands are a list of deals, each four hands, got {describe(hands)}")
    out = []
    for k, four in enumerate(hands):
        if isinstance(four, (str, bytes, Cards)) or not isinstance(four, Sequence) or len(four) != 4:
            raise InvalidCardsError(f"hands[{k}]: four hands, one per seat, got {describe(four)}")
        dealt = tuple(as_cards(h) for h in four)
        if not any(dealt):
            raise InvalidCardsError(f"hands[{k}]: no cards dealt")
        try:
            Deal(dealt, 2, next(s for s in range(4) if dealt[s]))  # at most 27 a seat, two of a face
        except IllegalMoveError as error:  # a seat with no cards
            raise InvalidCardsError(f"hands[{k}]: {error}") from None
        except InvalidCardsError as error:
            raise InvalidCardsError(f"hands[{k}]: {error}") from None
        out.append(dealt)
    return out


class Match:
    """A match of deals under a ruleset (see the module's description).

    ``seed``: the match seed (deals and the opening card); ``ruleset``: a
    :class:`~guandan.game.rules.Ruleset` or a preset name. To start from a position in the
    middle of a match: ``levels`` (both sides'), ``previous`` (the finish order of the
    previous deal: the new deal then starts with its tribute), ``level_side`` (the side
    whose level is played when there is no previous deal and the levels differ),
    ``failures`` (failed deals at own A so far), ``deal_index`` (the number of the next
    deal, which picks its seed), ``hands`` (the dealt hands of the next deals).

    >>> m = Match(seed=3, levels=(5, 9), previous=(1, 0, 3, 2),
    ...           hands=[["S3 HR", "D4 HR", "S9", "C5"]])
    >>> m.phase.label, m.level.label, m.turn        # seat 2 came 4th but holds no big joker
    ('tribute', '9', 2)
    """

    def __init__(
        self,
        seed: int = 0,
        ruleset: Ruleset | str | None = None,
        *,
        levels: tuple[int | str | Rank, int | str | Rank] = (2, 2),
        previous: Sequence[int] | DealResult | None = None,
        level_side: int | None = None,
        failures: tuple[int, int] = (0, 0),
        deal_index: int = 0,
        hands: Sequence[Sequence[CardsLike]] | None = None,
    ) -> None:
        self.seed = check_int("a seed", seed)
        self.ruleset = get_ruleset(ruleset)
        if isinstance(levels, (str, bytes)) or not isinstance(levels, Sequence) or len(levels) != 2:
            raise InvalidCardsError(f"levels are both sides' levels, two ranks 2..A, got {describe(levels)}")
        self._levels = [parse_level(levels[0]), parse_level(levels[1])]
        if (
            not isinstance(failures, Sequence)
            or len(failures) != 2
            or not all(is_int(f) and f >= 0 for f in failures)
        ):
            raise GuandanError(f"failures are two ints >= 0 (failed deals at own A per side), got {describe(failures)}")
        self._failures = [int(failures[0]), int(failures[1])]
        deal_index = check_int("deal_index", deal_index, 0)
        level_side = check_int("level_side", level_side, 0, 1, optional=True, expected="a side 0 or 1,")
        start_previous: tuple[int, ...] | None = None
        if previous is not None:
            if not isinstance(previous, (DealResult, Sequence)) or isinstance(previous, (str, bytes)):
                raise IllegalMoveError(
                    f"previous is a finish order (a sequence of seats) or a DealResult, got {describe(previous)}"
                )
            result = previous if isinstance(previous, DealResult) else DealResult(tuple(previous))
            order = result.finish_order
            if not all(is_int(s) for s in order):
                raise IllegalMoveError(f"previous finish order must list seats 0..3, got {describe(order)}")
            if sorted(order) != sorted(set(order)) or not set(order) <= {0, 1, 2, 3} or len(order) not in (2, 4):
                raise IllegalMoveError(
                    f"previous finish order must be 2 (double-down) or 4 distinct seats, got {describe(order)}"
                )
            if len(order) == 2 and order[1] != order[0] ^ 2:
                raise IllegalMoveError(f"a two-seat finish order is a double-down (partners), got {describe(order)}")
            if len(order) == 4 and order[1] == order[0] ^ 2:
                raise IllegalMoveError(f"partners 1st and 2nd is a double-down: give only them, got {describe(order)}")
            self._previous: DealResult | None = result
            start_previous = order
            self._level_side: int | None = result.winning_side
        else:
            self._previous = None
            if level_side is None and self._levels[0] != self._levels[1]:
                raise IllegalMoveError("the sides' levels differ: say whose level is played (level_side)")
            self._level_side = level_side
        self._start = MatchStart(
            levels=(self._levels[0], self._levels[1]),
            previous=start_previous,
            level_side=level_side,
            failures=(self._failures[0], self._failures[1]),
            deal_index=deal_index,
            hands=tuple(_given_hands(hands)),
        )
        self._deal_index = deal_index
        self._deals_played = 0
        self._drops = 0
        self._summaries: list[DealSummary] = []
        self._archive: list[DealLog] = []
        self._over = False
        self._winner: int | None = None
        self._end_reason: str | None = None
        self._begin_deal()

    # -- automations: dealing, settling, scoring -------------------------------------------------

    def _deal_seed(self, index: int) -> int:
        return derive_seed(self.seed, index)

    def _begin_deal(self) -> None:
        k = self._deal_index
        seed = self._deal_seed(k)
        deck, position = shuffled_deck(seed)
        offset = k - self._start.deal_index
        if offset < len(self._start.hands):
            dealt = list(self._start.hands[offset])  # checked by _given_hands
        else:
            dealt = [dealt_hand(deck, i) for i in range(4)]
        self._dealt = tuple(dealt)
        self._hands = [bits_of_cards(h) for h in dealt]
        self._level_now = self._levels[self._level_side if self._level_side is not None else 0]
        self._levels_before = tuple(self._levels)
        self._pre: list[Any] = []
        self._payers: list[int] = []
        self._paid: list[tuple[int, int]] = []
        self._tributes: list[tuple[int, int, int]] = []
        self._returns: list[tuple[int, int, int]] = []
        self._owed: list[tuple[int, int]] = []  # (receiver, payer) returns still due
        self._resisted = False
        self._resisters: tuple[int, ...] = ()
        self._opening: tuple[int, int] | None = None
        self.deal: Deal | None = None
        prev = self._previous
        if prev is None:
            self._opening = (position, opening_leader(dealt, position)[1])
            self._start_play(opening_leader(dealt, position)[0])
            return
        payers = tribute_payers(prev)
        self._resisters = resists(payers, [h.counts for h in dealt])
        if self._resisters:
            self._resisted = True
            self._start_play(prev.first)
            return
        self._payers = list(payers)
        self._phase = Phase.TRIBUTE

    def _start_play(self, leader: int) -> None:
        self._leader = leader
        self.deal = Deal(
            [cards_of_bits(b) for b in self._hands],
            self._level_now,
            leader,
            ruleset=self.ruleset,
            seed=self._deal_seed(self._deal_index),
            opening=self._opening,
        )
        self._phase = Phase.PLAY

    def _settle_tribute(self) -> None:
        prev = self._previous
        assert prev is not None
        self._tributes, self._lead_after = settle_tributes(
            self._paid, prev, self._level_now, self.ruleset.double_tribute_tie
        )
        for _payer, receiver, card in self._tributes:
            self._hands[receiver] += face_bit(card)
        self._owed = [(receiver, payer) for payer, receiver, _ in self._tributes]
        self._phase = Phase.RETURN

    def _end_deal(self) -> None:
        deal = self.deal
        assert deal is not None and deal.is_over
        result = deal.result
        assert result is not None
        winner = result.winning_side
        own = self._level_side
        done = settle(
            (self._levels[0], self._levels[1]),
            own,
            (self._failures[0], self._failures[1]),
            winner,
            result.partner_place,
            self.ruleset,
        )
        passed, demoted = done.passed, done.demoted
        self._levels = list(done.levels)
        self._failures = list(done.failures)
        self._drops += demoted is not None
        self._deals_played += 1
        self._summaries.append(
            DealSummary(
                index=self._deal_index,
                level=self._level_now,
                level_side=own,
                levels_before=self._levels_before,  # type: ignore[arg-type]
                result=result,
                levels_after=tuple(self._levels),  # type: ignore[arg-type]
                tributes=tuple(self._tributes),
                returns=tuple(self._returns),
                resisted=self._resisted,
                leader=self._leader,
                passed_a=passed,
                demoted=demoted,
            )
        )
        self._archive.append(self._log())
        if passed:
            self._finish(winner, "passed A")
            return
        draw = self.ruleset.draw_after_drops
        if draw is not None and self._drops >= draw:
            self._finish(None, "draw")
            return
        cap = self.ruleset.max_deals
        if cap is not None and self._deals_played >= cap:
            a, b = self._levels
            self._finish(0 if a > b else 1 if b > a else winner, "deal cap")
            return
        self._previous = result
        self._level_side = winner
        self._deal_index += 1
        self._begin_deal()

    def _finish(self, winner: int | None, reason: str) -> None:
        self._over = True
        self._winner = winner
        self._end_reason = reason
        self._phase = Phase.OVER

    def _log(self) -> DealLog:
        return DealLog(
            index=self._deal_index,
            seed=self._deal_seed(self._deal_index),
            dealt=self._dealt,
            level=self._level_now,
            level_side=self._level_side,
            levels_before=self._levels_before,  # type: ignore[arg-type]
            opening=self._opening,
            resisted=self._resisted,
            tributes=tuple(self._tributes),
            returns=tuple(self._returns),
            before_play=tuple(self._pre),
            deal=self.deal,
        )

    # -- reading the state -----------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        """``TRIBUTE``, ``RETURN``, ``PLAY`` or ``OVER``."""
        return self._phase

    @property
    def turn(self) -> int | None:
        """The seat to act: the payer, the receiver, the player; ``None`` when over."""
        phase = self._phase
        if phase is Phase.PLAY:
            return self.deal._turn  # type: ignore[union-attr]
        if phase is Phase.TRIBUTE:
            return self._payers[len(self._paid)]
        if phase is Phase.RETURN:
            return self._owed[0][0]
        return None

    @property
    def levels(self) -> tuple[Rank, Rank]:
        """Both sides' levels (side 0: seats 0 and 2; side 1: seats 1 and 3)."""
        return tuple(self._levels)  # type: ignore[return-value]

    @property
    def failures(self) -> tuple[int, int]:
        """Failed deals at own A so far, per side (counted whatever the ruleset)."""
        return tuple(self._failures)  # type: ignore[return-value]

    @property
    def level(self) -> Rank:
        """The level of the current deal."""
        return self._level_now

    @property
    def level_side(self) -> int | None:
        """The side whose level the current deal is played at (``None`` if neither: a first deal)."""
        return self._level_side

    @property
    def deal_index(self) -> int:
        """The number of the current deal, from 0."""
        return self._deal_index

    @property
    def previous(self) -> DealResult | None:
        """The result of the previous deal (it decides the current tribute)."""
        return self._previous

    @property
    def results(self) -> tuple[DealSummary, ...]:
        """A summary of every finished deal."""
        return tuple(self._summaries)

    @property
    def start(self) -> MatchStart:
        """How the match was set up (the constructor's arguments, checked)."""
        return self._start

    @property
    def deal_logs(self) -> tuple[DealLog, ...]:
        """Every deal of the match so far, oldest first; while the match is not over, the
        deal under way is last (as it stands now)."""
        if self._over:
            return tuple(self._archive)
        return (*self._archive, self._log())

    @property
    def is_over(self) -> bool:
        """Whether the match has ended."""
        return self._over

    @property
    def winner(self) -> int | None:
        """The winning side once over (``None`` for a draw)."""
        return self._winner

    @property
    def end_reason(self) -> str | None:
        """``'passed A'``, ``'deal cap'`` or ``'draw'`` once over."""
        return self._end_reason

    @property
    def drops(self) -> int:
        """How many times a side has dropped back to 2 after failing at A, both sides counted."""
        return self._drops

    @property
    def hands(self) -> tuple[Cards, ...]:
        """The four hands now."""
        if self._phase in (Phase.TRIBUTE, Phase.RETURN):
            return tuple(cards_of_bits(b) for b in self._hands)
        assert self.deal is not None
        return self.deal.hands

    @property
    def dealt_hands(self) -> tuple[Cards, ...]:
        """The hands of the current deal as dealt, before the tribute."""
        return self._dealt

    @property
    def card_counts(self) -> tuple[int, int, int, int]:
        """How many cards each seat holds."""
        if self._phase in (Phase.TRIBUTE, Phase.RETURN):
            return tuple(size_of_bits(b) for b in self._hands)  # type: ignore[return-value]
        assert self.deal is not None
        return self.deal.card_counts

    @property
    def pending_tribute(self) -> tuple[int, ...]:
        """Tribute cards paid but not yet settled (on the table)."""
        return tuple(c for _, c in self._paid) if self._phase == Phase.TRIBUTE else ()

    @property
    def tributes(self) -> tuple[tuple[int, int, int], ...]:
        """The current deal's settled tribute: (payer, receiver, card) triples."""
        return tuple(self._tributes)

    @property
    def returns(self) -> tuple[tuple[int, int, int], ...]:
        """The current deal's returns so far: (receiver, payer, card) triples."""
        return tuple(self._returns)

    @property
    def returns_due(self) -> tuple[tuple[int, int], ...]:
        """The returns still due: (receiver, payer) pairs, the next first."""
        return tuple(self._owed)

    @property
    def resisted(self) -> bool:
        """Whether the current deal's tribute was resisted."""
        return self._resisted

    @property
    def resisters(self) -> tuple[int, ...]:
        """The seats that resisted the current deal's tribute: the payers holding a big joker
        (both big jokers between them), ``()`` when the tribute was not resisted.

        >>> Match(1).resisters
        ()
        """
        return self._resisters

    @property
    def payers(self) -> tuple[int, ...]:
        """The seats paying tribute in the current deal (in the order they act)."""
        return tuple(self._payers)

    @property
    def deal_history(self) -> tuple[Any, ...]:
        """The current deal's actions: tribute and return records, then plays."""
        plays = self.deal.history if self.deal is not None else ()
        return tuple(self._pre) + tuple(plays)

    @property
    def history(self) -> tuple[Any, ...]:
        """Every action of the match, oldest first."""
        out: list[Any] = []
        for entry in self._archive:
            assert entry.deal is not None  # a finished deal was played
            out += entry.before_play
            out += entry.deal.history
        if not self._over:
            out += self.deal_history
        return tuple(out)

    # -- legal actions ---------------------------------------------------------------------------

    def legal_actions(self) -> MoveList | tuple[int, ...]:
        """The legal actions of the seat to act: tribute or return cards (a tuple of card
        indices, ascending) or the legal moves (a :class:`~guandan.MoveList`).

        >>> m = Match(seed=3, levels=(5, 9), previous=(1, 0, 3, 2), hands=[["S3 HR", "D4 HR", "S8 SA DA", "C5"]])
        >>> [card_name(c) for c in m.legal_actions()]
        ['SA', 'DA']
        """
        if self._phase == Phase.TRIBUTE:
            payer = self._payers[len(self._paid)]
            return tribute_choices(cards_of_bits(self._hands[payer]).counts, self._level_now)
        if self._phase == Phase.RETURN:
            receiver = self._owed[0][0]
            return return_choices(
                cards_of_bits(self._hands[receiver]).counts, self._level_now, self.ruleset.return_rule
            )
        if self._phase == Phase.PLAY:
            assert self.deal is not None
            return self.deal.legal_moves()
        return ()

    # -- tribute ---------------------------------------------------------------------------------

    def verify_pay_tribute(self, card: int | str, seat: int | None = None) -> None:
        """Raise unless ``seat`` (default: the payer to act) may pay ``card`` as tribute now.

        >>> m = Match(seed=3, levels=(5, 9), previous=(1, 0, 3, 2), hands=[["S3 HR", "D4 HR", "S8 SA H9", "C5"]])
        >>> m.verify_pay_tribute("S8")
        Traceback (most recent call last):
        ...
        guandan.errors.IllegalMoveError: seat 2 must pay its highest card except a wild: SA, not S8
        """
        self._check_tribute(card, seat)

    def can_pay_tribute(self, card: int | str, seat: int | None = None) -> bool:
        """Whether ``seat`` may pay ``card`` as tribute now."""
        try:
            self._check_tribute(card, seat)
        except (IllegalMoveError, InvalidCardsError):
            return False
        return True

    def _check_tribute(self, card: int | str, seat: int | None) -> int:
        face = as_card(card)
        if self._phase != Phase.TRIBUTE:
            raise IllegalMoveError(
                f"no tribute is due now: the match is in the {self._phase.label} phase",
                reason=Reason.WRONG_PHASE, phase=self._phase, expected=Phase.TRIBUTE,
            )
        payer = self._payers[len(self._paid)]
        if seat is not None and (isinstance(seat, bool) or seat != payer):
            raise IllegalMoveError(
                f"not seat {seat}'s turn: seat {payer} pays tribute now",
                reason=Reason.NOT_TURN, seat=seat, turn=payer, phase=Phase.TRIBUTE,
            )
        counts = cards_of_bits(self._hands[payer]).counts
        if not counts[face]:
            raise IllegalMoveError(
                f"seat {payer} does not hold {card_name(face)}",
                reason=Reason.NOT_HELD, seat=payer, cards=Cards.from_cards([face]),
            )
        choices = tribute_choices(counts, self._level_now)
        if face not in choices:
            raise IllegalMoveError(
                f"seat {payer} must pay its highest card except a wild: {_names(choices)}, not {card_name(face)}",
                reason=Reason.TRIBUTE_NOT_ALLOWED, seat=payer, expected=choices, got=face,
            )
        return face

    def pay_tribute(self, card: int | str, seat: int | None = None) -> Tribute:
        """Pay ``card`` as tribute (checked as :meth:`verify_pay_tribute`) and return the record.

        >>> m = Match(seed=3, levels=(5, 9), previous=(1, 0, 3, 2), hands=[["S3 HR", "D4 HR", "S8 SA DA", "C5"]])
        >>> print(m.pay_tribute("DA")); m.phase.label, m.turn
        seat 2: tribute DA
        ('return', 1)
        """
        face = self._check_tribute(card, seat)
        payer = self._payers[len(self._paid)]
        self._hands[payer] -= 1 << (2 * face)
        self._paid.append((payer, face))
        record = Tribute(payer, face)
        self._pre.append(record)
        if len(self._paid) == len(self._payers):
            self._settle_tribute()
        return record

    # -- return ----------------------------------------------------------------------------------

    def verify_return_card(self, card: int | str, seat: int | None = None) -> None:
        """Raise unless ``seat`` (default: the receiver to act) may return ``card`` now."""
        self._check_return(card, seat)

    def can_return_card(self, card: int | str, seat: int | None = None) -> bool:
        """Whether ``seat`` may return ``card`` now."""
        try:
            self._check_return(card, seat)
        except (IllegalMoveError, InvalidCardsError):
            return False
        return True

    def _check_return(self, card: int | str, seat: int | None) -> int:
        face = as_card(card)
        if self._phase != Phase.RETURN:
            raise IllegalMoveError(
                f"no return is due now: the match is in the {self._phase.label} phase",
                reason=Reason.WRONG_PHASE, phase=self._phase, expected=Phase.RETURN,
            )
        receiver = self._owed[0][0]
        if seat is not None and (isinstance(seat, bool) or seat != receiver):
            raise IllegalMoveError(
                f"not seat {seat}'s turn: seat {receiver} returns a card now",
                reason=Reason.NOT_TURN, seat=seat, turn=receiver, phase=Phase.RETURN,
            )
        counts = cards_of_bits(self._hands[receiver]).counts
        if not counts[face]:
            raise IllegalMoveError(
                f"seat {receiver} does not hold {card_name(face)}",
                reason=Reason.NOT_HELD, seat=receiver, cards=Cards.from_cards([face]),
            )
        choices = return_choices(counts, self._level_now, self.ruleset.return_rule)
        if face not in choices:
            rule = (
                "a card of rank 2 to 10 that is not of the level rank (or, holding none, its lowest card)"
                if self.ruleset.return_rule == "low"
                else "any card"
            )
            raise IllegalMoveError(
                f"seat {receiver} must return {rule}: {_names(choices)}, not {card_name(face)}",
                reason=Reason.RETURN_NOT_ALLOWED, seat=receiver, expected=choices, got=face,
                rule=self.ruleset.return_rule,
            )
        return face

    def return_card(self, card: int | str, seat: int | None = None) -> Return:
        """Return ``card`` to the seat that paid the tribute (checked as :meth:`verify_return_card`).

        >>> m = Match(seed=3, levels=(5, 9), previous=(1, 0, 3, 2), hands=[["S3 HR", "D4 HR", "S8 SA DA", "C5"]])
        >>> _ = m.pay_tribute("DA")
        >>> m.can_return_card("HR"), m.can_return_card("D4")
        (False, True)
        >>> print(m.return_card("D4")); m.phase.label, m.turn
        seat 1: return D4 to seat 2
        ('play', 2)
        """
        face = self._check_return(card, seat)
        receiver, payer = self._owed.pop(0)
        self._hands[receiver] -= 1 << (2 * face)
        self._hands[payer] += 1 << (2 * face)
        self._returns.append((receiver, payer, face))
        record = Return(receiver, payer, face)
        self._pre.append(record)
        if not self._owed:
            self._start_play(self._lead_after)
        return record

    # -- play ------------------------------------------------------------------------------------

    def _playing_deal(self) -> Deal:
        """The deal being played; an IllegalMoveError when the match is in another phase."""
        if self._phase is not Phase.PLAY:
            raise IllegalMoveError(
                f"no play now: the match is in the {self._phase.label} phase",
                reason=Reason.WRONG_PHASE, phase=self._phase, expected=Phase.PLAY,
            )
        assert self.deal is not None
        return self.deal

    def verify_play(self, move: Move | RankMove, seat: int | None = None) -> None:
        """Raise unless ``move`` is legal for ``seat`` now (see :meth:`Deal.verify_play`)."""
        self._playing_deal().verify_play(move, seat)

    def can_play(self, move: Move | RankMove, seat: int | None = None) -> bool:
        """Whether ``move`` is legal for ``seat`` now."""
        return self._phase == Phase.PLAY and self.deal is not None and self.deal.can_play(move, seat)

    def play(self, move: Move | RankMove, seat: int | None = None) -> Play:
        """Play a move in the current deal; when it ends the deal, score it and start the next.

        >>> m = Match(seed=1, levels=(9, 4), level_side=0, hands=[["S3", "S4", "S5", "S6"]])
        >>> leader = m.turn; _ = m.play(m.legal_actions()[0])
        >>> m.deal.finish_order == (leader,), m.results
        (True, ())
        """
        deal = self._playing_deal()
        record = deal.play(move, seat)
        if deal.is_over:
            self._end_deal()
        return record

    def play_index(self, index: int) -> None:
        """Play the move at ``index`` of :meth:`legal_actions` (the fast path, see :meth:`Deal.play_index`)."""
        deal = self._playing_deal()
        deal.play_index(index)
        if deal._over:
            self._end_deal()

    def play_canonical(self, word: int) -> None:
        """Play a rank-level word with its cards chosen canonically (see :meth:`Deal.play_canonical`).

        >>> m = Match(seed=1, levels=(9, 4), level_side=0, hands=[["S3", "S4", "S5", "S6"]])
        >>> m.play_canonical(int(m.deal.legal_moves("rank").array[0])); len(m.deal.history)
        1
        """
        deal = self._playing_deal()
        deal.play_canonical(word)
        if deal._over:
            self._end_deal()

    def act(self, action: Move | RankMove | int | str, seat: int | None = None) -> Any:
        """Apply an agent's action for the current phase: a card to pay or return, or a move."""
        if self._phase == Phase.TRIBUTE:
            return self.pay_tribute(action, seat)  # type: ignore[arg-type]
        if self._phase == Phase.RETURN:
            return self.return_card(action, seat)  # type: ignore[arg-type]
        return self.play(action, seat)  # type: ignore[arg-type]

    # -- observing, copying, comparing -----------------------------------------------------------

    def observation(self, seat: int) -> Observation:
        """What ``seat`` sees now (its legal actions only if it is to act).

        >>> obs = Match(seed=1).observation(2)
        >>> obs.levels, obs.deal_index, obs.phase.label
        ((<Rank.TWO: 2>, <Rank.TWO: 2>), 0, 'play')
        """
        if type(seat) is not int or not 0 <= seat <= 3:
            seat = check_seat(seat)
        if self._phase is Phase.PLAY:
            return self.deal.observation(  # type: ignore[union-attr]
                seat,
                prefix=tuple(self._pre),
                levels=tuple(self._levels),
                level_side=self._level_side,
                deal_index=self._deal_index,
            )
        info: dict[str, Any] = {
            "levels": tuple(self._levels),
            "level_side": self._level_side,
            "deal_index": self._deal_index,
        }
        if self._phase == Phase.OVER and self.deal is not None:  # the last deal, as it ended
            obs = self.deal.observation(seat, prefix=tuple(self._pre), **info)
            return obs.replace(phase=Phase.OVER, turn=None, legal_actions=(), beat=None)
        turn = self.turn
        return Observation(
            seat=seat,
            phase=self._phase,
            level=self._level_now,
            turn=turn,
            card_counts=self.card_counts,
            finish_order=(),
            legal_actions=self.legal_actions() if turn == seat else (),
            packed_hand=self._hands[seat],
            beat=None,
            history=History(tuple(self._pre), (), self._level_now),
            ruleset=self.ruleset,
            **info,
        )

    def copy(self) -> Match:
        """An independent copy (the current deal copied; finished deals shared, being final).

        >>> m = Match(seed=1); twin = m.copy(); _ = m.play(m.legal_actions()[0])
        >>> twin == m, len(twin.history), len(m.history)
        (False, 0, 1)
        """
        other = Match.__new__(Match)
        other.__dict__.update(self.__dict__)
        for name in (
            "_levels",
            "_failures",
            "_summaries",
            "_archive",
            "_hands",
            "_pre",
            "_payers",
            "_paid",
            "_tributes",
            "_returns",
            "_owed",
        ):
            setattr(other, name, list(getattr(self, name)))
        other.deal = self.deal.copy() if self.deal is not None else None
        if self._over and self._archive:
            other._archive[-1] = replace(self._archive[-1], deal=other.deal)
        return other

    def snapshot(self) -> tuple[Any, ...]:
        """The full state as a tuple of plain values: two matches are equal when their snapshots are."""
        deals = tuple(
            (e.index, e.dealt, e.level, e.level_side, e.before_play, e.deal.snapshot() if e.deal is not None else None)
            for e in self._archive
        )
        return (
            self.seed,
            self.ruleset,
            tuple(self._levels),
            tuple(self._failures),
            self._deal_index,
            self._phase,
            self._level_side,
            self._level_now,
            self._previous,
            self._dealt,
            tuple(self._hands),
            tuple(self._pre),
            tuple(self._paid),
            tuple(self._tributes),
            tuple(self._returns),
            tuple(self._owed),
            self._resisted,
            self.deal.snapshot() if self.deal is not None else None,
            tuple(self._summaries),
            deals,
            self._drops,
            self._over,
            self._winner,
            self._end_reason,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Match):
            return NotImplemented
        return self.snapshot() == other.snapshot()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        lv = "/".join(level.label for level in self._levels)
        return f"<Match deal {self._deal_index} {self._phase.label} level {self._level_now.label} levels {lv}>"
