"""Game records: rules, seed (or a given deal) and the ordered list of accepted actions.

A record is how a game is stored, replayed, spectated after the fact and exchanged between
processes. Replaying it reproduces the game exactly. The text form is meant to be read by
people too::

    # cardroom game record
    game: 500
    rules: {"deck": "45", ...}
    seed: 42
    dealer: 3
    actions:
    # hand 1, dealer 3
    0: bid 7H
    1: pass
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HEADER = "# cardroom game record"
_KEYS = frozenset({"game", "rules", "seed", "dealer", "deal"})
"""The header keys a record reads itself; any other is one of its ``extra`` lines."""


@dataclass
class Record:
    """Everything needed to rebuild a match.

    ``deal`` optionally fixes the first deal (``{"hands": [[...], ...], "kitty": [...]}`` as
    card texts); later deals come from ``seed``. ``actions`` are action texts in the game's
    notation; ``seats`` the seat that took each one (a check on replay, and for readers).
    ``notes`` are comment lines keyed by the index of the action they stand before.
    ``extra`` are header lines of other keys, kept as text and written back as they were:
    what a reader of records needs no more than a replay does (the store's archive of old
    matches keeps each one's table, result, players and chat there).
    """

    game: str
    rules: dict[str, Any]
    seed: int
    dealer: int
    deal: dict[str, Any] | None = None
    actions: list[str] = field(default_factory=list)
    seats: list[int | None] = field(default_factory=list)
    notes: dict[int, str] = field(default_factory=dict)
    extra: dict[str, str] = field(default_factory=dict)

    def to_text(self) -> str:
        """The readable text form (see the module docstring)."""
        lines = [
            HEADER,
            f"game: {self.game}",
            f"rules: {json.dumps(self.rules, sort_keys=True)}",
            f"seed: {self.seed}",
            f"dealer: {self.dealer}",
        ]
        if self.deal is not None:
            lines.append(f"deal: {json.dumps(self.deal)}")
        for key, value in self.extra.items():
            if key in _KEYS or ":" in key or "\n" in value or not key.strip():
                raise ValueError(f"record header {key!r} cannot be written as an extra line")
            lines.append(f"{key}: {value}")
        lines.append("actions:")
        for number, action in enumerate(self.actions):
            if number in self.notes:
                lines.append(f"# {self.notes[number]}")
            seat = self.seats[number] if number < len(self.seats) else None
            lines.append(action if seat is None else f"{seat}: {action}")
        if len(self.actions) in self.notes:
            lines.append(f"# {self.notes[len(self.actions)]}")
        return "\n".join(lines) + "\n"

    @classmethod
    def from_text(cls, text: str) -> Record:
        """Parse the text form; ``ValueError`` says which line is wrong."""
        header: dict[str, str] = {}
        actions: list[str] = []
        seats: list[int | None] = []
        in_actions = False
        notes: dict[int, str] = {}
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if in_actions and line.startswith("#"):
                notes[len(actions)] = line.lstrip("#").strip()
                continue
            if not line or line.startswith("#"):
                continue
            if in_actions:
                seat_text, colon, action = line.partition(":")
                if colon and seat_text.strip().isdigit():
                    seats.append(int(seat_text))
                    actions.append(action.strip())
                else:
                    seats.append(None)
                    actions.append(line)
                continue
            if line == "actions:":
                in_actions = True
                continue
            key, colon, value = line.partition(":")
            if not colon:
                raise ValueError(f"record line {number}: expected 'key: value', got {raw!r}")
            header[key.strip()] = value.strip()
        missing = {"game", "rules", "seed", "dealer"} - header.keys()
        if missing:
            raise ValueError(f"record is missing: {', '.join(sorted(missing))}")
        try:
            return cls(
                game=header["game"],
                rules=json.loads(header["rules"]),
                seed=int(header["seed"]),
                dealer=int(header["dealer"]),
                deal=json.loads(header["deal"]) if "deal" in header else None,
                actions=actions,
                seats=seats,
                notes=notes,
                extra={key: value for key, value in header.items() if key not in _KEYS},
            )
        except (json.JSONDecodeError, ValueError) as error:
            raise ValueError(f"record header is malformed: {error}") from None

    def save(self, path: str | Path) -> None:
        """Write the text form to a file."""
        Path(path).write_text(self.to_text(), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """Read a record written by :meth:`save`."""
        return cls.from_text(Path(path).read_text(encoding="utf-8"))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (for storage and the wire)."""
        return {"game": self.game, "rules": self.rules, "seed": self.seed,
                "dealer": self.dealer, "deal": self.deal, "actions": list(self.actions),
                "seats": list(self.seats)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Record:
        """The inverse of :meth:`to_dict`."""
        return cls(game=data["game"], rules=data["rules"], seed=data["seed"],
                   dealer=data["dealer"], deal=data.get("deal"),
                   actions=list(data.get("actions", [])), seats=list(data.get("seats", [])))
