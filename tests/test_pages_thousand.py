"""The rules pages of 1000: one per preset, generated from its Rules, and a table's own page."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from cardroom.games import thousand
from cardroom.games.thousand import text as rules_text_thousand
from cardroom.games.thousand.rules import OPTION_TYPES
from cardroom.web.pages import routes
from tests.test_pages import card_row, open_table, page, text_of

HOUSE_TABLE = "house1000"


@pytest.fixture(scope="module")
def client() -> TestClient:
    app = Starlette(routes=routes)
    house = thousand.Rules.from_dict({"preset": "seed", "must_trump": True, "target": 1500})
    app.state.room = SimpleNamespace(tables={HOUSE_TABLE: open_table(house)})
    return TestClient(app)


def test_seed_preset_page_says_what_seed_003_says(client: TestClient) -> None:
    text = text_of(page(client, "/rules/1000/seed"))
    for words in [
        "24 cards: ace, ten, king, queen, jack and nine",
        "The player who opened the table deals first",
        "Bids go from 100 to 300 in steps of 10",
        "The first bidder must bid at least 100",
        "You may bid blind",
        "doubled",
        "discards 3 cards face down",
        "the winning bid or more, never less",
        "If you cannot follow suit you may play any card",
        "rounded to the nearest ten (36 makes 40",
        "The card points of the contractor's discards count for the contractor",
        "With 880 points or more you sit on the barrel",
        "After 3 deals without taking the bank, you lose 120 points",
        "reach 1000 points or more wins",
    ]:
        assert words in text.replace("&#39;", "'"), words
    assert "bolt" not in text.lower()


def test_russian_preset_page_follows_its_options(client: TestClient) -> None:
    text = text_of(page(client, "/rules/1000/russian"))
    for words in ["steps of 5", "above 120 without holding a marriage", "no blind bids",
                  "gives one card face down to each opponent", "must play a trump",
                  "never on the first trick", "nearest five (51 makes 50, 53 makes 55)",
                  "held at 880", "every 3 bolts cost 120", "drawn at random"]:
        assert words in text, words


def test_cards_are_drawn_in_1000_order(client: TestClient) -> None:
    html = page(client, "/rules/1000/seed")
    assert card_row(html, "order-H") == ["AH", "10H", "KH", "QH", "JH", "9H"]
    assert card_row(html, "marriage-S") == ["KS", "QS"]


def test_index_and_links(client: TestClient) -> None:
    html = page(client, "/rules")
    for name in thousand.PRESET_NAMES:
        assert f'href="/rules/1000/{name}"' in html and f'id="1000-{name}"' in html
    assert 'id="game-1000"' in html and 'id="game-500"' in html
    assert client.get("/rules/1000/online").status_code == 404
    redirect = client.get("/rules/1000", follow_redirects=False)
    assert redirect.status_code in (302, 307) and redirect.headers["location"] == "/rules#game-1000"


def test_table_page_marks_1000_house_rules(client: TestClient) -> None:
    html = page(client, f"/rules/table/{HOUSE_TABLE}")
    assert 'data-option="must_trump"' in html and 'data-option="target"' in html
    assert 'href="/rules/1000/seed"' in html
    assert "house-mark" in html


@pytest.mark.parametrize("option", list(OPTION_TYPES))
def test_every_option_has_a_label(option: str) -> None:
    assert option in rules_text_thousand.OPTION_LABELS
