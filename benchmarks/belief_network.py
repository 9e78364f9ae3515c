"""How well can a network place the hidden cards from the public play? A first measure of a
belief learned from history, against the ladder of ``oracle_headroom.py``.

Four ``net`` bots (the shipped network) play seeded deals; at every decision the seat to act's
view is kept: its hand, the cards it cannot see, and for each other seat (next, partner,
previous) the cards it played, how many cards it holds, how often it passed (on a partner's play
and on an opponent's) and the types of its plays. The target is where each unseen card is: for
each face, the copies each other seat holds. A network of two hidden layers (torch) gives, for
each face, a distribution over the three seats; it is fitted by the cross-entropy of the true
copies (the first deals), and scored on held-out deals by its *expected placement*: the share
of the unseen cards that land in their true hands when each is placed by its distribution. The
baseline places each card in proportion to the seats' card counts (what a uniform sampler does,
card by card). The ceiling of such a card-by-card belief, each face placed by its true shares,
is below 1 where a face's two copies are in two hands (also shown).

    python benchmarks/belief_network.py --deals 3000 --seed 1
    python benchmarks/belief_network.py --deals 2000 --seed 2 --out belief.pt

``--out FILE`` keeps the fitted network (torch's ``state_dict``; :func:`load` reads it).

torch is needed (the ``train`` extra). The measure treats the cards one by one (no seat is
filled past its count); ``oracle_headroom.py --placement`` samples whole deals.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import numpy as np

from guandan import Deal
from guandan.bots.registry import make_agents
from guandan.core.moves import Move
from guandan.core.rng import derive_seed
from guandan.game.history import Play

FACES = 54
#: per other seat: played (54), held count, passes on a partner's and an opponent's play, plays
#: by move type (13 slots indexed by the type; the pass's and two more stay 0), whether it is out
SEAT_FEATURES = FACES + 1 + 2 + 13 + 1
FEATURES = 2 * FACES + 3 * SEAT_FEATURES + 1


def _counts(cards: Any) -> np.ndarray:
    return np.frombuffer(bytes(cards.counts), dtype=np.uint8)[:FACES].astype(np.float32)


def features(deal: Deal, me: int) -> tuple[np.ndarray, np.ndarray]:
    """The view of seat ``me`` (``FEATURES`` numbers) and where its unseen cards are
    (``(3, 54)``: the copies of each face each other seat holds, next seat first)."""
    x = np.zeros(FEATURES, dtype=np.float32)
    hand = _counts(deal.hands[me])
    played = np.zeros((4, FACES), dtype=np.float32)
    passes = np.zeros((4, 2), dtype=np.float32)
    types = np.zeros((4, 13), dtype=np.float32)
    last = -1
    for record in deal.history:
        if not isinstance(record, Play):
            continue
        if record.is_pass:
            if last >= 0:
                passes[record.seat, 0 if (last ^ record.seat) == 2 else 1] += 1
            continue
        played[record.seat] += _counts(record.move.cards)
        types[record.seat, int(record.move.type)] += 1
        last = record.seat
    unseen = 2.0 - hand - played.sum(axis=0)
    x[:FACES] = hand / 2
    x[FACES : 2 * FACES] = unseen / 2
    target = np.zeros((3, FACES), dtype=np.float32)
    for r in range(3):
        s = (me + 1 + r) & 3
        f = x[2 * FACES + r * SEAT_FEATURES : 2 * FACES + (r + 1) * SEAT_FEATURES]
        f[:FACES] = played[s] / 2
        f[FACES] = len(deal.hands[s]) / 27
        f[FACES + 1 : FACES + 3] = passes[s] / 10
        f[FACES + 3 : FACES + 16] = types[s] / 10
        f[FACES + 16] = float(len(deal.hands[s]) == 0)
        target[r] = _counts(deal.hands[s])
    x[-1] = (int(deal.level) - 2) / 12
    return x, target


def collect(deals: int, seed: int, first: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Every decision's view and target in ``deals`` seeded deals of four ``net`` bots."""
    xs, ys = [], []
    for i in range(first, first + deals):
        agents = make_agents(["net"] * 4, derive_seed(seed, i))
        deal = Deal.new(seed=derive_seed(seed, i), level=2 + i % 13)
        while deal.turn is not None:  # not over
            me = deal.turn
            x, y = features(deal, me)
            if y.sum() > 0:
                xs.append(x)
                ys.append(y)
            move = agents[me].act(deal.observation(me))
            assert isinstance(move, Move)  # in play, a move
            deal.act(move, me)
    return np.stack(xs), np.stack(ys)


def true_shares(y: np.ndarray) -> np.ndarray:
    """Each face placed by its true shares among the three seats (the ceiling of a card-by-card belief)."""
    shares: np.ndarray = y / np.maximum(y.sum(axis=1, keepdims=True), 1e-9)
    return shares


def placement(p: np.ndarray, y: np.ndarray) -> float:
    """The expected share of the unseen cards placed in their true hands, each placed by ``p``
    (``(n, 3, 54)``, summing to 1 over the seats)."""
    return float((p * y).sum() / y.sum())


