"""The PBN export of 500 matches: matches the bots played on several tables, read back with a
small PBN reader written here, agree with the engine hand by hand (the deal, the auction, the
tricks, the result and the points), and the text keeps PBN's layout, so that a change of the
format fails here. The reader and the engine's view of each hand serve 1000's test too."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

import pytest
from tests.five_hundred.test_claim_phase import random_claims_game

from cardroom.games.cards import CARDS, Card, cards_of, mask_of
from cardroom.games.five_hundred import Bid, Game, Rules, to_pbn
from cardroom.games.five_hundred.pbn import played_hands
from cardroom.games.record import Record
from cardroom.tools.arena import play_match

# -- a small PBN reader -------------------------------------------------------------------------

MANDATORY = ["Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
             "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result"]
TAG = re.compile(r'\[(?P<name>[A-Z][A-Za-z0-9_]*) "(?P<value>(?:[^"\\]|\\.)*)"\]')
TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|\S+')
SECTIONS = ("Auction", "Play")
PLACES = {2: "S W N E", 3: "S W N E", 4: "S W N E", 5: "S W NW NE E", 6: "S SW NW N NE SE"}
SEATS = {2: "S N", 3: "S W E", 4: "S W N E", 5: "S W NW NE E", 6: "S SW NW N NE SE"}
RANKS = {"T": "10", "E": "11", "W": "12", "R": "13"}
JOKERS = {"JH": "JK", "J2": "JK2"}


def unescape(value: str) -> str:
    """A PBN string's text."""
    return re.sub(r"\\(.)", r"\1", value)


@dataclass
class PbnGame:
    """One game section as read: its tags in order (notes apart), the tokens of the lines
    after each tag (a section's data), and the notes by number."""

    tags: dict[str, str] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    data: dict[str, list[list[str]]] = field(default_factory=dict)
    notes: dict[int, str] = field(default_factory=dict)


def read_pbn(text: str) -> tuple[list[str], list[PbnGame]]:
    """The escape lines and the game sections of an export, checking PBN's line rules as it
    goes: CR LF line ends, no tabs, lines of at most 255 characters with the line end, tag
    pairs alone on their line in export form, each game after one empty line."""
    assert text.endswith("\r\n")
    assert "\n" not in text.replace("\r\n", "") and "\r" not in text.replace("\r\n", "")
    escapes: list[str] = []
    games: list[PbnGame] = []
    game: PbnGame | None = None
    current = ""
    for line in text[:-2].split("\r\n"):
        assert len(line) + 2 <= 255 and "\t" not in line, line
        if line.startswith("%"):
            assert game is None, "escape lines come before the games here"
            escapes.append(line)
            continue
        if not line:
            assert game is not None, "no empty line before the first game"
            game = None
            continue
        if game is None:
            game = PbnGame()
            games.append(game)
        match = TAG.fullmatch(line)
        if match is None:
            assert current, f"data before any tag: {line!r}"
            game.data[current].append(TOKEN.findall(line))
            continue
        name, value = match["name"], unescape(match["value"])
        if name == "Note":
            number, _, note = value.partition(":")
            game.notes[int(number)] = note
            continue
        assert name not in game.tags, f"{name} twice"
        game.tags[name] = value
        game.order.append(name)
        game.data[name] = []
        current = name
    return escapes, games


def check_layout(game: PbnGame) -> None:
    """Export order: the mandatory tags in their order, the other tags alphabetically, then
    the auction and play sections (each closed by ``*``), then the tables alphabetically;
    plain tags have no data lines."""
    order = game.order
    assert order[:15] == MANDATORY
    sections = [name for name in order if name in SECTIONS]
    tables = [name for name in order if name.endswith("Table")]
    plain = order[15:len(order) - len(sections) - len(tables)]
    assert plain == sorted(plain) and not set(plain) & {*SECTIONS, *tables}
    assert order[15 + len(plain):] == [*sections, *tables] and tables == sorted(tables)
    for name in order:
        rows = game.data[name]
        assert bool(rows) == (name in SECTIONS or name in tables), name
        if name in SECTIONS:
            assert rows[-1] == ["*"] and all("*" not in row for row in rows[:-1])


