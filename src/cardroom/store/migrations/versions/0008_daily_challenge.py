"""The daily challenge.

- ``challenge_days``: a game's challenge of one day, with the random secret its deals are
  derived from and the bots' own points on each deal;
- ``challenge_entries``: a player's one entry of a day, and the table its deals are played at;
- ``tables.challenge``: a challenge table's entry, day and deal seeds.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "challenge_days",
        sa.Column("game", sa.String(16), primary_key=True),
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("bot_points", sa.JSON(), nullable=True),
    )
    op.create_table(
        "challenge_entries",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False, unique=True),
        sa.Column("started_at", sa.Float(), nullable=False),
        sa.UniqueConstraint("game", "day", "player_id", name="uq_challenge_entries_player"),
    )
    op.create_index("ix_challenge_entries_day", "challenge_entries", ["game", "day"])
    op.create_index("ix_challenge_entries_player_id", "challenge_entries", ["player_id"])
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("challenge", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("challenge")
    op.drop_index("ix_challenge_entries_player_id", "challenge_entries")
    op.drop_index("ix_challenge_entries_day", "challenge_entries")
    op.drop_table("challenge_entries")
    op.drop_table("challenge_days")
