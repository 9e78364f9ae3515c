"""Reading the server's values, tolerantly: seats, ranks, cards and actions as a platform
server may write them, each read into the engine's terms or ``None`` when it is not one
(never an exception). The client's :class:`~guandan.platform.seat.SeatView` reads every
message through these.

**Tolerance** (the protocol's sources, ``docs/platform.md``, and the organisers' example bot): ``greaterPos`` and
``greaterAction`` swapped (read by type: a seat is an int, an action a list); an action as
``[type, rank, cards]`` or as an object ``{"type", "rank", "actions"}``; ranks as letters
(``T``), numbers (``10``, ``1`` or ``14`` for the ace) or names (``10``); card codes as the
package reads them (``HT``, ``H10``); a field under either of its names (:func:`_pick`).

>>> _read_action({"type": "Single", "rank": 10, "actions": ["H10"]}).as_list()
['Single', 'T', ['HT']]
>>> _rank("T"), _rank(1), _faces(["HT", "H10", "SB"]), _faces(["HT", "X"])
(<Rank.TEN: 10>, <Rank.ACE: 14>, [33, 33, 52], None)
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.cards import NUM_FACES, Cards, Rank, card_name, parse_card, parse_level
from ..core.movegen import pack_move
from ..core.moves import Move, MoveType
from ..core.packed import KEY_NONE, move_bits, word_key, word_type
from ..errors import GuandanError
from ..game.history import Phase
from .actions import ACTION_TYPES, from_action

__all__ = ["ActionKey", "read_json"]

_PASS_KEY = (int(MoveType.PASS), KEY_NONE, 0)
_JOKER_KEY_INDEX = KEY_NONE
_TYPE_OF_NAME: dict[str, MoveType] = {
    name.lower(): t for t, name in ACTION_TYPES.items() if t != MoveType.JOKER_BOMB
}
_NAME_OF_TYPE: dict[MoveType, str] = dict(ACTION_TYPES)
_FACE_OF_CODE: dict[str, int] = {card_name(c, "code"): c for c in range(NUM_FACES)}
_STAGE_PHASE = {"play": Phase.PLAY, "tribute": Phase.TRIBUTE, "back": Phase.RETURN}

#: An entry of an ``actionList`` as the client compares it: (move type, key index, cards packed
#: 2 bits per face) — the key index is the key rank - 2 (an ace-low sequence: the ace's, 12),
#: 15 for the joker bomb and the pass.
ActionKey = tuple[int, int, int]


_DIGITS = re.compile(r"-?[0-9]{1,18}")


def _int(value: Any) -> int | None:
    """An int given as an int or a string of at most 18 ASCII digits (never a bool; not
    ``"²"`` or ``"٣"``, which :meth:`str.isdigit` accepts; not a number too long to read).

    >>> _int(3), _int(" -2 "), _int("²"), _int("9" * 5000), _int(True), _int(2.0)
    (3, -2, None, None, None, None)
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        text = value.strip()
        if _DIGITS.fullmatch(text):
            return int(text)
    return None


#: Containers nested deeper than this in a server's message are read as ``null``.
_MAX_DEPTH = 64
_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[{]+|[\]}]+')


def read_json(text: str | bytes) -> Any:
    """A server's message read as JSON, whatever it holds: a number too long for Python
    to read (over 4,300 digits) is read as ``None``, and containers nested deeper than
    64 levels (deeper than Python's parser goes) as ``None``, so that the rest of the
    message — an ``act`` and its ``actionList`` — is still read. Raises ``ValueError`` when
    the text is not JSON at all (or not UTF-8).

    >>> read_json('{"type": "act", "indexRange": ' + "9" * 5000 + "}")
    {'type': 'act', 'indexRange': None}
    >>> read_json('{"type": "act", "x": ' + "[" * 5000 + "]" * 5000 + ', "indexRange": 0}')
    {'type': 'act', 'x': [[[[...]]]], 'indexRange': 0}
    """
    if isinstance(text, bytes | bytearray):
        text = bytes(text).decode("utf-8")
    try:
        return json.loads(text, parse_int=_read_int)
    except RecursionError:
        return json.loads(_shallow(text), parse_int=_read_int)


def _read_int(digits: str) -> int | None:
    try:
        return int(digits)
    except ValueError:  # more digits than Python converts
        return None


def _shallow(text: str, depth: int = _MAX_DEPTH) -> str:
    """The JSON text with every container nested deeper than ``depth`` replaced by ``null``
    (strings are skipped over, so brackets inside them do not count; runs of brackets are
    counted at once)."""
    parts: list[str] = []
    level, cut, last = 0, -1, 0
    for token in _JSON_TOKENS.finditer(text):
        run = token.group()
        if run[0] == '"':
            continue
        n = len(run)
        if run[0] in "[{":
            if cut < 0 and level + n > depth:
                cut = token.start() + depth - level  # the bracket that opens level depth + 1
            level += n
        else:
            if cut >= 0 and level - n <= depth:
                parts += [text[last:cut], "null"]
                last, cut = token.start() + level - depth, -1  # after the bracket closing it
            level -= n
    parts.append(text[last:])
    return "".join(parts)


