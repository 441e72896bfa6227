"""The table as a picky card player sees it (issue 17): one colour per side everywhere, the end
of a hand paced so it can be read, leaving mid-match, labels that fit, the phone layout, the
kitty swap sorted, a readable contract line, house rules in players' words, 1000's look
before a blind bid and its bank, and no misclicks.

Screenshots go to test-artifacts/screenshots/polish-*.png (not committed) at 1280 × 800 and
390 × 844, for people to look at.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import pairwise
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.browser.conftest import PHONE, Player, screenshot, show_table, table_message
from tests.browser.test_table import base_url, play_until
from tests.browser.test_thousand import create_1000_table

from cardroom.games.five_hundred import Game
from cardroom.games.thousand import Game as ThousandGame

DESKTOP = {"width": 1280, "height": 800}
SIZES = [("desktop", DESKTOP), ("phone", PHONE)]
NAMES = ["Me", "Ann", "Bob", "Cat"]


def colour(page: Page, selector: str, prop: str, pseudo: str | None = None) -> str:
    """A computed colour of the first element matching ``selector``."""
    return page.eval_on_selector(
        selector, "(node, [prop, pseudo]) => getComputedStyle(node, pseudo)[prop]",
        [prop, pseudo])


def same_colour(page: Page, selector: str, prop: str, expected: str,
                pseudo: str | None = None) -> None:
    """Wait (5 s at most) until the first element matching ``selector`` has the colour
    ``expected``: the contract line and the scores are redrawn as the bots bid, and an
    element read mid-redraw is not there yet."""
    page.wait_for_function(
        """([selector, prop, pseudo, expected]) => {
             const node = document.querySelector(selector);
             return node !== null && getComputedStyle(node, pseudo)[prop] === expected;
           }""", arg=[selector, prop, pseudo, expected], timeout=5000)


@contextmanager
def room_page(browser, room, name: str, viewport: dict[str, int]) -> Iterator[Player]:
    """A player's browser on the room's page, where a test draws table messages of its own."""
    with Player(browser, base_url(room), name, viewport) as player:
        player.page.goto(base_url(room))
        yield player


def solo_table(browser, room, name: str, game: str, viewport=None) -> Player:
    """A player alone with bots at a running table of ``game``, on the first deal."""
    player = Player(browser, base_url(room), name, viewport or DESKTOP)
    player.register()
    if game == "1000":
        create_1000_table(player)
    else:
        player.create_table("online")
    player.page.click("[data-testid=start-with-bots]")
    expect(player.table).to_have_attribute("data-phase", "bidding")
    return player


# -- 1. one colour per side ---------------------------------------------------------------------


@pytest.mark.parametrize("game", ["500", "1000"])
def test_each_side_has_one_colour_on_the_table_and_in_the_scores(browser, room, game) -> None:
    with solo_table(browser, room, f"Painter {game}", game) as player:
        page = player.page
        expect(page.locator("#scores-root .score-side")).to_have_count(2 if game == "500" else 3)
        for side in (0, 1):
            seat = colour(page, f".ct-seat.team-{side} .ct-plate", "borderLeftColor")
            same_colour(page, f".ct-contract .team-{side}", "color", seat)
            same_colour(page, f".score-side.team-{side}", "borderTopColor", seat)
            same_colour(page, f".chart-line.team-{side}", "stroke", seat)
            same_colour(page, f".legend.team-{side}", "backgroundColor", seat, "::before")
        assert colour(page, ".ct-seat.team-0 .ct-plate", "borderLeftColor") == "rgb(108, 180, 255)"
        assert colour(page, ".ct-seat.team-1 .ct-plate", "borderLeftColor") == "rgb(255, 184, 77)"
        screenshot(page, f"polish-1-colours-{game}-desktop")


# -- 2. the end of a hand -----------------------------------------------------------------------


def last_card_of_a_hand() -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    """From the engine: seat 0's view before it plays the last card of a hand, its view after
    (the next deal already), and the events of that card (the trick, the score, the deal)."""
    game = Game.new("online", seed=7)
    opened = False
    while True:
        legal = [str(action) for action in game.legal_actions()]
        action = "bid 6S" if not opened and "bid 6S" in legal else (
            "pass" if "pass" in legal else legal[0])
        opened = opened or action == "bid 6S"
        before = game.view(0)
        events = game.apply(action)
        if any(event["type"] == "hand_scored" for event in events):
            assert before["to_act"] == 0 and game.view(0)["phase"] == "bidding"
            return before, game.view(0), events


def end_of_a_hand(page: Page) -> None:
    """Show seat 0's table before its last card, then the message of that card."""
    before, after, events = last_card_of_a_hand()
    show_table(page, table_message(before, 0, NAMES))
    message = {**table_message(after, 0, NAMES), "version": 2, "events": events}
    page.evaluate("message => window.view.update(message)", message)


