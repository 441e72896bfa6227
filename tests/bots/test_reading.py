"""The search bot reads the other seats' calls when it deals the cards it cannot see: a bid
puts its suit in the bidder's sampled hands, a pass keeps strong hands away from the passer,
in the learned style and in the rules bot's."""

from __future__ import annotations

import json
import random
import statistics
from typing import Any

import pytest

from cardroom.bots.five_hundred.bidding import WholeDealSampler
from cardroom.bots.five_hundred.reading import (
    LearnedReader,
    RulesReader,
    call_reader,
    pick_fitting,
    reading_style,
    strain_choice,
)
from cardroom.bots.five_hundred.search import Knowledge, SearchBot
from cardroom.games.cards import Suit, cards_of, mask_of
from cardroom.games.five_hundred import Bid, Contract, Game, Rules, strain_for
from cardroom.tools.arena import bot_choice

STYLES = ("learned", "rules")
SPADES = strain_for(Suit.SPADES).follow_mask[int(Suit.SPADES)]  # with the bowers and joker
TOP_CARDS = mask_of(["JK", "AS", "AH", "AD", "AC"])


def first_call(call: str) -> tuple[int, dict[str, Any]]:
    """An `online` deal after its first bidder makes ``call``: that seat, and the view of the
    seat to call next."""
    game = Game.new("online", seed=0)
    caller = game.to_act
    assert caller is not None
    game.apply(call)
    return caller, wire(game.view(game.to_act))  # type: ignore[arg-type]


def wire(view: dict[str, Any]) -> dict[str, Any]:
    """A view as it arrives over the wire."""
    return json.loads(json.dumps(view))


def whole_deal_samples(seat: int, view: dict[str, Any], style: str | None,
                       count: int = 200) -> list[int]:
    """``seat``'s hand in ``count`` whole deals sampled from ``view`` (``style`` ``None``: the
    calls not read at all)."""
    with reading_style(style or "rules"):  # type: ignore[arg-type]
        sampler = WholeDealSampler(view, random.Random(5))
    if style is None:
        sampler.reader = RulesReader((), 0, 0)
    return [sampler.deal(5).hands[seat] for _ in range(count)]


@pytest.mark.parametrize("style", STYLES)
def test_an_opening_bid_puts_its_suit_in_the_bidders_sampled_hands(style: str) -> None:
    bidder, view = first_call("bid 6S")

    def spades(hands: list[int]) -> float:
        return statistics.fmean((hand & SPADES).bit_count() for hand in hands)

    plain = spades(whole_deal_samples(bidder, view, None))
    assert spades(whole_deal_samples(bidder, view, style)) > plain + 0.6, plain


@pytest.mark.parametrize("style", STYLES)
def test_a_first_pass_keeps_strong_hands_from_the_passer(style: str) -> None:
    passer, view = first_call("pass")  # with the whole ladder open

    def tops(hands: list[int]) -> float:
        return statistics.fmean((hand & TOP_CARDS).bit_count() for hand in hands)

    plain = tops(whole_deal_samples(passer, view, None))
    assert tops(whole_deal_samples(passer, view, style)) < plain - 0.15, plain


def test_the_learned_reading_is_used_where_the_evaluator_learned_the_table() -> None:
    bidder, view = first_call("bid 7H")
    learned = call_reader(view)
    assert isinstance(learned, LearnedReader)
    assert [calls.seat for calls in learned.seats] == [bidder]
    with reading_style("rules"):
        assert isinstance(call_reader(view), RulesReader)
    five = Game.new("five-handed", seed=1)
    five.apply(five.legal_actions()[0])
    assert isinstance(call_reader(wire(five.view(five.to_act))), RulesReader)  # type: ignore[arg-type]


def test_a_bidder_names_the_strain_its_hand_plays_best() -> None:
    import numpy as np

    def around(mean: int) -> np.ndarray:
        distribution = np.zeros(11)
        distribution[mean] = 1.0
        return distribution

    worth = {Suit.SPADES: around(8), Suit.HEARTS: around(6), Suit.CLUBS: around(4),
             Suit.DIAMONDS: around(4), None: around(5)}
    assert strain_choice(worth, Suit.SPADES) > 0.95
    assert strain_choice(worth, Suit.HEARTS) < 0.05
    assert sum(strain_choice(worth, strain) for strain in worth) == pytest.approx(1.0)


