"""Legal moves from the native core, and the packed move formats (rules §5).

:func:`legal_moves` returns a :class:`MoveList`: a view over the packed moves the
core wrote, which makes :class:`~guandan.Move` / :class:`~guandan.RankMove` objects
only for what the caller looks at (python-chess's ``board.legal_moves`` habit).

>>> from guandan import Cards, classify, legal_moves
>>> hand = Cards.parse("S3 C4 D4 C5 D5 H2 SB SB")
>>> moves = legal_moves(hand, level=2)
>>> len(moves), moves.count()
(22, 22)
>>> play = classify("S9 C9", 2)[0]
>>> [str(m) for m in legal_moves(hand, 2, beat=play)]
['pair SB: SB SB', 'pass']
>>> print(legal_moves(hand, 2, granularity="rank")[-1])
pair_run 3: 3 4 4 5 5 +1 wild

Packed forms (see ``csrc/gd_core.h``): a rank-level move is one 64-bit word, a
card-level move two. :func:`pack_rank_move` / :func:`unpack_rank_move` and
:func:`pack_move` / :func:`unpack_move` convert; the level is not part of the
packed form.

>>> move = classify("S3 C4 D4 C5 D5 H2", 2)[0]
>>> unpack_move(*pack_move(move), level=2) == move
True
>>> hex(pack_rank_move(move.to_rank()))
'0x6110000000002210'

:func:`rank_moves` and :func:`packed_card_moves` are the generator's arrays of packed words
themselves, for the layers that keep positions packed:

>>> from guandan.core.packed import PASS_WORD, bits_of_cards, hand_words
>>> words = rank_moves(hand.counts, 2, PASS_WORD)
>>> len(words), int(words[0]) == pack_rank_move(legal_moves(hand, 2, granularity="rank")[0])
(18, True)
>>> packed_card_moves(*hand_words(bits_of_cards(hand)), 2).shape
(22, 2)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import Literal, overload

import numpy as np

from ..errors import GuandanError, InvalidMoveError, describe, is_int
from . import _core, packed
from .cards import Cards, CardsLike, Rank, Suit, as_cards, integer, parse_level
from .moves import AnyMove, Move, MoveType, RankMove
from .packed import DECLARATION_MASK, PASS_WORD, hand_words, word_key, word_type, word_wilds, word_x

__all__ = [
    "MoveList",
    "legal_moves",
    "count_moves",
    "pack_move",
    "unpack_move",
    "pack_rank_move",
    "unpack_rank_move",
    "canonical_move",
    "flush_keeping_move",
    "straight_flushes",
    "check_granularity",
    "rank_moves",
    "packed_card_moves",
]

#: The rank-level moves of one position as packed words (``uint64 (k,)``, the pass last when
#: responding): a hand's counts, the level, the rank-level word to beat (the pass to lead).
#: The native core's own function (a deal asks it every action).
rank_moves = _core.rank_moves
#: The card-level moves of one position as rows of two words (``uint64 (k, 2)``) from a packed
#: hand's two words ``lo, hi``, the level and the word to beat. The native core's own function.
packed_card_moves = _core.packed_card_moves

Granularity = Literal["card", "rank"]

_TYPES = tuple(MoveType)
_KEYS: tuple[Rank | None, ...] = tuple(Rank(k + 2) for k in range(15)) + (None,)


def pack_rank_move(move: RankMove) -> int:
    """The 64-bit word of a rank-level move.

    >>> from guandan import classify
    >>> hex(pack_rank_move(classify("S5 H2", 2)[0].to_rank()))
    '0x2310000000001000'
    """
    if not isinstance(move, RankMove):
        raise InvalidMoveError(f"not a rank-level move: {move!r:.80}")
    if move.type == MoveType.PASS:
        return PASS_WORD
    return packed.rank_word(move.type, move.key, move.suit, move.ranks, move.wilds)


def unpack_rank_move(word: int, level: int | str) -> RankMove:
    """The rank-level move of a 64-bit word (a Python or numpy int) at a level.

    Raises :class:`~guandan.InvalidMoveError` unless the word is a rank-level move at that
    level (well formed, and its counts and wilds make its declaration).

    >>> print(unpack_rank_move(0x2310000000001000, 2))
    pair 5: 5 +1 wild
    """
    _core.check_move(word)
    lvl = parse_level(level)
    w = int(word)
    if not packed.is_rank_move(w, lvl):
        raise InvalidMoveError(f"the word 0x{w:016x} is not a rank-level move at level {lvl.label}")
    return _rank_move_of(w, lvl)


def _rank_move_of(word: int, level: Rank) -> RankMove:
    """The rank-level move of a word the core wrote (not checked)."""
    move_type = _TYPES[word_type(word)]
    if move_type == MoveType.PASS:
        return RankMove.pass_(level)
    ranks = packed.word_counts(word)
    ranks += packed.word_jokers(word)
    suit = Suit(word_x(word)) if move_type == MoveType.STRAIGHT_FLUSH else None
    return RankMove._trusted(move_type, _KEYS[word_key(word)], suit, tuple(ranks), word_wilds(word), level)


def pack_move(move: Move) -> tuple[int, int]:
    """The two 64-bit words of a card-level move: the faces spent, the declaration on top.

    >>> from guandan import classify
    >>> [hex(w) for w in pack_move(classify("S5 H2", 2)[0])]
    ['0x1000004', '0x2310000000000000']
    """
    if not isinstance(move, Move):
        raise InvalidMoveError(f"not a card-level move: {move!r:.80}")
    if move.type == MoveType.PASS:
        return 0, PASS_WORD
    return packed.card_words(move.type, move.key, move.suit, move.cards.counts, move.level)


def unpack_move(lo: int, hi: int, level: int | str) -> Move:
    """The card-level move of two 64-bit words (Python or numpy ints) at a level.

    Raises :class:`~guandan.InvalidCardsError` when the words hold impossible cards and
    :class:`~guandan.InvalidMoveError` unless the cards make the declaration at that level.

    >>> print(unpack_move(0x1000004, 0x2310000000000000, 2))
    pair 5: S5 H2 (H2 as 5)
    """
    lvl = parse_level(level)
    counts = _core.unpack_cards(lo, hi)
    _core.check_move(_core.card_to_rank(lo, hi, lvl))
    lo, hi = int(lo), int(hi)
    if not packed.is_card_move(lo, hi, counts, lvl):
        raise InvalidMoveError(
            f"the words 0x{lo:016x} 0x{hi:016x} are not a card-level move at level {lvl.label}:"
            f" {Cards(counts) or 'no cards'} do not make their declaration"
        )
    return _card_move_of(lo, hi, lvl, counts)


_PASSES: dict[Rank, Move] = {}


def _card_move_of(lo: int, hi: int, level: Rank, counts: bytes | None = None) -> Move:
    """The card-level move of two words the core wrote (not checked): the one trusted decoder."""
    move_type = _TYPES[word_type(hi)]
    if move_type == MoveType.PASS:
        move = _PASSES.get(level)
        if move is None:
            move = _PASSES[level] = Move._trusted(MoveType.PASS, None, None, Cards(), level)
        return move
    suit = Suit(word_x(hi)) if move_type == MoveType.STRAIGHT_FLUSH else None
    cards = Cards._trusted(counts if counts is not None else _core.unpack_cards(lo, hi))
    return Move._trusted(move_type, _KEYS[word_key(hi)], suit, cards, level)


def canonical_move(word: int, hand: CardsLike, level: int | str) -> Move:
    """The card-level move that plays a rank-level word from a hand: the word's declaration
    with the hand's cards spent canonically (the suits holding the most copies first), as the
    built-in bots play a rank-level choice. The way from a rank-level move (an index of
    :data:`guandan.batch.ACTION_SPACE`, a search's candidate) to a move a table accepts.

    Raises :class:`~guandan.IllegalMoveError` when the hand cannot play the word.

    >>> print(canonical_move(0x2310000000001000, "S5 C5 H2", 2))
    pair 5: S5 H2 (H2 as 5)
    """
    return _spend(word, hand, level, keep_flushes=False)


def _spend(word: int, hand: CardsLike, level: int | str, keep_flushes: bool) -> Move:
    """The card-level move of a rank-level word, its cards spent canonically or, with
    ``keep_flushes``, as :func:`flush_keeping_move` spends them."""
    lvl = parse_level(level)
    counts = as_cards(hand).counts
    _core.check_move(word)
    word = int(word)
    if word == PASS_WORD:
        return _card_move_of(0, PASS_WORD, lvl)
    spent = _core.spend_cards(counts, int(lvl), word)
    if keep_flushes and word_type(word) != _STRAIGHT_FLUSH_TYPE:
        kept = _flush_keeping_spend(counts, int(lvl), spent, word_type(word) == _STRAIGHT_TYPE)
        if kept is not None:
            spent = kept
    return spent_move(word, spent, lvl)


#: At most this many ways to spend a word's natural cards are compared by
#: :func:`flush_keeping_move` (more: the canonical spend; a hand of 27 cards rarely has 20).
MAX_SPENDS = 512
_STRAIGHT_FLUSH_TYPE = _TYPES.index(MoveType.STRAIGHT_FLUSH)
_STRAIGHT_TYPE = _TYPES.index(MoveType.STRAIGHT)


def straight_flushes(hand: CardsLike, level: int | str) -> int:
    """How many straight flushes a hand can lead: its rank-level straight-flush moves counted
    once per top rank and suit (with or without wilds).

    >>> straight_flushes("S5 S6 S7 S8 S9 H7", 3), straight_flushes("S5 S6 H7 S8 S9", 3)
    (1, 0)
    >>> straight_flushes("S5 S6 S8 S9 H2", 2)  # the wild H2 as S7
    1
    """
    return _flush_count(as_cards(hand).counts, int(parse_level(level)))


#: The five ranks (bits of ranks 2..A, bit 0 for 2) of each straight, ace low to ace high.
_WINDOWS = (0b1000000001111,) + tuple(0b11111 << low for low in range(9))
_RANK_BITS = (np.arange(1 << 13)[:, None] >> np.arange(13)) & 1
#: For 0, 1, 2 wilds and the ranks held in one suit (13 bits): how many straights of that suit
#: they make (the ranks held in it and the wilds for the rest).
_SUIT_FLUSHES = tuple(
    bytes(((_RANK_BITS @ ((np.array(_WINDOWS)[:, None] >> np.arange(13)) & 1).T + wilds) >= 5).sum(axis=1).tolist())
    for wilds in range(3)
)


def _flush_count(counts: bytes, level: int) -> int:
    """:func:`straight_flushes` of a hand's 54 counts: for each suit and straight, its ranks
    held in that suit (a wild counts as itself or any of the missing) and the wilds."""
    wild = (level - 2) * 4 + 1
    table = _SUIT_FLUSHES[counts[wild]]
    found = 0
    for suit in range(4):
        held = 0
        for rank in range(13):
            face = rank * 4 + suit
            if counts[face] and face != wild:
                held |= 1 << rank
        found += table[held]
    return found


def flush_keeping_move(word: int, hand: CardsLike, level: int | str) -> Move:
    """The card-level move that plays a rank-level word keeping as many of the hand's straight
    flushes as it can: of the canonical spend (:func:`canonical_move`) and the other ways to
    spend the word's natural cards (the same ranks, the same wilds and jokers, other suits; a
    plain straight not all of one suit), the one that leaves the most
    :func:`straight_flushes`, the canonical spend on ties. The hand left holds the same ranks
    either way, so this only adds bombs to it. How the search bot ``mc`` spends its choice.

    Raises :class:`~guandan.IllegalMoveError` when the hand cannot play the word.

    >>> from guandan import classify
    >>> single_5 = pack_rank_move(classify("S5", 2)[0].to_rank())
    >>> hand = "C3 C4 C5 C6 C7 D5"  # a straight flush of clubs, 3 to 7
    >>> print(canonical_move(single_5, hand, 2), "|", flush_keeping_move(single_5, hand, 2))
    single 5: C5 | single 5: D5
    """
    return _spend(word, hand, level, keep_flushes=True)


def _flush_keeping_spend(counts: bytes, level: int, spent: int, straight: bool) -> int | None:
    """The spend (packed bits) of :func:`flush_keeping_move` when it differs from the canonical
    ``spent``, else ``None``."""
    kept = _flush_count(counts, level)
    if not kept:
        return None  # no straight flush to keep
    wild = (level - 2) * 4 + 1
    used = [(spent >> (2 * f)) & 3 for f in range(54)]
    rest = bytes(c - u for c, u in zip(counts, used))
    canonical = _flush_count(rest, level)
    if canonical == kept:
        return None  # the canonical spend keeps them all
    table = _SUIT_FLUSHES[rest[wild]]
    base = [0, 0, 0, 0]  # per suit: the ranks held after the spend, of the ranks it takes no natural from
    ways: list[list[tuple[tuple[int, int], ...]]] = []  # per rank it takes from: every (face, copies) way
    count = 1
    for rank in range(13):
        faces = [f for f in range(rank * 4, rank * 4 + 4) if f != wild]
        need = sum(used[f] for f in faces)
        if not need:
            for f in faces:
                if rest[f]:
                    base[f & 3] |= 1 << rank
            continue
        options = [tuple(zip(faces, take)) for take in _takes([counts[f] for f in faces], need)]
        count *= len(options)
        if count > MAX_SPENDS:
            return None
        ways.append(options)
    best, best_count = None, canonical
    for combo in itertools.product(*ways):
        held = list(base)
        suits = 0
        for option in combo:
            for face, n in option:
                if counts[face] > n:
                    held[face & 3] |= 1 << (face >> 2)
                if n:
                    suits |= 1 << (face & 3)
        if straight and suits.bit_count() == 1:
            continue  # a plain straight all of one suit: a straight flush spent
        found = table[held[0]] + table[held[1]] + table[held[2]] + table[held[3]]
        if found > best_count:
            best, best_count = combo, found
            if found == kept:
                break  # none keeps more than the hand has
    if best is None:
        return None
    taken = list(used)
    for option in best:
        for face, n in option:
            taken[face] = n
    return sum(n << (2 * f) for f, n in enumerate(taken))


def _takes(held: list[int], need: int) -> list[tuple[int, ...]]:
    """Every way to take ``need`` cards from copies held per suit (a count per suit)."""
    if not held:
        return [()] if need == 0 else []
    return [(n, *tail) for n in range(min(held[0], need) + 1) for tail in _takes(held[1:], need - n)]


def spent_move(word: int, spent: int, level: Rank) -> Move:
    """The card-level move of a rank-level word and the packed cards the core spent for it
    (:func:`canonical_move`, the native policies' choices): trusted, not checked again."""
    lo, hi = hand_words(spent)
    return _card_move_of(lo, hi | (word & DECLARATION_MASK), level)


def _beat_word(beat: AnyMove | int | None, level: Rank) -> int:
    if beat is None:
        return PASS_WORD
    word = integer(beat)
    if word is not None:
        _core.check_move(word)
        if word == PASS_WORD:
            return word  # the pass word as the play to beat: a lead
        if not packed.is_rank_move(word, level):
            raise InvalidMoveError(f"the play to beat 0x{word:016x} is not a rank-level move at level {level.label}")
        return word
    if isinstance(beat, (Move, RankMove)):
        if beat.level != level:
            raise InvalidMoveError(f"the play to beat is at level {beat.level.label}, the position at {level.label}")
        if beat.type == MoveType.PASS:
            raise InvalidMoveError("a pass is not a play to beat (use beat=None to lead)")
        return pack_rank_move(beat.to_rank() if isinstance(beat, Move) else beat)
    raise InvalidMoveError(f"the play to beat must be a Move, a RankMove, a packed word or None, got {beat!r}")


class MoveList(Sequence[AnyMove]):
    """The legal moves of a position: a view over the packed moves.

    ``len()``, indexing, iteration and ``in`` work as on a list; :attr:`array` is the
    packed form (``uint64``: shape ``(n,)`` at rank granularity, ``(n, 2)`` at card
    granularity) for code that wants no Python objects at all.

    Made by :func:`legal_moves` and :meth:`~guandan.game.deal.Deal.legal_moves`: the words in
    :attr:`array` are the core's, so the moves made from them are not checked again
    (to read words from elsewhere, use :func:`unpack_move` / :func:`unpack_rank_move`).
    """

    __slots__ = ("array", "level", "granularity")

    def __init__(self, array: np.ndarray, level: Rank, granularity: Granularity) -> None:
        self.array = array
        self.level = level
        self.granularity = granularity

    def __len__(self) -> int:
        return len(self.array)

    def count(self, value: object = None) -> int:
        """Without an argument, how many moves (as python-chess's ``legal_moves.count()``);
        with one, how many times it occurs (0 or 1)."""
        if value is None:
            return len(self.array)
        return int(value in self)

    def _make(self, i: int) -> AnyMove:
        if self.granularity == "rank":
            return _rank_move_of(int(self.array[i]), self.level)
        lo, hi = self.array[i].tolist()
        return _card_move_of(lo, hi, self.level)

    @overload
    def __getitem__(self, i: int) -> AnyMove: ...
    @overload
    def __getitem__(self, i: slice) -> list[AnyMove]: ...
    def __getitem__(self, i: int | slice) -> AnyMove | list[AnyMove]:
        if isinstance(i, slice):
            return [self._make(j) for j in range(*i.indices(len(self)))]
        if not is_int(i):
            raise TypeError(f"move indices must be integers or slices, not {type(i).__name__}")
        i = int(i)
        n = len(self)
        if not -n <= i < n:
            raise IndexError("move index out of range")
        return self._make(i % n)

    def __iter__(self) -> Iterator[AnyMove]:
        for i in range(len(self)):
            yield self._make(i)

    def __contains__(self, move: object) -> bool:
        if self.granularity == "rank":
            if not isinstance(move, RankMove) or move.level != self.level:
                return False
            return bool(np.any(self.array == np.uint64(pack_rank_move(move))))
        if not isinstance(move, Move) or move.level != self.level:
            return False
        lo, hi = pack_move(move)
        return bool(np.any((self.array[:, 0] == np.uint64(lo)) & (self.array[:, 1] == np.uint64(hi))))

    def __repr__(self) -> str:
        return f"<MoveList {len(self)} {self.granularity}-level moves at level {self.level.label}>"


def legal_moves(
    hand: CardsLike,
    level: int | str,
    beat: AnyMove | int | None = None,
    granularity: Granularity = "card",
) -> MoveList:
    """The legal moves of a position, from the native core.

    ``hand``: the cards held (:class:`~guandan.Cards`, a card string or card indices).
    ``level``: the deal's level rank. ``beat``: the play to beat (a move of either
    granularity or a packed rank-level word), ``None`` to lead. The pass comes last
    when responding. Exactly the moves of :func:`guandan.core.reference.generate_moves`.
    """
    counts, lvl, word, kind = _position(hand, level, beat, granularity)
    if kind == "rank":
        return MoveList(_core.rank_moves(counts, lvl, word), lvl, "rank")
    return MoveList(_core.card_moves(counts, lvl, word), lvl, "card")


def count_moves(
    hand: CardsLike,
    level: int | str,
    beat: AnyMove | int | None = None,
    granularity: Granularity = "card",
) -> int:
    """How many legal moves a position has, counted without making them.

    >>> count_moves("S3 C4 D4 C5 D5 H2", 2), count_moves("S3 C4 D4 C5 D5 H2", 2, granularity="rank")
    (18, 14)
    """
    counts, lvl, word, kind = _position(hand, level, beat, granularity)
    if kind == "rank":
        return int(_core.count_rank_moves(counts, lvl, word))
    return int(_core.count_card_moves(counts, lvl, word))


def _position(
    hand: CardsLike, level: int | str, beat: AnyMove | int | None, granularity: object
) -> tuple[bytes, Rank, int, Granularity]:
    """A position's arguments parsed once: the hand's counts, the level, the play to beat's word."""
    lvl = parse_level(level)
    return as_cards(hand).counts, lvl, _beat_word(beat, lvl), check_granularity(granularity)


def check_granularity(value: object) -> Granularity:
    """``"card"`` or ``"rank"`` checked (the one check of every ``granularity=``), else
    :class:`~guandan.GuandanError`.

    >>> check_granularity("rank")
    'rank'
    """
    if isinstance(value, str) and value in ("card", "rank"):  # an array is not a str
        return "card" if value == "card" else "rank"
    raise GuandanError(f"granularity must be 'card' or 'rank', got {describe(value)}")
