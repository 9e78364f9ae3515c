"""``guandan moves``: every legal move of a hand, leading or answering a play.

>>> from guandan.ui.cli import main
>>> main(["moves", "S5 H2", "--level", "2", "--beat", "S4"])
single 5: ♠5
single 2: ♥2
pass
3 legal moves
0
"""

from __future__ import annotations

import argparse
import json

from ...core.cards import Cards, parse_level
from ...core.movegen import legal_moves
from ...core.moves import Move, RankMove
from ...core.notation import parse_play, sort_moves
from ...errors import AmbiguousMoveError, GuandanError, InvalidCardsError
from ...records.jsonio import moves_to_json
from . import options

__all__ = ["HELP", "DESCRIPTION", "EPILOG", "parents", "add_arguments", "run"]

EPILOG = """\
Each line is a move: its type, key and the cards it spends (a wild's meaning
in parentheses); the last line counts them. The pass is listed, last, when
responding to --beat.

declarations (--as): single pair triple full_house straight pair_run
  triple_run bomb straight_flush joker_bomb, optionally :KEY, the key being
  the triple's rank for a full_house and the lowest rank for a sequence
  (A for ace-low), e.g. full_house:5, straight_flush:7.

--json prints one object {"level", "granularity", "moves"}; each move has
  type, key (protocol rank letter, JOKER, or null for the pass), size, suit
  (straight flush only), and cards + as (declared faces) at card granularity
  or ranks + wilds at rank granularity.

examples:
  guandan moves "S3 C4 D4 C5 D5 H2" --level 2
  guandan moves "S5 C5 D5 S9 H2" --level 2 --beat "S4 C4 D4 S8 C8" --json
  guandan moves "SK CK DK H9" --level 9 --beat "S3 C3 S5 C5 H9" --as full_house:5
"""


HELP = "list the legal moves of a hand"
DESCRIPTION = (
    "List every legal move of HAND at a level: every lead, or with --beat\n"
    "every play that beats the given one, and the pass.\n\n" + options.NOTATION
)


def parents() -> list[argparse.ArgumentParser]:
    """The shared options of ``guandan moves``."""
    return [options.output("print one JSON object instead of text")]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``guandan moves`` of its own."""
    p.add_argument(
        "hand",
        nargs="+",
        metavar="HAND",
        help='the cards held: one quoted string ("S3 C4 D4 C5 D5 H2") or several words',
    )
    p.add_argument("--level", "-l", required=True, metavar="L", help="the deal's level rank: 2-10, T, J, Q, K, A")
    p.add_argument("--beat", metavar="CARDS", help="the cards of the play to beat (omit to lead)")
    p.add_argument(
        "--as",
        dest="declared_as",
        metavar="TYPE[:KEY]",
        help="how the --beat cards are declared, when they can be played more than one way",
    )
    p.add_argument(
        "--granularity",
        "-g",
        choices=("card", "rank"),
        default="card",
        help="card: moves differ by the physical cards spent (default); "
        "rank: by the ranks spent and the number of wilds",
    )


def run(args: argparse.Namespace) -> int:
    """Run ``guandan moves`` with parsed arguments; the exit status."""
    try:
        level = parse_level(args.level)
    except GuandanError:
        message = f"--level: bad level {args.level!r} (expected a rank 2-10, T, J, Q, K or A)"
        raise InvalidCardsError(message) from None
    hand = Cards.parse(" ".join(args.hand))
    if not hand:
        given = " ".join(args.hand)
        raise InvalidCardsError(f'HAND holds no card: give the cards held, e.g. "S3 C4 D4" (got {given!r})')
    beat: Move | RankMove | None = None
    if args.beat is not None:
        try:
            beat = parse_play(args.beat, level, args.declared_as)
        except AmbiguousMoveError as error:
            raise AmbiguousMoveError(f"--beat: {error}; choose one with --as") from None
        except GuandanError as error:
            raise error.in_context("--beat") from None
        if args.granularity == "rank":
            beat = beat.to_rank()
    elif args.declared_as is not None:
        raise GuandanError("--as declares the --beat cards; give --beat too")
    moves = sort_moves(legal_moves(hand, level, beat=beat, granularity=args.granularity))
    if args.json:
        print(json.dumps(moves_to_json(moves, level, args.granularity)))
    else:
        for move in moves:
            print(move.format("unicode") if isinstance(move, Move) else str(move))
        print(f"{len(moves)} legal move{'' if len(moves) == 1 else 's'}")
    return 0
