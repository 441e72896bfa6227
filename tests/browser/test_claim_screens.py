"""Claims in the play of 500, in Chromium at desktop and phone sizes: the Claim button and its
chooser, the banner of a claim waiting for the opponents' answers with Accept and Refuse, a
hand conceded at once on a real server, and two people at one table where one claims the rest
and the other answers while a bot refuses."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect
from tests.browser.conftest import DESKTOP, PHONE, Player, screenshot, show_table, table_message
from tests.browser.test_table import base_url, result_shown, start_solo_game

from cardroom.games.five_hundred import Game

SIZES = [("desktop", DESKTOP), ("phone", PHONE)]
NAMES = ["Ann", "Ben", "Cat", "Dan"]
HANDS = ["JK AS KS QS AH KH QH AD KD QD", "4S 5S 6S 7S 8S 9S 10S JS 4H 5H",
         "6H 7H 8H 9H 10H JH 4D 5D 6D 7D", "8D 9D 10D JD 4C 5C 6C 7C 8C 9C"]
KITTY = ["10C", "JC", "QC", "KC", "AC"]
HAND_SECONDS = 240
SHOWN_CARDS = "[data-testid=seat][data-seat='0'] .ct-seat-cards.open [data-card]"
"""Ann's hand, shown at her seat."""


def game_on_lead(contract: str = "bid 8NT") -> Game:
    """A real game (from the engine) where Ann (seat 0) has won the bidding and is on lead."""
    game = Game.from_deal("online", dealer=3, hands=[h.split() for h in HANDS], kitty=KITTY)
    for action in (contract, "pass", "pass", "pass", "discard 10C JC QC KC AC"):
        game.apply(action)
    return game


def claims(player: Player) -> int:
    """How many counts the chooser offers (it opens and closes again)."""
    page = player.page
    page.click("[data-testid=claim]")
    count = page.locator("[data-testid=claim-count]").count()
    page.click("[data-testid=claim-cancel]")
    return count


def sent(player: Player) -> list[str]:
    return player.page.evaluate("window.sent")


@pytest.mark.parametrize(("size", "viewport"), SIZES)
def test_the_claim_button_opens_the_chooser_and_confirm_sends_the_claim(
        browser, room, size, viewport) -> None:
    player = Player(browser, base_url(room), f"Claimer {size}", viewport)
    try:
        page = player.page
        page.goto(base_url(room))
        view = game_on_lead().view(0)
        assert view["claims"] == list(range(11))
        show_table(page, table_message(view, 0, NAMES))
        button = page.locator("[data-testid=claim]")
        chooser = page.locator("[data-testid=claim-chooser]")
        expect(button).to_be_visible()
        expect(chooser).to_be_hidden()

        button.click()
        expect(chooser).to_be_visible()
        counts = chooser.locator("[data-testid=claim-count]")
        expect(counts).to_have_count(11)
        assert counts.all_inner_texts()[:3] == ["All 10", "9 of 10", "8 of 10"]
        assert counts.last.inner_text() == "None: concede"
        chosen = chooser.locator("[data-testid=claim-count][aria-pressed=true]")
        expect(chosen).to_have_attribute("data-tricks", "10")  # all of them at first
        expect(chosen).to_be_focused()  # keyboard players start on it
        expect(chooser).to_contain_text("the solver proves the claim, the hand ends at once")
        expect(chooser.locator("[data-testid=claim-confirm]")).to_have_text(
            "Claim all 10 tricks left")
        for target in [button, *counts.all(), chooser.locator("button").last]:
            box = target.bounding_box()
            assert box["height"] >= 40 and box["width"] >= 44, box  # a finger's tap
            assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], box
        screenshot(page, f"{size}-claim-1-chooser")

        chooser.locator("[data-testid=claim-cancel]").click()  # Cancel sends nothing
        expect(chooser).to_be_hidden()
        button.click()
        page.keyboard.press("Escape")  # nor does Escape
        expect(chooser).to_be_hidden()
        assert sent(player) == []

        button.click()
        chooser.locator("[data-testid=claim-count][data-tricks='7']").click()
        expect(chooser.locator("[data-testid=claim-confirm]")).to_have_text(
            "Claim 7 of the 10 tricks left")
        chooser.locator("[data-testid=claim-confirm]").click()
        expect(chooser).to_be_hidden()
        assert sent(player) == ["claim 7"]

        # The keyboard alone: Tab to the button, Enter opens, arrows are not needed.
        page.evaluate("window.sent = []")
        button.focus()
        page.keyboard.press("Enter")
        expect(chooser).to_be_visible()
        chooser.locator("[data-testid=claim-count][data-tricks='0']").focus()
        page.keyboard.press("Enter")
        expect(chooser.locator("[data-testid=claim-confirm]")).to_have_text(
            "Concede the 10 tricks left")
        chooser.locator("[data-testid=claim-confirm]").focus()
        page.keyboard.press("Enter")
        assert sent(player) == ["claim 0"]
        assert not player.errors, player.errors
    finally:
        player.close()


