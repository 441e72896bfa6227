"""Security at the web edge: headers on every HTTP response, and the WebSocket's Origin check.

The headers are checked on the whole app in process (every route, static files, 404s, a 500);
the Origin check through real handshakes with a `cardroom serve` subprocess.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.testclient import TestClient
from typer.testing import CliRunner
from websockets.exceptions import InvalidStatus

from cardroom.cli import app as cli_app
from cardroom.tools.client import Client
from cardroom.web import security
from cardroom.web.app import STATIC, ServerConfig, create_app
from cardroom.web.security import SECURITY_HEADERS, origin_allowed, parse_allowed_origins

# -- headers ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def app_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The whole app, its room started on a SQLite file of its own; one extra route fails."""
    database = tmp_path_factory.mktemp("headers") / "room.sqlite3"
    app = create_app(ServerConfig(database_url=f"sqlite:///{database}"))

    async def boom(_request: Request) -> Response:
        raise RuntimeError("a bug in a handler")

    app.router.routes.append(Route("/test-only/boom", boom))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def assert_secured(response: Any) -> None:
    """The response carries every security header, with our values."""
    where = f"{response.request.method} {response.request.url} ({response.status_code})"
    for name, value in SECURITY_HEADERS.items():
        assert response.headers.get(name) == value, f"{name} missing on {where}"


def route_paths() -> list[str]:
    """A path for every HTTP route of the app (path parameters filled with a sample), so a
    route added later is checked without changing this test."""
    paths = []
    for route in create_app().routes:
        if isinstance(route, Route):
            paths.append(re.sub(r"\{[^}]+\}", "classic", route.path))
    return paths


def test_every_route_is_covered() -> None:
    paths = route_paths()
    assert {"/", "/api/lobby", "/api/rules", "/api/health", "/rules", "/help"} <= set(paths)


@pytest.mark.parametrize("path", route_paths())
def test_every_route_has_the_security_headers(app_client: TestClient, path: str) -> None:
    response = app_client.get(path, follow_redirects=False)
    assert response.status_code < 500, path
    assert_secured(response)


@pytest.mark.parametrize("path", [
    "/static/js/app.js", "/static/js/rules_page.js", "/static/css/base.css",
    "/static/css/pages.css", "/static/index.html",
])
def test_static_files_have_the_security_headers(app_client: TestClient, path: str) -> None:
    response = app_client.get(path)
    assert response.status_code == 200
    assert_secured(response)


@pytest.mark.parametrize(("method", "path", "status"), [
    ("GET", "/no/such/page", 404),
    ("GET", "/static/js/no-such-file.js", 404),
    ("GET", "/api/rules?game=nope", 404),
    ("GET", "/rules/table/no-such-table", 404),
    ("GET", "/rules/no-such-preset", 404),
    ("POST", "/api/lobby", 405),
    ("GET", "/ws", 404),  # the WebSocket route answers no plain HTTP request
    ("GET", "/test-only/boom", 500),
    ("HEAD", "/", 200),
])
def test_errors_have_the_security_headers(app_client: TestClient, method: str, path: str,
                                          status: int) -> None:
    response = app_client.request(method, path)
    assert response.status_code == status
    assert_secured(response)


def test_the_policy_forbids_inline_script_and_framing() -> None:
    policy = dict(part.strip().split(" ", 1) for part in
                  SECURITY_HEADERS["Content-Security-Policy"].split(";"))
    assert policy["script-src"] == "'self'"
    assert policy["style-src"] == "'self'"
    assert policy["connect-src"] == "'self'"
    assert policy["frame-ancestors"] == "'none'"
    assert policy["base-uri"] == "'none'"
    assert policy["object-src"] == "'none'"
    assert "unsafe" not in SECURITY_HEADERS["Content-Security-Policy"]


def test_a_header_a_route_sets_itself_is_kept() -> None:
    headers = security.with_security_headers([(b"x-frame-options", b"SAMEORIGIN")])
    assert headers.count((b"x-frame-options", b"SAMEORIGIN")) == 1
    assert not any(name == b"x-frame-options" and value == b"DENY" for name, value in headers)
    assert (b"x-content-type-options", b"nosniff") in headers


INLINE_CODE = re.compile(r"<script(?![^>]*\ssrc=)[^>]*>|\son[a-z]+\s*=|javascript:|\sstyle\s*=|"
                         r"<style", re.I)


@pytest.mark.parametrize("path", ["/", "/rules", "/rules/classic", "/rules/1000/seed",
                                  "/help", "/rules/no-such-preset"])
def test_pages_have_no_inline_code(app_client: TestClient, path: str) -> None:
    """What the policy would block: inline scripts, handlers, styles."""
    html = app_client.get(path).text
    assert not INLINE_CODE.search(html), INLINE_CODE.search(html)


def test_scripts_write_no_style_attributes() -> None:
    """Markup built by the browser client must not carry style attributes either (the CSSOM,
    ``element.style``, is allowed)."""
    for script in (STATIC / "js").glob("*.js"):
        text = script.read_text()
        assert not re.search(r"""\sstyle=["'$]""", text), script.name
        assert "setAttribute(\"style\"" not in text and "cssText" not in text, script.name


