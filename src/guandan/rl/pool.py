"""A training run's checkpoints rated against a pool: the last checkpoints, each the others'
opponent, and fixed bots (``greedy``, ``random``, any agent spec), in one round robin of
seeded deal pairs (:func:`guandan.bots.arena.tournament`: one deal each way, sides swapped),
then ratings by maximum likelihood with ``greedy`` (the first fixed bot) at 0 and a curve of
the checkpoints' ratings against their frames.

A checkpoint is an exported network ``model-<frames>.onnx`` in the run's folder (what
:mod:`guandan.rl.torch_train` writes at every checkpoint), played by the ``onnx:`` agent. The
run is logged to ``pool.jsonl`` in the folder (``--out``): the same command again goes on
where it stopped, and a checkpoint added since starts a new log (the pool changed).

    python -m guandan.rl.pool runs/dmc --last 6 --pairs 40 --plot runs/dmc/pool.png

>>> checkpoint_frames("model-120000.onnx"), checkpoint_frames("model.onnx")
(120000, None)
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..bots.arena import Tournament, tournament
from ..bots.registry import agent_factory
from ..errors import GuandanError, check_int, describe

__all__ = ["PoolRating", "checkpoint_frames", "checkpoints", "main", "rate_checkpoints"]

_CHECKPOINT = re.compile(r"model-(\d+)\.onnx\Z")


def checkpoint_frames(name: str) -> int | None:
    """The frames of a checkpoint's file name (``model-<frames>.onnx``), else ``None``."""
    match = _CHECKPOINT.match(os.path.basename(name))
    return int(match.group(1)) if match else None


def checkpoints(directory: str) -> list[tuple[int, str]]:
    """The checkpoints of a run's folder, ``(frames, path)`` by frames.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> for name in ("model-20.onnx", "model-3.onnx", "model.onnx", "notes.txt"): _ = (folder / name).write_text("")
    >>> [frames for frames, _ in checkpoints(str(folder))]
    [3, 20]
    """
    if not os.path.isdir(directory):
        raise GuandanError(f"no folder {directory!r} of checkpoints (model-<frames>.onnx)")
    found = []
    for name in os.listdir(directory):
        frames = checkpoint_frames(name)
        if frames is not None:
            found.append((frames, os.path.join(directory, name)))
    return sorted(found)


