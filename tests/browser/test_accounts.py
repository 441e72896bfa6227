"""Accounts across devices, profiles and ratings in Chromium (issue 21): a guest makes its name
its own with a password or a passkey and signs in on a second device to the seat it holds;
signing out, a password change and deleting the account end the old sessions; a finished
rated match shows on the profile and the leaderboard, and the names link there with their
ratings. Only what a person sees and clicks, at desktop and phone sizes.

The pages load from ``localhost``, not ``127.0.0.1``: WebAuthn refuses an IP address as the
relying party, and the server's is the page's host.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from tests.browser.conftest import DESKTOP, PHONE, STEP_TIMEOUT, Player, screenshot
from tests.browser.test_table import play_until
from tests.conftest import ServerProcess

PASSWORD = "correct horse battery"
"""A password that keeps every rule (8–128 characters, not the name, not a common one)."""


@pytest.fixture(scope="module")
def accounts_room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One room for the module: names never repeat between its tests, so they share it. Bots
    act at once, and one rated match puts a player on the leaderboard."""
    database = Path(tmp_path_factory.mktemp("accounts")) / "room.sqlite3"
    server = ServerProcess(database, **{"bot-delay": 0.05, "next-match-delay": 1,
                                        "leaderboard-min-matches": 1,
                                        "max-sign-ins-per-minute": 1000})
    server.start()
    yield server
    server.stop()


def home(server: ServerProcess) -> str:
    """The card room's home page, by name (WebAuthn's relying party must be a domain)."""
    return f"http://localhost:{server.port}/"


def open_account(page: Page) -> None:
    """Open the Account dialog from the header."""
    page.click("[data-testid=account-open]")
    expect(page.locator("[data-testid=account-dialog]")).to_be_visible()


def account_message(page: Page):
    """The dialog's line saying what happened, or why not."""
    return page.locator("[data-testid=account-message]")


def claim_with_password(page: Page, password: str, repeat: str | None = None) -> None:
    """Fill and send the dialog's "Save my name" form."""
    page.fill("#account-password", password)
    page.fill("#account-password-repeat", password if repeat is None else repeat)
    page.click("[data-testid=claim-password]")


def sign_in_from_name_entry(player: Player, password: str) -> None:
    """A new device: the name entry's "Sign in", then the name and the password."""
    page = player.page
    page.goto(player.base_url)
    page.click("[data-testid=name-sign-in]")
    page.fill("#sign-in-name", player.name)
    page.fill("#sign-in-password", password)
    page.click("[data-testid=sign-in]")


def profile_id(page: Page) -> str:
    """The player's id, from the lobby's link to their profile."""
    href = page.locator("[data-testid=my-profile-link]").get_attribute("href") or ""
    return href.removeprefix("#player=")


def resize(page: Page, viewport: dict[str, int]) -> None:
    """Change the window's size and let the side panel slide to where that size puts it."""
    page.set_viewport_size(viewport)
    page.wait_for_timeout(500)


def name_entry_shown(page: Page) -> None:
    """The page is back at the name entry."""
    expect(page.locator("#name-input")).to_be_visible()


def test_a_guest_saves_the_name_with_a_password_and_signs_in_on_a_phone(
        browser, accounts_room) -> None:
    ann = Player(browser, home(accounts_room), "Ann", DESKTOP)
    phone = Player(browser, home(accounts_room), "Ann", PHONE)
    taker = Player(browser, home(accounts_room), "ANN", PHONE)
    try:
        ann.register()
        expect(ann.page.locator("[data-testid=account-open]")).to_have_accessible_name(
            "Sign in / Save name")
        ann.page.click("[data-testid=new-table]")
        ann.page.uncheck("#new-rated")
        ann.page.click("[data-testid=create-table]")
        expect(ann.table).to_be_visible()
        table_id = ann.table_id()
        expect(ann.page.locator("#table-title")).to_contain_text("unrated")

        open_account(ann.page)
        screenshot(ann.page, "accounts-desktop-1-save-name")
        claim_with_password(ann.page, PASSWORD, "another one")
        expect(account_message(ann.page)).to_contain_text("not the same")
        for refused in ("Ann12345", "password"):  # the name in it; everybody's first guess
            claim_with_password(ann.page, refused)
            expect(account_message(ann.page)).to_have_attribute("data-kind", "error")
            expect(account_message(ann.page)).not_to_contain_text("not the same")
        screenshot(ann.page, "accounts-desktop-2-bad-password")
        claim_with_password(ann.page, PASSWORD)
        expect(account_message(ann.page)).to_contain_text("is yours")
        expect(ann.page.locator("#account-heading")).to_have_text("Your account")
        screenshot(ann.page, "accounts-desktop-3-account")
        ann.page.click("[data-testid=account-close]")
        expect(ann.page.locator("[data-testid=account-open]")).to_have_accessible_name("Account")

        sign_in_from_name_entry(phone, "wrong password")
        expect(account_message(phone.page)).to_contain_text("do not match")
        screenshot(phone.page, "accounts-phone-1-sign-in-refused")
        phone.page.fill("#sign-in-password", PASSWORD)
        phone.page.click("[data-testid=sign-in]")
        expect(phone.table).to_have_attribute("data-seat", "0")  # straight to Ann's seat
        assert phone.table_id() == table_id
        phone.page.click("[data-testid=back-to-lobby]")
        row = phone.page.locator(f"[data-table-id='{table_id}']")
        expect(row.locator("[data-testid=unrated-tag]")).to_be_visible()
        row.locator("[data-testid=reconnect]").click()
        expect(phone.table).to_have_attribute("data-seat", "0")

        taker.page.goto(taker.base_url)
        taker.page.fill("#name-input", "ANN")
        taker.page.click("#name-submit")
        expect(taker.page.locator("[data-testid=notice]")).to_contain_text("name")
        name_entry_shown(taker.page)
        assert not ann.errors and not phone.errors and not taker.errors
    finally:
        for player in (ann, phone, taker):
            player.close()