def test_a_no_tricks_contract_claims_only_no_more_tricks(browser, room) -> None:
    player = Player(browser, base_url(room), "Misere")
    try:
        page = player.page
        page.goto(base_url(room))
        view = game_on_lead("bid misere").view(0)
        assert view["claims"] == [0]
        show_table(page, table_message(view, 0, NAMES))
        page.click("[data-testid=claim]")
        counts = page.locator("[data-testid=claim-count]")
        expect(counts).to_have_text(["No more tricks"])
        page.click("[data-testid=claim-confirm]")
        assert sent(player) == ["claim 0"]
    finally:
        player.close()


def claim_waiting(answering: int) -> dict:
    """Ann claims 7 of the 10 tricks left (not proven); Ben has accepted if Dan answers."""
    game = game_on_lead()
    game.apply("claim 7")
    if answering == 3:
        game.apply("accept")
    view = game.view(answering)
    assert view["phase"] == "claim" and view["legal_actions"] == ["accept", "refuse"]
    return view


@pytest.mark.parametrize(("size", "viewport"), SIZES)
@pytest.mark.parametrize("answer", ["accept", "refuse"])
def test_a_waiting_claim_shows_its_banner_and_the_answer_buttons(
        browser, room, size, viewport, answer) -> None:
    player = Player(browser, base_url(room), f"Answerer {size}", viewport)
    try:
        page = player.page
        page.goto(base_url(room))
        seat = 1 if answer == "accept" else 3
        show_table(page, table_message(claim_waiting(seat), seat, NAMES))
        banner = page.locator("[data-testid=claim-banner]")
        expect(banner).to_be_visible()
        expect(banner.locator("[data-testid=claim-banner-title]")).to_have_text(
            "Ann claims 7 of the 10 tricks left")
        expect(banner.locator("[data-testid=claim-consent]")).to_have_text(
            "Both opponents must accept.")
        answers = banner.locator("[data-testid=claim-answers]")
        expect(answers).to_have_text("Your answer · then Dan" if seat == 1
                                     else "Ben accepted · Your answer")
        status = page.locator("[data-testid=status]")
        expect(status).to_have_text("Accept or refuse Ann's claim")
        expect(status).not_to_contain_text(re.compile("your turn", re.IGNORECASE))
        # Ann's hand is shown at her seat (across the table from Ben, at Dan's left).
        shown = page.locator(SHOWN_CARDS)
        expect(shown).to_have_count(10)
        for card in shown.all():
            expect(card).to_be_visible()
            box = card.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], box
        banner_box = banner.bounding_box()
        for card in shown.all():  # the banner covers none of them
            box = card.bounding_box()
            apart = (box["y"] + box["height"] <= banner_box["y"]
                     or box["y"] >= banner_box["y"] + banner_box["height"]
                     or box["x"] + box["width"] <= banner_box["x"]
                     or box["x"] >= banner_box["x"] + banner_box["width"])
            assert apart, (box, banner_box)
        expect(page.locator("[data-testid=claim]")).to_be_hidden()
        for button in ("claim-accept", "claim-refuse"):
            box = banner.locator(f"[data-testid={button}]").bounding_box()
            assert box["height"] >= 40, box
        screenshot(page, f"{size}-claim-2-answer-{answer}")
        banner.locator(f"[data-testid=claim-{answer}]").click()
        assert sent(player) == [answer]
        assert not player.errors, player.errors
    finally:
        player.close()


