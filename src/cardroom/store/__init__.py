"""Persistence: the async store (SQLite by default, PostgreSQL by URL) and the plain
dataclasses it speaks (:mod:`cardroom.store.data`); its SQLAlchemy models stay inside."""

from cardroom.store.db import DEFAULT_DATABASE_URL, Store

__all__ = ["DEFAULT_DATABASE_URL", "Store"]
