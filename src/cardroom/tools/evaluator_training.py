"""Fitting the hand evaluator (:mod:`cardroom.bots.five_hundred.evaluator`) to solved deals.

Reads the chunks :mod:`cardroom.tools.evaluator_data` wrote, holds every tenth chunk out,
fits one small network per model with scikit-learn and a multinomial logistic regression
beside it (the baseline it must beat; the one with the lower held-out log loss is kept),
reports the held-out errors and writes the chosen models' weights as the ``.npz`` the bots
load with numpy alone. scikit-learn is needed here only: ``pip install -e .[train]``.
Run ``cardroom evaluator train --data data/evaluator``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from cardroom.bots.five_hundred.evaluator import (
    KINDS,
    TRICK_OUTCOMES,
    Evaluator,
    Kind,
    Network,
    softmax,
)
from cardroom.tools.evaluator_data import load_chunks, write_arrays

HELD_OUT_EVERY = 10
"""Every tenth chunk (by number) is held out of the fit and measures it."""
HIDDEN = (64, 32)
"""The network's hidden layers."""
ITERATIONS = 60
"""Most passes over the data (the fit stops earlier when a validation share stops gaining)."""


@dataclass
class Split:
    """One model's rows, fitted and held out."""

    train_x: np.ndarray
    train_y: np.ndarray
    test_x: np.ndarray
    test_y: np.ndarray


@dataclass
class Fit:
    """One model's fitted network and how it did on the held-out rows."""

    chosen: str
    """``network`` (hidden layers) or ``logistic`` (none), whichever did better."""
    network: Network
    rows: int
    held_out_rows: int
    log_loss: float
    baseline_log_loss: float
    mean_error: float
    """Trick models: mean absolute error of the expected tricks; misère: the Brier score."""
    baseline_mean_error: float


def split_rows(data: Path) -> dict[str, Split]:
    """Each model's rows from the chunks in ``data``, every tenth chunk held out."""
    parts: dict[str, dict[bool, tuple[list[np.ndarray], list[np.ndarray]]]] = {
        kind: {False: ([], []), True: ([], [])} for kind in KINDS}
    for number, arrays in load_chunks(data):
        held = number % HELD_OUT_EVERY == HELD_OUT_EVERY - 1
        for kind in KINDS:
            parts[kind][held][0].append(arrays[f"{kind}/x"])
            parts[kind][held][1].append(arrays[f"{kind}/y"])
    splits: dict[str, Split] = {}
    for kind in KINDS:
        if not parts[kind][False][0] or not parts[kind][True][0]:
            raise ValueError(f"{data} holds too few chunks to fit and hold some out "
                             f"(at least {HELD_OUT_EVERY} are needed)")
        (train_x, train_y), (test_x, test_y) = (
            (np.concatenate(parts[kind][held][0]), np.concatenate(parts[kind][held][1]))
            for held in (False, True))
        splits[kind] = Split(train_x.astype(np.float64), train_y.astype(np.int64),
                             test_x.astype(np.float64), test_y.astype(np.int64))
    return splits


def network_of(model: Any, mean: np.ndarray, scale: np.ndarray, outputs: int) -> Network:
    """A fitted scikit-learn classifier (an ``MLPClassifier``, or a ``LogisticRegression``:
    a network without hidden layers) as a :class:`Network` whose last layer has one logit
    per trick count 0…10 (counts never seen get a logit far below the others) or, for a
    yes/no model (``outputs`` 1), the logit of yes."""
    if hasattr(model, "coefs_"):
        weights = [np.asarray(w, dtype=np.float32) for w in model.coefs_]
        biases = [np.asarray(b, dtype=np.float32) for b in model.intercepts_]
    else:
        weights = [np.asarray(model.coef_.T, dtype=np.float32)]
        biases = [np.asarray(model.intercept_, dtype=np.float32)]
    if outputs > 1:
        last_w = np.zeros((weights[-1].shape[0], outputs), dtype=np.float32)
        last_b = np.full(outputs, -30.0, dtype=np.float32)
        for column, label in enumerate(model.classes_):
            last_w[:, int(label)] = weights[-1][:, column]
            last_b[int(label)] = biases[-1][column]
        weights[-1], biases[-1] = last_w, last_b
    return Network(mean.astype(np.float32), scale.astype(np.float32), tuple(weights),
                   tuple(biases))


