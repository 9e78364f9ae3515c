"""The search bots: determinized Monte Carlo search over native rollouts.

**mc** (:class:`MonteCarloAgent`, the shipped search bot). At each decision it

1. lists its candidate moves at rank granularity (the suits of a combination change
   little; the cards it plays are chosen to keep the hand's straight flushes,
   :func:`~guandan.core.movegen.flush_keeping_move`, else canonically, keeping one card of
   as many suits as possible): at most ``candidates`` of them, in the smart policy's order of
   preference — its own choice first, the pass when responding and the smallest bomb
   always among them;
2. samples deals consistent with what it has seen, weighted by what the play so far
   reveals (:func:`guandan.bots.determinize.determinize` with ``weighted=True``: a tribute
   payer holds nothing above its tribute; a seat that passed on a pair it could have
   beaten is less likely to hold a higher pair; ...);
3. spends its budget where it matters, by *successive halving*: the budget is split
   equally among ⌈log₂ k⌉ rounds; each round plays every candidate still in on the same
   sampled deals (common random numbers), each deal played to its end in the native core
   by the ``learned`` rollout policy (:mod:`guandan.bots.rollout_policy`: a linear score
   over move features with weights learned on this engine; ``policy=``: ``smart``, the hand
   rule it builds on, ``greedy`` and ``random`` too), and keeps the better half by mean
   result; the last two share the last round;
4. plays the candidate with the best mean result for its side, in levels (+3/+2/+1 for a
   win with the partner 2nd/3rd/4th, negative for a loss; :func:`guandan.bots.playout.scores`).

Tribute and return choices are searched too: each choice in the same sampled deals, the
other seats' tribute and return cards by the greedy agent's rules, the deal played out.

**Budgets.** ``rollouts=N`` plays exactly N rollouts a decision in play (with two
candidates or more; a tribute or return card plays whole sampled deals, at most N and at
most 256 deals) and gives the same choices for the same seed whatever ``threads``;
``think_ms=T`` stops starting rollouts T milliseconds after the decision began (an
anytime answer: the best candidate so far; the decision returns within T ms plus the
rollouts under way and the making of the answer); with both, whichever comes first. The
default is ``rollouts=2000`` of the learned policy, which costs 2.4 times the smart
policy's instructions a rollout (its decisions' times against 4,000 smart rollouts, and the
time a rollout and an answer take, are measured in ``benchmarks/README.md``, "Timings
that were in the docstrings"). ``threads=`` runs the rollouts on that many native threads without the GIL;
the default, 1, starts none: that bot belongs in ``simulate``'s process pool, one per core.

**A cost cap.** A rollout from full hands plays many more plies, each weighing many more
legal moves, than one near the end: at a fixed ``rollouts=N`` the first decisions of a deal
take about ten times as long as the last. ``max_cost=C`` caps a decision's cost at C
rollouts from a whole deal (108 cards), by a model of a rollout's cost from c cards left
in the four hands, ``COST_CARDS² + c²`` (:func:`affordable_rollouts`): with ``rollouts=N``
too, a decision plays the smaller of N and what C affords (the first decisions fewer, the
rest N); alone, every decision costs about the same, C whole-deal rollouts. It depends on
the observation only, so the choices stay the same for the same seed whatever ``threads``
and the machine: a bound on the time a decision takes that keeps the search reproducible.

**mc-basic** (:class:`BasicMonteCarloAgent`, the previous ``mc``): a fixed number of
uniformly sampled deals (``determinizations``), every candidate (the ``candidates``
weakest) played out once in each with the greedy policy; tribute and return the greedy
agent's.

Both are deterministic given their seed (and, for ``mc``, a rollout budget).

>>> from guandan import Deal
>>> from guandan.bots.agents import GreedyAgent
>>> from guandan.bots.loop import play_out
>>> deal = Deal.new(seed=4, level=2)
>>> bots = [MonteCarloAgent(seed=1, rollouts=300), MonteCarloAgent(seed=2, rollouts=300)]
>>> play_out(deal, [bots[0], GreedyAgent(), bots[1], GreedyAgent()])
>>> deal.is_over
True
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from ..core import playouts as native
from ..core import search as native_search
from ..core.cards import Cards, card_rank
from ..core.movegen import canonical_move, flush_keeping_move, pack_rank_move, rank_moves, straight_flushes
from ..core.moves import BOMB_TYPES, SEQUENCE_TYPES, Move, window_start
from ..core.order import elevated_order
from ..core.packed import (
    KEY_NONE,
    MASK64,
    PASS_WORD,
    DealState,
    InfoSet,
    bits_of_cards,
    cards_of_bits,
    face_bit,
    rank_bits,
    size_of_bits,
    word_key,
    word_size,
    word_type,
    word_wilds,
)
from ..core.rng import SplitMix64
from ..core.search import SearchParams
from ..errors import GuandanError, check_choice, check_int, check_number, describe
from ..game.history import Phase, Tribute
from ..game.observation import Observation
from ..game.scoring import side_scores
from ..game.tribute import return_choices
from .agents import GreedyAgent
from .determinize import BOMB_WEIGHT, PASS_WEIGHT, TRIES, determinize, information_set, tribute_above
from .match_value import deal_payoffs
from .playout import Policy, native_state, public_state
from .rollout_policy import load_weights
from .state_value import load_value

__all__ = [
    "MonteCarloAgent",
    "SearchConfig",
    "REMOVED_OPTIONS",
    "BasicMonteCarloAgent",
    "Choice",
    "SearchResult",
    "SearchPolicy",
    "DEFAULT_ROLLOUTS",
    "Prior",
    "affordable_rollouts",
]


#: A prior over a decision's candidates (:meth:`MonteCarloAgent.analyze`): the observation and
#: the candidate moves in, a value for each (in the search's unit) out.
Prior = Callable[[Observation, list[Move]], "npt.NDArray[np.floating[Any]] | Sequence[float]"]

#: The rollout policies of :class:`MonteCarloAgent`.
SearchPolicy = Literal["smart", "learned", "greedy", "random"]

_SEARCH_POLICIES = ("smart", "learned", "greedy", "random")

#: The rollouts a decision of ``mc`` plays when no budget is given.
DEFAULT_ROLLOUTS = 2000
#: The options ``mc`` had, removed after version 0.1.0 because each measured no gain against
#: the default (their measurements stay in ``benchmarks/README.md``): the exact endgames
#: (``solve_*``), the learned policy's belief in the sampled deals (``policy_*``) and the tree of
#: the seat's own later decisions (``tree_*``). The core's search still has them
#: (:class:`~guandan.core.search.SearchParams`), tested; a spec naming one is refused, naming it.
REMOVED_OPTIONS: dict[str, str] = {
    name: "0.1.0"
    for name in (
        "solve_cards", "solve_nodes", "solve_cost", "policy_weight", "policy_events",
        "tree_moves", "tree_visits", "tree_nodes", "tree_c", "tree_first",
    )
}

#: A rollout from c cards left in the four hands costs about COST_CARDS² + c² (its plies grow
#: with c, and so do the legal moves a ply weighs): fitted to the CPU time of ``mc``'s decisions
#: by cards left (``benchmarks/search_speed.py --part decisions --by-cards``).
COST_CARDS = 34
#: The cards of a whole deal: ``max_cost`` counts rollouts from it.
DEAL_CARDS = 108

#: At most this many sampled deals judge a tribute or return choice (each choice is played
#: out once in each; the deals are prepared in Python, so fewer than in play).
MAX_CARD_WORLDS = 256

_FULL_DECK = Cards.deck()
_DECK = bits_of_cards(_FULL_DECK)
_NO_EVENTS = np.zeros((0, 3), dtype=np.uint64)


@dataclass(frozen=True)
class Choice:
    """One candidate of a search: the action (a :class:`~guandan.Move` in play, a card in the
    tribute and return phases), its mean result for the seat's side (in levels, +3 .. -3,
    +1 .. -1 with ``objective="wins"``, the chance to win the match times 10,000 with
    ``objective="match"`` in a match), and the rollouts that judged it."""

    action: Move | int
    value: float
    rollouts: int


@dataclass(frozen=True)
class SearchResult:
    """What a decision's search found: the candidates best first (``choices[0]`` is played),
    the rollouts played and the seconds spent.

    >>> from guandan import Deal
    >>> result = MonteCarloAgent(seed=1, rollouts=400).analyze(Deal.new(seed=2, level=2, leader=0).observation(0))
    >>> result.rollouts, len(result.choices) > 3, result.best is result.choices[0].action
    (400, True, True)
    """

    choices: tuple[Choice, ...]
    rollouts: int
    seconds: float

    @property
    def best(self) -> Move | int:
        """The action the search chose."""
        return self.choices[0].action


def affordable_rollouts(max_cost: int, cards_left: int) -> int:
    """The rollouts that cost about as much as ``max_cost`` rollouts from a whole deal, from a
    position whose four hands hold ``cards_left`` cards: ``max_cost × (COST_CARDS² + 108²) //
    (COST_CARDS² + cards_left²)``, at least 1.

    >>> affordable_rollouts(1000, 108), affordable_rollouts(1000, 54), affordable_rollouts(1000, 10)
    (1000, 3148, 10207)
    """
    full = COST_CARDS * COST_CARDS + DEAL_CARDS * DEAL_CARDS
    return max(1, max_cost * full // (COST_CARDS * COST_CARDS + cards_left * cards_left))


@dataclass(frozen=True)
class SearchConfig:
    """The options of ``mc`` (:class:`MonteCarloAgent`), checked once: a spec's options make
    one (:func:`guandan.bots.registry.agent_factory`) that every seat's agent of that spec
    shares. What a decision's search is given is :meth:`params`: the core's
    :class:`~guandan.core.search.SearchParams` (the C struct ``gd_search_params``) with these
    options in their fields; the budget, the seed and the objective's values are each
    decision's.

    ``rollouts`` (a decision's budget; :data:`DEFAULT_ROLLOUTS` when none of ``rollouts``,
    ``think_ms`` and ``max_cost`` is given), ``think_ms`` (a time budget in milliseconds),
    ``max_cost`` (a cap on a decision's cost, in rollouts from a whole deal:
    :func:`affordable_rollouts`), ``threads`` (native threads), ``policy`` (``smart``,
    ``learned``, ``greedy`` or ``random``: the rollout policy; ``learned`` scores with the
    package's weights, :mod:`guandan.bots.rollout_policy`, or those of the file ``weights``),
    ``candidates`` (the most moves searched), ``objective`` (what a rollout scores:
    ``levels``, the levels the rules played give the result for the seat's side — +3 .. -3 in
    the competitive rules, a 1st-and-4th win worth nothing under Nanjing's,
    :attr:`Observation.ruleset <guandan.Observation>`'s promotion — ``wins``, +1 or -1, or
    ``match``, in a match the chance to win it after the deal's result,
    :mod:`guandan.bots.match_value`; in a single deal, levels), and the weighted sampler's
    ``tries``, ``pass_weight`` and ``bomb_weight``
    (:func:`guandan.bots.determinize.determinize`; ``tries=1`` samples uniformly).
    ``temperature`` > 0 (``learned`` only): the rollouts of the play's searches draw each move
    with probability proportional to ``exp(score / temperature)`` rather than play the
    policy's best (0, the default: the best; the tribute's and the return's searches keep the
    best).

    >>> SearchConfig().rollouts, SearchConfig(think_ms=100).rollouts
    (2000, None)
    >>> SearchConfig(rollouts=400, policy="smart").params().policy
    'smart'
    >>> SearchConfig(tries=0)
    Traceback (most recent call last):
    ...
    guandan.errors.ArgumentError: tries is an int 1..4096, got 0
    """

    rollouts: int | None = None
    think_ms: float | None = None
    max_cost: int | None = None
    threads: int = 1
    policy: SearchPolicy = "learned"
    candidates: int = 32
    tries: int = TRIES
    pass_weight: float = PASS_WEIGHT
    bomb_weight: float = BOMB_WEIGHT
    objective: Literal["levels", "wins", "match"] = "levels"
    weights: str | None = None
    temperature: float = 0.0
    value: str | None = None
    value_plies: int | None = None
    value_mix: float = 1.0

    def __post_init__(self) -> None:
        check_choice("objective", self.objective, ("levels", "wins", "match"), "'levels', 'wins' or 'match'")
        if self.rollouts is None and self.think_ms is None and self.max_cost is None:
            object.__setattr__(self, "rollouts", DEFAULT_ROLLOUTS)
        deals = "a count of deals per decision from 1 to 2**40"
        check_int("rollouts", self.rollouts, 1, 2**40, optional=True, expected=deals)
        check_int("max_cost", self.max_cost, 1, 2**40, optional=True, expected="a cost from 1 to 2**40")
        check_number("think_ms", self.think_ms, above=0, at_most=1e9, optional=True, unit="milliseconds")
        check_int("threads", self.threads, 1, native_search.MAX_THREADS)
        check_int("candidates", self.candidates, 1, native_search.MAX_RANK_MOVES)
        check_int("tries", self.tries, 1, 4096)
        for name in ("pass_weight", "bomb_weight"):
            object.__setattr__(self, name, float(check_number(name, getattr(self, name), above=0, at_most=1)))
        check_choice("policy", self.policy, _SEARCH_POLICIES, f"one of {', '.join(_SEARCH_POLICIES)}")
        if self.weights is not None and not isinstance(self.weights, str):
            raise GuandanError(f"weights is the path of a rollout policy file, got {describe(self.weights)}")
        object.__setattr__(self, "temperature", float(check_number("temperature", self.temperature, at_least=0,
                                                                   at_most=1e6)))  # fmt: skip
        if self.temperature > 0 and self.policy != "learned":
            raise GuandanError(f"temperature draws the learned policy's rollout moves: not with policy={self.policy}")
        if self.value is not None and not isinstance(self.value, str):
            raise GuandanError(f"value is the path of a state value file (.npz), got {describe(self.value)}")
        check_int("value_plies", self.value_plies, 0, 10_000, optional=True)
        if self.value_plies is not None and self.value is None:
            raise GuandanError("value_plies needs a state value (value=FILE)")
        object.__setattr__(self, "value_mix", float(check_number("value_mix", self.value_mix, at_least=0, at_most=1)))
        if self.value_mix != 1.0 and self.value is None:
            raise GuandanError("value_mix needs a state value (value=FILE)")
        if self.value is not None and self.objective != "levels":
            raise GuandanError(f"a state value scores levels: value=FILE needs objective=levels, not {self.objective}")

    def params(self) -> SearchParams:
        """The core's parameters these options set (the learned policy's weights loaded, when
        the policy is ``learned`` or a ``weights`` file is named); a decision fills in its
        budget, seed, objective and promotion (:func:`dataclasses.replace`)."""
        learned = self.policy == "learned" or self.weights is not None
        value = None if self.value is None else load_value(self.value)
        return SearchParams(
            threads=self.threads,
            policy=self.policy,
            tries=self.tries,
            pass_weight=self.pass_weight,
            bomb_weight=self.bomb_weight,
            weights=load_weights(self.weights) if learned else None,
            temperature=self.temperature,
            value=None if value is None else value.flat(),
            value_hidden=(128, 64) if value is None else value.hidden,
            value_plies=0 if value is None else value.plies if self.value_plies is None else self.value_plies,
            value_mix=self.value_mix,
        )


def _kept_scores(values: Any, k: int) -> npt.NDArray[np.float64]:
    """A prior's values for ``k`` candidates as ``float64``, checked before ``keep`` ranks them
    (the native search checks what it is given the same way)."""
    try:
        scores = np.array(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise GuandanError(f"prior must be a number for each candidate, got {describe(values)}") from None
    if scores.shape != (k,):
        raise GuandanError(f"prior must be one number for each of the {k} candidates, got shape {scores.shape}")
    if not np.all(np.isfinite(scores)):
        raise GuandanError("prior values must be finite numbers")
    return scores


class MonteCarloAgent:
    """The shipped search bot, ``mc``: determinized search with successive halving over
    candidate moves, weighted sampling, learned rollouts (see the module's description).

    Its options are :class:`SearchConfig`'s, as keywords (``MonteCarloAgent(seed=1,
    rollouts=400)``) or as one configuration (:meth:`from_config`, how the registry makes
    the agents of a spec: the options checked once).

    >>> MonteCarloAgent(seed=1)
    MonteCarloAgent(rollouts=2000, think_ms=None, threads=1, policy='learned', candidates=32)
    >>> MonteCarloAgent(think_ms=100).config.rollouts is None
    True
    """

    name = "mc"
    #: The configuration the registry makes from a spec's options (:meth:`from_config`).
    config_type = SearchConfig
    #: Options that were removed, and after which version (:data:`REMOVED_OPTIONS`).
    removed_options = REMOVED_OPTIONS

    def __init__(
        self,
        seed: int = 0,
        rollouts: int | None = None,
        think_ms: float | None = None,
        threads: int = 1,
        policy: SearchPolicy = "learned",
        candidates: int = 32,
        tries: int = TRIES,
        pass_weight: float = PASS_WEIGHT,
        bomb_weight: float = BOMB_WEIGHT,
        objective: Literal["levels", "wins", "match"] = "levels",
        weights: str | None = None,
        max_cost: int | None = None,
        value: str | None = None,
        value_plies: int | None = None,
        value_mix: float = 1.0,
        temperature: float = 0.0,
    ) -> None:
        config = SearchConfig(
            rollouts=rollouts, think_ms=think_ms, max_cost=max_cost, threads=threads, policy=policy,
            candidates=candidates, tries=tries, pass_weight=pass_weight, bomb_weight=bomb_weight,
            objective=objective, weights=weights, value=value, value_plies=value_plies,
            value_mix=value_mix, temperature=temperature,
        )  # fmt: skip
        self._configure(seed, config)

    @classmethod
    def from_config(cls, config: SearchConfig, seed: int = 0) -> MonteCarloAgent:
        """The agent of a configuration, seeded.

        >>> MonteCarloAgent.from_config(SearchConfig(rollouts=400), seed=3).config.rollouts
        400
        """
        if not isinstance(config, SearchConfig):
            raise GuandanError(f"config must be a SearchConfig, got {describe(config)}")
        agent = cls.__new__(cls)
        agent._configure(seed, config)
        return agent

    def _configure(self, seed: int, config: SearchConfig) -> None:
        self.seed = check_int("seed", seed)
        self.config = config
        self._params = config.params()
        self._weights = self._params.weights
        self._rng = SplitMix64(seed)

    def __repr__(self) -> str:
        c = self.config
        return (
            f"MonteCarloAgent(rollouts={c.rollouts}, think_ms={c.think_ms}, threads={c.threads}, "
            f"policy={c.policy!r}, candidates={c.candidates}"
            + (f", max_cost={c.max_cost})" if c.max_cost is not None else ")")
        )

    def act(self, observation: Observation) -> Move | int:
        """The searched action for the observation's phase (play, tribute or return)."""
        legal = observation.legal_actions
        if len(legal) == 1:
            only: Move | int = legal[0]
            return only
        return self.analyze(observation).best

    def analyze(
        self,
        observation: Observation,
        prior: Prior | None = None,
        prior_rollouts: float = 0.0,
        keep: int | None = None,
    ) -> SearchResult:
        """Search the decision of an observation (the seat to act) and return every
        candidate with its value, best first (the hint of ``guandan play``). Draws one
        seed from the agent's generator, as :meth:`act` does.

        ``prior`` (in play): a function of the observation and the candidate moves giving
        each a value in the search's unit (a network's, :class:`~guandan.bots.guided.
        GuidedSearchAgent`), counted as ``prior_rollouts`` rollouts in the standings of
        successive halving and of the final ranking (``SearchParams.prior_rollouts``); the
        choices' values stay their rollouts' means. ``keep`` (with a prior): only the ``keep``
        candidates the prior values most are searched, in the search's order (the rest are
        not played; ``keep=1`` plays the prior's choice without a rollout)."""
        start = time.perf_counter()
        if not isinstance(observation, Observation):
            raise GuandanError(f"analyze takes an Observation, got {describe(observation)}")
        if observation.turn != observation.seat or not len(observation.legal_actions):
            raise GuandanError(f"seat {observation.seat} is not to act: there is nothing to search")
        check_number("prior_rollouts", prior_rollouts, at_least=0, expected="a number of rollouts >= 0")
        if keep is not None:
            keep = check_int("keep", keep, 1)
            if prior is None:
                raise GuandanError("keep needs a prior: the candidates it values most are kept")
        seed = self._rng.next_u64()
        if observation.phase == Phase.PLAY:
            return self._analyze_play(observation, seed, start, prior, float(prior_rollouts), keep)
        return self._analyze_card(observation, seed, start)

    def _promotion(self, observation: Observation) -> tuple[int, int, int]:
        """What a rollout's result is worth: the levels the rules give a win with the partner
        2nd, 3rd, 4th (``objective="levels"``), or 1 whatever the places (``"wins"``)."""
        return (1, 1, 1) if self.config.objective == "wins" else observation.ruleset.promotion

    def _payoffs(self, observation: Observation) -> tuple[int, ...] | None:
        """With ``objective="match"`` in a match: the chance to win it after each result of the
        deal (:func:`guandan.bots.match_value.deal_payoffs`); else ``None``."""
        return deal_payoffs(observation) if self.config.objective == "match" else None

    # -- play ------------------------------------------------------------------------------

    def _budget(self, observation: Observation) -> int | None:
        """The rollouts of this decision (``None``: the time budget alone): ``rollouts``,
        capped by what ``max_cost`` affords with the cards left in the four hands."""
        rollouts, max_cost = self.config.rollouts, self.config.max_cost
        if max_cost is None:
            return rollouts
        affordable = affordable_rollouts(max_cost, sum(observation.card_counts))
        return affordable if rollouts is None else min(rollouts, affordable)

    def _seconds_left(self, start: float) -> float:
        """The time budget left for the native search (0: none)."""
        think_ms = self.config.think_ms
        if think_ms is None:
            return 0.0
        return max(1e-6, start + think_ms / 1000 - time.perf_counter() - 0.0005)

    def _analyze_play(
        self,
        observation: Observation,
        seed: int,
        start: float,
        prior: Prior | None,
        prior_rollouts: float,
        keep: int | None,
    ) -> SearchResult:
        info = information_set(observation)
        hand = observation.hand
        state = public_state(
            int(observation.level), observation.seat, observation.to_beat, observation.history, observation.finish_order
        )
        words = native_search.search_candidates(info, state, self.config.candidates)
        # the cards a choice spends: those that keep the hand's straight flushes
        spend = flush_keeping_move if straight_flushes(hand, observation.level) else canonical_move
        if len(words) == 1:
            move = spend(int(words[0]), hand, observation.level)
            return SearchResult((Choice(move, 0.0, 0),), 0, time.perf_counter() - start)
        payoffs = self._payoffs(observation)
        objective: tuple[int, ...] | Literal["levels", "wins"] = (
            payoffs if payoffs is not None else "wins" if self.config.objective == "wins" else "levels"
        )
        moves = [spend(int(w), hand, observation.level) for w in words]
        values = None
        if prior is not None and (prior_rollouts > 0 or (keep is not None and keep < len(words))):
            values = prior(observation, moves)  # before the time left is measured: it counts
            if keep is not None and keep < len(words):
                scores = _kept_scores(values, len(words))
                kept = np.sort(np.argsort(-scores, kind="stable")[:keep])
                words = words[kept]
                moves = [moves[i] for i in kept]
                values = scores[kept]
                if len(words) == 1:
                    return SearchResult((Choice(moves[0], 0.0, 0),), 0, time.perf_counter() - start)
        params = replace(
            self._params,
            rollouts=self._budget(observation) or 0,
            seconds=self._seconds_left(start),
            seed=seed,
            objective=objective,
            promotion=observation.ruleset.promotion,
            prior_rollouts=prior_rollouts if values is not None else 0.0,
        )
        values = values if prior_rollouts > 0 else None
        stats, done = native_search.search(info, state, words, params, values)
        order = np.argsort(stats[:, 3], kind="stable")
        choices = tuple(Choice(moves[i], float(stats[i, 1]), int(stats[i, 0])) for i in order)
        return SearchResult(choices, int(done), time.perf_counter() - start)

    # -- tribute and return ----------------------------------------------------------------

    def _analyze_card(self, observation: Observation, seed: int, start: float) -> SearchResult:
        """Each tribute or return card played out in the same sampled deals: the other
        seats' tribute and return cards by the greedy agent's rules, then the deal."""
        cards = tuple(int(c) for c in observation.legal_actions)
        rollouts = self._budget(observation)
        budget = rollouts if rollouts is not None else MAX_CARD_WORLDS * len(cards)
        worlds = max(1, min(budget // len(cards), MAX_CARD_WORLDS))
        flows = _CardFlows(observation)
        deals = native_search.sample_deals(flows.infoset, worlds, seed)
        think_ms = self.config.think_ms
        deadline = None if think_ms is None else start + think_ms / 1000
        side = observation.seat & 1
        promotion = self._promotion(observation)
        orders = np.empty((len(deals), len(cards), 4), dtype=np.int8)  # finish orders, scored at the end
        rng = SplitMix64(seed)
        done = 0
        for w, hands in enumerate(deals):
            if deadline is not None and time.perf_counter() >= deadline:
                break
            setup = flows.world(rng)
            for i, card in enumerate(cards):
                state = flows.start_state(list(hands), card, setup)
                rollout = native.rollouts(state, 1, self.config.policy, seed=(seed + w) & MASK64, weights=self._weights)
                orders[w, i] = rollout[0]
            done += 1
        scores = side_scores(orders[:done].reshape(-1, 4), side, promotion, self._payoffs(observation))
        totals = scores.reshape(done, len(cards)).sum(axis=0)
        played = np.full(len(cards), done, dtype=np.int64)
        means = np.divide(totals, played, out=np.zeros(len(cards)), where=played > 0)
        order = sorted(range(len(cards)), key=lambda i: (-means[i], i))
        choices = tuple(Choice(cards[i], float(means[i]), int(played[i])) for i in order)
        return SearchResult(choices, int(played.sum()), time.perf_counter() - start)



#: The 2-bit fields of the faces of ranks 2..10 (faces 0..35), and of each rank's four faces.
_LOW_FIELDS = (1 << 72) - 1


def _lowest_return(bits: int, level: int) -> int:
    """The card the greedy agent returns from a packed hand at ``level``: the lowest of
    :func:`~guandan.game.tribute.return_choices` under the ``low`` rule (the lowest face of rank
    2..10 other than the level, read from the bits; else the lowest in the elevated order)."""
    low = bits & _LOW_FIELDS & ~rank_bits(level)
    if low:
        return ((low & -low).bit_length() - 1) >> 1
    choices = return_choices(cards_of_bits(bits).counts, level, "low")
    return min(choices, key=lambda c: (elevated_order(card_rank(c), level), c))


class _CardFlows:
    """The tribute and return around a seat's tribute or return card, from what every
    observation of that phase shows alike — in process or rebuilt from the platform's
    messages, which announce the tribute cards once all are paid and the returns once all
    are made (:mod:`guandan.platform.seat`): the seat's hand, the level and, when it
    returns, the tribute cards. So the counts are those of the deal (27 a seat) changed by
    the announced tribute (a deal of given hands, not of the whole deck, is taken as the
    engine shows it); a tribute payer assumes a single tribute and draws its receiver
    among the opponents (the observation does not say which was 1st); a receiver's partner,
    in a double tribute, holds the other tribute card and returns its lowest card. The
    other seats' cards follow the greedy agent's rules (the lowest card the ``low`` rule
    allows). The play is led by the payer (single) or by the seat whose card went to the
    1st (the higher card, the first paid on ties)."""

    def __init__(self, observation: Observation) -> None:
        self.me = me = observation.seat
        self.level = level = int(observation.level)
        self.tribute = observation.phase == Phase.TRIBUTE
        hand = observation.hand
        known = [0, 0, 0, 0]
        forbid = [0, 0, 0, 0]
        need = [0 if s == me else 27 for s in range(4)]
        self.pending: list[tuple[int, int]] = []
        if not self.tribute:
            tributes = [(r.seat, r.card) for r in observation.history if isinstance(r, Tribute)]
            orders = [(elevated_order(card_rank(c), level), -i) for i, (_, c) in enumerate(tributes)]
            higher = tributes[orders.index(max(orders))]
            self.leader = higher[0]
            # which card came to this seat: the one it holds; holding both faces, the higher
            # (the 1st place receives it and returns first)
            held = [(s, c) for s, c in tributes if hand.count(c)]
            self.payer = (held[0] if len(held) == 1 else higher)[0]
            for payer, card in tributes:
                need[payer] -= 1
                forbid[payer] |= tribute_above(card, level)
            rest = [(s, c) for s, c in tributes if s != self.payer]
            if rest:  # a double tribute: the partner holds the other card and owes a return
                partner = me ^ 2
                need[partner] += 1
                if (Cards.deck() - hand).count(rest[0][1]):  # its face is not all in this hand
                    known[partner] = face_bit(rest[0][1])
                    need[partner] -= 1
                self.pending.append((partner, rest[0][0]))
        pending = sum(isinstance(r, Tribute) for r in observation.history) if self.tribute else 0
        if sum(observation.card_counts) + pending != len(_FULL_DECK):  # a deal of given hands, not the deck
            paid = Counter(r.seat for r in observation.history if isinstance(r, Tribute)) if self.tribute else Counter()
            counts = observation.card_counts
            need = [0 if s == me else n + paid[s] - size_of_bits(known[s]) for s, n in enumerate(counts)]
        pool = _DECK - bits_of_cards(hand) - sum(known)
        self.infoset = InfoSet(
            me, level, bits_of_cards(hand), pool, tuple(known), tuple(forbid), tuple(need), _NO_EVENTS
        )

    def world(self, rng: SplitMix64) -> int:
        """A world's random part: in the tribute phase, which opponent receives."""
        return (self.me + 1 + 2 * rng.below(2)) & 3

    def _return(self, hands: list[int], receiver: int, payer: int) -> None:
        card = _lowest_return(hands[receiver], self.level)
        hands[receiver] -= face_bit(card)
        hands[payer] += face_bit(card)

    def start_state(self, hands: list[int], card: int, receiver: int) -> DealState:
        """The deal state at the start of play after the seat gives ``card``."""
        me = self.me
        hands[me] -= face_bit(card)
        if self.tribute:
            hands[receiver] += face_bit(card)
            self._return(hands, receiver, me)
            leader = me
        else:
            hands[self.payer] += face_bit(card)
            for partner, payer in self.pending:
                self._return(hands, partner, payer)
            leader = self.leader
        return DealState(tuple(hands), self.level, leader, -1, PASS_WORD, 0, ())


def _weakness(word: int, level: int) -> tuple[int, int, int, int]:
    """Weakest first: non-bombs before bombs, then key order, then more cards, then fewer wilds."""
    move_type, key, wilds = word_type(word), word_key(word), word_wilds(word)
    if move_type in SEQUENCE_TYPES:
        order = window_start(key + 2)
    else:
        order = key if key == KEY_NONE else elevated_order(key + 2, level)
    return (move_type in BOMB_TYPES, order, -word_size(word), wilds)


class BasicMonteCarloAgent:
    """The first search bot (``mc-basic``): every candidate played out once in each of a
    fixed number of uniformly sampled deals with the greedy policy (see the module's
    description). Tribute and return choices are the greedy agent's.

    >>> BasicMonteCarloAgent(seed=1)
    BasicMonteCarloAgent(determinizations=12, playouts=1, policy='greedy', candidates=24)
    """

    name = "mc-basic"

    def __init__(
        self,
        seed: int = 0,
        determinizations: int = 12,
        playouts: int = 1,
        policy: Policy = "greedy",
        candidates: int = 24,
    ) -> None:
        check_int("determinizations", determinizations, 1)
        check_int("playouts", playouts, 1)
        check_int("candidates", candidates, 1)
        check_choice("policy", policy, ("random", "greedy"), "'random' or 'greedy'")
        self.seed = seed
        self.determinizations = determinizations
        self.playouts = playouts
        self.policy = policy
        self.candidates = candidates
        self._rng = SplitMix64(seed)
        self._fallback = GreedyAgent(seed)

    def __repr__(self) -> str:
        return (
            f"BasicMonteCarloAgent(determinizations={self.determinizations}, playouts={self.playouts}, "
            f"policy={self.policy!r}, candidates={self.candidates})"
        )

    def act(self, observation: Observation) -> Move | int:
        """The action for the observation's phase: a searched move in play, else the greedy choice."""
        if observation.phase != Phase.PLAY:
            return self._fallback.act(observation)
        legal = observation.legal_actions
        if len(legal) == 1:
            only: Move = legal[0]
            return only
        level = int(observation.level)
        to_beat = observation.to_beat
        beat = PASS_WORD if to_beat is None else pack_rank_move(to_beat.move.to_rank())
        words = [int(w) for w in rank_moves(observation.hand_counts, level, beat)]
        words.sort(key=lambda w: _weakness(w, level))
        if len(words) > self.candidates:
            keep = words[: self.candidates]
            if PASS_WORD in words and PASS_WORD not in keep:
                keep[-1] = PASS_WORD
            words = keep
        if len(words) == 1:
            return canonical_move(words[0], observation.hand, observation.level)
        states = [self._state(observation, determinize(observation, self._rng)) for _ in range(self.determinizations)]
        orders = native.evaluate(states, words, self.playouts, self.policy, self._rng.next_u64())
        result = side_scores(orders.reshape(-1, 4), observation.seat & 1, observation.ruleset.promotion)
        result = result.reshape(len(states), len(words), -1)
        best = int(np.argmax(result.mean(axis=(0, 2))))
        return canonical_move(words[best], observation.hand, observation.level)

    @staticmethod
    def _state(observation: Observation, hands: Any) -> DealState:
        return native_state(
            hands, int(observation.level), observation.seat, observation.to_beat, observation.history,
            observation.finish_order,
        )


