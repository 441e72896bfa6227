"""The rules and help pages: generated from the Rules value, served by a tiny app of their own."""

from __future__ import annotations

import re
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any, get_args

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from cardroom.games import text as rules_text
from cardroom.games.five_hundred import ALL_PRESET_NAMES, Rules, RulesError
from cardroom.games.five_hundred.rules import OPTION_TYPES
from cardroom.games.five_hundred.text import explain
from cardroom.web.pages import routes

HOUSE_TABLE = "house1"
PRESET_TABLE = "plain1"


def open_table(rules: Any) -> SimpleNamespace:
    """A stand-in for a live open table: its rules, and anybody may see it."""
    return SimpleNamespace(rules=rules, reachable_by=lambda _player, _invite: True)


@pytest.fixture(scope="module")
def client() -> TestClient:
    """A Starlette app made of the pages' routes only, with a fake room holding two tables."""
    app = Starlette(routes=routes)
    house = Rules.from_dict({"preset": "online", "all_pass": "redeal", "target": 300})
    app.state.room = SimpleNamespace(tables={
        HOUSE_TABLE: open_table(house), PRESET_TABLE: open_table(Rules.preset("classic"))})
    return TestClient(app)


def page(client: TestClient, path: str) -> str:
    """The HTML of a page that must exist."""
    response = client.get(path)
    assert response.status_code == 200, path
    assert response.headers["content-type"].startswith("text/html")
    return response.text


def card_row(html: str, key: str) -> list[str]:
    """The card notations drawn in one card row, in order."""
    match = re.search(rf'data-card-row="{key}"(.*?)</figure>', html, re.S)
    assert match, f"no card row {key}"
    return re.findall(r'data-card-slot="([^"]+)"', match[1])


def cards(text: str) -> list[str]:
    """Card notations from a space-separated string."""
    return text.split()