def test_a_deal_that_explains_every_call_is_kept_at_once_and_the_others_by_weight() -> None:
    drawn = iter(["poor", "fair", "perfect", "unseen"])
    weights = {"poor": 0.1, "fair": 0.5, "perfect": 1.0}
    assert pick_fitting(lambda: next(drawn), weights.__getitem__, 6,
                        random.Random(1)) == "perfect"
    kept = [pick_fitting(iter(["poor", "fair"]).__next__, weights.__getitem__, 2,
                         random.Random(seed)) for seed in range(600)]
    assert 0.75 < kept.count("fair") / len(kept) < 0.92  # 0.5 / 0.6 ≈ 0.83
    assert pick_fitting(lambda: None, weights.__getitem__, 3, random.Random(1)) is None


@pytest.mark.parametrize("style", STYLES)
def test_a_defenders_first_card_samples_give_the_contractor_its_trumps(style: str) -> None:
    """At the first trick a defender's samples give the contractor more of its trumps (with
    the cards it played) than deals that read no call."""
    from cardroom.bots import make_bot

    rng = random.Random(7)
    fitted: list[int] = []
    plain: list[int] = []
    for seed in range(12):
        game = Game.new("online", seed=seed)
        bots = [make_bot("rules", s) for s in range(4)]
        while game.phase != "play" or game.to_act == game.view(0)["contract"]["contractor"]:
            if game.is_over:
                break
            game.apply(bots[game.to_act].choose(game.view(game.to_act)))  # type: ignore[index]
        contract = game.view(0)["contract"]
        if game.is_over or contract is None or contract["bid"] is None:
            continue  # (everybody passed)
        bid = Bid.parse(contract["bid"])
        if bid.contract is not Contract.TRICKS or bid.trump is None:
            continue
        trumps = strain_for(bid.trump).follow_mask[int(bid.trump)]
        contractor = contract["contractor"]
        view = wire(game.view(game.to_act))  # type: ignore[arg-type]
        with reading_style(style):  # type: ignore[arg-type]
            knowledge = Knowledge(view)
        for counts, reader in ((fitted, knowledge.reader), (plain, RulesReader((), 0, 0))):
            knowledge.reader = reader
            for _ in range(20):
                hands = knowledge.sample(rng)
                assert hands is not None
                whole = hands[contractor] | knowledge.played_by[contractor]
                counts.append((whole & trumps).bit_count())
    assert len(fitted) >= 100
    assert statistics.fmean(fitted) > statistics.fmean(plain) + 0.3, (
        statistics.fmean(fitted), statistics.fmean(plain))


def test_the_arena_plays_one_reading_against_the_other() -> None:
    choice = bot_choice("search:fast@valued/rules")
    bot = choice(3)  # type: ignore[operator]
    assert isinstance(bot, SearchBot) and bot.reading == "rules" and bot.bidding == "valued"
    assert bot_choice("search@rules")(1).reading == "learned"  # type: ignore[operator]
    with pytest.raises(ValueError, match="reading"):
        bot_choice("search@valued/psychic")


def test_a_seat_that_called_nothing_weighs_every_deal_alike() -> None:
    game = Game.new("online", seed=0)
    view = wire(game.view(game.to_act))  # type: ignore[arg-type]  # nobody has called yet
    reader = call_reader(view)
    hands = [mask_of([str(card) for card in cards_of(Rules.preset("online").deck_spec.mask)][:10])
             ] * 4
    assert reader.weight(hands) == 1.0


def test_a_pass_with_no_trick_bid_left_open_weighs_nothing() -> None:
    game = Game.new("online", seed=0)
    game.apply("bid 10NT")
    game.apply("pass")  # nothing was left to bid: this pass says nothing of the hand
    view = wire(game.view(game.to_act))  # type: ignore[arg-type]
    reader = call_reader(view)
    assert isinstance(reader, LearnedReader)
    passer = next(calls for calls in reader.seats if calls.passed_below is not None)
    strong = mask_of(["JK", "JS", "JC", "AS", "KS", "QS", "10S", "9S", "AH", "AD"])
    assert passer.likelihood(reader.evaluator, strong) == 1.0


