"""Start a competition bot whose server address is written in its files, for ``guandan arena``'s
``cmd:`` bots: the finalists' rule bots (Python with ``ws4py``), which are not part of this
repository. Standard library only: it runs under the bots' own Python (the one with ``ws4py``
and ``numpy``), not the package's.

It copies the bot's folder to a temporary folder of its own (some bots write files next to
themselves: two seats of one bot must not share them), points every address
``ws://127.0.0.1:23456/game/...`` written in its ``.py`` files at ``--url``, seeds Python's
``random`` module with ``--seed`` (where the bots draw their random choices) under
``PYTHONHASHSEED=0``, and runs the script of the seat: ``SCRIPTS`` is one script, or one per
seat of a side (``client1.py,client3.py``: the first for seat 0 or 1, the second for 2 or 3).
The temporary folder is removed when the bot ends or is asked to end (SIGTERM).

    guandan arena mc "cmd:/tmp/fb/bin/python benchmarks/field_bot.py DIR/bot-a client1.py,client3.py
        --url {url} --seat {seat} --seed {seed}" --games --pairs 4 --seed 31
"""

from __future__ import annotations

import argparse
import atexit
import os
import re
import runpy
import shutil
import signal
import sys
import tempfile
from pathlib import Path
from types import FrameType

#: The server addresses written in the bots' files.
ADDRESS = re.compile(r"ws://127\.0\.0\.1:23456/game/[A-Za-z0-9_]*")


def script_of_seat(scripts: list[str], seat: int) -> str:
    """The script a seat runs: one script for every seat, or one per seat of a side.

    >>> script_of_seat(["client1.py", "client3.py"], 1), script_of_seat(["client1.py", "client3.py"], 2)
    ('client1.py', 'client3.py')
    """
    return scripts[min(seat // 2, len(scripts) - 1)]


def copy_pointed(source: Path, url: str) -> Path:
    """A copy of the bot's folder in a temporary folder, its addresses pointed at ``url``."""
    folder = Path(tempfile.mkdtemp(prefix="field-bot-")) / source.name
    shutil.copytree(source, folder)
    for path in folder.rglob("*.py"):
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
        if ADDRESS.search(text):
            path.write_text(ADDRESS.sub(url, text), encoding="utf-8", errors="surrogateescape")
    return folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="the bot's folder (left as it is: a copy runs)")
    parser.add_argument("scripts", help="the script, or one per seat of a side: client1.py,client3.py")
    parser.add_argument("--url", required=True, help="the server's WebSocket URL ({url} of a cmd: bot)")
    parser.add_argument("--seat", type=int, default=0, help="the seat, 0 to 3 ({seat})")
    parser.add_argument("--seed", type=int, default=0, help="seeds Python's random module ({seed})")
    args = parser.parse_args(argv)
    scripts = [s for s in args.scripts.split(",") if s]
    for script in scripts:
        if not (args.folder / script).is_file():
            parser.error(f"no {script} in {args.folder}")
    if os.environ.get("PYTHONHASHSEED") != "0":  # the same messages give the same plays only with it
        words = sys.argv[1:] if argv is None else argv
        os.execve(sys.executable, [sys.executable, __file__, *words], {**os.environ, "PYTHONHASHSEED": "0"})
    folder = copy_pointed(args.folder, args.url)
    atexit.register(shutil.rmtree, folder.parent, True)

    def ended(signum: int, frame: FrameType | None) -> None:
        shutil.rmtree(folder.parent, ignore_errors=True)
        os._exit(0)  # the bots' connection threads would keep the interpreter waiting

    signal.signal(signal.SIGTERM, ended)
    import random

    random.seed(args.seed)
    os.chdir(folder)
    sys.path.insert(0, str(folder))
    script = script_of_seat(scripts, args.seat)
    sys.argv = [script]
    runpy.run_path(script, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