def test_the_claimant_and_its_partner_see_the_banner_without_answer_buttons(
        browser, room) -> None:
    player = Player(browser, base_url(room), "Partner")
    try:
        page = player.page
        page.goto(base_url(room))
        for seat, title, status in (
                (0, "You claim 7 of the 10 tricks left", "Your claim: waiting for Ben to answer"),
                (2, "Ann claims 7 of the 10 tricks left",
                 "Waiting for Ben to answer Ann's claim")):
            game = game_on_lead()
            game.apply("claim 7")
            show_table(page, table_message(game.view(seat), seat, NAMES))
            banner = page.locator("[data-testid=claim-banner]")
            expect(banner.locator("[data-testid=claim-banner-title]")).to_have_text(title)
            expect(banner.locator("[data-testid=claim-answers]")).to_have_text(
                "Waiting for Ben · then Dan")
            expect(banner.locator("[data-testid=claim-accept]")).to_be_hidden()
            expect(page.locator("[data-testid=status]")).to_have_text(status)
    finally:
        player.close()


def test_a_hand_ended_on_a_proven_claim_shows_the_claimed_tricks(browser, room) -> None:
    """The message that ends the hand holds the next deal: the table draws the hand as it
    ended, with the tricks the result counts and the claimant's hand as it was shown."""
    player = Player(browser, base_url(room), "Watcher")
    try:
        page = player.page
        page.goto(base_url(room))
        game = game_on_lead()
        before = table_message(game.view(1), 1, NAMES)
        show_table(page, before)
        events = game.apply("claim 9 proven")
        after = {**table_message(game.view(1), 1, NAMES), "version": 2, "events": events}
        page.evaluate("message => window.view.update(message)", after)
        result = page.locator("[data-testid=hand-result]")
        expect(result).to_be_visible()
        expect(result.locator("[data-testid=result-claim]")).to_have_text(
            "The hand ended on a claim the solver proved: Ann's side took 9 of the "
            "10 tricks left and conceded 1.")
        expect(page.locator("[data-testid=news]")).to_be_hidden()  # the result says it all
        tricks = page.locator("[data-testid=seat-tricks]")
        expect(page.locator("[data-testid=seat][data-seat='0'] [data-testid=seat-tricks]")
               ).to_have_text("9 tricks")
        expect(page.locator("[data-testid=seat][data-seat='1'] [data-testid=seat-tricks]")
               ).to_have_text("1 trick")
        assert tricks.count() >= 4
        expect(page.locator("[data-testid=trick-count]")).to_contain_text("9 won")
        expect(page.locator(SHOWN_CARDS)).to_have_count(10)
    finally:
        player.close()


# -- on a real server --------------------------------------------------------------------------


def seat_tricks(player: Player) -> int:
    """The tricks on every nameplate, added up."""
    texts = player.page.locator("[data-testid=seat-tricks]").all_inner_texts()
    return sum(int(text.split()[0]) for text in texts if text.strip())


@pytest.mark.parametrize(("size", "viewport"), SIZES)
def test_conceding_the_rest_on_lead_ends_the_hand_at_once(browser, room, size, viewport) -> None:
    player = start_solo_game(browser, room, f"Conceder {size}", viewport)
    try:
        page = player.page
        button = page.locator("[data-testid=claim]")
        deadline = time.monotonic() + HAND_SECONDS
        while not button.is_visible():  # on lead in the play (bidding: pass)
            assert time.monotonic() < deadline, "never on lead in the play"
            if player.my_turn():
                player.act()
            else:
                time.sleep(0.05)
        assert player.phase() == "play" and player.my_turn()
        left = len(player.hand())
        button.click()
        chooser = page.locator("[data-testid=claim-chooser]")
        expect(chooser.locator("[data-testid=claim-count]")).to_have_count(left + 1)
        chooser.locator("[data-testid=claim-count][data-tricks='0']").click()
        chooser.locator("[data-testid=claim-confirm]").click()
        result = page.locator("[data-testid=hand-result]")
        expect(result).to_be_visible()
        expect(result.locator("[data-testid=result-claim]")).to_contain_text(
            "The hand ended on a claim the solver proved: your side conceded the")
        assert seat_tricks(player) == 10  # the conceded tricks are counted to the others
        expect(page.locator("[data-testid=status]")).to_contain_text("The hand is over")
        screenshot(page, f"{size}-claim-3-hand-end")
        assert not player.errors, player.errors
    finally:
        player.close()


