"""The package's layers as imports: the server never reaches into the tools, and the tests'
shared fixtures start servers without loading the bots' compiled solver."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "cardroom"
SERVER_LAYERS = ("web", "tables", "store", "bus", "games", "bots")


def imported_modules(path: Path) -> set[str]:
    """Every module a source file imports, by its absolute name (with ``from a import b``:
    ``a`` and ``a.b``, since ``b`` may be a module)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)  # and each name, in case it is a module (``from a import b``)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


@pytest.mark.parametrize("path", sorted(
    path for layer in SERVER_LAYERS for path in (PACKAGE / layer).rglob("*.py")),
    ids=lambda path: str(path.relative_to(PACKAGE)))
def test_the_server_imports_no_tool(path: Path) -> None:
    """The room runs without the load test, terminal, client, arena or analysis."""
    tools = {name for name in imported_modules(path) if name.startswith("cardroom.tools")}
    assert not tools, f"{path.name} imports {sorted(tools)}"


def test_test_fixtures_load_no_solver() -> None:
    """conftest's server fixtures need no numba: a test of the web layer pays for no JIT."""
    probe = ("import sys, tests.conftest; "
             "print(sorted(m for m in sys.modules if m.split('.')[0] == 'numba' "
             "or m.startswith('cardroom.bots')))")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            cwd=PACKAGE.parents[1], check=True)
    assert result.stdout.strip() == "[]"
