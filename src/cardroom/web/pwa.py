"""The installable web app: the service worker, served from the site's root so that its
scope is the whole site, and what it keeps for opening the page without the network.

The worker (``templates/sw.js``) is filled in here with the static client's files and a
version: a hash of every file under ``static/``, worked out once per process. A deploy that
changes any of them changes the version, so the browser installs the new worker, which
fetches the files afresh into a cache of that name and deletes the old one; processes of one
deploy agree on it. The worker serves those files from its cache and leaves everything else
(the socket, ``/api``, ``/rules``, ``/help``, profiles) to the network, never stored: a game's
state only ever comes from the server.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from cardroom.web.pages import render_text

STATIC = Path(__file__).parent / "static"
"""The browser client: ES modules, CSS, SVG and the app's icons, served as they are (no build
step) under ``/static``, and kept by the worker."""
PAGE = "/"
"""The client's page (``static/index.html``), kept under the address it is opened at."""


@cache
def static_files() -> tuple[str, ...]:
    """The addresses of the static client's files, in a steady order: the page first, then
    every file under ``static/`` (``index.html`` is the page itself)."""
    return (PAGE, *(f"/static/{path.relative_to(STATIC).as_posix()}"
                    for path in sorted(STATIC.rglob("*"))
                    if path.is_file() and path != STATIC / "index.html"))


@cache
def static_version() -> str:
    """A hash of every static file's address and bytes: a new one for each deploy that
    changes the client, the same in every process of one deploy."""
    digest = hashlib.sha256()
    for path in sorted(STATIC.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(STATIC).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@cache
def worker_script() -> str:
    """The service worker's script, with its version and the files to keep."""
    return render_text("sw.js", version=static_version(), files=list(static_files()))


async def service_worker(_request: Request) -> Response:
    """``GET /sw.js``: never taken from an HTTP cache (``no-cache``), so the browser sees a
    new deploy's worker at the next visit."""
    return Response(worker_script(), media_type="text/javascript",
                    headers={"Cache-Control": "no-cache"})


routes = [Route("/sw.js", service_worker)]
