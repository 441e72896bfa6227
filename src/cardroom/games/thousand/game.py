"""A match of 1000 as a pure state machine: deal after deal until someone reaches the target.

Use it like the 500 engine::

    game = Game.new(Rules.preset("seed"), seed=7)     # the host (seat 0) deals first
    game.to_act, game.phase            # (1, 'bidding')
    game.legal_actions()               # [Action('look'), Action('bid 100 blind'), ...]
    game.apply("look")                 # -> public events, or IllegalAction with the reason
    game.view(seat)                    # everything that seat may see, JSON-ready

Three players, or four with the dealer sitting out each deal.

The game is assembled here from one module per part of a deal: :mod:`.bidding`, :mod:`.bank`
(discards or gifts, and the final bet), :mod:`.play`, :mod:`.scoring` and :mod:`.view`, each a
set of functions of the match's :class:`.State`. Each phase has its legal actions and an
action's effect (:data:`PHASES`). Randomness is only the seeded shuffle of each deal (and,
under ``first_dealer: random``, the seeded choice of the first dealer).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from cardroom.games.base import IllegalAction
from cardroom.games.cards import Card, mask_of
from cardroom.games.match import check_seat, check_whole_pack, hand_masks
from cardroom.games.phases import Phase, legal_in_phase
from cardroom.games.thousand import bank, bidding, play
from cardroom.games.thousand import view as views
from cardroom.games.thousand.actions import Action
from cardroom.games.thousand.deck import PACK_MASK
from cardroom.games.thousand.rules import Rules
from cardroom.games.thousand.scoring import HandResult
from cardroom.games.thousand.shapes import ThousandView
from cardroom.games.thousand.state import (
    BANK_SIZE,
    BET_PHASE,
    BIDDING,
    DISCARD_PHASE,
    GIVE_PHASE,
    HAND_SIZE,
    PLAYING,
    State,
    active_seats,
)

__all__ = ["BANK_SIZE", "GAME_NAME", "HAND_SIZE", "PHASES", "Game", "HandResult"]

GAME_NAME = views.GAME_NAME

PHASES: dict[str, Phase[State, Action]] = {
    BIDDING: Phase(bidding.legal, bidding.speak),
    DISCARD_PHASE: Phase(bank.legal_discards, bank.discard),
    GIVE_PHASE: Phase(bank.legal_gives, bank.give),
    BET_PHASE: Phase(bank.legal_bets, bank.bet),
    PLAYING: Phase(play.legal, play.play_card),
}
"""Each phase of a deal (every phase but ``over``) by name."""


class Game(State):
    """A match of 1000 for three players (or four, the dealer sitting out each deal).

    Create one with :meth:`new` (seeded deals) or :meth:`from_deal` (a given first deal), or
    rebuild one with :meth:`replay`. The match goes on deal after deal by itself: after the last
    trick the deal is scored, the deal passes clockwise and the next one is dealt.
    """

    GAME_NAME = GAME_NAME
    RULES = Rules
    ACTION = Action
    SPARE_KEY = "bank"

    # -- construction ----------------------------------------------------------------------------

    @classmethod
    def new(cls, rules: Rules | str, seed: int, first_dealer: int | None = None) -> Game:
        """A new match with deals drawn from ``seed``. The first dealer is ``first_dealer``
        when given, else as the rules say: the host (seat 0) or a player drawn from the seed."""
        rules = Rules.preset(rules) if isinstance(rules, str) else rules
        if first_dealer is None:
            first_dealer = 0 if rules.first_dealer == "host" else cls._drawn_dealer(rules, seed)
        return cls(rules, seed, check_seat(first_dealer, rules.players))

    @classmethod
    def from_deal(cls, rules: Rules | str, dealer: int, hands: Sequence[Sequence[Card | str]],
                  bank: Sequence[Card | str], seed: int = 0) -> Game:
        """A match whose first deal is given (later deals come from ``seed``). ``hands`` has
        one list per seat (empty for a dealer who sits out).

        ``ValueError`` unless the active hands hold seven cards each and, with the bank, each
        card of the pack exactly once.
        """
        rules = Rules.preset(rules) if isinstance(rules, str) else rules
        dealer = check_seat(dealer, rules.players)
        active = active_seats(rules.players, dealer)
        masks, seen = hand_masks(hands, [HAND_SIZE if seat in active else 0
                                         for seat in range(rules.players)])
        bank_mask = mask_of(bank)
        if len(bank) != BANK_SIZE or bank_mask.bit_count() != BANK_SIZE or bank_mask & seen:
            raise ValueError(f"the bank must hold {BANK_SIZE} cards dealt to nobody else")
        check_whole_pack(seen | bank_mask, PACK_MASK, "the 1000 pack")
        return cls(rules, seed, dealer, (masks, bank_mask))

    # -- turns -----------------------------------------------------------------------------------

    def legal_actions(self) -> Sequence[Action]:
        """Every action the seat to act may take now (empty only when the match is over)."""
        if self._phase == PLAYING:
            return play.legal(self)
        return legal_in_phase(PHASES, self)

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
            chosen = action  # the usual case: an action object of the seat to act
        # In the record first: a new deal notes the number of actions before it.
        self.actions.append(chosen)
        self.action_seats.append(actor)
        try:
            if self._phase == PLAYING:  # most actions of a deal: no table look-up
                return play.play_card(self, actor, chosen)
            return PHASES[self._phase].apply(self, actor, chosen)
        except IllegalAction:
            self.actions.pop()
            self.action_seats.pop()
            raise

    # -- what a seat sees ------------------------------------------------------------------------

    def sort_hand(self, mask: int) -> list[Card]:
        """Cards for display: trumps first, then by suit, highest first."""
        return views.sort_hand(self, mask)

    def visible_bank(self, seat: int | None) -> list[str] | None:
        """The bank as dealt, if ``seat`` may see it: everyone once shown, the contractor once
        taken; ``None`` otherwise."""
        return views.visible_bank(self, seat)

    def view(self, seat: int | None) -> ThousandView:
        """Everything ``seat`` may see (``None``: a spectator), JSON-ready, with legal actions.

        Hidden: the other hands, one's own hand until looked at (blind bidding), the bank
        (unless shown, or to its taker), the discards and gifts (but to those who handled
        them), the seed and the deals to come.
        """
        return views.view(self, seat)

    def views(self, seats: Iterable[int | None]) -> dict[int | None, ThousandView]:
        """The :meth:`view` of each of ``seats`` (a table's viewers after a change), the part
        every seat sees alike built once."""
        return views.views(self, seats)

    def __repr__(self) -> str:
        return (f"<1000 Game deal {self.hand_number} phase={self._phase} to_act={self._to_act} "
                f"scores={self.scores}>")
