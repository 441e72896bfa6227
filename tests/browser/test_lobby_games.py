"""The lobby's New table form and rows in Chromium, built from the games' catalogues
(``/api/rules``): every game, its presets with their titles and descriptions, its winning
score, and the seats by side, at desktop and phone sizes."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect
from tests.browser.conftest import DESKTOP, PHONE, Player, screenshot
from tests.browser.test_table import base_url

from cardroom.bots.levels import DEFAULT_BOT, PLAYER_LEVELS
from cardroom.games.registry import GAMES


def seat_sides(player: Player) -> list[list[Any]]:
    """The seat picker's sides as shown: each side's name and its seats' labels."""
    return player.page.locator(".seat-picker-team").evaluate_all(
        """sides => sides.map(side => [side.querySelector('span').textContent,
             [...side.querySelectorAll('.seat-choice span')].map(seat => seat.textContent)])""")


@pytest.mark.parametrize(("size", "viewport"), [("desktop", DESKTOP), ("phone", PHONE)])
def test_the_new_table_form_offers_what_the_catalogues_say(browser, room, size: str,
                                                         viewport: dict[str, int]) -> None:
    player = Player(browser, base_url(room), f"Form {size}", viewport)
    page = player.page
    try:
        player.register()
        page.click("[data-testid=new-table]")
        game_options = page.locator("#new-game option")
        expect(game_options).to_have_count(len(GAMES))
        assert game_options.evaluate_all("options => options.map(o => o.value)") == list(GAMES)
        for spec in GAMES.values():
            page.select_option("#new-game", spec.name)
            titles = [spec.preset_title(name) for name in spec.presets]
            expect(page.locator("#new-preset option")).to_have_text(titles)
            expect(page.locator("#new-preset")).to_have_value(spec.default_preset)
            for name in spec.presets:
                page.select_option("#new-preset", name)
                details = spec.preset_details(name)
                expect(page.locator("#new-preset-help")).to_have_text(details["blurb"])
                expect(page.locator("#new-target")).to_have_value(str(spec.rules(name).target))
                expect(page.locator("input[name=new-seat]")).to_have_count(details["players"])
            levels = PLAYER_LEVELS[spec.name]
            expect(page.locator("#new-bot option")).to_have_text([level.word for level in levels])
            # The tests' servers default to the quick "simple": 1000 offers no such level.
            expect(page.locator("#new-bot")).to_have_value(
                "simple" if spec.name == "500" else levels[0].bot)
            page.select_option("#new-bot", DEFAULT_BOT)
            expect(page.locator("#new-bot-help")).to_have_text(
                next(level.description for level in levels if level.bot == DEFAULT_BOT))
        page.select_option("#new-game", "500")
        page.select_option("#new-preset", "six-handed")
        expect(page.locator("input[name=new-seat]")).to_have_count(6)
        assert seat_sides(player) == [["Team One", ["Seat 1", "Seat 3", "Seat 5"]],
                                      ["Team Two", ["Seat 2", "Seat 4", "Seat 6"]]]
        screenshot(page, f"{size}-new-table-six-handed")
        page.select_option("#new-preset", "three-handed")
        expect(page.locator("input[name=new-seat]")).to_have_count(3)
        assert seat_sides(player) == [["Clockwise", ["Seat 1", "Seat 2", "Seat 3"]]]
        assert not player.errors, player.errors
    finally:
        player.close()


def test_lobby_rows_show_the_presets_titles_and_the_bots_level(browser, room) -> None:
    host = Player(browser, base_url(room), "Host")
    guest = Player(browser, base_url(room), "Guest", PHONE)
    try:
        host.register()
        host.page.click("[data-testid=new-table]")
        host.page.select_option("#new-bot", label="Casual")
        host.create_table("five-handed")
        expect(host.page.locator("#table-title")).to_contain_text("Casual bots")
        guest.register()
        row = guest.page.locator("[data-testid=lobby] tbody tr").first
        expect(row.locator(".lobby-preset")).to_have_text("Five-handed")
        expect(row.locator("[data-testid=bots-tag]")).to_have_text("Casual bots")
        expect(row.locator("[data-testid=play-here]")).to_have_count(4)
        screenshot(guest.page, "phone-lobby-five-handed")
        assert not guest.errors, guest.errors
    finally:
        host.close()
        guest.close()
