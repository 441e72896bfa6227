"""Hints at a casual table in Chromium: the Hint button on my turn marks the search bot's
suggestion (a bid, then a card in the hand), and taking it plays on."""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect
from tests.browser.conftest import DESKTOP, PHONE, Player, screenshot
from tests.browser.test_table import base_url, wait_until


def test_a_hint_marks_the_suggested_card_and_playing_it_works(browser, room) -> None:
    player = Player(browser, base_url(room), "Hinter")
    onlooker = Player(browser, base_url(room), "Onlooker")
    try:
        player.register()
        page = player.page
        page.click("[data-testid=new-table]")
        page.select_option("#new-preset", "online")
        page.check("#new-hints")
        page.click("[data-testid=create-table]")
        expect(player.table).to_be_visible()
        table_id = player.table_id()
        expect(page.locator("#table-title")).to_contain_text("hints allowed")
        onlooker.register()
        expect(onlooker.page.locator(f"[data-table-id='{table_id}'] [data-testid=hints-tag]")
               ).to_be_visible()
        page.click("[data-testid=start-with-bots]")
        expect(page.locator("[data-testid=hand] [data-card]")).to_have_count(10)
        hint_button = page.locator("[data-testid=hint]")
        hint_text = page.locator("[data-testid=hint-text]")

        # Bidding: the hint marks a bid in the grid (or Bye); passing clears the mark.
        deadline = time.monotonic() + 60
        while not (player.my_turn() and player.phase() == "bidding"):
            assert time.monotonic() < deadline, "never had a turn to bid"
            if player.my_turn():
                player.act()
            time.sleep(0.05)
        expect(hint_button).to_be_visible()
        hint_button.click()
        expect(hint_text).to_be_visible()
        expect(hint_text).to_contain_text(re.compile(r"Hint: (Bid|Pass)"))
        expect(page.locator("[data-testid=bid-grid] .hinted, [data-testid=pass].hinted")
               ).to_have_count(1)
        player.act()  # passes
        expect(page.locator(".hinted")).to_have_count(0)

        # Play: wait for my turn to play a card (the bots bid and exchange meanwhile).
        deadline = time.monotonic() + 90
        while not (player.my_turn() and player.phase() == "play"):
            assert time.monotonic() < deadline, "never had a card to play"
            if player.my_turn():
                player.act()
            else:
                assert not hint_button.is_visible() or player.my_turn(), "Hint out of turn"
                time.sleep(0.05)
        expect(hint_button).to_be_visible()
        hint_button.focus()
        page.keyboard.press("Enter")  # keyboard players ask too
        marked = page.locator("[data-testid=hand] [data-card].hinted")
        expect(marked).to_have_count(1)
        card = marked.get_attribute("data-card")
        expect(marked).to_have_class(re.compile(r"\bplayable\b"))
        expect(hint_text).to_contain_text("Hint: Play the")
        # Focus moved to the suggested card, so Enter would play it.
        assert page.evaluate("document.activeElement.dataset.card") == card
        time.sleep(0.3)  # the lift transition
        screenshot(page, "desktop-hint")
        page.set_viewport_size(PHONE)
        time.sleep(0.3)
        expect(marked).to_be_visible()
        screenshot(page, "phone-hint")
        page.set_viewport_size(DESKTOP)

        version = player.version()
        marked.click()
        picker = page.locator("[data-testid=joker-picker]")
        if card == "JK" and picker.is_visible():
            picker.locator("[data-testid=joker-suit]:enabled").first.click()
            picker.locator("[data-testid=joker-confirm]").click()
        player.wait_for_change(version)
        wait_until(lambda: card not in player.hand(), what="the hinted card leaving the hand")
        expect(page.locator(".hinted")).to_have_count(0)
        expect(hint_text).to_be_hidden()
        expect(page.locator("[data-testid=notice]")).to_be_hidden()
        assert not player.errors, player.errors
    finally:
        player.close()
        onlooker.close()
