"""Defences at the web edge: security headers on every response, the WebSocket's Origin
check, and decoding untrusted client messages without surprises.

**Headers.** :class:`SecurityHeaders` is a pure ASGI middleware (it rewrites the response's
start message and never buffers a body) that adds :data:`SECURITY_HEADERS` to every HTTP
response: pages, ``/api/*``, static files and errors. The Content-Security-Policy allows
scripts, styles, fonts and fetches from the card room's own origin only: no inline script, no
inline style, no plugins, no ``<base>``, and no framing by other sites. ``connect-src 'self'``
covers the WebSocket too: CSP Level 3 matches ``ws:``/``wss:`` of the page's own host to
``'self'``, which Chromium, Firefox and Safari 15.4+ do. ``img-src`` also allows ``data:`` for
the favicon drawn in ``index.html``. The 500 page is sent by Starlette's outermost
middleware, outside any user middleware, so :func:`server_error` adds the headers itself.

**Origin.** A browser sends an ``Origin`` header with every WebSocket handshake, and a page on
another site may open ``/ws`` and send the player's token from its own storage only if the
server accepts that handshake. :func:`origin_allowed` accepts a handshake with no ``Origin``
(non-browser clients), one whose host and port are the request's ``Host``, or one from the
allow-list (``cardroom serve --allowed-origin``; ``*`` allows any).

**Decoding.** :func:`decode_message` turns a client's text into JSON values or raises
:class:`BadMessage`: malformed JSON, numbers too large for the decoder, lone surrogates, and
nesting deeper than :data:`MAX_DEPTH` all end there, so the socket can answer each with a
``bad_message`` error instead of losing the connection.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

import msgspec
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger(__name__)

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
"""What the browser may load and run on the card room's pages: its own files only."""

SECURITY_HEADERS: dict[str, str] = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}
"""Added to every HTTP response that does not set the header itself."""

_RAW_HEADERS = [(name.lower().encode("latin-1"), value.encode("latin-1"))
                for name, value in SECURITY_HEADERS.items()]

MAX_DEPTH = 32
"""Deepest nesting of arrays and objects a client message may have (the browser's deepest,
a bug report's client state, is three)."""

ANY_ORIGIN = "*"
"""The allow-list entry that lets every origin open the WebSocket."""

_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


class SecurityHeaders:
    """Pure ASGI middleware adding :data:`SECURITY_HEADERS` to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = with_security_headers(message.get("headers", []))
            await send(message)

        await self.app(scope, receive, send_with_headers)


def with_security_headers(headers: Iterable[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """Raw ASGI headers plus each security header they do not already have."""
    headers = list(headers)
    present = {name.lower() for name, _ in headers}
    headers.extend(pair for pair in _RAW_HEADERS if pair[0] not in present)
    return headers


async def server_error(_request: Request, _error: Exception) -> Response:
    """The plain 500 response, with the security headers (it is sent outside the
    middleware)."""
    return PlainTextResponse("Internal Server Error", status_code=500, headers=SECURITY_HEADERS)


# -- the WebSocket's Origin ------------------------------------------------------------------


def origin_key(origin: str) -> tuple[str, str, int | None] | None:
    """``(scheme, host, port)`` of an origin such as ``https://example.org`` (the port filled
    in from the scheme when it has a default), or ``None`` if it is not an origin."""
    try:
        parts = urlsplit(origin.strip())
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    if (not parts.scheme or not host or parts.path not in ("", "/") or parts.query
            or parts.fragment or parts.username is not None):
        return None
    scheme = parts.scheme.lower()
    return scheme, host, port if port is not None else _DEFAULT_PORTS.get(scheme)


def parse_allowed_origins(values: Iterable[str]) -> tuple[str, ...]:
    """The allow-list from option values, each one origin or several separated by commas;
    ``ValueError`` names the first that is not an origin (nor ``*``)."""
    origins: list[str] = []
    for value in values:
        for item in value.split(","):
            item = item.strip()
            if not item:
                continue
            if item != ANY_ORIGIN and origin_key(item) is None:
                raise ValueError(f"{item!r} is not an origin such as https://example.org")
            origins.append(item)
    return tuple(origins)


@functools.lru_cache(maxsize=8)
def _allowed_keys(allowed: tuple[str, ...]) -> frozenset[tuple[str, str, int | None]]:
    return frozenset(key for key in map(origin_key, allowed) if key is not None)


def origin_allowed(headers: Headers, allowed: tuple[str, ...] = ()) -> bool:
    """Whether a WebSocket handshake with these headers may be accepted: no ``Origin``
    (not a browser), the origin's host and port are the ``Host`` the request was sent to, or
    the origin is in ``allowed`` (which may hold ``*``)."""
    origin = headers.get("origin")
    if origin is None or ANY_ORIGIN in allowed:
        return True
    key = origin_key(origin)
    host = headers.get("host", "")
    if key is not None and (key in _allowed_keys(allowed) or _same_host(key, host)):
        return True
    log.info("refused a WebSocket from origin %.100r (host %.100r)", origin, host)
    return False


def _same_host(key: tuple[str, str, int | None], host: str) -> bool:
    """Whether an origin names the host and port of a ``Host`` header (whose port, if left
    out, is the default of the origin's scheme: the browser's, even behind a TLS proxy)."""
    if not host:
        return False
    try:
        served = urlsplit(f"//{host}")
        served_host, served_port = served.hostname, served.port
    except ValueError:
        return False
    scheme, origin_host, origin_port = key
    if served_port is None:
        served_port = _DEFAULT_PORTS.get(scheme)
    return (origin_host, origin_port) == (served_host, served_port)


# -- decoding client messages ----------------------------------------------------------------


class BadMessage(ValueError):
    """A client message that cannot be read; its text says why, for the ``bad_message``
    error."""


_DECODER = msgspec.json.Decoder()


def decode_message(text: str) -> Any:
    """The JSON value of a client message, or :class:`BadMessage`.

    msgspec refuses lone surrogates and numbers it cannot hold, and raises RecursionError
    rather than crashing on extreme nesting; nesting deeper than :data:`MAX_DEPTH` is refused
    too, so nothing downstream recurses deeply over a client's value. Counting brackets is
    the cheap test that spares ordinary messages the walk."""
    try:
        value = _DECODER.decode(text)
    except msgspec.DecodeError as error:
        raise BadMessage(f"That message is not valid JSON ({error}).") from None
    except RecursionError:
        raise BadMessage(f"That message is nested too deeply (at most {MAX_DEPTH} levels).") \
            from None
    if text.count("[") + text.count("{") > MAX_DEPTH and depth(value) > MAX_DEPTH:
        raise BadMessage(f"That message is nested too deeply (at most {MAX_DEPTH} levels).")
    return value


def depth(value: Any) -> int:
    """How deeply arrays and objects nest in a JSON value (a scalar is 0), without recursion;
    stops counting once past :data:`MAX_DEPTH`."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children: Iterable[Any] = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, level)
        if deepest > MAX_DEPTH:
            return deepest
        stack.extend((child, level + 1) for child in children)
    return deepest