def virtual_authenticator(player: Player) -> tuple[object, str]:
    """Chromium's virtual authenticator for the player's page (a platform one, with resident
    keys and the user verified): its DevTools session and id."""
    cdp = player.context.new_cdp_session(player.page)
    cdp.send("WebAuthn.enable")
    added = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
        "hasUserVerification": True, "isUserVerified": True}})
    return cdp, added["authenticatorId"]


def test_a_passkey_saves_the_name_and_signs_in_on_another_device(browser, accounts_room) -> None:
    bea = Player(browser, home(accounts_room), "Bea", DESKTOP)
    phone = Player(browser, home(accounts_room), "Bea", PHONE)
    try:
        bea.register()
        bea.create_table("online")
        table_id = bea.table_id()
        cdp, authenticator = virtual_authenticator(bea)
        open_account(bea.page)
        bea.page.click("[data-testid=claim-passkey]")
        expect(account_message(bea.page)).to_contain_text("is yours")
        expect(bea.page.locator("[data-testid=account-dialog]")).to_contain_text("1 passkey")
        credentials = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
        assert len(credentials["credentials"]) == 1

        phone_cdp, phone_authenticator = virtual_authenticator(phone)
        phone_cdp.send("WebAuthn.addCredential", {"authenticatorId": phone_authenticator,
                                                  "credential": credentials["credentials"][0]})
        phone.page.goto(phone.base_url)
        phone.page.click("[data-testid=name-sign-in]")
        screenshot(phone.page, "accounts-phone-2-sign-in")
        phone.page.click("[data-testid=sign-in-passkey]")
        expect(phone.table).to_have_attribute("data-seat", "0")
        assert phone.table_id() == table_id
        open_account(phone.page)
        expect(phone.page.locator("[data-testid=account-dialog]")).to_contain_text("1 passkey")
        screenshot(phone.page, "accounts-phone-3-account")
        assert not bea.errors and not phone.errors
    finally:
        bea.close()
        phone.close()


def stored_token(page: Page) -> str:
    """The token this browser keeps (storage.js)."""
    return page.evaluate("JSON.parse(localStorage.getItem('cardroom.v1') || '{}').token || ''")


def test_sign_out_a_password_change_and_deleting_the_account_end_old_sessions(
        browser, accounts_room) -> None:
    dan = Player(browser, home(accounts_room), "Dan", DESKTOP)
    laptop = Player(browser, home(accounts_room), "Dan", DESKTOP)
    newcomer = Player(browser, home(accounts_room), "Dan", PHONE)
    try:
        dan.register()
        dan_id = profile_id(dan.page)
        open_account(dan.page)
        claim_with_password(dan.page, PASSWORD)
        expect(account_message(dan.page)).to_contain_text("is yours")
        dan.page.click("[data-testid=account-close]")
        sign_in_from_name_entry(laptop, PASSWORD)
        expect(laptop.page.locator("[data-testid=lobby]")).to_be_visible()

        # Signing out: the stored token is dropped, and the old one no longer works.
        old_token = stored_token(laptop.page)
        open_account(laptop.page)
        laptop.page.click("[data-testid=sign-out]")
        name_entry_shown(laptop.page)
        assert stored_token(laptop.page) == ""
        laptop.page.evaluate("""token => localStorage.setItem('cardroom.v1', JSON.stringify(
            { ...JSON.parse(localStorage.getItem('cardroom.v1')), token }))""", old_token)
        laptop.page.reload()
        name_entry_shown(laptop.page)
        expect(laptop.page.locator("[data-testid=notice]")).to_contain_text("no longer valid")

        # A new password signs the other devices out.
        sign_in_from_name_entry(laptop, PASSWORD)
        expect(laptop.page.locator("[data-testid=lobby]")).to_be_visible()
        open_account(dan.page)
        dan.page.click("summary:has-text('Change your password')")
        dan.page.fill("#old-password", PASSWORD)
        dan.page.fill("#new-password", PASSWORD + " two")
        dan.page.fill("#new-password-repeat", PASSWORD + " two")
        screenshot(dan.page, "accounts-desktop-4-change-password")
        dan.page.click("[data-testid=change-password]")
        expect(account_message(dan.page)).to_contain_text("Password changed")
        laptop.page.reload()
        name_entry_shown(laptop.page)

        # Deleting: the name is free again, and the profile says "Deleted player".
        dan.page.click("summary:has-text('Delete your account')")
        dan.page.fill("#delete-name", "Dan")
        dan.page.fill("#delete-password", PASSWORD + " two")
        screenshot(dan.page, "accounts-desktop-5-delete")
        dan.page.click("[data-testid=delete-account]")
        name_entry_shown(dan.page)
        expect(dan.page.locator("[data-testid=notice]")).to_contain_text("deleted")
        newcomer.register()
        newcomer.page.goto(f"{newcomer.base_url}#player={dan_id}")
        expect(newcomer.page.locator("[data-testid=profile-name]")).to_have_text("Deleted player")
        assert not dan.errors and not laptop.errors and not newcomer.errors
    finally:
        for player in (dan, laptop, newcomer):
            player.close()


