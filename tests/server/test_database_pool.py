"""Several processes on one PostgreSQL: each keeps the pool it is told to, so that their
connections together stay under the database's limit."""

from __future__ import annotations

from typer.testing import CliRunner

from cardroom.cli import app
from cardroom.store.db import POSTGRES_POOL, make_engine
from cardroom.tools.loadtest import start_servers


def test_a_postgresql_pool_keeps_what_it_is_told_and_opens_no_more() -> None:
    """Connections opened past the pool's size would be closed as soon as they came back, so
    a busy server would keep opening them: a burst waits for one instead."""
    engine = make_engine("postgresql://postgres@127.0.0.1:5432/test", 7)
    assert (engine.pool.size(), engine.pool._max_overflow) == (7, 0)  # type: ignore[attr-defined]
    default = make_engine("postgresql://postgres@127.0.0.1:5432/test")
    assert default.pool.size() == POSTGRES_POOL


def test_serve_refuses_a_pool_of_no_connections() -> None:
    result = CliRunner().invoke(app, ["serve", "--database-pool", "0"])
    assert result.exit_code == 1
    assert "--database-pool" in result.output


def test_the_load_tests_four_servers_fit_postgresqls_default_limit(tmp_path, monkeypatch) -> None:
    started: list[list[str]] = []

    class Recorded:
        def __init__(self, port, url, redis, log, extra, source) -> None:
            started.append(list(extra or []))

        def start(self) -> None:
            pass

    monkeypatch.setattr("cardroom.tools.loadtest.ManagedServer", Recorded)
    start_servers(4, "postgresql://db/x", "redis://r", tmp_path)
    pools = [int(extra[extra.index("--database-pool") + 1]) for extra in started]
    assert len(pools) == 4 and sum(pools) <= 80
