"""Table chat: typed lines, quick phrases and reactions, for the seated players and, on a line
of their own, the spectators.

Nothing a client sends is trusted: typed text is cut to plain visible text (control and
direction characters dropped, runs of spaces folded), phrases and reactions are picked from
fixed lists by name, so a one-tap message can never carry a card. Each line is kept with the
table (``chat_lines``, by match) before it is sent to the table's followers, which are all
at its owner (a connection in another process follows it through a proxy there,
:mod:`~cardroom.tables.relay`). Muting is the reader's own business (the browser hides a muted
player's lines); limits are per player and per address (:mod:`~cardroom.tables.quotas`).
"""

from __future__ import annotations

import time
import unicodedata

from cardroom.protocol import ChatLineInfo, ChatMessage, ErrorCode
from cardroom.store.data import ChatLine
from cardroom.tables.core import Core
from cardroom.tables.errors import Moved, RoomError
from cardroom.tables.model import Listener, Player, Table
from cardroom.tables.quotas import Quotas

PLAYERS_LINE = "players"
"""The seated players' line of a table's chat (a spectator speaks on ``spectators``)."""
HISTORY_LINES = 50
"""Lines a connection receives when it opens a table."""

PHRASES: dict[str, str] = {
    "hello": "Hello!",
    "good_luck": "Good luck!",
    "well_played": "Well played!",
    "nice_hand": "Nice hand!",
    "sorry_partner": "Sorry, partner.",
    "thanks": "Thanks!",
    "oops": "Oops!",
    "good_game": "Good game, thanks!",
}
"""The quick phrases by name: fixed texts, so none can hint at a card."""

REACTIONS: dict[str, str] = {
    "thumbs_up": "👍",
    "clap": "👏",
    "laugh": "😄",
    "wow": "😮",
    "grimace": "😬",
    "thinking": "🤔",
}
"""The one-tap reactions by name."""

_DROPPED = {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"}
"""Unicode categories a chat line never carries: controls, format characters (direction
overrides among them), private use, surrogates, unassigned, and line breaks."""
_JOINERS = "\u200c\u200d"
"""Format characters kept: the joiners some scripts and emoji sequences need."""
_BLANK = "\u115f\u1160\u3164\uffa0\u2800"
"""Letters and symbols that draw nothing (Hangul fillers, the blank Braille pattern)."""
MARKS_PER_LETTER = 2
"""Combining marks kept on one character; more only pile up into a smear."""


def clean_text(text: str) -> str:
    """Typed chat as plain visible text: characters of :data:`_DROPPED` categories go (but
    the joiners), tabs and line breaks become spaces, runs of white space fold into one, a
    character keeps at most :data:`MARKS_PER_LETTER` combining marks; empty if nothing in it
    draws anything."""
    kept: list[str] = []
    marks = 0
    for char in text:
        category = unicodedata.category(char)
        if char in "\t\n\r":
            kept.append(" ")
        elif category in _DROPPED and char not in _JOINERS:
            continue
        elif category.startswith("M"):
            marks += 1
            if marks <= MARKS_PER_LETTER:
                kept.append(char)
            continue
        else:
            kept.append(char)
        marks = 0
    cleaned = " ".join("".join(kept).split())
    visible = [c for c in cleaned if not c.isspace() and c not in _BLANK + _JOINERS
               and not unicodedata.category(c).startswith("M")]
    return cleaned if visible else ""


def line_info(line: ChatLine) -> ChatLineInfo:
    """A stored line as the followers see it."""
    return {"at": line.created_at, "player_id": line.player_id, "name": line.name,
            "seat": line.seat, "channel": line.channel,  # type: ignore[typeddict-item]
            "kind": line.kind, "text": line.text}  # type: ignore[typeddict-item]


class TableChat:
    """Says lines at tables, keeps them, and hands them to whoever follows the table."""

    def __init__(self, core: Core, quotas: Quotas) -> None:
        self.core, self.quotas = core, quotas

    async def say(self, listener: Listener, player: Player, table: Table, address: str,
                  text: str | None = None, phrase: str | None = None,
                  reaction: str | None = None) -> ChatLineInfo:
        """One line from ``player`` (exactly one of typed ``text``, a ``phrase`` name or a
        ``reaction`` name) at a table they sit at or follow; refused with a typed error (and
        nothing kept or sent) otherwise."""
        seat = table.seat_of(player)
        if seat is None and listener not in table.listeners:
            raise RoomError(ErrorCode.NOT_AT_TABLE, "Open the table to chat there.")
        kind, said = self._what(table, text, phrase, reaction)
        self.quotas.check_chat(player.id, address)
        line = ChatLine(table_id=table.id, match_number=table.match_number,
                        created_at=time.time(), player_id=player.id, name=player.name,
                        seat=seat, channel=PLAYERS_LINE if seat is not None else "spectators",
                        kind=kind, text=said)
        if not await self.core.store.add_chat_line(line, self.core.leases.epoch(table.id)):
            raise Moved()  # another process took the table meanwhile: nothing was kept
        info = line_info(line)
        self.deliver(table, [info])
        return info

    @staticmethod
    def _what(table: Table, text: str | None, phrase: str | None,
              reaction: str | None) -> tuple[str, str]:
        """The kind of line and its words, or the typed error that refuses it."""
        if phrase is not None:
            if phrase not in PHRASES:
                raise RoomError(ErrorCode.BAD_MESSAGE, f"Unknown phrase; choose one of: "
                                                       f"{', '.join(PHRASES)}.")
            return "phrase", PHRASES[phrase]
        if reaction is not None:
            if reaction not in REACTIONS:
                raise RoomError(ErrorCode.BAD_MESSAGE, f"Unknown reaction; choose one of: "
                                                       f"{', '.join(REACTIONS)}.")
            return "reaction", REACTIONS[reaction]
        if not table.settings.typed_chat:
            raise RoomError(ErrorCode.CHAT_OFF, "The table's creator turned typed chat off: "
                                                "quick phrases and reactions still work.")
        cleaned = clean_text(text or "")
        if not cleaned:
            raise RoomError(ErrorCode.BAD_MESSAGE, "Say something visible.")
        return "text", cleaned

    @staticmethod
    def deliver(table: Table, lines: list[ChatLineInfo],
                to: Listener | None = None) -> None:
        """Send lines to one connection, or to every connection following the table."""
        message: ChatMessage = {"type": "chat", "table_id": table.id, "lines": lines}
        for listener in (to,) if to is not None else list(table.listeners):
            listener.deliver(message)

    async def history(self, table: Table, listener: Listener) -> None:
        """Send a connection that opened the table its latest lines (nothing if none)."""
        lines = await self.core.store.chat_lines(table.id, HISTORY_LINES)
        if lines:
            self.deliver(table, [line_info(line) for line in lines], to=listener)
