"""Private tables, reserved seats, bots handing seats to people, and table chat.

- ``tables.private``: not listed in the lobby; only holders of ``tables.invite`` (the invite
  link's secret) may see, sit or watch. ``tables.invite_side``: the side an invite seats its
  holder on (NULL: any free seat). ``tables.typed_chat``: players may type in the chat (else
  only the fixed quick phrases and reactions).
- ``seats.reserved``: no bot or stranger takes the seat (a friend with the link may);
  ``seats.successor_id``: the player who takes the seat over from its bot at the next hand.
- ``chat_lines``: what was said at each table, kept with its matches.

Tables made before it are open, with typed chat, as they were.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("private", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("invite", sa.String(64), nullable=True))
        batch.add_column(sa.Column("invite_side", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("typed_chat", sa.Boolean(), nullable=False,
                                   server_default=sa.true()))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("reserved", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("successor_id", sa.String(32), nullable=True))
    op.create_table(
        "chat_lines",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), nullable=False, index=True),
        sa.Column("match_number", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("chat_lines")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("successor_id")
        batch.drop_column("reserved")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("typed_chat")
        batch.drop_column("invite_side")
        batch.drop_column("invite")
        batch.drop_column("private")
