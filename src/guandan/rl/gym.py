"""Gymnasium views (the ``rl`` extra): one learning seat against given agents, and the
vectorized tables as a Gymnasium ``VectorEnv``.

* :class:`GuandanGymEnv`: a single-agent ``gymnasium.Env`` over the PettingZoo environment
  (:mod:`guandan.rl.env`: the same observations, actions and rewards): the learner plays one
  seat, the other seats are played by agents given by spec (``"greedy"``, ``"random"``,
  ``"mc:rollouts=400"``, ``"onnx:model=bot.onnx"``, an agent object:
  :func:`guandan.bots.registry.make_agent`), made from the episode's seed so that a seeded
  reset replays the same game.
* :class:`TablesVectorEnv`: ``num_envs`` tables stepped in the C core
  (:class:`~guandan.rl.vector.VecTables`), the learner's seat (one seat: one trajectory is
  one seat) with built-in ``random`` or ``greedy`` seats, rank-level actions
  (``Discrete(2213)``: :data:`~guandan.core.batch.ACTION_SPACE`) with masks, a finished deal
  reset in the same step (its reward and ``terminations[i]`` reported with the next deal's
  first observation, its terminal observation in ``infos["final_obs"]``).

Both draw ``action_space.sample()`` among the legal actions of the decision now (the space
knows the mask; ``sample(mask=...)`` as usual too), so a random agent is
``env.action_space.sample()``; an illegal action raises :class:`~guandan.IllegalMoveError`
and leaves the environment as it was.

>>> env = GuandanGymEnv(opponents="greedy")
>>> obs, info = env.reset(seed=4)
>>> obs["observation"].shape, int(obs["action_mask"].sum()) > 0
((513,), True)
>>> obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as error:  # pragma: no cover
    raise ImportError("guandan.rl.gym needs gymnasium: pip install '.[rl]' from the guandan checkout") from error

from ..bots.registry import AgentSpec, make_agent
from ..core.batch import ACTION_SPACE
from ..core.packed import canonical_words
from ..core.rng import derive_seed
from ..errors import GuandanError, IllegalMoveError, check_bool, check_choice, check_int, describe, is_int
from ..game.encoding import ROW_SIZE, STATE_SIZE, encode_actions
from ..game.rules import Ruleset
from .env import AGENTS, N_ACTIONS, GuandanEnv
from .vector import VecTables, check_seed

__all__ = ["GuandanGymEnv", "TablesVectorEnv", "MaskedDiscrete"]


class MaskedDiscrete(spaces.Discrete):
    """A ``Discrete`` space whose ``sample()`` draws among the actions a mask allows now (the
    mask given by a callable; ``sample(mask=...)`` takes the mask given instead).

    ``seeded``, if given, is the mask of the first decision of the episode of a seed: after
    ``seed(s)``, the next ``sample()`` draws for the decision ``reset(seed=s)`` starts with
    (a seeded action for a seeded episode, as Gymnasium's environment checker draws one
    before it resets).

    >>> space = MaskedDiscrete(4, lambda: np.array([0, 1, 0, 1], dtype=np.int8), seed=0)
    >>> sorted({int(space.sample()) for _ in range(20)})
    [1, 3]
    """

    def __init__(self, n: int, legal: Callable[[], np.ndarray | None], seed: int | None = None,
                 seeded: Callable[[int], np.ndarray] | None = None) -> None:  # fmt: skip
        super().__init__(n, seed=seed)
        self._legal = legal
        self._seeded = seeded
        self._for_seed: int | None = None

    def seed(self, seed: Any = None) -> Any:
        self._for_seed = int(seed) if is_int(seed) else None
        return super().seed(self._for_seed if self._for_seed is not None else seed)

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        if mask is None and probability is None:
            legal = self._legal()
            if self._for_seed is not None and self._seeded is not None:
                legal = self._seeded(self._for_seed)
            self._for_seed = None
            if legal is not None and legal.any():
                mask = legal.astype(np.int8)
        return super().sample(mask=mask, probability=probability)


def _opponent_specs(opponents: AgentSpec | Sequence[AgentSpec], seat: int) -> list[AgentSpec | None]:
    if isinstance(opponents, str) or not isinstance(opponents, Sequence):
        return [None if s == seat else opponents for s in range(4)]
    specs = list(opponents)
    if len(specs) != 3:
        raise GuandanError(f"opponents are one spec or three (the other seats in order), got {describe(opponents)}")
    others = iter(specs)
    return [None if s == seat else next(others) for s in range(4)]


class GuandanGymEnv(gymnasium.Env[dict[str, np.ndarray], np.int64]):
    """One seat (``seat``) against ``opponents`` (see the module's description); the other
    arguments are the PettingZoo environment's (:class:`~guandan.rl.env.GuandanEnv`). With
    ``legal_rows``, each info of a decision holds ``"legal_rows"`` (``float32 (k, 567)``) and
    ``"legal_index"`` (``int64 (k,)``): the learner's legal actions as the ``onnx`` agent's
    network reads them (:meth:`guandan.rl.env.GuandanEnv.legal_rows`).

    >>> env = GuandanGymEnv(seat=2, opponents=["random", "greedy", "random"])
    >>> _ = env.reset(seed=1); env.unwrapped.inner.agent_selection
    'seat_2'
    """

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(
        self,
        seat: int = 0,
        opponents: AgentSpec | Sequence[AgentSpec] = "greedy",
        *,
        kind: Literal["deal", "match"] = "deal",
        level: int = 2,
        ruleset: Ruleset | str | None = None,
        reward: Literal["levels", "wins"] = "levels",
        max_deals: int | None = None,
        render_mode: str | None = None,
        legal_rows: bool = False,
    ) -> None:
        self.with_rows = check_bool("legal_rows", legal_rows)
        self.seat = check_int("seat", seat, 0, 3, expected="a seat 0..3")
        self.specs = _opponent_specs(opponents, seat)
        for spec in self.specs:
            if spec is not None:
                make_agent(spec, seed=0)  # a bad spec raises now, not at the first reset
        self.inner = GuandanEnv(kind, level=level, ruleset=ruleset, reward=reward, max_deals=max_deals,
                                render_mode=None)  # fmt: skip
        self.render_mode = render_mode
        self.observation_space = self.inner.observation_space(AGENTS[seat])
        self.action_space = MaskedDiscrete(N_ACTIONS, self._legal, seeded=self._first_mask)
        self._agents: list[Any] = []
        self._ready = False

    def _legal(self) -> np.ndarray | None:
        return self.inner._mask(self.seat) if self._ready and not self.inner._done() else None

    def _first_mask(self, seed: int) -> np.ndarray:
        twin = GuandanGymEnv(self.seat, [spec for spec in self.specs if spec is not None], kind=self.inner.kind,
                             level=self.inner.level, ruleset=self.inner.ruleset, reward=self.inner.reward_kind,
                             max_deals=self.inner.max_deals)  # fmt: skip
        obs, _ = twin.reset(seed=seed)
        mask: np.ndarray = obs["action_mask"]
        return mask

    def _obs(self) -> dict[str, np.ndarray]:
        obs = self.inner.observe(AGENTS[self.seat])
        return {"observation": obs["observation"], "action_mask": obs["action_mask"].copy()}

    def _others(self) -> float:
        """The opponents play until the learner's turn or the end; the learner's reward meanwhile."""
        inner = self.inner
        total = 0.0
        state = inner.state
        assert state is not None
        while not inner._done() and state.turn != self.seat:
            seat = state.turn
            assert seat is not None
            action = self._agents[seat].act(state.observation(seat))
            inner._apply(seat, action)
            total += inner.rewards[AGENTS[self.seat]]
        return total

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """A new deal (or match) from ``seed``; the opponents act up to the learner's turn."""
        seed = check_seed(seed, optional=True)
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**63)) if seed is None else seed
        self.inner.reset(seed=game_seed)
        self._agents = [None if spec is None else make_agent(spec, seed=derive_seed(game_seed, s))
                        for s, spec in enumerate(self.specs)]  # fmt: skip
        self._ready = True
        self._pending = self._others()
        return self._obs(), self._rows_info({})

    def _rows_info(self, info: dict[str, Any]) -> dict[str, Any]:
        if self.with_rows and not self.inner._done():
            info["legal_rows"], info["legal_index"] = self.inner.legal_rows(AGENTS[self.seat])
        return info

    def step(self, action: int | np.integer | np.ndarray) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Play the learner's action, then the opponents' up to its next turn."""
        inner = self.inner
        if not self._ready:
            raise GuandanError("reset the environment first")
        if inner._done():
            raise IllegalMoveError("the game is over: reset the environment", reason="game_over")
        agent = AGENTS[self.seat]
        a = inner._legal_index(self.seat, action)
        inner._apply_index(self.seat, a)
        reward = self._pending + inner.rewards[agent] + self._others()
        self._pending = 0.0
        terminated = all(inner.terminations.values())
        truncated = all(inner.truncations.values()) and not terminated
        info = dict(inner.infos[agent]) if terminated or truncated else {}
        return self._obs(), float(reward), terminated, truncated, self._rows_info(info)

    def privileged_seed(self) -> int | None:
        """The seed of the game being played (:meth:`guandan.rl.env.GuandanEnv.privileged_seed`:
        it deals every hand, so it is never in an observation or info).

        >>> env = GuandanGymEnv(); _ = env.reset(seed=6); env.privileged_seed()
        6
        """
        return self.inner.privileged_seed()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now, ``bool (2267,)`` (the method maskable learners ask for).

        >>> env = GuandanGymEnv(); _ = env.reset(seed=2); bool(env.action_masks().any())
        True
        """
        legal = self._legal()
        return np.zeros(N_ACTIONS, dtype=bool) if legal is None else legal.astype(bool)

    def render(self) -> str | None:
        """The table as the learner's seat sees it (text)."""
        if self.render_mode is None:
            return None
        text = self.inner._text()
        if self.render_mode == "human":
            print(text)
            return None
        return text


