"""Run the card room under uvicorn (what `cardroom serve` calls)."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import gc
import logging
import math
import re
import socket
import struct
import time
from collections import Counter
from typing import TYPE_CHECKING, Any, cast

import uvicorn
from uvicorn.middleware.proxy_headers import _TrustedHosts
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol, RequestResponseCycle
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState

from cardroom.protocol import MAX_MESSAGE_BYTES
from cardroom.web.addresses import address_key
from cardroom.web.app import ServerConfig, create_app
from cardroom.web.http_limits import (
    MAX_HTTP_CONNECTIONS_PER_ADDRESS,
    MAX_REQUEST_HEAD_BYTES,
    MAX_REQUEST_HEADERS,
    REQUEST_READ_TIMEOUT,
    STALLED_WRITE_TIMEOUT,
)
from cardroom.web.socket import SEND_NOW

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
    so the room forgets the connection as it does any other that ends.

    It also offers the app :meth:`send_text_now` (the scope's :data:`SEND_NOW` extension):
    a message written at once, without the ASGI send chain and the writer task's turn."""

    def handle_connect(self, event: Any) -> None:
        """Accept as uvicorn does, offering :meth:`send_text_now` to the app."""
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"][SEND_NOW] = self.send_text_now

    def send_text_now(self, data: bytes) -> bool:
        """Write a text message (its UTF-8 bytes) now, as :meth:`send` would for
        ``websocket.send``, if the connection is open and the client reads (its transport
        under the high-water mark); false, writing nothing, otherwise: the message then
        waits its turn with :meth:`send`, which waits for the client or finds the
        connection gone."""
        if (not self.handshake_complete or self.close_sent or self.disconnected
                or self.initial_response is not None or not self.writable.is_set()
                or self.transport.is_closing()):
            return False
        try:
            self.conn.send_text(data)
        except InvalidState:
            return False
        self.transport.write(b"".join(self.conn.data_to_send()))
        return True

    def data_received(self, data: bytes) -> None:
        """Read as uvicorn does. A handshake the WebSocket layer refuses (a header line
        over its 8 KB, say) is answered with the refusal and the connection closed: uvicorn
        sends what the layer queued only on an event, which a refused handshake never makes,
        so the client waited, and the connection stayed, for ever."""
        super().data_received(data)
        if not self.handshake_initiated and self.conn.handshake_exc is not None:
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.transport.close()

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

    slot: AddressSlot | None = None
    """The connection's place among its address's (:class:`AddressLimit`), handed over by
    the HTTP protocol it was upgraded from; given back when the connection ends."""

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection ended: its address may open another."""
        if self.slot is not None:
            self.slot.release()
        super().connection_lost(exc)


REFUSED_HEAD = (b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
                b"content-type: text/plain; charset=utf-8\r\ncontent-length: 31\r\n"
                b"connection: close\r\n\r\nThe request's head is too long.")
"""The answer to a request whose line and headers pass :data:`MAX_REQUEST_HEAD_BYTES` (or
:data:`MAX_REQUEST_HEADERS`)."""


REFUSED_CROWDED = (b"HTTP/1.1 429 Too Many Requests\r\n"
                   b"content-type: text/plain; charset=utf-8\r\ncontent-length: 44\r\n"
                   b"connection: close\r\n\r\nToo many connections open from your address.")
"""The answer to a connection from an address that holds its :class:`AddressLimit` already."""
REFUSED_LINGER = 1.0
"""Seconds a refused connection is kept for its client to send its request and read the
answer (closed at once, the reset its request would meet could lose the answer)."""


class AddressSlot:
    """One connection's place among those of its client address: given back once."""

    __slots__ = ("_counts", "_key")

    def __init__(self, counts: Counter[str] | None, key: str) -> None:
        self._counts = counts
        """Where it is counted (``None``: nowhere, a connection that is not counted)."""
        self._key = key

    def release(self) -> None:
        """The connection ended (a second call does nothing)."""
        counts, self._counts = self._counts, None
        if counts is not None:
            counts[self._key] -= 1
            if counts[self._key] <= 0:
                del counts[self._key]


REFUSALS_ANSWERED = 8
"""Refused connections of one address that are answered 429 at once (each held up to
:data:`REFUSED_LINGER` seconds for its answer to be read); past them a refused connection is
reset on the spot, so a flood of connections holds no more descriptors than these."""
LOG_EVERY = 10.0
"""Seconds between two log lines of refused connections (a flood writes one, not one each)."""