def _probabilities(kind: Kind, network: Network, rows: np.ndarray) -> np.ndarray:
    """Each row's probability of each outcome (misère: of failing, then of succeeding)."""
    logits = network.logits(rows.astype(np.float32)).astype(np.float64)
    if kind == "misere":
        yes = 1.0 / (1.0 + np.exp(-logits[:, 0]))
        return np.stack([1.0 - yes, yes], axis=1)
    return softmax(logits)


def _scores(kind: Kind, probabilities: np.ndarray, targets: np.ndarray) -> tuple[float, float]:
    """Log loss, and the mean absolute error of the expected tricks (misère: Brier score)."""
    chosen = np.clip(probabilities[np.arange(len(targets)), targets], 1e-12, 1.0)
    log_loss = float(-np.log(chosen).mean())
    if kind == "misere":
        return log_loss, float(((probabilities[:, 1] - targets) ** 2).mean())
    expected = probabilities @ np.arange(probabilities.shape[1])
    return log_loss, float(np.abs(expected - targets).mean())


def fit_kind(kind: Kind, split: Split, seed: int, hidden: tuple[int, ...] = HIDDEN,
             iterations: int = ITERATIONS) -> Fit:
    """Fit one model's network and a multinomial logistic regression, score both on the
    held-out rows, and keep the one with the lower held-out log loss."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.neural_network import MLPClassifier

    mean = split.train_x.mean(axis=0)
    scale = split.train_x.std(axis=0)
    scale[scale == 0] = 1.0
    train = (split.train_x - mean) / scale
    outputs = 1 if kind == "misere" else TRICK_OUTCOMES
    candidates = {
        "network": MLPClassifier(hidden_layer_sizes=hidden, alpha=1e-3, batch_size=256,
                                 learning_rate_init=1e-3, max_iter=iterations,
                                 early_stopping=True, n_iter_no_change=6, random_state=seed),
        "logistic": LogisticRegression(max_iter=1000),
    }
    scored = {}
    for name, model in candidates.items():
        model.fit(train, split.train_y)
        network = network_of(model, mean, scale, outputs)
        scored[name] = (network, *_scores(kind, _probabilities(kind, network, split.test_x),
                                          split.test_y))
    chosen = min(scored, key=lambda name: scored[name][1])
    network, log_loss, error = scored[chosen]
    _, base_loss, base_error = scored["logistic"]
    return Fit(chosen, network, len(split.train_y), len(split.test_y), log_loss, base_loss,
               error, base_error)


def arrays_of(networks: dict[str, Network]) -> dict[str, np.ndarray]:
    """The networks as the named arrays :meth:`Evaluator.from_arrays` reads."""
    arrays: dict[str, np.ndarray] = {}
    for kind, network in networks.items():
        arrays[f"{kind}/mean"], arrays[f"{kind}/scale"] = network.mean, network.scale
        for index, (weight, bias) in enumerate(zip(network.weights, network.biases,
                                                   strict=True)):
            arrays[f"{kind}/w{index}"], arrays[f"{kind}/b{index}"] = weight, bias
    return arrays


def train(data: Path, model_path: Path, seed: int = 1, hidden: tuple[int, ...] = HIDDEN,
          iterations: int = ITERATIONS) -> dict[str, Fit]:
    """Fit every model on the chunks in ``data`` and write the evaluator to ``model_path``."""
    splits = split_rows(data)
    fits: dict[str, Fit] = {kind: fit_kind(kind, splits[kind], seed, hidden, iterations)
                            for kind in KINDS}
    arrays = arrays_of({kind: fit.network for kind, fit in fits.items()})
    Evaluator.from_arrays(arrays)  # what is written loads
    write_arrays(model_path, arrays)
    return fits
