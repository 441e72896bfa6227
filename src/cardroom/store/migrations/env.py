"""Alembic's migration environment for the card room.

It runs only on a connection handed over by :mod:`cardroom.store.migrate` (``cardroom db
upgrade`` and every server start), never from an ``alembic.ini``: the package carries its own
migrations, so an installed wheel can create and upgrade its schema with no files around it.
"""

from __future__ import annotations

from alembic import context

from cardroom.store.models import Base

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("cardroom migrations run through cardroom.store.migrate "
                       "(`cardroom db upgrade`), with a connection")

context.configure(connection=connection, target_metadata=Base.metadata,
                  render_as_batch=connection.dialect.name == "sqlite", compare_type=True)
with context.begin_transaction():
    context.run_migrations()
