"""Fitting a learned hand evaluator (500's :mod:`cardroom.bots.five_hundred.evaluator`,
1000's :mod:`cardroom.bots.thousand.evaluator`) to solved deals.

Reads the chunks :mod:`cardroom.tools.evaluator_data` wrote for one
:class:`~cardroom.tools.evaluator_data.Dataset`, holds every tenth chunk out,
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

from cardroom.bots.networks import Network, arrays_from_networks
from cardroom.tools.evaluator_data import Dataset, dataset_for, load_chunks, write_arrays

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
    """Models of counted outcomes: the mean absolute error of the expected outcome, in the
    dataset's unit (tricks, points); yes-or-no models: the Brier score."""
    baseline_mean_error: float


def split_rows(data: Path, kinds: tuple[str, ...]) -> dict[str, Split]:
    """The rows of each of the models ``kinds`` from the chunks in ``data``, every tenth
    chunk held out."""
    parts: dict[str, dict[bool, tuple[list[np.ndarray], list[np.ndarray]]]] = {
        kind: {False: ([], []), True: ([], [])} for kind in kinds}
    for number, arrays in load_chunks(data):
        held = number % HELD_OUT_EVERY == HELD_OUT_EVERY - 1
        for kind in kinds:
            parts[kind][held][0].append(arrays[f"{kind}/x"])
            parts[kind][held][1].append(arrays[f"{kind}/y"])
    splits: dict[str, Split] = {}
    for kind in kinds:
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
    per outcome (outcomes never seen get a logit far below the others) or, for a yes-or-no
    model (``outputs`` 1), the logit of yes."""
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


def _scores(probabilities: np.ndarray, targets: np.ndarray, yes_or_no: bool,
            place_value: float) -> tuple[float, float]:
    """Log loss, and the mean absolute error of the expected outcome times ``place_value``
    (a yes-or-no model: the Brier score)."""
    chosen = np.clip(probabilities[np.arange(len(targets)), targets], 1e-12, 1.0)
    log_loss = float(-np.log(chosen).mean())
    if yes_or_no:
        return log_loss, float(((probabilities[:, 1] - targets) ** 2).mean())
    expected = probabilities @ np.arange(probabilities.shape[1])
    return log_loss, float(np.abs(expected - targets).mean() * place_value)


def fit_kind(split: Split, outputs: int, seed: int, hidden: tuple[int, ...] = HIDDEN,
             iterations: int = ITERATIONS, place_value: float = 1.0) -> Fit:
    """Fit one model's network and a multinomial logistic regression, score both on the
    held-out rows, and keep the one with the lower held-out log loss."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.neural_network import MLPClassifier

    mean = split.train_x.mean(axis=0)
    scale = split.train_x.std(axis=0)
    scale[scale == 0] = 1.0
    train = (split.train_x - mean) / scale
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
        probabilities = network.probabilities(split.test_x.astype(np.float32))
        scored[name] = (network, *_scores(probabilities, split.test_y, outputs == 1,
                                          place_value))
    chosen = min(scored, key=lambda name: scored[name][1])
    network, log_loss, error = scored[chosen]
    _, base_loss, base_error = scored["logistic"]
    return Fit(chosen, network, len(split.train_y), len(split.test_y), log_loss, base_loss,
               error, base_error)


def train(data: Path, model_path: Path, seed: int = 1, hidden: tuple[int, ...] = HIDDEN,
          iterations: int = ITERATIONS, dataset: Dataset | None = None) -> dict[str, Fit]:
    """Fit every model of ``dataset`` (500's four-handed evaluator by default) on the chunks
    in ``data`` and write the evaluator to ``model_path``."""
    dataset = dataset or dataset_for()
    splits = split_rows(data, dataset.kinds)
    fits: dict[str, Fit] = {
        kind: fit_kind(splits[kind], dataset.outcomes[kind], seed, hidden, iterations,
                       dataset.place_value)
        for kind in dataset.kinds}
    arrays = arrays_from_networks({kind: fit.network for kind, fit in fits.items()})
    dataset.load(arrays)  # what is written loads
    write_arrays(model_path, arrays)
    return fits
