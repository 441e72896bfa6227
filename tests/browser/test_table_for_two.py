"""Two-handed 500 in the browser: two people sit face to face, bottom and top, at a desktop
and on a phone, and play a whole hand to the same score (issue 25; that no message carries
the dead hand is the server's two-handed test)."""

from __future__ import annotations

from playwright.sync_api import expect
from tests.browser.conftest import PHONE, Player, screenshot
from tests.browser.test_table import base_url, play_out_hand


def test_two_players_face_to_face_play_a_whole_hand(browser, room) -> None:
    with (Player(browser, base_url(room), "Nora") as nora,
          Player(browser, base_url(room), "Sam", PHONE) as sam):
        for player in (nora, sam):
            player.register()
        table = nora.create_table("two-handed")
        sam.join(table, 1)
        for player in (nora, sam):
            page = player.page
            expect(page.locator("[data-testid=hand] [data-card]")).to_have_count(10)
            expect(page.locator("[data-testid=seat]:visible")).to_have_count(2)
            me, other = player.seat(), 1 - player.seat()
            assert page.locator(f"[data-testid=seat][data-seat='{me}']").get_attribute(
                "data-pos") == "bottom"
            assert page.locator(f"[data-testid=seat][data-seat='{other}']").get_attribute(
                "data-pos") == "top"
        screenshot(nora.page, "two-handed-bidding-desktop")
        screenshot(sam.page, "two-handed-bidding-phone")
        play_out_hand([nora, sam], opening_bid="6S")
        for player in (nora, sam):
            expect(player.page.locator("[data-testid=hand-result]")).to_be_visible()
        screenshot(nora.page, "two-handed-result-desktop")
        screenshot(sam.page, "two-handed-result-phone")
        results = [p.page.locator("[data-testid=hand-result]").inner_text() for p in (nora, sam)]
        score_lines = [next(line for line in text.splitlines() if line.startswith("Score:"))
                       for text in results]
        assert score_lines[0] == score_lines[1]
        assert not nora.errors and not sam.errors, (nora.errors, sam.errors)
