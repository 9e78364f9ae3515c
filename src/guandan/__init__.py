"""guandan: a fast and exact Guandan engine.

>>> import guandan
>>> hand = guandan.Cards.parse("S3 C4 D4 C5 D5 H2")
>>> [str(m) for m in guandan.classify(hand, level=2)]
['pair_run 3: S3 C4 D4 C5 D5 H2 (H2 as 3)']
"""

from .cards import (
    BIG_JOKER,
    NATURAL_RANKS,
    NUM_FACES,
    RANKS,
    SMALL_JOKER,
    SUITS,
    Cards,
    Rank,
    Suit,
    card,
    card_name,
    card_rank,
    card_suit,
    parse_card,
    parse_level,
    parse_rank,
    wild_card,
)
from .combos import (
    BOMB_TYPES,
    SEQUENCE_TYPES,
    Move,
    MoveType,
    RankMove,
    beats,
    classify,
    elevated_order,
    window_keys,
    window_ranks,
)
from .errors import (
    AmbiguousMoveError,
    GuandanError,
    IllegalMoveError,
    InvalidCardsError,
    InvalidMoveError,
)

from .movegen import MoveList, count_moves, legal_moves

__version__ = "0.1.0"
