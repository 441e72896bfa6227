"""Replays in Chromium (issue 22): a finished match replays hand by hand and card by card, with
every hand shown or only the seat's own, by buttons, keys and the slider, at desktop and phone
sizes; a private table's match stays closed to a stranger; a player at a match in progress
replays the hand just over from the score panel and goes back to the table."""

from __future__ import annotations

import asyncio
import json
import re
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.sync_api import Page, expect
from tests.browser.conftest import DESKTOP, PHONE, Player, screenshot
from tests.browser.test_table import base_url, play_until, settled_trick
from tests.conftest import ServerProcess

from cardroom.tools.client import Client

ANALYSIS_WAIT_MS = 180_000
"""How long a test waits for the solver's analysis of a replayed match. Alone it takes
seconds; it runs in the room's bot workers while the other test workers load the same two
cores, and once took over a minute."""

QUICK = {"target": 50}
"""A 500 match that ends with the first made contract (or soon after)."""


@pytest.fixture(scope="module")
def replay_room(tmp_path_factory: pytest.TempPathFactory):
    """A room whose bots act at once, with a finished open match and a finished private one
    (bots played both for Cleo, who left): their table ids."""
    database = tmp_path_factory.mktemp("replays") / "room.sqlite3"
    server = ServerProcess(database, **{"bot-delay": 0, "next-match-delay": 3600})
    server.start()
    try:
        with ThreadPoolExecutor(1) as thread:  # Playwright's loop runs on this one
            tables = thread.submit(asyncio.run, _finished_matches(server)).result()
        yield server, tables
    finally:
        server.stop()


async def _finished_matches(server: ServerProcess) -> dict[str, str]:
    client = Client(server.url)
    await client.connect()
    token = await client.register("Cleo")
    tables = {}
    for kind, private in (("open", False), ("private", True)):
        table_id = await client.create_table(rules=QUICK, private=private)
        await client.say(table_id, text="Good luck, everyone!")
        await client.start_with_bots(table_id)
        await client.leave(table_id)
        tables[kind] = table_id
    for _ in range(400):
        done = [_finished(server, table_id, token) for table_id in tables.values()]
        if all(done):
            await client.close()
            return tables
        await asyncio.sleep(0.1)
    raise AssertionError("the matches did not end")


def _finished(server: ServerProcess, table_id: str, token: str) -> bool:
    """Whether the table's first match is over, as its replay tells Cleo, who played it."""
    request = urllib.request.Request(f"{base_url(server)}api/replays/{table_id}/1",
                                     headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request) as answer:
            return bool(json.load(answer)["finished"])
    except OSError:  # 404 until the match starts
        return False


def shown(page: Page, selector: str):
    """What the replay draws (the page may hold a live table too, hidden behind it)."""
    return page.locator(f"[data-testid=replay] {selector}")


def counter(page: Page) -> str:
    return page.locator("[data-testid=replay-slider]").input_value()


