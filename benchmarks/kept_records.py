"""What kept sparring games say (``sparring.py --keep-records DIR``): the deals the spec won by
how each deal began, the spec's plays whose cards broke a straight flush that another
choice of the same cards' suits would have kept, and the turns where it could go out in one
play and did not.

For each folder, ``games.json`` names the games and the spec's side in each; every record is
replayed (a record that does not replay is refused). A deal began as the first of its game,
or after a tribute paid by one side, or after a tribute resisted by one side (the payers held
both big jokers). A play *broke a straight flush* when the hand it left can lead fewer
straight flushes (:func:`guandan.core.movegen.straight_flushes`) than the hand left by the
same rank-level move spent by :func:`guandan.core.movegen.flush_keeping_move`. The spec
*could go out* when one legal play holds its whole hand; it *declined* when it passed or
played fewer cards then (the deals where it declined are counted, and those its side lost).
Its *first chance to go out first* in a deal is the first such turn while no seat is out:
for the deals where it took that chance and those where it declined it, the levels a deal
for its side (the promotion if it won, less the other side's if it lost), and for the
declined, who went out first after all.

    python benchmarks/kept_records.py kept-74 kept-75
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from guandan import Match, beats, classify
from guandan.bots.simulate import wilson_interval
from guandan.core.movegen import flush_keeping_move, pack_rank_move, straight_flushes
from guandan.records.games import replay

BEGINNINGS = {
    "first": "the first deal of a game",
    "they_paid": "the other side paid tribute",
    "we_paid": "the spec's side paid tribute",
    "they_resisted": "the other side resisted the tribute",
    "we_resisted": "the spec's side resisted the tribute",
}


@dataclass
class Survey:
    """The tallies of kept games: per beginning, the deals the spec won and the deals; the
    spec's plays, those that broke a straight flush, those of them that left none where
    another choice kept one, and the deals they were in; the spec's turns where it could go
    out, those where it did not, their deals and those of them its side lost; its first
    chances to go out first taken and declined (deals, levels), and who went out first in
    the declined ones."""

    games: int = 0
    won: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    plays: int = 0
    broke: int = 0
    broke_last: int = 0
    broke_deals: set[tuple[str, str, int]] = field(default_factory=set)
    could_go_out: int = 0
    declined: int = 0
    declined_deals: set[tuple[str, str, int]] = field(default_factory=set)
    declined_lost: set[tuple[str, str, int]] = field(default_factory=set)
    first_chance: dict[str, list[float]] = field(default_factory=lambda: {"took": [0, 0.0], "declined": [0, 0.0]})
    declined_first_out: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    @property
    def deals(self) -> int:
        return sum(n for _, n in self.won.values())

    @property
    def deals_won(self) -> int:
        return sum(w for w, _ in self.won.values())


def _who(seat: int, spec_seat: int) -> str:
    """A seat as the spec's seat sees it."""
    return "the spec" if seat == spec_seat else "its partner" if seat == spec_seat ^ 2 else "an opponent"


def survey(folders: list[Path]) -> Survey:
    """The :class:`Survey` of the kept games in ``folders``."""
    out = Survey()
    won = out.won
    for folder in folders:
        index = json.loads((folder / "games.json").read_text(encoding="utf-8"))
        for game in index["games"]:
            match = replay(json.loads((folder / game["file"]).read_text(encoding="utf-8")))
            assert isinstance(match, Match), f"{folder / game['file']}: not a whole game's record"
            side = game["spec_side"]
            out.games += 1
            for log, summary in zip(match.deal_logs, match.results):
                payers = {payer & 1 for payer, _, _ in log.tributes}
                if log.index == 0:
                    began = "first"
                elif log.resisted:
                    losers = 1 - match.results[log.index - 1].result.winning_side
                    began = "we_resisted" if losers == side else "they_resisted"
                else:
                    began = "we_paid" if payers == {side} else "they_paid"
                won[began][0] += summary.result.winning_side == side
                won[began][1] += 1
                assert log.deal is not None
                deal = log.deal.copy()
                history = list(deal.history)
                for _ in history:
                    deal.undo()  # back to the first lead, then forward play by play
                where = (str(folder), game["file"], log.index)
                result = summary.result
                gain = match.ruleset.gain(result.partner_place)
                levels = gain if result.winning_side == side else -gain
                chance_open = True
                for play in history:
                    hand = deal.hand(play.seat)
                    if (play.seat & 1) == side and len(hand) <= 10:
                        outs = classify(hand, log.level)
                        if deal.to_beat is not None:
                            outs = [m for m in outs if beats(m, deal.to_beat.move)]
                        if outs:
                            out.could_go_out += 1
                            if chance_open and not deal.finish_order:
                                chance_open = False
                                took = "took" if len(play.move.cards) == len(hand) else "declined"
                                out.first_chance[took][0] += 1
                                out.first_chance[took][1] += levels
                                if took == "declined":
                                    out.declined_first_out[_who(result.finish_order[0], play.seat)] += 1
                            if len(play.move.cards) < len(hand):
                                out.declined += 1
                                out.declined_deals.add(where)
                                if summary.result.winning_side != side:
                                    out.declined_lost.add(where)
                    deal.play(play.move)
                    if (play.seat & 1) != side or play.is_pass:
                        continue
                    out.plays += 1
                    if not straight_flushes(hand, log.level):
                        continue
                    kept = flush_keeping_move(pack_rank_move(play.move.to_rank()), hand, log.level)
                    left, could = straight_flushes(hand - play.move.cards, log.level), straight_flushes(
                        hand - kept.cards, log.level
                    )
                    if left < could:
                        out.broke += 1
                        out.broke_last += left == 0
                        out.broke_deals.add(where)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], epilog=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("folders", nargs="+", type=Path, help="folders written by sparring.py --keep-records")
    args = parser.parse_args(argv)
    for folder in args.folders:
        if not (folder / "games.json").is_file():
            parser.error(f"{folder}: no games.json (a folder of sparring.py --keep-records)")
    tally = survey(args.folders)
    won, deals = tally.deals_won, tally.deals
    lo, hi = wilson_interval(won, deals)
    print(f"{tally.games} games, {deals} deals; the spec won {won} = {won / max(1, deals):.1%} [{lo:.1%}, {hi:.1%}]")
    print("deals won by how the deal began:")
    for key, name in BEGINNINGS.items():
        if key in tally.won:
            w, n = tally.won[key]
            lo, hi = wilson_interval(w, n)
            print(f"  {name:<38} {w:>5}/{n:<5} {w / n:6.1%} [{lo:.1%}, {hi:.1%}]")
    print(f"the spec's plays: {tally.plays}; {tally.broke} broke a straight flush that another choice of suits"
          f" kept, in {len(tally.broke_deals)} deals ({tally.broke_last} left none where one could stay)")  # fmt: skip
    print(f"the spec could go out in one play {tally.could_go_out} times and did not {tally.declined} times,"
          f" in {len(tally.declined_deals)} deals; its side lost {len(tally.declined_lost)} of them")  # fmt: skip
    (took, took_levels), (declined, declined_levels) = tally.first_chance["took"], tally.first_chance["declined"]
    print(f"its first chance to go out first in a deal: taken in {took} deals ({took_levels / max(1, took):+.2f} levels"
          f" a deal), declined in {declined} ({declined_levels / max(1, declined):+.2f}; first out then:"
          f" {', '.join(f'{who} {n}' for who, n in sorted(tally.declined_first_out.items()))})")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
