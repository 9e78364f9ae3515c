"""The docstring examples of every module of the installed package run as doctests.

The modules are found by walking the package (the compiled core included), so a new module's
examples run without being listed anywhere."""

import doctest
import importlib
import pkgutil

import pytest

import guandan


def _modules() -> list[str]:
    names = ["guandan"]
    for info in pkgutil.walk_packages(guandan.__path__, "guandan."):
        if info.name != "guandan.__main__":
            names.append(info.name)
    return sorted(names)


MODULES = _modules()


def test_the_walk_finds_every_layer_and_the_compiled_core():
    from guandan.layers import LAYERS

    assert {f"guandan.{layer}" for layer in LAYERS} <= set(MODULES)
    assert "guandan.core._core" in MODULES and "guandan.platform.server" in MODULES


#: Modules whose examples play whole games over sockets, serve the browser table or train on torch:
#: a second or more.
SLOW_MODULES = {"guandan.platform.local", "guandan.web.server", "guandan.rl.torch_train", "guandan.rl.ray_train",
                "guandan.rl.distill", "guandan.rl.expert", "guandan.rl.state_value"}
#: Modules of an optional extra that is not a test dependency, with the package they need: skipped
#: without it (``guandan.rl.torch_train`` and ``guandan.rl.distill``: torch, the ``train`` extra, installed
#: pinned by .ci/run, and ``guandan.rl.state_value``'s training; ``guandan.rl.ray_train``: torch and ray, the
#: same extra).
OPTIONAL_MODULES = {"guandan.rl.torch_train": "torch", "guandan.rl.ray_train": "ray", "guandan.rl.distill": "torch",
                    "guandan.rl.state_value": "torch"}


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW_MODULES else n for n in MODULES])
def test_docstring_examples_run(name):
    if name in OPTIONAL_MODULES:
        pytest.importorskip(OPTIONAL_MODULES[name], reason=f"{name} needs an optional extra")
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} doctest failure(s) in {name}"
