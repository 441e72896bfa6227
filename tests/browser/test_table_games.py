"""Each game's table module in Chromium: the app picks it by the table message's `game` through
the one registration (static/js/table_games.js), the shared TableView stays game-neutral (a
made-up game's module registered there draws a whole table with none of 500's or 1000's
panels), and a game's own widgets work on it (1000's bet stepper)."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, Route, expect
from tests.browser.conftest import Player, screenshot, show_table, table_message
from tests.browser.test_table import base_url
from tests.browser.test_thousand import create_1000_table

from cardroom.games.registry import GAMES
from cardroom.games.thousand import Game as ThousandGame

MADE_UP_MODULE = """
import { GameWidgets } from "./game_widgets.js";
import { TableView } from "./table.js";

/** A made-up game: one panel of its own; seats, hand, trick, status and result are shared. */
class MadeUpWidgets extends GameWidgets {
  name = "made-up";
  handSize = 7;

  constructor(table) {
    super(table);
    table.el.overlay.insertAdjacentHTML("beforeend",
      '<div class="ct-panel" data-testid="made-up-panel" hidden>Made-up move</div>');
    this.panel = table.el.overlay.lastElementChild;
  }

  render() {
    this.panel.hidden = !this.table.isMyTurn();
  }
}

export class MadeUpTableView extends TableView {
  constructor(root, ctx) {
    super(root, ctx, MadeUpWidgets);
  }
}
"""

GAME_PANELS = ["bid-grid", "kitty", "joker-picker", "call-panel", "joker-nominate", "bank",
               "k-bidding", "k-pick", "marriage-picker"]
"""Test ids of 500's and 1000's own panels: none belongs to the shared table."""


def registered_games(page: Page) -> dict[str, list[str]]:
    """The browser's registration: game name → [module, export]."""
    return page.evaluate(
        "async () => (await import('/static/js/table_games.js')).TABLE_MODULES")


def test_the_table_message_game_picks_the_registered_module(browser, room) -> None:
    player = Player(browser, base_url(room), "Picker")
    page = player.page
    try:
        player.register()
        modules = registered_games(page)
        assert sorted(modules) == sorted(GAMES), "every game of the room has a table module"
        for game, (path, export) in modules.items():
            built = page.evaluate("""async ([path, exported]) => {
                const module = await import(new URL(path, location.origin + '/static/js/'));
                const root = document.createElement('div');
                const view = new module[exported](root, { send: async () => ({}), options: {} });
                const game = root.querySelector('[data-testid=table]').dataset.game;
                view.destroy();
                return game;
            }""", [path, export])
            assert built == game, (path, export)

        create_1000_table(player)
        expect(player.table).to_have_attribute("data-game", "1000")
        expect(player.table).to_have_class(re.compile(r"\bct-thousand\b"))
        expect(page.locator("[data-testid=bank]")).to_be_attached()

        page.click("#back-to-lobby")
        page.click("[data-testid=new-table]")
        page.select_option("#new-game", "500")
        page.select_option("#new-preset", "online")
        page.click("[data-testid=create-table]")
        expect(player.table).to_have_attribute("data-game", "500")
        expect(page.locator("[data-testid=bid-grid]")).to_be_attached()
        expect(page.locator("[data-testid=bank]")).to_have_count(0)
        assert not player.errors, player.errors
    finally:
        player.close()


def test_a_made_up_game_registered_in_one_place_draws_its_tables(browser, room) -> None:
    """Point 1000 at a made-up module in the registration: the app builds that module's view
    for 1000 tables, and the shared table plays on with nothing of 500 or 1000 in it."""
    player = Player(browser, base_url(room), "Inventor")
    page = player.page

    def serve_module(route: Route) -> None:
        route.fulfill(status=200, content_type="text/javascript", body=MADE_UP_MODULE)

    try:
        page.route("**/static/js/made_up.js", serve_module)
        player.register()
        page.evaluate("""async () => {
            const { TABLE_MODULES } = await import('/static/js/table_games.js');
            TABLE_MODULES['1000'] = ['./made_up.js', 'MadeUpTableView'];
        }""")
        create_1000_table(player)
        expect(player.table).to_have_attribute("data-game", "made-up")
        page.click("[data-testid=start-with-bots]")
        expect(player.table).to_have_attribute("data-phase", "bidding")
        expect(page.locator("[data-testid=seat]:visible")).to_have_count(3)
        # 1000 deals its cards face down until one looks: the shared hand draws the backs.
        expect(page.locator("[data-testid=hand] .ct-card")).to_have_count(7)
        expect(page.locator("[data-testid=status]")).to_contain_text(" to bid")
        expect(page.locator("[data-testid=contract] .ct-scores")).to_be_visible()
        for panel in GAME_PANELS:
            expect(page.locator(f"[data-testid={panel}]")).to_have_count(0)
        # The bots bid until my turn, which waits for me: the made-up game has no moves.
        page.wait_for_function("""() => {
            const table = document.querySelector('[data-testid=table]');
            return table.dataset.toAct !== '' && table.dataset.toAct === table.dataset.seat;
        }""")
        expect(page.locator("[data-testid=made-up-panel]")).to_be_visible()
        expect(page.locator("[data-testid=status]")).to_have_text("Your turn to bid")
        screenshot(page, "made-up-game")
        assert not player.errors, player.errors
    finally:
        player.close()


def bet_message() -> dict[str, Any]:
    """A real 1000 table message (from the engine) where the viewer names the final bet."""
    game = ThousandGame.new("seed", seed=3)
    while game.view(game.to_act)["phase"] != "bet":
        view = game.view(game.to_act)
        legal = [str(action) for action in game.legal_actions()]
        if "look" in legal:
            game.apply("look")
        elif view["phase"] == "bidding":
            game.apply("bid 100" if view["high_bid"] is None else "pass")
        else:
            game.apply(legal[0])
    return table_message(game.view(game.to_act), game.to_act, ["Ann", "Ben", "Cat"], "1000")


def test_the_first_press_on_the_bet_stepper_raises_the_bet(browser, room) -> None:
    player = Player(browser, base_url(room), "Bettor")
    page = player.page
    try:
        page.goto(base_url(room))  # the app's own page: its table styles apply
        message = bet_message()
        bets = [a for a in message["view"]["legal_actions"] if a.startswith("bet ")]
        show_table(page, message)
        value = page.locator("[data-testid=bid-value]")
        expect(value).to_have_text(bets[0].split()[1])
        page.click("[data-testid=bid-up]")
        expect(value).to_have_text(bets[1].split()[1])
        page.click("[data-testid=bid-submit]")
        assert page.evaluate("window.sent") == [bets[1]]
    finally:
        player.close()
