"""Accounts in the store: devices' sessions, passwords, passkeys, deletion.

A player is signed in on a device by a secret token whose SHA-256 is a row of ``sessions``;
an account is a player whose name is theirs by a password (its argon2id hash) or a passkey.
The room (:mod:`cardroom.tables.accounts`) decides; this module only reads and writes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from cardroom.store.data import Account, Passkey
from cardroom.store.models import (
    PASSKEYS,
    PLAYERS,
    SESSIONS,
    PlayerGameRow,
    RatingPointRow,
)

DELETED_NAME = "Deleted player"
"""The name a deleted account's matches keep."""


class Accounts:
    """The store's side of accounts (``Store.accounts``)."""

    def __init__(self, engine: AsyncEngine,
                 writing: Callable[[], AbstractAsyncContextManager[None]]) -> None:
        self._engine = engine
        self._writing = writing

    async def account(self, player_id: str, deleted: bool = False) -> Account | None:
        """A player's account details (a guest's too), unless unknown or deleted (a deleted
        one too with ``deleted``: what its profile shows)."""
        return await self._account(PLAYERS.c.id == player_id, deleted)

    async def account_by_name_key(self, name_key: str) -> Account | None:
        """The player whose name has this key (:func:`cardroom.tables.names.name_key`)."""
        return await self._account(PLAYERS.c.name_key == name_key)

    async def _account(self, where: Any, deleted: bool = False) -> Account | None:
        passkeys = (select(func.count()).select_from(PASSKEYS)
                    .where(PASSKEYS.c.player_id == PLAYERS.c.id).scalar_subquery())
        async with self._engine.connect() as connection:
            row = (await connection.execute(
                select(PLAYERS.c.id, PLAYERS.c.name, PLAYERS.c.password_hash,
                       PLAYERS.c.registered_at, PLAYERS.c.deleted_at,
                       passkeys.label("passkeys"))
                .where(where, *(() if deleted else (PLAYERS.c.deleted_at.is_(None),))))
            ).first()
        if row is None:
            return None
        return Account(row.id, row.name, row.password_hash, int(row.passkeys),
                       row.registered_at is not None, row.deleted_at is not None)

    async def rotate(self, player_id: str, new_hash: str, old_hash: str | None = None,
                     others: bool = False) -> None:
        """Sign the player in with a new token: drop the device's old one (``old_hash``)
        and, with ``others``, every other device's, in one transaction."""
        async with self._writing(), self._engine.begin() as connection:
            if others:
                await connection.execute(delete(SESSIONS)
                                         .where(SESSIONS.c.player_id == player_id))
            if old_hash is not None:
                await connection.execute(delete(SESSIONS)
                                         .where(SESSIONS.c.token_hash == old_hash))
            await connection.execute(insert(SESSIONS).values(
                token_hash=new_hash, player_id=player_id, created_at=time.time()))

    async def revoke(self, token_hash: str) -> None:
        """Sign a device out: its token proves nobody any more."""
        async with self._writing(), self._engine.begin() as connection:
            await connection.execute(delete(SESSIONS)
                                     .where(SESSIONS.c.token_hash == token_hash))

    async def set_password(self, player_id: str, password_hash: str) -> None:
        """Give the player a (new) password; the name is theirs from now on."""
        await self._register(player_id, password_hash=password_hash)

    async def _register(self, player_id: str, **values: Any) -> None:
        """Write ``values`` to the player's row and mark the name theirs if not yet."""
        async with self._writing(), self._engine.begin() as connection:
            if values:
                await connection.execute(update(PLAYERS).where(PLAYERS.c.id == player_id)
                                         .values(**values))
            await connection.execute(
                update(PLAYERS).where(PLAYERS.c.id == player_id,
                                       PLAYERS.c.registered_at.is_(None))
                .values(registered_at=time.time()))

    async def add_passkey(self, passkey: Passkey) -> None:
        """Keep a new passkey of the player's; the name is theirs from now on."""
        async with self._writing(), self._engine.begin() as connection:
            await connection.execute(insert(PASSKEYS).values(
                credential_id=passkey.credential_id, player_id=passkey.player_id,
                public_key=passkey.public_key, sign_count=passkey.sign_count,
                created_at=time.time()))
        await self._register(passkey.player_id)

    async def passkey(self, credential_id: str) -> Passkey | None:
        """A stored passkey by its credential id (a deleted account's are gone)."""
        async with self._engine.connect() as connection:
            row = (await connection.execute(
                select(PASSKEYS).where(PASSKEYS.c.credential_id == credential_id))).first()
        if row is None:
            return None
        return Passkey(row.credential_id, row.player_id, bytes(row.public_key),
                       row.sign_count)

    async def remove_passkeys(self, player_id: str) -> None:
        """Forget every passkey of the player's (a changed password's way back from a passkey
        somebody else added)."""
        async with self._writing(), self._engine.begin() as connection:
            await connection.execute(delete(PASSKEYS)
                                     .where(PASSKEYS.c.player_id == player_id))

    async def passkey_ids(self, player_id: str) -> list[str]:
        """The credential ids of a player's passkeys (not to register one twice)."""
        async with self._engine.connect() as connection:
            rows = await connection.execute(select(PASSKEYS.c.credential_id)
                                            .where(PASSKEYS.c.player_id == player_id))
            return [row.credential_id for row in rows]

    async def used_passkey(self, credential_id: str, sign_count: int) -> None:
        """A passkey signed in: keep its new signature count (a cloned authenticator's
        count falls behind, and the library refuses it then)."""
        async with self._writing(), self._engine.begin() as connection:
            await connection.execute(update(PASSKEYS)
                                     .where(PASSKEYS.c.credential_id == credential_id)
                                     .values(sign_count=sign_count))

    async def delete(self, player_id: str) -> None:
        """Delete an account: every device signed out, its password and passkeys gone, its
        name free (its matches keep the player's id, shown as :data:`DELETED_NAME`), and its
        rating off the leaderboard."""
        async with self._writing(), self._engine.begin() as connection:
            for table in (SESSIONS, PASSKEYS):
                await connection.execute(delete(table).where(table.c.player_id == player_id))
            for model in (PlayerGameRow, RatingPointRow):
                await connection.execute(delete(model).where(model.player_id == player_id))
            await connection.execute(update(PLAYERS).where(PLAYERS.c.id == player_id).values(
                name=DELETED_NAME, name_key=None, password_hash=None, deleted_at=time.time()))
