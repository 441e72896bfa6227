"""Small fitted models run with numpy alone: what both games' learned hand evaluators load.

The training (:mod:`cardroom.tools.evaluator_training`) fits each model with scikit-learn and
writes its weights as named arrays in an ``.npz`` file (``<model>/mean``, ``<model>/scale``,
``<model>/w0``, ``<model>/b0``, …); the bots read them back here, so no training library is
needed to play.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from importlib import resources

import numpy as np


@dataclass(frozen=True)
class Network:
    """One model: inputs standardised, then dense layers with ReLU between them; the last
    layer gives the logits of the outcomes (or one logit: a yes-or-no model's yes)."""

    mean: np.ndarray
    scale: np.ndarray
    weights: tuple[np.ndarray, ...]
    biases: tuple[np.ndarray, ...]

    def logits(self, rows: np.ndarray) -> np.ndarray:
        """The last layer's values for each row of features."""
        out = (rows - self.mean) / self.scale
        for index, (weight, bias) in enumerate(zip(self.weights, self.biases, strict=True)):
            out = out @ weight + bias
            if index < len(self.weights) - 1:
                np.maximum(out, 0.0, out=out)
        return out

    def probabilities(self, rows: np.ndarray) -> np.ndarray:
        """Each row's probability of each outcome (a yes-or-no model: of no, then of yes),
        reckoned in double precision."""
        logits = self.logits(rows).astype(np.float64)
        if logits.shape[1] == 1:
            yes = 1.0 / (1.0 + np.exp(-logits[:, 0]))
            return np.stack([1.0 - yes, yes], axis=1)
        return softmax(logits)


def softmax(logits: np.ndarray) -> np.ndarray:
    """Probabilities from logits, row by row."""
    shifted = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)


def networks_from_arrays(arrays: dict[str, np.ndarray],
                         names: tuple[str, ...]) -> dict[str, Network]:
    """The models ``names`` from the named arrays the training writes."""
    networks: dict[str, Network] = {}
    for name in names:
        layers = sum(1 for key in arrays if key.startswith(f"{name}/w"))
        networks[name] = Network(
            arrays[f"{name}/mean"], arrays[f"{name}/scale"],
            tuple(arrays[f"{name}/w{i}"] for i in range(layers)),
            tuple(arrays[f"{name}/b{i}"] for i in range(layers)))
    return networks


def arrays_from_networks(networks: dict[str, Network]) -> dict[str, np.ndarray]:
    """The models as the named arrays :func:`networks_from_arrays` reads."""
    arrays: dict[str, np.ndarray] = {}
    for name, network in networks.items():
        arrays[f"{name}/mean"], arrays[f"{name}/scale"] = network.mean, network.scale
        for index, (weight, bias) in enumerate(zip(network.weights, network.biases,
                                                   strict=True)):
            arrays[f"{name}/w{index}"], arrays[f"{name}/b{index}"] = weight, bias
    return arrays


def arrays_from_bytes(data: bytes) -> dict[str, np.ndarray]:
    """The named arrays of a saved ``.npz``."""
    with np.load(io.BytesIO(data)) as arrays:
        return {name: arrays[name] for name in arrays.files}


def packaged_arrays(package: str, name: str) -> dict[str, np.ndarray]:
    """The named arrays of the model file ``name`` shipped inside ``package``."""
    return arrays_from_bytes(resources.files(package).joinpath(name).read_bytes())
