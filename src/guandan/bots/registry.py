"""Agents by spec: how the command line, simulations and the terminal table make agents.

An agent is named by a *spec*, the same on every command line (``--agents``, ``--bots``)
and in :func:`guandan.bots.simulate.simulate`::

    SPEC    = TARGET [":" KEY "=" VALUE]...
    TARGET  = NAME                  a registered agent: random, greedy, mc, mc-basic, onnx, net (AGENTS)
            | MODULE ":" OBJECT     an import path: mybots.strong:SearchBot

``greedy``, ``mc:rollouts=8000:threads=2``, ``mybots.strong:SearchBot``,
``mybots.strong:SearchBot:depth=3:think_ms=50``. ``OBJECT`` is a class or a factory of
the module (dotted for an attribute of one: ``mybots:Bots.strong``); each ``KEY=VALUE``
is a keyword argument for it, the value read as an int (``3``), a float (``0.5``),
``true`` / ``false``, ``none``, or else text (quote it, ``'3'``, to keep digits as text).
Values hold no ``:`` nor ``,``.

Several seats: one spec for every seat, two — one per side, seats 0 and 2 then seats 1
and 3 — or four, seats 0..3; in one string they are separated by commas
(``mybots:Bot,greedy``), in Python given as a list.

In Python a seat may also be given an object (:data:`AgentSpec`): an agent *class or
factory* — any callable returning an agent, called ``factory(seed=…)`` when it has a
parameter named ``seed`` (or ``**kwargs``), else ``factory()``; bind options with
:func:`functools.partial` — or an agent *instance*, which is deep-copied each time an
agent is made from it (its state is copied, never shared; every copy starts from the
state it was given in). An agent is anything with a method ``act(observation)``
(:class:`guandan.bots.agents.Agent`).

The registry sits above every agent it names — the ones of :mod:`guandan.bots.agents` and the
search bot of :mod:`guandan.bots.search`, which builds on them — so neither imports it. The
one place a spec becomes a factory is :func:`agent_factory`; the one place specs become
one per seat is :func:`seat_specs`.

>>> make_agent("greedy"), make_agent("random", seed=3).name
(GreedyAgent(bomb_threshold=5), 'random')
>>> [a.name for a in make_agents("greedy,random")]
['greedy', 'random', 'greedy', 'random']
>>> make_agent("mc:rollouts=400:policy=random")
MonteCarloAgent(rollouts=400, think_ms=None, threads=1, policy='random', candidates=32)
"""

from __future__ import annotations

import copy
import functools
import importlib
import inspect
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias, cast

from ..core.rng import derive_seed
from ..errors import GuandanError, describe
from .agents import Agent, GreedyAgent, RandomAgent
from .guided import GuidedSearchAgent
from .network import NetAgent, OnnxAgent
from .search import BasicMonteCarloAgent, MonteCarloAgent

__all__ = [
    "AGENTS",
    "AgentFactory",
    "AgentSpec",
    "agent_factory",
    "agent_name",
    "parse_spec",
    "seat_specs",
    "make_agent",
    "make_agents",
]

#: Makes an agent from its seed (a keyword, ``seed=``, when it takes one).
AgentFactory: TypeAlias = Callable[..., Agent]

#: What a seat is given: a spec string, an agent class or factory, or an agent instance.
AgentSpec: TypeAlias = str | AgentFactory | Agent

#: The agents by name: a factory taking a seed (``mc``: :class:`guandan.bots.search.MonteCarloAgent`, the
#: search bot; ``mc-basic``: :class:`guandan.bots.search.BasicMonteCarloAgent`, the previous one;
#: ``onnx``: :class:`guandan.bots.network.OnnxAgent`, an ONNX Q-network, ``onnx:model=PATH``; ``net``:
#: :class:`guandan.bots.network.NetAgent`, the network the package ships; ``mc-net``:
#: :class:`guandan.bots.guided.GuidedSearchAgent`, the search with a network's values, ``mc-net:model=PATH``).
AGENTS: dict[str, AgentFactory] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "mc": MonteCarloAgent,
    "mc-basic": BasicMonteCarloAgent,
    "onnx": OnnxAgent,
    "mc-net": GuidedSearchAgent,
    "net": NetAgent,
}

