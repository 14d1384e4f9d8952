"""Self-play PPO on Ray RLlib (``kanaszta train --backend rllib``; needs ``pip install -e ".[ray]"``).

* :mod:`training.rllib.options` — the backend's flags (``--address``, ``--num-env-runners`` …);
* :mod:`training.rllib.env` — the vectorised env over the batched engine the env runners step;
* :mod:`training.rllib.module` — the masked actor-critic RLModule;
* :mod:`training.rllib.algo` — the ``PPOConfig`` of a run and the league snapshots;
* :mod:`training.rllib.warm_start` — the local trainer's imitation warm start, copied into the module;
* :mod:`training.rllib.train` — the training loop, checkpoints and reports.

Only :mod:`~training.rllib.options` is imported without Ray; see ``docs/rllib.md``.
"""