def card_text(token: str) -> str:
    """A PBN card token (``HT``, ``CE``, ``JH``) as the engine writes the card."""
    if token in JOKERS:
        return JOKERS[token]
    return RANKS.get(token[1], token[1]) + token[0]


def cards_of_value(value: str) -> list[str]:
    """Cards run together (``C8HQS5``) as the engine writes them."""
    assert len(value) % 2 == 0
    return [card_text(value[i:i + 2]) for i in range(0, len(value), 2)]


def placed(value: str) -> dict[str, list[str]]:
    """``N:JH E:J2`` by place."""
    return {place: cards_of_value(cards)
            for place, _, cards in (item.partition(":") for item in value.split())}


def deal_hands(value: str) -> dict[str, list[str]]:
    """The Deal tag's hands by place (``-``: none given), checking PBN's suit and rank
    order."""
    first, _, hands = value.partition(":")
    result = {}
    for index, hand in enumerate(hands.split()):
        places = None
        for size in PLACES.values():
            ring = size.split()
            if first in ring and len(ring) == len(hands.split()):
                places = ring
        assert places is not None
        place = places[(places.index(first) + index) % len(places)]
        if hand == "-":
            continue
        suits = hand.split(".")
        assert len(suits) == 4
        cards = []
        for suit, ranks in zip("SHDC", suits, strict=True):
            order = [Card.parse(card_text(suit + rank)).rank for rank in ranks]
            assert order == sorted(order, reverse=True)  # type: ignore[type-var]
            cards += [card_text(suit + rank) for rank in ranks]
        result[place] = cards
    return result


def per_place(value: str) -> dict[str, int]:
    """``S:3 W:2``: a number by place."""
    return {place: int(number) for place, _, number in
            (item.partition(":") for item in value.split())}


def per_side(value: str) -> list[int]:
    """``NS 520 EW 20``: the numbers, side by side."""
    words = value.split()
    return [int(word) for word in words[1::2]]


def sections_rows(game: PbnGame, name: str, players: int) -> list[tuple[str, str]]:
    """A section's cells as (place, token), places from the section tag clockwise; ``-``
    cells and ``*`` left out, a note token kept with its card as ``card =n=``."""
    ring = PLACES[players].split()
    start = ring.index(game.tags[name])
    cells = []
    for row in game.data[name][:-1]:
        tokens = list(row)
        column = 0
        while tokens:
            token = tokens.pop(0)
            if tokens and re.fullmatch(r"=\d+=", tokens[0]):
                token += " " + tokens.pop(0)
            place = ring[(start + column) % len(ring)]
            column += 1
            if token != "-":
                cells.append((place, token))
        assert column == len(ring) or row is game.data[name][-2], row
    return cells


# -- the engine's view of each hand -------------------------------------------------------------


@dataclass
class EngineHand:
    """One hand as the engine played it."""

    hands: list[int]
    spare: int
    dead: int = 0
    calls: list[tuple[int, str]] = field(default_factory=list)
    tricks: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    result: Any = None