class AddressLimit:
    """At most ``limit`` connections open at once from one client address (its TCP peer),
    but for trusted proxies (``trusted``, as ``--forwarded-allow-ips`` names them and as
    uvicorn reads that option: addresses, networks or other names separated by commas, or
    ``*`` alone for every address, which turns the cap off), whose clients are many.

    A client is counted as the room's quotas count it (:func:`~cardroom.web.addresses.
    address_key`: IPv6 by its /64)."""

    def __init__(self, limit: int, trusted: str = "") -> None:
        self.limit = limit
        self.open: Counter[str] = Counter()
        """Connections open now, by address (addresses with none are not kept)."""
        self.refusing: Counter[str] = Counter()
        """Refused connections waiting for their answer to be read, by address."""
        self._trusted = _TrustedHosts(trusted)
        """The proxies, read by uvicorn's own reader of ``--forwarded-allow-ips``, so that
        the cap spares exactly the peers whose X-Forwarded-For the room believes."""
        self._logged = -math.inf

    def take(self, host: str | None) -> AddressSlot | None:
        """A place for a new connection from ``host``; ``None`` when its address holds all
        of its own already. A connection without an address (a Unix socket) or from a
        trusted proxy is not counted."""
        return self._take(self.open, self.limit, host)

    def take_refusal(self, host: str | None) -> AddressSlot | None:
        """A place for a refused connection to be answered 429 from; ``None`` when its
        address has :data:`REFUSALS_ANSWERED` being answered already (reset it at once)."""
        return self._take(self.refusing, REFUSALS_ANSWERED, host)

    def log_now(self) -> bool:
        """Whether a refusal is to be logged (one line each :data:`LOG_EVERY` seconds)."""
        now = time.monotonic()
        if now - self._logged < LOG_EVERY:
            return False
        self._logged = now
        return True

    def _take(self, counts: Counter[str], most: int, host: str | None) -> AddressSlot | None:
        if host is None or host in self._trusted:
            return AddressSlot(None, "")
        key = address_key(host)
        if counts[key] >= most:
            return None
        counts[key] += 1
        return AddressSlot(counts, key)


class CountedTransport:
    """A connection's transport that counts the bytes handed to it, so that the stall watch
    knows how much the client has taken (handed over, less what still waits) whatever was
    written in between. Everything else is the transport's own."""

    def __init__(self, transport: asyncio.Transport) -> None:
        self.raw = transport
        self.written = 0

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written += len(data)
        self.raw.write(data)

    @property
    def taken(self) -> int:
        """Bytes the client has taken (the kernel's buffers count as taken)."""
        return self.written - self.raw.get_write_buffer_size()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)


class DroppingHttpProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol, with deadlines and limits on clients that would hold a
    connection, or the server's memory, for ever:

    - **A client that takes nothing** of what is written to it for :attr:`stall_timeout`
      seconds is dropped (its transport aborted). uvicorn waits for as long as it takes a
      response to drain: a client that sent requests (pipelined, many at once, or one for a
      large record) and then read nothing held its connection, and the responses queued for
      it, for ever. The watch starts when the transport's buffer passes its high-water mark
      (``pause_writing``), or when a response is complete with bytes still waiting (a
      closing or idle connection's last answer); it looks every :attr:`stall_timeout`
      seconds whether the client took any bytes since (:class:`CountedTransport`), and ends
      when nothing waits.
    - **A client that sends too slowly**: a request (head and body) must arrive within
      :attr:`read_timeout` seconds of the connection or of the first byte after the last
      request, or the connection ends. uvicorn's only read deadline is the keep-alive wait
      between requests, which any byte cancels, so a byte every few seconds (or one blank
      line, which starts no request) held a connection. While uvicorn itself has stopped
      reading (a pipelined request waiting its turn, a body the app has not asked for), the
      client is not late: its deadline starts again.
    - **A head too long**: past :data:`MAX_REQUEST_HEAD_BYTES` of request line and headers,
      or :data:`MAX_REQUEST_HEADERS` headers, the client is answered 431 (dropped, if an
      answer is already on its way: trailers of a chunked body count too) and the
      connection closed, before the parser has gathered more of it in memory.

    - **Too many connections from one address**: past its :attr:`address_limit`, a new
      connection is answered 429 and closed, what it sends thrown away unparsed (reset at
      once past :data:`REFUSALS_ANSWERED` such answers of its address).

    A WebSocket's connection, once upgraded, has a protocol of its own
    (:class:`DroppingWebSocketProtocol`) and its plain transport: every watch here ends, and
    its place among its address's connections goes with it."""

    stall_timeout = STALLED_WRITE_TIMEOUT
    read_timeout = REQUEST_READ_TIMEOUT
    address_limit = AddressLimit(MAX_HTTP_CONNECTIONS_PER_ADDRESS)
    """The connections open from each address (one count for a server's every connection:
    :func:`http_protocol` makes a class with its own)."""
    _counted: CountedTransport
    _slot: AddressSlot | None = None
    _refusal: AddressSlot | None = None
    _crowded = False
    """Refused for its address's connections: nothing it sends is parsed."""
    _stalled: asyncio.TimerHandle | None = None
    _reading: asyncio.TimerHandle | None = None
    """The deadline of the request being read (none while waiting between requests)."""
    _answering: RequestResponseCycle | None = None
    """The request being answered (with pipelining, ``cycle`` is the last one read)."""
    _head_bytes = 0
    """Bytes of the current request's line, headers and trailers, as parsed."""
    _headers = 0
    _unparsed = 0
    """Bytes received since the last boundary (a head or a request complete) that were not a
    body's: what the parser holds of a header it has not finished."""
    _body_bytes = 0
    _boundaries = 0
    _too_long = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """A new connection, its writes counted: its first request must come in time."""
        self._counted = CountedTransport(transport)
        super().connection_made(cast(asyncio.Transport, self._counted))
        host = self.client[0] if self.client else None
        self._slot = self.address_limit.take(host)
        if self._slot is None:
            self._refuse_crowded(host)
            return
        self._await_request()

    def _refuse_crowded(self, host: str | None) -> None:
        """Answer 429 to a connection its address has no place for, and close it once the
        client has sent its request (its bytes thrown away unparsed, so that the answer is
        not lost to a reset), or after :data:`REFUSED_LINGER` seconds. Past
        :data:`REFUSALS_ANSWERED` of them at once from one address, reset it at once."""
        self._crowded = True
        if self.address_limit.log_now():
            logging.getLogger(__name__).info("refusing connections from %s, which holds %s "
                                             "open", host, self.address_limit.limit)
        self._refusal = self.address_limit.take_refusal(host)
        if self._refusal is None:
            self._drop()
            return
        self.transport.write(REFUSED_CROWDED)
        self._reading = self.loop.call_later(REFUSED_LINGER, self.transport.close)

    def data_received(self, data: bytes) -> None:
        """Parse as uvicorn does; any byte starts a request's deadline, and a head that
        outgrows its limits is refused. A connection refused for its address's is parsed
        no further: its request's end (a blank line) closes it."""
        if self._crowded:
            if b"\r\n\r\n" in data or b"\n\n" in data:
                self.transport.close()
            return
        if not self._answering_now():  # a stray blank line during an answer is no request
            self._await_request()
        boundaries, body_before = self._boundaries, self._body_bytes
        super().data_received(data)
        if self.transport.is_closing() or not self._still_ours():
            return
        if self._boundaries == boundaries:
            self._unparsed += len(data) - (self._body_bytes - body_before)
        if self._too_long or self._unparsed > MAX_REQUEST_HEAD_BYTES:
            self._refuse_head()

    def on_message_begin(self) -> None:
        """A request's first byte: the whole of it must follow in time."""
        super().on_message_begin()
        self._head_bytes = self._headers = 0
        self._await_request()

    def on_url(self, url: bytes) -> None:
        self._count_head(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        """Keep a header (or a chunked body's trailer), unless the head is too long."""
        self._headers += 1
        self._count_head(len(name) + len(value) + 4)
        if not self._too_long:
            super().on_header(name, value)

    def on_headers_complete(self) -> None:
        """A request's head is read: it is answered, unless it was too long."""
        self._passed_boundary()
        if not self._too_long:
            super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        self._body_bytes += len(body)
        if not self._too_long:
            super().on_body(body)

    def on_message_complete(self) -> None:
        """A request is read in full: no deadline until the next byte."""
        self._passed_boundary()
        self._end_read_deadline()
        if not self._too_long:
            super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        """The connection becomes a WebSocket, on its plain transport, watched by a protocol
        of its own (not a request refused for its head: that one is answered 431).

        A client that asks for the upgrade behind earlier requests whose answers are not
        all taken (being made, waiting their turn, or written and unread) is dropped: no
        browser upgrades such a connection, and once upgraded the transport would tell only
        the new protocol of its pauses, so the answers still to come would be written
        without bound, and the new protocol would take a paused client for a reader."""
        if self._too_long:
            return
        self._end_read_deadline()
        if self._answers_untaken():
            logging.getLogger(__name__).info("dropping a client that asked for a WebSocket "
                                             "without reading its earlier answers")
            self._drop()
            return
        self.transport = self._counted.raw
        try:
            super().handle_websocket_upgrade()
        finally:  # (the WebSocket layer may fail, and close the connection, once it has it)
            self._hand_over_slot()

    def _hand_over_slot(self) -> None:
        """The connection's place goes with it to the WebSocket protocol it was upgraded to
        (which gives it back when the connection ends); another protocol would never give
        it back, so the connection is not counted from then on."""
        upgraded = self._counted.raw.get_protocol()
        if upgraded is self:
            return
        slot, self._slot = self._slot, None
        if isinstance(upgraded, DroppingWebSocketProtocol):
            upgraded.slot = slot
        elif slot is not None:
            slot.release()

    def _start_asgi_task(self, cycle: RequestResponseCycle, app: ASGI3Application) -> None:
        """Answer a request as uvicorn does, remembering which."""
        self._answering = cycle
        super()._start_asgi_task(cycle, app)

    def on_response_complete(self) -> None:
        """An answer is written: what of it still waits for the client is watched."""
        super().on_response_complete()
        if self.transport.get_write_buffer_size() and self._stalled is None:
            self._watch()

    def pause_writing(self) -> None:
        """The client takes nothing for now: drop it unless it takes some in time."""
        super().pause_writing()
        if self._stalled is None:
            self._watch()

    def resume_writing(self) -> None:
        """The client took what was waiting: its responses go on."""
        self._end_stall_watch()
        super().resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection ended: nothing more to watch, and its address may open another."""
        self._end_stall_watch()
        self._end_read_deadline()
        for slot in (self._slot, self._refusal):
            if slot is not None:
                slot.release()
        super().connection_lost(exc)

    def _count_head(self, size: int) -> None:
        self._head_bytes += size
        if self._head_bytes > MAX_REQUEST_HEAD_BYTES or self._headers > MAX_REQUEST_HEADERS:
            self._too_long = True

    def _passed_boundary(self) -> None:
        self._boundaries += 1
        self._unparsed = 0

    def _refuse_head(self) -> None:
        """Answer 431 and close; drop the client instead if an answer is on its way (a 431
        would cut into it)."""
        logging.getLogger(__name__).info("refusing an HTTP request head over its limits")
        if self._answering_now():
            self._drop()
        else:
            self.transport.write(REFUSED_HEAD)
            self.transport.close()

    def _await_request(self) -> None:
        """Start the deadline of the request to come, unless one runs already."""
        if self._reading is None:
            self._reading = self.loop.call_later(self.read_timeout, self._read_too_slowly)

    def _read_too_slowly(self) -> None:
        """The request did not arrive in time: close the connection (a reset if anything
        still waits to be written, which the client would not take either). If uvicorn has
        stopped reading meanwhile, the client is not late: its deadline starts again."""
        self._reading = None
        if self.transport.is_closing() or not self._still_ours():
            return
        if self.flow.read_paused:
            self._await_request()
            return
        logging.getLogger(__name__).info("dropping an HTTP client whose request took over %s s",
                                         self.read_timeout)
        if self._answers_untaken():
            self._drop()
        else:
            self.transport.close()

    def _watch(self) -> None:
        """Look again in :attr:`stall_timeout` seconds whether the client took anything."""
        self._end_stall_watch()
        self._stalled = self.loop.call_later(self.stall_timeout, self._look,
                                             self._counted.taken)

    def _look(self, taken: int) -> None:
        """Drop the client if it took nothing since the last look while bytes waited for it;
        one that took some, however slowly, is watched on (it reads: it is no attacker),
        until nothing waits."""
        self._stalled = None
        if not self._still_ours() or not self.transport.get_write_buffer_size():
            return
        if self._counted.taken > taken:
            self._watch()
        else:
            logging.getLogger(__name__).info("dropping an HTTP client that took nothing "
                                             "for %s s", self.stall_timeout)
            self._drop()

    def _still_ours(self) -> bool:
        """The connection is still this protocol's (not upgraded to a WebSocket)."""
        return self._counted.raw.get_protocol() is self

    def _answers_untaken(self) -> bool:
        """Some answer of this connection is still to reach the client: being made, waiting
        its turn, or written and waiting in the transport (past its high-water mark too)."""
        return bool(self.transport.get_write_buffer_size()) or self._answering_now()

    def _answering_now(self) -> bool:
        """Some request of this connection is being answered or waits its turn."""
        return any(cycle is not None and not cycle.response_complete
                   for cycle in self._cycles())

    def _cycles(self) -> tuple[RequestResponseCycle | None, ...]:
        """Every request of this connection uvicorn may still answer."""
        return (self._answering, self.cycle, *(queued for queued, _ in self.pipeline))

    def _drop(self) -> None:
        """Abort the connection with a reset: a plain close would leave the kernel holding
        the unsent bytes for a client that takes none of them."""
        for cycle in self._cycles():
            if cycle is not None and not cycle.response_complete:
                cycle.disconnected = True  # their next sends go nowhere, quietly
        with contextlib.suppress(OSError, RuntimeError):  # a socket closed meanwhile
            sock = self.transport.get_extra_info("socket")
            if sock is not None:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.transport.abort()

    def _end_read_deadline(self) -> None:
        if self._reading is not None:
            self._reading.cancel()
            self._reading = None

    def _end_stall_watch(self) -> None:
        if self._stalled is not None:
            self._stalled.cancel()
            self._stalled = None


def http_protocol(stall_timeout: float = STALLED_WRITE_TIMEOUT,
                  read_timeout: float = REQUEST_READ_TIMEOUT,
                  http_connections_per_address: int = MAX_HTTP_CONNECTIONS_PER_ADDRESS,
                  trusted_proxies: str = "") -> type[DroppingHttpProtocol]:
    """:class:`DroppingHttpProtocol` dropping stalled clients after ``stall_timeout`` s and
    slow requests after ``read_timeout`` s, and refusing an address's connections past
    ``http_connections_per_address`` (those of ``trusted_proxies`` excepted)."""
    return type("DroppingHttpProtocol", (DroppingHttpProtocol,),
                {"stall_timeout": stall_timeout, "read_timeout": read_timeout,
                 "address_limit": AddressLimit(http_connections_per_address,
                                                trusted_proxies)})


def serve(host: str, port: int, config: ServerConfig, log_level: str = "info",
          forwarded_allow_ips: str = "",
          stalled_write_timeout: float = STALLED_WRITE_TIMEOUT,
          request_read_timeout: float = REQUEST_READ_TIMEOUT,
          http_connections_per_address: int = MAX_HTTP_CONNECTIONS_PER_ADDRESS) -> None:
    """Serve until interrupted. Frames far over the protocol's cap are refused by uvicorn.

    ``forwarded_allow_ips``: the proxies (addresses, comma-separated, or ``*``) whose
    X-Forwarded-For names the client; none by default, so no client picks its own address
    for the per-address limits. ``stalled_write_timeout``: seconds an HTTP client may take
    nothing of its responses before it is dropped; ``request_read_timeout``: seconds a client
    has to send a request once it connected or began it; ``http_connections_per_address``:
    the connections one client address may hold open at once (trusted proxies' not counted).

    Messages are sent uncompressed: views are a kilobyte or two, and per-message deflate cost
    a tenth of the server's CPU under load for little saving on the wire."""
    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(message)s")
    app = create_app(config)
    tune_garbage_collector()
    uvicorn.run(app, host=host, port=port, log_level=log_level, log_config=log_config(),
                http=http_protocol(stalled_write_timeout, request_read_timeout,
                                   http_connections_per_address, forwarded_allow_ips),
                ws=DroppingWebSocketProtocol,
                ws_max_size=MAX_MESSAGE_BYTES * 64, ws_ping_interval=20, ws_ping_timeout=20,
                ws_per_message_deflate=False, lifespan="on",
                proxy_headers=bool(forwarded_allow_ips),
                forwarded_allow_ips=forwarded_allow_ips or None)
