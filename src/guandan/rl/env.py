"""A PettingZoo AEC environment of a Guandan deal or a whole match (the ``rl`` extra).

Agents ``"seat_0"`` .. ``"seat_3"`` (partners opposite: seats 0 and 2 against 1 and 3) act
in turn; tribute and return are actions too in a match. Imperfect information only:
``observe(agent)`` is the agent's own information set, ``{"observation": float32 (513,),
"action_mask": int8 (2267,)}`` — the 513 state values of the 567-value rows
(:mod:`guandan.game.encoding`: its hand, the public record of the deal, the card counts,
the levels) and the mask of its legal actions (all 0 when it is not to act). No other seat's
cards are ever in it.

**Actions** (``Discrete(2267)``):

* ``0 .. 2212``: a rank-level move, an index of :data:`guandan.core.batch.ACTION_SPACE` (the
  pass is one), played with its cards chosen canonically — the suits holding the most copies
  first (:func:`guandan.core.movegen.canonical_move`); decode one with :func:`action_move`;
* ``2213 + face`` (``face`` 0..53): a card, to pay as tribute or to return.

Why this space: it is fixed (a policy network has one output per action, as Gymnasium and
PettingZoo learners expect) and small, and every legal move of any position is in it; the
physical cards a rank-level move spends matter little (which of two equal fives), so the
canonical choice loses next to nothing — an agent that wants card-level control scores the
legal card-level moves instead (:func:`guandan.game.encoding.encode_rows`, the ``onnx`` agent).

**Rewards**, at the end, for every agent: ``reward="levels"`` (default) the levels its side
gains (+) or its opponents gain (−) in the deal under the ruleset's promotion
(:mod:`guandan.game.scoring`) — in a match, at the end of each deal; ``reward="wins"`` +1 or
−1 for the deal (in a match: for the match). A match may be cut after ``max_deals`` deals
(truncation).

**Seeds.** ``reset(seed=s)`` plays the deal :meth:`guandan.Deal.new` deals from ``s`` (a match:
``Match(seed=s)``): the same seed, the same game on every platform. ``s`` is an int or a numpy
integer in ``[0, 2**64)`` (another value raises :class:`~guandan.GuandanError`, none is
wrapped). Without a seed, the next of a :class:`~guandan.core.rng.SplitMix64` stream started
at ``s`` by the latest seeded reset (at 0 if none was): ``reset(seed=1); reset(seed=5);
reset()`` plays what ``reset(seed=5); reset()`` plays.

**Privileged information.** A seat sees only ``observe``/``last`` (and ``render``, its own
view). The seed deals every hand, so it is not in any observation, info or rendering; it is
read with :meth:`GuandanEnv.privileged_seed` (for logs and replays), and the attribute
``state`` is the whole game (the :class:`~guandan.Deal` or :class:`~guandan.Match`): both are
for the trainer's bookkeeping, never an agent's input.

**Bad input**: an action that is not an integer (an int, a numpy integer or a 0-d integer
array, as the action space holds), out of range, masked out (the error names its move in
Guandan notation), or given for an agent not to act, and a step after the end, raise
:class:`~guandan.IllegalMoveError` (the environment is left as it was).

>>> env = GuandanEnv()
>>> env.reset(seed=3)
>>> obs, reward, termination, truncation, info = env.last()
>>> obs["observation"].shape, obs["action_mask"].shape, env.agent_selection
((513,), (2267,), 'seat_2')
>>> env.step(int(obs["action_mask"].argmax()))
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as error:  # pragma: no cover
    raise ImportError(
        "guandan.rl.env needs pettingzoo and gymnasium: pip install '.[rl]' from the guandan checkout"
    ) from error

from ..core.batch import ACTION_SPACE, rank_mask
from ..core.cards import NUM_FACES, card_name, parse_level
from ..core.encode import Record
from ..core.movegen import canonical_move, unpack_rank_move
from ..core.moves import Move
from ..core.packed import canonical_words, cards_of_bits
from ..core.rng import SplitMix64
from ..errors import GuandanError, IllegalMoveError, check_bool, check_choice, check_int, describe
from ..game.deal import Deal
from ..game.encoding import ROW_SIZE, STATE_SIZE, card_vector, encode_actions, encode_state
from ..game.history import Phase
from ..game.match import Match
from ..game.protocol import Game
from ..game.render import format_hand, format_move, render_table, seat_name
from ..game.rules import Ruleset, get_ruleset
from ..game.scoring import side_scores
from .vector import check_seed

__all__ = ["GuandanEnv", "env", "raw_env", "action_move", "action_index", "CARD_ACTIONS", "N_ACTIONS", "AGENTS"]

#: The first card action: ``CARD_ACTIONS + face`` pays or returns the card ``face``.
CARD_ACTIONS = len(ACTION_SPACE)
#: The size of the action space: the rank-level moves, then the 54 cards.
N_ACTIONS = CARD_ACTIONS + NUM_FACES
#: The agents' names, seat by seat.
AGENTS = tuple(f"seat_{s}" for s in range(4))


def action_index(action: object, n: int = N_ACTIONS) -> int | None:
    """An action given as an int, a numpy integer or a 0-d integer array (what a Gymnasium
    ``Discrete`` space holds) as an int in ``0..n-1``; ``None`` for anything else.

    >>> action_index(np.array(7)), action_index(np.int64(3)), action_index(True), action_index(N_ACTIONS)
    (7, 3, None, None)
    """
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        action = action[()]
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)) or not 0 <= action < n:
        return None
    return int(action)


def action_move(action: int, hand: Any, level: int) -> Move | int:
    """What an action index plays from a hand at a level: the canonical move of a rank-level
    index, the card (a face 0..53) of a card action.

    >>> print(action_move(0, "S3", 2)), action_move(CARD_ACTIONS + 53, "HR", 2)
    pass
    (None, 53)
    """
    a = action_index(action)
    if a is None:
        raise IllegalMoveError(f"an action is an int 0..{N_ACTIONS - 1}, got {describe(action)}", reason="bad_index")
    if a >= CARD_ACTIONS:
        return a - CARD_ACTIONS
    return canonical_move(int(ACTION_SPACE[a]), hand, level)


class GuandanEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no types
    """The AEC environment (see the module's description).

    ``kind``: ``"deal"`` (one deal) or ``"match"``; ``level``: a lone deal's level;
    ``ruleset``: the rules (their promotion scores the deals); ``reward``: ``"levels"`` or
    ``"wins"``; ``max_deals``: cut a match after this many deals; ``render_mode``: ``"ansi"``
    (``render()`` returns the text) or ``"human"`` (prints it); ``legal_rows``: the info of the
    agent to act also holds ``"legal_rows"`` and ``"legal_index"`` (:meth:`legal_rows`: the
    network interface of the ``onnx`` agent beside the fixed action space).
    """

    metadata = {"render_modes": ["ansi", "human"], "name": "guandan_v0", "is_parallelizable": False}

    def __init__(
        self,
        kind: Literal["deal", "match"] = "deal",
        *,
        level: int = 2,
        ruleset: Ruleset | str | None = None,
        reward: Literal["levels", "wins"] = "levels",
        max_deals: int | None = None,
        render_mode: str | None = None,
        legal_rows: bool = False,
    ) -> None:
        super().__init__()
        self.with_rows = check_bool("legal_rows", legal_rows)
        check_choice("kind", kind, ("deal", "match"), "'deal' or 'match'")
        check_choice("reward", reward, ("levels", "wins"), "'levels' or 'wins'")
        check_choice("render_mode", render_mode, (None, "ansi", "human"), "None, 'ansi' or 'human'")
        check_int("max_deals", max_deals, 1, optional=True)
        self.kind = kind
        self.level = int(parse_level(level))
        self.ruleset = get_ruleset(ruleset)
        if not self.ruleset.plain_straight_flush:
            raise GuandanError(f"the environment plays rulesets that keep same-suit fives as straights; "
                               f"{self.ruleset.name} does not")  # fmt: skip
        self.reward_kind = reward
        self.max_deals = max_deals
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        box = spaces.Box(low=-1.0, high=2.0, shape=(STATE_SIZE,), dtype=np.float32)
        mask = spaces.Box(low=0, high=1, shape=(N_ACTIONS,), dtype=np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": box, "action_mask": mask}) for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(N_ACTIONS) for a in AGENTS}
        self._seeds: SplitMix64 | None = None
        self._seed: int | None = None
        self.state: Game | None = None
        self._masks: dict[int, Any] = {}  # this step's masks by seat, and its native state (-1)
        self._over = False
        self._record = Record()  # the current deal's public record, play by play
        self._record_of: Deal | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- reset, observe ------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new deal (or match) from ``seed`` (see the module's description)."""
        seed = check_seed(seed, optional=True)
        if seed is None:
            if self._seeds is None:
                self._seeds = SplitMix64(0)
            seed = self._seeds.next_u64()
        else:  # every seeded reset starts the stream again: what follows depends on this seed alone
            self._seeds = SplitMix64(seed)
        self._seed = seed
        if self.kind == "deal":
            self.state = Deal.new(seed, self.level, ruleset=self.ruleset)
        else:
            self.state = Match(seed=seed, ruleset=self.ruleset)
        self._results = 0
        self._over = False
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self._masks = {}
        self.agent_selection = AGENTS[self.state.turn]  # type: ignore[index]
        self._fill_rows()

    def _fill_rows(self) -> None:
        """With ``legal_rows``: the info of the agent to act holds its legal rows and their
        indices (:meth:`legal_rows`), no other agent's does."""
        if not self.with_rows:
            return
        for info in self.infos.values():
            info.pop("legal_rows", None)
            info.pop("legal_index", None)
        if not self._done():
            agent = self.agent_selection
            rows, index = self.legal_rows(agent)
            self.infos[agent]["legal_rows"], self.infos[agent]["legal_index"] = rows, index

    def privileged_seed(self) -> int | None:
        """The seed of the deal (or match) being played, ``None`` before the first reset.

        **Privileged**: the seed deals every hand, so it is the whole game, not what a seat
        sees; it is kept out of observations, infos and the rendering (for logs and replays).

        >>> e = GuandanEnv(); e.reset(seed=7); e.privileged_seed()
        7
        """
        return self._seed

    def legal_rows(self, agent: str) -> tuple[np.ndarray, np.ndarray]:
        """The agent's legal actions now as the ``onnx`` agent's network reads them: ``(rows,
        index)``, ``rows`` ``float32 (k, 567)`` the 567-value rows (:mod:`guandan.game.encoding`:
        the agent's 513 state values, then the card vector of the move the action plays — its
        canonical cards; a card action's card) and ``index`` ``int64 (k,)`` each row's action in
        the fixed space (the set bits of the mask, ascending). A network over the rows chooses
        ``index[argmax(q(rows))]``, and the same network plays as ``onnx:model=FILE``. Empty
        (``(0, 567)``, ``(0,)``) when the agent is not to act.

        >>> e = GuandanEnv(); e.reset(seed=3)
        >>> rows, index = e.legal_rows(e.agent_selection)
        >>> mask = e.observe(e.agent_selection)["action_mask"]
        >>> rows.shape == (len(index), 567), bool((index == np.flatnonzero(mask)).all())
        (True, True)
        """
        seat = _seat_of(agent)
        obs = self.observe(agent)
        index = np.flatnonzero(obs["action_mask"]).astype(np.int64)
        rows = np.zeros((len(index), ROW_SIZE), dtype=np.float32)
        rows[:, :STATE_SIZE] = obs["observation"]
        if not len(index):
            return rows, index
        if index[0] >= CARD_ACTIONS:  # tribute or return: one card each
            rows[:, STATE_SIZE:] = [card_vector(card_name(int(a) - CARD_ACTIONS)) for a in index]
            return rows, index
        native = self._native()
        hand, level, beat = native.hands[seat], native.level, native.beat
        moves = np.array([canonical_words(hand, level, beat, int(ACTION_SPACE[a])) for a in index],
                         dtype=np.uint64)  # fmt: skip
        rows[:, STATE_SIZE:] = encode_actions(moves)
        return rows, index

    def _turn(self) -> int | None:
        return None if self.state is None or self.state.is_over else self.state.turn

    def _mask(self, seat: int) -> np.ndarray:
        cached: np.ndarray | None = self._masks.get(seat)
        if cached is not None:
            return cached
        mask = np.zeros(N_ACTIONS, dtype=np.int8)
        state = self.state
        if state is not None and not self._over and state.turn == seat:
            phase = state.phase
            if phase is Phase.PLAY:
                native = self._native()
                rank_mask(native.hands[seat], native.level, native.beat, mask[:CARD_ACTIONS])
            else:
                cards = state.observation(seat).legal_actions
                mask[[CARD_ACTIONS + int(c) for c in cards]] = 1
        self._masks[seat] = mask
        return mask

    def _done(self) -> bool:
        return self._over

    def _native(self) -> Any:
        """The deal's native state now (made once a step)."""
        native = self._masks.get(-1)
        if native is None:
            state = self.state
            assert state is not None
            deal = state.deal
            assert deal is not None
            native = self._masks[-1] = deal.native_state()
        return native

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's own information set: its 513 state values and its action mask."""
        seat = _seat_of(agent)
        state = self.state
        if state is None:
            raise GuandanError("reset the environment first")
        deal = state.deal
        if deal is not None and state.phase is Phase.PLAY:  # the fast path: no Observation made
            level = int(deal.level)
            levels = state.levels
            own, other = int(levels[seat & 1]), int(levels[1 - (seat & 1)])
            record = self._record
            if self._record_of is not deal:  # a new deal: its record starts again
                record.clear()
                self._record_of = deal
            record.sync(deal.packed_plays)
            values = record.encode_state(self._native().hands[seat], seat, deal.card_counts, level, own, other)
        else:
            values = encode_state(state.observation(seat))
        return {"observation": values, "action_mask": self._mask(seat)}

    # -- step ----------------------------------------------------------------------------------

    def step(self, action: int | None) -> None:
        """Play ``action`` for :attr:`agent_selection` (``None`` for an agent that is done)."""
        if self.state is None:
            raise GuandanError("reset the environment first")
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            if action is not None:
                raise IllegalMoveError(
                    f"the game is over: {agent} is done and its only step is None, got {describe(action)}",
                    reason="game_over",
                )
            self._was_dead_step(action)
            return
        if not self.agents:
            raise IllegalMoveError("the game is over: reset the environment", reason="game_over")
        seat = _seat_of(agent)
        a = self._legal_index(seat, action)
        self._cumulative_rewards[agent] = 0.0
        self._apply_index(seat, a)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _legal_index(self, seat: int, action: object) -> int:
        """A legal action index of ``seat`` now, from an int, a numpy integer or a 0-d integer
        array (all in the action space); anything else raises :class:`~guandan.IllegalMoveError`
        naming the action (its move in Guandan notation)."""
        agent = AGENTS[seat]
        a = action_index(action)
        if a is None:
            raise IllegalMoveError(f"{agent}: an action is an int 0..{N_ACTIONS - 1}, got {describe(action)}",
                                   reason="bad_index", seat=seat, got=action)  # fmt: skip
        if not self._mask(seat)[a]:
            raise IllegalMoveError(
                f"{agent}: action {a} ({_action_text(a, self.state)}) is not legal now (its mask bit is 0)",
                reason="not_legal", seat=seat, got=a,
            )
        return a

    def engine_action(self, a: int) -> Move | int:
        """The engine's action for a legal action index of the seat to act: the canonical move
        of a rank-level index (:func:`action_move`), the card of a card action."""
        if a >= CARD_ACTIONS:
            return a - CARD_ACTIONS
        state = self.state
        assert state is not None
        deal = state.deal
        assert deal is not None and deal.turn is not None
        hand = cards_of_bits(deal.native_state().hands[deal.turn])
        return canonical_move(int(ACTION_SPACE[a]), hand, deal.level)

    def _apply_index(self, seat: int, a: int) -> None:
        """Apply a legal action index for the seat to act (see :meth:`_apply`)."""
        state = self.state
        assert state is not None
        if a >= CARD_ACTIONS:
            state.act(a - CARD_ACTIONS, seat)
        else:
            state.play_canonical(int(ACTION_SPACE[a]))
        self._after()

    def _apply(self, seat: int, action: Any) -> None:
        """Apply an engine action (a move or a card) for the seat to act and score what it ended;
        this step's rewards are in :attr:`rewards` (the caller accumulates them)."""
        state = self.state
        assert state is not None
        state.act(action, seat)
        self._after()

    def _after(self) -> None:
        state = self.state
        assert state is not None
        self._masks = {}
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._score()
        if not self._done():
            self.agent_selection = AGENTS[state.turn]  # type: ignore[index]
        self._fill_rows()

    def step_for(self, agent: str, action: int | None) -> None:
        """:meth:`step`, saying whose action it is: an action of an agent not to act raises
        :class:`~guandan.IllegalMoveError` (and changes nothing).

        >>> e = GuandanEnv(); e.reset(seed=3); e.step_for("seat_0", 0)
        Traceback (most recent call last):
        ...
        guandan.errors.IllegalMoveError: not seat_0's turn: seat_2 is to act
        """
        seat = _seat_of(agent)
        if agent != self.agent_selection:
            raise IllegalMoveError(f"not {agent}'s turn: {self.agent_selection} is to act",
                                   reason="not_turn", seat=seat)  # fmt: skip
        self.step(action)

    def _score(self) -> None:
        state = self.state
        promotion = self.ruleset.promotion
        if isinstance(state, Deal):
            if state.is_over:
                self._end(self._deal_rewards(state.finish_order, promotion), truncated=False)
            return
        assert isinstance(state, Match)
        results = state.results
        for summary in results[self._results :]:
            if self.reward_kind == "levels":
                gains = self._deal_rewards(summary.result.finish_order, promotion)
                for s in range(4):
                    self.rewards[AGENTS[s]] += gains[s]
        self._results = len(results)
        if state.is_over:
            if self.reward_kind == "wins":
                winner = state.winner
                for s in range(4):
                    self.rewards[AGENTS[s]] += 0.0 if winner is None else (1.0 if s & 1 == winner else -1.0)
            self._end(None, truncated=False)
        elif self.max_deals is not None and len(results) >= self.max_deals:
            self._end(None, truncated=True)

    def _deal_rewards(self, order: tuple[int, ...], promotion: tuple[int, int, int]) -> list[float]:
        row = np.full((1, 4), -1, dtype=np.int64)
        row[0, : len(order)] = order
        if self.reward_kind == "wins":
            return [1.0 if (s & 1) == (order[0] & 1) else -1.0 for s in range(4)]
        gains = [float(side_scores(row, side, promotion)[0]) for side in (0, 1)]
        return [gains[s & 1] for s in range(4)]

    def _end(self, rewards: list[float] | None, truncated: bool) -> None:
        if rewards is not None:
            for s in range(4):
                self.rewards[AGENTS[s]] += rewards[s]
        self._over = True
        for a in AGENTS:
            if truncated:
                self.truncations[a] = True
            else:
                self.terminations[a] = True
            self.infos[a] = {"finish_order": self._finish_order()}

    def _finish_order(self) -> tuple[int, ...]:
        state = self.state
        if isinstance(state, Deal):
            return state.finish_order
        assert isinstance(state, Match)
        return state.results[-1].result.finish_order if state.results else ()

    # -- render, close -------------------------------------------------------------------------

    def render(self) -> str | None:
        """The table as the seat to act sees it (its own hand only), as text: returned with
        ``render_mode="ansi"``, printed with ``"human"``."""
        if self.render_mode is None:
            return None
        text = self._text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _text(self) -> str:
        state = self.state
        if state is None:
            return "(not reset)"
        viewer = _seat_of(self.agent_selection)
        if isinstance(state, Match):
            if state.is_over:
                return f"The match is over: side {state.winner} won ({state.end_reason})."
            return render_table(state, viewer)
        assert isinstance(state, Deal)
        lines = [f"Deal at level {state.level.label}"]
        if state.is_over:
            lines.append(f"Over: finish order {state.finish_order}")
            return "\n".join(lines)
        counts = state.card_counts
        lines.append("Cards: " + ", ".join(f"{seat_name(s, viewer)} {counts[s]}" for s in range(4)))
        beat = state.to_beat
        turn = state.turn
        assert turn is not None
        lines.append(f"{seat_name(turn, viewer)} leads." if beat is None
                     else f"To beat: {format_move(beat.move)} — by {seat_name(beat.seat, viewer)}")  # fmt: skip
        lines.append(f"Hand of {seat_name(viewer, viewer)}: {format_hand(state.hand(viewer), state.level)}")
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release."""


_SEATS = {agent: seat for seat, agent in enumerate(AGENTS)}


def _seat_of(agent: str) -> int:
    seat: int = _SEATS[check_choice("an agent", agent, AGENTS, f"one of {', '.join(AGENTS)}")]
    return seat


def _action_text(a: int, state: Game | None) -> str:
    if a >= CARD_ACTIONS:
        return f"card {card_name(a - CARD_ACTIONS)}"
    deal = state.deal if state is not None else None
    level = deal.level if deal is not None else 2
    return str(unpack_rank_move(int(ACTION_SPACE[a]), level))


def raw_env(**kwargs: Any) -> GuandanEnv:
    """The environment without wrappers (PettingZoo's convention).

    >>> raw_env(kind="match").kind
    'match'
    """
    return GuandanEnv(**kwargs)


def env(**kwargs: Any) -> Any:
    """The environment wrapped as PettingZoo's classic games are (order enforcing).

    >>> e = env(); e.reset(seed=1); e.agent_selection in AGENTS
    True
    """
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(GuandanEnv(**kwargs))