def claim_everything(ann: Player) -> bool:
    """Ann claims all the tricks left at her turn to play; False when she may not claim
    anything but none (a no-tricks contract of hers) or has no Claim button."""
    page = ann.page
    if not page.locator("[data-testid=claim]").is_visible():
        return False
    page.click("[data-testid=claim]")
    counts = page.locator("[data-testid=claim-count]")
    if counts.count() < 2:
        page.click("[data-testid=claim-cancel]")
        return False
    expect(counts.first).to_have_attribute("aria-pressed", "true")  # all of them
    screenshot(page, "desktop-claim-4-claiming-all")
    version = ann.version()
    page.click("[data-testid=claim-confirm]")
    ann.wait_for_change(version)
    return True


def test_two_people_one_claims_the_rest_and_play_goes_on_when_refused(browser, room) -> None:
    ann = Player(browser, base_url(room), "Ann", DESKTOP)
    ben = Player(browser, base_url(room), "Ben", PHONE)
    try:
        ann.register()
        page = ann.page
        page.click("[data-testid=new-table]")
        page.select_option("#new-preset", "online")
        page.click("#house-rules summary")
        page.select_option("#house-claims", "turn")  # a claim at any turn, not only on lead
        page.select_option("#house-claim_consent", "both")
        page.click("[data-testid=create-table]")
        expect(ann.table).to_be_visible()
        table_id = ann.table_id()
        ben.register()
        ben.join(table_id, 1)
        page.click("[data-testid=start-with-bots]")
        for player in (ann, ben):
            expect(player.page.locator("[data-testid=hand] [data-card]")).to_have_count(10)

        deadline = time.monotonic() + 3 * HAND_SECONDS
        proven_hands = 0
        while True:
            assert time.monotonic() < deadline, "Ann's claim never reached Ben"
            if ben.my_turn() and ben.phase() != "claim":
                ben.act()
            elif ann.my_turn() and ann.phase() == "play" and claim_everything(ann):
                if ann.phase() == "claim":
                    break
                # The solver proved it at once: the hand simply ended. Claim in a later one.
                expect(page.locator("[data-testid=result-claim]")).to_contain_text(
                    "a claim the solver proved")
                proven_hands += 1
            elif ann.my_turn():
                ann.act()
            else:
                time.sleep(0.05)

        # Ben answers first (clockwise from Ann), then Dan's bot.
        ben_page = ben.page
        expect(ben.table).to_have_attribute("data-phase", "claim")
        banner = ben_page.locator("[data-testid=claim-banner]")
        expect(banner.locator("[data-testid=claim-banner-title]")).to_have_text(
            re.compile(r"^Ann claims (all \d+ tricks left|the last trick)$"))
        expect(banner.locator("[data-testid=claim-consent]")).to_have_text(
            "Both opponents must accept.")
        expect(banner.locator("[data-testid=claim-answers]")).to_have_text(
            re.compile(r"^Your answer · then "))
        expect(ben_page.locator("[data-testid=status]")).to_have_text(
            "Accept or refuse Ann's claim")
        ann_cards = ann.hand()
        shown = ben_page.locator(SHOWN_CARDS)
        expect(shown).to_have_count(len(ann_cards))
        screenshot(ben_page, "phone-claim-5-answering")
        expect(page.locator("[data-testid=claim-banner]")).to_contain_text(
            re.compile(r"You claim .*Waiting for Ben", re.DOTALL))
        screenshot(page, "desktop-claim-6-waiting")

        ben_page.click("[data-testid=claim-accept]")  # Ben accepts; Dan's bot refuses
        expect(ann.table).to_have_attribute("data-phase", "play")
        expect(ben.table).to_have_attribute("data-phase", "play")
        expect(ben_page.locator("[data-testid=news]")).to_contain_text(
            "refuses the claim: play goes on")
        expect(page.locator("[data-testid=claim-banner]")).to_be_hidden()
        # Ann plays on where she stopped; her hand stays shown; no claim before the trick ends.
        expect(ann.table).to_have_attribute("data-to-act", "0")
        expect(page.locator("[data-testid=claim]")).to_be_hidden()
        expect(shown).to_have_count(len(ann_cards))
        screenshot(ben_page, "phone-claim-7-play-goes-on")
        played = ann.play_first_playable()
        expect(shown).to_have_count(len(ann_cards) - 1)
        expect(ben_page.locator(
            f"[data-testid=seat][data-seat='0'] .ct-seat-cards [data-card='{played}']")
        ).to_have_count(0)

        # At Ann's next turn, in a later trick, she may claim again (unless the hand ended).
        deadline = time.monotonic() + HAND_SECONDS
        while not (ann.my_turn() and ann.phase() == "play") and not result_shown(ann):
            assert time.monotonic() < deadline, "Ann never played again"
            if ben.my_turn():
                ben.act()
            else:
                time.sleep(0.05)
        if not result_shown(ann):
            expect(page.locator("[data-testid=claim]")).to_be_visible()
        assert not ann.errors and not ben.errors, (ann.errors, ben.errors, proven_hands)
    finally:
        ann.close()
        ben.close()


