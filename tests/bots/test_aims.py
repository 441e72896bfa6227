"""Who wants what in the card play (:mod:`cardroom.bots.five_hundred.aims`): the search bot,
the solver and the analysis play every no-tricks contract for the score the engine gives it.

The endings are real hands reached through the engine (``tests/bots/endings.py``). In each,
the card to play is right only because of later play: whatever is played now, the trick in
progress goes the same way. The best cards come from plain minimax over the engine, each side
playing for the points the engine scores the hand, written out independently of the bots."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from tests.bots.reference_solver import brute_force

from cardroom.bots import make_bot
from cardroom.bots.five_hundred.aims import Aims, contract_aims, game_aims, view_aims
from cardroom.bots.five_hundred.search import Knowledge, SearchBot, SolverLevel
from cardroom.bots.five_hundred.solver import Position, move_values
from cardroom.games.cards import Card
from cardroom.games.five_hundred import Bid, Game, Rules
from cardroom.tools.analysis import analyse

sys.path.insert(0, str(Path(__file__).parent))
from endings import best_cards, reach_ending


@dataclass(frozen=True)
class Ending:
    """A scripted hand: the table, the bidding, the seats that play, who leads the first
    trick, each playing seat's last cards, who wins each filler trick, the cards of the
    ending played before the decision, and what the seat to play must see."""

    name: str
    preset: str
    options: tuple[tuple[str, Any], ...]
    bids: tuple[str, ...]
    active: tuple[int, ...]
    first: int
    cards: tuple[tuple[int, str], ...]
    winners: tuple[int, ...]
    opening: tuple[str, ...]
    why: str
    scores: tuple[int, ...] | None = None

    def game(self) -> Game:
        """The game at the decision."""
        rules = Rules.preset(self.preset).replace(target=100_000, lose_at=None,
                                                  **dict(self.options))
        return reach_ending(rules, rules.players - 1, self.bids, self.active, self.first,
                            dict(self.cards), self.winners, self.opening, self.scores)


ONLINE_MISERE = ("bid misere", "pass", "pass", "pass")

AUSTRALIAN_MISERE = ("bid 7S", "bid misere", "pass", "pass", "pass")

ENDINGS = [
    Ending("misere, defender", "online", (), ONLINE_MISERE, (0, 1, 3), 0,
           ((0, "10D 4C 7S"), (1, "9S AH 5S"), (3, "10S 4D 8H")), (3, 3, 3, 1, 1, 3, 1), (),
           "seat 1 must lead a spade, which its partner's 10S wins, so that the partner leads "
           "the 4D to the maker's bare 10D"),
    Ending("misere, defender with the joker", "online", (), ONLINE_MISERE, (0, 1, 3), 0,
           ((0, "QC 6D 8D"), (1, "7H 8C JK"), (3, "10H 5S 9D")), (3, 3, 3, 1, 1, 1, 3), (),
           "seat 3 must lead the 9D, on which its partner, out of diamonds, must play the "
           "joker and win, to lead the 8C to the maker's bare QC"),
    Ending("misere (play stops), maker", "australian", (), AUSTRALIAN_MISERE, (0, 1, 2), 1,
           ((0, "4D JH 7C"), (1, "4H 6D AH"), (2, "10H JC JK")), (0, 0, 2, 0, 2, 0, 2),
           ("JK:C", "7C"),
           "the maker, out of clubs, must throw the 6D: it keeps the 4H to duck under the "
           "10H and throws the AH on the 4D"),
    Ending("misere (play stops), defender", "australian", (), AUSTRALIAN_MISERE, (0, 1, 2), 1,
           ((0, "9S 7D JD"), (1, "9C 10S 8S"), (2, "9H 9D 6S")), (0, 2, 2, 0, 0, 0, 2), ("9H",),
           "seat 0, out of hearts, must throw the 9S, so that nothing but the maker's 8S can "
           "win its partner's 6S"),
    Ending("open misere, maker", "online", (), ("bid misere", "bid open-misere", "pass",
                                                  "pass", "pass"), (0, 1, 2), 1,
           ((0, "QC KH 9H"), (1, "10H 5H 5D"), (2, "7H 7D 4D")), (2, 0, 2, 2, 0, 0, 0), ("KH",),
           "under the KH the maker must drop the 10H and keep the 5H to duck the 7H led later"),
    Ending("open misere, defender", "online", (), ("bid misere", "bid open-misere", "pass",
                                                     "pass", "pass"), (0, 1, 2), 1,
           ((0, "6S 7S 9H"), (1, "8S 9C KD"), (2, "9S 7C 4H")), (2, 2, 2, 2, 0, 0, 0), (),
           "seat 0 must lead a spade, which the maker's bare 8S cannot duck and its partner's "
           "9S wins, so that the partner leads the 7C to the maker's 9C"),
    Ending("Across The Table, defender", "online", (),
           ("bid misere", "pass", "bid across-the-table", "pass", "pass"), (0, 1, 2, 3), 2,
           ((0, "4C 4D JH"), (1, "JK 6H 9S"), (2, "6C AH 5S"), (3, "10S 7D AS")),
           (1, 3, 1, 1, 1, 1, 3), (),
           "seat 3 must lead the 7D, on which its partner must play the joker and win, to lead "
           "the 6H to the makers' JH and AH"),
    Ending("double nullo, defender", "online", (("double_nullo", True),),
           ("bid double-nullo", "pass", "pass", "pass"), (0, 1, 2, 3), 0,
           ((0, "9H QH 10D"), (1, "8S 4S 5C"), (2, "AC 8H JD"), (3, "5S 7H KH")),
           (3, 1, 1, 1, 1, 3, 3), ("5S", "9H"),
           "seat 1 must duck under its partner's 5S, which keeps the lead to play the 7H to "
           "seat 0's bare QH"),
    Ending("Nello, defender", "american", (), ("bid nello", "pass", "pass", "pass"),
           (0, 1, 3), 0,
           ((0, "5C QS QD"), (1, "7C 10H KC"), (3, "8H AC 7D")), (3, 3, 3, 3, 3, 1, 1), (),
           "seat 1 must lead a club, which its partner's bare AC wins, so that the partner "
           "leads the 7D to the maker's bare QD", (-100, 0)),
    Ending("Across The Corner, opponent", "online", (),
           ("bid misere", "bid across-the-corner", "pass", "pass", "pass"), (0, 1), 1,
           ((0, "AS KH 5D"), (1, "6S 8C 9C")), (1, 1, 0, 0, 0, 0, 1), ("8C",),
           "the opponent, out of clubs, must throw the AS: kept, it must win the 6S the "
           "contractor leads next, and the opponent would end with more tricks"),
]
"""Endings of every no-tricks contract of four players, in which a maker or a defender must
play for a later trick."""

SMALL_TABLES = [
    Ending("three-handed misere, maker", "three-handed", (),
           ("bid 7S", "bid misere", "pass", "pass"), (0, 1, 2), 1,
           ((0, "9S 9C KS"), (1, "QC 8H AH"), (2, "QH 8D 9D")), (0, 2, 0, 2, 2, 2, 0), ("9S",),
           "the maker, out of spades, must throw the QC: kept, it must win the 9C seat 0 "
           "leads later"),
    Ending("five-handed misere, maker", "five-handed", (),
           ("bid 7S", "bid misere", "pass", "pass", "pass", "pass"), (0, 1, 2, 3, 4), 1,
           ((0, "JS 6C"), (1, "7S KC"), (2, "QH 6D"), (3, "5H KH"), (4, "9C QD")),
           (0, 0, 0, 3, 0, 2, 3, 2), ("6D", "KH", "QD", "6C"),
           "the maker, out of diamonds, must throw the KC and keep the 7S to duck under seat "
           "0's JS"),
]
"""Three and five players (the search bot plays these by rule; the analysis and the solver's
reference take :func:`game_aims`)."""


def _named(endings: list[Ending]) -> Any:
    return pytest.mark.parametrize("ending", endings, ids=lambda e: e.name)


def play_share(game: Game, counted: tuple[int, ...]) -> set[bool]:
    """Whether the counted seats take the trick in progress, over every legal card now and
    every way to finish the trick."""
    shares: set[bool] = set()
    done, hand = len(game.completed), game.hand_number

    def finish(state: Game) -> None:
        if state.hand_number != hand:  # the trick ended the hand (the makers took one)
            shares.add(any(state.history[-1].tricks[seat] > game.tricks_won[seat]
                           for seat in counted))
            return
        if len(state.completed) > done:
            shares.add(state.completed[done]["winner"] in counted)
            return
        for action in state.legal_actions():
            after = state.copy()
            after.apply(action)
            finish(after)

    finish(game)
    return shares


def true_deal(game: Game) -> Any:
    """A stand-in for :meth:`Knowledge.sample` that deals the hidden hands as they are."""

    def sample(knowledge: Knowledge, rng: Any) -> dict[int, int]:
        return {seat: game.hands[seat] for seat in knowledge.places}

    return sample


SURE = SolverLevel(budget=600.0, samples=1, max_tricks={4: 10, 3: 10, 2: 10}, bid_budget=1.0,
             bid_samples=1)
"""One sampled deal, with time to solve it: the choice does not depend on the machine."""


@_named(ENDINGS)
def test_the_search_bot_plays_for_the_contracts_score(ending: Ending,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Shown the real deal, the search bot plays a card that is best for its side's score."""
    game = ending.game()
    best, values = best_cards(game, game.contract_side)
    assert len(best) < len(values), "every card is as good: the ending tests nothing"
    assert len(play_share(game, game_aims(game).counted)) == 1, (  # type: ignore[union-attr]
        "the trick in progress decides: the ending does not test later play")
    monkeypatch.setattr(Knowledge, "sample", true_deal(game))
    bot = SearchBot(0)
    bot.level = SURE
    action = bot.choose(game.view(game.to_act))
    assert action in best, (ending.why, action, values)