def finish_a_short_match(player: Player) -> None:
    """A 500 table to 10 points (the first scored hand wins it) with three bots, played out by
    passing and playing the first playable card."""
    page = player.page
    page.click("[data-testid=new-table]")
    page.select_option("#new-preset", "online")
    page.evaluate("""['min', 'step'].forEach(
        name => document.querySelector('#new-target').removeAttribute(name))""")  # below 100
    page.fill("#new-target", "10")
    page.click("[data-testid=create-table]")
    expect(player.table).to_be_visible()
    page.click("[data-testid=start-with-bots]")
    play_until(player, lambda: page.locator("#scores-root .match-row").count() > 0
               or page.locator(".score-winner").count() > 0, seconds=60)


def test_a_finished_match_rates_its_players_on_the_profile_and_leaderboard(
        browser, accounts_room) -> None:
    eve = Player(browser, home(accounts_room), "Eve", DESKTOP)
    try:
        eve.register()
        finish_a_short_match(eve)
        me = eve.page.locator(".ct-seat.me")
        expect(me.locator("[data-testid=seat-rating]")).to_have_text(re.compile(r"^\d{3,4}$"),
                                                                      timeout=STEP_TIMEOUT)
        bot = eve.page.locator(".ct-seat:not(.me) [data-testid=seat-rating]").first
        expect(bot).to_have_text(re.compile(r"^\d{3,4}$"))
        screenshot(eve.page, "accounts-desktop-6-nameplates")
        resize(eve.page, PHONE)
        screenshot(eve.page, "accounts-phone-4-nameplates")
        resize(eve.page, DESKTOP)

        me.locator("[data-testid=seat-name]").click()
        profile = eve.page.locator("[data-testid=profile-game][data-game='500']")
        expect(profile.locator("[data-testid=profile-matches]")).to_have_text("1")
        expect(profile.locator("[data-testid=profile-rating]")).to_have_text(re.compile(r"^\d+$"))
        expect(profile.locator("[data-testid=provisional]")).to_be_visible()
        expect(profile.locator("[data-testid=rating-chart] svg")).to_be_visible()
        expect(eve.page.locator("[data-testid=recent-match]")).to_have_count(1)
        expect(eve.page.locator("[data-testid=record-link]")).to_have_attribute(
            "href", re.compile(r"/api/matches/\w+/1/record"))
        screenshot(eve.page, "accounts-desktop-7-profile")
        resize(eve.page, PHONE)
        screenshot(eve.page, "accounts-phone-5-profile")
        resize(eve.page, DESKTOP)

        eve.page.click("[data-testid=to-table]")  # the table kept going meanwhile
        expect(eve.table).to_be_visible()
        eve.page.click("[data-testid=back-to-lobby]")
        eve.page.click("[data-testid=leaderboard-link][data-game='500']")
        board = eve.page.locator("[data-testid=leaderboard]")
        expect(board.locator("[data-testid=leaderboard-row].mine")).to_contain_text("Eve")
        expect(board.locator("[data-testid=leaderboard-rule]")).to_contain_text("at least 1 rated")
        screenshot(eve.page, "accounts-desktop-8-leaderboard")
        resize(eve.page, PHONE)
        screenshot(eve.page, "accounts-phone-6-leaderboard")
        bot_row = board.locator("[data-testid=leaderboard-row]:has(.tag-bot-level)").first
        bot_row.locator("a").click()
        expect(eve.page.locator("[data-testid=profile-kind]")).to_contain_text("Bot level")
        screenshot(eve.page, "accounts-phone-7-bot-profile")
        assert not eve.errors, eve.errors
    finally:
        eve.close()
