"""A whole hand of 500 played with the keyboard alone, followed by its announcements: on each
turn the focus is where the turn is taken (the bid grid, the kitty, a card I may play), arrow
keys move through the bids, Enter and Tab do the rest, and the table's polite live region
(`[data-testid=announcer]`) tells every bid, card, trick and score in words."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Page, expect
from tests.browser.conftest import Player, screenshot
from tests.browser.test_table import base_url, result_shown

HAND_SECONDS = 180


def active(page: Page) -> dict[str, str]:
    """What has the keyboard's focus: its test id, card, bid and label."""
    return page.evaluate("""() => {
        const e = document.activeElement;
        const ringed = (node) => getComputedStyle(node).outlineStyle !== 'none'
                                 || getComputedStyle(node).boxShadow !== 'none';
        return { testid: e.dataset.testid || '', card: e.dataset.card || '',
                 bid: e.dataset.bid || '',
                 label: e.getAttribute('aria-label') || e.textContent.trim(),
                 ring: ringed(e.querySelector('svg') || e) }; }""")


def tab_to(page: Page, wanted, limit: int = 40) -> dict[str, str]:
    """Press Tab until the focus is on what ``wanted(active)`` accepts."""
    for _ in range(limit):
        now = active(page)
        if wanted(now):
            return now
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached it (last: {active(page)})")


def announcements(page: Page) -> list[str]:
    return page.locator("[data-testid=announcer] p").all_inner_texts()


def bid_ten_no_trumps(page: Page) -> None:
    """From the lowest bid I may make, where the grid is entered, arrows to 10NT; Enter
    chooses it, and the focus moves to the Bid button, where Enter bids."""
    start = active(page)["bid"]
    assert re.fullmatch(r"\d+(S|C|D|H|NT)", start), active(page)  # the lowest I may bid
    for _ in range(10 - int(start[:-2] if start.endswith("NT") else start[:-1])):
        page.keyboard.press("ArrowDown")  # the same strain, a trick higher
    assert active(page)["bid"].startswith("10")
    for _ in range(5):
        if active(page)["bid"] == "10NT":
            break
        page.keyboard.press("ArrowRight")  # 10♣ 10♦ 10♥ 10NT
    focused = active(page)
    assert focused["bid"] == "10NT" and focused["ring"], focused
    page.keyboard.press("Enter")
    assert active(page)["testid"] == "bid-submit"
    page.keyboard.press("Enter")


def exchange_the_kitty(player: Player) -> None:
    """Swap the kitty's first card for a card of the hand, then discard the kitty."""
    page = player.page
    first = active(page)
    assert first["card"], f"the focus is not in the kitty: {first}"
    page.keyboard.press("Enter")  # selected
    screenshot(page, "keyboard-kitty-selected")
    mine = tab_to(page, lambda a: bool(a["card"]) and a["card"] in player.hand())
    page.keyboard.press("Enter")  # swapped
    kitty = page.locator("[data-testid=kitty] [data-card]")
    expect(kitty.filter(has=page.locator(f"xpath=self::*[@data-card='{mine['card']}']"))) \
        .to_have_count(1)
    tab_to(page, lambda a: a["testid"] == "discard-submit")
    page.keyboard.press("Enter")


def play_a_card(player: Player, played: list[str]) -> None:
    """Enter on the card the focus is on (a card I may play); name the joker's suit if asked."""
    page = player.page
    page.wait_for_function("() => !!document.activeElement.dataset.card")  # drawn with the turn
    focused = active(page)
    assert focused["card"] and "playable" in page.get_attribute(
        f"[data-testid=hand] [data-card='{focused['card']}']", "class"), focused
    played.append(focused["label"])
    page.keyboard.press("Enter")
    picker = page.locator("[data-testid=joker-picker]")
    if focused["card"] == "JK" and picker.is_visible():
        assert active(page)["testid"] == "joker-suit"
        page.keyboard.press("Enter")  # the suit chosen; the focus goes to Play joker
        assert active(page)["testid"] == "joker-confirm"
        page.keyboard.press("Enter")


def test_a_hand_of_500_played_with_the_keyboard_alone(browser, room) -> None:
    player = Player(browser, base_url(room), "Keyes")
    try:
        player.register()
        player.create_table("online")
        page = player.page
        page.click("[data-testid=start-with-bots]")  # the table is set; from here, keys only
        expect(page.locator("[data-testid=hand] [data-card]")).to_have_count(10)
        played: list[str] = []
        bid = False
        deadline = time.monotonic() + HAND_SECONDS
        while not result_shown(player):
            assert time.monotonic() < deadline, "the hand did not finish"
            if not player.my_turn():
                time.sleep(0.05)
                continue
            version, phase = player.version(), player.phase()
            if phase == "bidding" and not bid:
                bid_ten_no_trumps(page)
                bid = True
            elif phase == "bidding":
                tab_to(page, lambda a: a["testid"] == "pass")
                page.keyboard.press("Enter")
            elif phase == "discard":
                exchange_the_kitty(player)
            else:
                play_a_card(player, played)
            player.wait_for_change(version)
        screenshot(page, "keyboard-hand-result")
        page.keyboard.press("Enter")
        expect(page.locator("[data-testid=hand-result]")).to_be_hidden()

        said = announcements(page)
        assert "Keyes bids ten no trumps." in said, said
        assert any(re.fullmatch(r"Bot \d passes\.", line) for line in said), said
        assert "The contract: ten no trumps by Keyes." in said, said
        assert "Keyes takes the kitty." in said, said
        for label in played:
            name = label if label[0].isdigit() else label[0].lower() + label[1:]
            assert f"Keyes plays the {name}." in said, (name, said)
        plays = [line for line in said if re.fullmatch(r"(Keyes|Bot \d) plays the .+\.", line)]
        winners = [line for line in said if re.fullmatch(r"(Keyes|Bot \d) wins the trick\.", line)]
        assert len(plays) >= 4 and len(winners) == len(plays) // 4, said
        # Each trick's winner is told after its fourth card.
        first_winner = said.index(winners[0])
        assert sum(1 for line in said[:first_winner] if line in plays) == 4, said
        scored = [line for line in said if "; score " in line]
        assert len(scored) == 1 and re.fullmatch(
            r"Keyes and Bot \d (made it through|went back): ten no trumps, (plus|minus) 520;"
            r" score (minus )?\d+ to (minus )?\d+\.", scored[0]), said
        assert page.locator("[data-testid=announcer]").get_attribute("aria-live") == "polite"
        assert not player.errors, player.errors
    finally:
        player.close()
