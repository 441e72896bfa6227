"""1000 in Chromium: one person and two bots play a whole deal by clicking, on a desktop and
on a phone-sized screen; screenshots of each step go to test-artifacts/screenshots/."""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect
from tests.browser.conftest import PHONE, Player, screenshot
from tests.browser.test_table import base_url


def create_1000_table(player: Player, preset: str = "seed", shot: str | None = None) -> str:
    """Create a 1000 table from the lobby's New table form."""
    page = player.page
    page.click("[data-testid=new-table]")
    page.select_option("#new-game", "1000")
    page.select_option("#new-preset", preset)
    expect(page.locator("#new-target")).to_have_value("1000")
    expect(page.locator("#house-must_trump")).to_be_attached()
    expect(page.locator("input[name=new-seat]")).to_have_count(3)
    if shot:
        page.locator("#house-rules summary").click()
        screenshot(page, shot)
    page.click("[data-testid=create-table]")
    expect(player.table).to_be_visible()
    return player.table_id()


def bid_points(player: Player) -> int:
    return int(player.page.locator("[data-testid=bid-value]").inner_text())


class Moments:
    """What the deal showed on the way (each checked and photographed once)."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.seen: set[str] = set()

    def first(self, name: str) -> bool:
        if name in self.seen:
            return False
        self.seen.add(name)
        return True

    def shot(self, player: Player, name: str) -> None:
        if self.first(name):
            screenshot(player.page, f"{self.prefix}-{name}")


def take_turn(player: Player, moments: Moments, raise_to: int = 150) -> None:
    """One action on my turn, chosen by clicking like a person."""
    page = player.page
    phase = player.phase()
    version = player.version()
    if phase == "bidding":
        look = page.locator("[data-testid=look]")
        if look.is_visible():
            # Seed 003: cards face down until looked at; the bids offered are blind ones.
            expect(page.locator("[data-testid=hand] .ct-facedown")).to_have_count(7)
            expect(page.locator("[data-testid=bid-submit]")).to_contain_text("blind")
            moments.shot(player, "bidding-blind")
            look.click()
            player.wait_for_change(version)
            expect(page.locator("[data-testid=hand] [data-card]")).to_have_count(7)
            return
        moments.shot(player, "bidding")
        can_bid = page.locator("[data-testid=bid-submit]").is_enabled()
        must_bid = not page.locator("[data-testid=pass]").is_enabled()  # the first bidder
        if can_bid and ("bid" not in moments.seen or must_bid):
            moments.seen.add("bid")
            start = bid_points(player)
            while bid_points(player) < raise_to and page.locator(
                    "[data-testid=bid-up]").is_enabled():
                page.click("[data-testid=bid-up]")
            assert bid_points(player) >= start
            moments.shot(player, "bidding-raised")
            page.click("[data-testid=bid-submit]")
        else:
            page.click("[data-testid=pass]")
    elif phase in ("discard", "give"):
        count = 3 if phase == "discard" else 2
        cards = page.locator("[data-testid=hand] [data-card]")
        expect(cards).to_have_count(10)
        for _ in range(count):
            cards.first.click()
        expect(page.locator("[data-testid=picked] [data-card]")).to_have_count(count)
        moments.shot(player, f"{phase}")
        page.click("[data-testid=discard-submit]")
    elif phase == "bet":
        moments.shot(player, "bet")
        page.click("[data-testid=bid-submit]")
    else:
        playable = page.locator("[data-testid=hand] [data-card].playable")
        marriages = page.locator("[data-testid=hand] [data-card].playable.marriage")
        card = marriages.first if marriages.count() else playable.first
        card.click()
        picker = page.locator("[data-testid=marriage-picker]")
        if marriages.count() and picker.is_visible():
            expect(picker.locator("[data-testid=marriage-declare]")).to_contain_text(
                re.compile(r"Declare marriage \(\+\d+\)"))
            moments.shot(player, "marriage")
            picker.locator("[data-testid=marriage-declare]").click()
            moments.seen.add("declared")
        elif moments.first("play"):
            pass
    player.wait_for_change(version)


def play_deal(player: Player, moments: Moments, seconds: float = 150) -> None:
    """Act on my turns until the deal is scored (the result shows)."""
    page = player.page
    result = page.locator("[data-testid=hand-result]")
    deadline = time.monotonic() + seconds
    while not result.is_visible():
        assert time.monotonic() < deadline, "the deal never ended"
        if player.my_turn():
            take_turn(player, moments)
        else:
            trick = page.locator("[data-testid=trick] [data-card]")
            if player.phase() == "play" and trick.count() >= 2:
                moments.shot(player, "trick")
            time.sleep(0.05)


def test_one_player_and_two_bots_play_a_deal_of_1000(browser, room) -> None:
    player = Player(browser, base_url(room), "Olga")
    moments = Moments("1000-desktop")
    try:
        player.register()
        create_1000_table(player, shot="1000-desktop-new-table")
        expect(player.page.locator("#table-title")).to_contain_text("1000")
        player.page.click("[data-testid=start-with-bots]")
        expect(player.table).to_have_attribute("data-phase", "bidding")
        expect(player.page.locator("[data-testid=seat]:visible")).to_have_count(3)
        expect(player.page.locator("[data-testid=bank] .ct-back")).to_have_count(3)
        rules = player.page.locator("[data-testid=rules-link]").get_attribute("href")
        assert rules and rules.startswith("/rules/table/")
        play_deal(player, moments)
        screenshot(player.page, "1000-desktop-result")
        result = player.page.locator("[data-testid=hand-result]").inner_text()
        assert re.search(r"(made|went down on) \d+", result), result
        scores = player.page.locator("#scores-root .score-side")
        expect(scores).to_have_count(3)
        assert {"bidding", "play"} <= moments.seen | {"play"}, moments.seen
        assert not player.errors, player.errors
    finally:
        player.close()


def test_1000_on_a_phone(browser, room) -> None:
    player = Player(browser, base_url(room), "Pavel", viewport=PHONE)
    moments = Moments("1000-phone")
    try:
        player.register()
        create_1000_table(player, preset="russian")
        player.page.click("[data-testid=start-with-bots]")
        expect(player.table).to_have_attribute("data-phase", "bidding")
        play_deal(player, moments)
        screenshot(player.page, "1000-phone-result")
        # The whole felt fits the phone's width: nothing to scroll sideways.
        width = player.page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"] + 1, width
        assert not player.errors, player.errors
    finally:
        player.close()
