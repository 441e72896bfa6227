"""Ordinary tables' ``challenge`` is SQL NULL.

Revision 0008 stored ``None`` as JSON's ``null``, so ``challenge IS NULL`` matched no table
and a process's sweep took every table for a daily challenge's: it never loaded an ordinary
table made by another process whose notice it had missed.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27
"""

from __future__ import annotations

from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("UPDATE tables SET challenge = NULL WHERE challenge::text = 'null'")
    else:
        op.execute("UPDATE tables SET challenge = NULL WHERE challenge = 'null'")


def downgrade() -> None:
    """Nothing to undo: SQL NULL reads back as ``None`` either way."""