def open_seats(page: Page) -> int:
    """Seats other than the bottom one whose cards are shown face up."""
    return shown(page, ".ct-seat:not(.pos-bottom) .ct-seat-cards.open").count()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_finished_match_replays_card_by_card(browser, replay_room, size: str) -> None:
    server, tables = replay_room
    viewport = DESKTOP if size == "desktop" else PHONE
    with Player(browser, base_url(server), f"Ann{size}", viewport) as ann:
        ann.register()
        ann.page.goto(f"{base_url(server)}#replay={tables['open']}/1")
        page = ann.page
        expect(page.locator("[data-testid=replay-title]")).to_contain_text("500")
        expect(page.locator("[data-testid=replay-move]")).to_contain_text("the cards are dealt")
        assert counter(page) == "0"
        expect(page.locator("[data-testid=replay-pbn]")).to_have_attribute(
            "href", f"/api/matches/{tables['open']}/1/pbn")
        assert open_seats(page) == 3  # every hand shown: the three other seats face up
        expect(shown(page, "[data-testid=hand] [data-card]")).to_have_count(10)
        screenshot(page, f"replay-{size}-1-deal")

        page.uncheck("[data-testid=replay-all-hands]")
        expect(shown(page, ".ct-seat-cards.open")).to_have_count(0)
        page.check("[data-testid=replay-all-hands]")

        page.keyboard.press("ArrowRight")
        assert counter(page) == "1"
        move = page.locator("[data-testid=replay-move]")
        expect(move).to_contain_text(re.compile(r": (bid|pass)"))
        expect(page.locator("[data-testid=replay-auction]")).to_contain_text(
            re.compile(r"^Calls: \S+ .*(pass|misere|[6-9♠♣♦♥NT]+)"))
        page.click("[data-testid=replay-next-trick]")
        expect(move).to_contain_text("takes the trick")
        expect(shown(page, "[data-testid=trick] [data-card]")).to_have_count(4)
        settled_trick(ann)  # the cards have flown in from their seats
        screenshot(page, f"replay-{size}-2-first-trick")

        page.click("[data-testid=replay-analyse]")  # the solver's verdict on the card shown
        analysis = page.locator("[data-testid=replay-analysis]")
        expect(analysis).to_have_attribute("data-state", "ready", timeout=ANALYSIS_WAIT_MS)
        expect(page.locator("[data-testid=replay-par]")).to_contain_text("Double dummy")
        expect(page.locator("[data-testid=replay-verdict]")).to_contain_text(
            re.compile(r"was best|cost \d trick"))
        screenshot(page, f"replay-{size}-2b-analysis")
        page.keyboard.press("Home")
        expect(page.locator("[data-testid=replay-verdict]")).to_have_count(0)
        expect(analysis).to_contain_text(re.compile(r"No card of this hand cost a trick|"
                                                    r"Cards that cost tricks"))
        page.keyboard.press("ArrowRight")  # the first call, beside the Expert bot's
        expect(page.locator("[data-testid=replay-call]")).to_contain_text("Expert bot")
        page.click("[data-testid=replay-next-trick]")

        shown(page, "[data-testid=hand] [data-card]").first.click()
        expect(page.locator("[data-testid=notice]")).to_contain_text("This is a replay")

        page.keyboard.press("End")
        expect(shown(page, "[data-testid=hand-result]")).to_be_visible()
        expect(shown(page, "[data-testid=status]")).to_have_text("The hand is over")
        with urllib.request.urlopen(f"{base_url(server)}api/replays/{tables['open']}/1") as got:
            summary = json.load(got)["history"][0]["summary"]
        expect(move).to_contain_text(summary.split(":")[0])  # the hand's verdict
        screenshot(page, f"replay-{size}-3-end")

        page.keyboard.press("Home")
        assert counter(page) == "0"
        expect(shown(page, "[data-testid=hand-result]")).to_be_hidden()
        page.select_option("[data-testid=replay-seat]", "1")
        expect(shown(page, "[data-testid=table]")).to_have_attribute("data-seat", "1")
        assert "seat=1" in page.url
        page.reload()  # the link holds the hand, the step and the seat
        expect(shown(page, "[data-testid=table]")).to_have_attribute("data-seat", "1")
        expect(page.locator("[data-testid=replay-chat]")).to_contain_text("Good luck")
        assert not ann.errors, ann.errors


def test_a_private_tables_replay_is_closed_to_a_stranger(browser, replay_room) -> None:
    server, tables = replay_room
    with Player(browser, base_url(server), "Stranger") as stranger:
        stranger.register()
        stranger.page.goto(f"{base_url(server)}#replay={tables['private']}/1")
        expect(stranger.page.locator("[data-testid=players-error]")).to_have_text(
            "There is no such match to replay.")
        assert not stranger.errors, stranger.errors


def test_a_player_replays_the_hand_just_over_and_goes_back_to_the_table(
        browser, replay_room) -> None:
    server, _ = replay_room
    with Player(browser, base_url(server), "Dan") as dan:
        dan.register()
        dan.create_table()
        dan.page.click("[data-testid=start-with-bots]")
        scores = dan.page.locator("#scores-root")
        play_until(dan, lambda: scores.locator("[data-testid=hand-replay]").count() > 0,
                   seconds=120)
        scores.locator("[data-testid=hand-replay]").first.click()
        page = dan.page
        expect(page.locator("[data-testid=replay-title]")).to_contain_text("match 1")
        expect(shown(page, ".ct-seat.pos-bottom .ct-you")).to_be_visible()  # Dan's seat
        page.keyboard.press("End")
        expect(shown(page, "[data-testid=hand-result]")).to_be_visible()
        screenshot(page, "replay-desktop-4-hand-just-over")
        page.click("[data-testid=to-table]")
        expect(page.locator("[data-testid=replay]")).to_have_count(0)  # one table in the page
        expect(dan.table).to_be_visible()
        assert not dan.errors, dan.errors


