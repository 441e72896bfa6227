"""Whole hands of 500 played by clicking in Chromium, with several players at once."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any, cast

from playwright.sync_api import WebSocketRoute, expect
from tests.browser.conftest import PHONE, Player, screenshot

from cardroom.protocol import TablePatch, TableUpdate
from cardroom.table_patches import apply_table_patch

HAND_SECONDS = 120


def base_url(server) -> str:
    """The card room's home page."""
    return f"http://127.0.0.1:{server.port}/"


def wait_until(condition: Callable[[], bool], seconds: float = 30, what: str = "") -> None:
    """Poll until ``condition()`` holds."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what or condition}")


def result_shown(player: Player) -> bool:
    """The end-of-hand panel is on this player's screen."""
    return player.page.locator("[data-testid=hand-result]").is_visible()


def play_out_hand(players: list[Player], opening_bid: str | None = "6S",
                  on_turn: Callable[[Player], None] | None = None) -> None:
    """Everyone clicks on their turns until the hand is scored on the first player's screen.

    The first player to speak opens with ``opening_bid`` if it is enabled; everyone else
    passes, so the opener exchanges the kitty and the hand is played out to the score.
    """
    opened = opening_bid is None
    deadline = time.monotonic() + HAND_SECONDS
    while not result_shown(players[0]):
        assert time.monotonic() < deadline, "the hand did not finish"
        acted = False
        for player in players:
            if result_shown(player) or not player.my_turn():
                continue
            if on_turn is not None:
                on_turn(player)
                if not player.my_turn() or result_shown(player):
                    acted = True
                    continue
            bid = None
            if player.phase() == "bidding" and not opened:
                button = player.page.locator(f"[data-testid=bid-grid] [data-bid='{opening_bid}']")
                if button.count() and button.is_enabled():
                    bid, opened = opening_bid, True
            player.act(bid=bid)
            acted = True
        if not acted:
            time.sleep(0.05)


def test_four_players_bid_exchange_the_kitty_and_play_a_hand(browser, room) -> None:
    names = ["Shaun", "Alice", "Susan", "Bob"]
    players = [Player(browser, base_url(room), name) for name in names]
    try:
        for player in players:
            player.register()
        screenshot(players[0].page, "desktop-lobby-empty")
        table = players[0].create_table("online")
        screenshot(players[0].page, "desktop-waiting")
        for seat, player in enumerate(players[1:], start=1):
            player.join(table, seat)
        for player in players:
            expect(player.page.locator("[data-testid=hand] [data-card]")).to_have_count(10)
        screenshot(players[1].page, "desktop-bidding")
        kitty_seen = []

        def watch_kitty(player: Player) -> None:
            if player.phase() == "discard" and not kitty_seen:
                expect(player.page.locator("[data-testid=kitty] [data-card]")).to_have_count(5)
                kitty_seen.append(player.name)
                screenshot(player.page, "desktop-kitty")

        play_out_hand(players, on_turn=watch_kitty)
        assert kitty_seen, "the contractor never saw the kitty"
        for player in players:
            expect(player.page.locator("[data-testid=hand-result]")).to_be_visible()
        screenshot(players[0].page, "desktop-hand-result")
        texts = [p.page.locator("[data-testid=scores]").inner_text() for p in players]
        assert all(text == texts[0] for text in texts)
        assert not any(p.errors for p in players), [p.errors for p in players]
    finally:
        for player in players:
            player.close()


def test_one_player_and_three_bots_play_a_hand(browser, room) -> None:
    player = Player(browser, base_url(room), "Solo")
    try:
        player.register()
        player.create_table("australian")
        player.page.click("[data-testid=start-with-bots]")
        expect(player.page.locator("[data-testid=hand] [data-card]")).to_have_count(10)
        play_out_hand([player], opening_bid=None)
        expect(player.page.locator("[data-testid=hand-result]")).to_be_visible()
        assert player.page.locator("[data-testid=seat]").count() >= 3
        assert not player.errors, player.errors
    finally:
        player.close()


def start_solo_game(browser, room, name: str, viewport=None) -> Player:
    """A player alone with three bots, at a running table."""
    player = Player(browser, base_url(room), name, viewport)
    player.register()
    player.create_table("online")
    player.page.click("[data-testid=start-with-bots]")
    expect(player.page.locator("[data-testid=hand] [data-card]")).to_have_count(10)
    return player


