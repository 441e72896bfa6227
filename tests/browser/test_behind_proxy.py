"""The deploy guide's shape, for real: the nginx configuration of deploy/nginx/cardroom.conf
ending TLS (a self-signed certificate) in front of two `cardroom serve` processes on one
PostgreSQL database and one Redis. A player plays a hand through it in Chromium over
``wss://``; the process holding the player's socket is killed in the middle of the hand, and
the proxy carries the player on to the other process, which finishes the hand."""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import ssl
import subprocess
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.browser.conftest import Player, screenshot
from tests.browser.test_table import act_until, play_out_hand, wait_until
from tests.conftest import SHARED_REDIS, SHARED_REDIS_URL

from cardroom.tools.processes import ask_health, free_port

REPO = Path(__file__).resolve().parents[2]
SITE = REPO / "deploy" / "nginx" / "cardroom.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
pytestmark = SHARED_REDIS


def replace_once(text: str, old: str, new: str) -> str:
    """``text`` with the one place ``old`` stands replaced (the shipped file's shape is
    checked as it is adapted: a changed file fails here rather than being tested half)."""
    assert text.count(old) == 1, f"deploy/nginx/cardroom.conf: expected {old!r} once"
    return text.replace(old, new)


def site_config(https_port: int, http_port: int, upstreams: list[int], certificate: Path,
                key: Path) -> str:
    """The shipped site configuration on this machine's free ports, with the test's
    certificate and the test's server processes in the upstream; every other line as
    shipped."""
    text = SITE.read_text()
    text = "\n".join(line for line in text.splitlines() if "[::]" not in line)
    text = replace_once(text, "listen 443 ssl http2;", f"listen 127.0.0.1:{https_port} ssl http2;")
    text = replace_once(text, "listen 80;", f"listen 127.0.0.1:{http_port};")
    shipped = re.findall(r"^\s*server 127\.0\.0\.1:\d+ .*$", text, re.MULTILINE)
    assert len(shipped) == 2, "the shipped upstream lists two processes"
    options = shipped[0].split(None, 2)[2]
    text = text.replace(shipped[1] + "\n", "")
    text = replace_once(text, shipped[0], "\n".join(
        f"    server 127.0.0.1:{port} {options}" for port in upstreams))
    text = replace_once(text, "/etc/letsencrypt/live/cardroom.example.org/fullchain.pem",
                        str(certificate))
    return replace_once(text, "/etc/letsencrypt/live/cardroom.example.org/privkey.pem",
                        str(key))