@_named(ENDINGS + SMALL_TABLES)
def test_the_solver_aims_as_the_engine_scores(ending: Ending) -> None:
    """The solver, given :func:`game_aims`, finds exactly the tricks that score best: each
    card's value by minimax over the count agrees with minimax over the engine's points."""
    game = ending.game()
    best, values = best_cards(game, game.contract_side)
    aims = game_aims(game)
    assert aims is not None
    seat = game.to_act
    counts = {}
    for action in values:
        after = game.copy()
        after.apply(action)
        if after.hand_number != game.hand_number:  # the hand ended on this card
            counts[action] = sum(after.history[-1].tricks[s] for s in aims.counted)
            continue
        done = sum(after.tricks_won[s] for s in aims.counted)
        counts[action] = done + brute_force(Position.from_game(after), aims.counted,
                                            aims.maximisers)
    pick = max if seat in aims.maximisers else min
    solver_best = {action for action, count in counts.items()
                   if count == pick(counts.values())}
    assert solver_best <= best, (ending.why, counts, values)
    if len(game.active) <= 4:
        fast = move_values(Position.from_game(game), aims.counted, maximisers=aims.maximisers)
        done = sum(game.tricks_won[s] for s in aims.counted)
        assert {f"play {Card(card)}": done + count for (card, _), count in fast.items()} \
            == counts


