"""Play whole games on ``guandan serve``'s server with the AI competition organisers' example bot.

The organisers ship an example bot with the offline platform (``client1.py`` … ``client4.py``,
``state.py``, ``action.py``; Apache-2.0; they need ``ws4py``): every competition bot was
started from it. It is not part of this repository, so this check is not in the test
suite: give the directory that holds it.

The script copies those files to a temporary directory (the clients' URL pointed at this
server's port), starts a platform server in this process, runs the four clients in
connection order, waits for the end, and checks that every client exited cleanly after
``gameResult``, that the server saw no bad answer, and that every game's record replays.

    python tools/platform_example_clients.py /work/shared/platform-clients --games 2 --seed 1

Exit status 0 when everything holds, 1 otherwise (what failed is printed).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from guandan.platform import start_server
from guandan.records import replay

FILES = ("client1.py", "client2.py", "client3.py", "client4.py", "state.py", "action.py", "LICENSE")
ORIGINAL_URL = "ws://127.0.0.1:23456/game/"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("clients", type=Path, help="the directory of the organisers' example clients")
    parser.add_argument("--games", type=int, default=1, help="whole matches to play (default 1)")
    parser.add_argument("--seed", type=int, default=1, help="the server's seed (default 1)")
    parser.add_argument("--ruleset", default="platform", help="the server's ruleset (default platform)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds before giving up (default 600)")
    args = parser.parse_args(argv)

    work = Path(tempfile.mkdtemp(prefix="guandan-platform-clients-"))
    for name in FILES:
        source = args.clients / name
        if not source.exists():
            print(f"missing {source}", file=sys.stderr)
            return 1
        shutil.copy(source, work / name)

    failures: list[str] = []
    start = time.monotonic()
    with start_server(port=0, games=args.games, seed=args.seed, ruleset=args.ruleset, records=work / "records") as srv:
        for i in range(1, 5):
            path = work / f"client{i}.py"
            text = path.read_text(encoding="utf-8")
            if ORIGINAL_URL not in text:
                print(f"{path.name} does not connect to {ORIGINAL_URL}", file=sys.stderr)
                return 1
            path.write_text(text.replace(ORIGINAL_URL, srv.url), encoding="utf-8")
        procs = []
        for i in range(1, 5):
            out = open(work / f"client{i}.out", "w", encoding="utf-8")  # noqa: SIM115 - closed below
            procs.append((subprocess.Popen([sys.executable, f"client{i}.py"], cwd=work, stdout=out, stderr=out), out))
            while srv.server.tables[0].names.count(None) > 4 - i:  # connection order makes the seats
                if time.monotonic() - start > args.timeout:
                    failures.append(f"client{i} did not connect")
                    break
                time.sleep(0.05)
        try:
            result = srv.wait(max(1.0, args.timeout - (time.monotonic() - start)))
        except TimeoutError as error:
            failures.append(str(error))
            result = srv.stop()
    for i, (proc, out) in enumerate(procs, 1):
        try:
            code = proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            code = None
        out.close()
        text = (work / f"client{i}.out").read_text(encoding="utf-8", errors="replace")
        if code != 0:
            failures.append(f"client{i} exited with {code}")
        if "Traceback" in text:
            failures.append(f"client{i} raised:\n{text[text.index('Traceback'):][:2000]}")
        if "达到设定场次" not in text:  # what the example bot prints on gameResult
            failures.append(f"client{i} did not receive gameResult")
        if "Closed down 1000" not in text:
            failures.append(f"client{i} was not closed with code 1000")
    table = result.tables[0]
    if not result.complete:
        failures.append(f"the table did not finish: {table.abort_reason}")
    if any(s.ignored for s in table.seats):
        failures.append(f"the server ignored answers: {[s.ignored for s in table.seats]}")
    for record, match in zip(result.records, srv.server.tables[0].matches):
        if replay(record) != match:
            failures.append("a record does not replay to its game")
    print(result.format())
    print(f"clients' output and records in {work}; {time.monotonic() - start:.1f} s")
    if failures:
        print("FAILED:\n" + "\n".join(failures), file=sys.stderr)
        return 1
    print(f"OK: the organisers' example clients played {result.games_played} whole game(s), {result.deals} deals")
    return 0


if __name__ == "__main__":
    sys.exit(main())