def text_of(html: str) -> str:
    """The page's text with tags dropped and whitespace squeezed (for wording checks)."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


# -- preset pages ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ALL_PRESET_NAMES)
def test_preset_page_states_deck_and_kitty(client: TestClient, name: str) -> None:
    rules = Rules.preset(name)
    html = page(client, f"/rules/{name}")
    text = text_of(html)
    assert f"The deck has {rules.deck_spec.size} cards" in text
    assert f"pick up the {rules.kitty_size} kitty cards" in text
    assert 'href="/static/css/pages.css"' in html
    assert '<script type="module" src="/static/js/rules_page.js">' in html
    assert "house-mark" not in html


def test_trump_order_is_drawn_in_order(client: TestClient) -> None:
    hearts_43 = card_row(page(client, "/rules/classic"), "trump-H")
    assert hearts_43 == cards("JK JH JD AH KH QH 10H 9H 8H 7H 6H 5H 4H")
    spades_45 = card_row(page(client, "/rules/online"), "trump-S")
    assert spades_45 == cards("JK JS JC AS KS QS 10S 9S 8S 7S 6S 5S 4S")


def test_plain_suits_and_left_bower(client: TestClient) -> None:
    html = page(client, "/rules/classic")
    assert card_row(html, "plain-C") == cards("AC KC QC JC 10C 9C 8C 7C 6C 5C")
    assert card_row(html, "plain-D-H") == cards("AD KD QD 10D 9D 8D 7D 6D 5D 4D")


def test_card_slots_have_text_fallbacks(client: TestClient) -> None:
    html = page(client, "/rules/online")
    assert re.search(r'data-card-slot="JH"[^>]*>J♥</span>', html)
    assert re.search(r'data-card-slot="10S"[^>]*>10♠</span>', html)


@pytest.mark.parametrize(("name", "present", "absent"), [
    ("classic", [], ["misère (No Tricks)", "Nello", "Across The Corner", "open misère"]),
    ("australian", ["misère (No Tricks)", "open misère (Spread)"],
     ["Nello", "Across The Corner"]),
    ("american", ["Nello", "inkles"], ["misère (No Tricks)", "Across The Table"]),
    ("online", ["misère (No Tricks)", "open misère (Spread)", "Across The Corner",
                "Across The Table"], ["Nello"]),
])
def test_special_contracts_appear_exactly_when_allowed(
        client: TestClient, name: str, present: list[str], absent: list[str]) -> None:
    text = text_of(page(client, f"/rules/{name}"))
    for word in present:
        assert word in text, word
    for word in absent:
        assert word not in text, word


def test_special_contract_conditions_and_places(client: TestClient) -> None:
    australian = text_of(page(client, "/rules/australian"))
    assert "between 7NT and 8♠" in australian
    assert "only once somebody has bid seven" in australian
    online = text_of(page(client, "/rules/online"))
    assert "between 8♠ and 8♣" in online
    assert "only after somebody has bid No Tricks" in online
    assert "only after an opponent has bid No Tricks" in online
    american = text_of(page(client, "/rules/american"))
    assert "below zero (in the hole)" in american


def test_points_come_from_the_bids(client: TestClient) -> None:
    html = page(client, "/rules/online")
    assert re.search(r"<th scope=\"row\">7</th><td>140</td><td>160</td><td>180</td>"
                     r"<td>200</td><td>220</td>", html)
    assert re.search(r"Across The Table\s*</th><td>500</td>", html)


def test_all_pass_wording_differs_between_presets(client: TestClient) -> None:
    def all_pass(name: str) -> str:
        text = text_of(page(client, f"/rules/{name}"))
        match = re.search(r"If everybody passes[^.]*\.", text)
        assert match, name
        return match[0]

    wordings = {name: all_pass(name) for name in ("classic", "australian", "online")}
    assert len(set(wordings.values())) == 3
    assert all_pass("american") == wordings["classic"]


def test_match_end_wording_follows_the_options(client: TestClient) -> None:
    assert "more than 500" in text_of(page(client, "/rules/american"))
    online = text_of(page(client, "/rules/online"))
    assert "500 or more" in online and "won the bidding and made its contract" in online


# -- index, tables, help, 404 ---------------------------------------------------------------------


def test_index_links_every_preset(client: TestClient) -> None:
    html = page(client, "/rules")
    for name in ALL_PRESET_NAMES:
        assert f'id="{name}"' in html and f'href="/rules/{name}"' in html


def test_table_page_marks_house_rules(client: TestClient) -> None:
    html = page(client, f"/rules/table/{HOUSE_TABLE}")
    assert "House rules at this table" in html
    assert 'data-option="all_pass"' in html and 'data-option="target"' in html
    assert re.search(r'<p class="house">[^<]*same dealer deals again[^<]*'
                     r'<strong class="house-mark">house rule</strong>', html)
    assert re.search(r'<p class="house">[^<]*300 or more[^<]*<strong class="house-mark">', html)
    assert not re.search(r'class="house"[^>]*>[^<]*The deck has', html)


def test_table_page_of_a_plain_preset_has_no_house_rules(client: TestClient) -> None:
    html = page(client, f"/rules/table/{PRESET_TABLE}")
    assert "house-mark" not in html
    assert 'href="/rules/classic"' in html


@pytest.mark.parametrize("path", ["/rules/no-such-preset", "/rules/table/no-such-table"])
def test_unknown_pages_are_404(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert "Not found" in response.text


def test_help_explains_the_site(client: TestClient) -> None:
    text = text_of(page(client, "/help"))
    assert "token" in text and "same browser" in text
    assert "Swapping with the kitty" in text and "Discard" in text
    for word in ("Team One", "Play here", "Age", "Add bot", "Start with bots", "Reconnect",
                 "Bye", "crossed out", "long-press", "dimmed", "Cancel", "Detailed", "Simple",
                 "Card backs", "Sound", "turn timer", "Report a bug"):
        assert word in text, word
    assert 'href="/rules"' in page(client, "/help")


@pytest.mark.parametrize("path", ["/rules", "/rules/online", "/rules/1000/seed", "/help",
                                  f"/rules/table/{HOUSE_TABLE}"])
def test_pages_wear_the_card_rooms_look_and_icon(client: TestClient, path: str) -> None:
    """The same look as the game screens (the room's stylesheet first, then the pages' own),
    the same header for every game, and the room's icon."""
    html = page(client, path)
    assert html.index('href="/static/css/base.css"') < html.index('href="/static/css/pages.css"')
    assert '<link rel="icon" href="/static/favicon.svg"' in html
    assert 'class="brand-game">— 500 &amp; 1000<' in html


def test_the_favicon_is_never_missing(client: TestClient) -> None:
    response = client.get("/favicon.ico", follow_redirects=False)
    assert response.status_code == 301
    assert response.headers["location"] == "/static/favicon.svg"


def test_pages_escape_what_they_echo(client: TestClient) -> None:
    response = client.get("/rules/<b>x</b>")
    assert response.status_code == 404
    assert "<b>x</b>" not in response.text


# -- the explanation itself -----------------------------------------------------------------------


def _alternatives(key: str, value: Any) -> list[Any]:
    """Other values of one option, to build house rules from."""
    kind = OPTION_TYPES[key]
    if kind is bool:
        return [not value]
    if kind is int:
        return [value + 100]
    if type(None) in get_args(kind):
        # A losing score is negative, a number of deals positive: each takes one of them.
        return [-1000, 3] if value is None else [None, -1000]
    return [choice for choice in get_args(kind) if choice != value]


def _marked(explanation: rules_text.Explanation) -> int:
    count = 0
    for section in explanation.sections:
        for block in section.blocks:
            if isinstance(block, rules_text.Bullets):
                count += sum(item.house for item in block.items)
            elif isinstance(block, rules_text.Table):
                count += sum(row.house for row in block.rows)
            else:
                count += block.house
    return count


