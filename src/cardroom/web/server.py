"""Run the card room under uvicorn (what `cardroom serve` calls)."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import gc
import logging
import re
import socket
import struct
from typing import TYPE_CHECKING, Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol, RequestResponseCycle
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from cardroom.protocol import MAX_MESSAGE_BYTES
from cardroom.web.app import ServerConfig, create_app

if TYPE_CHECKING:
    from uvicorn._types import ASGI3Application, ASGISendEvent

YOUNG_COLLECTION_THRESHOLD = 50_000
"""Allocations between collections of the youngest generation (CPython's default is 700)."""


def tune_garbage_collector() -> None:
    """Make the collector's pauses short and rare, for a steady action-to-view latency.

    With CPython's defaults, 500 busy tables kept the server collecting the older generations
    every few seconds, over half a million objects, for 50-350 ms each time: those pauses made
    the latency's 99th percentile. The objects alive at start (modules, classes, the app) are
    frozen out of every collection, and a larger young generation lets a view or a message die
    young instead of being promoted; cycles are still collected (bench/RESULTS.md)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_COLLECTION_THRESHOLD, 20, 10)


INVITE_IN_QUERY = re.compile(r"(invite=)[^&#\s]*")
"""A private table's invite secret in a request's query string (its rules page's link)."""


class HideInviteSecrets(logging.Filter):
    """Keeps invite secrets out of the access log: the rules page of a private table is
    asked for with ``?invite=SECRET``, and a log line must not hand out the table."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(INVITE_IN_QUERY.sub(r"\1…", arg) if isinstance(arg, str)
                                else arg for arg in record.args)
        return True


def log_config() -> dict[str, Any]:
    """uvicorn's logging, with the access log's lines passed through
    :class:`HideInviteSecrets`."""
    config = copy.deepcopy(uvicorn.config.LOGGING_CONFIG)
    config.setdefault("filters", {})["hide_invites"] = {"()": HideInviteSecrets}
    config["handlers"]["access"].setdefault("filters", []).append("hide_invites")
    return config


class DroppingWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, except that a connection whose client stops reading is
    dropped (its transport aborted) rather than closed politely.

    A polite close flushes what is queued for the client first, so a client that never
    reads, and never closes, was held for ever: its connection, its place in its address's
    quota and its unsent messages. Two moments now drop it at once:
    - the room closes a connection while the client reads nothing (its messages are past
      the transport's high-water mark): a close frame could not reach it either;
    - a keepalive ping goes unanswered for ``ws_ping_timeout`` seconds.
    Dropping the transport tells the app that the client is gone (``websocket.disconnect``),
    so the room forgets the connection as it does any other that ends."""

    async def send(self, message: ASGISendEvent) -> None:
        """Send as uvicorn does; a close while the client reads nothing drops it."""
        if (message["type"] == "websocket.close" and self.handshake_complete
                and not self.writable.is_set()):
            self.transport.abort()
            return
        await super().send(message)

    def keepalive_timeout(self) -> None:
        """Close as uvicorn does on a ping left unanswered, then drop what could not be sent."""
        super().keepalive_timeout()
        self.transport.abort()


STALLED_WRITE_TIMEOUT = 30.0
"""Seconds an HTTP response may wait on a client that takes none of it before its
connection is dropped (:class:`DroppingHttpProtocol`)."""


class DroppingHttpProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol, except that a connection whose client takes nothing of what
    is written to it for :attr:`stall_timeout` seconds is dropped (its transport aborted).

    uvicorn waits for as long as it takes a response to drain: a client that sent requests
    (pipelined, many at once, or one for a large record) and then read nothing held its
    connection, and the responses queued for it, for ever. The watch starts when the
    transport's buffer passes its high-water mark (``pause_writing``), looks every
    :attr:`stall_timeout` seconds whether the client took any of it, and ends when it has
    drained (``resume_writing``); a WebSocket's connection, once upgraded, has a protocol of
    its own (:class:`DroppingWebSocketProtocol`)."""

    stall_timeout = STALLED_WRITE_TIMEOUT
    _stalled: asyncio.TimerHandle | None = None
    _answering: RequestResponseCycle | None = None
    """The request being answered (with pipelining, ``cycle`` is the last one read)."""

    def _start_asgi_task(self, cycle: RequestResponseCycle, app: ASGI3Application) -> None:
        """Answer a request as uvicorn does, remembering which."""
        self._answering = cycle
        super()._start_asgi_task(cycle, app)

    def pause_writing(self) -> None:
        """The client takes nothing for now: drop it unless it takes some in time."""
        super().pause_writing()
        self._watch(self.transport.get_write_buffer_size())

    def resume_writing(self) -> None:
        """The client took what was waiting: its responses go on."""
        self._forget_stall()
        super().resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection ended, stalled or not."""
        self._forget_stall()
        super().connection_lost(exc)

    def _watch(self, waiting: int) -> None:
        """Look again in :attr:`stall_timeout` seconds whether fewer than ``waiting`` bytes
        wait for the client."""
        self._forget_stall()
        self._stalled = self.loop.call_later(self.stall_timeout, self._look, waiting)

    def _look(self, waiting: int) -> None:
        """Drop the client if it took nothing since the last look; a client that took some,
        however slowly, is watched on (it reads: it is no attacker)."""
        self._stalled = None
        if self.transport.is_closing() or self.transport.get_protocol() is not self:
            return  # gone, or a WebSocket now, with a protocol of its own
        now = self.transport.get_write_buffer_size()
        if now < waiting:
            self._watch(now)
        else:
            self._drop()

    def _drop(self) -> None:
        """Abort the connection with a reset: a plain close would leave the kernel holding
        the unsent bytes for a client that takes none of them."""
        logging.getLogger(__name__).info("dropping an HTTP client that took nothing for %s s",
                                         self.stall_timeout)
        for cycle in (self._answering, self.cycle, *(queued for queued, _ in self.pipeline)):
            if cycle is not None and not cycle.response_complete:
                cycle.disconnected = True  # their next sends go nowhere, quietly
        with contextlib.suppress(OSError, RuntimeError):  # a socket closed meanwhile
            sock = self.transport.get_extra_info("socket")
            if sock is not None:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.transport.abort()

    def _forget_stall(self) -> None:
        if self._stalled is not None:
            self._stalled.cancel()
            self._stalled = None


def http_protocol(stall_timeout: float) -> type[DroppingHttpProtocol]:
    """:class:`DroppingHttpProtocol` dropping stalled clients after ``stall_timeout`` s."""
    return type("DroppingHttpProtocol", (DroppingHttpProtocol,),
                {"stall_timeout": stall_timeout})


def serve(host: str, port: int, config: ServerConfig, log_level: str = "info",
          forwarded_allow_ips: str = "",
          stalled_write_timeout: float = STALLED_WRITE_TIMEOUT) -> None:
    """Serve until interrupted. Frames far over the protocol's cap are refused by uvicorn.

    ``forwarded_allow_ips``: the proxies (addresses, comma-separated, or ``*``) whose
    X-Forwarded-For names the client; none by default, so no client picks its own address
    for the per-address limits. ``stalled_write_timeout``: seconds an HTTP client may take
    nothing of its responses before it is dropped.

    Messages are sent uncompressed: views are a kilobyte or two, and per-message deflate cost
    a tenth of the server's CPU under load for little saving on the wire."""
    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(message)s")
    app = create_app(config)
    tune_garbage_collector()
    uvicorn.run(app, host=host, port=port, log_level=log_level, log_config=log_config(),
                http=http_protocol(stalled_write_timeout), ws=DroppingWebSocketProtocol,
                ws_max_size=MAX_MESSAGE_BYTES * 64, ws_ping_interval=20, ws_ping_timeout=20,
                ws_per_message_deflate=False, lifespan="on",
                proxy_headers=bool(forwarded_allow_ips),
                forwarded_allow_ips=forwarded_allow_ips or None)
