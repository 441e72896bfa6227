"""500 at tables of five and six in Chromium: the seats around the felt with the viewer at
the bottom, sides by colour, a whole six-handed hand against five bots on a laptop and a
phone, and the five-handed partner call. Screenshots go to test-artifacts/screenshots/."""

from __future__ import annotations

import time

from playwright.sync_api import expect
from tests.browser.conftest import PHONE, Player, screenshot
from tests.browser.test_table import base_url, play_out_hand, play_until, trick_cards


def solo_table(browser, room, name: str, preset: str, viewport=None) -> Player:
    """A player alone with bots in every other seat, at a running table of ``preset``."""
    player = Player(browser, base_url(room), name, viewport)
    player.register()
    player.create_table(preset)
    player.page.click("[data-testid=start-with-bots]")
    expect(player.page.locator("[data-testid=hand] [data-card]")).to_have_count(10)
    return player


def boxes_overlap(player: Player, selector: str) -> list[tuple[int, int]]:
    """Pairs of visible elements matching ``selector`` whose boxes overlap."""
    boxes = [box for box in (e.bounding_box() for e in player.page.locator(selector).all()
                             if e.is_visible()) if box]
    pairs = []
    for i, a in enumerate(boxes):
        for j, b in enumerate(boxes[:i]):
            if (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
                    and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]):
                pairs.append((j, i))
    return pairs


def test_six_handed_table_one_player_and_five_bots_play_a_hand(browser, room) -> None:
    player = solo_table(browser, room, "Six", "six-handed")
    page = player.page
    try:
        seats = page.locator("[data-testid=seat]:visible")
        expect(seats).to_have_count(6)
        me = player.seat()
        assert page.locator(f"[data-testid=seat][data-seat='{me}']").get_attribute(
            "data-pos") == "bottom"
        # Two teams of three: my team-mates two seats away share my colour.
        mine = page.locator(f"[data-testid=seat][data-seat='{(me + 2) % 6}']")
        assert "team-" + str(me % 2) in (mine.get_attribute("class") or "")
        assert not boxes_overlap(player, "[data-testid=seat]:visible .ct-plate")
        play_until(player, lambda: player.phase() == "bidding" and player.my_turn())
        grid = page.locator("[data-testid=bid-grid]")
        expect(grid).to_be_visible()
        assert grid.locator("[data-bid='open-misere']").count() == 1
        screenshot(page, "six-handed-bidding")
        play_until(player, lambda: player.phase() == "play" and len(trick_cards(player)) >= 3)
        screenshot(page, "six-handed-play")
        play_out_hand([player], opening_bid=None)
        expect(page.locator("[data-testid=hand-result]")).to_be_visible()
        screenshot(page, "six-handed-result")
        assert not player.errors, player.errors
    finally:
        player.close()


def test_six_handed_on_a_phone(browser, room) -> None:
    player = solo_table(browser, room, "Pocket", "six-handed", PHONE)
    page = player.page
    try:
        play_until(player, lambda: player.phase() == "bidding" and player.my_turn())
        screenshot(page, "phone-six-handed-bidding")
        assert not boxes_overlap(player, "[data-testid=seat]:visible .ct-plate")
        play_until(player, lambda: player.phase() == "play" and len(trick_cards(player)) >= 3)
        screenshot(page, "phone-six-handed-play")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], "the table must fit a phone without side scrolling"
        assert not player.errors, player.errors
    finally:
        player.close()


def win_the_bidding_at_ten_no_trumps(player: Player, seconds: float = 300) -> None:
    """Bid 10NT at my first bid of each hand (nothing beats it) until I am the contractor
    calling partners. A bot may get there first, so a hand it wins is played out (my cards
    played, or passed in the bidding) and the next hand tried."""
    grid = player.page.locator("[data-testid=bid-grid]")
    deadline = time.monotonic() + seconds
    while not (player.phase() == "call" and player.my_turn()):
        assert time.monotonic() < deadline, "never won the bidding at 10NT"
        if not player.my_turn():
            time.sleep(0.05)
        elif player.phase() == "bidding" and grid.locator("[data-bid='10NT']").is_enabled():
            player.act("10NT")
        else:
            player.act()


def test_five_handed_partner_call(browser, room) -> None:
    """I win the bidding with 10NT (nothing beats it), exchange, and call a partner by a card."""
    player = solo_table(browser, room, "Caller", "five-handed")
    page = player.page
    try:
        expect(page.locator("[data-testid=seat]:visible")).to_have_count(5)
        win_the_bidding_at_ten_no_trumps(player)
        panel = page.locator("[data-testid=call-panel]")
        expect(panel).to_be_visible()
        hand = set(player.hand())
        for card in hand:
            assert panel.locator(f"[data-card='{card}']").is_disabled()
        screenshot(page, "five-handed-call")
        choice = panel.locator("[data-card]:enabled").first
        called = [choice.get_attribute("data-card")]
        choice.click()
        version = player.version()
        page.click("[data-testid=call-submit]")
        player.wait_for_change(version)
        if player.phase() == "call":  # ten tricks: a second partner
            second = panel.locator("[data-card]:enabled").first
            called.append(second.get_attribute("data-card"))
            second.click()
            page.click("[data-testid=call-submit]")
        expect(page.locator("[data-testid=called]")).to_be_visible()
        for card in called:
            expect(page.locator("[data-testid=called]")).to_contain_text(
                card[:-1] if not card.startswith("JK") else "Joker")
        play_until(player, lambda: player.phase() == "play" and len(trick_cards(player)) >= 2)
        screenshot(page, "five-handed-play")
        assert not player.errors, player.errors
    finally:
        player.close()
