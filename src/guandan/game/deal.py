"""One deal as a state machine: the deal, the tricks, going out, jiefeng, the end (rules §6).

Seats are numbered 0..3; partners sit opposite (seats 0 and 2 are side 0, seats 1 and 3
side 1). Play passes from seat ``s`` to seat ``(s + 1) % 4``: this models the table's
counter-clockwise order, so seat ``s + 1`` sits at ``s``'s right.

>>> deal = Deal.new(seed=2026, level=2, leader=0)
>>> deal.turn, deal.level.label, [len(h) for h in deal.hands]
(0, '2', [27, 27, 27, 27])
>>> move = sort_moves(deal.legal_moves())[0]    # the weakest lead
>>> print(deal.play(move))
seat 0: single 3: H3
>>> deal.turn, deal.to_beat.seat, deal.card_counts
(1, 0, (26, 27, 27, 27))
>>> print(deal.undo())
seat 0: single 3: H3
>>> deal.card_counts
(27, 27, 27, 27)

**Dealing.** :meth:`Deal.new` builds the 108-card deck as the list of faces 0..53 each
twice, in order (``[0, 0, 1, 1, …, 53, 53]``), shuffles it with
``SplitMix64(seed).shuffle`` and deals seat ``i`` the cards ``deck[27 i : 27 i + 27]``.
The same generator then draws the *opening card* ``p = below(108)`` (as if one card
were turned face up): its holder, seat ``p // 27``, leads when no leader is given (the
first deal of a match). The card itself is the ``p % 27``-th card of that seat's hand
in ascending face order (:attr:`Deal.opening_card`).

**Tricks.** The leader plays any combination; each following seat still holding cards
beats the last play or passes. A pass does not remove a seat from the trick. When every
other seat still holding cards has passed since the last play, the last player leads
again. Finished seats are skipped.

**Going out and jiefeng.** A seat that plays its last card takes the next free place;
the others may still answer that play. If all of them pass, the lead goes to its partner
(*jiefeng*); if the partner is out too, to the next seat after it still holding cards
(under these rules that case cannot arise in play: when a seat goes out after its
partner, its side is complete and the deal is over — see :func:`jiefeng_leader`).

**End.** When partners finish 1st and 2nd (double-down) the deal ends at once and the
two losers have no order; otherwise play goes on until 3rd is decided, and the remaining
seat is 4th.

**Speed.** Hands are packed 108-bit integers (2 bits per face, the layout of the native
core); the legal moves of a position come from the native core straight from the packed
hand as a :class:`~guandan.MoveList` kept packed, cached until the state changes; a move taken
from that list is recognised without re-checking it; :meth:`Deal.undo` restores a few
integers; :meth:`Deal.copy` copies a few lists. Plays are kept packed in the history
and become :class:`Play` records when read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, overload

import numpy as np

from ..core.cards import NUM_FACES, Cards, CardsLike, Rank, as_cards, card_name, parse_level, wild_card
from ..core.movegen import MoveList, check_granularity, pack_move, pack_rank_move, packed_card_moves, rank_moves
from ..core.moves import AnyMove, Move, MoveType, RankMove
from ..core.notation import declaration, sort_moves  # noqa: F401  (sort_moves: used by the examples)
from ..core.order import beats
from ..core.packed import (
    HAND_SIZE,
    MASK52,
    MASK64,
    PASS_WORD,
    DealState,
    bits_of_cards,
    canonical_words,
    card_to_rank,
    cards_of_bits,
    hand_words,
    move_bits,
    size_of_bits,
    unpack_cards,
)
from ..core.rng import rng_draws
from ..errors import (
    GuandanError,
    IllegalMoveError,
    InvalidCardsError,
    InvalidMoveError,
    Reason,
    check_int,
    describe,
    is_int,
)
from .history import History, Phase, Play, decode_move
from .observation import Observation
from .rules import Ruleset, get_ruleset
from .scoring import DealResult

__all__ = [
    "Deal",
    "deal_hands",
    "dealt_hand",
    "shuffled_deck",
    "opening_position",
    "opening_leader",
    "jiefeng_leader",
    "partner",
    "side",
]

_PASS_HI = PASS_WORD  # the pass's second word (its first is 0)
_DECK = tuple(face for face in range(NUM_FACES) for _ in range(2))
_BYTES_7D = int.from_bytes(b"\x7d" * NUM_FACES, "little")  # + 0x7D sets a byte's top bit iff it was > 2
_BYTES_80 = int.from_bytes(b"\x80" * NUM_FACES, "little")
_SHUFFLE_BOUNDS = [*range(108, 1, -1), 108]  # Fisher-Yates from the end, then the opening card


def _is_seat(value: object) -> bool:
    return is_int(value) and 0 <= value <= 3  # type: ignore[operator]  # an integer here


def check_seat(value: object, what: str = "a seat") -> int:
    """A seat number checked: an int 0..3, else :class:`~guandan.errors.ArgumentError`.

    >>> check_seat(2)
    2
    """
    return check_int(what, value, 0, 3, expected="a seat 0..3")


def partner(seat: int) -> int:
    """The seat opposite.

    >>> partner(0), partner(3)
    (2, 1)
    """
    return seat ^ 2


def side(seat: int) -> int:
    """The side of a seat: 0 for seats 0 and 2, 1 for seats 1 and 3.

    >>> side(2), side(3)
    (0, 1)
    """
    return seat & 1


def shuffled_deck(seed: int) -> tuple[list[int], int]:
    """The 108 cards of a seeded deal in dealt order (seat ``i`` is dealt ``deck[27 i : 27 i + 27]``)
    and the position 0..107 of the card turned face up (see the module's description of dealing).

    >>> deck, position = shuffled_deck(0)
    >>> len(deck), sorted(deck) == sorted(list(range(54)) * 2), position == opening_position(0)
    (108, True, True)
    """
    seed = check_int("a seed", seed)
    # SplitMix64(seed).shuffle(deck) then .below(108), with the generator's draws made natively
    # (the same numbers: tests/game/test_deal.py)
    draws = rng_draws(seed, _SHUFFLE_BOUNDS)
    deck = list(_DECK)
    for i, j in zip(range(107, 0, -1), draws):
        deck[i], deck[j] = deck[j], deck[i]
    return deck, draws[-1]


def deal_hands(seed: int) -> tuple[Cards, Cards, Cards, Cards]:
    """The four hands of a seeded deal (see the module's description of dealing).

    >>> print(deal_hands(0)[0].format("text")[:23])
    D2 S3 D3 H4 H5 C5 H6 C6
    """
    deck, _ = shuffled_deck(seed)
    return tuple(dealt_hand(deck, i) for i in range(4))  # type: ignore[return-value]


def dealt_hand(deck: Sequence[int], seat: int) -> Cards:
    """The hand dealt to ``seat`` from a deck of :func:`shuffled_deck` (``deck[27 seat : 27 seat + 27]``;
    the deck is a permutation of the double deck, so no face appears more than twice).

    >>> deck, _ = shuffled_deck(0)
    >>> dealt_hand(deck, 0) == deal_hands(0)[0], len(dealt_hand(deck, 3))
    (True, 27)
    """
    counts = bytearray(NUM_FACES)
    for face in deck[27 * seat : 27 * seat + 27]:
        counts[face] += 1
    return Cards._trusted(bytes(counts))


def opening_position(seed: int) -> int:
    """The position 0..107 of the card turned face up in the seeded deal: seat ``p // 27`` leads.

    >>> opening_position(0) // 27 in range(4)
    True
    """
    return shuffled_deck(seed)[1]


def opening_leader(hands: Sequence[Cards], position: int) -> tuple[int, int]:
    """The seat holding, and the face of, the card at ``position`` among the dealt cards
    (seat 0's cards in ascending order, then seat 1's, …; ``position`` taken modulo their number).

    >>> from guandan import card_name
    >>> seat, face = opening_leader([Cards.parse("S3 S4"), Cards.parse("D9"), Cards(), Cards.parse("HA")], 2)
    >>> seat, card_name(face)
    (1, 'D9')
    """
    total = sum(len(h) for h in hands)
    if not total:
        raise InvalidCardsError("no cards dealt")
    i = position % total
    for seat, hand in enumerate(hands):
        if i < len(hand):
            return seat, list(hand)[i]
        i -= len(hand)
    raise AssertionError("unreachable")  # pragma: no cover


def jiefeng_leader(seat: int, holding: Sequence[int]) -> int:
    """Who leads when every remaining seat passed the play with which ``seat`` went out:
    its partner if still holding cards, else the next seat after ``seat`` still holding
    cards (``holding``: the card count of each seat).

    >>> jiefeng_leader(1, [5, 0, 0, 3])
    3
    >>> jiefeng_leader(1, [5, 0, 4, 0])
    2
    """
    seat = check_seat(seat)
    if isinstance(holding, (str, bytes)) or not isinstance(holding, Sequence) or len(holding) != 4:
        raise GuandanError(f"holding is the card count of each of the four seats, got {describe(holding)}")
    mate = seat ^ 2
    if holding[mate]:
        return mate
    for step in (1, 2, 3):
        s = (seat + step) & 3
        if holding[s]:
            return s
    raise GuandanError("no seat holds cards")


class _DealMoves(MoveList):
    """The legal moves of a deal's current position; remembers the moves it made, so that
    playing one of them needs no re-check."""

    __slots__ = ("_made",)

    def __init__(self, array: np.ndarray, level: Rank) -> None:
        super().__init__(array, level, "card")
        self._made: dict[int, tuple[int, Move]] = {}

    def _make(self, i: int) -> Move:
        lo, hi = self.array[i].tolist()
        move = decode_move(lo, hi, self.level)
        self._made[id(move)] = (i, move)
        return move

    @overload
    def __getitem__(self, i: int) -> AnyMove: ...
    @overload
    def __getitem__(self, i: slice) -> list[AnyMove]: ...
    def __getitem__(self, i: int | slice) -> AnyMove | list[AnyMove]:
        if type(i) is int and 0 <= i < len(self.array):
            return self._make(i)
        return super().__getitem__(i)

    def index_of(self, move: object) -> int:
        """The index of a move this list made, else -1."""
        entry = self._made.get(id(move))
        return entry[0] if entry is not None and entry[1] is move else -1


def _single_suited(array: np.ndarray, level: Rank) -> np.ndarray:
    """Rows whose natural (non-wild) cards all share one suit."""
    wild = wild_card(level)
    wild_lo = (3 << (2 * wild)) if wild < 32 else 0
    wild_hi = (3 << (2 * (wild - 32))) if wild >= 32 else 0
    lo = array[:, 0] & np.uint64(~wild_lo & MASK64)
    hi = array[:, 1] & np.uint64(MASK52 & ~wild_hi)
    out = np.zeros(len(array), dtype=bool)
    for s in range(4):
        m_lo = sum(3 << (2 * f) for f in range(32) if f % 4 == s)
        m_hi = sum(3 << (2 * (f - 32)) for f in range(32, 52) if f % 4 == s)
        out |= ((lo & np.uint64(~m_lo & MASK64)) == 0) & ((hi & np.uint64(~m_hi & MASK64)) == 0)
    return out


# -- the deal --------------------------------------------------------------------------------------


class Deal:
    """A deal in play: four hands, a level, the trick, the finish order, the history.

    Build one with :meth:`Deal.new` (a seeded deal) or from chosen hands::

        Deal(hands, level=2, leader=0)

    ``hands``: four card sets (:class:`~guandan.Cards`, strings or card indices), no face
    more than twice in all; ``finish_order``: seats already out (their hands empty), for
    positions set up mid-deal; ``ruleset``: a :class:`~guandan.game.rules.Ruleset` or preset
    name (only its ``plain_straight_flush`` matters to a deal).

    >>> deal = Deal(["S3 S4", "S9", "", "D5 D6"], level=2, leader=3, finish_order=(2,))
    >>> deal.turn, deal.finish_order, deal.card_counts
    (3, (2,), (2, 1, 0, 2))
    """

    __slots__ = (
        "_level",
        "_lvl",
        "_ruleset",
        "_hands",
        "_counts",
        "_turn",
        "_last",
        "_beat",
        "_beat_lo",
        "_beat_hi",
        "_passes",
        "_trick_start",
        "_finished",
        "_over",
        "_log",
        "_undo",
        "_moves",
        "_initial",
        "_initial_finished",
        "_leader",
        "seed",
        "opening",
    )

    def __init__(
        self,
        hands: Sequence[CardsLike],
        level: int | str | Rank = 2,
        leader: int = 0,
        *,
        finish_order: Sequence[int] = (),
        ruleset: Ruleset | str | None = None,
        seed: int | None = None,
        opening: tuple[int, int] | None = None,
    ) -> None:
        if isinstance(hands, (str, bytes, Cards)) or not isinstance(hands, Sequence) or len(hands) != 4:
            raise InvalidCardsError(f"a deal has four hands, one per seat, got {describe(hands)}")
        cards = [as_cards(h) for h in hands]
        for seat, h in enumerate(cards):
            if len(h) > HAND_SIZE:
                raise InvalidCardsError(f"seat {seat} holds {len(h)} cards: a seat is dealt {HAND_SIZE}")
        seed = check_int("a seed", seed, optional=True)
        if opening is not None and (
            not isinstance(opening, tuple) or len(opening) != 2 or not all(isinstance(x, int) for x in opening)
        ):
            raise GuandanError(f"opening is (position, card) or None, got {describe(opening)}")
        # each face's count over the four hands, a byte a face (at most 8: no carry between faces)
        if sum(int.from_bytes(h.counts, "little") for h in cards) + _BYTES_7D & _BYTES_80:
            total = bytearray(NUM_FACES)
            for h in cards:
                for face, n in enumerate(h.counts):
                    total[face] += n
                    if total[face] > 2:
                        raise InvalidCardsError(f"{card_name(face)} is dealt more than twice (the double deck has 2)")
        self._level = parse_level(level)
        self._lvl = int(self._level)
        self._ruleset = get_ruleset(ruleset)
        self._hands = [bits_of_cards(h) for h in cards]
        self._counts = [len(h) for h in cards]
        if isinstance(finish_order, (str, bytes)) or not isinstance(finish_order, Sequence):
            raise IllegalMoveError(f"finish order must be a sequence of seats 0..3, got {describe(finish_order)}")
        if not all(_is_seat(s) for s in finish_order):
            raise IllegalMoveError(f"finish order must list distinct seats 0..3, got {describe(tuple(finish_order))}")
        finished = [int(s) for s in finish_order]
        if len(set(finished)) != len(finished):
            raise IllegalMoveError(f"finish order must list distinct seats 0..3, got {describe(tuple(finish_order))}")
        for seat in range(4):
            if (seat in finished) != (self._counts[seat] == 0):
                state = "has finished but holds cards" if seat in finished else "holds no cards but has not finished"
                raise IllegalMoveError(f"seat {seat} {state}")
        if len(finished) >= 3 or (len(finished) >= 2 and finished[1] == finished[0] ^ 2):
            raise IllegalMoveError(f"finish order {tuple(finished)} has already ended the deal")
        if not _is_seat(leader):
            raise IllegalMoveError(f"the leader is a seat 0..3, got {describe(leader)}")
        leader = int(leader)
        if not self._counts[leader]:
            raise IllegalMoveError(f"the leader, seat {leader}, holds no cards")
        self._turn: int | None = leader
        self._last = -1
        self._beat = PASS_WORD
        self._beat_lo = 0
        self._beat_hi = _PASS_HI
        self._passes = 0
        self._trick_start = 0
        self._finished = finished
        self._over = False
        self._log: list[tuple[int, int, int]] = []
        self._undo: list[tuple[Any, ...]] = []
        self._moves: _DealMoves | None = None
        self._initial = tuple(self._hands)
        self._initial_finished = tuple(finished)
        self._leader = leader
        self.seed = seed
        self.opening = opening

    @classmethod
    def new(
        cls,
        seed: int,
        level: int | str | Rank = 2,
        leader: int | None = None,
        *,
        ruleset: Ruleset | str | None = None,
    ) -> Deal:
        """A seeded deal (see the module's description of dealing); with ``leader=None`` the
        holder of the opening card leads.

        >>> deal = Deal.new(0)
        >>> deal.leader == deal.opening[0] // 27, deal.hands == deal_hands(0)
        (True, True)
        """
        deck, position = shuffled_deck(seed)
        hands = [dealt_hand(deck, i) for i in range(4)]
        holder, opening_card = opening_leader(hands, position)
        return cls(
            hands,
            level,
            holder if leader is None else leader,
            ruleset=ruleset,
            seed=seed,
            opening=(position, opening_card),
        )

    # -- reading the state ---------------------------------------------------------------------

    @property
    def level(self) -> Rank:
        """The deal's level rank."""
        return self._level

    @property
    def ruleset(self) -> Ruleset:
        """The ruleset (a deal uses only its ``plain_straight_flush``)."""
        return self._ruleset

    @property
    def levels(self) -> tuple[Rank, Rank]:
        """Both sides' levels, as a match has them: a single deal's level for both
        (:class:`~guandan.game.protocol.Game`)."""
        return (self._level, self._level)

    @property
    def deal(self) -> Deal:
        """The deal in play: the deal itself, as a match's is its current deal
        (:class:`~guandan.game.protocol.Game`)."""
        return self

    @property
    def turn(self) -> int | None:
        """The seat to play, ``None`` once the deal is over."""
        return self._turn

    @property
    def leader(self) -> int:
        """The seat that led the first trick."""
        return self._leader

    @property
    def opening_card(self) -> int | None:
        """The card turned face up to choose the first leader (seeded deals), else ``None``."""
        return None if self.opening is None else self.opening[1]

    @property
    def phase(self) -> Phase:
        """``Phase.PLAY`` or ``Phase.OVER``."""
        return Phase.OVER if self._over else Phase.PLAY

    @property
    def hands(self) -> tuple[Cards, ...]:
        """The four hands now."""
        return tuple(cards_of_bits(b) for b in self._hands)

    def hand(self, seat: int) -> Cards:
        """One seat's hand now."""
        return cards_of_bits(self._hands[check_seat(seat)])

    @property
    def initial_hands(self) -> tuple[Cards, ...]:
        """The four hands the deal started with."""
        return tuple(cards_of_bits(b) for b in self._initial)

    @property
    def initial_finish_order(self) -> tuple[int, ...]:
        """The seats already out when the deal was set up (``finish_order`` given to the constructor).

        >>> Deal(["S3", "", "S9", "D5"], level=2, leader=0, finish_order=(1,)).initial_finish_order
        (1,)
        """
        return self._initial_finished

    @property
    def card_counts(self) -> tuple[int, int, int, int]:
        """How many cards each seat holds (public)."""
        return tuple(self._counts)  # type: ignore[return-value]

    @property
    def to_beat(self) -> Play | None:
        """The play to beat and its seat, ``None`` when the seat to play leads."""
        if self._last < 0:
            return None
        return Play(self._last, decode_move(self._beat_lo, self._beat_hi, self._level))

    @property
    def is_leading(self) -> bool:
        """Whether the seat to play leads (there is no play to beat)."""
        return self._last < 0

    @property
    def finish_order(self) -> tuple[int, ...]:
        """Seats out so far, first place first (with the 4th appended once the deal is over)."""
        return tuple(self._finished)

    @property
    def is_over(self) -> bool:
        """Whether the deal has ended."""
        return self._over

    @property
    def result(self) -> DealResult | None:
        """The result once the deal is over, else ``None``."""
        return DealResult(tuple(self._finished)) if self._over else None

    @property
    def history(self) -> tuple[Play, ...]:
        """Every play and pass so far, oldest first."""
        lvl = self._level
        return tuple(Play(s, decode_move(lo, hi, lvl)) for s, lo, hi in self._log)

    @property
    def trick(self) -> tuple[Play, ...]:
        """The plays and passes of the current trick."""
        lvl = self._level
        return tuple(Play(s, decode_move(lo, hi, lvl)) for s, lo, hi in self._log[self._trick_start :])

    @property
    def packed_plays(self) -> tuple[tuple[int, int, int], ...]:
        """Every play and pass so far as the deal keeps them, ``(seat, lo, hi)`` (the move's two
        packed words), oldest first: read without decoding a move (the history's counts).

        >>> from guandan.core.packed import word_type
        >>> deal = Deal(["S3 S4", "S9", "D5", "D6"], level=2, leader=0); deal.play_index(0)
        >>> [(seat, word_type(hi)) for seat, lo, hi in deal.packed_plays]
        [(0, 1)]
        """
        return tuple(self._log)

    @property
    def ply(self) -> int:
        """How many plays and passes have been made."""
        return len(self._log)

    def native_state(self) -> DealState:
        """The native core's state of this deal in progress (what playouts, perft and the
        native policies take), from the deal's packed fields: no card or move is made.
        Raises :class:`~guandan.IllegalMoveError` once the deal is over.

        >>> deal = Deal.new(seed=7, level=2, leader=0)
        >>> state = deal.native_state()
        >>> state.turn, state.level, [cards_of_bits(h) for h in state.hands] == list(deal.hands)
        (0, 2, True)
        """
        if self._over or self._turn is None:
            raise IllegalMoveError("the deal is over: there is nothing to play out")
        return DealState(tuple(self._hands), self._lvl, self._turn, self._last, self._beat, self._passes,
                         tuple(self._finished))  # fmt: skip

    # -- legal moves ---------------------------------------------------------------------------

    def legal_moves(self, granularity: str = "card") -> MoveList:
        """The legal moves of the seat to play (the pass last when responding); empty when over.

        At card granularity the list is cached until the state changes, and a move taken
        from it is played without re-checking.

        >>> deal = Deal(["S5 C5 H2", "S9", "D5", "D6"], level=2, leader=0)
        >>> len(deal.legal_moves()), len(deal.legal_moves("rank"))
        (7, 5)
        >>> deal.legal_moves() is deal.legal_moves()
        True
        """
        if granularity == "card":
            moves = self._moves
            if moves is None:
                moves = self._moves = _DealMoves(self._generate(), self._level)
            return moves
        if granularity == "rank":
            if self._over:
                return MoveList(np.empty(0, dtype=np.uint64), self._level, "rank")
            h = self._hands[self._turn]  # type: ignore[index]
            arr = rank_moves(unpack_cards(*hand_words(h)), self._lvl, self._beat)
            arr.flags.writeable = False
            return MoveList(arr, self._level, "rank")
        check_granularity(granularity)  # neither: raises the error naming it
        raise AssertionError("unreachable")  # pragma: no cover

    def _generate(self) -> np.ndarray:
        if self._over:
            arr = np.empty((0, 2), dtype=np.uint64)
        else:
            h = self._hands[self._turn]  # type: ignore[index]
            arr = packed_card_moves(*hand_words(h), self._lvl, self._beat)
            if not self._ruleset.plain_straight_flush:
                straight = (arr[:, 1] >> np.uint64(60)) == MoveType.STRAIGHT
                if straight.any():
                    drop = straight.copy()
                    drop[straight] = _single_suited(arr[straight], self._level)
                    arr = arr[~drop]
        arr.flags.writeable = False
        return arr

    # -- playing -------------------------------------------------------------------------------

    def verify_play(self, move: Move | RankMove, seat: int | None = None) -> None:
        """Raise unless ``move`` is legal for ``seat`` (default: the seat to play) now.

        :class:`~guandan.IllegalMoveError` names the problem: the deal is over, not this
        seat's turn, wrong level, a pass when leading, cards not held, does not beat the
        play, dropped by the ruleset; :class:`~guandan.InvalidMoveError` for cards that are
        not the declared combination.

        >>> from guandan import Move, classify
        >>> deal = Deal(["S3 S4", "S9", "D5", "D6"], level=2, leader=0)
        >>> deal.verify_play(Move.pass_(2))
        Traceback (most recent call last):
        ...
        guandan.errors.IllegalMoveError: seat 0 leads and cannot pass
        >>> deal.verify_play(classify("S9", 2)[0])
        Traceback (most recent call last):
        ...
        guandan.errors.IllegalMoveError: seat 0 does not hold S9
        """
        self._resolve(move, seat)

    def can_play(self, move: Move | RankMove, seat: int | None = None) -> bool:
        """Whether ``move`` is legal for ``seat`` (default: the seat to play) now.

        >>> from guandan import classify
        >>> deal = Deal(["S3 S4", "S9", "D5", "D6"], level=2, leader=0)
        >>> deal.can_play(classify("S3", 2)[0]), deal.can_play(classify("S3", 2)[0], seat=1)
        (True, False)
        """
        try:
            self._resolve(move, seat)
        except (IllegalMoveError, InvalidMoveError):
            return False
        return True

    def play(self, move: Move | RankMove, seat: int | None = None) -> Play:
        """Play ``move`` for the seat to play (checked as :meth:`verify_play`; an illegal move
        raises and changes nothing) and return its :class:`Play` record.

        A :class:`~guandan.RankMove` is played with the physical cards of the first
        card-level legal move that has it as its rank-level move.

        >>> from guandan import Move
        >>> deal = Deal(["S3 S4", "S9", "D5", "D6"], level=2, leader=0)
        >>> print(deal.play(deal.legal_moves()[1])); print(deal.play(Move.pass_(2), seat=1))
        seat 0: single 4: S4
        seat 1: pass
        """
        lo, hi = self._resolve(move, seat)
        player = self._turn
        self._apply(lo, hi)
        if isinstance(move, Move):
            return Play(player, move)  # type: ignore[arg-type]
        return Play(player, decode_move(lo, hi, self._level))  # type: ignore[arg-type]

    def play_index(self, index: int) -> None:
        """Play the move at ``index`` of :meth:`legal_moves` (card granularity): the fast path
        for code that scans ``legal_moves().array`` and makes no move objects.

        >>> deal = Deal(["S3 S4", "S9", "D5", "D6"], level=2, leader=0)
        >>> deal.play_index(0); deal.history[-1].move.cards
        Cards('S3')
        """
        if self._over:
            raise IllegalMoveError("the deal is over", reason=Reason.DEAL_OVER)
        if type(index) is not int and not is_int(index):
            raise IllegalMoveError(f"a move index is an int, got {describe(index)}")
        moves = self._moves
        array = (moves if moves is not None else self.legal_moves()).array
        n = len(array)
        if not -n <= index < n:
            raise IllegalMoveError(
                f"move index {index} out of range: {n} legal moves", reason=Reason.BAD_INDEX, expected=n, got=index
            )
        lo, hi = array[index].tolist()
        self._apply(lo, hi)

    def play_canonical(self, word: int) -> None:
        """Play a rank-level move (its packed word: an entry of
        :data:`guandan.core.batch.ACTION_SPACE`) for the seat to play, its cards chosen
        canonically — the suits holding the most copies first, as the built-in bots and the
        vectorized tables spend them (:func:`guandan.core.movegen.canonical_move`): the fast path
        of the learning environments. :class:`~guandan.IllegalMoveError` unless the word is a
        legal rank-level move now (nothing changes).

        >>> from guandan.core.batch import ACTION_SPACE
        >>> deal = Deal(["S5 C5 H2", "S9", "D5", "D6"], level=2, leader=0)
        >>> word = int(deal.legal_moves("rank").array[-1]); deal.play_canonical(word)
        >>> print(deal.history[-1])
        seat 0: triple 5: S5 C5 H2 (H2 as 5)
        """
        if self._over:
            raise IllegalMoveError("the deal is over", reason=Reason.DEAL_OVER)
        lo, hi = canonical_words(self._hands[self._turn], self._lvl, self._beat, word)  # type: ignore[index]
        if hi == _PASS_HI and self._last < 0:
            raise IllegalMoveError(f"seat {self._turn} leads and cannot pass", reason=Reason.LEADS_CANNOT_PASS,
                                   seat=self._turn)  # fmt: skip
        if not self._ruleset.plain_straight_flush and (hi >> 60) == MoveType.STRAIGHT:
            arr = np.array([[lo, hi]], dtype=np.uint64)
            if _single_suited(arr, self._level)[0]:
                raise IllegalMoveError(
                    f"ruleset {self._ruleset.name} plays a same-suit five only as a straight flush",
                    reason=Reason.DROPPED_BY_RULESET, seat=self._turn, ruleset=self._ruleset.name,
                )
        self._apply(lo, hi)

    def _resolve(self, move: Any, seat: int | None) -> tuple[int, int]:
        """The packed words of a legal move, or an error naming why it is not legal."""
        if self._over:
            raise IllegalMoveError("the deal is over", reason=Reason.DEAL_OVER)
        turn = self._turn
        if seat is not None and (isinstance(seat, bool) or seat != turn):
            raise IllegalMoveError(
                f"not seat {seat}'s turn: seat {turn} is to play", reason=Reason.NOT_TURN, seat=seat, turn=turn,
                phase=Phase.PLAY,
            )
        moves = self._moves
        if moves is not None:
            i = moves.index_of(move)
            if i >= 0:
                lo, hi = moves.array[i]
                return int(lo), int(hi)
        if isinstance(move, RankMove):
            return self._resolve_rank(move)
        if not isinstance(move, Move):
            raise InvalidMoveError(f"not a move: {describe(move)}")
        if move.level != self._level:
            raise IllegalMoveError(
                f"wrong level: {move.format()} is declared at level {move.level.label}, "
                f"the deal is at level {self._level.label}",
                reason=Reason.WRONG_LEVEL, seat=turn, expected=self._level, got=move.level,
            )
        if move.type == MoveType.PASS:
            if self._last < 0:
                raise IllegalMoveError(f"seat {turn} leads and cannot pass", reason=Reason.LEADS_CANNOT_PASS, seat=turn)
            return 0, _PASS_HI
        hand = cards_of_bits(self._hands[turn])  # type: ignore[index]
        if not move.cards <= hand:
            missing = Cards(max(0, a - b) for a, b in zip(move.cards.counts, hand.counts))
            raise IllegalMoveError(
                f"seat {turn} does not hold {missing}", reason=Reason.NOT_HELD, seat=turn, cards=missing
            )
        if self._last >= 0:
            target = decode_move(self._beat_lo, self._beat_hi, self._level)
            if not beats(move, target):
                raise IllegalMoveError(
                    f"{move.format()} does not beat {target.format()} (seat {self._last})",
                    reason=Reason.DOES_NOT_BEAT, seat=turn, move=move, to_beat=target, to_beat_seat=self._last,
                )
        lo, hi = pack_move(move)
        arr = self.legal_moves().array
        if not bool(np.any((arr[:, 0] == np.uint64(lo)) & (arr[:, 1] == np.uint64(hi)))):
            if move.type == MoveType.STRAIGHT and not self._ruleset.plain_straight_flush:
                raise IllegalMoveError(
                    f"{move.format()}: ruleset {self._ruleset.name} plays a same-suit five only as a straight flush",
                    reason=Reason.DROPPED_BY_RULESET, seat=turn, move=move, ruleset=self._ruleset.name,
                )
            raise IllegalMoveError(  # pragma: no cover
                f"{move.format()} is not a legal move here", reason=Reason.NOT_LEGAL, seat=turn, move=move
            )
        return lo, hi

    def _resolve_rank(self, move: RankMove) -> tuple[int, int]:
        if move.level != self._level:
            raise IllegalMoveError(
                f"wrong level: {move} is declared at level {move.level.label}, "
                f"the deal is at level {self._level.label}",
                reason=Reason.WRONG_LEVEL, seat=self._turn, expected=self._level, got=move.level,
            )
        if move.type == MoveType.PASS:
            if self._last < 0:
                raise IllegalMoveError(
                    f"seat {self._turn} leads and cannot pass", reason=Reason.LEADS_CANNOT_PASS, seat=self._turn
                )
            return 0, _PASS_HI
        word = pack_rank_move(move)
        for lo, hi in self.legal_moves().array:
            if card_to_rank(int(lo), int(hi), self._lvl) == word:
                return int(lo), int(hi)
        raise IllegalMoveError(
            f"{move} is not a legal move of seat {self._turn} here", reason=Reason.NOT_LEGAL, seat=self._turn, move=move
        )

    def _apply(self, lo: int, hi: int) -> None:
        """Apply a legal move given as its two words (the hot path: no checks)."""
        seat: int = self._turn  # type: ignore[assignment]
        counts = self._counts
        self._undo.append(
            (
                seat,
                self._last,
                self._beat,
                self._beat_lo,
                self._beat_hi,
                self._passes,
                self._trick_start,
                len(self._finished),
            )
        )
        self._log.append((seat, lo, hi))
        self._moves = None
        if hi == _PASS_HI:
            self._passes = passes = self._passes + 1
            last = self._last
            active = 4 - len(self._finished)
            if counts[last]:
                active -= 1
            if passes >= active:  # every other seat holding cards has passed: the trick is over
                self._turn = last if counts[last] else jiefeng_leader(last, counts)
                self._last = -1
                self._beat = PASS_WORD
                self._beat_lo = 0
                self._beat_hi = _PASS_HI
                self._passes = 0
                self._trick_start = len(self._log)
            else:
                self._turn = self._next_holding(seat)
            return
        bits = move_bits(lo, hi)
        self._hands[seat] -= bits
        counts[seat] -= size_of_bits(bits)
        self._last = seat
        self._beat = card_to_rank(lo, hi, self._lvl)
        self._beat_lo = lo
        self._beat_hi = hi
        self._passes = 0
        if not counts[seat]:
            finished = self._finished
            finished.append(seat)
            if (seat ^ 2) in finished or len(finished) == 3:
                if len(finished) == 3:
                    finished.append(next(s for s in range(4) if counts[s]))
                self._over = True
                self._turn = None
                return
        self._turn = self._next_holding(seat)

    def _next_holding(self, seat: int) -> int:
        counts = self._counts
        for step in (1, 2, 3):
            s = (seat + step) & 3
            if counts[s]:
                return s
        raise AssertionError("no seat holds cards")  # pragma: no cover

    def undo(self) -> Play:
        """Take back the last play or pass and return it.

        >>> deal = Deal(["S3", "S9", "D5", "D6"], level=2, leader=0)
        >>> first = deal.copy(); _ = deal.play(deal.legal_moves()[0])
        >>> deal.finish_order, print(deal.undo()), deal == first
        seat 0: single 3: S3
        ((0,), None, True)
        """
        if not self._log:
            raise IllegalMoveError("nothing to undo")
        seat, lo, hi = self._log.pop()
        (turn, self._last, self._beat, self._beat_lo, self._beat_hi, self._passes, self._trick_start, n_finished) = (
            self._undo.pop()
        )
        if hi != _PASS_HI:
            bits = move_bits(lo, hi)
            self._hands[seat] += bits
            self._counts[seat] += size_of_bits(bits)
        del self._finished[n_finished:]
        self._over = False
        self._turn = turn
        self._moves = None
        return Play(seat, decode_move(lo, hi, self._level))

    def copy(self) -> Deal:
        """An independent copy (the history and undo stack included).

        >>> deal = Deal.new(1); twin = deal.copy(); deal.play_index(0)
        >>> twin.ply, deal.ply
        (0, 1)
        """
        other = Deal.__new__(Deal)
        for name in Deal.__slots__:
            setattr(other, name, getattr(self, name))
        other._hands = list(self._hands)
        other._counts = list(self._counts)
        other._finished = list(self._finished)
        other._log = list(self._log)
        other._undo = list(self._undo)
        other._moves = None
        return other

    # -- observing and comparing ---------------------------------------------------------------

    def observation(self, seat: int, *, prefix: tuple[Any, ...] = (), **match_info: Any) -> Observation:
        """What ``seat`` sees now (its legal moves only if it is to play); ``prefix`` and
        ``match_info`` are filled in by a match (tribute records, levels).

        >>> obs = Deal(["S3", "S9", "D5", "D6"], level=2, leader=0).observation(0)
        >>> obs.hand, [str(m) for m in obs.legal_actions]
        (Cards('S3'), ['single 3: S3'])
        """
        if type(seat) is not int or not 0 <= seat <= 3:
            seat = check_seat(seat)
        turn = self._turn
        return Observation(
            seat=seat,
            phase=Phase.OVER if self._over else Phase.PLAY,
            level=self._level,
            turn=turn,
            card_counts=tuple(self._counts),
            finish_order=tuple(self._finished),
            legal_actions=self.legal_moves() if turn == seat else (),
            packed_hand=self._hands[seat],
            beat=None if self._last < 0 else (self._last, self._beat_lo, self._beat_hi),
            history=History(prefix, tuple(self._log), self._level),
            ruleset=self._ruleset,
            **match_info,
        )

    def act(self, action: Move | RankMove, seat: int | None = None) -> Play:
        """Apply an agent's action (in a deal, always a move): :meth:`play`.

        >>> deal = Deal(["S3", "S9", "D5", "D6"], level=2, leader=0)
        >>> print(deal.act(deal.legal_actions()[0]))
        seat 0: single 3: S3
        """
        return self.play(action, seat)

    def legal_actions(self) -> MoveList:
        """The legal actions of the seat to act: :meth:`legal_moves` at card granularity."""
        return self.legal_moves()

    def snapshot(self) -> tuple[Any, ...]:
        """The full state as a tuple of plain values: two deals are equal when their snapshots are.

        >>> Deal.new(3).snapshot() == Deal.new(3).snapshot()
        True
        """
        return (
            self._lvl,
            self._ruleset,
            tuple(self._hands),
            tuple(self._initial),
            self._initial_finished,
            self._leader,
            self._turn,
            self._last,
            self._beat_lo,
            self._beat_hi,
            self._passes,
            self._trick_start,
            tuple(self._finished),
            self._over,
            tuple(self._log),
            self.seed,
            self.opening,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Deal):
            return NotImplemented
        return self.snapshot() == other.snapshot()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        state = "over" if self._over else f"seat {self._turn} to {'lead' if self._last < 0 else 'play'}"
        return f"<Deal level {self._level.label} {state} counts {tuple(self._counts)} finish {tuple(self._finished)}>"
