"""How well a shipped hand evaluator is calibrated: on the held-out chunks of its training
data, the share of hands that made each bid against the chance the model gave them, and the
mean absolute error of the expected outcome against the best constant guess.

Run: ``python -m bench.evaluator --data data/evaluator`` (after ``cardroom evaluator
generate``; ``--players 3`` for 500's three-handed model and its data, ``--game 1000`` for
1000's). Prints one table per model; the integrator copies them to bench/RESULTS.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import numpy as np
import typer
from rich.console import Console
from rich.table import Table

from cardroom.bots.networks import networks_from_arrays, packaged_arrays
from cardroom.tools.evaluator_data import check_dataset, dataset_for
from cardroom.tools.evaluator_training import split_rows

EDGES = (0.2, 0.4, 0.6, 0.8)
"""Where the predicted chances are cut into bins."""


def calibration(predicted: np.ndarray, made: np.ndarray) -> list[tuple[float, float, int]]:
    """For each bin of predicted chances: the mean chance, the share made, and the rows."""
    bins = np.digitize(predicted, EDGES)
    return [(float(predicted[bins == b].mean()), float(made[bins == b].mean()),
             int((bins == b).sum())) for b in range(len(EDGES) + 1) if (bins == b).any()]


def _cells(cells: list[tuple[float, float, int]]) -> str:
    return ", ".join(f"{p:.2f} → {m:.2f} ({n:,})" for p, m, n in cells)


def main(data: Annotated[Path | None, typer.Option(help="The training data (default: the "
                                                        "evaluator's own folder).")] = None,
         game: Annotated[str, typer.Option(help="The game the evaluator is of.")] = "500",
         players: Annotated[int | None, typer.Option(help="The table size the data and "
                                                          "model are of.")] = None) -> None:
    """Print the shipped evaluator's calibration on the held-out chunks of ``data``."""
    console = Console()
    dataset = dataset_for(game, players)
    data = data or dataset.folder
    check_dataset(data, dataset)
    networks = networks_from_arrays(packaged_arrays(dataset.package, dataset.model_file),
                                    dataset.kinds)
    splits = split_rows(data, dataset.kinds)
    for kind in dataset.kinds:
        split = splits[kind]
        chances = networks[kind].probabilities(split.test_x.astype(np.float32))
        if dataset.outcomes[kind] == 1:
            cells = calibration(chances[:, 1], split.test_y.astype(bool))
            console.print(f"{kind}, {len(split.test_y):,} held-out rows: predicted chance → "
                          f"share made (rows): {_cells(cells)}")
            continue
        means = chances @ np.arange(chances.shape[1])
        unit = dataset.place_value
        constant = np.abs(np.median(split.train_y) - split.test_y).mean() * unit
        table = Table(title=f"{kind}: {len(split.test_y):,} held-out rows, expected outcome "
                            f"off by {np.abs(means - split.test_y).mean() * unit:.2f} "
                            f"{dataset.error_unit} on average (best constant: {constant:.2f})")
        table.add_column("bid")
        table.add_column("predicted chance → share made (rows)")
        for name, least in dataset.thresholds[kind]:
            cells = calibration(chances[:, least:].sum(axis=1), split.test_y >= least)
            table.add_row(name, _cells(cells))
        console.print(table)


if __name__ == "__main__":
    typer.run(main)
