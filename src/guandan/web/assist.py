"""What the page asks its server besides the game, without any I/O: a record's timeline,
the records of a directory, the search bot's hint, how an action's cards are declared.

The page speaks to ``/assist`` on the server that served it, a WebSocket of JSON requests
``{"id": n, "op": …}``, each answered by one reply ``{"id": n, "ok": true, …}`` or
``{"id": n, "ok": false, "error": "…"}``:

============  =====================================================  ==========================================
op            request fields                                         reply fields
============  =====================================================  ==========================================
``replay``    ``record`` (a record's JSON value), ``text`` (its      ``timeline`` (:mod:`~guandan.web.timeline`),
              text) or ``file`` (a name in the records directory)    ``name``
``records``   —                                                      ``files``: ``[{"name", "bytes"}]``, ``dir``
``hint``      ``messages`` (the protocol messages of the deal so     ``choices``: ``[{"index", "value", "text"}]``
              far, from ``beginning``), ``act`` (the request)        (the best three), ``rollouts``
``declare``   ``level``, ``actions`` (``[type, rank, cards]``)       ``labels``: per action ``{"type", "key",
                                                                     "suit", "as", "text"}`` or ``null``
============  =====================================================  ==========================================

A request longer than a WebSocket message may be sent in parts, ``{"part": "…text…"}``
then ``{"part": "…", "last": true}``: the parts' text joined is the request
(:class:`Parts`, bounded by :data:`MAX_REQUEST`). Bad requests get a reply naming the
problem; nothing a page sends raises.

>>> assistant = Assistant()
>>> reply = assistant.handle({"id": 1, "op": "declare", "level": "9",
...                           "actions": [["ThreeWithTwo", "3", ["S3", "C3", "S5", "C5", "H9"]]]})
>>> reply["ok"], reply["labels"][0]["type"], reply["labels"][0]["as"]
(True, 'full_house', ['S3', 'H3', 'C3', 'S5', 'C5'])
>>> assistant.handle({"id": 2, "op": "fly"})
{'id': 2, 'ok': False, 'error': "unknown op 'fly' (one of declare, hint, records, replay)"}
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
from pathlib import Path
from typing import Any

from ..bots.registry import make_agent
from ..core.cards import card_name
from ..core.moves import Move
from ..errors import GuandanError, describe
from ..game.rules import PLATFORM, Ruleset, get_ruleset
from ..platform.actions import from_action
from ..platform.seat import SeatView
from ..records.jsonio import move_to_json
from .timeline import MAX_RECORD_BYTES, read_record, timeline

__all__ = [
    "Assistant",
    "Budget",
    "Parts",
    "MAX_REQUEST",
    "RECORD_NAME",
    "record_files",
    "record_path",
    "read_record_file",
]

logger = logging.getLogger("guandan.web")

#: The longest request, parts joined: a record at most :data:`~guandan.web.timeline.MAX_RECORD_BYTES`,
#: and its JSON quoting.
MAX_REQUEST = 2 * MAX_RECORD_BYTES
#: The names of the records the server offers: plain file names ending in ``.json``.
RECORD_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,200}\.json$")
#: The most record files listed (a simulation of thousands of games writes a file each).
MAX_LISTED = 20000
#: How many of the search's choices a hint shows.
HINTS = 3


class Budget:
    """A count of units (characters, bytes) that several holders share, at most ``limit``:
    :meth:`take` reserves (``False`` when that would pass the limit), :meth:`give` returns.

    >>> budget = Budget(10)
    >>> budget.take(6), budget.take(6), budget.held
    (True, False, 6)
    >>> budget.give(6); budget.take(10)
    True
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.held = 0

    def take(self, units: int) -> bool:
        """Reserve ``units``: whether they fit under the limit (if not, nothing is reserved)."""
        if self.held + units > self.limit:
            return False
        self.held += units
        return True

    def give(self, units: int) -> None:
        """Return ``units`` taken before."""
        self.held = max(0, self.held - units)


