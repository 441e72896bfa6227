"""Persistence: SQLAlchemy models and the async store (SQLite by default, PostgreSQL by URL)."""

from cardroom.store.db import DEFAULT_DATABASE_URL, Store

__all__ = ["DEFAULT_DATABASE_URL", "Store"]
