"""The web layer: the ASGI app (:mod:`cardroom.web.app`), HTTP routes and the WebSocket
endpoint, and the uvicorn server around them (:mod:`cardroom.web.server`).

Nothing is imported here, so that the command line can read the HTTP limits
(:mod:`cardroom.web.http_limits`) without loading the app."""