class TablesVectorEnv(VectorEnv[dict[str, np.ndarray], np.ndarray, np.ndarray]):
    """``num_envs`` vectorized tables as a Gymnasium ``VectorEnv`` (see the module's
    description): the learner plays ``seat`` at every table, its partner and the opponents are
    built-in policies (``partner``, ``opponents``: ``"random"`` or ``"greedy"``; the partner
    plays as the opponents unless given). Observations ``{"observation": float32 (n, 513),
    "action_mask": int8 (n, 2213)}``, every one the learner's seat's: **one trajectory is one
    seat** (for both seats of a side in one learner, step :class:`~guandan.rl.vector.VecTables`
    with both seats the caller's: its ``seats`` say whose decision each row is). Rewards the
    learner's side's, at each deal's end.

    A finished deal is reset in the same step (Gymnasium's ``SAME_STEP`` autoreset): the
    observation returned is the next deal's first; ``infos["final_obs"]`` (an object array,
    ``None`` where no deal ended) holds the learner's terminal observation of the deal that
    ended (its state values as the deal ended, an all-zero mask) and ``infos["final_info"]``
    its info (``finish_order``), each with its ``_final_obs`` / ``_final_info`` mask, as
    Gymnasium's own vector environments give them.

    With ``legal_rows``, the infos of :meth:`reset` and :meth:`step` also hold, for every table,
    its legal actions as the ``onnx`` agent's network reads them, as
    :meth:`guandan.rl.env.GuandanEnv.legal_rows` gives them: ``infos["legal_rows"]`` (an object
    array, table ``i``'s ``float32 (k, 567)``: its 513 state values beside the card vector of
    the move each action plays, its canonical cards) and ``infos["legal_index"]`` (table ``i``'s
    ``int64 (k,)``: each row's action, the set bits of its mask ascending). A network over the
    rows plays ``index[argmax(q(rows))]`` here and, unchanged, as ``onnx:model=FILE``.

    >>> envs = TablesVectorEnv(3, opponents="random")
    >>> obs, infos = envs.reset(seed=0)
    >>> obs["action_mask"].shape, envs.single_action_space
    ((3, 2213), Discrete(2213))
    >>> obs, rewards, terminations, truncations, infos = envs.step(envs.action_space.sample())
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        num_envs: int,
        *,
        seat: int = 0,
        opponents: Literal["random", "greedy"] = "greedy",
        partner: Literal["random", "greedy"] | None = None,
        level: int | None = 2,
        ruleset: Ruleset | str | None = None,
        objective: Literal["levels", "wins"] = "levels",
        seed: int = 0,
        legal_rows: bool = False,
    ) -> None:
        self.with_rows = check_bool("legal_rows", legal_rows)
        seat = check_int("seat", seat, 0, 3, expected="the learner's seat 0..3 (one trajectory is one seat)")
        check_choice("opponents", opponents, ("random", "greedy"), "'random' or 'greedy' (played in the core)")
        if partner is None:
            partner = opponents
        check_choice("partner", partner, ("random", "greedy"), "'random', 'greedy' or None (as the opponents)")
        policies = tuple("external" if s == seat else partner if s == seat ^ 2 else opponents for s in range(4))
        self.tables = VecTables(num_envs, seed=check_seed(seed), observe="state+mask", level=level,
                                policies=policies, ruleset=ruleset, objective=objective)  # fmt: skip
        self.num_envs = num_envs
        self.seat = seat
        box = spaces.Box(low=-1.0, high=2.0, shape=(STATE_SIZE,), dtype=np.float32)
        mask = spaces.Box(low=0, high=1, shape=(len(ACTION_SPACE),), dtype=np.int8)
        self.single_observation_space = spaces.Dict({"observation": box, "action_mask": mask})
        self.single_action_space = MaskedDiscrete(len(ACTION_SPACE), lambda: None)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = _MaskedMultiDiscrete(self)

    def _obs(self) -> dict[str, np.ndarray]:
        t = self.tables
        assert t.states is not None and t.mask is not None
        return {"observation": t.states.copy(), "action_mask": t.mask.view(np.int8).copy()}

    def legal_rows(self) -> tuple[np.ndarray, np.ndarray]:
        """Every table's legal actions now as the ``onnx`` agent's network reads them: ``(rows,
        index)``, object arrays of ``num_envs`` (see the class's description).

        >>> envs = TablesVectorEnv(2); _ = envs.reset(seed=1)
        >>> rows, index = envs.legal_rows()
        >>> rows[0].shape == (len(index[0]), 567), bool((index[1] == np.flatnonzero(envs.tables.mask[1])).all())
        (True, True)
        """
        t = self.tables
        assert t.states is not None and t.mask is not None
        rows = np.empty(self.num_envs, dtype=object)
        index = np.empty(self.num_envs, dtype=object)
        for i in range(self.num_envs):
            hands, level, turn, _, beat = t.table(i).state[:5]
            legal = np.flatnonzero(t.mask[i]).astype(np.int64)
            words = np.array([canonical_words(hands[turn], level, beat, int(ACTION_SPACE[a])) for a in legal],
                             dtype=np.uint64).reshape(-1, 2)  # fmt: skip
            r = np.empty((len(legal), ROW_SIZE), dtype=np.float32)
            r[:, :STATE_SIZE] = t.states[i]
            r[:, STATE_SIZE:] = encode_actions(words)
            rows[i], index[i] = r, legal
        return rows, index

    def _rows_info(self, infos: dict[str, Any]) -> dict[str, Any]:
        if self.with_rows:
            infos["legal_rows"], infos["legal_index"] = self.legal_rows()
            infos["_legal_rows"] = infos["_legal_index"] = np.ones(self.num_envs, dtype=bool)
        return infos

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Start every table again (from ``seed``, else the tables' own)."""
        self.tables.reset(check_seed(seed, optional=True))
        return self._obs(), self._rows_info({"seat": self.tables.seats.copy()})

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action a table (indices of the action space), the built-in seats after."""
        rewards, ended, finish = self.tables.step(np.asarray(actions))
        terminations = ended > 0
        infos: dict[str, Any] = {"seat": self.tables.seats.copy(), "finish_order": finish.copy(),
                                 "deals_ended": ended.copy()}  # fmt: skip
        if terminations.any():
            done = np.flatnonzero(terminations)
            states = self.tables.final_states(done, self.seat)
            final_obs = np.full(self.num_envs, None, dtype=object)
            for j, i in enumerate(done):
                final_obs[i] = {"observation": states[j], "action_mask": np.zeros(len(ACTION_SPACE), dtype=np.int8)}
            order = np.full((self.num_envs, 4), -1, dtype=np.int8)
            order[done] = finish[done]
            infos["final_obs"], infos["_final_obs"] = final_obs, terminations.copy()
            infos["final_info"] = {"finish_order": order, "_finish_order": terminations.copy()}
            infos["_final_info"] = terminations.copy()
        self._rows_info(infos)
        return (
            self._obs(),
            rewards[:, self.seat].copy(),
            terminations,
            np.zeros(self.num_envs, dtype=bool),
            infos,
        )


class _MaskedMultiDiscrete(spaces.MultiDiscrete):
    """The batched action space: ``sample()`` draws each table's action among its legal ones."""

    def __init__(self, envs: TablesVectorEnv) -> None:
        super().__init__(np.full(envs.num_envs, len(ACTION_SPACE)))
        self._envs = envs

    def sample(self, mask: Any = None, probability: Any = None) -> np.ndarray:
        if mask is None and probability is None:
            seed = int(self.np_random.integers(0, 2**63))
            return self._envs.tables.random_actions(seed)
        out: np.ndarray = super().sample(mask=mask, probability=probability)
        return out
