"""Run the card room under uvicorn (what `cardroom serve` calls)."""

from __future__ import annotations

import copy
import gc
import logging
import re
from typing import TYPE_CHECKING, Any

import uvicorn
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from cardroom.protocol import MAX_MESSAGE_BYTES
from cardroom.web.app import ServerConfig, create_app

if TYPE_CHECKING:
    from uvicorn._types import ASGISendEvent

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


def serve(host: str, port: int, config: ServerConfig, log_level: str = "info",
          forwarded_allow_ips: str = "") -> None:
    """Serve until interrupted. Frames far over the protocol's cap are refused by uvicorn.

    ``forwarded_allow_ips``: the proxies (addresses, comma-separated, or ``*``) whose
    X-Forwarded-For names the client; none by default, so no client picks its own address
    for the per-address limits.

    Messages are sent uncompressed: views are a kilobyte or two, and per-message deflate cost
    a tenth of the server's CPU under load for little saving on the wire."""
    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(message)s")
    app = create_app(config)
    tune_garbage_collector()
    uvicorn.run(app, host=host, port=port, log_level=log_level, log_config=log_config(),
                ws=DroppingWebSocketProtocol,
                ws_max_size=MAX_MESSAGE_BYTES * 64, ws_ping_interval=20, ws_ping_timeout=20,
                ws_per_message_deflate=False, lifespan="on",
                proxy_headers=bool(forwarded_allow_ips),
                forwarded_allow_ips=forwarded_allow_ips or None)
