"""Accounts: a guest's name made theirs with a password or a passkey, signing in on another
device, signing out, changing the password, deleting the account.

- **Passwords** are hashed with argon2id at OWASP's recommended cost (19 MiB, 2 passes, one
  lane: :func:`password_hasher`, about 40 ms of one core here), in a thread, at most
  :data:`HASHING_AT_ONCE` at a time, so a burst of sign-ins neither stalls the event loop nor
  takes the machine; a hash made with other costs still verifies.
- **Passkeys** are WebAuthn credentials (py_webauthn): discoverable, so signing in needs no
  name; the relying party is the page's host, the expected origin the page's origin (the
  WebSocket's ``Origin``, which the web layer has already checked).
- **Tokens rotate**: every sign-in, a claimed name and a changed password hand the device a
  new token and revoke the one it used (a changed password revokes every other device's too);
  signing out revokes the device's token.
- **No enumeration**: a failed sign-in has one answer, after the same hashing work, whether
  the name is unknown, a guest's or an account's with another password.
- **A token alone does not change credentials**: adding a passkey to an account, giving a
  passkey-only account a password or deleting it needs the connection to have proven the
  account with a password or a passkey in the last :data:`REAUTH_SECONDS` (a stolen token
  cannot plant a passkey of its own), and a changed password removes every passkey (the
  way back from a planted one). Every password check counts against a per-player and
  per-address limit, and hashing has a bounded queue.
- **Revoked means gone**: when tokens are revoked, the connections that proved themselves
  with them are closed, in this process and (through the bus's ``accounts`` channel) in every
  other, so a stolen session does not outlive a changed password or a sign-out.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, Literal, Protocol
from urllib.parse import urlsplit

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from webauthn import (
    base64url_to_bytes,
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from cardroom.protocol import PASSWORD_MAX, PASSWORD_MIN, ErrorCode
from cardroom.store.accounts import Accounts
from cardroom.store.data import Account, Passkey
from cardroom.tables.core import Core
from cardroom.tables.errors import RoomError
from cardroom.tables.model import Player, hash_token
from cardroom.tables.names import name_key
from cardroom.tables.quotas import Quotas

log = logging.getLogger(__name__)
HASHING_AT_ONCE = 2
"""Password hashes worked out at once."""
HASHING_QUEUE = 16
"""Password hashes that may wait their turn; past it a request is refused (``busy``), so a
flood of them cannot delay everybody's sign-in without bound."""
REAUTH_SECONDS = 600.0
"""How recently a connection must have proven the account (password or passkey) to change
its credentials or delete it."""


def password_hasher(kind: type[PasswordHasher] = PasswordHasher) -> PasswordHasher:
    """argon2id at OWASP's recommended cost for password storage: 2 passes over 19 MiB, one
    lane (``kind``: a subclass, for tests that watch it work)."""
    return kind(time_cost=2, memory_cost=19 * 1024, parallelism=1)
COMMON_PASSWORDS = frozenset({
    "password", "password1", "password12", "password123", "passw0rd", "p@ssw0rd",
    "12345678", "123456789", "1234567890", "0987654321", "87654321", "11111111", "00000000",
    "12341234", "abcd1234", "1q2w3e4r", "1qaz2wsx", "qwertyui", "qwertyuiop", "qwerty123",
    "asdfghjk", "asdfasdf", "zxcvbnm1", "iloveyou", "letmein1", "welcome1", "sunshine",
    "princess", "football", "baseball", "superman", "trustno1", "starwars", "whatever",
    "dragon12", "monkey12", "shadow12", "master12", "abc12345", "changeme", "computer",
    "internet", "cardroom", "fivehundred", "cardgame", "jokerjoker", "thousand",
})
"""Passwords too common to take (with the player's own name): a guess list starts with them."""
ACCOUNTS_CHANNEL = "accounts"
"""The bus channel of revoked tokens (each process closes its connections that used them)."""
RP_NAME = "cardroom"
"""How a passkey's relying party names itself to the authenticator."""
SIGN_IN_FAILED = "That name and password do not match an account."


def check_password(password: str, name: str) -> None:
    """Refuse a password that breaks the rules (``bad_password``, saying which)."""
    if len(password) < PASSWORD_MIN:
        raise _bad_password(f"A password has at least {PASSWORD_MIN} characters.")
    if len(password) > PASSWORD_MAX:
        raise _bad_password(f"A password has at most {PASSWORD_MAX} characters.")
    folded = password.casefold()
    if folded in COMMON_PASSWORDS or len(set(folded)) < 3:
        raise _bad_password("That password is among the first anybody would guess; "
                            "please choose another.")
    if name_key(password) == name_key(name) or name.casefold() in folded:
        raise _bad_password("A password cannot be, or contain, your name.")


