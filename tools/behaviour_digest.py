#!/usr/bin/env python3
"""What the package's front doors print and write for fixed seeds, as files and one digest,
so that a change can be shown to leave the behaviour byte-identical.

    python tools/behaviour_digest.py --out /tmp/before      # on the old code
    python tools/behaviour_digest.py --out /tmp/after       # on the new code
    diff /tmp/before/DIGEST /tmp/after/DIGEST               # one line per artefact

It runs, each in a fresh interpreter of this environment (``python -m guandan``):

* ``guandan simulate`` with a few seeds and agent mixes (the search bot ``mc:rollouts=200``,
  ``random``, ``greedy``; deals and matches, two rulesets): the rows (``--out``, JSON Lines),
  the summary (``--json``, less its times) and, for some, every game's record (``--records``);
* ``guandan replay`` of one of those records (what the terminal prints);
* a seeded local platform run (:func:`guandan.platform.run_local`, a server in a thread and
  four clients over sockets) with the server's message log (``log=``) and its records: the
  log's lines without their times (``"t"``) and without the connection events (which carry
  ports and client addresses), the records as written.

``DIGEST`` lists each artefact's sha256 and the sha256 of the whole list. Two runs of the
same code write the same bytes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from pathlib import Path

#: (name, arguments of ``guandan simulate``): small runs, a minute or so in all on one core.
SIMULATIONS: tuple[tuple[str, list[str]], ...] = (
    ("sim-deals-mc200-greedy-s1", ["8", "--deals", "--agents", "mc:rollouts=200,greedy", "--seed", "1"]),
    ("sim-deals-greedy-mc200-s5", ["6", "--deals", "--agents", "greedy,mc:rollouts=200", "--seed", "5"]),
    ("sim-deals-random-s2", ["200", "--deals", "--agents", "random", "--seed", "2"]),
    ("sim-matches-greedy-random-s3", ["12", "--agents", "greedy,random", "--seed", "3"]),
    ("sim-matches-mixed4-s4", ["6", "--agents", "random,greedy,greedy:bomb_threshold=2,random", "--seed", "4"]),
    ("sim-matches-huaian-s6", ["4", "--agents", "greedy", "--ruleset", "huaian", "--seed", "6"]),
    ("sim-matches-mc200-random-s7", ["1", "--agents", "mc:rollouts=200,random", "--seed", "7"]),
)
#: Which simulations also write their records (one file per game).
WITH_RECORDS = ("sim-matches-greedy-random-s3", "sim-matches-mc200-random-s7")
#: The fields of ``simulate --json``'s summary that are times (left out).
TIMES = ("seconds", "deals_per_s")


def _run(args: list[str], out: Path) -> bytes:
    """``python -m guandan ARGS`` in ``out``; its standard output (a failure stops the script)."""
    done = subprocess.run([sys.executable, "-m", "guandan", *args], cwd=out, capture_output=True, check=False)
    if done.returncode != 0:
        sys.exit(f"guandan {' '.join(args)} failed ({done.returncode}):\n{done.stderr.decode()}")
    return done.stdout


def _platform(out: Path) -> None:
    """A seeded local run with its log and records; the log written without times and events."""
    from guandan.platform import run_local

    raw = out / "platform-raw.jsonl"
    records = out / "platform-records"
    run_local("mc:rollouts=200,greedy,random,greedy", games=2, seed=11, ruleset="platform+cap4",
                    log=raw, records=records)
    kept = []
    for line in raw.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        if "event" in entry:
            continue
        entry.pop("t")
        kept.append(json.dumps(entry, separators=(",", ":")))
    (out / "platform-log.jsonl").write_text("\n".join(kept) + "\n", encoding="utf-8")
    raw.unlink()
    (records / "summary.json").unlink(missing_ok=True)  # times and addresses


def produce(out: Path) -> None:
    """Every artefact, written under ``out`` (made if missing)."""
    out.mkdir(parents=True, exist_ok=True)
    for name, args in SIMULATIONS:
        extra = ["--records", f"{name}-records"] if name in WITH_RECORDS else []
        options = ["--workers", "1", "--quiet", "--json", "--out", f"{name}.jsonl", *extra]
        summary = _run(["simulate", *args, *options], out)
        fields = {k: v for k, v in json.loads(summary).items() if k not in TIMES}
        (out / f"{name}-summary.json").write_text(json.dumps(fields, indent=2) + "\n", encoding="utf-8")
    first = sorted((out / f"{WITH_RECORDS[0]}-records").glob("*.json"))[0]
    (out / "replay.txt").write_bytes(_run(["replay", str(first)], out))
    _platform(out)


def digest(out: Path) -> str:
    """Write ``out/DIGEST`` (each artefact's sha256, then the list's) and return the last."""
    lines = []
    for path in sorted(p for p in out.rglob("*") if p.is_file() and p.name != "DIGEST"):
        lines.append(f"{hashlib.sha256(path.read_bytes()).hexdigest()}  {path.relative_to(out)}")
    whole = hashlib.sha256("\n".join(lines).encode()).hexdigest()
    (out / "DIGEST").write_text("\n".join(lines) + f"\n{whole}  (all)\n", encoding="utf-8")
    return whole


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, type=Path, help="the directory to write (made if missing)")
    args = parser.parse_args(argv)
    if args.out.exists() and any(args.out.iterdir()):
        parser.error(f"{args.out} is not empty")
    produce(args.out)
    count = sum(1 for p in args.out.rglob("*") if p.is_file())
    print(f"{count} artefacts in {args.out}, sha256 {digest(args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
