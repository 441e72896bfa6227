"""The card room audited by axe-core (tests/browser/axe.py) at a desktop's size and a
phone's: every screen a player meets, from the name entry to a replay, and 500's and 1000's
tables in each phase. No serious or critical violation of WCAG 2.1 AA or axe's best
practices is allowed anywhere."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from tests.browser.axe import audit, describe
from tests.browser.conftest import DESKTOP, PHONE, Player, screenshot, show_table, table_message
from tests.browser.test_screens import joker_lead_view, showcase_deal
from tests.browser.test_table import base_url, play_until, trick_cards
from tests.browser.test_thousand import create_1000_table

SIZES = [("desktop", DESKTOP), ("phone", PHONE)]


class Audit:
    """Collects each screen's violations, so one run lists them all."""

    def __init__(self, size: str) -> None:
        self.size = size
        self.problems: list[str] = []
        self.screens: list[str] = []

    def check(self, page: Page, where: str) -> None:
        self.screens.append(where)
        violations = audit(page)
        if violations:
            self.problems.append(f"[{self.size}] {where}\n{describe(violations)}")

    def assert_clean(self) -> None:
        assert not self.problems, "\n\n".join(self.problems)


def kitty_view() -> dict:
    """A real view (from the engine) where seat 0 exchanges with the kitty after bidding 7♥."""
    game = showcase_deal(dealer=3)
    for action in ("bid 7H", "pass", "pass", "pass"):
        game.apply(action)
    view = game.view(0)
    assert view["phase"] == "discard"
    return view


def open_panel(page: Page) -> None:
    """Show the scores, chat and options (a phone opens the side panel; a desktop shows it)."""
    if page.locator("#scores-toggle").is_visible():
        page.click("#scores-toggle")
    expect(page.locator("#side-panel")).to_be_visible()


@pytest.mark.parametrize(("size", "viewport"), SIZES)
def test_every_screen_passes_the_audit(browser, room, size, viewport) -> None:
    found = Audit(size)
    player = Player(browser, base_url(room), f"Audit {size}", viewport)
    try:
        page = player.page
        page.goto(base_url(room))
        expect(page.locator("#name-input")).to_be_visible()
        found.check(page, "name entry")
        page.fill("#name-input", player.name)
        page.click("#name-submit")
        expect(page.locator("[data-testid=lobby]")).to_be_visible()
        found.check(page, "lobby")
        page.click("[data-testid=my-profile-link]")
        expect(page.locator("[data-testid=profile]")).to_be_visible()
        found.check(page, "my profile")
        page.locator("[data-testid=leaderboard-link][data-game='500']:visible").first.click()
        expect(page.locator("[data-testid=leaderboard]")).to_be_visible()
        found.check(page, "500's leaderboard")
        page.locator("[data-testid=to-lobby]:visible").first.click()
        page.click("[data-testid=challenge-link]")
        expect(page.locator("[data-testid=challenge]")).to_be_visible()
        found.check(page, "the daily challenge")
        page.locator("[data-testid=to-lobby]:visible").first.click()
        expect(page.locator("[data-testid=lobby]")).to_be_visible()

        page.click("[data-testid=new-table]")
        expect(page.locator("#new-preset")).to_be_visible()
        page.locator("#house-rules summary").click()
        found.check(page, "New table form, house rules open")
        page.select_option("#new-preset", "online")
        page.click("[data-testid=create-table]")
        expect(player.table).to_be_visible()
        found.check(page, "500 table waiting for players")
        rules_path = page.locator("[data-testid=rules-link]").get_attribute("href")

        page.click("[data-testid=start-with-bots]")
        expect(page.locator("[data-testid=hand] [data-card]")).to_have_count(10)
        play_until(player, lambda: player.phase() == "bidding" and player.my_turn())
        found.check(page, "500 table, my turn to bid")
        page.click("[data-testid=bid-grid] [data-bid]:enabled")
        found.check(page, "500 table, a bid chosen")
        play_until(player, lambda: player.phase() == "play" and len(trick_cards(player)) >= 1
                   and player.my_turn())
        found.check(page, "500 table, my turn to play")
        open_panel(page)
        found.check(page, "500 table, scores, chat and options open")
        if page.locator("#panel-close").is_visible():
            page.click("#panel-close")
        play_until(player, lambda: page.locator("[data-testid=hand-result]").is_visible(), 180)
        found.check(page, "500 table, the hand's result")

        table_id = player.table_id()
        play_until(player, lambda: page.locator("[data-testid=hand-replay]").count() > 0)
        page.goto(f"{base_url(room)}#replay={table_id}/1&hand=1")
        expect(page.locator("[data-testid=replay-title]")).to_be_visible()
        page.keyboard.press("ArrowRight")
        found.check(page, "replay of a hand")
    finally:
        player.close()

    # Another player (a browser of their own) meets 1000, the pages and the replay.
    other = Player(browser, base_url(room), f"Other {size}", viewport)
    try:
        page = other.page
        other.register()
        create_1000_table(other)
        page.click("[data-testid=start-with-bots]")
        expect(page.locator("[data-testid=hand] .ct-card")).to_have_count(7)
        found.check(page, "1000 table, the deal")
        play_until(other, lambda: other.my_turn())
        found.check(page, f"1000 table, my turn ({other.phase()})")

        for path, what in ((rules_path, "the table's rules"), ("/rules", "the rules"),
                           ("/help", "help")):
            page.goto(base_url(room).rstrip("/") + path)
            found.check(page, what)

        names = ["Me", "Ann", "Ben", "Cat"]
        show_table(page, table_message(kitty_view(), 0, names))
        expect(page.locator("[data-testid=kitty] [data-card]")).to_have_count(5)
        page.focus("[data-testid=kitty] [data-card]")
        page.keyboard.press("Enter")
        expect(page.locator("[data-testid=kitty] [data-card].selected")).to_have_count(1)
        found.check(page, "500 table, the kitty exchange")
        show_table(page, table_message(joker_lead_view(), 0, names))
        page.focus("[data-testid=hand] [data-card='JK']")
        page.keyboard.press("Enter")
        expect(page.locator("[data-testid=joker-picker]")).to_be_visible()
        found.check(page, "500 table, leading the joker in no trumps")
        assert len(found.screens) >= 18
        found.assert_clean()
    finally:
        other.close()