@pytest.mark.parametrize(("size", "viewport"), SIZES)
def test_the_end_of_a_hand_stays_until_read_then_the_next_deal(browser, room, size,
                                                                viewport) -> None:
    with room_page(browser, room, "Reader", viewport) as player:
        page = player.page
        end_of_a_hand(page)
        hand = page.locator("[data-testid=hand] [data-card]")
        trick = page.locator("[data-testid=trick] [data-card]")
        result = page.locator("[data-testid=hand-result]")
        expect(trick).to_have_count(4)  # the last trick, its winner marked
        expect(page.locator("[data-testid=trick] .winner")).to_have_count(1)
        expect(hand).to_have_count(0)  # the hand as it ended, not the next deal
        screenshot(page, f"polish-2-last-trick-{size}")
        expect(result).to_be_visible(timeout=5000)
        shown = time.monotonic()
        expect(result).to_contain_text("next deal")
        screenshot(page, f"polish-2-hand-result-{size}")
        while time.monotonic() - shown < 3:  # read at leisure: nothing moves under it
            assert hand.count() == 0 and page.locator("[data-testid=bid-grid]").is_hidden()
            time.sleep(0.25)
        page.keyboard.press("Enter")  # a key goes on at once
        expect(result).to_be_hidden()
        expect(hand).to_have_count(10)
        expect(player.table).to_have_attribute("data-phase", "bidding")
        screenshot(page, f"polish-2-next-deal-{size}")


def test_without_a_click_the_next_deal_comes_by_itself(browser, room) -> None:
    with room_page(browser, room, "Idle", DESKTOP) as player:
        page = player.page
        end_of_a_hand(page)
        result = page.locator("[data-testid=hand-result]")
        expect(result).to_be_visible(timeout=5000)
        expect(result).to_be_hidden(timeout=9000)
        expect(page.locator("[data-testid=hand] [data-card]")).to_have_count(10)


def overlaps(page: Page, first: str, second: str) -> bool:
    """Whether the boxes of two visible elements overlap."""
    return page.evaluate("""([a, b]) => {
        const [r, s] = [a, b].map((q) => document.querySelector(q).getBoundingClientRect());
        return r.left < s.right && s.left < r.right && r.top < s.bottom && s.top < r.bottom;
    }""", [first, second])


def test_the_match_result_leaves_the_side_seats_and_charts_the_match(browser, room) -> None:
    with room_page(browser, room, "Winner", DESKTOP) as player:
        page = player.page
        before, after, events = last_card_of_a_hand()
        scored = next(e for e in events if e["type"] == "hand_scored")
        over = {"type": "match_over", "winner": 0, "scores": scored["scores"]}
        show_table(page, table_message(before, 0, ["Alexandra", "Bartholomew", "Ann", "Bob"]))
        message = {**table_message({**after, "phase": "over", "winner": 0}, 0,
                                   ["Alexandra", "Bartholomew", "Ann", "Bob"]),
                   "version": 2, "events": [*events, over]}
        page.evaluate("message => window.view.update(message)", message)
        result = page.locator("[data-testid=hand-result]")
        expect(result).to_contain_text("win the match")
        for side in ("left", "right"):
            assert not overlaps(page, "[data-testid=hand-result]", f".ct-seat.pos-{side} .ct-plate")
        # The score panel charts the match just won, not an empty new one.
        hands = [{"number": 1, "scores": scored["scores"], "points": scored["points"]}]
        finished = {**message, "match_number": 1,
                    "matches": [{"match": 1, "winner": 0, "scores": scored["scores"],
                                 "hands": hands}]}
        finished["view"] = {**finished["view"], "history": hands}
        dots = page.evaluate("""async (message) => {
            const { renderScores } = await import('/static/js/scores.js');
            const root = document.createElement('div');
            renderScores(root, message, 'detailed', window.view.game);
            return root.querySelectorAll('.chart-dot').length;
        }""", finished)
        assert dots == 2  # one point for each side after the hand
        screenshot(page, "polish-2-match-result-desktop")


