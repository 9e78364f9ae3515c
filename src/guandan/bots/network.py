"""A network as an agent: an ONNX Q-network over the 567-value rows (``onnx:model=PATH``).

The network scores every legal card-level action of a decision in one call: input ``(n, 567)``
float32, one row per legal action (:func:`guandan.game.encoding.encode_rows`: the seat's state
and the action's card vector), output ``(n, 1)`` or ``(n,)`` Q-values (the input and output
named anything); the agent plays the action of the highest (the first of equals). This is
the form of the published Guandan networks of the field (DanZero and its re-trainings, whose
output is ``(n,)``) and of the networks :mod:`guandan.rl.train` exports, so any of them plays
wherever an agent spec is taken: ``guandan simulate --agents
onnx:model=bot.onnx,greedy``, ``guandan play``, ``guandan connect``.

Tribute and return are not scored by the network; the agent plays the fixed rule the
published agents use: the first allowed tribute card, the lowest returnable card (in the
elevated order of the deal's level, the lowest face on ties).

The project ships no published model: their weights carry licences of their own (non-commercial
ones), so users bring their file, or train one (``docs/training.md``). It ships its own
network, taught by the search bot's values (:mod:`guandan.rl.expert`): the ``net`` agent
(:class:`NetAgent`) plays it, ``net:model=PATH`` another file. ``onnxruntime`` is
imported when the first agent is made (the ``onnx`` extra: ``pip install ".[onnx]"`` from the checkout).

>>> import os, tempfile
>>> from guandan.game.deal import Deal
>>> from guandan.rl.qnet import QNetwork
>>> path = os.path.join(tempfile.mkdtemp(), "tiny.onnx")
>>> QNetwork(hidden=(8,), seed=0).to_onnx(path)
>>> deal = Deal.new(seed=1)
>>> agent = OnnxAgent(model=path)
>>> agent.act(deal.observation(deal.turn)) in list(deal.legal_moves())
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..core import search as native_search
from ..core.cards import Cards, card_rank
from ..core.movegen import canonical_move, flush_keeping_move, pack_move, straight_flushes
from ..core.moves import Move
from ..core.order import elevated_order
from ..core.packed import InfoSet, bits_of_cards
from ..errors import GuandanError, IllegalMoveError, ModelError, check_int, describe
from ..game.encoding import ROW_SIZE, encode_actions, encode_rows, encode_state
from ..game.history import Phase
from ..game.observation import Observation
from .playout import public_state

__all__ = ["OnnxAgent", "NetAgent", "SHIPPED_MODEL", "SEARCH_MODEL", "load_session", "place_prior", "search_candidates",
           "value_scale", "model_candidates"]  # fmt: skip

#: The metadata keys of a model's place prior (see :func:`place_prior`).
PLACE_BIAS, TEMPERATURE = "guandan.place_bias", "guandan.temperature"
#: The metadata key of the levels a model's score of 1 stands for (see :func:`value_scale`).
VALUE_SCALE = "guandan.value_scale"
#: The metadata key of the search's candidates a model was trained to choose among (see
#: :func:`model_candidates`).
CANDIDATES = "guandan.candidates"

_NO_EVENTS = np.zeros((0, 3), dtype=np.uint64)
_DECK = bits_of_cards(Cards.deck())

#: The network the package ships (the ``net`` agent's): :data:`SEARCH_MODEL` gone on by deep
#: Monte Carlo self-play among the search's candidates (``guandan train --init --candidates``;
#: the commands: ``docs/training.md``).
SHIPPED_MODEL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "models", "net.onnx")
#: The network taught ``mc``'s searched values by :mod:`guandan.rl.expert`, before the
#: self-play: ``mc-net``'s prior by default (its values are the search's own; the self-play's
#: served the search worse).
SEARCH_MODEL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "models", "net-search.onnx")


def load_session(model: str, threads: int = 1) -> Any:
    """An onnxruntime session of a Q-network file, its input and output checked: one float
    input of shape ``(n, 567)`` and one float output of shape ``(n, 1)`` or ``(n,)`` (``n``
    free; any names). Raises
    :class:`~guandan.ModelError` naming what is wrong.

    >>> load_session("/no/such/model.onnx")
    Traceback (most recent call last):
    ...
    guandan.errors.ModelError: no model file at '/no/such/model.onnx'
    """
    if not isinstance(model, (str, os.PathLike)):
        raise ModelError(f"model is the path of an ONNX file, got {describe(model)}")
    if not os.path.isfile(model):
        raise ModelError(f"no model file at {str(model)!r}")
    check_int("threads", threads, 1)
    try:
        import onnxruntime as ort
    except ImportError:
        raise ModelError(
            "the onnx agent needs onnxruntime: pip install '.[onnx]' from the guandan checkout"
            " (or pip install onnxruntime)"
        ) from None
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    try:
        session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
    except Exception as error:  # onnxruntime raises its own exception types for unreadable files
        raise ModelError(f"{str(model)!r} is not a model onnxruntime can load: {error}") from None
    inputs, outputs = session.get_inputs(), session.get_outputs()
    where = f"model {os.path.basename(str(model))!r}"
    if len(inputs) != 1:
        raise ModelError(f"{where} takes {len(inputs)} inputs; a Q-network over the rows takes one, (n, {ROW_SIZE})")
    shape = inputs[0].shape
    if len(shape) != 2 or shape[1] != ROW_SIZE:
        raise ModelError(
            f"{where} has input {inputs[0].name!r} of shape {_shape(shape)}; the agent feeds (n, {ROW_SIZE}) "
            f"float32 rows (513 state values + 54 action values)"
        )
    if isinstance(shape[0], int) and shape[0] != -1:
        raise ModelError(f"{where} has a fixed batch of {shape[0]} rows; a decision has any number (n, {ROW_SIZE})")
    if inputs[0].type != "tensor(float)":
        raise ModelError(f"{where} takes {inputs[0].type}; the rows are float32 (tensor(float))")
    if len(outputs) != 1 or not _q_shape(outputs[0].shape):
        out_shape = ", ".join(_shape(o.shape) for o in outputs) if outputs else "none"
        raise ModelError(f"{where} has output of shape {out_shape}; a Q-network gives one output, (n, 1) or (n,)")
    if outputs[0].type != "tensor(float)":
        raise ModelError(f"{where} gives {outputs[0].type}; a Q-network gives float32 values (tensor(float))")
    return session


def search_candidates(observation: Observation, limit: int = 32) -> list[Move]:
    """The moves the search bot ``mc`` weighs at a decision in play: at most ``limit`` rank-level
    moves in the smart policy's order of preference (its own choice first, the pass when
    responding and the smallest bomb always among them), each with the cards ``mc`` would
    spend (those that keep the hand's straight flushes, else canonically). The information
    set is the seat's hand and the card counts alone (what sampling the hidden hands needs
    besides is left out: twenty times faster), which gives ``mc``'s list in all but about 3
    decisions in 1,000 (measured on 3,419 decisions of greedy play).

    >>> from guandan.game.deal import Deal
    >>> deal = Deal.new(seed=1)
    >>> obs = deal.observation(deal.turn)
    >>> moves = search_candidates(obs, 8)
    >>> 1 <= len(moves) <= 8, all(m in deal.legal_moves() for m in moves)
    (True, True)
    """
    me = observation.seat
    hand, level = observation.hand, observation.level
    need = tuple(0 if s == me else observation.card_counts[s] for s in range(4))
    info = InfoSet(me, int(level), observation.packed_hand, _DECK - observation.packed_hand, (0, 0, 0, 0),
                   (0, 0, 0, 0), need, _NO_EVENTS)  # fmt: skip
    state = public_state(int(level), observation.seat, observation.to_beat, observation.history,
                         observation.finish_order)  # fmt: skip
    words = native_search.search_candidates(info, state, limit)
    spend = flush_keeping_move if straight_flushes(hand, level) else canonical_move
    return [spend(int(w), hand, level) for w in words]


def place_prior(session: Any, model: str = "model") -> tuple[float, np.ndarray] | None:
    """The place prior a model file carries, or ``None``: its temperature and the bias added
    to its scores of the search's candidates by their place in the smart policy's order
    (:func:`search_candidates`), the metadata ``guandan.temperature`` and
    ``guandan.place_bias`` (a JSON list, one number a place; places beyond it take the last) that
    :mod:`guandan.rl.distill` writes when it learns one. The agent then plays the candidate
    of the highest ``q / temperature + bias[place]`` (the policy it was trained as). Raises
    :class:`~guandan.ModelError` if the metadata is there but malformed.

    >>> import os, tempfile
    >>> from guandan.rl.qnet import QNetwork
    >>> path = os.path.join(tempfile.mkdtemp(), "tiny.onnx"); QNetwork(hidden=(4,), seed=1).to_onnx(path)
    >>> place_prior(load_session(path)) is None
    True
    """
    meta = session.get_modelmeta().custom_metadata_map
    if PLACE_BIAS not in meta and TEMPERATURE not in meta:
        return None
    try:
        temperature = float(json.loads(meta[TEMPERATURE]))
        bias = np.asarray(json.loads(meta[PLACE_BIAS]), dtype=np.float64)
        well_formed = bias.ndim == 1 and len(bias) > 0 and bool(np.isfinite(bias).all())
    except (KeyError, ValueError, TypeError):
        well_formed = False
    if not well_formed or not (np.isfinite(temperature) and temperature > 0):
        raise ModelError(
            f"model {os.path.basename(model)!r} has a malformed place prior: {TEMPERATURE} is a number > 0 and"
            f" {PLACE_BIAS} a JSON list of finite numbers, got {meta.get(TEMPERATURE)!r} and"
            f" {meta.get(PLACE_BIAS, '')[:60]!r}"
        )
    return temperature, bias


def value_scale(session: Any, model: str = "model") -> float:
    """The levels a model's score of 1 stands for: the metadata ``guandan.value_scale`` that
    :mod:`guandan.rl.distill` writes (its networks score a third of the searched levels: 3), or
    1 without it (a network trained on the levels themselves, as :mod:`guandan.rl.train`'s
    are). ``mc-net`` multiplies the scores by it to weigh them against the search's means.
    Raises :class:`~guandan.ModelError` if the metadata is there but not a number > 0.

    >>> import os, tempfile
    >>> from guandan.rl.qnet import QNetwork
    >>> path = os.path.join(tempfile.mkdtemp(), "tiny.onnx"); QNetwork(hidden=(4,), seed=1).to_onnx(path)
    >>> value_scale(load_session(path))
    1.0
    """
    meta = session.get_modelmeta().custom_metadata_map
    if VALUE_SCALE not in meta:
        return 1.0
    try:
        scale = float(json.loads(meta[VALUE_SCALE]))
    except (ValueError, TypeError):
        scale = float("nan")
    if not (np.isfinite(scale) and scale > 0):
        raise ModelError(
            f"model {os.path.basename(model)!r} has a malformed {VALUE_SCALE}: a number > 0, "
            f"got {meta[VALUE_SCALE][:60]!r}"
        )
    return scale


def model_candidates(session: Any, model: str = "model") -> int | None:
    """How many of the search's candidates a model was trained to choose among (the metadata
    ``guandan.candidates``, 1..64, that ``guandan train --candidates`` and
    :mod:`guandan.rl.distill` write), or ``None`` without it: the agents then score that many
    unless told otherwise (a network that saw values only for the candidates plays far worse
    over every legal action). Raises :class:`~guandan.ModelError` if the metadata is there but
    not an int 1..64.

    >>> import os, tempfile
    >>> from guandan.rl.qnet import QNetwork
    >>> path = os.path.join(tempfile.mkdtemp(), "tiny.onnx"); QNetwork(hidden=(4,), seed=1).to_onnx(path)
    >>> model_candidates(load_session(path)) is None, model_candidates(load_session(SHIPPED_MODEL))
    (True, 32)
    """
    meta = session.get_modelmeta().custom_metadata_map
    if CANDIDATES not in meta:
        return None
    try:
        count = json.loads(meta[CANDIDATES])
    except ValueError:
        count = None
    if type(count) is not int or not 1 <= count <= 64:
        raise ModelError(
            f"model {os.path.basename(model)!r} has a malformed {CANDIDATES}: an int 1..64, "
            f"got {meta[CANDIDATES][:60]!r}"
        )
    return count


def _q_shape(shape: Any) -> bool:
    """Whether a declared output shape is a Q-network's: ``(n, 1)`` or ``(n,)``, ``n`` free."""
    if not isinstance(shape, (list, tuple)) or len(shape) not in (1, 2):
        return False
    if isinstance(shape[0], int) and shape[0] != -1:
        return False
    return len(shape) == 1 or shape[1] == 1