def _bad_password(message: str) -> RoomError:
    return RoomError(ErrorCode.BAD_PASSWORD, message)


class Session(Protocol):
    """A connection signed in as a player (the web layer's WebSocket connection)."""

    player: Player | None
    """Who it is signed in as."""
    token_hash: str | None
    """The hash of the token it proved itself with."""
    address: str
    """The client's address (limits count per address)."""
    proven_at: float | None
    """When (monotonic seconds) it last proved the account with a password or a passkey
    (``None``: only with a token)."""

    def end(self, reason: str) -> None:
        """Close the connection: its token no longer proves anybody."""
        ...


@dataclass(frozen=True)
class Ceremony:
    """A passkey ceremony begun on a connection: what its answer must prove."""

    purpose: Literal["register", "sign_in"]
    challenge: bytes
    rp_id: str
    origin: str
    player_id: str | None
    """Who adds a passkey (``register``); ``None`` when signing in."""


@dataclass(frozen=True)
class SignedIn:
    """A device signed in as ``player`` with the new ``token``."""

    player: Player
    token: str


class AccountService:
    """The room's account verbs (``Room.accounts``)."""

    def __init__(self, core: Core, quotas: Quotas) -> None:
        self.core = core
        self.quotas = quotas
        self.hasher = password_hasher()
        self._hashing = asyncio.Semaphore(HASHING_AT_ONCE)
        self._hashes_waiting = 0
        self._decoy: str | None = None
        """A hash of a random password, verified when the name belongs to no account, so
        that answer takes as long as a wrong password's."""
        self.sessions: dict[str, set[Session]] = {}
        """This process's signed-in connections, by player id."""
        core.bus.subscribe(ACCOUNTS_CHANNEL, self._on_notice)

    # -- connections ------------------------------------------------------------------------------

    def attach(self, player_id: str, session: Session) -> None:
        """``session`` is signed in as the player now."""
        self.sessions.setdefault(player_id, set()).add(session)

    def detach(self, player_id: str, session: Session) -> None:
        """``session`` closed, or is signed in as somebody else (or nobody) now."""
        held = self.sessions.get(player_id)
        if held is not None:
            held.discard(session)
            if not held:
                del self.sessions[player_id]

    async def end_sessions(self, player_id: str, token_hashes: set[str] | None,
                           keep: Session | None = None) -> None:
        """Close the player's connections that used these tokens (``None``: every token),
        but ``keep``, here and in the other processes."""
        self._end_here(player_id, token_hashes, keep)
        await self.core.bus.publish(ACCOUNTS_CHANNEL, {
            "player_id": player_id, "origin": self.core.origin,
            "tokens": None if token_hashes is None else sorted(token_hashes)})

    def _end_here(self, player_id: str, token_hashes: set[str] | None,
                  keep: Session | None) -> None:
        for session in list(self.sessions.get(player_id, ())):
            if session is not keep and (token_hashes is None
                                        or session.token_hash in token_hashes):
                self.detach(player_id, session)
                session.end("its sign-in was revoked")

    async def _on_notice(self, notice: dict[str, Any]) -> None:
        """Another process revoked tokens: close the connections here that used them."""
        if notice.get("origin") == self.core.origin:
            return
        tokens = notice.get("tokens")
        self._end_here(str(notice.get("player_id")),
                       None if tokens is None else {str(token) for token in tokens}, None)

    @property
    def store(self) -> Accounts:
        """The store's accounts."""
        return self.core.store.accounts

    async def account(self, player: Player) -> Account:
        """The player's account as the store has it (a guest's too)."""
        found = await self.store.account(player.id)
        if found is None:
            raise RoomError(ErrorCode.BAD_TOKEN, "That account no longer exists.")
        return found

    # -- passwords ------------------------------------------------------------------------------

    async def claim(self, player: Player, password: str, session: Session) -> str:
        """Make the player's name theirs with a password (a passkey-only account's proven
        recently); the device's new token."""
        account = await self.account(player)
        if account.password_hash is not None:
            raise RoomError(ErrorCode.ALREADY_REGISTERED,
                            "This name has a password already: change it instead.")
        if account.registered:
            _need_recent_proof(session)
        check_password(password, player.name)
        await self.store.set_password(player.id, await self._hash(password))
        return await self._rotate(player, session, proven=True)

    async def sign_in(self, name: str, password: str, address: str,
                      session: Session) -> SignedIn:
        """Sign in by name and password (``bad_credentials`` for any mismatch)."""
        key = name_key(" ".join(name.split()))
        self.quotas.check_sign_in(key, address)
        account = await self.store.account_by_name_key(key)
        stored = account.password_hash if account is not None else None
        if not await self._verify(stored, password) or account is None:
            raise RoomError(ErrorCode.BAD_CREDENTIALS, SIGN_IN_FAILED)
        player = self._player(account)
        return SignedIn(player, await self._rotate(player, session, proven=True))

    async def change_password(self, player: Player, old: str, new: str,
                              session: Session) -> str:
        """A new password (the old one proven); every other device is signed out and every
        passkey removed (one a thief planted included)."""
        account = await self.account(player)
        if account.password_hash is None:
            raise RoomError(ErrorCode.BAD_CREDENTIALS, "You have no password yet: make "
                                                       "your name yours with one first.")
        self._count_attempt(player, session)
        if not await self._verify(account.password_hash, old):
            raise RoomError(ErrorCode.BAD_CREDENTIALS, "That is not your current password.")
        check_password(new, player.name)
        await self.store.set_password(player.id, await self._hash(new))
        await self.store.remove_passkeys(player.id)
        return await self._rotate(player, session, others=True, proven=True)

    async def sign_out(self, player: Player, session: Session) -> None:
        """The device's token stops working (its other tabs are closed too)."""
        if session.token_hash is not None:
            await self.store.revoke(session.token_hash)
            await self.end_sessions(player.id, {session.token_hash}, keep=session)

    async def delete(self, player: Player, password: str | None, confirm_name: str,
                     session: Session) -> None:
        """Delete the account, once its name is typed as it shows and its password (if it
        has one) proven."""
        account = await self.account(player)
        if " ".join(confirm_name.split()) != player.name:
            raise RoomError(ErrorCode.BAD_CREDENTIALS,
                            "Type your name exactly as it shows to delete your account.")
        if account.password_hash is not None:
            self._count_attempt(player, session)
            if not await self._verify(account.password_hash, password or ""):
                raise RoomError(ErrorCode.BAD_CREDENTIALS, "That is not your password.")
        elif account.registered:
            _need_recent_proof(session)
        await self.store.delete(player.id)
        self.core.rater.forget(player.id)
        await self.end_sessions(player.id, None, keep=session)

    def _count_attempt(self, player: Player, session: Session) -> None:
        """A password check of a signed-in player counts as a sign-in attempt of theirs
        (so a stolen token cannot guess the password at the hashing's speed)."""
        self.quotas.check_sign_in(f"player:{player.id}", session.address)

    async def _hash(self, password: str) -> str:
        async with self._hashing_turn():
            return await asyncio.to_thread(self.hasher.hash, password)

    @contextlib.asynccontextmanager
    async def _hashing_turn(self) -> AsyncIterator[None]:
        """A turn of the password hasher, or ``busy`` if too many wait for one."""
        if self._hashes_waiting >= HASHING_QUEUE:
            raise RoomError(ErrorCode.RATE_LIMITED, "The room is busy checking passwords; "
                                                    "try again in a moment.")
        self._hashes_waiting += 1
        try:
            async with self._hashing:
                yield
        finally:
            self._hashes_waiting -= 1

    async def _verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches ``stored``; with nothing stored, the same work
        against a decoy, and ``False``."""
        if stored is None:
            if self._decoy is None:
                self._decoy = await self._hash(secrets.token_urlsafe(16))
            stored, password = self._decoy, password + "\0"
        async with self._hashing_turn():
            try:
                return await asyncio.to_thread(self.hasher.verify, stored, password)
            except (VerificationError, InvalidHashError):
                return False

    async def _rotate(self, player: Player, session: Session, others: bool = False,
                      proven: bool = False) -> str:
        """Sign ``session`` in as ``player`` with a new token (returned, and its hash set on
        the session); the old token is revoked and the other connections that used it
        close (the browser's other tabs reconnect with the new token it stored); with
        ``others``, every other device of the player's is signed out too; ``proven``: the
        session has just proven the account with a password or a passkey."""
        old_hash, old_player = session.token_hash, session.player
        token = secrets.token_urlsafe(32)
        session.token_hash = hash_token(token)
        session.proven_at = time.monotonic() if proven else None
        await self.store.rotate(player.id, session.token_hash, old_hash, others)
        if old_hash is not None and old_player is not None:
            await self.end_sessions(old_player.id, {old_hash}, keep=session)
        if others:
            await self.end_sessions(player.id, None, keep=session)
        return token

    def _player(self, account: Account) -> Player:
        return self.core.players.setdefault(account.player_id,
                                             Player(account.player_id, account.name))

    # -- passkeys -------------------------------------------------------------------------------

    async def begin_passkey(self, purpose: Literal["register", "sign_in"], session: Session,
                            origin: str | None) -> tuple[Ceremony, dict[str, Any]]:
        """Options for the browser's ``navigator.credentials`` call, and what its answer
        must prove."""
        rp_id = relying_party(origin)
        assert origin is not None  # _rp_id refuses a missing origin
        player = session.player
        if purpose == "sign_in":
            self.quotas.check_sign_in(None, session.address)
            asking = generate_authentication_options(
                rp_id=rp_id, user_verification=UserVerificationRequirement.REQUIRED)
            return (Ceremony(purpose, asking.challenge, rp_id, origin, None),
                    _as_json(asking))
        if player is None:
            raise RoomError(ErrorCode.NOT_REGISTERED, "Choose a name before adding a passkey.")
        if (await self.account(player)).registered:
            _need_recent_proof(session)
        existing = await self.store.passkey_ids(player.id)
        options = generate_registration_options(
            rp_id=rp_id, rp_name=RP_NAME, user_name=player.name,
            user_id=player.id.encode(), user_display_name=player.name,
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.REQUIRED),
            exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(c))
                                 for c in existing])
        return (Ceremony(purpose, options.challenge, rp_id, origin, player.id),
                _as_json(options))

    async def finish_registration(self, ceremony: Ceremony, player: Player,
                                  credential: dict[str, Any], session: Session) -> str:
        """Keep the new passkey (the name is theirs from now on); the device's new token."""
        if ceremony.purpose != "register" or ceremony.player_id != player.id:
            raise _bad_passkey("Begin adding a passkey first.")
        try:
            verified = verify_registration_response(
                credential=credential, expected_challenge=ceremony.challenge,
                expected_rp_id=ceremony.rp_id, expected_origin=ceremony.origin,
                require_user_verification=True)
        except (WebAuthnException, ValueError, KeyError, TypeError) as error:
            raise _refused_passkey(error) from None
        credential_id = bytes_to_base64url(verified.credential_id)
        if await self.store.passkey(credential_id) is not None:
            raise _bad_passkey("That passkey is registered already.")
        await self.store.add_passkey(Passkey(credential_id, player.id,
                                             verified.credential_public_key,
                                             verified.sign_count))
        return await self._rotate(player, session, proven=True)

    async def finish_sign_in(self, ceremony: Ceremony, credential: dict[str, Any],
                             session: Session) -> SignedIn:
        """Sign in with a passkey the room knows."""
        if ceremony.purpose != "sign_in":
            raise _bad_passkey("Begin signing in with a passkey first.")
        raw_id = credential.get("id")
        stored = await self.store.passkey(raw_id) if isinstance(raw_id, str) else None
        if stored is None:
            raise _bad_passkey("This passkey belongs to no account here.")
        try:
            verified = verify_authentication_response(
                credential=credential, expected_challenge=ceremony.challenge,
                expected_rp_id=ceremony.rp_id, expected_origin=ceremony.origin,
                credential_public_key=stored.public_key,
                credential_current_sign_count=stored.sign_count,
                require_user_verification=True)
        except (WebAuthnException, ValueError, KeyError, TypeError) as error:
            raise _refused_passkey(error) from None
        account = await self.store.account(stored.player_id)
        handle = credential.get("response", {}).get("userHandle")
        if account is None or (handle and handle != bytes_to_base64url(
                account.player_id.encode())):
            raise _bad_passkey("This passkey belongs to no account here.")
        await self.store.used_passkey(stored.credential_id, verified.new_sign_count)
        player = self._player(account)
        return SignedIn(player, await self._rotate(player, session, proven=True))


def _need_recent_proof(session: Session) -> None:
    """Refuse a credential change on a connection that has not proven the account lately."""
    if session.proven_at is None or time.monotonic() - session.proven_at > REAUTH_SECONDS:
        raise RoomError(ErrorCode.BAD_CREDENTIALS, "Sign in again with your password or "
                                                   "passkey first: this changes how you "
                                                   "sign in.")


def _refused_passkey(error: Exception) -> RoomError:
    """A passkey that did not verify: the details are logged, not told to the client."""
    log.info("a passkey did not verify: %s", error)
    return _bad_passkey("The passkey could not be checked; please try again.")


def relying_party(origin: str | None) -> str:
    """The relying party of a page: its host name (``bad_passkey`` without an origin, or
    for an address, which WebAuthn does not accept)."""
    host = urlsplit(origin).hostname if origin else None
    if not host or host.replace(".", "").isdigit() or ":" in host:
        raise _bad_passkey("Passkeys work on the card room's named address (not a bare IP "
                           "address), from its own pages.")
    return host


def _as_json(options: Any) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(options_to_json(options))
    return result


def _bad_passkey(message: str) -> RoomError:
    return RoomError(ErrorCode.BAD_PASSKEY, message)
