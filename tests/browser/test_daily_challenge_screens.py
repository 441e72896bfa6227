"""The daily challenge in Chromium: two players open the challenge screen from the lobby, each
plays today's deals of 500 by clicking (the same cards for both), then they see the
leaderboard with both rows ranked, their deals and the replays, and the history on a
profile; at a desktop's size and a phone's."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect
from tests.browser.conftest import ARTIFACTS, DESKTOP, PHONE, Player, screenshot
from tests.browser.test_table import base_url

DEALS = 8
"""500's deals a day."""
PLAY_SECONDS = 240
"""Time for both players' eight deals (random bots, no delays)."""


@pytest.fixture
def challenge_room(server_factory):
    """A room whose challenge bots are random and act at once, with no pause between deals."""
    return server_factory(**{"challenge-bot": "random", "bot-delay": 0, "next-match-delay": 0,
                             "max-lookups-per-minute": 10_000})


def open_challenge(player: Player) -> None:
    """From the lobby, the Daily challenge button."""
    player.page.click("[data-testid=challenge-link]")
    expect(player.page.locator("[data-testid=challenge]")).to_be_visible()
    expect(player.page.locator("[data-testid=challenge-game]")).to_have_count(2)


def start(player: Player) -> None:
    """Play today's 500 challenge: its table shows with the first deal."""
    button = player.page.locator("[data-testid=challenge-play][data-game='500']")
    expect(button).to_have_text("Play today's challenge")
    button.click()
    expect(player.table).to_be_visible()
    expect(player.page.locator("[data-testid=hand] [data-card]")).to_have_count(10)


def finished(player: Player) -> bool:
    """The last deal is over: the table offers the result (or the screen shows it)."""
    page = player.page
    return (page.evaluate("document.body.dataset.screen") == "challenge"
            or page.locator("[data-testid=table-challenge][data-state=done]").is_visible())


def step(player: Player) -> bool:
    """Do what the table waits for from this player, if anything: put a deal's result away
    (a click), or act on the player's turn. False once the day's deals are over."""
    if finished(player):
        return False
    result = player.page.locator("[data-testid=hand-result]")
    if result.is_visible():
        result.click()
    elif player.phase() and player.my_turn():
        player.act()
    return True