class Parts:
    """Joins a request sent in parts (``{"part": text, "last": bool}``), at most
    :data:`MAX_REQUEST` characters: :meth:`feed` returns the request's text once its last
    part came (a message that is not a part is a request of its own), else ``None``.
    ``budget``: a :class:`Budget` of characters shared with other connections' parts (a
    server's), which the parts held here draw on until the request is complete or dropped.

    >>> parts = Parts()
    >>> parts.feed('{"part": "{\\\\"op\\\\": "}'), parts.feed('{"part": "\\\\"records\\\\"}", "last": true}')
    (None, '{"op": "records"}')

    A request longer than the limit is dropped with an error, and its remaining parts with it.
    """

    def __init__(self, limit: int = MAX_REQUEST, budget: Budget | None = None) -> None:
        self.limit = limit
        self.budget = budget
        self._parts: list[str] = []
        self._size = 0
        self._skipping = False  # the rest of a request dropped for its length

    def feed(self, text: str | bytes) -> str | None:
        """Take one message; the whole request's text when it is complete.

        Raises :class:`~guandan.GuandanError` when the parts exceed the limit (the parts
        so far are dropped) or a part is not text."""
        if isinstance(text, bytes | bytearray):
            text = bytes(text).decode("utf-8", "replace")
        if not text.startswith('{"part"'):
            self._skipping = False
            if self._parts:
                self._drop()
                raise GuandanError("a request arrived in the middle of another's parts: both dropped")
            return text
        try:
            message = json.loads(text)
        except ValueError:
            self._drop()
            raise GuandanError("a part of a request is not JSON: dropped") from None
        part = message.get("part") if isinstance(message, dict) else None
        if not isinstance(part, str):
            self._drop()
            raise GuandanError(f"a part is {{\"part\": text}}, got {describe(message)}")
        if self._skipping:
            self._skipping = message.get("last") is not True
            return None
        if self._size + len(part) > self.limit:
            self._drop()
            self._skipping = message.get("last") is not True
            raise GuandanError(f"the request is longer than {self.limit:,} characters: dropped")
        if self.budget is not None and not self.budget.take(len(part)):
            self._drop()
            self._skipping = message.get("last") is not True
            raise GuandanError("the server holds as many requests in parts as it may: this one is dropped, try again")
        self._size += len(part)
        self._parts.append(part)
        if message.get("last") is True:
            whole = "".join(self._parts)
            self._drop()
            return whole
        return None

    def close(self) -> None:
        """Drop what is held (the connection is gone)."""
        self._drop()

    def _drop(self) -> None:
        if self.budget is not None:
            self.budget.give(self._size)
        self._parts, self._size = [], 0


def record_files(directory: str | os.PathLike[str] | None) -> list[dict[str, Any]]:
    """The records a directory offers the viewer: its ``*.json`` files (not ``summary.json``,
    which :mod:`~guandan.platform.server` writes beside them), by name, each with its size.
    A name that resolves (through symbolic links) outside the directory is not offered.

    >>> record_files(None)
    []
    """
    if directory is None:
        return []
    files: list[dict[str, Any]] = []
    try:
        root = Path(directory).resolve(strict=True)
        entries = sorted(os.scandir(directory), key=lambda e: e.name)
    except OSError as error:
        raise GuandanError(f"cannot read the records directory {str(directory)!r}: {error}") from None
    for entry in entries:
        if len(files) >= MAX_LISTED:
            break
        if entry.name == "summary.json" or not RECORD_NAME.match(entry.name):
            continue
        real = _inside(root, Path(entry.path))
        if real is not None:
            with contextlib.suppress(OSError):
                files.append({"name": entry.name, "bytes": real.stat().st_size})
    return files


def _inside(root: Path, path: Path) -> Path | None:
    """``path`` resolved (symbolic links followed), when that is a file inside ``root``."""
    try:
        real = path.resolve(strict=True)
    except (OSError, RuntimeError):  # RuntimeError: a loop of links
        return None
    if not real.is_relative_to(root) or not real.is_file():
        return None
    return real


