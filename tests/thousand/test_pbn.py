"""The PBN export of 1000 matches: matches the bots played, three and four at the table, read
back with the PBN reader of 500's export test, agree with the engine deal by deal (the deal
and bank, the auction, the tricks and marriages, the points), in PBN's layout."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache
from typing import Any

import pytest

from cardroom.games.cards import Card, mask_of
from cardroom.games.record import Record
from cardroom.games.thousand import MARRIAGE_POINTS, PACK_MASK, Game, Rules, to_pbn
from cardroom.tools.arena import play_match
from tests.five_hundred.test_pbn import (
    SEATS,
    EngineHand,
    PbnGame,
    cards_of_value,
    check_auction,
    check_layout,
    check_play,
    deal_hands,
    engine_hands,
    per_place,
    per_side,
    placed,
    read_pbn,
    sections_rows,
)

RULES = {
    "seed": Rules.preset("seed"),
    "russian": Rules.preset("russian"),
    "four": Rules.from_dict({"preset": "seed", "players": 4}),
}


@cache
def bots_record(name: str, seed: int) -> Record:
    """A match the rules bots played."""
    text = play_match(RULES[name], seed, "rules", "rules", 0, keep_record=True).record
    assert text is not None
    return Record.from_text(text)


def auction_text(token: str) -> str:
    """An auction token as the engine's action."""
    if token == "Pass":
        return "pass"
    value, _, blind = token.partition("-")
    return f"bid {int(value)}" + (" blind" if blind == "blind" else "")


def check_1000(record: Record) -> list[PbnGame]:
    """Export ``record`` and check every section against the engine; the games read."""
    rules = Rules.from_dict(record.rules)
    players = rules.players
    seats = SEATS[players].split()
    escapes, games = read_pbn(to_pbn(record))
    assert escapes == ["% PBN 2.1", "%Content-type: text/x-pbn; charset=UTF-8"]
    deals = engine_hands(Game, record, "bank")
    assert len(games) == len(deals) == len(Game.replay(record).history)
    for game, deal in zip(games, deals, strict=True):
        check_layout(game)
        check_deal(game, deal, seats)
        check_auction(game, deal, players, seats, auction_text)
        check_points(game, deal, seats)
        if deal.tricks:
            check_play(game, deal.tricks, players, marriage_checker(deal, seats))
            check_exchange(game, deal, seats)
        assert game.tags["Rules"] in RULES or game.data["RulesTable"]
    return games


def check_deal(game: PbnGame, deal: EngineHand, seats: list[str]) -> None:
    """The Deal and Undealt tags hold the pack once: each seat's seven (nothing for a dealer
    sitting out) and the bank, as dealt."""
    hands = deal_hands(game.tags["Deal"])
    every = []
    for seat, place in enumerate(seats):
        cards = hands.pop(place)
        assert mask_of(cards) == deal.hands[seat] and len(cards) in (0, 7)
        every += cards
    assert not hands
    bank = cards_of_value(game.tags["Undealt"])
    assert mask_of(bank) == deal.spare and len(bank) == 3
    every += bank
    assert len(every) == len(set(every)) == 24 and mask_of(every) == PACK_MASK


def check_points(game: PbnGame, deal: EngineHand, seats: list[str]) -> None:
    """The contract and the deal's numbers agree with the engine's line of the history."""
    result, tags = deal.result, game.tags
    assert tags["Board"] == str(result.number) and tags["Dealer"] == seats[result.dealer]
    assert per_side(tags["Score"]) == list(result.points)
    assert per_side(tags["MatchScore"]) == list(result.scores)
    assert per_place(tags["Tricks"]) == dict(zip(seats, result.tricks, strict=True))
    assert per_place(tags["CardPoints"]) == dict(zip(seats, result.card_points, strict=True))
    assert tags["Description"] == result.summary
    penalties = [f"{seats[p['seat']]}:{p['kind']} {p['points']}" for p in result.penalties]
    assert tags.get("Penalties", "") == " ".join(penalties)
    if result.contractor is None:
        assert (tags["Declarer"], tags["Contract"], tags["Result"]) == ("", "Pass", "")
        assert tags["Bid"] == tags["Bet"] == "" and "Taken" not in tags
        return
    assert tags["Declarer"] == seats[result.contractor] and tags["Contract"] == "NT"
    assert tags["Result"] == str(result.tricks[result.contractor])
    assert auction_text(tags["Bid"]) == f"bid {result.bid}" + " blind" * result.blind
    assert tags["Bet"] == str(result.bet) and tags["Taken"] == str(result.taken)


