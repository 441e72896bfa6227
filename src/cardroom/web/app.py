"""The ASGI application, assembled in one visible place: routes, the room, start and stop."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from prometheus_client import CONTENT_TYPE_LATEST
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from cardroom.bots.levels import bot_levels
from cardroom.games.registry import DEFAULT_GAME, GAMES
from cardroom.protocol import CHAT_MAX
from cardroom.store.db import DEFAULT_DATABASE_URL, POSTGRES_POOL, Store
from cardroom.tables.chat import PHRASES, REACTIONS
from cardroom.tables.lobby import PAGE_LIMIT
from cardroom.tables.room import Room, RoomSettings
from cardroom.web import pages, profiles, pwa, security
from cardroom.web.pwa import STATIC
from cardroom.web.socket import Connection


@dataclass
class ServerConfig:
    """Everything `cardroom serve` can be told (options or environment variables)."""

    database_url: str = DEFAULT_DATABASE_URL
    database_pool: int = POSTGRES_POOL
    """PostgreSQL connections kept open (see :data:`cardroom.store.db.POSTGRES_POOL`)."""
    redis_url: str | None = None
    room: RoomSettings = field(default_factory=RoomSettings)
    rate: float = 20.0
    """Messages a second one connection may send on average."""
    burst: float = 60.0
    """Messages one connection may send at once."""
    allowed_origins: tuple[str, ...] = ()
    """Origins besides the served host whose pages may open the WebSocket (``*``: any);
    see :func:`cardroom.web.security.origin_allowed`."""


def _rss_kib() -> int | None:
    """This process's resident memory in KiB (Linux; ``None`` elsewhere)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def create_app(config: ServerConfig | None = None) -> Starlette:
    """The card room's ASGI app."""
    config = config or ServerConfig()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = await Store.open(config.database_url, pool=config.database_pool)
        bus = None
        if config.redis_url:
            from cardroom.bus.redis import RedisBus

            bus = await RedisBus.connect(config.redis_url, await store.room_key())
        room = Room(store, config.room, bus)
        await room.start()
        app.state.room = room
        with contextlib.suppress(ValueError, RuntimeError, NotImplementedError):
            # SIGUSR1 drains the process (docs/operations.md); only a server run in its
            # process's main thread listens for it.
            asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, room.drain)
        try:
            yield
        finally:
            await room.stop()
            await room.bus.close()
            await store.close()

    async def socket(websocket: WebSocket) -> None:
        if not security.origin_allowed(websocket.headers, config.allowed_origins):
            await websocket.close(code=1008)  # before accepting: the handshake gets HTTP 403
            return
        room: Room = websocket.app.state.room
        await Connection(websocket, room, config.rate, config.burst).serve()

    async def lobby(request: Request) -> JSONResponse:
        """A page of the lobby: ``/api/lobby?offset=0&limit=50`` (at most 200 tables), from
        a snapshot at most a second old, so asking often costs the room little."""
        try:
            offset = int(request.query_params.get("offset", 0))
            limit = int(request.query_params.get("limit", PAGE_LIMIT))
        except ValueError:
            return JSONResponse({"error": "offset and limit are whole numbers"},
                                status_code=400)
        return JSONResponse(request.app.state.room.lobby(offset, limit))

    async def rules_catalogue(request: Request) -> JSONResponse:
        """A game's presets and every house option, with explanations (the New table form):
        ``/api/rules?game=1000``; 500 without ``game``. ``games`` lists every game,
        ``bot_levels`` the bots the game offers players (each with its rating in the game,
        ``None`` before its first rated match) and ``default_bot`` the room's."""
        name = request.query_params.get("game", DEFAULT_GAME)
        spec = GAMES.get(name)
        if spec is None:
            return JSONResponse({"error": f"unknown game {name!r}", "games": list(GAMES)},
                                status_code=404)
        room: Room | None = getattr(request.app.state, "room", None)  # None: not started
        levels = [{**level, "rating": None if room is None else
                   room.core.rater.rating_of(None, level["bot"], spec.name)}
                  for level in bot_levels(spec.name)]
        return JSONResponse({**spec.catalogue(), "games": list(GAMES), "bot_levels": levels,
                             "default_bot": config.room.default_bot})

    async def chat_vocabulary(_request: Request) -> JSONResponse:
        """The chat's quick phrases and reactions by name, and the longest typed line: what
        the table's chat buttons offer (``/api/chat``)."""
        return JSONResponse({"phrases": PHRASES, "reactions": REACTIONS,
                             "max_length": CHAT_MAX})

    async def health(request: Request) -> JSONResponse:
        """Alive, plus what a load test wants to know: which process, its memory, its load."""
        room: Room = request.app.state.room
        return JSONResponse({"ok": True, "pid": os.getpid(), "rss_kib": _rss_kib(),
                             "tables": len(room.tables),
                             "followers": sum(len(t.listeners) for t in room.tables.values()),
                             "draining": room.core.leases.draining, **room.counters})

    async def metrics(request: Request) -> Response:
        """The room's figures in Prometheus's text format (docs/operations.md lists them)."""
        room: Room = request.app.state.room
        return Response(room.metrics.text(), media_type=CONTENT_TYPE_LATEST)

    async def index(_request: Request) -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    routes = [
        Route("/", index),
        WebSocketRoute("/ws", socket),
        Route("/api/lobby", lobby),
        Route("/api/rules", rules_catalogue),
        Route("/api/chat", chat_vocabulary),
        Route("/api/health", health),
        Route("/metrics", metrics),
        *pages.routes,
        *profiles.routes,
        *pwa.routes,
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan,
                     middleware=[Middleware(security.SecurityHeaders)],
                     exception_handlers={500: security.server_error})
