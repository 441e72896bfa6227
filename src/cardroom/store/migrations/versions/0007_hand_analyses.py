"""Hands' analyses, kept with their matches.

- ``hand_analyses``: the double-dummy analysis of one hand of a table's match (the par table,
  what was made, every card's verdict), worked out once in the bot workers when somebody first
  asks for it in a replay, then read back.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "hand_analyses",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("match_number", sa.Integer(), primary_key=True),
        sa.Column("hand", sa.Integer(), primary_key=True),
        sa.Column("analysis", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("hand_analyses")
