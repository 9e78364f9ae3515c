"""guandan: a fast and exact Guandan engine.

>>> import guandan
>>> hand = guandan.Cards.parse("S3 C4 D4 C5 D5 H2")
>>> [str(m) for m in guandan.classify(hand, level=2)]
['pair_run 3: S3 C4 D4 C5 D5 H2 (H2 as 3)']

A deal and a match, played by agents, recorded and replayed:

>>> deal = guandan.Deal.new(seed=1, level=2)
>>> guandan.play_out(deal, [guandan.GreedyAgent()] * 4)
>>> deal.is_over, guandan.replay(guandan.record(deal)) == deal
(True, True)
>>> match = guandan.Match(seed=1, ruleset="nanjing")
>>> match.phase, match.levels
(<Phase.PLAY: 2>, (<Rank.TWO: 2>, <Rank.TWO: 2>))
"""

# first, before the slow imports: in the guandan command, Ctrl-C while it loads ends it quietly
from .ui.interrupt import LOADING_QUIETLY as _LOADING_QUIETLY  # noqa: F401

# isort: split
from importlib.metadata import version as _version

from .bots.agents import Agent, GreedyAgent, RandomAgent
from .bots.loop import play_out
from .bots.registry import make_agent, make_agents
from .core import batch as batch  # the batch API, as guandan.batch
from .core.cards import (
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
from .core.classify import classify
from .core.movegen import MoveList, count_moves, legal_moves
from .core.moves import BOMB_TYPES, SEQUENCE_TYPES, Move, MoveType, RankMove, window_keys, window_ranks
from .core.order import beats, elevated_order
from .errors import (
    AmbiguousMoveError,
    ArgumentError,
    GuandanError,
    IllegalMoveError,
    InvalidCardsError,
    InvalidMoveError,
    ModelError,
    ProtocolError,
    Reason,
    RecordError,
)
from .game.deal import Deal
from .game.history import Phase, Play, Return, Tribute
from .game.match import DealSummary, Match
from .game.observation import Observation
from .game.rules import COMPETITIVE_2022, HUAIAN, NANJING, RULESETS, Ruleset
from .game.scoring import DealResult
from .records.games import record, replay

__version__ = _version("guandan")  # the one version: pyproject.toml's

__all__ = [
    "BIG_JOKER",
    "NATURAL_RANKS",
    "NUM_FACES",
    "RANKS",
    "SMALL_JOKER",
    "SUITS",
    "Cards",
    "Rank",
    "Suit",
    "card",
    "card_name",
    "card_rank",
    "card_suit",
    "parse_card",
    "parse_level",
    "parse_rank",
    "wild_card",
    "BOMB_TYPES",
    "SEQUENCE_TYPES",
    "Move",
    "MoveType",
    "RankMove",
    "beats",
    "classify",
    "elevated_order",
    "window_keys",
    "window_ranks",
    "AmbiguousMoveError",
    "ArgumentError",
    "GuandanError",
    "IllegalMoveError",
    "InvalidCardsError",
    "InvalidMoveError",
    "ModelError",
    "ProtocolError",
    "Reason",
    "RecordError",
    "MoveList",
    "count_moves",
    "legal_moves",
    "Observation",
    "Phase",
    "COMPETITIVE_2022",
    "HUAIAN",
    "NANJING",
    "RULESETS",
    "Ruleset",
    "Deal",
    "DealResult",
    "Play",
    "Return",
    "Tribute",
    "DealSummary",
    "Match",
    "Agent",
    "GreedyAgent",
    "RandomAgent",
    "make_agent",
    "make_agents",
    "play_out",
    "record",
    "replay",
    "__version__",
]
