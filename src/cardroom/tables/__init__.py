"""The application layer: lobby, tables, seats, players, bots, timers and per-seat views.

Nothing is imported here, so the bot worker processes (``cardroom.tables.workers``) start
without loading the room, the store and SQLAlchemy."""