# -- the WebSocket's Origin --------------------------------------------------------------------


def headers_of(**values: str) -> Any:
    from starlette.datastructures import Headers

    return Headers(values)


@pytest.mark.parametrize(("origin", "host", "allowed", "accepted"), [
    (None, "127.0.0.1:8500", (), True),
    ("http://127.0.0.1:8500", "127.0.0.1:8500", (), True),
    ("http://LOCALHOST:8500", "localhost:8500", (), True),
    ("https://cards.example.org", "cards.example.org", (), True),  # default port, TLS proxy
    ("http://cards.example.org", "cards.example.org", (), True),
    ("https://cards.example.org:443", "cards.example.org", (), True),
    ("http://[::1]:8500", "[::1]:8500", (), True),
    ("http://127.0.0.1:8501", "127.0.0.1:8500", (), False),
    ("https://evil.example", "cards.example.org", (), False),
    ("https://cards.example.org.evil.example", "cards.example.org", (), False),
    ("https://cards.example.org:8443", "cards.example.org", (), False),
    ("null", "127.0.0.1:8500", (), False),
    ("", "127.0.0.1:8500", (), False),
    ("http://127.0.0.1:99999", "127.0.0.1:99999", (), False),
    ("http://127.0.0.1:8500", "", (), False),
    ("https://evil.example", "cards.example.org", ("https://evil.example",), True),
    ("https://evil.example:443", "x", ("https://evil.example",), True),
    ("http://evil.example", "x", ("https://evil.example",), False),
    ("null", "x", ("*",), True),
])
def test_origin_rules(origin: str | None, host: str, allowed: tuple[str, ...],
                      accepted: bool) -> None:
    values = {"host": host} if origin is None else {"host": host, "origin": origin}
    assert origin_allowed(headers_of(**values), allowed) is accepted


def test_allowed_origins_are_parsed_and_checked() -> None:
    assert parse_allowed_origins(["https://a.example, https://b.example:8443", "*", ""]) == (
        "https://a.example", "https://b.example:8443", "*")
    for bad in ("a.example", "https://a.example/path", "https://u@a.example", "ftp:"):
        with pytest.raises(ValueError, match="not an origin"):
            parse_allowed_origins([bad])


def test_serve_takes_allowed_origins_from_options_and_environment(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    seen: list[ServerConfig] = []
    monkeypatch.setattr("cardroom.web.server.serve",
                        lambda host, port, config, *_: seen.append(config))
    runner = CliRunner()
    database = ["--database-url", f"sqlite:///{tmp_path / 'room.sqlite3'}"]
    result = runner.invoke(cli_app, ["serve", *database, "--allowed-origin", "https://a.example",
                                     "--allowed-origin", "https://b.example"])
    assert result.exit_code == 0, result.output
    assert seen.pop().allowed_origins == ("https://a.example", "https://b.example")
    result = runner.invoke(cli_app, ["serve", *database],
                           env={"CARDROOM_ALLOWED_ORIGINS": "https://c.example,https://d.example"})
    assert result.exit_code == 0, result.output
    assert seen.pop().allowed_origins == ("https://c.example", "https://d.example")
    result = runner.invoke(cli_app, ["serve", *database], env={"CARDROOM_ALLOWED_ORIGINS": ""})
    assert seen.pop().allowed_origins == ()
    result = runner.invoke(cli_app, ["serve", *database, "--allowed-origin", "evil.example"])
    assert result.exit_code == 1
    assert "not an origin" in result.output
    assert not seen


async def handshake(url: str, origin: str | None) -> int:
    """The HTTP status of a WebSocket handshake (101 when accepted), then a ping's answer."""
    try:
        async with websockets.connect(url, origin=origin) as socket:  # type: ignore[arg-type]
            await socket.send('{"type": "ping", "seq": 1}')
            answer = await socket.recv()
            assert '"ack"' in str(answer)
            return 101
    except InvalidStatus as refused:
        return refused.response.status_code


async def test_a_cross_site_page_cannot_open_the_socket(server) -> None:
    own = f"http://127.0.0.1:{server.port}"
    assert await handshake(server.url, None) == 101
    assert await handshake(server.url, own) == 101
    assert await handshake(server.url, "https://evil.example") == 403
    assert await handshake(server.url, f"http://127.0.0.1:{server.port + 1}") == 403
    assert await handshake(server.url, f"http://localhost:{server.port}") == 403
    assert await handshake(server.url, "null") == 403
    async with Client(server.url) as client:  # the Python client sends no Origin
        await client.request("ping")


async def test_allowed_origins_may_open_the_socket(server_factory) -> None:
    server = server_factory(**{"allowed-origin": "https://cards.example.org"})
    assert await handshake(server.url, "https://cards.example.org") == 101
    assert await handshake(server.url, f"http://127.0.0.1:{server.port}") == 101
    assert await handshake(server.url, "https://evil.example") == 403
    anyone = server_factory(**{"allowed-origin": "*"})
    assert await handshake(anyone.url, "https://evil.example") == 101
