"""Run the card room under uvicorn (what `cardroom serve` calls)."""

from __future__ import annotations

import logging

import uvicorn

from cardroom.protocol import MAX_MESSAGE_BYTES
from cardroom.web.app import ServerConfig, create_app


def serve(host: str, port: int, config: ServerConfig, log_level: str = "info") -> None:
    """Serve until interrupted. Frames far over the protocol's cap are refused by uvicorn."""
    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(message)s")
    uvicorn.run(create_app(config), host=host, port=port, log_level=log_level,
                ws_max_size=MAX_MESSAGE_BYTES * 64, ws_ping_interval=20, ws_ping_timeout=20,
                lifespan="on")
