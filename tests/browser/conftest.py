"""Real browsers (Debian's Chromium through Playwright) playing at a real card room server.

Each :class:`Player` is its own browser context (its own storage, so its own token), driven
only through what a person sees and clicks: the selectors of docs/browser-client.md.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, expect, sync_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-dev-shm-usage"]
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
STEP_TIMEOUT = 15_000


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One Chromium per test module; every player gets a fresh context in it.

    Not per session: Playwright's sync API keeps an event loop running while it is open,
    which would stop the asyncio tests that run after the browser tests.
    """
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="session", autouse=True)
def compiled_solver() -> None:
    """Compile 500's search kernel (numba) once, before any server starts.

    The kernel is compiled on its first search in a process and cached on disk
    (``njit(cache=True)``); a change to the solver's source makes the cache stale. On a cold
    cache the first search a server's bot worker makes (the first hint of a card, or a search
    bot's first card) compiles for about 8 s of one core, whichever test happens to ask
    first: ``test_hints`` run first timed out waiting 5 s for its hinted card. Searching one
    position here writes the cache the servers' workers then load (under 1 s when warm).
    """
    from cardroom.bots.warm import compile_search

    compile_search()


@pytest.fixture
def room(server_factory):
    """A card room whose bots pause a little, as at a real table."""
    return server_factory(**{"bot-delay": 0.2, "next-match-delay": 1})


def screenshot(page: Page, name: str) -> None:
    """Save what the player sees as a test artifact (test-artifacts/screenshots/NAME.png)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


class Player:
    """One person at one browser."""

    def __init__(self, browser: Browser, base_url: str, name: str,
                 viewport: dict[str, int] | None = None, installable: bool = False,
                 self_signed: bool = False) -> None:
        """``installable``: let the page install its service worker. Only the installable
        app's tests want it: precaching the whole client made the other browser tests about a
        quarter slower. ``self_signed``: trust the test proxy's self-signed certificate."""
        self.name = name
        self.base_url = base_url
        self.context = browser.new_context(viewport=viewport or DESKTOP,
                                           service_workers="allow" if installable else "block",
                                           ignore_https_errors=self_signed)
        self.context.set_default_timeout(STEP_TIMEOUT)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.context.on("console", self._on_console)

    def _on_console(self, message: ConsoleMessage) -> None:
        """Count what the Content-Security-Policy blocked as an error: the page goes on
        without it, and Chromium says so on the console only."""
        if "Content Security Policy" in message.text:
            self.errors.append(message.text)

    def register(self) -> None:
        """Open the site and enter a name (seed 004 section 1)."""
        self.page.goto(self.base_url)
        self.page.fill("#name-input", self.name)
        self.page.click("#name-submit")
        expect(self.page.locator("[data-testid=lobby]")).to_be_visible()

    def create_table(self, preset: str = "online") -> str:
        """Create a table from the lobby; returns its id once the table screen shows."""
        self.page.click("[data-testid=new-table]")
        self.page.select_option("#new-preset", preset)
        self.page.click("[data-testid=create-table]")
        table = self.page.locator("[data-testid=table]")
        expect(table).to_be_visible()
        return self.table_id()

    def table_id(self) -> str:
        """The table this page shows (kept in the URL so a refresh returns to it)."""
        self.page.wait_for_function("location.hash.includes('table=')")
        return self.page.evaluate("new URLSearchParams(location.hash.slice(1)).get('table')")

    def join(self, table_id: str, seat: int) -> None:
        """Take a seat from the lobby's "Play here" button."""
        row = self.page.locator(f"[data-table-id='{table_id}']")
        row.locator(f"[data-testid=play-here][data-seat='{seat}']").click()
        expect(self.page.locator("[data-testid=table]")).to_be_visible()

    @property
    def table(self):
        """The table element."""
        return self.page.locator("[data-testid=table]")

    def seat(self) -> int:
        """My seat number."""
        return int(self.table.get_attribute("data-seat"))

    def my_turn(self) -> bool:
        """It is my turn to act."""
        to_act = self.table.get_attribute("data-to-act")
        return to_act not in (None, "") and to_act == self.table.get_attribute("data-seat")

    def phase(self) -> str:
        """The phase the table shows."""
        return self.table.get_attribute("data-phase") or ""

    def hand(self) -> list[str]:
        """The cards of my hand, as shown."""
        return self.page.locator("[data-testid=hand] [data-card]").evaluate_all(
            "nodes => nodes.map(n => n.dataset.card)")

    def version(self) -> str:
        """The version of the table state on screen."""
        return self.table.get_attribute("data-version") or ""

    def wait_for_change(self, version: str) -> None:
        """Wait until the screen shows a newer table state than ``version``."""
        self.page.wait_for_function(
            "v => document.querySelector('[data-testid=table]').dataset.version !== v",
            arg=version)

    def act(self, bid: str | None = None) -> None:
        """Do one sensible thing on my turn by clicking, as a person would, and wait until the
        screen shows its outcome (acting again on the old screen would be acting twice)."""
        version = self.version()
        self._act(bid)
        self.wait_for_change(version)

    def _act(self, bid: str | None) -> None:
        phase = self.phase()
        if phase == "bidding":
            if bid is not None:
                self.page.click(f"[data-testid=bid-grid] [data-bid='{bid}']")
                self.page.click("[data-testid=bid-submit]")
            else:
                self.page.click("[data-testid=pass]")
        elif phase in ("discard", "partner_discard"):
            self.page.click("[data-testid=discard-submit]")
        elif phase == "give":
            self.page.locator("[data-testid=hand] [data-card].playable").first.click()
        elif phase == "call":
            self.page.locator("[data-testid=call-grid] [data-card]:enabled").first.click()
            self.page.click("[data-testid=call-submit]")
        elif phase == "joker":
            self.page.click("[data-testid=nominate-pass]")
        else:
            self.play_first_playable()

    def play_first_playable(self) -> str:
        """Click the first playable card (naming a suit if it is the joker led in NT)."""
        card = self.page.locator("[data-testid=hand] [data-card].playable").first
        text = card.get_attribute("data-card")
        card.click()
        picker = self.page.locator("[data-testid=joker-picker]")
        if text == "JK" and picker.is_visible():
            picker.locator("[data-testid=joker-suit]").first.click()
            picker.locator("[data-testid=joker-confirm]").click()
        return text

    def close(self) -> None:
        """Close this player's browser context."""
        self.context.close()

    def __enter__(self) -> Player:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


