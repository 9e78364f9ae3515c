"""The message log (``--log``) of both sides: every message received and sent, one JSON line
each with its time, and the connection events — written by the server
(:class:`~guandan.platform.server.PlatformServer`, ``guandan serve --log``) and by the client
(:func:`~guandan.platform.connect.run_client`, ``guandan connect --log``).

A message is ``{"t": TIME, FIELDS…, "msg": ITS JSON}`` — or ``"raw": ITS TEXT`` (a JSON
string) when it is not JSON — where TIME is the Unix time with six decimals and FIELDS say
where the message went, in the order given (``"dir"``: ``"in"`` or ``"out"``; the server
puts its ``"table"`` first and the ``"seat"`` or ``"seats"`` after). An event is
``{"t": TIME, "event": NAME, DETAILS…}``.

>>> import io
>>> out = io.StringIO()
>>> log = MessageLog(out)
>>> log.message('{"actIndex": 3}', dir="out")
>>> log.message(b"hello", table=0, dir="in", seat=2)
>>> log.event("close", code=1000, reason="every game is played")
>>> print(out.getvalue(), end="")
{"t":...,"dir":"out","msg":{"actIndex":3}}
{"t":...,"table":0,"dir":"in","seat":2,"raw":"hello"}
{"t":...,"event":"close","code":1000,"reason":"every game is played"}
"""

from __future__ import annotations

import json
import os
import time
from typing import IO, Any

from ..errors import GuandanError
from .messages import log_body

__all__ = ["MessageLog"]


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

    def message(self, text: str | bytes, **fields: Any) -> None:
        """A message as it was received or sent (its text: JSON, or anything else), after ``fields``."""
        if self._file is None:
            return
        key, body = log_body(text)
        self._line(fields, key, body)

    def json_message(self, text: str, **fields: Any) -> None:
        """A message whose text is compact JSON already (what the server sends): written as it is."""
        if self._file is not None:
            self._line(fields, "msg", text)

    def _line(self, fields: dict[str, Any], key: str, body: str) -> None:
        assert self._file is not None
        more = "".join(f',"{k}":{json.dumps(v)}' for k, v in fields.items())
        self._file.write(f'{{"t":{time.time():.6f}{more},"{key}":{body}}}\n')

    def event(self, event: str, **details: Any) -> None:
        """An event (a connection, a table's start or end, …) with its details."""
        if self._file is not None:
            line = {"t": round(time.time(), 6), "event": event, **details}
            self._file.write(json.dumps(line, separators=(",", ":")) + "\n")

    def close(self) -> None:
        """Close the file if it was opened here; nothing is written after."""
        if self._own and self._file is not None:
            self._file.close()
        self._file = None