@_named(ENDINGS[:4] + SMALL_TABLES[:1])
def test_the_analysis_calls_the_wrong_card_a_slip(ending: Ending) -> None:
    """Analysed afterwards, a card that is not best is a slip whose best cards are the
    engine's; the best card is none."""
    for right in (True, False):
        game = ending.game()
        best, values = best_cards(game, game.contract_side)
        seat, trick = game.to_act, len(game.completed) + 1
        played = sorted(best)[0] if right else sorted(set(values) - best)[0]
        game.apply(played)
        while game.hand_number == 1:
            game.apply(game.legal_actions()[0])
        slips = [slip for slip in analyse(game.record, max_hands=1)[0].slips
                 if slip.trick == trick and slip.seat == seat]
        if right:
            assert not slips
        else:
            assert [set(slip.best) for slip in slips] == [{a[5:] for a in best}]


def test_the_aims_of_each_contract() -> None:
    """Trick contracts (J5 too) count the contract's side, which wants many; no-tricks
    contracts count the makers, and the defence wants many; Hi/Lo has no such aim."""
    four, team = (0, 1, 2, 3), (0, 2)
    cases = [(Bid.parse("7H"), four, team, (0, 2), (0, 2)),
             (Bid.parse("7J5"), four, team, (0, 2), (0, 2)),
             (None, four, (1, 3), (1, 3), (1, 3)),
             (Bid.parse("misere"), (0, 1, 3), team, (0,), (1, 3)),
             (Bid.parse("across-the-table"), four, team, (0, 2), (1, 3)),
             (Bid.parse("across-the-corner"), (0, 1), team, (0,), (1,)),
             (Bid.parse("misere"), (0, 1, 2), (1,), (1,), (0, 2)),
             (Bid.parse("8S"), (0, 1, 2, 3, 4), (1, 3, 4), (1, 3, 4), (1, 3, 4))]
    for bid, active, side, counted, maximisers in cases:
        assert contract_aims(bid, active, side) == Aims(counted, maximisers), bid
    assert contract_aims(Bid.parse("hi-lo"), (0, 1, 3), team) is None


