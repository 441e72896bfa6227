"""Accounts over the real protocol, tried as a player and as an attacker would: a guest makes
its name its own with a password or a passkey and signs in on another device; tokens rotate
and are revoked; a failed sign-in tells nothing about the name; sign-ins are limited; nobody
takes a registered name; deleting an account frees its name and keeps its matches."""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import pytest
from argon2 import PasswordHasher
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cardroom.bus import InProcessBus
from cardroom.store.db import Store
from cardroom.tables.accounts import password_hasher, relying_party
from cardroom.tables.quotas import QuotaSettings
from cardroom.tables.room import Player, Room, RoomError, RoomSettings
from cardroom.web.app import ServerConfig, create_app
from tests.server.test_ratings import finished_in_store
from tests.server.webauthn_device import SoftPasskey
from tests.shapes import check_message

ORIGIN = "http://testserver"
PASSWORD = "red joker leads"
_SEQ = itertools.count(1)


class Socket:
    """One WebSocket of the in-process app: requests answered by their ack's result or
    their error."""

    def __init__(self, web: TestClient, origin: str = ORIGIN) -> None:
        self._context = web.websocket_connect("/ws", headers={"origin": origin})
        self.ws = self._context.__enter__()
        self.received: list[dict[str, Any]] = []

    def ask(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Send a request; its ``ack`` or ``error`` (messages before it are kept)."""
        seq = next(_SEQ)
        self.ws.send_json({"type": kind, "seq": seq, **fields})
        while True:
            message = self.ws.receive_json()
            check_message(message)
            if message.get("seq") == seq and message["type"] in ("ack", "error"):
                return message
            self.received.append(message)

    def ok(self, kind: str, **fields: Any) -> dict[str, Any]:
        """The result of a request that must be accepted."""
        answer = self.ask(kind, **fields)
        assert answer["type"] == "ack", answer
        result: dict[str, Any] = answer["result"]
        return result

    def refused(self, code: str, kind: str, **fields: Any) -> dict[str, Any]:
        """The error of a request that must be refused with ``code``."""
        answer = self.ask(kind, **fields)
        assert answer["type"] == "error" and answer["code"] == code, answer
        return answer

    def close(self) -> None:
        with contextlib.suppress(WebSocketDisconnect):
            self._context.__exit__(None, None, None)


@pytest.fixture
def web(tmp_path: Path) -> Iterator[TestClient]:
    """The whole app in process, its room on a SQLite file of its own."""
    settings = RoomSettings(bot_delay=0.0, next_match_delay=60.0,
                            quotas=QuotaSettings(registrations_per_minute=1000),
                            default_bot="simple", bot_workers=1)
    app = create_app(ServerConfig(database_url=f"sqlite:///{tmp_path / 'room.sqlite3'}",
                                  room=settings, rate=1000, burst=1000))
    with TestClient(app) as client:
        yield client


@pytest.fixture
def sockets(web: TestClient) -> Iterator[Any]:
    opened: list[Socket] = []

    def make(origin: str = ORIGIN) -> Socket:
        opened.append(Socket(web, origin))
        return opened[-1]

    yield make
    for socket in opened:
        socket.close()


def test_a_guest_makes_its_name_its_own_and_finds_its_seat_on_another_device(sockets) -> None:
    phone = sockets()
    guest_token = phone.ok("register", name="Alice")["token"]
    table_id = phone.ok("create_table", preset="online", seat=2)["table_id"]
    own_token = phone.ok("claim", password=PASSWORD)["token"]
    assert own_token != guest_token
    sockets().refused("bad_token", "hello", token=guest_token)  # rotated away

    laptop = sockets()
    laptop.ok("register", name="Laptop guest")
    signed_in = laptop.ok("sign_in", name="alice", password=PASSWORD)
    assert signed_in["name"] == "Alice" and signed_in["tables"] == [table_id]
    assert signed_in["account"] == {"registered": True, "password": True, "passkeys": 0}
    assert laptop.ok("open", table_id=table_id)["seat"] == 2
    sockets().ok("hello", token=own_token)  # the phone is still signed in
    sockets().ok("hello", token=signed_in["token"])


def test_a_failed_sign_in_says_the_same_after_the_same_work(web, sockets) -> None:
    room: Room = web.app.state.room
    owner = sockets()
    owner.ok("register", name="Alice")
    owner.ok("claim", password=PASSWORD)
    sockets().ok("register", name="Bob")  # a guest: no password
    verified: list[str] = []

    class CountingHasher(PasswordHasher):
        def verify(self, hash: str | bytes, password: str | bytes) -> Literal[True]:
            verified.append(str(hash))
            return super().verify(hash, password)

    room.accounts.hasher = password_hasher(CountingHasher)
    answers = []
    for name, password in (("Nobody", PASSWORD), ("Bob", PASSWORD), ("Alice", "wrong one!"),
                           ("Alice", "")):
        stranger = sockets()
        answers.append(stranger.refused("bad_credentials", "sign_in", name=name,
                                        password=password)["message"])
        stranger.refused("not_registered", "create_table", preset="online")
    assert len(set(answers)) == 1
    assert len(verified) == 4  # one argon2 verification each, whatever the name


def test_sign_ins_are_limited_per_name_and_per_address(sockets) -> None:
    owner = sockets()
    owner.ok("register", name="Alice")
    owner.ok("claim", password=PASSWORD)
    attacker = sockets()
    for _ in range(5):
        attacker.refused("bad_credentials", "sign_in", name="Alice", password="guess 1234")
    limited = attacker.refused("quota_exceeded", "sign_in", name="ALICE", password=PASSWORD)
    assert limited["quota"] == "sign_ins"  # even the right password waits now
    for number in range(15):  # other names from the same address, up to 20 in all
        attacker.refused("bad_credentials", "sign_in", name=f"Name {number}", password="x" * 9)
    assert attacker.refused("quota_exceeded", "sign_in", name="Carol",
                            password="x" * 9)["quota"] == "sign_ins"


@pytest.mark.parametrize(("password", "why"), [
    ("short", "at least 8"), ("x" * 129, "at most 128"), ("password123", "guess"),
    ("aaaaaaaaaaaa", "guess"), ("Alice-rocks", "your name"), ("ALICE", "at least")])
def test_passwords_follow_the_rules(sockets, password: str, why: str) -> None:
    player = sockets()
    player.ok("register", name="Alice")
    assert why in player.refused("bad_password", "claim", password=password)["message"]
    player.ok("claim", password=PASSWORD)
    player.refused("already_registered", "claim", password=PASSWORD + "!")


def test_a_guest_cannot_take_a_registered_name(sockets) -> None:
    owner = sockets()
    owner.ok("register", name="Alice")
    owner.ok("claim", password=PASSWORD)
    for lookalike in ("Alice", "ALICE", " alice ", "Аlice"):  # the last with a Cyrillic A
        sockets().refused("name_taken", "register", name=lookalike)


def test_changing_the_password_signs_every_other_device_out(sockets) -> None:
    phone = sockets()
    phone.ok("register", name="Alice")
    phone.ok("claim", password=PASSWORD)
    laptop_token = sockets().ok("sign_in", name="Alice", password=PASSWORD)["token"]
    phone.refused("bad_credentials", "change_password", old_password="not it at all",
                  new_password="black joker trumps")
    new_token = phone.ok("change_password", old_password=PASSWORD,
                         new_password="black joker trumps")["token"]
    sockets().refused("bad_token", "hello", token=laptop_token)
    sockets().ok("hello", token=new_token)
    sockets().refused("bad_credentials", "sign_in", name="Alice", password=PASSWORD)
    sockets().ok("sign_in", name="Alice", password="black joker trumps")


def test_signing_out_revokes_the_token_and_the_connection_is_nobodys(sockets) -> None:
    player = sockets()
    token = player.ok("register", name="Alice")["token"]
    player.ok("sign_out")
    player.refused("not_registered", "create_table", preset="online")
    player.refused("not_registered", "sign_out")
    sockets().refused("bad_token", "hello", token=token)


def test_deleting_an_account_frees_the_name_and_keeps_its_matches_anonymous(web, sockets
                                                                          ) -> None:
    player = sockets()
    token = player.ok("register", name="Alice")["token"]
    player_id = player.received[0]["player_id"]
    player.ok("claim", password=PASSWORD)
    player.refused("bad_credentials", "delete_account", confirm_name="alice", password=PASSWORD)
    player.refused("bad_credentials", "delete_account", confirm_name="Alice", password="nope!")
    player.ok("delete_account", confirm_name="Alice", password=PASSWORD)
    player.refused("not_registered", "create_table", preset="online")
    sockets().refused("bad_token", "hello", token=token)
    sockets().refused("bad_credentials", "sign_in", name="Alice", password=PASSWORD)
    sockets().ok("register", name="Alice")  # the name is free again
    profile = web.get(f"/api/players/{player_id}").json()
    assert profile["deleted"] and profile["name"] == "Deleted player"


# -- passkeys -----------------------------------------------------------------------------------


def _register_passkey(player: Socket, device: SoftPasskey, origin: str = ORIGIN) -> str:
    options = player.ok("passkey_begin", purpose="register")["options"]
    assert options["rp"]["id"] == "testserver"
    assert options["authenticatorSelection"]["residentKey"] == "required"
    token: str = player.ok("passkey_finish", purpose="register",
                           credential=device.create(options, origin))["token"]
    return token


def test_a_passkey_makes_the_name_yours_and_signs_in_on_another_device(sockets) -> None:
    phone, device = sockets(), SoftPasskey()
    guest_token = phone.ok("register", name="Alice")["token"]
    table_id = phone.ok("create_table", preset="online", seat=1)["table_id"]
    _register_passkey(phone, device)
    sockets().refused("bad_token", "hello", token=guest_token)
    sockets().refused("name_taken", "register", name="Alice")

    laptop = sockets()
    options = laptop.ok("passkey_begin", purpose="sign_in")["options"]
    assert "allowCredentials" not in options or not options["allowCredentials"]
    signed_in = laptop.ok("passkey_finish", purpose="sign_in",
                          credential=device.get(options, ORIGIN))
    assert signed_in["name"] == "Alice" and signed_in["tables"] == [table_id]
    assert signed_in["account"] == {"registered": True, "password": False, "passkeys": 1}
    assert laptop.ok("open", table_id=table_id)["seat"] == 1


def test_passkey_answers_that_do_not_verify_are_refused(sockets) -> None:
    owner, device = sockets(), SoftPasskey()
    owner.ok("register", name="Alice")
    _register_passkey(owner, device)

    stranger = sockets()
    stranger.refused("bad_passkey", "passkey_finish", purpose="sign_in",
                     credential=device.get({"challenge": "AAAA", "rpId": "testserver"}, ORIGIN))
    options = stranger.ok("passkey_begin", purpose="sign_in")["options"]
    stranger.refused("bad_passkey", "passkey_finish", purpose="sign_in",  # another page
                     credential=device.get(options, "http://evil.example"))
    stranger.refused("bad_passkey", "passkey_finish", purpose="sign_in",  # used up
                     credential=device.get(options, ORIGIN))
    options = stranger.ok("passkey_begin", purpose="sign_in")["options"]
    stranger.refused("bad_passkey", "passkey_finish", purpose="sign_in",  # unknown key
                     credential=SoftPasskey(user_handle=b"x").get(options, ORIGIN))
    options = stranger.ok("passkey_begin", purpose="sign_in")["options"]
    replay = device.get(options, ORIGIN)
    replay["response"]["signature"] = replay["response"]["signature"][:-4] + "AAAA"
    stranger.refused("bad_passkey", "passkey_finish", purpose="sign_in", credential=replay)
    stranger.refused("not_registered", "passkey_begin", purpose="register")


@pytest.mark.parametrize("origin", [None, "", "http://127.0.0.1:8000", "http://[::1]:8000",
                                    "null"])
def test_passkeys_need_a_page_on_a_named_host(origin: str | None) -> None:
    with pytest.raises(RoomError) as refused:
        relying_party(origin)
    assert refused.value.code == "bad_passkey"
    assert relying_party("https://cards.example.org:8443") == "cards.example.org"


def test_a_registered_passkey_cannot_be_registered_again(sockets) -> None:
    owner, device = sockets(), SoftPasskey()
    owner.ok("register", name="Alice")
    _register_passkey(owner, device)
    other = sockets()
    other.ok("register", name="Bob")
    options = other.ok("passkey_begin", purpose="register")["options"]
    other.refused("bad_passkey", "passkey_finish", purpose="register",
                  credential=device.create(options, ORIGIN))


# -- revoked tokens close the connections that used them ----------------------------------------


def _closed(socket: Socket) -> bool:
    """Whether the server closed this connection (its next read ends it)."""
    try:
        socket.ws.receive_json()
    except WebSocketDisconnect:
        return True
    return False


def test_a_changed_password_closes_the_other_devices_connections(sockets) -> None:
    phone = sockets()
    phone.ok("register", name="Alice")
    phone.ok("claim", password=PASSWORD)
    laptop = sockets()
    laptop.ok("sign_in", name="Alice", password=PASSWORD)
    phone.ok("change_password", old_password=PASSWORD, new_password="black joker trumps")
    assert _closed(laptop)  # a stolen session does not outlive the new password
    phone.ok("ping")


def test_signing_out_closes_the_other_tabs_of_the_same_browser(sockets) -> None:
    first = sockets()
    token = first.ok("register", name="Alice")["token"]
    second = sockets()
    second.ok("hello", token=token)  # another tab, the same stored token
    other_device = sockets()
    other_device.ok("register", name="Bob")
    first.ok("sign_out")
    assert _closed(second)
    other_device.ok("ping")


class FakeSession:
    """A connection signed in as a player, as the account service sees it."""

    def __init__(self, player: Player | None, token_hash: str | None) -> None:
        self.player, self.token_hash = player, token_hash
        self.ended: list[str] = []

    def end(self, reason: str) -> None:
        self.ended.append(reason)


async def test_revoked_tokens_and_new_ratings_reach_every_process(tmp_path: Path) -> None:
    bus = InProcessBus()  # one bus for both rooms: what Redis is between processes
    stores = [await Store.open(f"sqlite:///{tmp_path / 'room.sqlite3'}") for _ in range(2)]
    rooms = [Room(store, RoomSettings(bot_workers=1), bus) for store in stores]
    try:
        ann = Player("ann", "Ann")
        here, there, elsewhere = (FakeSession(ann, "h1"), FakeSession(ann, "h2"),
                                  FakeSession(ann, "h3"))
        rooms[0].accounts.attach("ann", here)
        rooms[1].accounts.attach("ann", there)
        rooms[1].accounts.attach("ann", elsewhere)
        await rooms[0].accounts.end_sessions("ann", {"h2"}, keep=here)
        assert there.ended and not elsewhere.ended and not here.ended
        await rooms[0].accounts.end_sessions("ann", None, keep=here)
        assert elsewhere.ended and not here.ended

        rooms[1].core.rater.players["ann"] = {}  # a player the second process shows
        await finished_in_store(stores[0], "t1", "ann")
        await rooms[0].core.rater.rate("t1", 1)
        rating = (await stores[0].standings.of_player("ann"))["500"].rating
        assert rooms[1].core.rater.rating_of("ann", None, "500") == rating
        assert rooms[1].core.rater.rating_of(None, "rules", "500") is not None
    finally:
        for store in stores:
            await store.close()


# -- a token alone does not change how an account signs in --------------------------------------


def test_a_stolen_token_cannot_plant_a_passkey_and_a_new_password_removes_planted_ones(
        sockets) -> None:
    owner = sockets()
    owner.ok("register", name="Alice")
    owner.ok("claim", password=PASSWORD)
    token = owner.ok("sign_in", name="Alice", password=PASSWORD)["token"]
    thief = sockets()
    thief.ok("hello", token=token)  # a token copied from a shared computer
    refused = thief.refused("bad_credentials", "passkey_begin", purpose="register")
    assert "Sign in again" in refused["message"]
    thief.refused("bad_credentials", "delete_account", confirm_name="Alice")

    planted = SoftPasskey()  # say the thief knew the password once, and planted a passkey
    thief.ok("sign_in", name="Alice", password=PASSWORD)
    _register_passkey(thief, planted)
    owner_again = sockets()
    owner_again.ok("sign_in", name="Alice", password=PASSWORD)
    owner_again.ok("change_password", old_password=PASSWORD, new_password="black joker trumps")
    stranger = sockets()
    options = stranger.ok("passkey_begin", purpose="sign_in")["options"]
    stranger.refused("bad_passkey", "passkey_finish", purpose="sign_in",
                     credential=planted.get(options, ORIGIN))


def test_a_passkey_only_account_needs_a_fresh_passkey_to_change_credentials(sockets) -> None:
    phone, device = sockets(), SoftPasskey()
    phone.ok("register", name="Alice")
    token = _register_passkey(phone, device)
    thief = sockets()
    thief.ok("hello", token=token)
    thief.refused("bad_credentials", "claim", password=PASSWORD)
    thief.refused("bad_credentials", "delete_account", confirm_name="Alice")
    options = phone.ok("passkey_begin", purpose="sign_in")["options"]
    phone.ok("passkey_finish", purpose="sign_in", credential=device.get(options, ORIGIN))
    phone.ok("claim", password=PASSWORD)  # proven a moment ago


def test_password_checks_of_a_signed_in_player_are_limited_and_guests_cost_nothing(
        web, sockets) -> None:
    guest = sockets()
    guest.ok("register", name="Bob")
    hashes_before = web.app.state.room.accounts._decoy
    for _ in range(8):  # a guest has no password: refused before any hashing
        guest.refused("bad_credentials", "change_password", old_password="x" * 9,
                      new_password=PASSWORD)
    assert web.app.state.room.accounts._decoy == hashes_before
    owner = sockets()
    owner.ok("register", name="Alice")
    owner.ok("claim", password=PASSWORD)
    for _ in range(5):
        owner.refused("bad_credentials", "delete_account", confirm_name="Alice",
                      password="guess 1234")
    assert owner.refused("quota_exceeded", "change_password", old_password=PASSWORD,
                         new_password="black joker trumps")["quota"] == "sign_ins"


def test_the_name_of_deleted_accounts_is_nobodys(sockets) -> None:
    for name in ("Deleted player", "deleted  PLAYER"):
        sockets().refused("bad_name", "register", name=name)