# -- 3. leaving mid-match, and 4. labels that fit -----------------------------------------------


def test_leaving_mid_match_asks_then_hands_the_seat_to_a_bot(browser, room) -> None:
    with solo_table(browser, room, "Frank", "500") as player:
        page = player.page
        table = player.table_id()
        page.click("[data-testid=leave]")
        confirm = page.locator("[data-testid=leave-confirm]")
        expect(confirm).to_be_visible()
        screenshot(page, "polish-3-leave-confirm-desktop")
        page.click("[data-testid=leave-cancel]")
        expect(confirm).to_be_hidden()
        expect(player.table).to_be_visible()
        page.click("[data-testid=leave]")
        page.click("[data-testid=leave-confirm-button]")
        expect(page.locator("[data-testid=lobby]")).to_be_visible()
        row = page.locator(f"[data-table-id='{table}']")
        expect(row.locator(".tag-away")).to_be_visible()  # a bot plays his seat at once
        row.locator("[data-testid=reconnect]").click()  # and he may come back to it
        expect(player.table).to_be_visible()
        expect(page.locator(".ct-seat.me .ct-presence")).to_be_hidden()
        assert not player.errors, player.errors


@pytest.mark.parametrize(("size", "viewport"), SIZES)
def test_a_bot_playing_for_someone_is_named_and_the_label_fits(browser, room, size,
                                                               viewport) -> None:
    with room_page(browser, room, "Labels", viewport) as player:
        page = player.page
        view = Game.new("online", seed=3).view(0)
        names = ["Me", "Frank", "Bob", "Alice"]
        message = table_message(view, 0, names)
        message["seats"][1]["away"] = True
        message["seats"][3].update(connected=False)
        show_table(page, message)
        to_act = view["to_act"]
        if to_act == 1:
            expect(page.locator("[data-testid=status]")).to_contain_text("Frank's bot")
        frank = page.locator(".ct-seat[data-seat='1']")
        expect(frank.locator(".ct-name")).to_have_text("Frank")
        expect(frank.locator(".ct-presence")).to_have_text("bot playing")
        expect(page.locator(".ct-seat[data-seat='3'] .ct-presence")).to_have_text("offline")
        for plate in page.locator(".ct-plate:visible").all():
            for part in plate.locator(".ct-name, .ct-presence").all():
                assert part.evaluate("n => n.scrollWidth <= n.clientWidth"), part.inner_text()
        screenshot(page, f"polish-4-labels-{size}")


def test_the_status_names_the_bot_that_plays_for_an_away_player(browser, room) -> None:
    with room_page(browser, room, "Status", DESKTOP) as player:
        page = player.page
        game = Game.new("online", seed=3)
        me = (game.to_act + 1) % 4
        message = table_message(game.view(me), me, ["Ann", "Frank", "Bob", "Cat"])
        message["seats"][game.to_act]["away"] = True
        show_table(page, message)
        name = message["seats"][game.to_act]["name"]
        status = page.locator("[data-testid=status]")
        expect(status).to_have_text(f"Waiting for {name}'s bot to bid")


