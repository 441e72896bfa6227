"""The rules bot for 1000: a careful club player's heuristics, from the seat's view only.

It values a hand by the card points its top cards should win, the marriages it holds and an
allowance for the bank, and bids up to that value; it keeps its marriages and best cards when
discarding or giving cards away, and names a final bet it expects to make. In the play it
declares its marriages as soon as it may (the points count at once and the trump suit is its
own), cashes cards nobody can beat, draws trumps as contractor, wins tricks cheaply, feeds
points to a partner-in-defence who is sure to win, and otherwise throws its least valuable
card. It counts the cards played and remembers who showed out of which suit.
"""

from __future__ import annotations

from cardroom.bots.seen import hand_of, mask_of_texts
from cardroom.bots.thousand.knowledge import Seen
from cardroom.games.cards import CARDS, Card, iter_indexes
from cardroom.games.thousand.deck import (
    MARRIAGE_POINTS,
    POINTS,
    STRENGTH,
    SUIT_IN_PACK,
    card_key,
    marriages_in,
    points_of,
)
from cardroom.games.thousand.shapes import ThousandView

TRICK_EXTRA = 7.0
"""Card points the other two players are expected to add to a trick won with a top card."""
UNGUARDED_TEN = 0.35
"""Chance that a ten without its ace still wins a trick (the ace falls first, or is away)."""
TRUMP_LENGTH = 9.0
"""Points per card beyond three in the suit of the best marriage (they win as trumps)."""
MARRIAGE_SHARE = 0.9
"""Share of a held marriage's value counted when bidding: one must win the lead to declare."""
BANK_ALLOWANCE = {"discard": 18.0, "give": 14.0}
"""Points the bank is expected to add when bidding, by what the contractor does with it."""
BID_MARGIN = 5.0
"""Taken off the hand's value before bidding or betting: the estimate is rough."""


# -- hand evaluation ---------------------------------------------------------------------------


def hand_value(hand: int) -> float:
    """Points a contractor holding ``hand`` (and on lead) should take: top cards, marriages,
    and length in the best marriage's suit."""
    value = sum(suit_value(hand & SUIT_IN_PACK[suit]) for suit in range(4))
    marriages = marriages_in(hand)
    value += MARRIAGE_SHARE * sum(MARRIAGE_POINTS[suit] for suit in marriages)
    if marriages:
        best = max(marriages, key=lambda suit: (hand & SUIT_IN_PACK[suit]).bit_count())
        value += TRUMP_LENGTH * max(0, (hand & SUIT_IN_PACK[best]).bit_count() - 3)
    return value


def suit_value(cards: int) -> float:
    """Points one suit's cards should win: the unbroken run from the ace, plus a chance for a
    guarded ten without the ace."""
    ordered = sorted(iter_indexes(cards), key=lambda i: -STRENGTH[i])
    value = 0.0
    for place, index in enumerate(ordered):
        if STRENGTH[index] != 6 - place:
            break
        value += POINTS[index] + TRICK_EXTRA
    else:
        return value
    if ordered and STRENGTH[ordered[0]] == 5 and len(ordered) >= 2:
        value += UNGUARDED_TEN * (POINTS[ordered[0]] + TRICK_EXTRA)
    return value


def keep_value(hand: int, away: int, count_away: bool) -> float:
    """The value of ``hand`` without ``away`` (cards discarded or given), counting the cards
    put away for the contractor when discards count, against it when they go to opponents."""
    rest = hand_value(hand & ~away)
    return rest + points_of(away) if count_away else rest - 0.5 * points_of(away)


# -- the bot ------------------------------------------------------------------------------------


