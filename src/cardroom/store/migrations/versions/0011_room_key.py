"""The room's key: ``room.key``, one row.

The processes that share a database name their Redis channels by it, so that two rooms with
their own databases may share one Redis without hearing each other's notices. Made here,
with the schema, so that every process of a room reads the same key.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-29
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    room = op.create_table("room", sa.Column("key", sa.String(32), primary_key=True))
    op.bulk_insert(room, [{"key": secrets.token_hex(8)}])


def downgrade() -> None:
    op.drop_table("room")
