"""How well the shipped hand evaluator is calibrated: on the held-out chunks of its training
data, the share of hands that made each level against the chance the model gave them, and
the mean absolute error of the expected tricks against the best constant guess.

Run: ``python -m bench.evaluator --data data/evaluator`` (after ``cardroom evaluator
generate``; ``--players 3`` for the three-handed model and its data). Prints one table per
model; the integrator copies them to bench/RESULTS.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import numpy as np
import typer
from rich.console import Console
from rich.table import Table

from cardroom.bots.five_hundred.evaluator import shipped
from cardroom.tools.evaluator_data import check_players
from cardroom.tools.evaluator_training import split_rows

EDGES = (0.2, 0.4, 0.6, 0.8)
"""Where the predicted chances are cut into bins."""


def calibration(predicted: np.ndarray, made: np.ndarray) -> list[tuple[float, float, int]]:
    """For each bin of predicted chances: the mean chance, the share made, and the rows."""
    bins = np.digitize(predicted, EDGES)
    return [(float(predicted[bins == b].mean()), float(made[bins == b].mean()),
             int((bins == b).sum())) for b in range(len(EDGES) + 1) if (bins == b).any()]


def main(data: Annotated[Path, typer.Option(help="The training data.")]
         = Path("data/evaluator"),
         players: Annotated[int, typer.Option(help="The table size the data and model are "
                                                   "of.")] = 4) -> None:
    """Print the shipped evaluator's calibration on the held-out chunks of ``data``."""
    console = Console()
    check_players(data, players)
    model = shipped(players)
    splits = split_rows(data)
    for kind in ("suit", "no_trumps"):
        split = splits[kind]
        chances = model.trick_distributions(kind, split.test_x)
        means = chances @ np.arange(chances.shape[1])
        constant = np.abs(np.median(split.train_y) - split.test_y).mean()
        table = Table(title=f"{kind}: {len(split.test_y):,} held-out rows, expected tricks "
                            f"off by {np.abs(means - split.test_y).mean():.2f} on average "
                            f"(best constant: {constant:.2f})")
        table.add_column("level")
        table.add_column("predicted chance → share made (rows)")
        for level in (7, 8, 9, 10):
            cells = calibration(chances[:, level:].sum(axis=1), split.test_y >= level)
            table.add_row(str(level), ", ".join(f"{p:.2f} → {m:.2f} ({n:,})"
                                                for p, m, n in cells))
        console.print(table)
    split = splits["misere"]
    cells = calibration(model.misere_chances(split.test_x), split.test_y.astype(bool))
    console.print(f"misère, {len(split.test_y):,} held-out rows: predicted chance → share "
                  "made (rows): " + ", ".join(f"{p:.2f} → {m:.2f} ({n:,})"
                                               for p, m, n in cells))


if __name__ == "__main__":
    typer.run(main)
