"""Loading a benchmark script (``benchmarks/NAME.py``, not a package) as a module, for the
tests that check what the scripts compute."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def load_script(name: str, *, register: bool = False) -> ModuleType:
    """``benchmarks/<name>.py`` loaded as the module ``name``; ``register`` puts it in
    ``sys.modules`` first (a dataclass in it looks its module up there)."""
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None, name
    module = importlib.util.module_from_spec(spec)
    if register:
        sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