def engine_hands(game_class: Any, record: Record, spare: str) -> list[EngineHand]:
    """Every hand of the record that ended, replayed with the engine: the cards as dealt
    (and the ``spare`` attribute's: kitty or bank), the calls, the trick events, the events
    and the line of the history."""
    game = game_class.replay(replace(record, actions=[], seats=[]))

    def dealt() -> EngineHand:
        return EngineHand(list(game.hands), getattr(game, spare), getattr(game, "dead", 0))

    hands: list[EngineHand] = []
    hand = dealt()
    for text in record.actions:
        seat, phase, done = game.to_act, game.phase, len(game.history)
        on_table = {"leader": game.trick_seats[0], "seats": list(game.trick_seats),
                    "cards": [CARDS[index].text for index in game.trick]} if game.trick else None
        nominated = getattr(game, "nominated", None)  # 500's joker led naming a suit
        if on_table is not None and nominated is not None:
            on_table["nominated"] = nominated.letter
        events = game.apply(text)
        action = game.actions[-1]
        if phase == "bidding" and action.kind in ("pass", "bid", "misdeal"):
            hand.calls.append((seat, action.text))
        hand.tricks += [event for event in events if event["type"] == "trick"]
        if on_table is not None and any(e["type"] == "claim_settled" for e in events):
            hand.tricks.append(on_table)  # a claim in the middle of a trick
        hand.events += events
        if len(game.history) > done:
            hand.result = game.history[-1]
            hands.append(hand)
            hand = dealt()
    return hands


def check_play(game: PbnGame, tricks: list[dict[str, Any]], players: int,
               token_note: Callable[[dict[str, Any], str, str], None]) -> None:
    """The Play section rebuilds the engine's tricks: each line's cards, taken clockwise
    from the trick's leader (the opening leader in the Play tag, then the winner of the
    trick before), are the trick's cards in the order played; ``token_note`` checks each
    card with a note against the trick."""
    seats = SEATS[players].split()
    ring = PLACES[players].split()
    lines = game.data["Play"][:-1]
    assert len(lines) == len(tricks)
    assert game.tags["Play"] == seats[tricks[0]["leader"]]
    start = ring.index(game.tags["Play"])
    for number, (row, trick) in enumerate(zip(lines, tricks, strict=True)):
        tokens = " ".join(row).replace(" =", "=").split()
        assert len(tokens) == len(ring)
        by_place = {ring[(start + column) % len(ring)]: token
                    for column, token in enumerate(tokens) if token != "-"}
        leader = seats[tricks[number - 1]["winner"]] if number else game.tags["Play"]
        assert leader == seats[trick["leader"]]
        order = [place for place in ring[ring.index(leader):] + ring[:ring.index(leader)]
                 if place in by_place]
        assert order == [seats[seat] for seat in trick["seats"]]
        for place, text in zip(order, trick["cards"], strict=True):
            card, _, note = by_place[place].partition("=")
            assert card_text(card) == text
            if note:
                token_note(trick, card, game.notes[int(note.rstrip("="))])


# -- 500 ----------------------------------------------------------------------------------------

RULES = {
    "online": Rules.preset("online"),
    "classic": Rules.preset("classic"),
    "46": Rules.from_dict({**Rules.preset("online").to_dict(), "deck": "46"}),
    "three-handed": Rules.preset("three-handed"),
    "six-handed": Rules.preset("six-handed"),
    "two-handed": Rules.preset("two-handed"),
    "five-handed": Rules.preset("five-handed"),
}


@cache
def bots_record(name: str, seed: int) -> Record:
    """A match the rules bots played."""
    text = play_match(RULES[name], seed, "rules", "rules", 0, keep_record=True).record
    assert text is not None
    return Record.from_text(text)


def check_500(record: Record, names: list[str] | None = None) -> list[PbnGame]:
    """Export ``record`` and check every section against the engine; the games read."""
    rules = Rules.from_dict(record.rules)
    players = rules.players
    seats = SEATS[players].split()
    escapes, games = read_pbn(to_pbn(record, names=names))
    assert escapes[0] == "% PBN 2.1"
    assert (len(escapes) == 2) == (players <= 4)
    hands = engine_hands(Game, record, "kitty")
    assert len(games) == len(hands) == len(Game.replay(record).history)
    for game, hand in zip(games, hands, strict=True):
        check_layout(game)
        check_deal_500(game, hand, rules, seats)
        check_auction(game, hand, players, seats, auction_text_500)
        check_result_500(game, hand, rules, seats)
        if hand.tricks:
            check_play(game, hand.tricks, players, joker_note)
            check_exchange(game, hand, seats)
        else:
            assert "Play" not in game.tags
        if names:
            for seat, place in enumerate(seats):
                tag = {"S": "South", "W": "West", "N": "North", "E": "East",
                       "NW": "NorthWest", "NE": "NorthEast", "SW": "SouthWest",
                       "SE": "SouthEast"}[place]
                assert game.tags[tag] == names[seat]
        rebuilt = dict(Rules.preset(game.tags["Rules"]).to_dict())
        for option, value in game.data.get("RulesTable", []):
            rebuilt[option] = json.loads(unescape(value[1:-1]))
        assert rebuilt == rules.to_dict()
    return games


