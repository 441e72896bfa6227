"""How long and how much an HTTP client may take of the server before it is dropped: the
defaults of ``cardroom serve``'s options, kept apart from the server so that the command
line reads them without loading it (:class:`cardroom.web.server.DroppingHttpProtocol`
enforces them)."""

STALLED_WRITE_TIMEOUT = 30.0
"""Seconds an HTTP response may wait on a client that takes none of it before its
connection is dropped."""

REQUEST_READ_TIMEOUT = 30.0
"""Seconds a client has to send a whole request (its head and its body), from the moment it
connected or began the request. A record import, the largest body (256 KB), takes a few
seconds on a slow phone connection; a client that trickles a byte at a time to hold the
connection (slowloris) is dropped at the deadline however steadily it trickles."""

MAX_REQUEST_HEAD_BYTES = 64 * 1024
"""Bytes a request's line and headers may take; a longer head is answered 431 and the
connection closed. Browsers send a few kilobytes (cookies included); the HTTP parser would
otherwise gather a header of any length in memory before the server saw it."""

MAX_REQUEST_HEADERS = 100
"""Headers (and a chunked body's trailers) a request may have; more are answered 431. A
browser sends a dozen or two; each kept header costs the server some hundred bytes."""

MAX_HTTP_CONNECTIONS_PER_ADDRESS = 128
"""Connections (HTTP, and WebSockets, which begin as HTTP) one client address may hold open at
once; past it a new one is answered 429 (its request thrown away unparsed) and closed, and
past eight such answers at once it is reset without one. A browser holds about six to a site
and one per tab's WebSocket (the room allows 32 WebSockets to an address), so a household or
an office behind one address stays well under it, while one machine opening sockets by the
thousand to use up the server's descriptors is stopped. The addresses of trusted proxies
(``--forwarded-allow-ips``) are not counted: every client of a proxy comes from its address
(the proxy caps them: ``limit_conn`` in ``deploy/nginx/cardroom.conf``), and ``*`` turns the
cap off. An IPv6 client is counted by its /64."""
