"""Accounts across devices, profiles and ratings.

- ``sessions``: a player's devices, each a hashed token (the players' single
  ``players.token_hash`` moves here, so a player may be signed in on several devices and
  a token can be revoked alone).
- ``players.password_hash``, ``registered_at``, ``deleted_at``: accounts.
- ``passkeys``: accounts' WebAuthn credentials.
- ``tables.rated``; ``matches.rating`` (``pending``, ``done``, ``unrated``) and
  ``matches.private`` (played at a private table).
- ``match_seats``, ``player_games``, ``rating_points``: who played each finished match, each
  player's and bot level's figures per game, and the ratings' history.

Matches finished before it are not rated (nobody's figures would add up without them all).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False, index=True),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.execute(sa.text("INSERT INTO sessions (token_hash, player_id, created_at) "
                       "SELECT token_hash, id, created_at FROM players"))
    with op.batch_alter_table("players") as batch:
        batch.drop_index("ix_players_token_hash")
        batch.drop_column("token_hash")
        batch.add_column(sa.Column("password_hash", sa.Text(), nullable=True))
        batch.add_column(sa.Column("registered_at", sa.Float(), nullable=True))
        batch.add_column(sa.Column("deleted_at", sa.Float(), nullable=True))
    op.create_table(
        "passkeys",
        sa.Column("credential_id", sa.String(1400), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False, index=True),
        sa.Column("public_key", sa.LargeBinary(), nullable=False),
        sa.Column("sign_count", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean(), nullable=False,
                                   server_default=sa.true()))
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("rating", sa.String(8), nullable=True))
        batch.add_column(sa.Column("private", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
        batch.create_index("ix_matches_rating", ["rating"])
    op.execute(sa.text("UPDATE matches SET rating = 'unrated' WHERE finished_at IS NOT NULL"))
    op.create_table(
        "match_seats",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("match_number", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=True, index=True),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("side", sa.Integer(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=False, index=True),
    )
    op.create_index("ix_match_seats_bot", "match_seats", ["bot", "finished_at"])
    op.create_table(
        "player_games",
        sa.Column("player_id", sa.String(40), primary_key=True),
        sa.Column("game", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=False, index=True),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("contracts", sa.JSON(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "rating_points",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(40), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=False),
    )
    op.create_index("ix_rating_points_player", "rating_points", ["player_id", "game", "id"])


def downgrade() -> None:
    op.drop_index("ix_rating_points_player", table_name="rating_points")
    op.drop_table("rating_points")
    op.drop_table("player_games")
    op.drop_index("ix_match_seats_bot", table_name="match_seats")
    op.drop_table("match_seats")
    with op.batch_alter_table("matches") as batch:
        batch.drop_index("ix_matches_rating")
        batch.drop_column("private")
        batch.drop_column("rating")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("rated")
    op.drop_table("passkeys")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("deleted_at")
        batch.drop_column("registered_at")
        batch.drop_column("password_hash")
        batch.add_column(sa.Column("token_hash", sa.String(64), nullable=True))
    # Each player keeps one of its devices' tokens (the oldest); the others sign in again.
    op.execute(sa.text(
        "UPDATE players SET token_hash = (SELECT s.token_hash FROM sessions s "
        "WHERE s.player_id = players.id ORDER BY s.created_at LIMIT 1)"))
    op.create_index("ix_players_token_hash", "players", ["token_hash"], unique=True)
    op.drop_table("sessions")