def test_two_players_play_the_days_deals_and_compare(browser, challenge_room) -> None:
    ann = Player(browser, base_url(challenge_room), "Ann", DESKTOP)
    bob = Player(browser, base_url(challenge_room), "Bob", PHONE)
    try:
        for player in (ann, bob):
            player.register()
            open_challenge(player)
        expect(ann.page.locator("[data-testid=challenge-game][data-game='500']")).to_contain_text(
            "Nobody has played yet")
        screenshot(bob.page, "challenge-phone-1-before")
        start(ann)
        start(bob)
        assert sorted(ann.hand()) == sorted(bob.hand())
        screenshot(bob.page, "challenge-phone-0-table")
        screenshot(ann.page, "challenge-desktop-0-table")
        for player in (ann, bob):
            # The table is theirs all day: no Leave, no Invite, a way to the challenge.
            expect(player.page.locator("[data-testid=leave]")).to_be_hidden()
            expect(player.page.locator("[data-testid=invite-friends]")).to_be_hidden()
            expect(player.page.locator("[data-testid=table-challenge]")).to_be_visible()
            expect(player.page.locator("#table-title")).to_contain_text(f"deal 1 of {DEALS}")

        # Bob leaves for the challenge screen and comes back with Continue.
        bob.page.click("[data-testid=table-challenge]")
        expect(bob.page.locator("[data-testid=challenge-play][data-game='500']")).to_have_text(
            f"Continue (deal 1 of {DEALS})")
        bob.page.click("[data-testid=challenge-play][data-game='500']")
        expect(bob.page.locator("[data-testid=hand] [data-card]")).to_have_count(10)

        deadline = time.monotonic() + PLAY_SECONDS
        going = [ann, bob]
        while going:
            assert time.monotonic() < deadline, "the day's deals were not all played"
            going = [player for player in going if step(player)]
            time.sleep(0.02)

        for player in (ann, bob):
            link = player.page.locator("[data-testid=table-challenge]")
            if link.is_visible():
                expect(link).to_have_text("See your result →")
                if player is ann:
                    screenshot(ann.page, "challenge-desktop-1-last-deal-over")
                link.click()
            expect(player.page.locator("[data-testid=challenge-board]")).to_be_visible()

        # The leaderboard: both players and the bots (once their own result is in), ranked.
        for player in (ann, bob):
            rows = player.page.locator("[data-testid=challenge-row]")
            for _ in range(60):
                if rows.count() == 3:
                    break
                time.sleep(0.5)
                player.page.reload()
                expect(player.page.locator("[data-testid=challenge-board]")).to_be_visible()
            expect(rows).to_have_count(3)
            ranks = [int(r) for r in rows.evaluate_all("rows => rows.map(r => r.dataset.rank)")]
            assert ranks[0] == 1 and ranks == sorted(ranks)
            totals = [float(t.rstrip("%")) for t in player.page.locator(
                "[data-testid=challenge-total]").all_inner_texts()]
            assert totals == sorted(totals, reverse=True)
            expect(player.page.locator("[data-testid=challenge-row].bots")).to_have_count(1)
            mine = player.page.locator("[data-testid=challenge-row].mine")
            expect(mine).to_have_count(1)
            expect(mine).to_contain_text(player.name)
            # Everybody's deals are shown now, each player's with a replay per deal.
            expect(player.page.locator("[data-testid=challenge-replay]")).to_have_count(2 * DEALS)
            expect(player.page.locator("[data-testid=challenge-deal-line]")).to_have_count(DEALS)
            expect(player.page.locator("[data-testid=challenge-own-replay]")).to_have_count(DEALS)
            # Done, with the rank on the day's leaderboard (the bots' row is one of them).
            my_rank = int(mine.get_attribute("data-rank"))
            tied = " (tied)" if ranks.count(my_rank) > 1 else ""
            total = player.page.locator(
                "[data-testid=challenge-row].mine [data-testid=challenge-total]").inner_text()
            expect(player.page.locator("[data-testid=challenge-state]")).to_have_text(
                f"Done: rank {my_rank} of 3{tied} · {total}")
        screenshot(ann.page, "challenge-desktop-2-leaderboard")
        bob.page.screenshot(path=str(ARTIFACTS / "challenge-phone-2-whole-page.png"),
                            full_page=True)
        bob.page.locator("[data-testid=challenge-by-deal]").scroll_into_view_if_needed()
        screenshot(bob.page, "challenge-phone-2-leaderboard")
        ann.page.locator("[data-testid=challenge-by-deal]").scroll_into_view_if_needed()
        screenshot(ann.page, "challenge-desktop-3-deal-by-deal")

        # A deal's replay, from the player's own link.
        own = ann.page.locator("[data-testid=challenge-own-replay][data-deal='2']")
        href = own.get_attribute("href")
        own.click()
        expect(ann.page.locator("[data-testid=replay-title]")).to_contain_text("500")
        # The replay opened that deal (it then adds its hand, step and seat to the address).
        assert ann.page.evaluate("location.hash").split("&")[0] == href
        expect(ann.page.locator("[data-testid=replay] [data-testid=hand] [data-card]")
               ).to_have_count(10)
        ann.page.go_back()
        expect(ann.page.locator("[data-testid=challenge-board]")).to_be_visible()

        # Bob's profile lists today's challenge.
        ann.page.locator("[data-testid=challenge-row]:not(.mine):not(.bots) a.player-link").click()
        history = ann.page.locator("[data-testid=challenge-history-row]")
        expect(history).to_have_count(1)
        expect(history).to_contain_text(f"today: done–{DEALS}/{DEALS}")
        screenshot(ann.page, "challenge-desktop-4-profile")
        assert not ann.errors and not bob.errors, ann.errors + bob.errors
    finally:
        ann.close()
        bob.close()