def test_a_match_is_played_on_by_bots_after_leaving(browser, room) -> None:
    """The table does not sit waiting for the leaver while his tab stays open on the lobby."""
    with (solo_table(browser, room, "Leaver", "500") as player,
          Player(browser, base_url(room), "Watcher", DESKTOP) as watcher):
        play_until(player, lambda: player.phase() == "bidding" and player.my_turn())
        table = player.table_id()
        player.page.click("[data-testid=leave]")
        player.page.click("[data-testid=leave-confirm-button]")
        expect(player.page.locator("[data-testid=lobby]")).to_be_visible()
        watcher.register()
        watcher.page.goto(base_url(room) + f"#table={table}")
        expect(watcher.table).to_be_visible()
        # The leaver's bot bids for him: the bidding moves past his seat.
        his_seat = watcher.page.locator(".ct-seat[data-seat='0']")
        expect(his_seat.locator("[data-testid=seat-bid]")).to_be_visible()
        expect(his_seat.locator(".ct-presence")).to_have_text("bot playing")
        screenshot(watcher.page, "polish-3-watching-a-bot-play-for-the-leaver-desktop")


# -- 8. house rules in players' words -----------------------------------------------------------


@pytest.mark.parametrize(("size", "viewport"), SIZES)
@pytest.mark.parametrize("game", ["500", "1000"])
def test_house_rules_speak_players_words(browser, room, game, size, viewport) -> None:
    with Player(browser, base_url(room), f"Host {game}", viewport) as player:
        player.register()
        page = player.page
        page.click("[data-testid=new-table]")
        page.select_option("#new-game", game)
        page.click("#house-rules summary")
        options = page.locator("#house-rules select option")
        expect(options.first).to_be_attached()
        for text in options.all_inner_texts():
            assert "_" not in text, text  # no code word offered as a choice
        for text in page.locator("#house-rules label, #house-rules p").all_inner_texts():
            assert "_" not in text and "None:" not in text and "null:" not in text, text
        if game == "500":
            teams = page.locator("#house-six_handed_teams option").all_inner_texts()
            assert teams == ["Two teams of three", "Three teams of two"]
        for select in page.locator("#house-rules select").all():  # nothing cut off
            assert select.evaluate("n => n.scrollWidth <= n.clientWidth + 1"), select.inner_text()
        page.locator("#house-rules select").last.scroll_into_view_if_needed()
        screenshot(page, f"polish-8-house-rules-{game}-{size}")


# -- 6. the kitty swap sorts the hand, and 7. the contract line in words ------------------------


def after_the_bidding(bid: str = "bid 6H") -> Game:
    """A 500 hand whose first bidder bid ``bid`` and the others passed: the kitty is theirs."""
    game = Game.new("online", seed=7)
    opened = False
    while game.view(game.to_act)["phase"] == "bidding":
        legal = [str(action) for action in game.legal_actions()]
        action = bid if not opened and bid in legal else "pass"
        opened = opened or action == bid
        game.apply(action)
    return game


@pytest.mark.parametrize(("size", "viewport"), SIZES)
def test_a_card_from_the_kitty_takes_its_sorted_place_in_the_hand(browser, room, size,
                                                                 viewport) -> None:
    with room_page(browser, room, "Swapper", viewport) as player:
        page = player.page
        game = after_the_bidding()
        seat = game.to_act
        view = game.view(seat)
        assert view["phase"] == "discard"
        show_table(page, table_message(view, seat, NAMES))
        kitty = page.locator("[data-testid=kitty] [data-card]")
        hand = page.locator("[data-testid=hand] [data-card]")
        expect(kitty).to_have_count(5)
        taken = kitty.last.get_attribute("data-card")
        given = hand.first.get_attribute("data-card")
        kitty.last.click()
        hand.first.click()
        order = view["hand"]  # the server's order: trumps first, by the contract's ranking
        in_kitty = set(kitty.evaluate_all("nodes => nodes.map(n => n.dataset.card)"))
        assert given in in_kitty and taken not in in_kitty
        assert player.hand() == [card for card in order if card not in in_kitty]
        screenshot(page, f"polish-6-kitty-swap-{size}")