def _single_changes() -> Iterator[tuple[str, str, Rules]]:
    """Every preset with one option changed to another value that can be played:
    (preset name, option, the changed rules)."""
    for name in ALL_PRESET_NAMES:
        base = Rules.preset(name)
        for key, value in base.to_dict().items():
            for other in _alternatives(key, value):
                try:
                    yield name, key, base.replace(**{key: other})
                except RulesError:
                    continue


def test_every_single_house_rule_is_shown() -> None:
    """Changing any one option of a preset is listed, and marked wherever it changes a rule."""
    for name, key, rules in _single_changes():
        explanation = explain(rules, mark_house_rules=True)
        assert explanation.closest == name
        (house,) = explanation.house_rules
        assert house.option == key
        assert (_marked(explanation) > 0) == house.matters, (name, key, rules)


def test_every_option_changes_the_text_under_some_preset() -> None:
    """No option is ignored: for each one, some preset reads differently when it changes."""
    originals = {name: explain(Rules.preset(name)).sections
                 for name in ALL_PRESET_NAMES}
    singles = list(_single_changes())
    changed = {key for name, key, rules in singles
               if explain(rules).sections != originals[name]}
    assert changed == {key for _, key, _ in singles}
    # Options no preset can change alone (the player count goes with its deck; Wilkinson
    # misère needs misère bid at its value) are covered by the pages of other player counts
    # and by test_new_options_are_explained.
    assert set(OPTION_TYPES) - changed == {"players", "wilkinson_misere"}


# -- three to six players and the newer contracts -------------------------------------------------


@pytest.mark.parametrize(("name", "words"), [
    ("three-handed", ["The deck has 33 cards", "ace down to 7 in every suit and one joker",
                      "Each of the 3 players is dealt 10 cards", "cut-throat",
                      "against all the other players"]),
    ("five-handed", ["The deck has 53 cards", "ace down to 2", "Each of the 5 players",
                     "calls a partner by naming a card", "two cards, so two partners"]),
    ("six-handed", ["The deck has 63 cards", "13, 12 and 11 between the jack and the 10",
                    "the 13♥ and 13♦", "two teams of three who sit alternately",
                    "seats 1, 3 and 5 against seats 2, 4 and 6",
                    "both teammates lay their cards face down"]),
])
def test_pages_for_three_five_and_six_players(client: TestClient, name: str,
                                              words: list[str]) -> None:
    text = text_of(page(client, f"/rules/{name}"))
    for word in words:
        assert word in text, word


def test_six_handed_card_order(client: TestClient) -> None:
    html = page(client, "/rules/six-handed")
    assert card_row(html, "trump-H")[:9] == cards("JK JH JD AH KH QH 13H 12H 11H")
    assert card_row(html, "plain-C")[:7] == cards("AC KC QC JC 12C 11C 10C")


def test_new_options_are_explained() -> None:
    rules = Rules.from_dict({
        "preset": "australian", "misere_placement": "by_value", "wilkinson_misere": True,
        "blind_misere": True, "double_nullo": True, "shields_double": True,
        "patastrophe": True, "hi_lo": True, "j5_no_trumps": True, "slam_call": True,
        "ralphing": True, "misdeal_no_face": True, "joker_suit_nomination": True,
        "joker_lead_limits": True, "defender_points": "not_over_490",
        "both_at_lose_at": "contractor_loses"})
    explanation = explain(rules, mark_house_rules=True)
    text = " ".join(
        item.text if hasattr(item, "text") else " ".join(
            " ".join(row.cells) for row in getattr(item, "rows", ()))
        for section in explanation.sections for block in section.blocks
        for item in (block.items if isinstance(block, rules_text.Bullets) else (block,)))
    for words in ("Blind misère (1000)", "before you look at your cards", "Double nullo (500)",
                  "Shields double (750)", "Patastrophe (1000)", "Hi/Lo (5 and 5) (350)",
                  "exactly five tricks", "7J5", "each jack ranks above its own ace",
                  "call slam", "may not bid in the next hand", "no face card",
                  "name a suit for the joker", "may not name a suit that has already been led",
                  "only up to a score of 490", "the contractor's side loses",
                  "Wilkinson misère", "between 9♣ and 9♦"):
        assert words in text, words
    marked = {h.option for h in explanation.house_rules if h.matters}
    assert {"wilkinson_misere", "hi_lo", "slam_call", "ralphing"} <= marked


@pytest.mark.parametrize("deck", ["46", "42", "43-red-trump-4"])
def test_deck_wording(deck: str) -> None:
    rules = Rules.from_dict({"preset": "classic", "deck": deck})
    first = explain(rules).sections[0].blocks[0]
    assert isinstance(first, rules_text.Paragraph)
    expected = {"46": "two jokers", "42": "no joker", "43-red-trump-4": "one joker"}[deck]
    assert expected in first.text
