"""The message log (``--log``) of both sides: every message received and sent, one JSON line
each with its time, and the connection events — written by the server
(:class:`~guandan.platform.server.PlatformServer`, ``guandan serve --log``) and by the client
(:func:`~guandan.platform.connect.run_client`, ``guandan connect --log``).

A message is ``{"t": TIME, FIELDS…, "msg": ITS JSON}`` — or ``"raw": ITS TEXT`` (a JSON
string) when it is not strict JSON, ``"base64": ITS BYTES`` when it is bytes that are not
UTF-8 (:func:`~guandan.platform.messages.log_body`) — where TIME is the Unix time with six
decimals and FIELDS say where the message went, in the order given (``"dir"``: ``"in"`` or
``"out"``; the server puts its ``"table"`` first and the ``"seat"`` or ``"seats"`` after). An
event is ``{"t": TIME, "event": NAME, DETAILS…}``. Every line is strict JSON (no ``NaN``
or ``Infinity``: a float that is not finite is written ``null``).

**A bounded log.** A message given with ``limit`` (what a peer sent: the server passes
:data:`RECEIVED_LIMIT` characters) that is longer is written cut to its first ``limit``
characters, as ``"raw"``, after ``"truncated": ITS LENGTH`` — so a peer that sends large
frames grows the log by at most ``limit`` characters a message, and the line says so.

>>> import io
>>> out = io.StringIO()
>>> log = MessageLog(out)
>>> log.message('{"actIndex": 3}', dir="out")
>>> log.message(b"hello", table=0, dir="in", seat=2)
>>> log.message("x" * 5000, limit=8, dir="in")
>>> log.event("close", code=1000, reason="every game is played", mean=float("nan"))
>>> print(out.getvalue(), end="")
{"t":...,"dir":"out","msg":{"actIndex":3}}
{"t":...,"table":0,"dir":"in","seat":2,"raw":"hello"}
{"t":...,"dir":"in","truncated":5000,"raw":"xxxxxxxx"}
{"t":...,"event":"close","code":1000,"reason":"every game is played","mean":null}
"""

from __future__ import annotations

import json
import math
import os
import time
from typing import IO, Any

from ..errors import GuandanError
from .messages import log_body

__all__ = ["MessageLog", "RECEIVED_LIMIT"]

#: The characters of a message received that the server's log keeps (an answer is
#: ``{"actIndex": i}``, at most 23 characters; anything longer than this is cut, and says so).
RECEIVED_LIMIT = 1024


class MessageLog:
    """A JSONL log of messages and events (the format is the module's): ``target`` is a path
    (the file is created, and closed by :meth:`close`), an open text file (written to, never
    closed here), or ``None`` (nothing is written). Raises :class:`~guandan.GuandanError`
    when the file cannot be created."""

    def __init__(self, target: str | os.PathLike[str] | IO[str] | None) -> None:
        self._own = False
        self._file: IO[str] | None = None
        if target is None:
            return
        if hasattr(target, "write"):
            self._file = target  # type: ignore[assignment]
            return
        try:
            self._file = open(target, "w", encoding="utf-8")  # noqa: SIM115 - closed in close()
        except OSError as error:
            raise GuandanError(f"cannot write the log {str(target)!r}: {error}") from None
        self._own = True

    def message(self, text: str | bytes, *, limit: int | None = None, **fields: Any) -> None:
        """A message as it was received or sent (its text: JSON, or anything else), after
        ``fields``; longer than ``limit`` characters (or bytes), cut to them (see the module)."""
        if self._file is None:
            return
        if limit is not None and len(text) > limit:
            head = text[:limit]
            if not isinstance(head, str):
                head = bytes(head).decode("utf-8", "backslashreplace")
            self._line({**fields, "truncated": len(text)}, "raw", json.dumps(head))
            return
        key, body = log_body(text)
        self._line(fields, key, body)

    def json_message(self, text: str, **fields: Any) -> None:
        """A message whose text is compact JSON already (what the server sends): written as it is."""
        if self._file is not None:
            self._line(fields, "msg", text)

    def _line(self, fields: dict[str, Any], key: str, body: str) -> None:
        assert self._file is not None
        more = "".join(f',"{k}":{_dumps(v)}' for k, v in fields.items())
        self._file.write(f'{{"t":{time.time():.6f}{more},"{key}":{body}}}\n')

    def event(self, event: str, **details: Any) -> None:
        """An event (a connection, a table's start or end, …) with its details."""
        if self._file is not None:
            line = {"t": round(time.time(), 6), "event": event, **details}
            self._file.write(_dumps(line) + "\n")

    def close(self) -> None:
        """Close the file if it was opened here; nothing is written after."""
        if self._own and self._file is not None:
            self._file.close()
        self._file = None


def _dumps(value: Any) -> str:
    """Compact, strict JSON: a float that is not finite (``NaN``, ``Infinity``) as ``null``."""
    try:
        return json.dumps(value, separators=(",", ":"), allow_nan=False)
    except ValueError:
        return json.dumps(_finite(value), separators=(",", ":"), allow_nan=False)


def _finite(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value
