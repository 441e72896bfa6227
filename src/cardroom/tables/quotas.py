"""The room's limits: what one player or one client address may do, and how much in all.

Each limit is a ``cardroom serve`` option (:class:`QuotaSettings`). A request past a limit is
refused with ``quota_exceeded`` naming the quota, and changes nothing. The counters forget
keys whose window has passed, so an attacker cycling through names or addresses cannot grow
them without bound either.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass

from cardroom.protocol import ErrorCode, Quota
from cardroom.tables.errors import RoomError

ADDRESS_SHARE = 4
"""A per-player limit also holds for each client address, this many times over: registering
new players from one address does not multiply what it may do."""
FORGET_EVERY = 1024
"""Checks between two sweeps of keys whose window has passed."""


@dataclass
class QuotaSettings:
    """The limits (each a ``cardroom serve`` option); tests and load tests raise them."""

    tables_per_player: int = 3
    """Open tables one player created."""
    tables: int = 2000
    """Open tables in the whole room."""
    registrations_per_minute: int = 10
    """Registrations from one client address per minute."""
    connections_per_address: int = 32
    """WebSocket connections from one client address at once."""
    bug_reports_per_hour: int = 5
    """Bug reports one player may send per hour."""
    hints_per_minute: int = 20
    """Hint requests one player may send per minute."""
    chat_per_minute: int = 20
    """Chat lines one player may send per minute (and at most a quarter of them, but no
    fewer than three, in any ten seconds)."""
    sign_ins_per_minute: int = 5
    """Sign-in attempts per name per minute (four times as many per client address)."""
    lookups_per_minute: int = 120
    """Profiles, leaderboard pages and match records one client address asks for a minute."""
    challenge_entries_per_day: int = 3
    """New daily challenge entries of one game from one client address in 24 hours: one
    entry a player and day is not enough where a name costs nothing, since a throwaway
    guest could play the day's deals first and its player then meet the same bots' replies
    to the same cards. A household may still play each under its own name."""


class QuotaExceeded(RoomError):
    """A request past one of the room's limits: answered ``quota_exceeded``."""

    def __init__(self, quota: Quota, message: str) -> None:
        super().__init__(ErrorCode.QUOTA_EXCEEDED, message, quota)
        self.quota: Quota = quota


class Window:
    """At most ``limit`` events per key in any ``seconds``-long window (a sliding log)."""

    def __init__(self, quota: Quota, limit: int, seconds: float, what: str) -> None:
        self.quota, self.limit, self.seconds, self.what = quota, limit, seconds, what
        self._events: dict[str, deque[float]] = {}
        self._checks = 0

    def take(self, key: str) -> None:
        """Count one event for ``key``, or raise :class:`QuotaExceeded` (counting nothing)."""
        self.allows(key)
        self._events[key].append(time.monotonic())

    def allows(self, key: str) -> None:
        """Raise :class:`QuotaExceeded` if one more event for ``key`` would pass the limit;
        count nothing."""
        now = time.monotonic()
        self._checks += 1
        if self._checks % FORGET_EVERY == 0:
            self._forget(now)
        events = self._events.setdefault(key, deque())
        while events and now - events[0] >= self.seconds:
            events.popleft()
        if len(events) >= self.limit:
            wait = max(1, round(self.seconds - (now - events[0])))
            raise QuotaExceeded(self.quota, f"At most {self.limit} {self.what}; "
                                            f"try again in {wait} s.")

    def _forget(self, now: float) -> None:
        for key in [k for k, e in self._events.items() if not e or now - e[-1] >= self.seconds]:
            del self._events[key]