def test_the_contract_line_says_what_the_tricks_mean(browser, room) -> None:
    with room_page(browser, room, "Counter", DESKTOP) as player:
        page = player.page
        game = after_the_bidding("bid 7H")
        game.apply("discard " + " ".join(game.view(game.to_act)["hand"][-5:]))
        show_table(page, table_message(game.view(0), 0, NAMES))
        count = page.locator("[data-testid=trick-count]")
        expect(count).to_have_text("7 to make · 0 won·0 against")
        assert "needs 7 tricks" in count.get_attribute("title")
        screenshot(page, "polish-7-contract-line-desktop")


# -- 9. 1000: looking first, and the bank once taken --------------------------------------------


def blind_bidding_message() -> dict[str, Any]:
    """A 1000 table message where the viewer, not having looked, is to bid."""
    game = ThousandGame.new("seed", seed=3)
    while "look" not in [str(action) for action in game.legal_actions()]:
        game.apply("pass" if "pass" in [str(a) for a in game.legal_actions()] else "look")
    return table_message(game.view(game.to_act), game.to_act, ["Ann", "Ben", "Cat"], "1000")


@pytest.mark.parametrize(("size", "viewport"), SIZES)
def test_1000_suggests_looking_and_asks_before_a_blind_bid(browser, room, size,
                                                          viewport) -> None:
    with room_page(browser, room, "Blind", viewport) as player:
        page = player.page
        show_table(page, blind_bidding_message())
        look, bid = page.locator("[data-testid=look]"), page.locator("[data-testid=bid-submit]")
        expect(look).to_have_class(re.compile(r"\bct-primary\b"))
        expect(bid).not_to_have_class(re.compile(r"\bct-primary\b"))
        screenshot(page, f"polish-9-look-first-{size}")
        bid.click()
        expect(bid).to_contain_text("Sure?")
        assert page.evaluate("window.sent") == []  # one click never bids blind
        screenshot(page, f"polish-9-blind-asked-{size}")
        page.wait_for_timeout(400)
        bid.click()
        assert page.evaluate("window.sent")[0].endswith("blind")


def test_the_bank_leaves_the_middle_once_taken(browser, room) -> None:
    with solo_table(browser, room, "Banker", "1000") as player:
        page = player.page
        bank = page.locator("[data-testid=bank]")
        expect(bank.locator(".ct-back")).to_have_count(3)
        deadline = time.monotonic() + 90
        while player.phase() == "bidding":
            assert time.monotonic() < deadline
            if player.my_turn():
                # Look at my cards where the table offers it, else the lowest bid (I take
                # the bank): whichever shows, once the turn is drawn (a look and a click
                # read apart could see the controls before and after the redraw).
                page.locator("[data-testid=look]:visible, "
                             "[data-testid=bid-submit]:visible").first.click()
                time.sleep(0.5)
            time.sleep(0.05)
        expect(bank).to_be_hidden()
        expect(page.locator("[data-testid=bank-taken]")).to_be_visible()
        screenshot(page, "polish-9-bank-taken-desktop")


# -- 10. the rules and help pages ---------------------------------------------------------------


@pytest.mark.parametrize(("size", "viewport"), SIZES)
def test_rules_and_help_look_like_the_room_and_nothing_is_missing(browser, room, size,
                                                                  viewport) -> None:
    missing: list[str] = []
    with Player(browser, base_url(room), "Reader", viewport) as player:
        player.page.on("response", lambda r: r.status >= 400 and missing.append(r.url))
        page = player.page
        page.goto(base_url(room))
        felt = page.evaluate("getComputedStyle(document.body).backgroundColor")
        for path in ("rules", "rules/1000/seed", "help"):
            page.goto(base_url(room) + path)
            expect(page.locator(".site-header .brand-game")).to_have_text("— 500 & 1000")
            assert page.evaluate("getComputedStyle(document.body).backgroundColor") == felt
            screenshot(page, f"polish-10-{path.replace('/', '-')}-{size}")
        page.goto(base_url(room) + "favicon.ico")
        assert not missing, missing
        assert not player.errors, player.errors


# -- 11. misclicks ------------------------------------------------------------------------------