def bidding_view() -> dict:
    """A real view where seat 0 bids after Ann's 6♣ (so the grid shows every suit)."""
    game = showcase_deal(dealer=2)
    game.apply("bid 6C")
    view = game.view(0)
    assert view["phase"] == "bidding" and view["to_act"] == 0
    return view


@pytest.mark.parametrize(("size", "viewport"), SIZES)
def test_the_four_colour_deck(browser, room, size, viewport) -> None:
    """Chosen in Options (and remembered), clubs are green and diamonds blue on the cards, in
    the bid grid and on the contract line; spades and hearts stay black and red; the audit
    still passes."""
    player = Player(browser, base_url(room), f"Colours {size}", viewport)
    try:
        player.register()
        page = player.page
        page.click("#options-toggle")
        page.select_option("#suit-colours", "four")
        expect(page.locator("body")).to_have_attribute("data-suit-colours", "four")
        page.reload()  # remembered
        expect(page.locator("[data-testid=lobby]")).to_be_visible()
        expect(page.locator("body")).to_have_attribute("data-suit-colours", "four")
        expect(page.locator("#suit-colours")).to_have_value("four")

        names = ["Me", "Ann", "Ben", "Cat"]
        show_table(page, table_message(bidding_view(), 0, names))
        expect(page.locator("[data-testid=bid-grid]")).to_be_visible()
        fill = "(node) => getComputedStyle(node).fill"
        colour = "(node) => getComputedStyle(node).color"
        hand = page.locator("[data-testid=hand]")
        assert hand.locator("[data-card='AD'] .ink-D").first.evaluate(fill) == "rgb(26, 95, 214)"
        assert hand.locator("[data-card='AH'] .ink-H").first.evaluate(fill) == "rgb(200, 16, 46)"
        assert hand.locator("[data-card='AS'] .ink-S").first.evaluate(fill) == "rgb(27, 27, 31)"
        grid = page.locator("[data-testid=bid-grid]")
        assert grid.locator("[data-bid='7C'] .ct-suit").evaluate(colour) == "rgb(15, 122, 52)"
        assert grid.locator("[data-bid='7D'] .ct-suit").evaluate(colour) == "rgb(26, 95, 214)"
        assert grid.locator(".ct-grid-head.ct-suit-C").evaluate(colour) == "rgb(123, 227, 143)"
        assert grid.locator("[data-bid='7C'] .ct-suit").inner_text() == "♣"  # the shape too
        high_bid = page.locator("[data-testid=contract] .ct-suit-C")  # "high bid 6♣ Ann"
        assert high_bid.evaluate(colour) == "rgb(123, 227, 143)"
        screenshot(page, f"{size}-four-colour-bidding")
        assert not audit(page), describe(audit(page))

        show_table(page, table_message(kitty_view(), 0, names))
        contract = page.locator("[data-testid=contract]")
        expect(contract.locator(".ct-suit-H[title='Trumps: hearts']")).to_have_text("♥")
        page.focus("[data-testid=kitty] [data-card]")
        page.keyboard.press("Enter")
        kitty = page.locator("[data-testid=kitty]")
        assert kitty.locator("[data-card='AC'] .ink-C").first.evaluate(fill) == "rgb(15, 122, 52)"
        screenshot(page, f"{size}-four-colour-kitty")
        assert not audit(page), describe(audit(page))
    finally:
        player.close()