_INT = re.compile(r"[+-]?\d+\Z")
_FLOAT = re.compile(r"[+-]?(\d+\.\d*|\.\d+|\d+(\.\d*)?[eE][+-]?\d+)\Z")
_KEY = re.compile(r"[A-Za-z_]\w*\Z")
_WORDS = {"true": True, "false": False, "none": None, "null": None}


def _value(text: str) -> Any:
    """An option's value: an int, a float, a bool, None, or the text (unquoted)."""
    if _INT.match(text):
        return int(text)
    if _FLOAT.match(text):
        return float(text)
    if text.lower() in _WORDS:
        return _WORDS[text.lower()]
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def _option_text(value: Any) -> str:
    """An option's value as a spec writes it (read back by :func:`parse_spec` as the same value)."""
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "none"}[value]
    if isinstance(value, str) and _value(value) != value:
        return f"'{value}'"
    return str(value)


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """A spec's target (a registered name, or ``module:object``) and its options.

    >>> parse_spec("mc:rollouts=8000:policy=random")
    ('mc', {'rollouts': 8000, 'policy': 'random'})
    >>> parse_spec("mybots.strong:SearchBot:depth=3:greedy=true:name='7'")
    ('mybots.strong:SearchBot', {'depth': 3, 'greedy': True, 'name': '7'})
    """
    if not isinstance(spec, str):
        raise GuandanError(f"an agent spec is a string, got {describe(spec)}")
    parts = [p.strip() for p in spec.strip().split(":")]
    target = parts[0]
    rest = parts[1:]
    if rest and "=" not in rest[0]:
        target = f"{target}:{rest.pop(0)}"
    options: dict[str, Any] = {}
    for part in rest:
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or not _KEY.match(key):
            raise GuandanError(f"agent {describe(spec)}: options are KEY=VALUE after ':', got {describe(part)}")
        if key in options:
            raise GuandanError(f"agent {describe(spec)}: option {key!r} given twice")
        options[key] = _value(value.strip())
    if not target or "," in target or any(not p for p in target.split(":")):
        raise GuandanError(
            f"bad agent spec {describe(spec)} (a name, or package.module:Class, then :KEY=VALUE options)"
        )
    return target, options


@dataclass(frozen=True)
class _Factory:
    """A factory with its options bound: ``factory(seed)`` makes the agent. Picklable when
    the target is (a class or function at the top level of an importable module)."""

    target: Callable[..., Any]
    options: tuple[tuple[str, Any], ...]
    takes_seed: bool
    name: str
    #: The target's configuration made from the options, once (a target with ``config_type``
    #: and ``from_config``, as :class:`~guandan.bots.search.MonteCarloAgent`); else ``None``.
    config: Any = None

    def __call__(self, seed: int = 0) -> Agent:
        kwargs = dict(self.options)
        if self.takes_seed:
            kwargs["seed"] = seed
        try:
            if self.config is not None:
                agent = cast(Any, self.target).from_config(self.config, seed=seed)
            else:
                agent = self.target(**kwargs)
        except GuandanError as error:  # an option's value refused: say whose
            raise error.in_context(self._where()) from None
        if not callable(getattr(agent, "act", None)):
            raise GuandanError(f"agent {self.name} made {describe(agent)}: not an agent (it has no act(observation))")
        result: Agent = agent
        return result

    def _where(self) -> str:
        options = ":".join(f"{k}={_option_text(v)}" for k, v in self.options)
        return f"agent {self.name}{':' + options if options else ''}"


def _parameters(target: Callable[..., Any]) -> tuple[set[str] | None, bool]:
    """The keyword parameters a callable takes (``None``: any, it has ``**kwargs``) and
    whether it takes a ``seed``."""
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError):  # a builtin without a signature: assume it takes a seed
        return None, True
    names: set[str] = set()
    for p in signature.parameters.values():
        if p.kind == p.VAR_KEYWORD:
            return None, True
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
            names.add(p.name)
    return names, "seed" in names


