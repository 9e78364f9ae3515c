"""The action format of the public Guandan AI-competition platform.

An action is a list of three items, ``[type, rank, cards]``:

* a play: ``['Pair', '5', ['S5', 'H5']]`` — the type is one of ``Single``, ``Pair``,
  ``Trips``, ``ThreeWithTwo`` (full house), ``ThreePair`` (pair run), ``TwoTrips``
  (triple run), ``Straight``, ``StraightFlush`` and ``Bomb`` (rank bombs, and the joker
  bomb with rank ``JOKER``); the rank is the key's letter (``2``-``9``, ``T``, ``J``,
  ``Q``, ``K``, ``A``, ``B``, ``R``; a sequence by the lowest rank of its window, ``A``
  for ace-low windows; a full house by its triple); the cards are card codes
  (``S2``, ``HT``, ``SB``, ``HR``), wilds as themselves;
* the pass: ``['PASS', 'PASS', 'PASS']``;
* a tribute and a return: ``['tribute', 'tribute', ['SA']]``, ``['back', 'back', ['S3']]``.

:func:`to_action` and :func:`from_action` convert card-granularity moves both ways
(``from_action(to_action(move), move.level) == move``); :func:`tribute_action`,
:func:`back_action` and :func:`parse_tribute_action` handle the tribute phase.

>>> from guandan import classify
>>> move = classify("S3 C4 D4 C5 D5 H2", 2)[0]
>>> to_action(move)
['ThreePair', '3', ['H2', 'S3', 'C4', 'D4', 'C5', 'D5']]
>>> from_action(['ThreePair', '3', ['H2', 'S3', 'C4', 'D4', 'C5', 'D5']], level=2) == move
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Literal, overload

import numpy as np

from ..core.cards import NUM_FACES, RANKS, Cards, Rank, as_card, card_name, integer, parse_card, parse_level
from ..core.classify import classify
from ..core.movegen import MoveList
from ..core.moves import AnyMove, Move, MoveType, RankMove
from ..core.packed import word_type
from ..errors import GuandanError, IllegalMoveError, InvalidCardsError, InvalidMoveError

__all__ = [
    "ACTION_TYPES",
    "to_action",
    "from_action",
    "tribute_action",
    "back_action",
    "parse_tribute_action",
    "action_list",
    "action_choices",
    "action_choices_json",
    "move_actions",
    "move_actions_json",
    "apply_action",
]

#: The protocol's name of each combination type (the joker bomb is a ``Bomb`` of rank ``JOKER``).
ACTION_TYPES: dict[MoveType, str] = {
    MoveType.SINGLE: "Single",
    MoveType.PAIR: "Pair",
    MoveType.TRIPLE: "Trips",
    MoveType.FULL_HOUSE: "ThreeWithTwo",
    MoveType.STRAIGHT: "Straight",
    MoveType.PAIR_RUN: "ThreePair",
    MoveType.TRIPLE_RUN: "TwoTrips",
    MoveType.BOMB: "Bomb",
    MoveType.STRAIGHT_FLUSH: "StraightFlush",
    MoveType.JOKER_BOMB: "Bomb",
}

_PASS = "PASS"
_JOKER = "JOKER"
_TYPE_OF_NAME = {name: t for t, name in ACTION_TYPES.items() if t != MoveType.JOKER_BOMB}
_RANK_OF_LETTER = {rank.letter: rank for rank in RANKS}
_TRIBUTE_KINDS = ("tribute", "back")
# The packed words of a card-level move, read in bulk: the faces spent, 2 bits each, four to a
# byte (faces 0..31 in the low word, 32..53 in the high word's low bits), then the type (top 4
# bits of the high word) and the key index (the next 4: rank - 2; 15 for the joker bomb and the pass).
_TYPE_NAME_OF_CODE = ("PASS",) + tuple(ACTION_TYPES[MoveType(t)] for t in range(1, len(MoveType)))
_LETTER_OF_KEY = tuple(Rank(k + 2).letter for k in range(15)) + (_JOKER,)
_CODE_OF_FACE = np.array([card_name(c, "code") for c in range(NUM_FACES)], dtype=object)
_QUOTED = np.array([f'"{card_name(c, "code")}",' for c in range(NUM_FACES)], dtype=object)
_QUOTED_LAST = np.array([f'"{card_name(c, "code")}"]]' for c in range(NUM_FACES)], dtype=object)
_TWO_BITS = np.array([0, 2, 4, 6], dtype=np.uint8)
_U56 = np.uint64(56)


def _action_prefix(code: int) -> str:
    """The JSON text of an action up to its cards, by ``type * 16 + key index``."""
    move_type, key = code >> 4, code & 15
    if move_type == MoveType.PASS:
        return '["PASS","PASS","PASS"]'
    if move_type >= len(_TYPE_NAME_OF_CODE):
        return ""
    return f'["{_TYPE_NAME_OF_CODE[move_type]}","{_LETTER_OF_KEY[key]}",['


_PREFIX = np.array([_action_prefix(c) for c in range(256)], dtype=object)
_PREFIX_NEXT = np.array(["," + _action_prefix(c) for c in range(256)], dtype=object)


def to_action(move: AnyMove) -> list[Any]:
    """The protocol action of a card-granularity move; cards are listed in ascending order.

    A :class:`~guandan.RankMove` raises :class:`~guandan.InvalidMoveError`: the protocol needs the
    physical cards, which a rank-granularity move does not know.

    >>> from guandan import Move, classify
    >>> to_action(classify("S7 C7 H3 HR HR", 3)[0])
    ['ThreeWithTwo', '7', ['H3', 'S7', 'C7', 'HR', 'HR']]
    >>> to_action(classify("SB SB HR HR", 3)[0]), to_action(Move.pass_(3))
    (['Bomb', 'JOKER', ['SB', 'SB', 'HR', 'HR']], ['PASS', 'PASS', 'PASS'])
    """
    if isinstance(move, RankMove):
        raise InvalidMoveError(
            f"the AI-competition protocol needs physical cards; {move} is a rank-granularity move"
            " (generate card-granularity moves, or keep the Move it came from)"
        )
    if not isinstance(move, Move):
        raise InvalidMoveError(f"not a move: {move!r:.80}")
    if move.type == MoveType.PASS:
        return [_PASS, _PASS, _PASS]
    return [ACTION_TYPES[move.type], move.key_letter, move.cards.codes()]


def from_action(action: Sequence[Any], level: int | str) -> Move:
    """The move of a protocol action at a level, checked: its shape, type name, rank
    letter, cards, and that the cards really are that combination with that key at
    that level (a straight flush takes its suit from the cards).

    Raises :class:`~guandan.InvalidCardsError` for a bad card code (naming it) or more
    than two copies of a face, and :class:`~guandan.InvalidMoveError` (naming the action)
    for anything else. Tribute and return actions are read by :func:`parse_tribute_action`.

    >>> print(from_action(['StraightFlush', '3', ['D3', 'D4', 'D6', 'D7', 'H2']], 2))
    straight_flush 3 D: D3 D4 D6 D7 H2 (H2 as D5)
    >>> print(from_action(['PASS', 'PASS', 'PASS'], 2))
    pass
    >>> from_action(['Pair', '6', ['S5', 'H2']], 2)
    Traceback (most recent call last):
    ...
    guandan.errors.InvalidMoveError: action ['Pair', '6', ['S5', 'H2']] is not a Pair of rank 6 at level 2:
    those cards make only Pair 5
    """
    lvl = parse_level(level)
    type_name, letter, tokens = _split(action)
    if type_name == _PASS:
        if letter != _PASS or tokens not in (_PASS, []):
            raise InvalidMoveError(f"action {action!r}: a pass is ['PASS', 'PASS', 'PASS']")
        return Move.pass_(lvl)
    if type_name in _TRIBUTE_KINDS:
        raise InvalidMoveError(
            f"action {action!r} is a {type_name} action, not a play (read it with parse_tribute_action)"
        )
    move_type: MoveType | None = _TYPE_OF_NAME.get(type_name)
    key: Rank | None
    if move_type is None:
        names = ", ".join(sorted(set(_TYPE_OF_NAME) | {_PASS}))
        raise InvalidMoveError(f"action {action!r}: unknown action type {type_name!r} (one of {names})")
    if letter == _JOKER and move_type == MoveType.BOMB:
        move_type, key = MoveType.JOKER_BOMB, None
    elif letter in _RANK_OF_LETTER:
        key = _RANK_OF_LETTER[letter]
    else:
        letters = " ".join(_RANK_OF_LETTER) + " (and JOKER for the joker bomb)"
        raise InvalidMoveError(f"action {action!r}: bad rank {letter!r} (one of {letters})")
    if isinstance(tokens, str):
        raise InvalidMoveError(f"action {action!r}: the cards must be a list of card codes, got {tokens!r}")
    cards = _parse_cards(tokens, action)
    found = classify(cards, lvl)
    for move in found:
        if move.type == move_type and move.key == key:
            return move
    what = f"{type_name} of rank {letter}" if move_type != MoveType.JOKER_BOMB else "joker bomb"
    if not found:
        raise InvalidMoveError(
            f"action {action!r} is not a {what} at level {lvl.label}: those cards form no combination"
        )
    can = " or ".join(f"{ACTION_TYPES[m.type]} {m.key_letter}" for m in found)
    raise InvalidMoveError(f"action {action!r} is not a {what} at level {lvl.label}: those cards make only {can}")


def tribute_action(card: int | str) -> list[Any]:
    """The action that pays ``card`` (a card index or a card token) as tribute.

    >>> tribute_action("HR"), tribute_action(51)
    (['tribute', 'tribute', ['HR']], ['tribute', 'tribute', ['DA']])
    """
    return ["tribute", "tribute", [card_name(as_card(card), "code")]]


def back_action(card: int | str) -> list[Any]:
    """The action that returns ``card`` (a card index or a card token) to the tribute payer.

    >>> back_action("s3")
    ['back', 'back', ['S3']]
    """
    return ["back", "back", [card_name(as_card(card), "code")]]


def parse_tribute_action(action: Sequence[Any]) -> tuple[Literal["tribute", "back"], int]:
    """The kind (``'tribute'`` or ``'back'``) and the card index of a tribute or return action.

    Raises :class:`~guandan.InvalidMoveError` naming the action when it is not one of
    those (or does not hold exactly one card), :class:`~guandan.InvalidCardsError` for a
    bad card code.

    >>> from guandan import card_name
    >>> kind, c = parse_tribute_action(['back', 'back', ['D7']])
    >>> kind, card_name(c)
    ('back', 'D7')
    """
    kind, second, tokens = _split(action)
    if kind not in _TRIBUTE_KINDS or second != kind:
        raise InvalidMoveError(
            f"action {action!r} is not a tribute or return action"
            " (expected ['tribute', 'tribute', [card]] or ['back', 'back', [card]])"
        )
    if isinstance(tokens, str) or len(tokens) != 1:
        raise InvalidMoveError(f"action {action!r}: a {kind} action gives exactly one card, as a list of one code")
    (token,) = tokens
    try:
        c = parse_card(token)
    except InvalidCardsError as error:
        raise InvalidCardsError(f"action {action!r}: {error}") from None
    return kind, c


# -- a game state as the protocol presents it ---------------------------------------------------------


def action_list(state: Any, seat: int) -> list[list[Any]]:
    """The ``actionList`` the AI-competition protocol would present to ``seat`` in ``state``
    (a :class:`~guandan.game.deal.Deal` or :class:`~guandan.game.match.Match`): empty unless the seat
    is to act; in play, its legal moves with ``['PASS', 'PASS', 'PASS']`` first when
    responding; in the tribute and return phases ``['tribute', 'tribute', [card]]`` and
    ``['back', 'back', [card]]`` actions, one per card it may give.

    >>> from guandan.game.deal import Deal
    >>> deal = Deal(["S3 S4", "S5 D5", "D5", "D6"], level=2, leader=0)
    >>> action_list(deal, 0)
    [['Single', '3', ['S3']], ['Single', '4', ['S4']]]
    >>> _ = deal.play(deal.legal_moves()[0]); action_list(deal, 1)
    [['PASS', 'PASS', 'PASS'], ['Single', '5', ['S5']], ['Single', '5', ['D5']]]
    >>> action_list(deal, 2)
    []
    """
    return action_choices(state, seat)[0]


def action_choices(state: Any, seat: int) -> tuple[list[list[Any]], Sequence[Any]]:
    """The :func:`action_list` of ``seat`` and, entry for entry, the engine's action each
    entry stands for: a :class:`~guandan.Move` in play, a card index in the tribute and
    return phases. A server applies ``choices[i]`` for the answer ``{"actIndex": i}``
    without parsing the action back.

    >>> from guandan.game.deal import Deal
    >>> deal = Deal(["S3", "S5 D5", "D6", "D7"], level=2, leader=0)
    >>> _ = deal.play(deal.legal_moves()[0])
    >>> actions, choices = action_choices(deal, 1)
    >>> actions[0], str(choices[0]), actions[1], str(choices[1])
    (['PASS', 'PASS', 'PASS'], 'pass', ['Single', '5', ['S5']], 'single 5: S5')
    """
    actions, choices, _ = _choices(state, seat, False)
    return actions, choices


def action_choices_json(state: Any, seat: int) -> tuple[list[list[Any]], Sequence[Any], str]:
    """:func:`action_choices` and the compact JSON text of the actions (what a server sends:
    ``json.dumps(actions, separators=(",", ":"))``, written from the packed moves in bulk).

    >>> from guandan.game.deal import Deal
    >>> actions, choices, text = action_choices_json(Deal(["S3", "S5 D5", "D6", "D7"], level=2, leader=0), 0)
    >>> text
    '[["Single","3",["S3"]]]'
    """
    actions, choices, text = _choices(state, seat, True)
    assert text is not None
    return actions, choices, text


def _choices(state: Any, seat: int, with_text: bool) -> tuple[list[list[Any]], Sequence[Any], str | None]:
    seat = _seat(seat)
    if state.is_over or state.turn != seat:
        return [], [], "[]" if with_text else None
    phase = getattr(state, "phase", None)
    label = getattr(phase, "label", "play")
    legal = state.legal_actions()
    if label in ("tribute", "return"):
        make = tribute_action if label == "tribute" else back_action
        actions = [make(c) for c in legal]
        return actions, list(legal), _json(actions) if with_text else None
    if isinstance(legal, MoveList) and legal.granularity == "card":
        choices = _PassFirst(legal)
        actions, text = _move_actions(legal.array[choices.order], with_text)
        return actions, choices, text
    moves = list(legal)
    if moves and moves[-1].type == MoveType.PASS:
        moves.insert(0, moves.pop())
    actions = [to_action(m) for m in moves]
    return actions, moves, _json(actions) if with_text else None


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def move_actions(array: np.ndarray) -> list[list[Any]]:
    """The protocol actions of card-level moves given packed (``MoveList.array``, shape
    ``(n, 2)``), in that order: :func:`to_action` of each, made without any
    :class:`~guandan.Move` object (the bulk of an ``actionList``).

    >>> from guandan import legal_moves
    >>> moves = legal_moves("S5 C5 H2", 2)
    >>> move_actions(moves.array) == [to_action(m) for m in moves]
    True
    >>> move_actions(moves.array)[4]
    ['Pair', '5', ['H2', 'S5']]
    """
    return _move_actions(array, False)[0]


def move_actions_json(array: np.ndarray) -> tuple[list[list[Any]], str]:
    """:func:`move_actions` and its compact JSON text (``json.dumps(actions, separators=(",", ":"))``),
    the text written from the packed moves in bulk (what a server sends).

    >>> import json
    >>> from guandan import legal_moves
    >>> actions, text = move_actions_json(legal_moves("S5 H2", 2, beat=None).array)
    >>> text
    '[["Single","2",["H2"]],["Single","5",["S5"]],["Pair","5",["H2","S5"]]]'
    >>> json.loads(text) == actions
    True
    """
    actions, text = _move_actions(array, True)
    assert text is not None
    return actions, text


def _move_actions(array: np.ndarray, with_text: bool) -> tuple[list[list[Any]], str | None]:
    n = len(array)
    if not n:
        return [], "[]" if with_text else None
    octets = np.ascontiguousarray(array, dtype="<u8").view(np.uint8).reshape(n, 16, 1)  # 4 faces an octet
    counts = ((octets >> _TWO_BITS) & 3).reshape(n, 64)[:, :NUM_FACES]
    rows, faces = np.nonzero(counts)
    copies = counts[rows, faces]
    cards = np.repeat(faces, copies)
    sizes = counts.sum(axis=1, dtype=np.int64)
    ends = np.cumsum(sizes)
    starts = ends - sizes
    codes = (array[:, 1] >> _U56).astype(np.int64)  # type * 16 + key index
    text = None
    if with_text:  # one token per action (up to its cards) and one per card, joined
        tokens = np.empty(len(cards) + n, dtype=object)
        prefixes = _PREFIX_NEXT[codes]
        prefixes[0] = _PREFIX[codes[0]]
        tokens[starts + np.arange(n)] = prefixes
        last = np.zeros(len(cards), dtype=bool)
        last[ends[sizes > 0] - 1] = True
        tokens[np.arange(len(cards)) + np.repeat(rows, copies) + 1] = np.where(
            last, _QUOTED_LAST[cards], _QUOTED[cards]
        )
        text = "[" + "".join(tokens.tolist()) + "]"
    names, letters = _TYPE_NAME_OF_CODE, _LETTER_OF_KEY
    card_codes = _CODE_OF_FACE[cards].tolist()
    actions = [
        [names[c >> 4], letters[c & 15], card_codes[a:b]] if c >> 4 else [_PASS, _PASS, _PASS]
        for c, a, b in zip(codes.tolist(), starts.tolist(), ends.tolist())
    ]
    return actions, text


class _PassFirst(Sequence[Move]):
    """The moves of a :class:`~guandan.MoveList` in ``actionList`` order (the pass, which
    the list holds last when responding, first), made only when read."""

    __slots__ = ("moves", "order")

    def __init__(self, moves: MoveList) -> None:
        self.moves = moves
        n = len(moves)
        array = moves.array
        if n and word_type(int(array[n - 1, 1])) == MoveType.PASS:
            self.order = np.concatenate(([n - 1], np.arange(n - 1)))
        else:
            self.order = np.arange(n)

    def __len__(self) -> int:
        return len(self.order)

    @overload
    def __getitem__(self, i: int) -> Move: ...
    @overload
    def __getitem__(self, i: slice) -> list[Move]: ...
    def __getitem__(self, i: int | slice) -> Move | list[Move]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        move = self.moves[int(self.order[i])]
        assert isinstance(move, Move)
        return move


def apply_action(state: Any, action: Sequence[Any], seat: int | None = None) -> Any:
    """Apply an action given in the protocol's format to ``state`` (a deal or a match) for
    ``seat`` (default: the seat to act); returns the record the state appends. Raises as
    :func:`from_action` / :func:`parse_tribute_action` for a malformed action and
    :class:`~guandan.IllegalMoveError` for one that is not legal now.

    >>> from guandan.game.deal import Deal
    >>> deal = Deal(["S3 S4", "S5 D5", "D5", "D6"], level=2, leader=0)
    >>> print(apply_action(deal, ['Single', '4', ['S4']], seat=0))
    seat 0: single 4: S4
    """
    kind = action[0] if isinstance(action, (list, tuple)) and action else None
    if seat is not None:
        as_int = integer(seat)
        if as_int is None:
            raise GuandanError(f"a seat is an int 0..3, got {seat!r}")
        seat = as_int  # whether it is this seat's turn is the state's to say
    if kind in _TRIBUTE_KINDS:
        which, card = parse_tribute_action(action)
        phase = getattr(getattr(state, "phase", None), "label", "play")
        if (which == "tribute") != (phase == "tribute") or phase not in ("tribute", "return"):
            raise IllegalMoveError(f"action {action!r} is not what is due now: the {phase} phase")
        if which == "tribute":
            return state.pay_tribute(card, seat)
        return state.return_card(card, seat)
    return state.play(from_action(action, state.level), seat)


# -- helpers --------------------------------------------------------------------------------------


def _split(action: Any) -> tuple[Any, Any, Any]:
    """The three items of an action, checking the outer shape (cards: a list or a string)."""
    if isinstance(action, (str, bytes)) or not isinstance(action, Sequence) or len(action) != 3:
        raise InvalidMoveError(f"an action is a list of three items [type, rank, cards], got {action!r}")
    type_name, letter, tokens = action
    if not isinstance(type_name, str) or not isinstance(letter, str):
        raise InvalidMoveError(f"action {action!r}: the type and the rank must be strings")
    if not isinstance(tokens, (str, list, tuple)):
        raise InvalidMoveError(f"action {action!r}: the cards must be a list of card codes, got {tokens!r}")
    return type_name, letter, tokens


def _parse_cards(tokens: Sequence[Any], action: Any) -> Cards:
    try:
        return Cards.from_cards(parse_card(t) for t in tokens)
    except InvalidCardsError as error:
        raise InvalidCardsError(f"action {action!r}: {error}") from None


def _seat(value: object) -> int:
    """A seat number: a Python or numpy int 0..3."""
    seat = integer(value)
    if seat is None or not 0 <= seat <= 3:
        raise GuandanError(f"a seat is an int 0..3, got {value!r}")
    return seat
