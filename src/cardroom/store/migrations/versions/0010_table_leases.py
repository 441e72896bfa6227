"""Table leases: ``tables.owner``, ``owner_epoch`` and ``lease_until``.

Each open table of a shared room is owned by one server process at a time, which renews its
lease; the epoch goes up with each new owner and fences the old one's writes. Tables made
before it have no owner: the first process to look takes them.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("owner", sa.String(32), nullable=True))
        batch.add_column(sa.Column("owner_epoch", sa.BigInteger(), nullable=False,
                                   server_default="0"))
        batch.add_column(sa.Column("lease_until", sa.Float(), nullable=False,
                                   server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("lease_until")
        batch.drop_column("owner_epoch")
        batch.drop_column("owner")
