"""A trained policy network as plain NumPy arrays: an agent that needs no PyTorch.

The actor of a trained MaskablePPO model is a small MLP: the observation
(plus :mod:`agents.count_features` when it was trained with them), hidden
layers with ``tanh`` and a linear layer of 200 action logits. Exported to
arrays (:meth:`agents.checkpoint.PPOAgent.to_numpy`) it

* ships inside the package (``agents/data/*.npz``, loaded by
  ``make_agent("ppo")``) without the training extras;
* plays small batches several times faster than the PyTorch module, which
  matters where it sits in an opponent seat of self-play training.

Illegal actions get ``-inf`` logits; the agent takes the most likely action
(``deterministic=True``) or samples the masked softmax (:func:`softmax_sample`).

Its matrix products run on one BLAS thread: on small batches OpenBLAS's
threads only cost, and on a machine where other processes keep the cores
busy they cost a hundredfold (a 32-row product took 39 ms instead of 0.2 ms
beside one other training process on 2 cores).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np
from numba import njit
from threadpoolctl import ThreadpoolController

from kanaszta_env import Rules
from kanaszta_env.observation import observation_size

from .base import Agent
from .count_features import count_indices, count_layout

#: file format version of :meth:`NumpyPolicy.save` (2 added the hint inputs; 1 still loads)
FORMAT = 2


class NumpyPolicy(Agent):
    """Masked inference of an MLP given as weight arrays.

    Args:
        weights: ``(in, out)`` matrices, one per layer; the last gives the action logits.
        biases: ``(out,)`` vectors, one per layer.
        rules: the rules it was trained for (observation layout and count features).
        count_inputs: whether the count features are appended to the observation.
        hint: the bot whose one-hot choice follows the observation (:mod:`agents.hinted`), or "".
        hint_size: the number of those inputs (0 without a hint).
        name: the agent's name in tournaments.
        deterministic: masked argmax (True) or a sample of the masked softmax.
        seed: seed of the sampling.
    """

    def __init__(
        self,
        weights: list[np.ndarray],
        biases: list[np.ndarray],
        rules: Rules,
        *,
        count_inputs: bool = True,
        hint: str = "",
        hint_size: int = 0,
        name: str = "ppo",
        deterministic: bool = True,
        seed: int = 0,
    ) -> None:
        if len(weights) != len(biases) or not weights:
            raise ValueError("a NumpyPolicy needs one bias per weight matrix, and at least one layer")
        self.weights = [np.ascontiguousarray(w, dtype=np.float32) for w in weights]
        self.biases = [np.ascontiguousarray(b, dtype=np.float32) for b in biases]
        self.trained_rules = rules
        self.count_inputs = count_inputs
        if bool(hint) != (hint_size > 0):
            raise ValueError("a NumpyPolicy takes both a hint and its size, or neither")
        self.hint, self.hint_size = hint, hint_size
        self.obs_size = observation_size(rules)
        #: columns of the input rows: the observation, then the hint's one-hot inputs if any
        self.input_size = self.obs_size + hint_size
        self._layout = count_layout(rules) if count_inputs else None
        expected = self.input_size + (self._layout.size if self._layout else 0)
        if self.weights[0].shape[0] != expected:
            extras = "with count features " if count_inputs else ""
            extras += "and hints " if hint else ""
            raise ValueError(
                f"the first layer takes {self.weights[0].shape[0]} inputs; "
                f"these rules' observations {extras}have {expected}"
            )
        self.name, self.deterministic, self.seed = name, deterministic, seed
        self._rng = np.random.default_rng(seed)

    def setup(self, rules: Rules) -> None:
        if observation_size(rules) != self.obs_size or rules.num_players != self.trained_rules.num_players:
            trained = self.trained_rules
            raise ValueError(
                f"{self.name} was trained on {trained.variant} with {trained.num_players} players "
                f"(observations of {self.obs_size} slots); these rules are {rules.variant} with "
                f"{rules.num_players} players ({observation_size(rules)} slots)"
            )
        self.rules = rules

    def reset(self, n: int) -> None:
        self._rng = np.random.default_rng(self.seed)

    def logits(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Masked action logits ``(N, 200)`` (illegal actions at ``-inf``)."""
        with _blas().limit(limits=1, user_api="blas"):
            return self._logits(np.asarray(obs, dtype=np.float32), mask)

    def _logits(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        if obs.ndim != 2 or obs.shape[1] != self.input_size:
            hinted = f" (the observation and {self.hint}'s hint: agents.hinted.HintedPolicy adds it)"
            raise ValueError(
                f"{self.name} takes rows of {self.input_size} inputs{hinted if self.hint else ''}, "
                f"got shape {obs.shape}"
            )
        first = self.weights[0]
        x = obs @ first[: self.input_size] + self.biases[0]
        if self._layout is not None:  # the one-hot count inputs select rows of the first layer
            x += first[self.input_size :][count_indices(obs, self._layout)].sum(axis=1)
        for w, b in zip(self.weights[1:], self.biases[1:], strict=True):
            np.tanh(x, out=x)
            x = x @ w + b
        return np.where(np.asarray(mask, dtype=np.bool_), x, -np.inf)

    def act(self, obs: np.ndarray, mask: np.ndarray, slots: np.ndarray | None = None) -> np.ndarray:
        if len(obs) == 0:
            return np.zeros(0, dtype=np.int64)
        logits = self.logits(obs, mask)
        if self.deterministic:
            return logits.argmax(axis=1).astype(np.int64)
        actions = np.empty(len(logits), dtype=np.int64)
        softmax_sample(logits, self._rng.random(len(logits)), actions)
        return actions

    # --- files --------------------------------------------------------------------------------
    def save(self, path: str | Path) -> Path:
        """Write the arrays and the rules to ``path`` (``.npz``)."""
        path = Path(path)
        rules = self.trained_rules
        arrays = {f"w{k}": w for k, w in enumerate(self.weights)}
        arrays |= {f"b{k}": b for k, b in enumerate(self.biases)}
        meta = np.array([FORMAT, len(self.weights), int(self.count_inputs), rules.num_players,
                         rules.max_turns, self.hint_size], dtype=np.int64)  # fmt: skip
        np.savez_compressed(
            path, meta=meta, variant=np.array(rules.variant), hint=np.array(self.hint), **arrays
        )
        return path

    @classmethod
    def load(cls, path: str | Path, **kwargs: object) -> NumpyPolicy:
        """The policy saved at ``path`` by :meth:`save` (keyword arguments as in the constructor)."""
        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(f"no policy file at {path}")
        with np.load(path) as data:
            if "meta" not in data or int(data["meta"][0]) not in (1, FORMAT):
                raise ValueError(f"{path} is not a policy file of format 1 or {FORMAT} (NumpyPolicy.save)")
            _, layers, counts, players, max_turns, *hinted = (int(x) for x in data["meta"])
            rules = Rules(variant=str(data["variant"]), num_players=players, max_turns=max_turns)
            kwargs.setdefault("hint", str(data["hint"]) if hinted and hinted[0] else "")
            kwargs.setdefault("hint_size", hinted[0] if hinted else 0)
            weights = [data[f"w{k}"] for k in range(layers)]
            biases = [data[f"b{k}"] for k in range(layers)]
        kwargs.setdefault("name", f"ppo:{path.stem}")
        return cls(weights, biases, rules, count_inputs=bool(counts), **kwargs)  # type: ignore[arg-type]


@njit(cache=True)
def softmax_sample(logits: np.ndarray, uniforms: np.ndarray, out: np.ndarray) -> None:
    """Row ``i``'s action drawn from the softmax of its finite logits (``-inf`` = illegal) into
    ``out[i]``: the first action whose cumulative weight reaches ``(1 - uniforms[i])`` of the
    row's total. (Gumbel noise on every entry cost about 4 ns per entry; this reads the legal
    ones twice.)"""
    for i in range(logits.shape[0]):
        row = logits[i]
        top = -np.inf
        for x in row:
            top = max(top, x)
        total = 0.0
        last = 0
        for j in range(row.shape[0]):
            if row[j] > -np.inf:
                total += np.exp(row[j] - top)
                last = j
        point = (1.0 - uniforms[i]) * total
        out[i] = last
        running = 0.0
        for j in range(last + 1):
            if row[j] > -np.inf:
                running += np.exp(row[j] - top)
                if running >= point:
                    out[i] = j
                    break


@lru_cache(maxsize=1)
def _blas() -> ThreadpoolController:
    """The process's thread pools (found once; limiting them per call costs about 20 µs)."""
    return ThreadpoolController()


__all__ = ["NumpyPolicy"]