def record_path(directory: str | os.PathLike[str] | None, name: Any) -> Path:
    """The path of the record ``name`` in ``directory``: a plain ``.json`` file name of it
    that resolves, symbolic links followed, to a file inside it; :class:`~guandan.GuandanError`
    naming the problem otherwise. The path returned is the resolved one.

    >>> record_path("/tmp", "../etc/passwd")
    Traceback (most recent call last):
    ...
    guandan.errors.GuandanError: no record '../etc/passwd': a record is named like table0-game1.json
    """
    if directory is None:
        raise GuandanError("this server offers no records (start it with --records DIR)")
    if not isinstance(name, str) or not RECORD_NAME.match(name):
        raise GuandanError(f"no record {describe(name)}: a record is named like table0-game1.json")
    try:
        root = Path(directory).resolve(strict=True)
    except (OSError, RuntimeError):
        raise GuandanError(f"no record {name!r}: the records directory {str(directory)!r} is not there") from None
    path = Path(directory) / name
    real = _inside(root, path)
    if real is None:
        if path.is_symlink() or (path.exists() and path.resolve().is_file()):
            raise GuandanError(f"no record {name!r} in {str(directory)!r}: it leads outside the directory")
        raise GuandanError(f"no record {name!r} in {str(directory)!r}")
    return real


def read_record_file(directory: str | os.PathLike[str] | None, name: Any) -> bytes:
    """The bytes of the record ``name`` of ``directory`` (:func:`record_path`), at most
    :data:`~guandan.web.timeline.MAX_RECORD_BYTES`; :class:`~guandan.GuandanError` naming
    the problem otherwise. The HTTP route ``/records/NAME`` and the viewer's ``replay`` both
    read through it: one rule for what a page may read.

    >>> read_record_file(None, "x.json")
    Traceback (most recent call last):
    ...
    guandan.errors.GuandanError: this server offers no records (start it with --records DIR)
    """
    path = record_path(directory, name)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError as error:
        raise GuandanError(f"cannot read {name}: {error.strerror}") from None
    with os.fdopen(fd, "rb") as file:
        size = os.fstat(file.fileno()).st_size
        if size > MAX_RECORD_BYTES:
            raise GuandanError(f"{name}: {size:,} bytes, larger than the {MAX_RECORD_BYTES:,} bytes a record may have")
        data = file.read(MAX_RECORD_BYTES + 1)
    if len(data) > MAX_RECORD_BYTES:
        raise GuandanError(f"{name}: larger than the {MAX_RECORD_BYTES:,} bytes a record may have")
    return data


