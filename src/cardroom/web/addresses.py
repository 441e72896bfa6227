"""Who a client is counted as by the per-address limits (the room's quotas and the server's
cap on open connections).

A client is its address as the server sees it (its TCP peer, or the address a trusted proxy
names in X-Forwarded-For), but for two ways of writing one client as many: an IPv4 address
written as IPv6 (``::ffff:192.0.2.1``) is itself, and an IPv6 address counts with the rest of
its /64, the block one home, phone or host is given (whoever holds one holds its 2**64
addresses, and would otherwise have as many quotas)."""

from __future__ import annotations

import ipaddress

from starlette.requests import HTTPConnection

UNKNOWN = "unknown"
"""The key of a connection whose address is not known (all such count together)."""


def address_key(host: str) -> str:
    """What a client at ``host`` is counted by: its IPv4 address (also when written as
    IPv6), its IPv6 address's /64, or anything else (a socket's name) as written."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return host


def client_key(connection: HTTPConnection) -> str:
    """:func:`address_key` of a request's or a WebSocket's client."""
    return address_key(connection.client.host) if connection.client else UNKNOWN
