"""Players' name keys: ``players.name_key``, unique, so no two players have names that look alike.

The key is :func:`cardroom.tables.names.name_key` of the name (case, compatibility forms,
invisible characters and look-alike letters folded). The database's unique index decides
between two registrations of one name, also when two server processes make them at once.

A database from before this revision may hold several players whose names share a key
("Shaun" twice, or "Alice" and "ALICE"). The migration does not fail on them and renames
nobody: the oldest player of each such group (by ``created_at``, then id) gets the key, the
others keep their name and token with a NULL key (a unique index allows any number of NULLs),
so they still play, and nobody new can take that name. A name whose key is empty (nothing
visible) gets no key either. The keys are those of the code at the time of the migration.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_PLAYERS = sa.table("players", sa.column("id", sa.String()), sa.column("name", sa.String()),
                    sa.column("created_at", sa.Float()), sa.column("name_key", sa.Text()))


def upgrade() -> None:
    from cardroom.tables.names import name_key  # imported only when the migration runs

    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("name_key", sa.Text(), nullable=True))
    connection = op.get_bind()
    rows = connection.execute(sa.select(_PLAYERS.c.id, _PLAYERS.c.name)
                              .order_by(_PLAYERS.c.created_at, _PLAYERS.c.id))
    keyed: dict[str, str] = {}
    for player_id, name in rows:
        key = name_key(name)
        if key and key not in keyed:
            keyed[key] = player_id
    if keyed:
        connection.execute(
            sa.update(_PLAYERS).where(_PLAYERS.c.id == sa.bindparam("b_id"))
            .values(name_key=sa.bindparam("b_key")),
            [{"b_id": player_id, "b_key": key} for key, player_id in keyed.items()])
    op.create_index("ix_players_name_key", "players", ["name_key"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_players_name_key", table_name="players")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("name_key")
