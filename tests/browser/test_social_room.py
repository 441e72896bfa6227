"""Play now, taking bots' seats over, private tables with invite links and reserved seats,
table chat and the background tab's call, in Chromium with several players, at desktop and
phone sizes: only what a person sees and clicks."""

from __future__ import annotations

import re

from playwright.sync_api import expect
from tests.browser.conftest import DESKTOP, PHONE, STEP_TIMEOUT, Player, screenshot
from tests.browser.test_table import base_url, wait_until


def play_now(player: Player, game: str = "500") -> str:
    """Click "Play <game>" in the lobby; the table's id once it shows."""
    player.page.click(f"[data-testid=play-now][data-game='{game}']")
    expect(player.table).to_be_visible()
    return player.table_id()


def seated(player: Player) -> bool:
    """The player's table screen shows them in a seat."""
    return (player.table.get_attribute("data-seat") or "") not in ("", "null")


def test_play_now_fills_with_bots_and_a_second_player_takes_a_bot_over(browser, room) -> None:
    ann = Player(browser, base_url(room), "Ann", DESKTOP)
    bob = Player(browser, base_url(room), "Bob", PHONE)
    try:
        ann.register()
        expect(ann.page.locator("[data-testid=play-now]")).to_have_count(2)
        screenshot(ann.page, "desktop-lobby-play-now")
        table_id = play_now(ann)
        expect(ann.table).to_have_attribute("data-seat", "0")
        bob.register()
        screenshot(bob.page, "phone-lobby-play-now")
        assert play_now(bob) == table_id
        promised = bob.page.locator("[data-testid=taking-over]")
        expect(promised).to_contain_text("at the next hand")
        seat = int(re.search(r"seat (\d)", promised.inner_text()).group(1)) - 1
        screenshot(bob.page, "phone-taking-over-next-hand")
        # Ann plays her turns; the bot plays Bob's seat until the hand is scored.
        for _ in range(400):
            if seated(bob):
                break
            if ann.my_turn():
                ann.act()
            else:
                ann.page.wait_for_timeout(100)
        wait_until(lambda: seated(bob), what="Bob seated at the next hand")
        assert bob.seat() == seat
        expect(bob.page.locator("[data-testid=taking-over]")).to_have_count(0)
        screenshot(bob.page, "phone-took-over-a-bot")
        assert not ann.errors and not bob.errors, (ann.errors, bob.errors)
    finally:
        ann.close()
        bob.close()


def test_a_private_table_is_reached_only_by_its_link_and_keeps_a_seat(browser, room) -> None:
    ann = Player(browser, base_url(room), "Ann", DESKTOP)
    bob = Player(browser, base_url(room), "Bob", PHONE)
    eve = Player(browser, base_url(room), "Eve", DESKTOP)
    try:
        ann.register()
        table_id = ann.create_table()
        ann.page.click("[data-testid=invite-friends]")
        dialog = ann.page.locator("[data-testid=invite-dialog]")
        expect(dialog).to_be_visible()
        dialog.locator("[data-testid=invite-private]").check()
        link = dialog.locator("[data-testid=invite-link]")
        expect(link).to_have_value(re.compile(r"#table=\w+&invite=[\w-]{32}"))
        dialog.locator("[data-testid=reserve-2]").check()
        expect(dialog.locator("[data-testid=reserve-2]")).to_be_checked()
        screenshot(ann.page, "desktop-invite-dialog")
        ann.page.set_viewport_size(PHONE)
        ann.page.wait_for_timeout(500)  # the side panel slides away at phone width
        screenshot(ann.page, "phone-invite-dialog")
        ann.page.set_viewport_size(DESKTOP)
        url = link.input_value()
        dialog.locator("[data-testid=invite-close]").click()
        expect(ann.page.locator("#table-title")).to_contain_text("friends only")
        ann.page.click("[data-testid=start-with-bots]")
        expect(ann.page.locator("#table-title")).to_contain_text("friends only")

        eve.register()
        expect(eve.page.locator(f"[data-table-id='{table_id}']")).to_have_count(0)
        eve.page.goto(f"{base_url(room)}#table={table_id}")  # the id alone
        expect(eve.page.locator("[data-testid=notice]")).to_contain_text("no such table")
        expect(eve.page.locator("[data-testid=lobby]")).to_be_visible()
        eve.page.goto(f"{base_url(room)}#table={table_id}&invite=guessed-wrong")
        expect(eve.page.locator("[data-testid=notice]")).to_contain_text("no such table")

        bob.register()
        bob.page.goto(url)
        offer = bob.page.locator("[data-testid=offer-seat]")
        expect(offer).to_have_count(1)  # the kept seat: bots took the others
        expect(offer).to_have_attribute("data-seat", "2")
        screenshot(bob.page, "phone-invited-seat-offer")
        offer.click()
        expect(bob.table).to_have_attribute("data-seat", "2", timeout=STEP_TIMEOUT)
        expect(bob.table).to_have_attribute("data-phase", re.compile(r"\w+"))
        bob.page.reload()  # the link's secret survives a refresh
        expect(bob.table).to_have_attribute("data-seat", "2", timeout=STEP_TIMEOUT)
        assert not ann.errors and not bob.errors, (ann.errors, bob.errors)
    finally:
        for player in (ann, bob, eve):
            player.close()