def _bind(target: Callable[..., Any], options: dict[str, Any], name: str) -> _Factory:
    """``target`` with ``options`` bound, each checked to be one of its parameters."""
    accepted, takes_seed = _parameters(target)
    if "seed" in options:
        raise GuandanError(f"agent {name}: the seed is not an option: each seat is seeded from the run's seed")
    removed: dict[str, str] = getattr(target, "removed_options", {})
    for key in options:
        if key in removed:
            raise GuandanError(
                f"agent {name}: option {key!r} was removed after version {removed[key]} (it measured no gain; "
                "benchmarks/README.md keeps its measurements)"
            )
    if accepted is not None:
        unknown = sorted(set(options) - accepted)
        if unknown:
            known = ", ".join(sorted(accepted - {"seed"})) or "none"
            raise GuandanError(f"agent {name} has no option {unknown[0]!r} (its options: {known})")
    factory = _Factory(target, tuple(options.items()), takes_seed, name)
    config_type = getattr(target, "config_type", None)
    if config_type is not None and callable(getattr(target, "from_config", None)):
        try:  # the options checked once, here: every agent of the spec shares the configuration
            config = config_type(**options)
        except GuandanError as error:
            raise error.in_context(factory._where()) from None
        factory = _Factory(target, factory.options, takes_seed, name, config)
    return factory


