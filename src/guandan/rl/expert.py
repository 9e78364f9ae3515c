"""Learning from search: a network over the 567-value rows taught by ``mc``'s own values.

1. **Positions** (:func:`deal_positions`, ``python -m guandan.rl.expert positions``): seeded
   deals played by four ``mc`` bots; at each decision in play whose search has two candidates
   or more, the seat's 513 state values once and the 54-value card vector of every legal
   card-level action (the ``onnx:`` agent's rows, :func:`guandan.game.encoding.encode_rows`),
   each action with the searched value of its rank-level candidate (in levels, +3 .. -3; not a
   number when the search did not consider it; 0 of 0 rollouts when successive halving dropped
   it before its first rollout), the rollouts that judged it, and which action the search
   played. The deals are written in chunks (``chunk-<first deal>.npz`` in the
   output directory, each written whole), by at most ``--workers`` processes; run again, the
   same command makes the chunks still missing. The same options give the same files.
2. **Training** (``python -m guandan.rl.expert train``, needs torch: the ``train`` extra): an
   MLP ``567 -> hidden... -> 1`` scoring each row (:class:`~guandan.rl.torch_train.TorchQNet`),
   its loss the squared error on the searched values of the candidates plus a softmax
   cross-entropy over each decision's legal actions toward the search's choice; checkpoints
   (``checkpoint.pt``: weights, optimiser, random generator, epoch) resume with the same
   command; exported as ONNX (input ``rows`` ``(n, 567)``, output ``q`` ``(n, 1)``) for the
   ``onnx:`` agent and the ``net`` agent.

3. **Iteration** (``python -m guandan.rl.expert iterate``, :func:`iterate`): both steps round
   after round in one command, each round's network playing the next round's positions
   (expert iteration, DAgger's way); like the steps it goes on from where it stopped.

The network the search taught (``guandan/bots/models/net-search.onnx``, ``mc-net``'s prior)
is the file ``iterate``'s defaults make, byte for byte; the ``net`` agent's
(``guandan/bots/models/net.onnx``) goes on from it by self-play (``guandan train --init
--candidates``). The commands and their steps are in ``docs/training.md``.

>>> chunk = deal_positions([3], rollouts=40)
>>> chunk["states"].shape[1], chunk["actions"].shape[1], len(chunk["offsets"]) == len(chunk["states"]) + 1
(513, 54, True)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from ..bots.network import search_candidates
from ..bots.registry import make_agent
from ..bots.search import MonteCarloAgent
from ..core.movegen import pack_rank_move
from ..core.moves import Move
from ..errors import ArgumentError, GuandanError, check_int, describe
from ..game.deal import Deal
from ..game.encoding import ACTION_SIZE, STATE_SIZE, encode_rows
from .imitate import deal_level, searched_decisions

__all__ = ["DESCRIPTION", "deal_positions", "make_positions", "read_chunks", "chunk_name", "main", "add_arguments",
           "run"]  # fmt: skip

#: The arrays of a chunk of positions (see :func:`deal_positions`).
CHUNK_KEYS = ("seeds", "states", "offsets", "actions", "values", "rollouts", "order", "chosen")
#: The arrays of a chunk with one entry per action (the others have one per decision).
ROW_KEYS = ("actions", "values", "rollouts", "order")


def _rank_word(move: Move) -> int:
    return int(pack_rank_move(move.to_rank()))


def deal_positions(
    seeds: Sequence[int], rollouts: int = 200, candidates: int = 32, play: Sequence[str] | None = None
) -> dict[str, np.ndarray]:
    """The positions of the deals of ``seeds`` (each at the level :func:`deal_level` of its
    seed, the bots' seeds ``seed * 4 + seat``), played by four ``mc`` bots of ``rollouts`` a
    decision (with ``play``, two agent specs, side 0's and side 1's: played by those agents, the
    ``mc`` bots judging every decision, so that a network learns from the positions its own
    play reaches): for the ``d`` decisions in play whose search had two candidates or more,
    ``seeds`` (d,) the deal's seed, ``states`` int8 (d, 513), ``offsets`` (d + 1,) where each
    decision's actions start in ``actions`` int8 (N, 54), ``values`` float32 (N,) the searched
    value of each action's rank-level move (NaN: not a candidate; 0 with no rollout: a candidate
    dropped before its first), ``rollouts`` int32 (N,) the rollouts that judged it, ``order``
    int8 (N,) the place of its rank-level move in the smart policy's order of the candidates
    (:func:`~guandan.bots.network.search_candidates`, 0 its own choice; -1: not among them),
    and ``chosen`` (d,) the index in ``actions`` of the action the search played.

    >>> chunk = deal_positions([3], rollouts=40)
    >>> c = chunk["chosen"]; bool(((chunk["offsets"][:-1] <= c) & (c < chunk["offsets"][1:])).all())
    True
    >>> bool(np.isfinite(chunk["values"][c]).all()), int(chunk["order"].max()) < 32
    (True, True)
    """
    out_seeds: list[int] = []
    states: list[np.ndarray] = []
    actions: list[np.ndarray] = []
    values: list[np.ndarray] = []
    spent: list[np.ndarray] = []
    places: list[np.ndarray] = []
    chosen: list[int] = []
    offsets = [0]
    for seed in seeds:
        deal = Deal.new(int(seed), level=deal_level(int(seed)))
        bots = [MonteCarloAgent(seed=int(seed) * 4 + s, rollouts=rollouts, candidates=candidates) for s in range(4)]
        players = None if play is None else [make_agent(play[s & 1], seed=int(seed) * 4 + s) for s in range(4)]
        for observation, result in searched_decisions(deal, bots, players):  # a new deal has no tribute
            best = result.best
            assert isinstance(best, Move)
            rows = encode_rows(observation)
            legal = list(observation.legal_actions)
            searched = {}
            for c in result.choices:
                assert isinstance(c.action, Move)
                searched[_rank_word(c.action)] = (c.value, c.rollouts)
            words = [_rank_word(m) for m in legal]
            v = np.array([searched.get(w, (np.nan, 0))[0] for w in words], dtype=np.float32)
            r = np.array([searched.get(w, (0.0, 0))[1] for w in words], dtype=np.int32)
            place = {_rank_word(m): i for i, m in enumerate(search_candidates(observation, candidates))}
            places.append(np.array([place.get(w, -1) for w in words], dtype=np.int8))
            states.append(rows[0, :STATE_SIZE].astype(np.int8))
            actions.append(rows[:, STATE_SIZE:].astype(np.int8))
            values.append(v)
            spent.append(r)
            chosen.append(offsets[-1] + legal.index(best))
            offsets.append(offsets[-1] + len(legal))
            out_seeds.append(int(seed))
    return {
        "seeds": np.array(out_seeds, dtype=np.int64),
        "states": np.stack(states) if states else np.zeros((0, STATE_SIZE), np.int8),
        "offsets": np.array(offsets, dtype=np.int64),
        "actions": np.concatenate(actions) if actions else np.zeros((0, ACTION_SIZE), np.int8),
        "values": np.concatenate(values) if values else np.zeros(0, np.float32),
        "rollouts": np.concatenate(spent) if spent else np.zeros(0, np.int32),
        "order": np.concatenate(places) if places else np.zeros(0, np.int8),
        "chosen": np.array(chosen, dtype=np.int64),
    }


def chunk_name(first: int) -> str:
    """The file name of the chunk whose deals start at seed ``first``.

    >>> chunk_name(40)
    'chunk-00000040.npz'
    """
    return f"chunk-{first:08d}.npz"


def _make_chunk(job: tuple[str, int, int, int, int, tuple[str, str] | None]) -> tuple[int, int, float]:
    out, first, size, rollouts, candidates, play = job
    start = time.perf_counter()
    chunk = deal_positions(range(first, first + size), rollouts, candidates, play)
    path = os.path.join(out, chunk_name(first))
    with open(path + ".tmp", "wb") as f:
        np.savez_compressed(f, **chunk)  # type: ignore[arg-type]
    os.replace(path + ".tmp", path)
    return first, len(chunk["chosen"]), time.perf_counter() - start


def make_positions(
    out: str,
    deals: int,
    first: int = 0,
    rollouts: int = 200,
    candidates: int = 32,
    chunk: int = 4,
    workers: int = 1,
    progress: Callable[[str], None] | None = None,
    play: Sequence[str] | None = None,
) -> int:
    """Write the positions of deals ``first .. first + deals - 1`` into ``out`` in chunks of
    ``chunk`` deals (:func:`chunk_name`), skipping the chunks already there (a stopped run
    goes on), ``workers`` processes; the decisions written by this call. ``play``: the two
    sides' agent specs whose moves are played (:func:`deal_positions`; default ``mc``'s own).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as out:
    ...     made = make_positions(out, 1, first=3, rollouts=40, chunk=1)
    ...     again = make_positions(out, 1, first=3, rollouts=40, chunk=1)
    ...     names = os.listdir(out)
    >>> made > 0, again, names
    (True, 0, ['chunk-00000003.npz'])
    """
    for name, value, low in (("deals", deals, 1), ("first", first, 0), ("rollouts", rollouts, 1),
                             ("candidates", candidates, 2), ("chunk", chunk, 1), ("workers", workers, 1)):  # fmt: skip
        check_int(name, value, low)
    sides = None
    if play is not None:
        if isinstance(play, str) or len(play) != 2:
            raise ArgumentError(f"play is two agent specs, side 0's and side 1's, got {describe(play)}")
        for spec in play:
            make_agent(spec)  # refused here, naming it, not in a worker
        sides = (str(play[0]), str(play[1]))
    os.makedirs(out, exist_ok=True)
    jobs = [
        (out, s, min(chunk, first + deals - s), rollouts, candidates, sides)
        for s in range(first, first + deals, chunk)
        if not os.path.exists(os.path.join(out, chunk_name(s)))
    ]
    made = 0
    started = time.perf_counter()
    if workers == 1 or len(jobs) <= 1:
        results = map(_make_chunk, jobs)
        for s, n, took in results:
            made += n
            if progress:
                progress(f"chunk {s}: {n} decisions in {took:.1f} s ({made} in {time.perf_counter() - started:.0f} s)")
        return made
    with ProcessPoolExecutor(workers) as pool:
        for s, n, took in pool.map(_make_chunk, jobs):
            made += n
            if progress:
                progress(f"chunk {s}: {n} decisions in {took:.1f} s ({made} in {time.perf_counter() - started:.0f} s)")
    return made


def read_chunks(paths: Sequence[str]) -> dict[str, np.ndarray]:
    """The positions of chunk files and directories of chunks, joined in the order of their
    file names as strings (``chunk-100.npz`` before ``chunk-20.npz``; a fixed order, so the same
    chunks give the same arrays however they were made).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as out:
    ...     _ = make_positions(out, 2, first=3, rollouts=40, chunk=1)
    ...     joined = read_chunks([out])
    >>> sorted(set(joined["seeds"].tolist()))
    [3, 4]
    """
    files: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            files += [os.path.join(path, n) for n in os.listdir(path) if n.startswith("chunk-") and n.endswith(".npz")]
        elif os.path.isfile(path):
            files.append(path)
        else:
            raise GuandanError(f"no positions at {path!r}")
    files.sort(key=os.path.basename)
    parts: dict[str, list[np.ndarray]] = {k: [] for k in CHUNK_KEYS}
    base_rows = 0
    for path in files:
        try:
            with np.load(path) as z:
                chunk = {k: z[k] for k in CHUNK_KEYS}
        except (OSError, ValueError, KeyError) as error:
            raise GuandanError(f"cannot read the positions {path!r}: {error}") from None
        for k in ("seeds", "states", *ROW_KEYS):
            parts[k].append(chunk[k])
        parts["offsets"].append(chunk["offsets"][:-1] + base_rows)
        parts["chosen"].append(chunk["chosen"] + base_rows)
        base_rows += int(chunk["offsets"][-1])
    if not files:
        raise GuandanError(f"no chunk of positions in {', '.join(map(repr, paths))}")
    joined = {k: np.concatenate(v) for k, v in parts.items()}
    joined["offsets"] = np.append(joined["offsets"], base_rows)
    return joined


#: The first seed of the deals of round k's own play is ``k * PLAY_SEEDS`` (round 0's, search
#: against search, start at 0): so each round's deals are its own.
PLAY_SEEDS = 100_000

ITERATE_DESCRIPTION = """\
Expert iteration in one command (needs torch: the train extra). Round 1's network learns from
--deals deals of mc against mc; each later round's also from --play-deals deals of the last
round's network against --against, mc judging every decision; each on every position so far.
The networks read the hand's structure after each move beside the rows (--no-structure: the
rows alone, the recipe of earlier networks).
Stopped at any point, the same command goes on from where it stopped; more --rounds in the
same directory add rounds. The same options make the same model.onnx, byte for byte, whatever
--workers (on the CPU: training runs on one torch thread, with torch's deterministic algorithms)."""

ITERATE_EPILOG = """\
example (the network the search taught, mc-net's, about an hour on 2 cores):
  guandan expert iterate --out ei --workers 2
  guandan arena net:model=ei/model.onnx greedy --pairs 300"""

#: What decides an expert iteration's files (the workers and the device only how fast they come).
ITERATE_KEYS = ("rounds", "deals", "play_deals", "rollouts", "against", "chunk", "hidden", "epochs", "structure")


def iterate(
    out: str,
    rounds: int = 3,
    deals: int = 3000,
    play_deals: int = 1500,
    rollouts: int = 300,
    against: str = "greedy",
    chunk: int = 10,
    hidden: Sequence[int] = (256, 256),
    epochs: int = 6,
    workers: int = 1,
    device: str = "auto",
    progress: Callable[[str], None] | None = None,
    *,
    structure: bool = True,
) -> str:
    """Expert iteration in one call (needs torch: the ``train`` extra): ``rounds`` networks,
    each taught by ``mc`` on every position so far. Round 1 learns from ``deals`` deals of
    search against search (``out/positions-0``, seeds from 0); round k + 1 also from
    ``play_deals`` deals of round k's network (the ``net`` agent) against ``against``, ``mc``
    judging every decision (``out/positions-k``, seeds from ``k * PLAY_SEEDS``). Each round is
    trained into ``out/round-<k>`` (:class:`~guandan.rl.distill.Distiller`, ``--advantage``
    and ``--place-prior``, ``hidden`` and ``epochs``; with ``structure``, the default, ``--structure``); the
    last round's network is copied to ``out/model.onnx``, whose path is returned. Every step
    resumes: the same call after a stop (or a finished run) makes only what is missing, and
    the files are the same whatever ``workers`` (processes for the positions); more ``rounds``
    in the same directory go on from the last. ``out/iterate.json`` keeps the options; a directory of other options (but
    ``rounds``) is refused.

    The shipped network is ``iterate("data/ei", workers=2)``, byte for byte (about an hour
    here); options are checked before anything is made:

    >>> iterate("data/ei", deals=200_000)
    Traceback (most recent call last):
    ...
    guandan.errors.ArgumentError: deals is at most 100000 (each round's deals have their own seeds), got 200000
    """
    import shutil

    for name, value, low in (("rounds", rounds, 1), ("deals", deals, 1), ("play_deals", play_deals, 1),
                             ("rollouts", rollouts, 1), ("chunk", chunk, 1), ("epochs", epochs, 1),
                             ("workers", workers, 1)):  # fmt: skip
        check_int(name, value, low)
    for name, value in (("deals", deals), ("play_deals", play_deals)):
        if value > PLAY_SEEDS:
            raise ArgumentError(
                f"{name} is at most {PLAY_SEEDS} (each round's deals have their own seeds), got {value}"
            )
    if not isinstance(hidden, Sequence) or not hidden or not all(isinstance(h, int) and h >= 1 for h in hidden):
        raise ArgumentError(f"hidden is the hidden layers' widths, positive ints, got {describe(hidden)}")
    make_agent(against)  # a bad spec is refused now, not after the first hour
    folder = os.path.abspath(out)
    if ":" in folder:
        raise ArgumentError(f"the output directory's path may not hold ':' (it names each network in an agent spec), "
                            f"got {out!r}")  # fmt: skip
    try:
        from .distill import DistillConfig, Distiller, Positions
    except ImportError as error:
        raise GuandanError(str(error)) from None
    options = {"rounds": rounds, "deals": deals, "play_deals": play_deals, "rollouts": rollouts,
               "against": against, "chunk": chunk, "hidden": list(hidden), "epochs": epochs,
               "structure": bool(structure)}  # fmt: skip
    os.makedirs(folder, exist_ok=True)
    saved = os.path.join(folder, "iterate.json")
    if os.path.isfile(saved):
        try:
            with open(saved) as f:
                before = json.load(f)
        except (OSError, ValueError) as error:
            raise GuandanError(f"cannot read {saved!r}: {error}") from None
        # a directory from before the structure option is one without it
        if not isinstance(before, dict) or {"structure": False, **before, "rounds": rounds} != options:
            hint = ""
            flipped = {**options, "structure": not structure}  # only the structure differs: say how to go on
            if isinstance(before, dict) and {"structure": False, **before, "rounds": rounds} == flipped:
                hint = " (--no-structure goes on with it)" if structure else " (--structure goes on with it)"
            raise GuandanError(f"{out!r} holds an expert iteration of other options ({before}){hint}; "
                               f"use another directory")  # fmt: skip
    with open(saved + ".tmp", "w") as f:
        json.dump(options, f)
    os.replace(saved + ".tmp", saved)

    def say(line: str) -> None:
        if progress:
            progress(line)

    config = DistillConfig(hidden=tuple(hidden), epochs=epochs, advantage=True, place_prior=True,
                           structure=bool(structure))  # fmt: skip
    sources: list[str] = []
    for k in range(rounds):
        where = os.path.join(folder, f"positions-{k}")
        if k == 0:
            say(f"positions-0: {deals} deals of mc against mc, {rollouts} rollouts a decision")
            made = make_positions(where, deals, 0, rollouts, chunk=chunk, workers=workers, progress=say)
        else:
            play = (f"net:model={os.path.join(folder, f'round-{k}', 'model.onnx')}", against)
            say(f"positions-{k}: {play_deals} deals of round {k}'s network against {against}, mc judging")
            made = make_positions(where, play_deals, k * PLAY_SEEDS, rollouts, chunk=chunk, workers=workers,
                                  progress=say, play=play)  # fmt: skip
        say(f"positions-{k}: {made} decisions made now")
        sources.append(where)
        positions = Positions(read_chunks(sources), config.hold_out_every, config.legal)
        say(f"round-{k + 1}: {len(positions.train)} decisions to train on, {len(positions.held)} held out")
        Distiller(config, positions, os.path.join(folder, f"round-{k + 1}"), device=device).run(progress)
    model = os.path.join(folder, "model.onnx")
    shutil.copyfile(os.path.join(folder, f"round-{rounds}", "model.onnx"), model + ".tmp")
    os.replace(model + ".tmp", model)
    return model


def _iterate_command(args: argparse.Namespace, say: Callable[[str], None]) -> int:
    start = time.perf_counter()
    hidden = _widths(args.hidden)
    model = iterate(args.out, args.rounds, args.deals, args.play_deals, args.rollouts, args.against, args.chunk,
                    hidden, args.epochs, args.workers, args.device, say, structure=args.structure)  # fmt: skip
    say(f"{args.rounds} rounds in {time.perf_counter() - start:.0f} s -> {model}")
    return 0


def _widths(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(h) for h in text.split(",")) if text else ()
    except ValueError:
        raise ArgumentError(f"--hidden is widths separated by commas, e.g. 256,256, got {text!r}") from None


def _positions_command(args: argparse.Namespace, say: Callable[[str], None]) -> int:
    start = time.perf_counter()
    play = None if args.play is None else args.play.split(",")
    made = make_positions(args.out, args.deals, args.first, args.rollouts, args.candidates, args.chunk,
                          args.workers, say, play)  # fmt: skip
    say(f"{made} decisions written in {time.perf_counter() - start:.0f} s -> {args.out}")
    return 0


def _train_command(args: argparse.Namespace, say: Callable[[str], None]) -> int:
    try:
        from .distill import DistillConfig, Distiller, Positions
    except ImportError as error:
        raise GuandanError(str(error)) from None
    hidden = _widths(args.hidden)
    config = DistillConfig(hidden=hidden, epochs=args.epochs, batch=args.batch, lr=args.lr,
                           policy_weight=args.policy_weight, temperature=args.temperature,
                           value_rollouts=args.value_rollouts, hold_out_every=args.hold_out_every,
                           seed=args.seed, legal=args.legal, advantage=args.advantage,
                           place_prior=args.place_prior, structure=args.structure)  # fmt: skip
    arrays = read_chunks(args.positions)
    if args.deals is not None:
        keep = arrays["seeds"] < args.deals
        arrays = _decisions(arrays, np.flatnonzero(keep))
    positions = Positions(arrays, config.hold_out_every, config.legal)
    say(f"{len(positions.train)} decisions to train on, {len(positions.held)} held out")
    trainer = Distiller(config, positions, args.out, device=args.device)
    trainer.run(say)
    say(f"-> {os.path.join(args.out, 'model.onnx')}")
    return 0


def _decisions(arrays: dict[str, np.ndarray], keep: np.ndarray) -> dict[str, np.ndarray]:
    """Some decisions of positions (indices, in order), as positions."""
    starts, ends = arrays["offsets"][keep], arrays["offsets"][keep + 1]
    sizes = ends - starts
    index = np.concatenate([np.arange(a, b) for a, b in zip(starts, ends)]) if len(keep) else np.zeros(0, np.int64)
    base = np.cumsum(sizes) - sizes
    return {
        "seeds": arrays["seeds"][keep],
        "states": arrays["states"][keep],
        "offsets": np.append(base, int(sizes.sum())),
        **{k: arrays[k][index] for k in ROW_KEYS},
        "chosen": base + arrays["chosen"][keep] - starts,
    }


DESCRIPTION = "Teach a network mc's own values: positions searched by mc, then a network trained on them."


def main(argv: Sequence[str] | None = None, say: Callable[[str], None] = print) -> int:
    """The command line (``python -m guandan.rl.expert --help``; also ``guandan expert``, with
    the same steps and options: :func:`add_arguments`, :func:`run`)."""
    parser = argparse.ArgumentParser(prog="python -m guandan.rl.expert", description=DESCRIPTION)
    add_arguments(parser)
    try:
        return run(parser.parse_args(argv), say)
    except GuandanError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's steps (``positions``, ``train``, ``iterate``) and their options, added to ``parser``.

    >>> parser = argparse.ArgumentParser(); add_arguments(parser)
    >>> args = parser.parse_args(["train", "pos", "--out", "run", "--place-prior"])
    >>> args.step, args.positions, args.place_prior, args.hidden
    ('train', ['pos'], True, '512,256')
    """
    sub = parser.add_subparsers(dest="step", metavar="STEP", required=True)
    p = sub.add_parser("positions", help="play seeded deals with mc and write its searched values")
    p.add_argument("--out", required=True, help="the directory of the chunks (made if missing)")
    p.add_argument("--deals", type=int, required=True, help="how many deals")
    p.add_argument("--first", type=int, default=0, help="the first deal's seed (default 0)")
    p.add_argument("--rollouts", type=int, default=200, help="mc's rollouts a decision (default 200)")
    p.add_argument("--candidates", type=int, default=32, help="mc's candidates a decision (default 32)")
    p.add_argument("--chunk", type=int, default=4, help="deals a chunk file (default 4)")
    p.add_argument("--workers", type=int, default=1, help="processes, at most the cores (default 1)")
    p.add_argument("--play", metavar="A,B", default=None,
                   help="the agents whose moves are played, side 0's and side 1's, mc judging every decision"
                        " (default: mc's own choices)")  # fmt: skip
    t = sub.add_parser("train", help="train a network on positions (needs torch: the train extra)")
    t.add_argument("positions", nargs="+", help="chunk files or directories of chunks")
    t.add_argument("--out", required=True, help="the run's directory (checkpoint, log.jsonl, model.onnx)")
    t.add_argument("--deals", type=int, default=None, help="only the deals of seeds below this (default: all)")
    t.add_argument("--hidden", default="512,256", help="the hidden layers' widths, comma-separated (default 512,256)")
    t.add_argument("--epochs", type=int, default=20, help="passes over the training decisions (default 20)")
    t.add_argument("--batch", type=int, default=256, help="decisions a step (default 256)")
    t.add_argument("--lr", type=float, default=1e-3, help="Adam's learning rate (default 0.001)")
    t.add_argument("--policy-weight", type=float, default=1.0,
                   help="the weight of the cross-entropy of the search's choice (default 1)")
    t.add_argument("--temperature", type=float, default=0.1,
                   help="the scores divided by this are the choice's logits (default 0.1)")
    t.add_argument("--value-rollouts", type=float, default=8.0,
                   help="a value of r rollouts weighs r / (r + this) (default 8)")
    t.add_argument("--hold-out-every", type=int, default=10,
                   help="every n-th deal held out to measure agreement (default 10)")
    t.add_argument("--seed", type=int, default=0, help="the run's seed: weights, order of batches (default 0)")
    t.add_argument("--advantage", action="store_true", help="regress the differences between a decision's actions")
    t.add_argument("--legal", action="store_true", help="every legal action's row, not only the searched ones")
    t.add_argument("--place-prior", action="store_true",
                   help="learn a bias of each candidate's place in the smart policy's order (kept in the model)")
    t.add_argument("--structure", action="store_true",
                   help="also feed the first layer the hand's structure after each move, computed from the row "
                        "(guandan.rl.structure; in the model too: it still takes the plain rows)")
    t.add_argument("--device", default="auto", help="auto (CUDA when present), cpu, cuda:0, ...")
    i = sub.add_parser("iterate", help="every round in one command: positions, a network, its own play, ... "
                                       "(needs torch; the shipped network's recipe by default)",
                       formatter_class=argparse.RawDescriptionHelpFormatter, description=ITERATE_DESCRIPTION,
                       epilog=ITERATE_EPILOG)  # fmt: skip
    i.add_argument("--out", required=True,
                   help="the run's directory: positions-<k>/, round-<k>/ and the last round's model.onnx")  # fmt: skip
    i.add_argument("--rounds", type=int, default=3, help="networks trained, each on every position so far (default 3)")
    i.add_argument("--deals", type=int, default=3000, help="deals of mc against mc, round 1's (default 3000)")
    i.add_argument("--play-deals", type=int, default=1500,
                   help="deals of each later round's network against --against (default 1500)")  # fmt: skip
    i.add_argument("--against", default="greedy", help="the agent the networks play against (default greedy)")
    i.add_argument("--rollouts", type=int, default=300, help="mc's rollouts a decision (default 300)")
    i.add_argument("--chunk", type=int, default=10, help="deals a chunk file (default 10)")
    i.add_argument("--hidden", default="256,256", help="the hidden layers' widths (default 256,256)")
    i.add_argument("--epochs", type=int, default=6, help="epochs a round (default 6)")
    i.add_argument("--structure", action=argparse.BooleanOptionalAction, default=True,
                   help="the networks also read the hand's structure after each move (train's --structure; "
                        "default: yes)")
    i.add_argument("--workers", type=int, default=1, help="processes for the positions (default 1)")
    i.add_argument("--device", default="auto", help="auto (CUDA when present), cpu, cuda:0, ...")


def run(args: argparse.Namespace, say: Callable[[str], None] = print) -> int:
    """Run the step the parsed options ``args`` name; the exit status. A refused option or
    missing positions raise a :class:`~guandan.errors.GuandanError` naming them."""
    if args.step == "positions":
        return _positions_command(args, say)
    if args.step == "iterate":
        return _iterate_command(args, say)
    return _train_command(args, say)


if __name__ == "__main__":
    sys.exit(main())
