"""What every game's ``Action`` shares: an action is its canonical text.

Each game's ``Action`` subclasses :class:`ActionText`, sets ``text`` (the canonical notation)
and ``cards`` when built, and parses its own notation in ``_parse_text``. Equality, hashing,
pickling and printing go by the text, so an action equals its text and travels as it.
"""

from __future__ import annotations

from typing import Any, Self

from cardroom.games.cards import Card, parsed_already


class ActionText:
    """An action known by its text: equal to, hashed and pickled as its canonical notation."""

    __slots__ = ()

    text: str
    cards: tuple[Card, ...]

    @property
    def card(self) -> Card:
        """The single card of a one-card action (a play)."""
        return self.cards[0]

    @classmethod
    def parse(cls, text: str | Self) -> Self:
        """Parse the game's notation (any case); ``ValueError`` with a hint on anything else."""
        done = parsed_already(text, cls, "an action")
        return done if done is not None else cls._parse_text(text)  # type: ignore[arg-type]

    @classmethod
    def _parse_text(cls, text: str) -> Self:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            try:
                other = self.parse(other)
            except ValueError:
                return False
        return isinstance(other, type(self)) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (type(self).parse, (self.text,))
