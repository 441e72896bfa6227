"""The web layer: the ASGI app, HTTP routes and the WebSocket endpoint."""

from cardroom.web.app import ServerConfig, create_app

__all__ = ["ServerConfig", "create_app"]