def _seat(value: Any) -> int | None:
    n = _int(value)
    return n if n is not None and 0 <= n <= 3 else None


def _rank(value: Any) -> Rank | None:
    """A rank or level as a server may write it: a letter, a name, a number (1 as the ace)."""
    if isinstance(value, bool) or value is None:
        return None
    if _int(value) == 1:
        return Rank.ACE
    try:
        return parse_level(value)
    except (GuandanError, TypeError):
        return None


def _face(token: Any) -> int | None:
    if not isinstance(token, str):
        return None
    face = _FACE_OF_CODE.get(token)
    if face is None:
        try:
            face = parse_card(token)
        except GuandanError:
            return None
    return face


def _faces(tokens: Any) -> list[int] | None:
    """The card indices of a list of card codes, ``None`` if any is not a card."""
    if not isinstance(tokens, list | tuple):
        return None
    faces = []
    for token in tokens:
        face = _face(token)
        if face is None:
            return None
        faces.append(face)
    return faces


def _hand(faces: Sequence[int]) -> Cards | None:
    try:
        return Cards.from_cards(faces)
    except GuandanError:
        return None


def _bits(faces: Iterable[int]) -> int:
    """Cards packed 2 bits per face (the layout of the core's words)."""
    bits = 0
    for face in faces:
        bits += 1 << (2 * face)
    return bits


@dataclass(frozen=True)
class _Action:
    """An action of a message, read: ``kind`` is ``pass``, ``play``, ``tribute`` or ``back``;
    a play has its type name, rank letter (or ``JOKER``) and cards."""

    kind: str
    type_name: str = ""
    letter: str = ""
    faces: tuple[int, ...] = ()
    key: ActionKey | None = None

    def as_list(self) -> list[Any]:
        """The canonical ``[type, rank, cards]`` form."""
        codes = [card_name(c, "code") for c in self.faces]
        if self.kind == "pass":
            return ["PASS", "PASS", "PASS"]
        if self.kind in ("tribute", "back"):
            return [self.kind, self.kind, codes]
        return [self.type_name, self.letter, codes]


_PASS = _Action("pass", key=_PASS_KEY)


def _read_action(value: Any) -> _Action | None:
    """An action as ``[type, rank, cards]`` (or an object with ``type``, ``rank`` and
    ``actions`` / ``cards``); ``None`` when it is not one."""
    if isinstance(value, dict):
        value = [value.get("type"), value.get("rank"), value.get("actions", value.get("cards"))]
    if isinstance(value, str) and value.upper() == "PASS":
        return _PASS
    if not isinstance(value, list | tuple) or len(value) != 3:
        return None
    type_name, letter, tokens = value
    if not isinstance(type_name, str):
        return None
    lowered = type_name.lower()
    if lowered == "pass":
        return _PASS
    faces = _faces(tokens)
    if faces is None:
        return None
    if lowered in ("tribute", "back"):
        return _Action(lowered, faces=tuple(faces)) if len(faces) == 1 else None
    if not faces:
        return None
    move_type = _TYPE_OF_NAME.get(lowered)
    if move_type is None:  # a type this client does not know: its cards still say what it is
        return _Action("play", type_name, str(letter), tuple(faces), (-1, -1, _bits(faces)))
    if isinstance(letter, str) and letter.upper() == "JOKER":
        move_type, index, text = MoveType.JOKER_BOMB, _JOKER_KEY_INDEX, "JOKER"
    else:
        rank = _rank(letter)
        if rank is None and isinstance(letter, str):
            rank = {"B": Rank.SMALL_JOKER, "SB": Rank.SMALL_JOKER, "R": Rank.BIG_JOKER, "HR": Rank.BIG_JOKER}.get(
                letter.upper()
            )
        if rank is None:  # a key this client cannot read
            index, text = -1, str(letter)
        else:
            index, text = int(rank) - 2, rank.letter
    return _Action("play", _NAME_OF_TYPE[move_type], text, tuple(faces), (int(move_type), index, _bits(faces)))


def _move_key(move: Move) -> ActionKey:
    lo, hi = pack_move(move)
    return _word_key(lo, hi)


def _word_key(lo: int, hi: int) -> ActionKey:
    return (word_type(hi), word_key(hi), move_bits(lo, hi))


def _move(action: _Action, level: Rank) -> Move | None:
    """The engine's move of a play or pass action at a level, ``None`` if it is not one."""
    if action.kind == "pass":
        return Move.pass_(level)
    if action.kind != "play":
        return None
    try:
        return from_action(action.as_list(), level)
    except GuandanError:
        return None


def _pick(message: dict[str, Any], *names: str) -> Any:
    for name in names:
        if name in message:
            return message[name]
    return None


def _greater(message: dict[str, Any]) -> tuple[Any, Any]:
    """``greaterPos`` and ``greaterAction``, read by type (the manual's example swaps them)."""
    pos, action = message.get("greaterPos"), message.get("greaterAction")
    if isinstance(pos, list | dict | str) and (action is None or isinstance(action, int)):
        pos, action = action, pos
    return pos, action