def main_config(folder: Path, site: Path) -> str:
    """A whole nginx configuration around the site, keeping every file in ``folder``."""
    temp = " ".join(f"{kind}_temp_path {folder / kind};"
                    for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    user = "user root;" if os.geteuid() == 0 else ""
    return (f"daemon off; worker_processes 1; pid {folder / 'nginx.pid'}; {user}\n"
            f"error_log {folder / 'error.log'} warn;\n"
            "events { worker_connections 256; }\n"
            f"http {{ access_log {folder / 'access.log'}; {temp}\n include {site}; }}\n")


def self_signed_certificate(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and its key, made by openssl for this test."""
    certificate, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(certificate)],
                   check=True, capture_output=True)
    return certificate, key


def trusting_tls() -> ssl.SSLContext:
    """A TLS client context that takes the test proxy's self-signed certificate."""
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    return context


def answers_over_tls(url: str) -> dict[str, Any] | None:
    """The health answer through the proxy, or ``None`` while it is not up."""
    try:
        with urllib.request.urlopen(url, timeout=2, context=trusting_tls()) as answer:
            return json.loads(answer.read())
    except (OSError, ValueError):
        return None


@pytest.fixture
def servers(shared_database, server_factory) -> list[Any]:
    """Two processes on one fresh PostgreSQL schema and the machine's Redis, trusting the
    proxy's forwarded addresses, as the deploy guide's settings do (stopped before the schema
    is dropped: fixtures end in reverse order)."""
    return [server_factory(shared_database, **{
        "redis-url": SHARED_REDIS_URL, "disconnect-grace": 60,
        "forwarded-allow-ips": "127.0.0.1", "bot-delay": 0.1, "log-level": "info"})
            for _ in range(2)]


@pytest.fixture
def proxy(servers, tmp_path: Path) -> Iterator[str]:
    """nginx with the shipped site configuration in front of ``servers``: its https
    address."""
    folder = tmp_path / "nginx"
    folder.mkdir()
    certificate, key = self_signed_certificate(folder)
    https_port, http_port = free_port(), free_port()
    site = folder / "cardroom.conf"
    site.write_text(site_config(https_port, http_port, [s.port for s in servers],
                                certificate, key))
    main = folder / "nginx.conf"
    main.write_text(main_config(folder, site))
    command = [NGINX, "-p", str(folder), "-c", str(main), "-e", str(folder / "error.log")]
    checked = subprocess.run([*command, "-t"], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"https://127.0.0.1:{https_port}"
    try:
        deadline = time.monotonic() + 20
        while answers_over_tls(f"{base}/api/health") is None:
            assert process.poll() is None, (folder / "error.log").read_text()
            assert time.monotonic() < deadline, "nginx never answered"
            time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)


def followers(server: Any) -> int:
    """Connections following a table on that process (0 if it does not answer)."""
    health = ask_health(server.url)
    return 0 if health is None else int(health["followers"])


def ask_from(address: str, url: str, headers: dict[str, str]) -> int:
    """The HTTP status of a GET through the proxy sent from the local ``address`` (another
    loopback address than the one the proxy and the servers talk on)."""
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPSConnection(parts.hostname, parts.port, timeout=5,
                                             context=trusting_tls(),
                                             source_address=(address, 0))
    try:
        connection.request("GET", f"{parts.path}?{parts.query}", headers=headers)
        return connection.getresponse().status
    finally:
        connection.close()


def test_the_proxy_names_the_client_and_a_client_cannot_name_itself(servers,
                                                                   proxy: str) -> None:
    """The processes see the address nginx saw (here 127.0.0.2), not their peer (nginx, on
    127.0.0.1) nor one the client wrote in its own X-Forwarded-For: the per-address limits
    count real addresses. The processes' health details are for this machine only."""
    spoof = {"X-Forwarded-For": "203.0.113.9"}
    for probe in range(4):  # round robin: both processes answer some
        assert ask_from("127.0.0.2", f"{proxy}/api/chat?probe={probe}", spoof) == 200
    logged = [line for server in servers
              for line in server.database.with_suffix(".log").read_text().splitlines()
              if "/api/chat?probe=" in line]
    assert len(logged) == 4 and all("127.0.0.2" in line for line in logged), logged
    assert not any("203.0.113.9" in line for line in logged)
    assert ask_from("127.0.0.2", f"{proxy}/api/health?from=outside", {}) == 403
    assert ask_from("127.0.0.2", f"{proxy}/metrics?from=outside", {}) == 404


def sockets_of(player: Player) -> list[str]:
    """The addresses of every WebSocket the player's page opens from now on."""
    opened: list[str] = []
    player.page.on("websocket", lambda socket: opened.append(socket.url))
    return opened


def test_a_hand_over_wss_through_nginx_survives_the_death_of_a_process(
        browser, servers, proxy: str) -> None:
    """Two partners and two bots; the process holding a socket is killed mid-hand."""
    players = [Player(browser, proxy, name, self_signed=True) for name in ("Nora", "Sam")]
    sockets = [sockets_of(player) for player in players]
    nora, sam = players
    try:
        for player in players:
            player.register()
        table = nora.create_table("online")
        sam.join(table, 2)
        nora.page.click("[data-testid=start-with-bots]")
        for player in players:
            expect(player.page.locator("[data-testid=hand] [data-card]")).to_have_count(10)
        opened = [url for urls in sockets for url in urls]
        assert opened and all(url.startswith("wss://127.0.0.1:") for url in opened), opened
        act_until(players, lambda: nora.phase() == "play" and len(nora.hand()) <= 8
                  and not (nora.my_turn() or sam.my_turn()))
        hands = [player.hand() for player in players]
        holding = [server for server in servers if followers(server)]
        assert holding, "the players' sockets are on the processes"
        before = [len(urls) for urls in sockets]
        holding[0].kill()
        # Playwright's events reach the test only while it calls Playwright: wait in a page.
        wait_until(lambda: nora.page.wait_for_timeout(50) or any(
            len(urls) > count for urls, count in zip(sockets, before, strict=True)),
                   what="a new socket through the proxy", seconds=30)
        for player, hand in zip(players, hands, strict=True):
            expect(player.page.locator("[data-testid=connection]")).to_contain_text(
                "online", timeout=30_000)
            assert player.hand() == hand or set(player.hand()) < set(hand)
        survivor = next(server for server in servers if server is not holding[0])
        wait_until(lambda: followers(survivor) == 2, what="both players on the other process")
        screenshot(nora.page, "proxy-after-failover")
        play_out_hand(players, opening_bid=None)
        for player in players:
            expect(player.page.locator("[data-testid=hand-result]")).to_be_visible()
        scores = [p.page.locator("[data-testid=scores]").inner_text() for p in players]
        assert scores[0] == scores[1]
        assert not any(player.errors for player in players)
    finally:
        for player in players:
            player.close()