def _import(target: str, spec: str) -> Callable[..., Any]:
    module_name, _, attribute = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name and not module_name.startswith(f"{error.name}."):
            raise  # a module the bot's own module imports is missing: the bot's own error
        raise GuandanError(
            f"agent {describe(spec)}: no module named {error.name!r} (the module must be importable: "
            "installed, on PYTHONPATH, or in the current directory)"
        ) from None
    obj: Any = module
    for part in attribute.split("."):
        if not hasattr(obj, part):
            raise GuandanError(f"agent {describe(spec)}: {module_name} has no {attribute!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise GuandanError(f"agent {describe(spec)}: {target} is {describe(obj)}, not a class or factory")
    result: Callable[..., Any] = obj
    return result


@functools.lru_cache(maxsize=256)
def _factory_of_spec(spec: str) -> _Factory:
    target, options = parse_spec(spec)
    if ":" in target:
        head, _, attribute = target.partition(":")
        if head.lower() in AGENTS:
            raise GuandanError(f"agent {describe(spec)}: options are KEY=VALUE after ':', got {describe(attribute)}")
        return _bind(_import(target, spec), options, target)
    factory = AGENTS.get(target.lower())
    if factory is None:
        raise GuandanError(
            f"unknown agent {describe(target)} (one of {', '.join(AGENTS)}, or an import path package.module:Class)"
        )
    return _bind(factory, options, target.lower())


def _is_instance(spec: object) -> bool:
    """An agent instance (not a class): it has a method ``act``."""
    return not isinstance(spec, type) and callable(getattr(spec, "act", None))


def agent_factory(spec: str | AgentFactory) -> AgentFactory:
    """The factory a spec names (a registered name in any case, or ``module:Object``, with
    options) or the given class or factory: ``agent_factory(spec)(seed)`` makes the agent.

    >>> agent_factory(" Greedy ")(7)
    GreedyAgent(bomb_threshold=5)
    >>> agent_factory("greedy:bomb_threshold=3")(7)
    GreedyAgent(bomb_threshold=3)
    >>> agent_factory("guandan.bots.agents:RandomAgent")(1).name
    'random'
    """
    if isinstance(spec, str):
        return _factory_of_spec(spec.strip())
    if callable(spec) and not _is_instance(spec):
        return _bind(spec, {}, agent_name(spec))
    raise GuandanError(f"an agent factory is a spec or a class or function returning an agent, got {describe(spec)}")


def agent_name(spec: AgentSpec) -> str:
    """How a seat's agent is named in results: the spec as given, the registered name of a
    class, else ``module:QualifiedName`` (options of a :func:`functools.partial` appended).

    >>> agent_name(" mc:threads=2 "), agent_name(GreedyAgent), agent_name(RandomAgent(5))
    ('mc:threads=2', 'greedy', 'random')
    >>> agent_name(functools.partial(MonteCarloAgent, think_ms=50))
    'mc:think_ms=50'
    """
    if isinstance(spec, str):
        return spec.strip()
    if isinstance(spec, functools.partial):
        options = "".join(f":{k}={_option_text(v)}" for k, v in spec.keywords.items())
        return agent_name(spec.func) + options
    for name, factory in AGENTS.items():
        if spec is factory:
            return name
    if _is_instance(spec):
        label = getattr(spec, "name", None)
        return label if isinstance(label, str) and label else agent_name(cast(AgentFactory, type(spec)))
    module = getattr(spec, "__module__", None)
    qualname = getattr(spec, "__qualname__", None) or type(spec).__qualname__
    return f"{module}:{qualname}" if module and module != "__main__" else str(qualname)


def _check_spec(spec: object) -> AgentSpec:
    if isinstance(spec, str):
        agent_factory(spec)
        checked: AgentSpec = spec.strip()
        return checked
    if _is_instance(spec) or callable(spec):
        return spec  # type: ignore[return-value]
    raise GuandanError(f"an agent is a spec, an agent class or factory, or an agent, got {describe(spec)}")


def seat_specs(specs: AgentSpec | Sequence[AgentSpec]) -> list[AgentSpec]:
    """The spec of each seat 0..3, each checked to name an agent: one for every seat, two
    (one per side: seats 0 and 2, then 1 and 3) or four — a list, or one string with the
    specs separated by commas. A class, factory or instance may stand for one spec.

    >>> seat_specs("mc, greedy,mc,greedy"), seat_specs(["random"])
    (['mc', 'greedy', 'mc', 'greedy'], ['random', 'random', 'random', 'random'])
    >>> seat_specs("mc:rollouts=400,greedy")
    ['mc:rollouts=400', 'greedy', 'mc:rollouts=400', 'greedy']
    >>> seat_specs([GreedyAgent, "random"])[2] is GreedyAgent
    True
    """
    names: list[Any]
    if isinstance(specs, str):
        names = [s.strip() for s in specs.split(",")]
    elif isinstance(specs, Sequence):
        names = list(specs)
    elif _is_instance(specs) or callable(specs):
        names = [specs]
    else:
        raise GuandanError(f"agents are one spec, two (one per side) or four (one per seat), got {describe(specs)}")
    if len(names) == 1:
        names = names * 4
    elif len(names) == 2:
        names = names * 2
    if len(names) != 4:
        raise GuandanError(
            f"give one agent for every seat, two (one per side: seats 0 and 2, then 1 and 3) or four, "
            f"one per seat; got {len(names)}"
        )
    return [_check_spec(name) for name in names]


def make_agent(spec: AgentSpec, seed: int = 0) -> Agent:
    """A new agent: from a spec (``"greedy"``, ``"mc:think_ms=100"``,
    ``"mybots:Bot"``), a class or factory, seeded; or a deep copy of an agent instance.

    >>> make_agent("mc", seed=1), make_agent("mc-basic").name
    (MonteCarloAgent(rollouts=2000, think_ms=None, threads=1, policy='learned', candidates=32), 'mc-basic')
    >>> bot = GreedyAgent(bomb_threshold=2); make_agent(bot) is bot, make_agent(bot).bomb_threshold
    (False, 2)
    """
    if _is_instance(spec):
        agent: Agent = copy.deepcopy(cast(Agent, spec))
        return agent
    return agent_factory(cast("str | AgentFactory", spec))(seed)


def make_agents(specs: AgentSpec | Sequence[AgentSpec], seed: int = 0) -> list[Agent]:
    """Four agents, one per seat (:func:`seat_specs`); seat ``i`` is seeded ``derive_seed(seed, i)``.

    >>> [a.name for a in make_agents(["greedy", "random", "greedy", "random"])]
    ['greedy', 'random', 'greedy', 'random']
    """
    return [make_agent(spec, derive_seed(seed, i)) for i, spec in enumerate(seat_specs(specs))]
