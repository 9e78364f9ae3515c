"""Learning on the engine: vectorized tables stepped in the C core (:mod:`guandan.rl.vector`),
a PettingZoo environment of a deal or a match and a Gymnasium single-agent view
(:mod:`guandan.rl.env`, :mod:`guandan.rl.gym`; the ``rl`` extra), and a deep Monte Carlo
trainer with a plain-numpy Q-network exported as ONNX (:mod:`guandan.rl.train`), and
the making of the search's learned rollout policy (:mod:`guandan.rl.imitate`). The
encodings the networks read are :mod:`guandan.game.encoding`; ``docs/training.md``
goes from the environment to a trained, exported, evaluated network.

Nothing here is imported by ``import guandan``: PettingZoo, Gymnasium and ONNX are optional.
"""
