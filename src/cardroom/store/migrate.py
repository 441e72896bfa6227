"""Create and upgrade the database schema with the Alembic migrations shipped in the package.

``cardroom db upgrade`` and every server start call :func:`upgrade`. A database made before
the card room had migrations (its tables were created straight from the models) is recognised
and stamped with the first revision, then upgraded like any other.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.ext.asyncio import AsyncEngine

MIGRATIONS = Path(__file__).parent / "migrations"
FIRST_REVISION = "0001"
_LOCK_KEY = 0x500_CA4D
"""PostgreSQL advisory lock held while migrating, so servers starting together take turns."""


def alembic_config(connection: Any = None) -> Config:
    """An Alembic configuration pointing at the package's migrations (no ini file needed)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def head() -> str:
    """The newest revision the package ships."""
    revision = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert revision is not None
    return revision


def _upgrade(connection: Any, revision: str) -> None:
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK_KEY})
    config = alembic_config(connection)
    names = set(inspect(connection).get_table_names())
    if "alembic_version" not in names and "tables" in names:
        command.stamp(config, FIRST_REVISION)
    command.upgrade(config, revision)


def _current(connection: Any) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


async def upgrade(engine: AsyncEngine, revision: str = "head") -> str | None:
    """Bring the schema to ``revision`` (in one transaction where the database allows);
    returns the revision it is at afterwards."""
    async with engine.begin() as connection:
        await connection.run_sync(_upgrade, revision)
        return await connection.run_sync(_current)