def play_until(player: Player, condition: Callable[[], bool], seconds: float = 90) -> None:
    """Act on my turns (passing in the bidding) until ``condition()``."""
    act_until([player], condition, seconds)


def act_until(players: list[Player], condition: Callable[[], bool],
              seconds: float = 90) -> None:
    """Everyone acts on their turns (passing in the bidding) until ``condition()``."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "never reached the wanted moment"
        waiting = [player for player in players if player.my_turn()]
        for player in waiting:
            player.act()
        if not waiting:
            time.sleep(0.05)


def trick_cards(player: Player) -> list[str]:
    """The cards in the middle of the table."""
    return player.page.locator("[data-testid=trick] [data-card]").evaluate_all(
        "nodes => nodes.map(n => n.dataset.card)")


def settled_trick(player: Player, quiet: float = 1.6) -> list[str]:
    """The trick on show once no animation changes it (a finished trick is held, then swept,
    in about a second) for ``quiet`` seconds."""
    shown, since = trick_cards(player), time.monotonic()
    while time.monotonic() - since < quiet:
        time.sleep(0.1)
        now = trick_cards(player)
        if now != shown:
            shown, since = now, time.monotonic()
    return shown


def test_refresh_mid_trick_brings_back_the_same_seat_and_view(browser, room) -> None:
    player = start_solo_game(browser, room, "Refresher")
    try:
        play_until(player, lambda: player.phase() == "play" and len(trick_cards(player)) >= 1
                   and player.my_turn())
        seat, hand, trick = player.seat(), player.hand(), settled_trick(player)
        player.page.reload()
        expect(player.page.locator("[data-testid=table]")).to_be_visible()
        wait_until(lambda: player.hand() == hand, what="the same hand after a refresh")
        assert player.seat() == seat
        assert settled_trick(player) == trick
        assert player.my_turn()
        player.play_first_playable()
    finally:
        player.close()


def test_network_offline_and_back_keeps_the_seat(browser, room) -> None:
    player = start_solo_game(browser, room, "Offline")
    try:
        seat, hand = player.seat(), player.hand()
        connection = player.page.locator("[data-testid=connection]")
        player.context.set_offline(True)
        expect(connection).to_contain_text("Offline: waiting for the network")
        expect(player.page.locator("[data-testid=offline]")).to_be_visible()
        screenshot(player.page, "desktop-reconnecting")
        player.context.set_offline(False)
        expect(connection).to_contain_text("online", timeout=20_000)
        expect(connection).not_to_contain_text("offline", ignore_case=True)
        expect(player.page.locator("[data-testid=offline]")).to_be_hidden()
        assert player.seat() == seat
        wait_until(lambda: set(player.hand()) <= set(hand) and player.hand() != [],
                   what="the same hand after the network returned")
        play_until(player, lambda: len(player.hand()) < len(hand))
    finally:
        player.close()


class LosingRelay:
    """Stands between the page and the server, passing every message on but one table patch
    after the first few: one that leaves the table waiting for a bot (so another follows,
    which no longer fits what the page holds, as when a message is lost between the
    server's processes). Keeps the types of what the page sent after the loss."""

    def __init__(self) -> None:
        self.held: dict[str, Any] | None = None
        self.patches = 0
        self.lost: dict[str, Any] | None = None
        self.sent_after_loss: list[str] = []

    def __call__(self, page_side: WebSocketRoute) -> None:
        server_side = page_side.connect_to_server()
        server_side.on_message(lambda message: self._from_server(page_side, message))
        page_side.on_message(lambda message: self._from_page(server_side, message))

    def _from_server(self, page_side: WebSocketRoute, message: str | bytes) -> None:
        data = json.loads(message)
        if data["type"] == "table":
            self.held = data
        elif data["type"] == "table_patch" and self.lost is None:
            merged = apply_table_patch(cast("TableUpdate | None", self.held),
                                       cast("TablePatch", data))
            self.held = cast("dict[str, Any] | None", merged)
            self.patches += 1
            whole = cast("dict[str, Any]", merged or {})
            to_act = (whole.get("view") or {}).get("to_act")
            if self.patches > 5 and to_act not in (None, whole.get("seat")):
                self.lost = data
                return
        page_side.send(message)

    def _from_page(self, server_side: WebSocketRoute, message: str | bytes) -> None:
        if self.lost is not None:
            self.sent_after_loss.append(json.loads(message)["type"])
        server_side.send(message)


def test_a_table_change_lost_on_the_way_is_made_whole_again(browser, room) -> None:
    """Each change comes as a patch of the message before it; when one is lost, the page opens
    the table again for a whole message and plays the hand on."""
    player = Player(browser, base_url(room), "Patchy")
    relay = LosingRelay()
    player.context.route_web_socket(re.compile(r"/ws"), relay)
    try:
        player.register()
        player.create_table("online")
        player.page.click("[data-testid=start-with-bots]")
        expect(player.page.locator("[data-testid=hand] [data-card]")).to_have_count(10)
        for wanted, what in ((lambda: relay.lost is not None, "a patch to lose"),
                             (lambda: "open" in relay.sent_after_loss, "the table opened")):
            deadline = time.monotonic() + 60
            while not wanted():  # (the relay's handlers run while Playwright is called)
                assert time.monotonic() < deadline, f"timed out waiting for {what}"
                if relay.lost is None and player.my_turn():
                    player.act()
                else:
                    player.page.wait_for_timeout(50)
        play_out_hand([player], opening_bid=None)
        expect(player.page.locator("[data-testid=hand-result]")).to_be_visible()
        assert not player.errors, player.errors
    finally:
        player.close()


def test_illegal_card_is_explained_and_crossed_out_bids_cannot_be_clicked(browser, room) -> None:
    player = start_solo_game(browser, room, "Learner")
    try:
        checked = {"crossed": False, "illegal": False}

        def check(p: Player) -> None:
            page = p.page
            if p.phase() == "bidding" and not checked["crossed"]:
                crossed = page.locator("[data-testid=bid-grid] [data-bid].crossed")
                if crossed.count():
                    first = crossed.first
                    expect(first).to_be_disabled()
                    assert first.get_attribute("title")  # the point value on hover
                    first.click(force=True)
                    assert p.my_turn() and p.phase() == "bidding"
                    screenshot(page, "desktop-bidding-crossed")
                    checked["crossed"] = True
            elif p.phase() == "play" and not checked["illegal"]:
                dimmed = page.locator("[data-testid=hand] [data-card].dimmed")
                if dimmed.count():
                    dimmed.first.click()
                    notice = page.locator("[data-testid=notice]")
                    expect(notice).to_be_visible()
                    # The server's reason: must follow suit, or (in a no-tricks hand) the joker.
                    expect(notice).to_contain_text(re.compile("follow|joker", re.IGNORECASE))
                    screenshot(page, "desktop-illegal-card")
                    checked["illegal"] = True
                    assert p.my_turn()

        deadline = time.monotonic() + 240
        while not all(checked.values()):
            assert time.monotonic() < deadline, f"not seen in time: {checked}"
            play_out_hand([player], opening_bid=None, on_turn=check)
            wait_until(lambda: not result_shown(player) or player.my_turn(), 20,
                       "the next hand")
    finally:
        player.close()


def test_phone_sized_screens(browser, room) -> None:
    player = Player(browser, base_url(room), "Pocket", PHONE)
    try:
        player.page.goto(base_url(room))
        screenshot(player.page, "phone-name-entry")
        player.page.fill("#name-input", player.name)
        player.page.click("#name-submit")
        expect(player.page.locator("[data-testid=lobby]")).to_be_visible()
        screenshot(player.page, "phone-lobby")
        player.create_table("online")
        screenshot(player.page, "phone-waiting")
        player.page.click("[data-testid=start-with-bots]")
        expect(player.page.locator("[data-testid=hand] [data-card]")).to_have_count(10)
        play_until(player, lambda: player.phase() == "bidding" and player.my_turn())
        screenshot(player.page, "phone-bidding")
        play_until(player, lambda: player.phase() == "play" and len(trick_cards(player)) >= 2)
        screenshot(player.page, "phone-play")
        width = player.page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], "the table must fit a phone without side scrolling"
        for card in player.page.locator("[data-testid=hand] [data-card]").all():
            assert card.get_attribute("aria-label")
    finally:
        player.close()