def settled(player: Player) -> None:
    """Wait until the phone's drawer has slid in and scrolled to the chat."""
    player.page.wait_for_function("""() => {
        const panel = document.querySelector('#side-panel');
        return panel.getAnimations({ subtree: true }).length === 0
          && panel.getBoundingClientRect().right <= innerWidth + 1;
    }""")
    player.page.wait_for_timeout(400)  # the smooth scroll to the chat section


def chat_texts(player: Player) -> list[str]:
    """The chat lines the player sees, as "Name: text"."""
    return player.page.locator("[data-testid=chat-log] .chat-line").evaluate_all(
        "lines => lines.map(l => l.querySelector('.chat-name').textContent + ': '"
        " + l.querySelector('.chat-text').textContent)")


def test_chat_phrases_reactions_mute_limits_and_the_spectators_line(browser, room) -> None:
    ann = Player(browser, base_url(room), "Ann", DESKTOP)
    bob = Player(browser, base_url(room), "Bob", PHONE)
    sue = Player(browser, base_url(room), "Sue", DESKTOP)
    try:
        ann.register()
        table_id = ann.create_table()
        bob.register()
        bob.join(table_id, 1)
        chat = ann.page.locator("[data-testid=chat]")
        chat.locator("#chat-input").fill("Hello <b>all</b>\u202e!")
        chat.locator("[data-testid=chat-form] button").click()
        chat.locator("[data-phrase=good_luck]").click()
        chat.locator("[data-reaction=thumbs_up]").click()
        expected = ["Ann: Hello <b>all</b>!", "Ann: Good luck!", "Ann: 👍"]
        wait_until(lambda: chat_texts(ann) == expected, what="Ann's lines")
        expect(bob.page.locator("[data-testid=chat-unread]")).to_have_text("3")
        bob.page.click("[data-testid=chat-toggle]")
        wait_until(lambda: chat_texts(bob) == expected, what="Bob sees Ann's lines")
        expect(bob.page.locator("[data-testid=chat-unread]")).to_be_hidden()
        settled(bob)
        screenshot(bob.page, "phone-chat")

        sue.register()
        sue.page.goto(f"{base_url(room)}#table={table_id}")
        sue.page.locator("[data-testid=chat] [data-phrase=hello]").click()
        wait_until(lambda: "Sue: Hello!" in chat_texts(sue), what="Sue's own line")
        ann.page.wait_for_timeout(500)
        assert "Sue: Hello!" not in chat_texts(ann)  # spectators' line hidden while seated
        ann.page.select_option("#spectator-chat", "on")
        wait_until(lambda: "Sue: Hello!" in chat_texts(ann), what="spectators' line shown")
        screenshot(ann.page, "desktop-chat-with-spectators")

        bob.page.locator(".chat-line[data-player] .chat-mute").first.click()  # mutes Ann
        wait_until(lambda: not any(t.startswith("Ann:") for t in chat_texts(bob)),
                   what="Ann muted for Bob")
        expect(bob.page.locator(".chat-muted")).to_contain_text("Ann (unmute)")

        ann.page.click("[data-testid=invite-friends]")
        ann.page.locator("[data-testid=invite-typed-chat]").uncheck()
        ann.page.click("[data-testid=invite-close]")
        expect(bob.page.locator("[data-testid=chat-form]")).to_be_hidden()
        expect(bob.page.locator(".chat-off")).to_be_visible()
        for _ in range(6):  # one more than five in ten seconds, however long ago her hello
            sue.page.locator("[data-testid=chat] [data-phrase=oops]").click()
        expect(sue.page.locator("[data-testid=notice]")).to_contain_text(
            "chat lines in ten seconds", timeout=STEP_TIMEOUT)
        assert not ann.errors and not bob.errors and not sue.errors
    finally:
        for player in (ann, bob, sue):
            player.close()


def test_a_background_tab_is_called_when_it_is_your_turn(browser, room) -> None:
    ann = Player(browser, base_url(room), "Ann", DESKTOP)
    try:
        ann.register()
        ann.page.evaluate("""() => {
            Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
            document.dispatchEvent(new Event('visibilitychange'));
        }""")
        play_now(ann)
        wait_until(ann.my_turn, what="Ann's turn")
        expect(ann.page).to_have_title(re.compile(r"^▶ Your turn"))
        icon = ann.page.locator("link[rel=icon]")
        expect(icon).to_have_attribute("href", "/static/favicon-turn.svg")
        ann.page.evaluate("""() => {
            Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
            document.dispatchEvent(new Event('visibilitychange'));
        }""")
        expect(ann.page).not_to_have_title(re.compile("Your turn"))
        expect(icon).to_have_attribute("href", "/static/favicon.svg")
        assert not ann.errors, ann.errors
    finally:
        ann.close()
