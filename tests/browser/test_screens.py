"""House rules, keyboard play, the joker suit picker, and every screen at both sizes."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from tests.browser.conftest import DESKTOP, PHONE, Player, screenshot, show_table, table_message
from tests.browser.test_table import base_url, play_until, start_solo_game, trick_cards

from cardroom.games.five_hundred import Game


def open_house_rules(player: Player, preset: str):
    """Register, open the New table form on ``preset`` and unfold its house rules."""
    player.register()
    page = player.page
    page.click("[data-testid=new-table]")
    page.select_option("#new-preset", preset)
    page.click("#house-rules summary")
    return page


def test_house_rules_chosen_in_the_form_are_the_tables_rules(browser, room) -> None:
    player = Player(browser, base_url(room), "Host")
    try:
        page = open_house_rules(player, "classic")
        misere = page.locator("#house-misere")
        expect(misere).not_to_be_checked()  # classic has no misère
        expect(page.locator("#house-rules")).to_contain_text("Misère / No Tricks (250)")
        misere.check()
        page.select_option("#house-all_pass", "next_dealer")
        screenshot(page, "desktop-new-table-house-rules")
        page.click("[data-testid=create-table]")
        expect(player.table).to_be_visible()
        rules_page = page.locator("[data-testid=rules-link]").get_attribute("href")
        page.goto(base_url(room).rstrip("/") + rules_page)
        expect(page.locator("body")).to_contain_text(re.compile("house rule", re.IGNORECASE))
        expect(page.locator("body")).to_contain_text(re.compile("misère", re.IGNORECASE))
        expect(page.locator("[data-card-slot] svg").first).to_be_visible()  # its script ran
        assert not player.errors, player.errors  # nothing the page's CSP refused
    finally:
        player.close()


def test_impossible_house_rules_are_refused_with_the_reason(browser, room) -> None:
    player = Player(browser, base_url(room), "Tinkerer")
    try:
        page = open_house_rules(player, "classic")
        page.locator("#house-across_the_corner").check()  # needs misère, which is off
        page.click("[data-testid=create-table]")
        notice = page.locator("[data-testid=notice]")
        expect(notice).to_contain_text("require misère")
        expect(page.locator("[data-testid=lobby]")).to_be_visible()
    finally:
        player.close()


def test_keyboard_moves_between_cards_and_enter_plays(browser, room) -> None:
    player = start_solo_game(browser, room, "Keys")
    try:
        play_until(player, lambda: player.phase() == "play" and player.my_turn())
        page = player.page
        cards = page.locator("[data-testid=hand] [data-card]")
        before = cards.count()
        cards.first.focus()
        page.keyboard.press("ArrowRight")
        focused = page.evaluate("document.activeElement.dataset.card")
        assert focused == cards.nth(1).get_attribute("data-card")
        playable = page.locator("[data-testid=hand] [data-card].playable").first
        chosen = playable.get_attribute("data-card")
        playable.focus()
        version = player.version()
        page.keyboard.press("Enter")
        if chosen == "JK" and page.locator("[data-testid=joker-picker]").is_visible():
            page.locator("[data-testid=joker-suit]").first.click()
            page.click("[data-testid=joker-confirm]")
        player.wait_for_change(version)
        assert cards.count() == before - 1
        assert chosen in trick_cards(player) or chosen not in player.hand()
    finally:
        player.close()


def showcase_deal(dealer: int) -> Game:
    """A fixed deal of the online preset whose seat 0 holds the joker and the top spades,
    hearts and diamonds (the clubs' top five in the kitty): screens drawn from it show every
    suit, court cards and the joker."""
    hands = ["JK AS KS QS AH KH QH AD KD QD", "4S 5S 6S 7S 8S 9S 10S JS 4H 5H",
             "6H 7H 8H 9H 10H JH 4D 5D 6D 7D", "8D 9D 10D JD 4C 5C 6C 7C 8C 9C"]
    return Game.from_deal("online", dealer=dealer, hands=[h.split() for h in hands],
                          kitty=["10C", "JC", "QC", "KC", "AC"])


def joker_lead_view() -> dict:
    """A real view (from the engine) where seat 0 leads in no trumps holding the joker."""
    game = showcase_deal(dealer=3)
    for action in ("bid 8NT", "pass", "pass", "pass", "discard 10C JC QC KC AC"):
        game.apply(action)
    assert "play JK:H" in [str(a) for a in game.legal_actions()]
    return game.view(0)


@pytest.mark.parametrize("choice", ["confirm", "cancel"])
def test_joker_led_in_no_trumps_asks_for_a_suit(browser, room, choice) -> None:
    player = Player(browser, base_url(room), "Joker")
    try:
        page = player.page
        page.goto(base_url(room))  # the app's own page: its table styles apply
        show_table(page, table_message(joker_lead_view(), 0, ["Joker", "Ann", "Ben", "Cat"]))
        page.click("[data-testid=hand] [data-card='JK']")
        picker = page.locator("[data-testid=joker-picker]")
        expect(picker).to_be_visible()
        screenshot(page, "desktop-joker-picker")
        if choice == "confirm":
            picker.locator("[data-testid=joker-suit][data-suit='H']").click()
            picker.locator("[data-testid=joker-confirm]").click()
            assert page.evaluate("window.sent") == ["play JK:H"]
        else:
            picker.locator("[data-testid=joker-cancel]").click()
            expect(picker).to_be_hidden()
            assert page.evaluate("window.sent") == []
    finally:
        player.close()


@pytest.mark.parametrize(("size", "viewport"), [("desktop", DESKTOP), ("phone", PHONE)])
def test_every_screen_at_both_sizes(browser, room, size, viewport) -> None:
    """Screenshots of each screen (test-artifacts/screenshots) for people to look at."""
    player = Player(browser, base_url(room), f"Looker {size}", viewport)
    try:
        page = player.page
        page.goto(base_url(room))
        screenshot(page, f"{size}-1-name-entry")
        page.fill("#name-input", player.name)
        page.click("#name-submit")
        expect(page.locator("[data-testid=lobby]")).to_be_visible()
        screenshot(page, f"{size}-2-lobby")
        player.create_table("online")
        screenshot(page, f"{size}-3-waiting")
        page.click("[data-testid=start-with-bots]")
        expect(page.locator("[data-testid=hand] [data-card]")).to_have_count(10)
        play_until(player, lambda: player.phase() == "bidding" and player.my_turn())
        screenshot(page, f"{size}-4-bidding")
        if size == "phone":  # a long press on a bid shows its value (no hover on phones)
            bid = page.locator("[data-testid=bid-grid] [data-bid='7H']")
            bid.dispatch_event("pointerdown", {"pointerType": "touch", "isPrimary": True})
            expect(page.locator(".ct-tip")).to_contain_text("200 points")
            bid.dispatch_event("pointerup", {"pointerType": "touch", "isPrimary": True})
        play_until(player, lambda: player.phase() == "play" and len(trick_cards(player)) >= 2)
        screenshot(page, f"{size}-5-play")
        play_until(player, lambda: page.locator("[data-testid=hand-result]").is_visible(), 180)
        screenshot(page, f"{size}-6-hand-result")
        page.click("[data-testid=report-bug]")
        expect(page.locator("#bug-text")).to_be_visible()
        screenshot(page, f"{size}-7-bug-report")
        page.keyboard.press("Escape")
        for path, name in (("rules/online", "8-rules"), ("help", "9-help")):
            page.goto(base_url(room) + path)
            screenshot(page, f"{size}-{name}")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    finally:
        player.close()