def check_deal_500(game: PbnGame, hand: EngineHand, rules: Rules, seats: list[str]) -> None:
    """The Deal, Joker, Undealt and Dead tags hold every card of the deck exactly once, each
    seat's ten and the kitty as the engine dealt them."""
    deal = deal_hands(game.tags["Deal"])
    assert game.tags["Deal"].startswith(game.tags["Dealer"] + ":")
    jokers = placed(game.tags.get("Joker", ""))
    every = []
    for seat, place in enumerate(seats):
        cards = deal.pop(place) + jokers.pop(place, [])
        assert mask_of(cards) == hand.hands[seat] and len(cards) == 10
        every += cards
    assert not deal and not jokers
    kitty = cards_of_value(game.tags["Undealt"])
    assert mask_of(kitty) == hand.spare
    dead = cards_of_value(game.tags.get("Dead", ""))
    assert mask_of(dead) == hand.dead
    every += kitty + dead
    assert len(every) == len(set(every)) and mask_of(every) == rules.deck_spec.mask
    assert ("Joker" in game.tags) == bool(rules.deck_spec.jokers)


def auction_text_500(token: str) -> str:
    """An auction token as the engine's action."""
    if token in ("Pass", "Misdeal"):
        return token.lower()
    return f"bid {Bid.parse(token).text}"


def check_auction(game: PbnGame, hand: EngineHand, players: int, seats: list[str],
                  as_action: Callable[[str], str]) -> None:
    """The Auction section holds the record's calls of the hand, each in its caller's
    column."""
    cells = sections_rows(game, "Auction", players)
    calls = [(seats[seat], text) for seat, text in hand.calls]
    assert [(place, as_action(token)) for place, token in cells] == calls
    assert game.tags["Auction"] == seats[hand.calls[0][0]]


def check_result_500(game: PbnGame, hand: EngineHand, rules: Rules, seats: list[str]) -> None:
    """Board, Declarer, Contract, Result, Bid, Score, MatchScore and Tricks agree with the
    engine's line of the history."""
    result = hand.result
    tags = game.tags
    assert tags["Board"] == str(result.number) and tags["Dealer"] == seats[result.dealer]
    assert per_side(tags["Score"]) == list(result.points)
    assert per_side(tags["MatchScore"]) == list(result.scores)
    assert per_place(tags["Tricks"]) == dict(zip(seats, result.tricks, strict=True))
    assert tags["Description"] == result.summary and tags["Vulnerable"] == "None"
    if result.contract is None:
        assert tags["Declarer"] == tags["Result"] == tags["Bid"] == ""
        assert tags["Contract"] in ("Pass", "")
        return
    bid = Bid.parse(tags["Bid"])
    assert bid.text == result.contract
    assert tags["Declarer"] == seats[result.contractor]
    assert tags["Contract"] == ("NT" if bid.trump is None else bid.trump.letter)
    assert int(tags["Result"]) == sum(result.tricks[seat] for seat in result.contract_side)
    if rules.players == 4:
        assert tags["Score"].split()[::2] in (["NS", "EW"], ["EW", "NS"])