class Quotas:
    """Every limit of one server process."""

    def __init__(self, settings: QuotaSettings | None = None) -> None:
        self.settings = settings = settings or QuotaSettings()
        self.registrations = Window(Quota.REGISTRATIONS, settings.registrations_per_minute, 60,
                                    "registrations a minute from one address")
        self.bug_reports = Window(Quota.BUG_REPORTS, settings.bug_reports_per_hour, 3600,
                                  "bug reports an hour")
        self.hints = Window(Quota.HINTS, settings.hints_per_minute, 60, "hints a minute")
        self.chat = Window(Quota.CHAT, settings.chat_per_minute, 60, "chat lines a minute")
        self.chat_burst = Window(Quota.CHAT, max(3, settings.chat_per_minute // 4), 10,
                                 "chat lines in ten seconds")
        self.sign_ins = Window(Quota.SIGN_INS, settings.sign_ins_per_minute, 60,
                               "sign-in attempts a minute for one name")
        self.lookups = Window(Quota.LOOKUPS, settings.lookups_per_minute, 60,
                              "profiles, leaderboards and records a minute from one address")
        self.challenge_entries = Window(
            Quota.CHALLENGE_ENTRIES, settings.challenge_entries_per_day, 24 * 3600,
            "new entries in a day's challenge of one game from one address")
        self._by_address = {
            window.quota: Window(window.quota, window.limit * ADDRESS_SHARE, window.seconds,
                                 f"{window.what} from one address")
            for window in (self.bug_reports, self.hints, self.chat, self.sign_ins)}
        self._connections: dict[str, int] = {}
        self.refused: dict[Quota, int] = dict.fromkeys(Quota, 0)
        """Refusals so far, by quota (for the metrics)."""

    def check(self, window: Window, key: str) -> None:
        """Count an event in ``window`` for ``key`` (refusals are counted too)."""
        try:
            window.take(key)
        except QuotaExceeded:
            self.refused[window.quota] += 1
            raise

    def check_player(self, window: Window, player_id: str, address: str) -> None:
        """Count an event of a per-player limit, for the player and for their address."""
        self.check(self._by_address[window.quota], address)
        self.check(window, player_id)

    def check_chat(self, player_id: str, address: str) -> None:
        """Count a chat line: a minute's and ten seconds' worth per player, and a minute's
        per address. Every limit is checked before any counts, so a line refused to one
        player does not use up what others behind the same address may say."""
        self._check_all([(self.chat_burst, player_id), (self.chat, player_id),
                         (self._by_address[Quota.CHAT], address)])

    def check_sign_in(self, name_key: str | None, address: str) -> None:
        """Count a sign-in attempt: per name (``None``: a passkey, which names nobody) and
        per address, both checked before either counts."""
        limits = [(self._by_address[Quota.SIGN_INS], address)]
        if name_key is not None:
            limits.append((self.sign_ins, name_key))
        self._check_all(limits)

    def _check_all(self, limits: list[tuple[Window, str]]) -> None:
        """Count one event in each window, if every one of them allows it (else none)."""
        for window, key in limits:
            try:
                window.allows(key)
            except QuotaExceeded:
                self.refused[window.quota] += 1
                raise
        for window, key in limits:
            window.take(key)

    def tables(self, open_tables: int, created_by_player: int) -> None:
        """A player may create one more table, given the room's and their own open tables."""
        if open_tables >= self.settings.tables:
            self._refuse(Quota.TABLES, f"The room is full ({self.settings.tables} open "
                                       "tables): take a free seat at a table, or try later.")
        if created_by_player >= self.settings.tables_per_player:
            self._refuse(Quota.TABLES_PER_PLAYER,
                         f"You have {created_by_player} open tables already (at most "
                         f"{self.settings.tables_per_player}): play or leave one first.")

    def connect(self, address: str) -> None:
        """A new connection from ``address``; pair every accepted one with :meth:`disconnect`."""
        held = self._connections.get(address, 0)
        if held >= self.settings.connections_per_address:
            self._refuse(Quota.CONNECTIONS, f"At most {self.settings.connections_per_address} "
                                            "connections from one address at once.")
        self._connections[address] = held + 1

    @property
    def connections(self) -> int:
        """Open connections from every address."""
        return sum(self._connections.values())

    def disconnect(self, address: str) -> None:
        """A connection from ``address`` closed."""
        held = self._connections.get(address, 0) - 1
        if held > 0:
            self._connections[address] = held
        else:
            self._connections.pop(address, None)

    def _refuse(self, quota: Quota, message: str) -> None:
        self.refused[quota] += 1
        raise QuotaExceeded(quota, message)
