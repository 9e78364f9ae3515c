"""A fixed amount of rollouts of one native policy, for callgrind instruction counts.

The first lead of 50 seeded deals (levels 2 to A in turn), 4 rollouts each, all four seats
playing the policy (``_core.rollouts``; ``learned`` with the package's weights, or those of
``--weights FILE``). Run it under callgrind and read the inclusive cost of
``gd_rollout_seats``::

    valgrind --tool=callgrind --callgrind-out-file=cg.out python benchmarks/policy_instructions.py learned
    valgrind --tool=callgrind --callgrind-out-file=cg.out python benchmarks/policy_instructions.py learned \
        --weights my_policy.json
    callgrind_annotate --inclusive=yes cg.out | grep gd_rollout_seats

(On a pyenv install, give valgrind the interpreter itself, not the ``python`` shim.)
"""

from __future__ import annotations

import argparse

from guandan import Deal
from guandan.bots.rollout_policy import load_weights
from guandan.core import _core


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("policy", choices=sorted(_core.SEARCH_POLICIES), help="the rollout policy")
    parser.add_argument("--weights", metavar="FILE", help="a policy file for learned (default: the package's)")
    args = parser.parse_args()
    weights = load_weights(args.weights)
    for seed in range(50):
        state = Deal.new(seed, level=2 + seed % 13).native_state()
        _core.rollouts(state, 4, args.policy, weights=weights)


if __name__ == "__main__":
    main()