def marriage_checker(deal: EngineHand, seats: list[str]) -> Any:
    """A check of each card with a note: a king or queen led that declared its marriage,
    as the engine's events say; and the Marriages tag lists them all."""
    declared = [(event["seat"], event["suit"]) for event in deal.events
                if event["type"] == "marriage"]
    noted: list[tuple[int, str]] = []

    def check(trick: dict[str, Any], card: str, note: str) -> None:
        suit = Card.parse(f"A{card[0]}").suit
        assert suit is not None and card[1] in "KQ"
        assert note == (f"{card} declares the marriage of {suit.name.lower()} "
                        f"({MARRIAGE_POINTS[suit]})")
        noted.append((trick["leader"], card[0]))
        assert noted == declared[:len(noted)]

    return check


def check_exchange(game: PbnGame, deal: EngineHand, seats: list[str]) -> None:
    """Each seat in play played what it was dealt, with the cards it was added (the bank,
    a card given) and without those it put out; the marriages tag lists those declared."""
    added, removed = placed(game.tags["CardsAdded"]), placed(game.tags["CardsRemoved"])
    for seat, place in enumerate(seats):
        played = [card for trick in deal.tricks
                  for who, card in zip(trick["seats"], trick["cards"], strict=True)
                  if who == seat]
        held = (deal.hands[seat] | mask_of(added.get(place, []))) & ~mask_of(
            removed.get(place, []))
        assert mask_of(played) == held
    declared = [f"{seats[event['seat']]}:{event['suit']}" for event in deal.events
                if event["type"] == "marriage"]
    assert game.tags["Marriages"] == " ".join(declared)


@pytest.mark.parametrize("name", list(RULES))
def test_bots_matches_export_deal_by_deal(name: str) -> None:
    """Matches of the rules bots export and read back deal by deal, marriages with notes."""
    notes = 0
    for seed in (1, 2):
        games = check_1000(bots_record(name, seed))
        notes += sum(len(game.notes) for game in games)
    assert notes


def test_blind_bids_passed_deals_and_a_cut_record() -> None:
    """Random legal play reaches blind bids and deals nobody bid in; a record cut short
    exports its finished deals only; a 500 record is refused."""
    rules = Rules.from_dict({"preset": "seed", "first_bidder_must_bid": False})
    chooser = random.Random(3)
    game = Game.new(rules, seed=3)
    while len(game.history) < 12 and not game.is_over:
        legal = game.legal_actions()
        passes = [action for action in legal if action.kind == "pass"]
        calls = [action for action in legal if action.kind == "look"] + [
            action for action in legal if action.kind == "bid"][:2]
        if game.phase != "bidding":
            calls = legal
        elif passes and chooser.random() < 0.6:
            calls = passes
        game.apply(calls[chooser.randrange(len(calls))])
    games = check_1000(game.record)
    bids = [game.tags["Bid"] for game in games]
    assert any(bid.endswith("-blind") for bid in bids) and "" in bids
    assert sections_rows(games[0], "Auction", rules.players)
    record = game.record
    cut = replace(record, actions=record.actions[:-2], seats=record.seats[:-2])
    assert len(read_pbn(to_pbn(cut))[1]) == len(games) - 1
    with pytest.raises(ValueError, match="not a 1000 record"):
        to_pbn(replace(record, game="500"))