def _shape(shape: Any) -> str:
    dims = [str(d) if d is not None else "?" for d in shape]
    return "(" + ", ".join(dims) + ("," if len(dims) == 1 else "") + ")"


class OnnxAgent:
    """Plays an ONNX Q-network over the 567-value rows (see the module's description).

    ``model``: the ONNX file; ``threads``: onnxruntime's threads (1 by default: simulations
    run one process a core); ``candidates``: 0 scores every legal action, as the published
    agents do; above 0, only the moves the search bot weighs (:func:`search_candidates`, at
    most that many), the ones a network taught by the search (:mod:`guandan.rl.expert`) has
    seen valued, and with a model carrying a place prior (:func:`place_prior`) the prior is
    added to the scores. By default (``None``) the model's own (:func:`model_candidates`), or
    0 for a model that does not say. ``seed`` is accepted and unused (the agent is
    deterministic).

    >>> OnnxAgent(SEARCH_MODEL).candidates, OnnxAgent(SEARCH_MODEL, candidates=0).candidates
    (32, 0)
    """

    name = "onnx"
    #: The candidates scored when neither the agent's options nor the model say.
    default_candidates = 0

    def __init__(self, model: str, seed: int = 0, threads: int = 1, candidates: int | None = None) -> None:
        candidates = check_int(
            "candidates", candidates, 0, 64, optional=True, expected="an int 0..64 (0: every legal action)"
        )
        self.model = str(model)
        self.threads = threads
        self._session = load_session(model, threads)
        self._input = self._session.get_inputs()[0].name
        self.place_prior = place_prior(self._session, self.model)
        self.value_scale = value_scale(self._session, self.model)
        trained = model_candidates(self._session, self.model)
        self.candidates: int = (
            candidates if candidates is not None else trained if trained is not None else self.default_candidates
        )

    def __repr__(self) -> str:
        more = f", candidates={self.candidates}" if self.candidates else ""
        return f"OnnxAgent(model={self.model!r}{more})"

    def __getstate__(self) -> dict[str, Any]:  # a session does not pickle: remade in the worker
        return {"model": self.model, "threads": self.threads, "candidates": self.candidates}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["model"], threads=state["threads"], candidates=state.get("candidates"))  # type: ignore[misc]

    def __deepcopy__(self, memo: dict[int, Any]) -> OnnxAgent:
        return type(self)(self.model, threads=self.threads, candidates=self.candidates)

    def q_values(self, observation: Observation) -> np.ndarray:
        """The network's Q-value of each legal action of a play decision: ``float32 (n,)``.

        >>> import os, tempfile
        >>> from guandan.game.deal import Deal
        >>> from guandan.rl.qnet import QNetwork
        >>> path = os.path.join(tempfile.mkdtemp(), "tiny.onnx"); QNetwork(hidden=(4,), seed=1).to_onnx(path)
        >>> deal = Deal.new(seed=2); obs = deal.observation(deal.turn)
        >>> OnnxAgent(path).q_values(obs).shape == (len(obs.legal_actions),)
        True
        """
        return self.values(encode_rows(observation))

    def values(self, rows: np.ndarray) -> np.ndarray:
        """The network's value of each 567-value row (``float32 (n, 567)``): ``float32 (n,)``.

        >>> import os, tempfile
        >>> from guandan.rl.qnet import QNetwork
        >>> path = os.path.join(tempfile.mkdtemp(), "tiny.onnx"); QNetwork(hidden=(4,), seed=1).to_onnx(path)
        >>> OnnxAgent(path).values(np.zeros((3, 567), dtype=np.float32)).shape
        (3,)
        """
        if not isinstance(rows, np.ndarray) or rows.ndim != 2 or rows.shape[1] != ROW_SIZE:
            raise GuandanError(f"rows are an array (n, {ROW_SIZE}), got {describe(rows)}")
        out = self._session.run(None, {self._input: np.ascontiguousarray(rows, dtype=np.float32)})[0]
        if not isinstance(out, np.ndarray) or out.shape not in ((len(rows), 1), (len(rows),)):
            raise ModelError(
                f"model {os.path.basename(self.model)!r} gave {describe(out)} for {len(rows)} rows; "
                f"a Q-network gives ({len(rows)}, 1) or ({len(rows)},)"
            )
        return out.reshape(len(rows))

    def choose(self, observation: Observation) -> int:
        """The index of the chosen move in ``observation.legal_actions`` (play phase; every
        legal action scored)."""
        return int(np.argmax(self.q_values(observation)))

    def choose_candidate(self, observation: Observation) -> Move:
        """The best-scored of the search's candidates (:func:`search_candidates`, at most
        ``candidates``; play phase).

        >>> import os, tempfile
        >>> from guandan.game.deal import Deal
        >>> from guandan.rl.qnet import QNetwork
        >>> path = os.path.join(tempfile.mkdtemp(), "tiny.onnx"); QNetwork(hidden=(4,), seed=1).to_onnx(path)
        >>> deal = Deal.new(seed=2); obs = deal.observation(deal.turn)
        >>> OnnxAgent(path, candidates=8).choose_candidate(obs) in search_candidates(obs, 8)
        True
        """
        moves = search_candidates(observation, self.candidates or 32)
        if len(moves) == 1:
            return moves[0]
        scores = self.move_values(observation, moves)
        if self.place_prior is not None:
            temperature, bias = self.place_prior
            places = np.minimum(np.arange(len(moves)), len(bias) - 1)  # beyond the list: the last place's
            scores = scores / temperature + bias[places]
        return moves[int(np.argmax(scores))]

    def move_values(self, observation: Observation, moves: Sequence[Move]) -> np.ndarray:
        """The network's value of each of ``moves``, legal actions of the observation (their
        rows: the state, then each move's cards; the legal moves are compared packed, never
        decoded): ``float32 (len(moves),)``.

        >>> import os, tempfile
        >>> from guandan.game.deal import Deal
        >>> from guandan.rl.qnet import QNetwork
        >>> path = os.path.join(tempfile.mkdtemp(), "tiny.onnx"); QNetwork(hidden=(4,), seed=1).to_onnx(path)
        >>> deal = Deal.new(seed=2); obs = deal.observation(deal.turn); agent = OnnxAgent(path)
        >>> bool(np.allclose(agent.move_values(obs, [obs.legal_actions[3]]), agent.q_values(obs)[3]))
        True
        """
        packed = np.array([pack_move(m) for m in moves], dtype=np.uint64).reshape(len(moves), 2)
        legal = np.asarray(observation.legal_actions.array, dtype=np.uint64)
        for move, word in zip(moves, packed, strict=True):
            if not (legal == word).all(axis=1).any():
                raise GuandanError(f"{move} is not a legal action of the observation")
        state = encode_state(observation)
        rows = np.concatenate([np.broadcast_to(state, (len(moves), state.shape[0])), encode_actions(packed)], axis=1)
        return self.values(np.ascontiguousarray(rows, dtype=np.float32))

    def act(self, observation: Observation) -> Move | int:
        """The action: the best-scored move in play, the fixed rule in tribute and return."""
        actions = observation.legal_actions
        if not len(actions):
            raise IllegalMoveError(f"seat {observation.seat} has no legal action: it is not its turn")
        if observation.phase == Phase.TRIBUTE:
            return int(actions[0])
        if observation.phase == Phase.RETURN:
            level = observation.level
            return int(min(actions, key=lambda c: (elevated_order(card_rank(c), level), c)))
        if self.candidates:
            return self.choose_candidate(observation)
        move: Move = actions[self.choose(observation)]
        return move


class NetAgent(OnnxAgent):
    """The network the package ships, as an agent (``net``; ``net:model=PATH`` plays another
    file the same way): an :class:`OnnxAgent` of :data:`SHIPPED_MODEL` by default, scoring
    the search's 32 candidates, or as many as the model says it was trained among
    (``candidates=0``: every legal action).

    >>> from guandan.game.deal import Deal
    >>> deal = Deal.new(seed=1)
    >>> NetAgent().act(deal.observation(deal.turn)) in list(deal.legal_moves())
    True
    """

    name = "net"
    default_candidates = 32

    def __init__(
        self, model: str | None = None, seed: int = 0, threads: int = 1, candidates: int | None = None
    ) -> None:
        super().__init__(SHIPPED_MODEL if model is None else model, seed=seed, threads=threads, candidates=candidates)

    def __repr__(self) -> str:
        return "NetAgent()" if self.model == SHIPPED_MODEL else f"NetAgent(model={self.model!r})"
