"""The card room as an installable app in Chromium: a valid manifest linked from every page,
a service worker that takes the page over and serves the static client from its cache, and,
with the network gone, a page that still opens and says plainly that it is offline (while
the game's state, the API and the server's pages are never served from a cache)."""

from __future__ import annotations

import re
import struct
from urllib.parse import urljoin

from playwright.sync_api import Response, expect
from tests.browser.conftest import PHONE, Player, screenshot
from tests.browser.test_table import base_url

from cardroom.web.pwa import STATIC, static_files, static_version

PALETTE = (re.compile(r"--[\w-]+:\s*(#[0-9a-f]{6})")
           .findall((STATIC / "css" / "base.css").read_text()))
"""The colours the site's stylesheet defines."""


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its header."""
    assert data.startswith(b"\x89PNG\r\n\x1a\n"), "not a PNG"
    return struct.unpack(">II", data[16:24])


def check_manifest(player: Player, page_url: str) -> None:
    """The page at ``page_url`` links the manifest, and the manifest is one a phone installs:
    names, standalone display, start URL and scope, the palette's colours, PNG icons of 192
    and 512 pixels and the SVG, each served as what it says it is."""
    page = player.page
    page.goto(page_url)
    href = page.locator("link[rel=manifest]").get_attribute("href")
    assert href is not None
    answer = page.request.get(urljoin(page_url, href))
    assert answer.ok
    assert answer.headers["content-type"].startswith("application/manifest+json")
    manifest = answer.json()
    assert manifest["name"].startswith("cardroom") and manifest["short_name"] == "cardroom"
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["theme_color"] in PALETTE and manifest["background_color"] in PALETTE
    theme = page.locator("meta[name=theme-color]").get_attribute("content")
    assert theme == manifest["theme_color"]
    sizes = {}
    for icon in manifest["icons"]:
        fetched = page.request.get(urljoin(page_url, icon["src"]))
        assert fetched.ok, icon["src"]
        assert fetched.headers["content-type"].startswith(icon["type"])
        if icon["type"] == "image/png":
            width, height = png_size(fetched.body())
            assert icon["sizes"] == f"{width}x{height}"
        sizes[icon["sizes"]] = icon["type"]
    assert sizes == {"192x192": "image/png", "512x512": "image/png", "any": "image/svg+xml"}


def test_the_manifest_is_linked_from_the_room_and_the_server_pages(browser, room) -> None:
    with Player(browser, base_url(room), "Installer", PHONE, installable=True) as player:
        for path in ("", "rules", "help"):
            check_manifest(player, base_url(room) + path)
        assert not player.errors


def test_the_worker_keeps_the_client_and_the_page_opens_offline(browser, room) -> None:
    with Player(browser, base_url(room), "Commuter", PHONE, installable=True) as player:
        page = player.page
        player.register()
        scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
        assert scope == base_url(room)
        # A reload: the worker now controls the page, and the static client comes from its
        # cache, a cache named after the client's version, holding every static file.
        answers: list[Response] = []
        page.on("response", lambda answer: answers.append(answer))
        page.reload()
        expect(page.locator("[data-testid=lobby]")).to_be_visible()
        assert page.evaluate("Boolean(navigator.serviceWorker.controller)")
        assert page.evaluate("caches.keys()") == [f"cardroom-static-{static_version()}"]
        kept = page.evaluate("caches.open('cardroom-static-' + "
                             f"'{static_version()}').then(c => c.keys())"
                             ".then(keys => keys.map(k => new URL(k.url).pathname))")
        assert sorted(kept) == sorted(static_files())
        statics = [a for a in answers if "/static/" in a.url or a.url == base_url(room)]
        assert len(statics) >= 10
        assert all(a.from_service_worker for a in statics), \
            [a.url for a in statics if not a.from_service_worker]
        # What the server says now never comes from the worker.
        with page.expect_response("**/api/chat") as asked:
            page.evaluate("fetch('/api/chat')")
        assert not asked.value.from_service_worker

        # The network goes: the page says so at once, and a reload still draws it.
        player.context.set_offline(True)
        notice = page.locator("[data-testid=offline]")
        expect(notice).to_be_visible()
        page.reload()
        expect(page.locator(".site-header")).to_be_visible()
        expect(notice).to_be_visible()
        expect(notice).to_contain_text("Offline: waiting for the network")
        expect(page.locator("[data-testid=connection]")).to_contain_text(
            "Offline: waiting for the network")
        assert page.locator(".offline-notice").evaluate(
            "n => getComputedStyle(n).position") == "sticky"
        screenshot(page, "phone-offline")
        for address in ("/api/chat", "/rules", "/help"):  # not kept: no stale answer
            assert page.evaluate(f"fetch('{address}').then(() => 'answered', () => 'failed')") \
                == "failed", address

        # Back online: the page connects by itself and the notice goes.
        player.context.set_offline(False)
        expect(page.locator("[data-testid=connection]")).to_contain_text("online",
                                                                          timeout=20_000)
        expect(notice).to_be_hidden()
        expect(page.locator("[data-testid=lobby]")).to_be_visible()
        assert not player.errors