def test_a_downloaded_record_imports_back_to_the_same_replay(browser, replay_room,
                                                             tmp_path) -> None:
    server, tables = replay_room
    with Player(browser, base_url(server), "Eli") as eli:
        eli.register()
        page = eli.page
        page.goto(f"{base_url(server)}#replay={tables['open']}/1&step=5")
        expect(page.locator("[data-testid=replay-slider]")).to_have_value("5")
        hands = page.locator("[data-testid=replay-hand] option").all_inner_texts()
        move = page.locator("[data-testid=replay-move]").inner_text()
        with page.expect_download() as download:
            page.click("[data-testid=replay-record]")
        record = tmp_path / "match.record"
        download.value.save_as(record)

        page.click("[data-testid=watch-record]")
        bad = tmp_path / "notes.txt"
        bad.write_text("shopping: eggs\n", encoding="utf-8")
        page.set_input_files("[data-testid=replay-file]", str(bad))
        expect(page.locator("[data-testid=replay-file-error]")).to_contain_text(
            "not a match record")
        page.set_input_files("[data-testid=replay-file]", str(record))
        expect(shown(page, "[data-testid=table]")).to_be_visible()
        assert page.locator("[data-testid=replay-hand] option").all_inner_texts() == hands
        expect(page.locator("[data-testid=replay-move]")).to_contain_text("the cards are dealt")
        for _ in range(5):
            page.keyboard.press("ArrowRight")
        expect(page.locator("[data-testid=replay-move]")).to_have_text(
            move.replace("Cleo", "Seat 1").replace("Bot ", "Seat "))
        assert "#replay=import&" in page.url
        page.reload()  # the file stays with the tab
        expect(shown(page, "[data-testid=table]")).to_be_visible()
        screenshot(page, "replay-desktop-5-imported")
        page.click("[data-testid=replay-another]")
        expect(page.locator("[data-testid=replay-import]")).to_be_visible()
        assert not eli.errors, eli.errors


@pytest.mark.parametrize(("size", "viewport"), [("desktop", DESKTOP), ("phone", PHONE)])
def test_a_1000_deal_replays_with_the_solvers_verdicts_in_points(browser, replay_room, tmp_path,
                                                                 size: str, viewport) -> None:
    """An imported match of 1000 (rules bots): the analysis says whether the bet could be made
    double dummy and what the defenders would score, and every card's verdict counts points."""
    from cardroom.games.thousand import Rules as ThousandRules
    from cardroom.tools.arena import play_match

    server, _ = replay_room
    text = play_match(ThousandRules.preset("seed"), 4, "rules", "rules", 0, keep_record=True,
                      hands=2).record
    assert text is not None
    record = tmp_path / "thousand.record"
    record.write_text(text, encoding="utf-8")
    with Player(browser, base_url(server), f"Zofia {size}", viewport) as zofia:
        zofia.register()
        page = zofia.page
        page.goto(f"{base_url(server)}#replay=import")
        page.set_input_files("[data-testid=replay-file]", str(record))
        expect(shown(page, "[data-testid=table]")).to_be_visible()
        page.click("[data-testid=replay-analyse]")
        analysis = page.locator("[data-testid=replay-analysis]")
        expect(analysis).to_have_attribute("data-state", "ready", timeout=ANALYSIS_WAIT_MS)
        expect(page.locator("[data-testid=replay-par]")).to_have_text(re.compile(
            r"^Double dummy, [\w ]+ (makes|fails) the bet of \d+( blind)? and the defenders "
            r"score \d+\. At the table [\w ]+ (made it|went down) with \d+\."))
        page.click("[data-testid=replay-last]")  # the deal's last card, and its verdict
        verdict = page.locator("[data-testid=replay-verdict]")
        expect(verdict).to_have_text(re.compile(
            r"was best: the bet (is made|fails), the defenders score \d+\.$|"
            r"(cost \d+ points?|lost the bet|let the bet be made)"))
        screenshot(page, f"replay-{size}-6-thousand-analysis")
        assert not zofia.errors, zofia.errors
