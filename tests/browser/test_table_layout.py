"""The table's panels and news keep clear of the seats and of the page's header, measured by
bounding boxes in Chromium at common desktop sizes and on a phone, on the app's own page (its
header, toolbar and side panel take their room as they do in play); and a long-press tip goes
away on the next touch and when the table changes."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.browser.conftest import PHONE, screenshot, table_message
from tests.browser.test_table import base_url

from cardroom.bots import make_bot
from cardroom.games.five_hundred import Game
from cardroom.games.thousand import Game as ThousandGame

SIZES = {"1280x800": {"width": 1280, "height": 800}, "1366x768": {"width": 1366, "height": 768},
         "1440x900": {"width": 1440, "height": 900}, "1920x1080": {"width": 1920, "height": 1080},
         "phone": PHONE}
NAMES = ["Alexandra", "Bartholomew", "Christina", "Dominic", "Eve", "Frank"]


def show_in_app(page: Page, message: dict[str, Any]) -> None:
    """Open the card room and draw ``message`` on its table screen (header, toolbar and side
    panel as in play), with the view its game's module gives; sent actions collect in
    ``window.sent``."""
    page.wait_for_selector(".screen-name:not([hidden])")
    page.evaluate("""async (message) => {
        const { TABLE_MODULES } = await import('/static/js/table_games.js');
        const [path, exported] = TABLE_MODULES[message.game];
        const module = await import(new URL(path, location.origin + '/static/js/'));
        document.body.dataset.screen = 'table';
        for (const screen of document.querySelectorAll('.screen')) {
            screen.hidden = screen.dataset.screen !== 'table';
        }
        window.sent = [];
        const ctx = { send: async (action) => { window.sent.push(action); return {}; },
                      me: { player_id: 'p', name: 'Me' }, options: {},
                      rulesLink: '/rules', onLeave() {} };
        window.view = new module[exported](document.getElementById('table-root'), ctx);
        window.view.update(message);
    }""", message)


def covered(page: Page, selector: str, others: str) -> list[str]:
    """What of ``others`` (visible, not empty) the box of ``selector`` intersects."""
    return page.evaluate("""([selector, others]) => {
        const box = document.querySelector(selector).getBoundingClientRect();
        const hit = [];
        for (const node of document.querySelectorAll(others)) {
            const r = node.getBoundingClientRect();
            if (!r.width || !r.height || !node.checkVisibility()) continue;
            const across = box.left < r.right && r.left < box.right;
            if (across && box.top < r.bottom && r.top < box.bottom) {
                const pos = node.closest('[data-pos]')?.dataset.pos || '';
                hit.push(`${pos} ${node.className}`.trim());
            }
        }
        return hit;
    }""", [selector, others])


def bidding_500(preset: str) -> dict[str, Any]:
    game = Game.new(preset, seed=3)
    seats = len(game.view(0)["hand_sizes"])
    return table_message(game.view(game.to_act), game.to_act, NAMES[:seats])


def bidding_1000() -> dict[str, Any]:
    game = ThousandGame.new("seed", seed=3)
    while "look" not in [str(action) for action in game.legal_actions()]:
        game.apply("pass" if "pass" in [str(a) for a in game.legal_actions()] else "look")
    game.apply("look")
    return table_message(game.view(game.to_act), game.to_act, NAMES[:3], "1000")


SEAT_PARTS = ".ct-seat:not([hidden]) .ct-plate, .ct-seat:not([hidden]) .ct-seat-cards"
GAMES = {"500-four": (lambda: bidding_500("online"), ".ct-bidding"),
         "500-six": (lambda: bidding_500("six-handed"), ".ct-bidding"),
         "1000": (bidding_1000, "[data-testid=k-bidding]")}


@pytest.mark.parametrize("game", list(GAMES))
def test_the_bid_panel_leaves_every_seat_in_view(browser, room, game) -> None:
    message, panel = GAMES[game][0](), GAMES[game][1]
    context = browser.new_context(viewport=SIZES["1366x768"])
    try:
        page = context.new_page()
        page.goto(base_url(room))
        show_in_app(page, message)
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            expect(page.locator(panel)).to_be_visible()
            page.wait_for_timeout(100)  # the layout of the new size
            screenshot(page, f"layout-bidding-{game}-{size}")
            assert covered(page, panel, SEAT_PARTS) == [], size
            assert covered(page, panel, ".site-header, .table-toolbar, .ct-bar") == [], size
            grid = page.locator(f"{panel} .ct-bid:visible, {panel} .ct-button:visible").all()
            assert grid and all(button.bounding_box()["height"] >= 26 for button in grid), size
    finally:
        context.close()


def marriage_in_play() -> dict[str, Any]:
    """A 1000 table in play, the viewer to play."""
    game = ThousandGame.new("seed", seed=3)
    bot = make_bot("rules", seed=1)
    while game.view(game.to_act)["phase"] != "play" or game.to_act != 0:
        game.apply(bot.choose(game.view(game.to_act)), game.to_act)
    return table_message(game.view(0), 0, ["Ann", "Ben", "Cat"], "1000")


@pytest.mark.parametrize("size", ["1366x768", "phone"])
def test_news_of_a_marriage_stays_on_the_felt(browser, room, size) -> None:
    context = browser.new_context(viewport=SIZES[size])
    try:
        page = context.new_page()
        page.goto(base_url(room))
        show_in_app(page, marriage_in_play())
        page.evaluate("window.view.showNotice('Ben declared the hearts marriage ♥: +100. "
                      "Hearts are trumps.', 'info')")
        news = page.locator("[data-testid=news]")
        expect(news).to_be_visible()
        expect(page.locator(".notices")).to_be_empty()  # not the page's notice
        screenshot(page, f"layout-marriage-news-{size}")
        assert covered(page, "[data-testid=news]",
                       ".site-header, .table-toolbar, .ct-bar, .ct-hand") == []
        assert covered(page, "[data-testid=news]", SEAT_PARTS + ", .ct-played") == []
        felt = page.locator(".ct-felt").bounding_box()
        box = news.bounding_box()
        assert felt["y"] <= box["y"] and box["y"] + box["height"] <= felt["y"] + felt["height"]
        news.click()  # a tap puts it away
        expect(news).to_be_hidden()
    finally:
        context.close()


def long_press(page: Page, selector: str) -> None:
    """Press a finger on ``selector`` and keep it there (the tip shows after 450 ms)."""
    page.eval_on_selector(selector, """node => node.dispatchEvent(new PointerEvent('pointerdown',
        { bubbles: true, pointerType: 'touch', isPrimary: true }))""")


def test_a_long_press_tip_goes_on_the_next_touch_and_when_the_table_changes(browser,
                                                                            room) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(base_url(room))
        game = Game.new("online", seed=3)
        me = game.to_act
        show_in_app(page, table_message(game.view(me), me, NAMES[:4]))
        tip = page.locator(".ct-tip")
        bid = "[data-testid=bid-grid] [data-bid='7H']"

        # The next touch anywhere, even on the felt far from the grid, puts it away at once.
        long_press(page, bid)
        expect(tip).to_be_visible()
        expect(tip).to_contain_text("200")
        screenshot(page, "layout-tip-shown-phone")
        felt = page.locator(".ct-felt").bounding_box()
        page.touchscreen.tap(felt["x"] + felt["width"] / 2, felt["y"] + 30)
        expect(tip).to_be_hidden(timeout=300)  # not the 1.2 s a lifted finger leaves it

        # Still held when the table changes (my turn to bid passes): it goes with the grid.
        long_press(page, bid)
        expect(tip).to_be_visible()
        game.apply("pass", me)
        page.evaluate("m => window.view.update(m)",
                      {**table_message(game.view(me), me, NAMES[:4]), "version": 2})
        expect(page.locator(".ct-bidding")).to_be_hidden()
        expect(tip).to_be_hidden(timeout=300)
        screenshot(page, "layout-tip-gone-phone")
    finally:
        context.close()