def test_a_replay_tells_claims_and_answers_in_words(browser, room, tmp_path) -> None:
    """A record where Ann claims 7 (Ben accepts, Dan refuses), plays on, and later claims the
    rest proven: the replay's step line says so, and its last step shows the hand's end."""
    game = game_on_lead()
    for action in ("claim 7", "accept", "refuse", "play AS", "play 4S", "play 6H", "play 8D",
                   "claim 9 proven"):
        game.apply(action)
    record = tmp_path / "claims.record"
    record.write_text(game.record.to_text(), encoding="utf-8")
    with Player(browser, base_url(room), "Eli", PHONE) as eli:
        eli.register()
        page = eli.page
        page.goto(f"{base_url(room)}#replay=import")
        page.set_input_files("[data-testid=replay-file]", str(record))
        replay = page.locator("[data-testid=replay]")
        expect(replay.locator("[data-testid=table]")).to_be_visible()
        move = page.locator("[data-testid=replay-move]")
        expect(page.locator("[data-testid=replay-counter]")).to_have_text(
            re.compile(r"^0 / 13"))  # the hand's steps are in: the keys step through them
        said = {}
        for step in range(1, 14):
            page.keyboard.press("ArrowRight")
            expect(page.locator("[data-testid=replay-counter]")).to_have_text(
                re.compile(rf"^{step} / "))
            said[step] = move.inner_text()
            if step == 6:  # the claim waits: the banner shows, nobody's buttons
                banner = replay.locator("[data-testid=claim-banner]")
                expect(banner.locator("[data-testid=claim-banner-title]")).to_have_text(
                    re.compile(r"claims 7 of the 10 tricks left$"))
                expect(banner.locator("[data-testid=claim-accept]")).to_be_hidden()
                expect(replay.locator("[data-testid=status]")).to_have_text(
                    re.compile(r"^Waiting for [\w ]+ to answer [\w ]+'s claim$"))
                screenshot(page, "phone-claim-8-replay")
        name = r"[\w ]+"
        assert re.fullmatch(rf"{name} claims 7 of the 10 tricks left: the opponents answer",
                            said[6]), said[6]
        assert re.fullmatch(rf"{name} accepts the claim", said[7]), said[7]
        assert re.fullmatch(rf"{name} refuses the claim: play goes on", said[8]), said[8]
        assert re.fullmatch(rf"{name} claims all 9 tricks left: the solver proves it\. "
                            r"8 no trumps: 10 tricks, made it through\.", said[13]), said[13]
        result = replay.locator("[data-testid=result-claim]")
        expect(result).to_contain_text("The hand ended on a claim the solver proved")
        expect(result).to_contain_text("took all 9 tricks left")
        assert not eli.errors, eli.errors