def check_exchange(game: PbnGame, hand: EngineHand, seats: list[str]) -> None:
    """CardsAdded and CardsRemoved explain the play: a seat that played to every trick of a
    whole hand played what it was dealt, with the cards added and without those removed."""
    added, removed = placed(game.tags["CardsAdded"]), placed(game.tags["CardsRemoved"])
    for seat, place in enumerate(seats):
        played = [card for trick in hand.tricks
                  for who, card in zip(trick["seats"], trick["cards"], strict=True)
                  if who == seat]
        if len(played) < 10:
            continue
        held = (hand.hands[seat] | mask_of(added.get(place, []))) & ~mask_of(
            removed.get(place, []))
        assert mask_of(played) == held


def joker_note(trick: dict[str, Any], card: str, note: str) -> None:
    """A joker led in no trumps names its suit in a note."""
    assert card in JOKERS and trick["seats"][0] == trick["leader"]
    suit = Card.parse(f"A{trick['nominated']}").suit
    assert suit is not None and note == f"{card} led naming {suit.name.lower()}"


@pytest.mark.parametrize("name", list(RULES))
def test_bots_matches_export_hand_by_hand(name: str) -> None:
    """Matches of the rules bots, on each table, export and read back hand by hand."""
    for seed in (1, 2):
        check_500(bots_record(name, seed))


def test_names_and_free_text_are_escaped_and_kept_to_a_line() -> None:
    """Quotes and backslashes are escaped, line breaks become spaces, and a value too long
    for a PBN line is cut short."""
    record = bots_record("online", 1)
    names = ['Ann "the Ace"', "Bob\\Bee", "Cy\tC", "D" * 300]
    text = to_pbn(record, names=names, event="Club {night}; 500 %", site="Perth",
                  date="2024-05-01")
    assert '[South "Ann \\"the Ace\\""]' in text and '[West "Bob\\\\Bee"]' in text
    _, games = read_pbn(text)
    first = games[0].tags
    assert first["South"] == names[0] and first["West"] == names[1]
    assert first["North"] == "Cy C" and first["East"] == "D" * (255 - 2 - len('[East ""]'))
    assert first["Event"] == "Club {night}; 500 %" and first["Site"] == "Perth"
    assert first["Date"] == "2024.05.01"
    check_500(record, names=["A", "B", "C", "D"])


def test_unknown_values_and_bad_arguments() -> None:
    """Unknown event, site, date and players read ``?`` as PBN asks; a wrong game, a wrong
    count of names or an odd date are refused."""
    record = bots_record("three-handed", 1)
    _, games = read_pbn(to_pbn(record))
    tags = games[0].tags
    assert (tags["Event"], tags["Site"], tags["Date"]) == ("?", "?", "????.??.??")
    assert (tags["South"], tags["West"], tags["North"], tags["East"]) == ("?", "?", "", "?")
    with pytest.raises(ValueError, match="names"):
        to_pbn(record, names=["A", "B"])
    with pytest.raises(ValueError, match="date"):
        to_pbn(record, date="1 May 2024")
    with pytest.raises(ValueError, match="not a 500 record"):
        to_pbn(replace(record, game="1000"))


def test_a_match_cut_short_exports_its_finished_hands() -> None:
    """The hand in progress at the end of a record is left out."""
    record = bots_record("classic", 1)
    hands = engine_hands(Game, record, "kitty")
    cut = replace(record, actions=record.actions[:-5], seats=record.seats[:-5])
    _, games = read_pbn(to_pbn(cut))
    assert len(games) == len(hands) - 1
    assert to_pbn(replace(record, actions=[], seats=[])) == "\r\n".join(
        ["% PBN 2.1", "%Content-type: text/x-pbn; charset=UTF-8"]) + "\r\n"


# -- every option: a random player drives the rarer paths ---------------------------------------

EVERYTHING = Rules.from_dict({
    "preset": "online", "deck": "46", "misere": True, "open_misere": True,
    "misere_placement": "by_value", "blind_misere": True, "hi_lo": True, "j5_no_trumps": True,
    "ralphing": True, "misdeal_no_face": True, "joker_suit_nomination": True,
    "double_nullo": True, "shields_double": True, "patastrophe": True, "slam_call": True,
    "across_the_corner": True, "across_the_table": True, "misere_failure": "play_on"})
