"""What every game's ``Game`` class shares: records, replay, copies, turns and seat checks.

Each game (``five_hundred.Game``, ``thousand.Game``) subclasses :class:`Match` and names its
record's game, its ``Rules`` and ``Action`` classes, the key its first deal's spare cards go
under in a record (500's ``kitty``, 1000's ``bank``) and the attributes a copy must not share.
The match state itself (``_phase``, ``_to_act``, ``actions``, ``first_deal`` …) is kept by the
game under the same names in both.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Self

from cardroom.games.base import IllegalAction
from cardroom.games.cards import Card, cards_of, mask_of
from cardroom.games.record import Record

OVER = "over"
"""The phase of a match that has a winner (every game's last phase)."""


def check_seat(seat: int, players: int) -> int:
    """``seat`` if it is a seat number of a table of ``players``; ``ValueError`` otherwise."""
    if not isinstance(seat, int) or not 0 <= seat < players:
        raise ValueError(f"seat must be 0 to {players - 1}, not {seat!r}")
    return seat


def hand_masks(hands: Sequence[Sequence[Card | str]],
               sizes: Sequence[int]) -> tuple[list[int], int]:
    """The masks of the hands of a given deal, and of all their cards together.

    ``ValueError`` unless there is a hand for each of ``sizes`` and hand ``seat`` holds
    ``sizes[seat]`` different cards, none dealt to two hands.
    """
    if len(hands) != len(sizes):
        raise ValueError(f"a deal needs {len(sizes)} hands, got {len(hands)}")
    masks = []
    seen = 0
    for seat, (hand, size) in enumerate(zip(hands, sizes, strict=True)):
        mask = mask_of(hand)
        if len(hand) != size or mask.bit_count() != size:
            raise ValueError(f"hand {seat} must hold {size} different cards")
        if mask & seen:
            raise ValueError(f"a card is dealt twice: {cards_of(mask & seen)[0]}")
        seen |= mask
        masks.append(mask)
    return masks, seen


def check_whole_pack(dealt: int, pack: int, pack_name: str) -> None:
    """``ValueError`` unless the cards ``dealt`` are exactly those of the ``pack`` (named as in
    "… is not in the 45 deck")."""
    if dealt != pack:
        strays = cards_of(dealt & ~pack)
        if strays:
            raise ValueError(f"{strays[0]} is not in {pack_name}")
        raise ValueError(f"the deal leaves out {cards_of(pack & ~dealt)[0]}")


class Match:
    """The part of a game's ``Game`` that does not depend on its rules of play."""

    GAME_NAME: ClassVar[str]
    """The name records and views carry (``"500"``)."""
    RULES: ClassVar[Any]
    """The game's ``Rules`` class."""
    ACTION: ClassVar[Any]
    """The game's ``Action`` class (parses action texts)."""
    SPARE_KEY: ClassVar[str]
    """The key of a record's first deal under which the undealt cards stand."""
    COPIED: ClassVar[tuple[str, ...]]
    """The mutable attributes (lists, dicts) an independent copy gets its own of."""

    actions: list[Any]
    action_seats: list[int]
    notes: dict[int, str]
    hands: list[int]
    _phase: str
    _to_act: int | None

    def __init__(self, rules: Any, seed: int, dealer: int,
                 first_deal: tuple[list[int], int] | None = None) -> None:
        """The state every match starts with; each game adds its own and deals."""
        self.rules = rules
        self.players = rules.players
        self.seed = seed
        self.first_dealer = dealer
        self.first_deal = first_deal
        self.history: list[Any] = []
        self.actions = []
        self.action_seats = []
        self.notes = {}
        self.hand_number = 0
        self.dealer = dealer
        self.winner: int | None = None

    def _next_hands(self, deal: Callable[[random.Random], tuple[list[int], int]]) -> int:
        """Count a new deal and set ``hands`` for it: the given first deal, else ``deal`` of
        this deal's seeded generator. Returns the spare cards (kitty, bank)."""
        self.hand_number += 1
        if self.hand_number == 1 and self.first_deal is not None:
            hands, spare = self.first_deal
            self.hands = list(hands)
            return spare
        rng = random.Random(f"cardroom-{self.GAME_NAME}:{self.seed}:deal:{self.hand_number}")
        self.hands, spare = deal(rng)
        return spare

    @classmethod
    def _drawn_dealer(cls, rules: Any, seed: int) -> int:
        """The first dealer drawn from ``seed``, for rules that do not name one."""
        return random.Random(f"cardroom-{cls.GAME_NAME}:{seed}:first-dealer").randrange(
            rules.players)

    # -- records ---------------------------------------------------------------------------------

    @classmethod
    def from_deal(cls, rules: Any, dealer: int, hands: Sequence[Sequence[Any]],
                  spare: Sequence[Any], seed: int = 0) -> Self:
        """A match whose first deal is given (each game checks it)."""
        raise NotImplementedError

    @classmethod
    def replay(cls, record: Record) -> Self:
        """Rebuild a match from its record, applying every action again in order."""
        if record.game != cls.GAME_NAME:
            raise ValueError(f"not a {cls.GAME_NAME} record: game {record.game!r}")
        rules = cls.RULES.from_dict(record.rules)
        if record.deal is not None:
            game = cls.from_deal(rules, record.dealer, record.deal["hands"],
                                 record.deal[cls.SPARE_KEY], seed=record.seed)
        else:
            game = cls(rules, record.seed,
                       check_seat(record.dealer, rules.players))
        for number, text in enumerate(record.actions):
            seat = record.seats[number] if number < len(record.seats) else None
            if seat is not None and seat != game.to_act:
                raise ValueError(f"record action {number + 1} ({text}) is by seat {seat}, "
                                 f"but seat {game.to_act} was to act")
            try:
                game.apply(text)
            except IllegalAction as error:
                raise ValueError(f"record action {number + 1} ({text}): {error}") from None
        return game

    @property
    def record(self) -> Record:
        """The record of the match so far (rules, seed or first deal, every action)."""
        deal = None
        if self.first_deal is not None:
            hands, spare = self.first_deal
            deal = {"hands": [[str(c) for c in cards_of(h)] for h in hands],
                    self.SPARE_KEY: [str(c) for c in cards_of(spare)]}
        return Record(game=self.GAME_NAME, rules=self.rules.to_dict(), seed=self.seed,
                      dealer=self.first_dealer, deal=deal,
                      actions=[action.text for action in self.actions],
                      seats=list(self.action_seats), notes=dict(self.notes))

    def copy(self) -> Self:
        """An independent copy (for search): mutating it leaves this game alone."""
        twin = copy.copy(self)
        for name in self.COPIED:
            setattr(twin, name, getattr(self, name).copy())
        return twin

    # -- turns -----------------------------------------------------------------------------------

    @property
    def phase(self) -> str:
        """The name of the current phase (``bidding`` … ``play``, ``over``)."""
        return self._phase

    @property
    def to_act(self) -> int | None:
        """The seat to act, or ``None`` once the match is over."""
        return self._to_act

    @property
    def is_over(self) -> bool:
        """True once the match has a winner."""
        return self._phase == OVER

    def legal_actions(self) -> Sequence[Any]:
        """Every action the seat to act may take (the game's phases say which)."""
        raise NotImplementedError

    def apply(self, action: Any, seat: int | None = None) -> list[dict[str, Any]]:
        """Apply an action of the seat to act; each game defines it."""
        raise NotImplementedError

    def move_to(self, phase: str, seat: int | None) -> None:
        """Go on to ``phase`` with ``seat`` to act."""
        self._phase, self._to_act = phase, seat

    def finish(self, winner: int) -> None:
        """The match is over: ``winner`` (a seat, or a side where scores are kept by side)
        has won it."""
        self.winner = winner
        self._phase, self._to_act = OVER, None

    def claim_options(self, seat: int) -> list[str]:
        """The claims ``seat`` may make now, beside its legal actions (none in a game without
        claims)."""
        return []

    def _actor_and_action(self, action: Any, seat: int | None) -> tuple[int, Any]:
        """The seat to act and ``action`` parsed, for :meth:`apply`: ``IllegalAction`` when the
        match is over, ``seat`` (who is trying to act, when given) is not the one to act, or
        the text is not an action."""
        if self._phase == OVER:
            raise IllegalAction("The match is over.")
        actor: int = self._to_act  # type: ignore[assignment]
        if seat is not None and seat != actor:
            raise IllegalAction(f"It is seat {actor}'s turn, not seat {seat}'s.")
        if not isinstance(action, self.ACTION):
            try:
                action = self.ACTION.parse(action)
            except ValueError as error:
                raise IllegalAction(str(error)) from None
        return actor, action

    def _accept(self, actor: int, action: Any) -> None:
        """Enter a checked action in the record."""
        self.actions.append(action)
        self.action_seats.append(actor)