def play_view() -> dict[str, Any]:
    """Seat 0 to play, several cards playable (the lead of a 7♥ contract)."""
    game = after_the_bidding("bid 7H")
    game.apply("discard " + " ".join(game.view(game.to_act)["hand"][-5:]))
    return game.view(0)


def test_a_double_tap_chooses_once_and_a_settling_screen_takes_no_tap(browser, room) -> None:
    with room_page(browser, room, "Fumbler", PHONE) as player:
        page = player.page
        view = play_view()
        show_table(page, table_message({**view, "to_act": 1, "legal_actions": []}, 0, NAMES))
        # A tap landing as my turn comes is not meant for the card now under it. The turn and
        # the tap arrive in one script, so that a loaded machine cannot let the screen settle
        # between them.
        page.evaluate("""message => {
            window.view.update(message);
            document.querySelector("[data-testid=hand] [data-card].playable")
                .dispatchEvent(new MouseEvent("click", {detail: 1, bubbles: true}));
        }""", {**table_message(view, 0, NAMES), "version": 2})
        assert page.evaluate("window.sent") == []
        card = page.locator("[data-testid=hand] [data-card].playable").first
        page.wait_for_timeout(400)  # settled
        card.dblclick()  # the second tap of a double tap goes nowhere
        page.wait_for_timeout(200)
        assert len(page.evaluate("window.sent")) == 1


def test_a_double_click_on_a_bid_selects_it_once(browser, room) -> None:
    with room_page(browser, room, "Bidder", DESKTOP) as player:
        page = player.page
        game = Game.new("online", seed=3)
        show_table(page, table_message(game.view(game.to_act), game.to_act, NAMES))
        page.wait_for_timeout(400)
        bid = page.locator("[data-testid=bid-grid] [data-bid='7H']")
        bid.dblclick()
        expect(bid).to_have_class(re.compile(r"\bselected\b"))  # not selected, then unselected
        page.locator("[data-testid=bid-submit]").dblclick()
        page.wait_for_timeout(200)
        assert page.evaluate("window.sent") == ["bid 7H"]


# -- 5. the phone -------------------------------------------------------------------------------


def box(page: Page, selector: str) -> dict[str, float]:
    """The bounding box of the first element matching ``selector``."""
    return page.eval_on_selector(selector, """n => {
        const r = n.getBoundingClientRect();
        return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width};
    }""")


def test_the_phone_table_is_laid_out_for_a_phone(browser, room) -> None:
    with room_page(browser, room, "Thumbs", PHONE) as player:
        page = player.page
        game = Game.new("online", seed=3)
        me = game.to_act
        game_view = game.view(me)
        names = ["Alexandra", "Bartholomew", "Christina", "Dominic"]
        show_table(page, table_message(game_view, me, names))
        panel = page.locator(".ct-bidding")
        expect(panel).to_be_visible()
        screenshot(page, "polish-5-phone-bidding")
        for side in ("left", "right"):  # the grid leaves the side seats in view
            assert not overlaps(page, ".ct-bidding", f".ct-seat.pos-{side} .ct-plate"), side
        felt, grid = box(page, ".ct-felt"), box(page, ".ct-bidding")
        tricks = box(page, ".ct-grid-tricks")
        middle = (felt["left"] + felt["right"]) / 2
        assert abs((grid["left"] + grid["right"]) / 2 - middle) < 3  # centred
        assert abs((tricks["left"] + tricks["right"]) / 2 - middle) < 3
        assert grid["left"] >= 0 and grid["right"] <= PHONE["width"]
        for plate in page.locator(".ct-plate:visible").all():  # the name on a line of its own
            name = plate.locator(".ct-name").bounding_box()
            for chip in plate.locator(":scope > :not(.ct-name):visible").all():
                assert chip.bounding_box()["y"] >= name["y"] + name["height"] - 1
        cards = page.locator("[data-testid=hand] [data-card]").all()
        lefts = [card.bounding_box()["x"] for card in cards]
        assert min(b - a for a, b in pairwise(lefts)) >= 28  # each card shows enough to tap
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