"""Nearly every option of a four-handed table switched on."""
RARE = ("slam", "misdeal", "joker", "give", "call")


def random_record(rules: Rules, seed: int, hands: int = 8) -> Record:
    """A match of random legal actions, cut after ``hands`` hands: the rarer actions taken
    whenever offered, and in the bidding a pass or one of the three lowest bids, so that
    the match lasts and the contracts vary."""
    chooser = random.Random(seed)
    game = Game.new(rules, seed=seed)
    while not game.is_over and len(game.history) < hands:
        legal = game.legal_actions()
        rare = [action for action in legal[-6:] if action.kind in RARE] or [
            action for action in legal if action.kind == "play" and action.nominated]
        if game.phase == "bidding":
            legal = [action for action in legal if action.kind != "bid"] + [
                action for action in legal if action.kind == "bid"][:3]
        game.apply(rare[0] if rare else legal[chooser.randrange(len(legal))])
    return game.record


def test_rare_contracts_and_exchanges_export() -> None:
    """Slam calls, the joker's suit, jokers led naming a suit, the no-tricks contracts and
    their folded partners all export and read back."""
    seen: set[str] = set()
    for seed in range(6):
        for game in check_500(random_record(EVERYTHING, seed)):
            seen.update(name for name in ("Slam", "JokerSuit") if name in game.tags)
            seen.update(["note"] if game.notes else [])
            seen.update(["folded"] if any("-" in row for row in game.data.get("Play", []))
                        else [])
    assert seen == {"Slam", "JokerSuit", "note", "folded"}
    check_500(random_record(Rules.from_dict({"preset": "five-handed", "misdeal_no_face": True,
                                             "joker_suit_nomination": True}), 3))
    check_500(random_record(Rules.from_dict({"preset": "six-handed",
                                             "six_handed_teams": "three_teams_of_two",
                                             "all_pass": "play_no_trump"}), 4))


def test_a_misdeal_is_a_hand_without_contract_or_play() -> None:
    """A seat dealt no face card calls a misdeal: its hand is a section of its own, with
    the call closing its auction and no contract."""
    rules = Rules.from_dict({"preset": "online", "misdeal_no_face": True})
    faces = {"J", "Q", "K", "A"}
    plain = [card for card in cards_of(rules.deck_spec.mask) if card.rank is not None
             and card.rank.label not in faces][:10]
    rest = [card for card in cards_of(rules.deck_spec.mask) if card not in plain]
    hands = [rest[0:10], plain, rest[10:20], rest[20:30]]
    game = Game.from_deal(rules, 0, hands, rest[30:35], seed=5)
    game.apply("misdeal")
    while len(game.history) < 3 and not game.is_over:
        game.apply(game.legal_actions()[0])
    games = check_500(game.record)
    assert games[0].data["Auction"] == [["Misdeal"], ["*"]]
    assert (games[0].tags["Contract"], games[0].tags["Declarer"]) == ("", "")


def test_hands_ended_on_claims_export_with_their_claim() -> None:
    """A hand that ended on a claim keeps the tricks played before it, a ``Claim`` tag and a
    ``Result`` that counts the tricks claimed."""
    expected = found = 0
    for seed in range(4):
        game = random_claims_game(seed)
        expected += sum(hand.claim is not None for hand in played_hands(game.record))
        for pbn_game in check_500(game.record):
            if "Claim" in pbn_game.tags:
                found += 1
                place, _, counts = pbn_game.tags["Claim"].partition(":")
                taken, _, left = counts.partition(" of ")
                assert place in "NESW" and int(taken) <= int(left) <= 10
                played = len(pbn_game.data.get("Play", ["*"])) - 1  # a part-played trick too
                assert played in (10 - int(left), 11 - int(left))
    assert found == expected > 0
