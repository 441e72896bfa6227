"""A match of 500 as a pure state machine: deal after deal until a side wins.

Use it like a chess board::

    game = Game.new(Rules.preset("online"), seed=7)
    game.to_act, game.phase            # (1, 'bidding')
    game.legal_actions()               # [Action('pass'), Action('bid 6S'), ...]
    game.apply("bid 7H")               # -> public events, or IllegalAction with the reason
    game.view(seat)                    # everything that seat may see, JSON-ready

Two to six players: four in two partnerships, six in two teams of three or three teams of
two, two, three and five each for themselves (cut-throat; five call partners for each hand
by naming a card; two play with a dead hand dealt to an empty seat and out of play). Scores
are kept per *side*: ``game.teams`` lists the seats of each side (one seat per side when
players keep own scores) and ``game.team_of`` gives each seat's side.

The game is assembled here from one module per part of a hand: :mod:`.bidding`,
:mod:`.exchange` (kitty, slam, partner calls, the joker's suit), :mod:`.play`,
:mod:`.scoring` and :mod:`.view`, each a set of functions of the match's :class:`.State`.
Each phase has its legal actions, its check of an action and its effect (:data:`PHASES`).
Randomness is only the seeded shuffle of each deal (:mod:`.deal`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from cardroom.games.base import IllegalAction
from cardroom.games.cards import Card, cards_of, mask_of
from cardroom.games.five_hundred import bidding, claims, exchange, play
from cardroom.games.five_hundred import view as views
from cardroom.games.five_hundred.actions import Action
from cardroom.games.five_hundred.rules import Rules
from cardroom.games.five_hundred.scoring import HandResult
from cardroom.games.five_hundred.shapes import FiveHundredView
from cardroom.games.five_hundred.state import (
    BIDDING,
    CALL_PHASE,
    CLAIM_PHASE,
    DISCARD_PHASE,
    GIVE_PHASE,
    JOKER_PHASE,
    PARTNER_DISCARD,
    PLAYING,
    TRICKS_PER_HAND,
    State,
)
from cardroom.games.match import check_seat, check_whole_pack, hand_masks
from cardroom.games.phases import Phase

__all__ = ["PHASES", "Game", "HandResult", "Phase"]

GAME_NAME = views.GAME_NAME
PLAYERS = 4
"""Players of the classic game (and of every four-player preset)."""

PHASES: dict[str, Phase[State, Action]] = {
    BIDDING: Phase(bidding.legal, bidding.speak),
    DISCARD_PHASE: Phase(exchange.legal_discards, exchange.put_back),
    PARTNER_DISCARD: Phase(exchange.legal_discards, exchange.put_back),
    GIVE_PHASE: Phase(exchange.legal_gives, exchange.give),
    CALL_PHASE: Phase(exchange.legal_calls, exchange.call),
    JOKER_PHASE: Phase(exchange.legal_joker_names, exchange.name_joker),
    PLAYING: Phase(play.legal, play.play_card),
    CLAIM_PHASE: Phase(claims.legal_answers, claims.answer),
}
"""Each phase of a hand (every phase but ``over``) by name."""


class Game(State):
    """A match of 500 for two to six players (four in two partnerships by default).

    Create one with :meth:`new` (seeded deal) or :meth:`from_deal` (a given first deal), or
    rebuild one with :meth:`replay`. The match goes on deal after deal by itself: after the last
    trick the hand is scored, the deal passes clockwise and the next hand is dealt.
    """

    players = PLAYERS
    GAME_NAME = GAME_NAME
    RULES = Rules
    ACTION = Action
    SPARE_KEY = "kitty"

    # -- construction ----------------------------------------------------------------------------

    @classmethod
    def new(cls, rules: Rules | str, seed: int, dealer: int | None = None) -> Game:
        """A new match with deals drawn from ``seed``; a random first dealer unless given."""
        rules = Rules.preset(rules) if isinstance(rules, str) else rules
        if dealer is None:
            dealer = cls._drawn_dealer(rules, seed)
        return cls(rules, seed, check_seat(dealer, rules.players))

    @classmethod
    def from_deal(cls, rules: Rules | str, dealer: int, hands: Sequence[Sequence[Card | str]],
                  kitty: Sequence[Card | str], seed: int = 0) -> Game:
        """A match whose first deal is given (later deals come from ``seed``).

        ``ValueError`` unless the hands and kitty hold each card of the deck exactly once.
        With two players ``hands`` goes on with the dead hands (``rules.dead_hands`` of them),
        as a record's deal does.
        """
        rules = Rules.preset(rules) if isinstance(rules, str) else rules
        masks, seen = hand_masks(hands, [TRICKS_PER_HAND] * (rules.players + rules.dead_hands))
        kitty_mask = mask_of(kitty)
        if len(kitty) != rules.kitty_size or kitty_mask.bit_count() != rules.kitty_size:
            raise ValueError(f"the kitty must hold {rules.kitty_size} different cards")
        if kitty_mask & seen:
            raise ValueError(f"a card is dealt twice: {cards_of(kitty_mask & seen)[0]}")
        check_whole_pack(seen | kitty_mask, rules.deck_spec.mask, f"the {rules.deck} deck")
        return cls(rules, seed, check_seat(dealer, rules.players), (masks, kitty_mask))

    # -- turns -----------------------------------------------------------------------------------

    def legal_actions(self) -> Sequence[Action]:
        """Every action the seat to act may take (a lazy sequence for kitty discards)."""
        if self._phase == PLAYING:
            return play.legal(self)
        phase = PHASES.get(self._phase)
        return phase.legal(self) if phase is not None else []

    def apply(self, action: Action | str, seat: int | None = None) -> list[dict[str, Any]]:
        """Apply the action of the seat to act; return the public events it caused.

        ``seat``, when given, is who is trying to act: anyone else than the seat to act gets
        :class:`IllegalAction`. Any illegal action raises :class:`IllegalAction` with the reason
        and leaves the game exactly as it was.
        """
        actor = self._to_act
        if seat is not None or actor is None or action.__class__ is not Action:
            actor, chosen = self._actor_and_action(action, seat)
        else:
            chosen = action  # the usual case: a listed action, no checks
        # In the record first: a new deal notes the number of actions before it.
        self.actions.append(chosen)
        self.action_seats.append(actor)
        try:
            if self._phase == PLAYING:
                return play.play_card(self, actor, chosen)
            return PHASES[self._phase].apply(self, actor, chosen)
        except IllegalAction:
            self.actions.pop()
            self.action_seats.pop()
            raise

    def claim_options(self, seat: int) -> list[str]:
        """The claims ``seat`` may make now (``claim 0`` … ``claim N``; none when it may
        not claim): offered beside the legal actions, never among them, so that a bot or a
        random player choosing among legal actions never claims by chance."""
        return [f"claim {count}" for count in claims.claim_counts(self, seat)]

    # -- what a seat sees ------------------------------------------------------------------------

    def visible_hand(self, viewer: int | None, seat: int) -> list[Card] | None:
        """The cards of ``seat`` that ``viewer`` may see: own hand, or a hand played open."""
        return views.visible_hand(self, viewer, seat)

    def sort_hand(self, mask: int) -> list[Card]:
        """Cards for display: grouped by effective suit (trumps first), highest first."""
        return views.sort_hand(self, mask)

    def known_side(self, viewer: int | None) -> list[int]:
        """The seats ``viewer`` knows to be playing for the contract (see
        :func:`.view.known_side`)."""
        return views.known_side(self, viewer)

    def view(self, seat: int | None) -> FiveHundredView:
        """Everything ``seat`` may see (``None``: a spectator), JSON-ready, with legal actions.

        Hidden: the other hands (but hands played open), the kitty (but to the seat taking
        it), others' discards, the holders of called cards until they play them, the seed and
        the deal of later hands.
        """
        return views.view(self, seat)

    def views(self, seats: Iterable[int | None]) -> dict[int | None, FiveHundredView]:
        """The :meth:`view` of each of ``seats`` (a table's viewers after a change), the part
        every seat sees alike built once."""
        return views.views(self, seats)

    def __repr__(self) -> str:
        return (f"<500 Game hand {self.hand_number} phase={self._phase} to_act={self._to_act} "
                f"scores={self.scores}>")
