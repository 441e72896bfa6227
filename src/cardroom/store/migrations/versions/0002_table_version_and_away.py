"""A row version per table and the away flag per seat, so several processes can share tables.

Every change of a table bumps ``tables.version`` with a compare-and-set, so two server processes
can never both make change N; the version is also what clients see, so it starts from the
clock (above any version a client may hold from before). ``seats.away`` moves into the database
because whether a bot plays for an absent player must be the same in every process.
``matches.seed`` becomes a 64-bit integer: seeds have 62 bits, which PostgreSQL's INTEGER
cannot hold.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

from __future__ import annotations

import time

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("version", sa.BigInteger(), nullable=False,
                                   server_default="0"))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("away", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
    with op.batch_alter_table("matches") as batch:
        batch.alter_column("seed", type_=sa.BigInteger(), existing_type=sa.Integer(),
                           existing_nullable=False)
    op.execute(sa.text("UPDATE tables SET version = :now").bindparams(
        now=int(time.time() * 1000)))


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.alter_column("seed", type_=sa.Integer(), existing_type=sa.BigInteger(),
                           existing_nullable=False)
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("away")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("version")