@_named(ENDINGS + SMALL_TABLES)
def test_every_seat_sees_the_aims_of_the_whole_game(ending: Ending) -> None:
    """What each playing seat's view tells gives the aims every card shows."""
    game = ending.game()
    for seat in game.active:
        assert view_aims(game.view(seat)) == game_aims(game)


# -- the misère contractor's first lead -----------------------------------------------------


def misere_openings(count: int) -> list[Game]:
    """The first ``count`` online deals (seeds from 0) on which the rules bots' bidding ends
    in misère: each at the contractor's opening lead, after the rules bot's discards."""
    rules = Rules.preset("online").replace(target=100_000, lose_at=None)
    games = []
    seed = 0
    while len(games) < count:
        game = Game.new(rules, seed=seed)
        bots = [make_bot("rules", s) for s in range(4)]
        while game.phase != "play":
            game.apply(bots[game.to_act].choose(game.view(game.to_act)))  # type: ignore[index]
        if game.contract is not None and game.contract.text == "misere":
            games.append(game)
        seed += 1
    return games


def ranks_with_the_lowest(view: dict[str, Any], lead: Card, deck: int) -> bool:
    """Whether no card the defenders may hold ranks between ``lead`` and the lowest card of
    its suit in the seat's hand: every card between them is the seat's own or among its
    discards, so the defenders can duck under the one as under the other."""
    mine = {Card.parse(text) for text in [*view["hand"], *view["discards"]]}
    suit = [card for card in map(Card.parse, view["hand"]) if card.suit == lead.suit]
    lowest = min(suit, key=lambda card: card.rank)  # type: ignore[arg-type, return-value]
    between = [Card.of(rank, lead.suit) for rank in type(lead.rank)  # type: ignore[arg-type]
               if lowest.rank < rank < lead.rank]  # type: ignore[operator]
    return all(card in mine for card in between if card.mask & deck)


def test_the_misere_contractor_leads_low() -> None:
    """Leading a card the defenders can duck under gives the maker the trick: on the first
    eight online misère contracts, the search bot opens with the lowest card it holds in the
    suit, or one that ranks with it, at least seven times. (Double dummy almost every one
    of these contracts fails whatever is led, so the lead is a matter of the sampled deals,
    and one hand may do as well with another card; with the defence's aims reversed the bot
    led low in five of them.)"""
    low = []
    for game in misere_openings(8):
        view = game.view(game.to_act)
        bot = SearchBot(game.seed)
        bot.level = SolverLevel(budget=600.0, samples=12, max_tricks={4: 10, 3: 10, 2: 10},
                          bid_budget=1.0, bid_samples=1)
        lead = Card.parse(bot.choose(view).split()[1])
        low.append(ranks_with_the_lowest(view, lead, game.rules.deck_spec.mask))
    assert sum(low) >= 7, low