class Assistant:
    """Answers the page's requests (see the module's description). ``records``: the
    directory whose records the viewer may open by name; ``hint``: the agent spec whose
    ``analyze`` gives the hint (the search bot, ``mc``, by default); ``ruleset``: the rules
    the table plays, for the hint's seat view; ``seed`` seeds the hint's agent.

    >>> Assistant().handle({"id": 1, "op": "records"})
    {'id': 1, 'ok': True, 'dir': None, 'files': []}
    """

    def __init__(
        self,
        *,
        records: str | os.PathLike[str] | None = None,
        hint: str = "mc",
        ruleset: Ruleset | str | None = PLATFORM,
        seed: int = 0,
    ) -> None:
        self.records = None if records is None else Path(records)
        self.ruleset = get_ruleset(PLATFORM if ruleset is None else ruleset)
        self.hint_spec = hint
        self.seed = seed
        self._hinter: Any = None
        make_agent(hint, seed)  # a bad spec is refused now, not at the first hint

    def handle_text(self, text: str) -> dict[str, Any]:
        """A request's JSON text, answered."""
        try:
            request = json.loads(text)
        except (ValueError, RecursionError):
            return {"id": None, "ok": False, "error": f"the request is not JSON: {describe(text[:120])}"}
        return self.handle(request)

    def handle(self, request: Any) -> dict[str, Any]:
        """A request (a parsed JSON object), answered; never raises for what a page sends."""
        if not isinstance(request, dict):
            return {"id": None, "ok": False, "error": f"a request is a JSON object, got {describe(request)}"}
        rid = request.get("id")
        if not (rid is None or (isinstance(rid, int | str) and not isinstance(rid, bool))):
            rid = None
        op = request.get("op")
        handler = _OPS.get(op) if isinstance(op, str) else None
        if handler is None:
            return {"id": rid, "ok": False, "error": f"unknown op {describe(op)} (one of {', '.join(sorted(_OPS))})"}
        try:
            reply = handler(self, request)
        except GuandanError as error:
            logger.warning("web: the page's %s request failed: %s", op, error)
            return {"id": rid, "ok": False, "error": str(error)}
        return {"id": rid, "ok": True, **reply}

    # -- the ops -----------------------------------------------------------------------------------

    def _replay(self, request: dict[str, Any]) -> dict[str, Any]:
        name = "record"
        if "file" in request:
            name = str(request["file"])
            data = read_record(read_record_file(self.records, request["file"]))
        elif "text" in request:
            text = request["text"]
            if not isinstance(text, str):
                raise GuandanError(f"text is the record's JSON text, got {describe(text)}")
            data = read_record(text)
            name = str(request.get("name") or "record")
        elif "record" in request:
            data = request["record"]
            name = str(request.get("name") or "record")
        else:
            raise GuandanError("a replay request gives a record: record, text or file")
        return {"name": name, "timeline": timeline(data)}

    def _records(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"dir": None if self.records is None else str(self.records), "files": record_files(self.records)}

    def _declare(self, request: dict[str, Any]) -> dict[str, Any]:
        level, actions = request.get("level"), request.get("actions")
        if not isinstance(level, str | int) or isinstance(level, bool):
            raise GuandanError(f"level is a rank letter 2-9, T, J, Q, K, A, got {describe(level)}")
        if not isinstance(actions, list) or len(actions) > 4096:
            raise GuandanError(f"actions is a list of at most 4096 [type, rank, cards], got {describe(actions)}")
        labels: list[dict[str, Any] | None] = []
        for action in actions:
            try:
                move = from_action(action, level)
            except GuandanError:
                labels.append(None)
                continue
            data = move_to_json(move)
            labels.append(
                {"type": data["type"], "key": data["key"], "suit": data["suit"], "as": data.get("as", []),
                 "text": move.format("unicode")}
            )
        return {"labels": labels}

    def _hint(self, request: dict[str, Any]) -> dict[str, Any]:
        messages, act = request.get("messages", []), request.get("act")
        if not isinstance(messages, list) or not isinstance(act, dict) or act.get("type") != "act":
            raise GuandanError("a hint request gives the deal's messages (a list) and the act message")
        view = SeatView(self.ruleset)
        for message in messages:
            view.update(message)
        asked = view.request(act)
        observation = asked.observation
        if observation is None or not len(observation.legal_actions):
            raise GuandanError("no hint: the request offers nothing to choose from")
        if self._hinter is None:
            self._hinter = make_agent(self.hint_spec, self.seed)
        analyze = getattr(self._hinter, "analyze", None)
        if analyze is None:
            raise GuandanError(f"the hint's agent {self.hint_spec!r} cannot analyze (use a search bot: mc)")
        result = analyze(observation)
        choices = []
        for choice in result.choices[:HINTS]:
            index, how = asked.index_of(choice.action)
            action = choice.action
            text = action.format("unicode") if isinstance(action, Move) else card_name(int(action), "unicode")
            choices.append({"index": index if how == "exact" else None, "value": round(choice.value, 3),
                            "text": text})
        return {"rollouts": result.rollouts, "choices": choices}


_OPS = {
    "replay": Assistant._replay,
    "records": Assistant._records,
    "declare": Assistant._declare,
    "hint": Assistant._hint,
}