def table_message(view: dict[str, Any], seat: int, names: list[str],
                  game: str = "500") -> dict[str, Any]:
    """A ``table`` message around an engine's ``view`` (docs/protocol.md), the viewer in
    ``seat`` and everybody seated by name."""
    seats = [{"seat": n, "name": name, "bot": None, "connected": True, "away": False}
             for n, name in enumerate(names)]
    return {"type": "table", "table_id": "t1", "game": game, "version": 1, "seat": seat,
            "status": "playing", "seats": seats, "match_number": 1, "creator": None,
            "view": view, "events": [], "clock": None, "matches": []}


def show_table(page: Page, message: dict[str, Any]) -> None:
    """Draw ``message`` alone on the app's own page (its styles apply), with the view the
    registration (static/js/table_games.js) gives its game, as app.js would build it; the
    actions it sends collect in ``window.sent``."""
    page.evaluate("""async (message) => {
        const { TABLE_MODULES } = await import('/static/js/table_games.js');
        const [path, exported] = TABLE_MODULES[message.game];
        const module = await import(new URL(path, location.origin + '/static/js/'));
        const root = document.createElement('div');
        root.style.height = '100vh';
        document.body.replaceChildren(root);
        window.sent = [];
        const ctx = { send: async (action) => { window.sent.push(action); return {}; },
                      me: { player_id: 'p', name: 'Me' }, options: {},
                      rulesLink: '/rules/table/t1', onLeave() {} };
        window.view = new module[exported](root, ctx);
        window.view.update(message);
    }""", message)