def baseline(x: np.ndarray) -> np.ndarray:
    """Each unseen card placed in proportion to the other seats' card counts."""
    held = np.stack([x[:, 2 * FACES + r * SEAT_FEATURES + FACES] for r in range(3)], axis=1)  # (n, 3)
    share = held / np.maximum(held.sum(axis=1, keepdims=True), 1e-9)
    return np.repeat(share[:, :, None], FACES, axis=2)


def _prior(x: Any) -> Any:
    """The log of the baseline's distribution (torch, ``(n, 3, 1)``): the network learns a
    correction to the placement by card counts, from which it starts."""
    import torch

    held = torch.stack([x[:, 2 * FACES + r * SEAT_FEATURES + FACES] for r in range(3)], dim=1)
    return torch.log(torch.clamp(held, min=1e-12))[:, :, None]


def fit(x: np.ndarray, y: np.ndarray, epochs: int, seed: int, hidden: int = 256) -> Any:
    """The network (torch), fitted by the cross-entropy of the true copies; its last layer
    starts at zero, so that it starts as the baseline."""
    import torch

    torch.manual_seed(seed)
    net = _network(hidden)
    torch.nn.init.zeros_(net[-1].weight)
    torch.nn.init.zeros_(net[-1].bias)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    tx, ty = torch.from_numpy(x), torch.from_numpy(y)
    gen = torch.Generator().manual_seed(seed)
    for _ in range(epochs):
        order = torch.randperm(len(tx), generator=gen)
        for at in range(0, len(tx), 512):
            batch = order[at : at + 512]
            logp = torch.log_softmax(net(tx[batch]).view(-1, 3, FACES) + _prior(tx[batch]), dim=1)
            loss = -(ty[batch] * logp).sum() / ty[batch].sum()
            opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            opt.step()
    return net


def committed(p: np.ndarray, y: np.ndarray, threshold: float) -> tuple[float, float]:
    """What ``oracle_headroom.py --belief --commit threshold`` takes as known: the share of the
    unseen cards whose face's copies the belief puts in one seat above ``threshold``, and the
    share of those that are there."""
    unseen = y.sum(axis=1)  # (n, 54)
    sure = p.max(axis=1) > threshold
    seat = p.argmax(axis=1)
    right = np.take_along_axis(y, seat[:, None, :], axis=1)[:, 0, :] == unseen
    total = unseen.sum()
    taken = unseen[sure].sum()
    return float(taken / total), float(unseen[sure & right].sum() / max(taken, 1e-9))


def _network(hidden: int) -> Any:
    import torch

    return torch.nn.Sequential(
        torch.nn.Linear(FEATURES, hidden), torch.nn.ReLU(),
        torch.nn.Linear(hidden, hidden), torch.nn.ReLU(),
        torch.nn.Linear(hidden, 3 * FACES),
    )  # fmt: skip


def load(path: str, hidden: int = 256) -> Any:
    """A network kept by ``--out``."""
    import torch

    net = _network(hidden)
    net.load_state_dict(torch.load(path, weights_only=True))
    net.eval()
    return net


def predict(net: Any, x: np.ndarray) -> np.ndarray:
    import torch

    with torch.no_grad():
        tx = torch.from_numpy(x)
        return torch.softmax(net(tx).view(-1, 3, FACES) + _prior(tx), dim=1).numpy()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=3000, help="deals played (default 3000; a fifth held out)")
    parser.add_argument("--seed", type=int, default=1, help="the deals' seed (default 1)")
    parser.add_argument("--epochs", type=int, default=8, help="passes over the training views (default 8)")
    parser.add_argument("--out", metavar="FILE", help="keep the fitted network here (torch's state_dict)")
    parser.add_argument("--commits", action="store_true",
                        help="also: the unseen cards a belief above 0.8, 0.9, 0.95 commits, and how many rightly")
    args = parser.parse_args(argv)
    began = time.perf_counter()
    held = max(1, args.deals // 5)
    x, y = collect(args.deals - held, args.seed)
    hx, hy = collect(held, args.seed, first=args.deals - held)
    print(f"{len(x)} views from {args.deals - held} deals, {len(hx)} held out from {held} "
          f"({time.perf_counter() - began:.0f} s)", file=sys.stderr)  # fmt: skip
    net = fit(x, y, args.epochs, args.seed)
    late = hx[:, FACES : 2 * FACES].sum(axis=1) * 2 <= 30  # 30 unseen cards or fewer
    print(f"expected placement of the unseen cards, {len(hx)} held-out views of {held} deals of four net bots:")
    print(f"  {'':24}{'all':>8}{'late (<= 30 unseen)':>22}")
    for name, p in (("by card counts", baseline(hx)), ("network", predict(net, hx)), ("true shares", true_shares(hy))):
        print(f"  {name:<24}{100 * placement(p, hy):7.1f}%{100 * placement(p[late], hy[late]):21.1f}%")
    if args.commits:
        p = predict(net, hx)
        for threshold in (0.8, 0.9, 0.95):
            taken, right = committed(p, hy, threshold)
            print(f"  above {threshold:g}: {100 * taken:.1f}% of the unseen cards committed, "
                  f"{100 * right:.1f}% of them rightly")  # fmt: skip
    if args.out:
        import torch

        torch.save(net.state_dict(), args.out)
        print(f"network kept in {args.out}")
    print(f"({time.perf_counter() - began:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