@pytest.mark.parametrize("preset", ["online", "classic", "american", "three-handed"])
def test_every_auction_weighs_every_deal_between_nothing_and_one(preset: str) -> None:
    """Over random auctions (misère bids and passes after ten no trumps included), both
    readers weigh random deals above zero and at most one."""
    from cardroom.bots import make_bot

    rng = random.Random(3)
    for seed in range(25):
        game = Game.new(preset, seed=seed)
        bots = [make_bot("random", seed * 10 + s) for s in range(game.rules.players)]
        while game.phase == "bidding":
            seat = game.to_act
            assert seat is not None
            view = wire(game.view(seat))
            deck = list(cards_of(game.rules.deck_spec.mask))
            for style in STYLES:
                with reading_style(style):  # type: ignore[arg-type]
                    reader = call_reader(view)
                for _ in range(3):
                    rng.shuffle(deck)
                    hands = [mask_of([str(c) for c in deck[10 * s:10 * s + 10]])
                             for s in range(game.rules.players)]
                    assert 0.0 < reader.weight(hands) <= 1.0
            game.apply(bots[seat].choose(view))


def test_a_j5_no_trumps_bid_reads_as_a_trick_bid() -> None:
    rules = Rules.preset("online").replace(j5_no_trumps=True)
    game = Game.new(rules, seed=0)
    bidder = game.to_act
    game.apply("bid 7J5")
    reader = call_reader(wire(game.view(game.to_act)))  # type: ignore[arg-type]
    assert isinstance(reader, LearnedReader)
    calls = next(calls for calls in reader.seats if calls.seat == bidder)
    even = mask_of(["JK", "AS", "KS", "AC", "KC", "AD", "KD", "QD", "AH", "KH"])  # no long suit
    low = mask_of(["4S", "5S", "6S", "4C", "5C", "6C", "4D", "5D", "4H", "5H"])
    assert calls.likelihood(reader.evaluator, even) > 2 * calls.likelihood(reader.evaluator, low)


def test_a_level_out_of_reach_weighs_no_less_than_the_floor() -> None:
    """A hand far short of its bid's level keeps a tenth of the weight (players misbid);
    naming a strain the hand plays worse than others costs what the strain choice says."""
    _, view = first_call("bid 10S")
    reader = call_reader(view)
    assert isinstance(reader, LearnedReader)
    [calls] = reader.seats
    spades = mask_of(["4S", "5S", "6S", "7S", "8S", "9S", "10S", "4C", "5C", "4D"])
    worth = {strain: reader.evaluator.discounted(distribution, strain) for strain, distribution
             in reader.evaluator.strains(spades, calls.context).items()}
    assert calls.likelihood(reader.evaluator, spades) == pytest.approx(
        0.1 * strain_choice(worth, Suit.SPADES))


def test_the_contractor_is_read_by_the_ten_cards_it_kept() -> None:
    from cardroom.bots import make_bot

    game = Game.new("online", seed=0)
    bots = [make_bot("rules", s) for s in range(4)]
    while game.phase != "play":
        game.apply(bots[game.to_act].choose(game.view(game.to_act)))  # type: ignore[index]
    contractor = game.view(0)["contract"]["contractor"]
    viewer = (contractor + 1) % 4
    knowledge = Knowledge(wire(game.view(viewer)))
    assert isinstance(knowledge.reader, LearnedReader)
    kitties = {calls.seat: calls.context.kitty for calls in knowledge.reader.seats}
    assert kitties[contractor] == 0
    assert all(kitty == game.rules.deck_spec.kitty  # (the others are read as they bid)
               for seat, kitty in kitties.items() if seat != contractor)


def test_a_pass_reads_what_the_ladder_left_open() -> None:
    from cardroom.bots.five_hundred.reading import Ladder

    # On `australian` misère (worth 250) is placed after the sevens, below 8S (240).
    ladder = Ladder.of(wire(Game.new("australian", seed=0).view(0)))
    open_after = ladder.cheapest(Bid.parse("misere"), 1)
    assert open_after[Suit.SPADES] == 8 and open_after[None] == 8
    american = Ladder.of(wire(Game.new("american", seed=0).view(0)))
    assert american.cheapest(None, 1)[Suit.SPADES] == 6  # the first two may bid an inkle
    assert american.cheapest(None, 2)[Suit.SPADES] == 7