class ThousandRulesBot:
    """Careful heuristic 1000: bids on the hand's value, keeps marriages, counts cards."""

    name = "rules"

    def __init__(self, seed: int = 0, caution: float = 0.0) -> None:
        self.seed = seed  # deterministic; the seed keeps the registry uniform
        self.caution = caution
        """Points taken off the hand's value in bids and final bets besides
        :data:`BID_MARGIN` (the rules bot: none; the search bot, whose defence beats the
        contracts it lets others win, more: :data:`~cardroom.bots.thousand.search.CAUTION`)."""

    def choose(self, view: ThousandView) -> str:
        """The action for the seat to act (see :class:`cardroom.bots.base.Bot`)."""
        legal: list[str] = view["legal_actions"]
        if len(legal) == 1:
            return legal[0]
        phase = view["phase"]
        if phase == "bidding":
            return self.bid(view, legal)
        seen = Seen(view)
        if phase == "discard":
            return self.put_away(seen, legal, count_away=bool(view["rules"]["count_discards"]))
        if phase == "give":
            return self.put_away(seen, legal, count_away=False)
        if phase == "bet":
            return self.bet(seen, legal)
        return self.play(seen, legal)

    # bidding and the bank

    def bid(self, view: ThousandView, legal: list[str]) -> str:
        """Look first (never blind); then bid the cheapest bid the hand is worth, else pass."""
        if "look" in legal:
            return "look"
        hand = mask_of_texts(hand_of(view))
        worth = (hand_value(hand) + BANK_ALLOWANCE[view["rules"]["bank_use"]] - BID_MARGIN
                 - self.caution)
        bids = [text for text in legal if text.startswith("bid ")]
        affordable = [text for text in bids if int(text.split()[1]) <= worth]
        if affordable:
            return affordable[0]
        return "pass" if "pass" in legal else bids[0]

    def put_away(self, seen: Seen, legal: list[str], count_away: bool) -> str:
        """The discard (or gift) that leaves the most valuable hand."""
        def score(text: str) -> float:
            return keep_value(seen.hand, mask_of_texts(text.split()[1:]), count_away)

        return max(legal, key=lambda text: (score(text), text))

    def bet(self, seen: Seen, legal: list[str]) -> str:
        """The highest final bet the hand (and the counted discards) should make."""
        worth = hand_value(seen.hand) - BID_MARGIN - self.caution
        if seen.rules["count_discards"]:
            worth += points_of(seen.discards)
        bets = [text for text in legal if int(text.split()[1]) <= worth]
        return bets[-1] if bets else legal[0]

    # card play

    def play(self, seen: Seen, legal: list[str]) -> str:
        """Declare a marriage when leading if possible; otherwise lead or follow by rule."""
        marriages = [text for text in legal if text.endswith("marriage")]
        if marriages:
            return self._declare(seen, marriages)
        cards = [Card.parse(text.split()[1]).index for text in legal]
        index = self._lead(seen, cards) if not seen.trick else self._follow(seen, cards)
        return f"play {CARDS[index]}"

    def _declare(self, seen: Seen, options: list[str]) -> str:
        """The most valuable marriage, leading its king when no higher card is out, else the
        queen (the cheaper card to lose)."""
        def worth(text: str) -> tuple[int, bool]:
            index = Card.parse(text.split()[1]).index
            return MARRIAGE_POINTS[index >> 4], seen.is_boss(index) or STRENGTH[index] == 3

        return max(options, key=lambda text: (worth(text), text))

    def _lead(self, seen: Seen, cards: list[int]) -> int:
        keep = seen.marriage_cards()
        trumps = [i for i in cards if i >> 4 == seen.trump]
        if seen.is_contractor and trumps and self._enemy_trumps(seen):
            boss = [i for i in trumps if seen.is_boss(i)]
            if boss:
                return max(boss, key=lambda i: STRENGTH[i])
        cashable = [i for i in cards if seen.is_boss(i) and i >> 4 != seen.trump
                    and not self._ruff_danger(seen, i >> 4) and not keep >> i & 1]
        if cashable:
            return max(cashable, key=lambda i: (POINTS[i], STRENGTH[i]))
        return self._cheapest(seen, cards, keep)

    def _follow(self, seen: Seen, cards: list[int]) -> int:
        winner_seat, winner_card = seen.current_winner()  # type: ignore[misc]
        led = seen.trick[0][1] >> 4
        later = seen.seats_after()
        keep = seen.marriage_cards()
        if seen.friend(winner_seat) and self._holds(seen, winner_card, led, later):
            return self._feed(seen, cards, keep)
        beaters = [i for i in cards
                   if card_key(i, led, seen.trump) > card_key(winner_card, led, seen.trump)]
        safe = [i for i in beaters if self._holds(seen, i, led, later)]
        if safe:
            return min(safe, key=lambda i: (STRENGTH[i] + 10 * (i >> 4 == seen.trump),
                                            keep >> i & 1))
        return self._cheapest(seen, cards, keep)

    def _holds(self, seen: Seen, index: int, led: int, later: list[int]) -> bool:
        """Whether ``index`` will still be winning once the ``later`` seats have played."""
        if not later or all(seen.friend(s) for s in later):
            return True
        suit = index >> 4
        if suit == seen.trump:
            return seen.is_boss(index)
        trumps_out = seen.trump is not None and seen.unseen_in(seen.trump) > 0
        ruff = trumps_out and any(seen.may_be_void(s, led) for s in later if not seen.friend(s))
        return suit == led and seen.is_boss(index) and not ruff

    def _feed(self, seen: Seen, cards: list[int], keep: int) -> int:
        """A partner-in-defence wins the trick: give it points, but not a marriage card."""
        return max(cards, key=lambda i: (not keep >> i & 1, i >> 4 != seen.trump, POINTS[i],
                                         -STRENGTH[i]))

    def _cheapest(self, seen: Seen, cards: list[int], keep: int) -> int:
        """The card that costs least to lose: few points, not a marriage card, not a trump,
        from a long suit."""
        def cost(i: int) -> tuple[int, int, int, int]:
            length = (seen.hand & SUIT_IN_PACK[i >> 4]).bit_count()
            return (keep >> i & 1, i >> 4 == seen.trump, POINTS[i], -length)

        return min(cards, key=cost)

    @staticmethod
    def _enemy_trumps(seen: Seen) -> bool:
        return seen.trump is not None and seen.unseen_in(seen.trump) > 0

    @staticmethod
    def _ruff_danger(seen: Seen, suit: int) -> bool:
        """An opponent who showed out of ``suit`` may trump it."""
        if seen.trump is None or seen.unseen_in(seen.trump) == 0:
            return False
        return any(seen.may_be_void(s, suit) for s in seen.active
                   if s != seen.seat and not seen.friend(s))
