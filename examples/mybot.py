"""An example bot for guandan: an agent is any object with a method ``act(observation)``.

Run it by import path from this directory, against the greedy bot (seats 0 and 2 against
seats 1 and 3):

    guandan simulate 200 --agents mybot:LongestBot,greedy
"""

from guandan import Phase
from guandan.core.notation import sort_moves


class LongestBot:
    """Plays the combination spending the most cards, the weakest of those; bombs only when
    nothing else will do; lets its partner's play stand; gives the lowest card it may."""

    def __init__(self, seed=0):
        self.seed = seed  # unused: this bot is deterministic

    def act(self, observation):
        actions = observation.legal_actions  # what this seat may do now
        if observation.phase != Phase.PLAY:  # tribute or return: cards, ints 0..53
            return actions[0]  # the lowest card it may give
        moves = sort_moves(actions)  # by type, weakest first, the pass last
        beat = observation.to_beat  # the play to beat and who made it; None: a lead
        if beat is not None and beat.seat == observation.seat ^ 2:
            return moves[-1]  # the partner is winning the trick: pass
        plays = [m for m in moves if not m.is_pass and not m.is_bomb] or moves
        return max(plays, key=lambda m: m.size)  # the first of the longest