@dataclass
class PoolRating:
    """The pool's round robin (:class:`~guandan.bots.arena.Tournament`), its fixed bots and
    the frames of each checkpoint in it (in the tournament's order, after the fixed bots)."""

    tournament: Tournament
    fixed: list[str]
    frames: list[int]

    def curve(self) -> list[dict[str, Any]]:
        """Each checkpoint's rating: ``{"frames", "elo", "elo_ci", "score"}`` by frames."""
        rows = self.tournament.summary()["bots"][len(self.fixed) :]
        return [{"frames": f, "elo": r["elo"], "elo_ci": r["elo_ci"], "score": r["score"]}
                for f, r in zip(self.frames, rows, strict=True)]  # fmt: skip

    def summary(self) -> dict[str, Any]:
        """As JSON values: the tournament's summary and the curve."""
        return {**self.tournament.summary(), "fixed": self.fixed, "curve": self.curve()}

    def format(self) -> str:
        """The ratings' table, then the curve."""
        lines = [self.tournament.format(), "", "checkpoints by frames (Elo, 95% interval):"]
        for row in self.curve():
            low, high = row["elo_ci"]
            lines.append(f"  {row['frames']:>12,}  {row['elo']:+6.0f}  [{low:+.0f}, {high:+.0f}]")
        return "\n".join(lines)

    def plot(self, path: str) -> None:
        """Draw the curve with its intervals and the fixed bots' ratings to ``path`` (needs matplotlib)."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        curve = self.curve()
        s = self.tournament.summary()
        fig, ax = plt.subplots(figsize=(7, 4))
        x = [r["frames"] for r in curve]
        y = [r["elo"] for r in curve]
        err = [[r["elo"] - r["elo_ci"][0] for r in curve], [r["elo_ci"][1] - r["elo"] for r in curve]]
        ax.errorbar(x, y, yerr=err, fmt="o-", capsize=4, label="checkpoints")
        for row in s["bots"][: len(self.fixed)]:
            ax.axhline(row["elo"], ls="--", lw=0.8, color="grey")
            ax.annotate(row["bot"], (x[0] if x else 0, row["elo"]), fontsize=8, va="bottom")
        ax.set_xlabel("frames")
        ax.set_ylabel(f"Elo ({s['anchor']} at 0; 95% intervals)")
        ax.set_title(f"checkpoints against the pool: {s['pairs']} pairs of deals, seed {self.tournament.seed}")
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)


def rate_checkpoints(
    directory: str,
    *,
    last: int = 6,
    fixed: Sequence[str] = ("greedy", "random"),
    pairs: int = 20,
    seed: int = 0,
    workers: int | None = None,
    out: str | None = None,
) -> PoolRating:
    """The last ``last`` checkpoints of ``directory`` and the ``fixed`` bots in a round robin
    of ``pairs`` deal pairs a pairing (seeded by ``seed``), the first fixed bot at 0. ``out``:
    the log (default ``pool.jsonl`` in the folder; ``""`` for none); a run continues it.

    >>> import tempfile
    >>> from guandan.rl.qnet import QNetwork
    >>> folder = tempfile.mkdtemp()
    >>> for frames in (10, 20): QNetwork(hidden=(4,), seed=frames).to_onnx(f"{folder}/model-{frames}.onnx")
    >>> rating = rate_checkpoints(folder, fixed=["random"], pairs=1, workers=1, out="")
    >>> [row["frames"] for row in rating.curve()], rating.tournament.bots[0]
    ([10, 20], 'random')
    """
    last = check_int("last", last, 1)
    if isinstance(fixed, str) or not fixed:
        raise GuandanError(f"fixed is a list of one agent spec or more, got {describe(fixed)}")
    for spec in fixed:
        agent_factory(spec)  # an unknown spec refused before anything is played
    found = checkpoints(directory)[-last:]
    if not found:
        raise GuandanError(f"no checkpoint (model-<frames>.onnx) in {directory!r}")
    bots = [*fixed, *(f"onnx:model={path}" for _, path in found)]
    log = os.path.join(directory, "pool.jsonl") if out is None else (out or None)
    if log is not None and os.path.exists(log) and not _same_pool(log, bots):
        os.replace(log, log + ".old")  # the pool changed: a new round robin (the old log kept aside)
    t = tournament(bots, pairs=pairs, seed=seed, workers=workers, out=log)
    return PoolRating(t, list(fixed), [f for f, _ in found])


def _same_pool(log: str, bots: list[str]) -> bool:
    """Whether the log at ``log`` is a round robin of these bots."""
    try:
        with open(log, encoding="utf-8") as file:
            header = json.loads(file.readline())
    except (OSError, ValueError):
        return False
    return isinstance(header, dict) and header.get("bots") == bots


def build_parser() -> argparse.ArgumentParser:
    """The command's arguments."""
    p = argparse.ArgumentParser(
        prog="python -m guandan.rl.pool",
        description="Rate a training run's last checkpoints (model-<frames>.onnx) against each other and "
        "fixed bots: a round robin of seeded deal pairs, Elo by maximum likelihood (the first fixed bot at 0), "
        "and the curve of the checkpoints' ratings by frames.",
    )
    p.add_argument("directory", help="the run's folder, holding model-<frames>.onnx")
    p.add_argument("--last", type=int, default=6, help="how many of the latest checkpoints (default 6)")
    p.add_argument("--fixed", default="greedy,random", help="fixed bots, comma-separated specs (default greedy,random)")
    p.add_argument("--pairs", type=int, default=20, help="deal pairs of each pairing (default 20)")
    p.add_argument("--seed", type=int, default=0, help="the run seed of the deals (default 0)")
    p.add_argument("--workers", type=int, default=None, help="processes (default: every core)")
    p.add_argument("--out", default=None, help="the log (default DIRECTORY/pool.jsonl); the same command continues it")
    p.add_argument("--plot", metavar="FILE.png", help="draw the curve to FILE")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m guandan.rl.pool``: exit status 0, or 2 with one line on bad input."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        rating = rate_checkpoints(
            args.directory, last=args.last, fixed=[s for s in args.fixed.split(",") if s], pairs=args.pairs,
            seed=args.seed, workers=args.workers, out=args.out,
        )
        if args.plot:
            rating.plot(args.plot)
    except GuandanError as error:
        parser.exit(2, f"{parser.prog}: error: {error}\n")
    print(json.dumps(rating.summary()) if args.json else rating.format())
    return 0


if __name__ == "__main__":
    sys.exit(main())
