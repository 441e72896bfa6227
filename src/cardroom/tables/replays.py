"""Replays of matches, and who may watch them (``/api/replays/{table}/{match}``).

Who may see what:
- a finished match of an open table: anyone;
- a finished match of a private table: the people who played it, and holders of the table's
  invite link while the table is open; a daily challenge's deal, besides its player, anybody
  once its day is over and, before, players who have played every deal of that day
  (:meth:`cardroom.tables.challenge.DailyChallenge.replay_allowed`);
- the hands already over of a match still being played: the people seated at the table.

Anyone else, and any match or hand that is not there, gets the same ``None`` (the web layer's
404), so a guessed id tells nothing. A replay shows every seat's cards, so a hand still being
played is never part of one: :func:`cardroom.games.replay.hand_steps` stops at the end of the
hand asked for.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardroom.bots.levels import level_word
from cardroom.games.record import Record
from cardroom.games.registry import GAMES, game_spec
from cardroom.games.replay import hand_steps
from cardroom.store.data import FinishedMatch, entity_of
from cardroom.tables.chat import PLAYERS_LINE
from cardroom.tables.model import Player, Table, invite_matches

if TYPE_CHECKING:  # the room holds the analyses, which read replays
    from cardroom.tables.room import Room

CHAT_LINES = 1000
"""The most chat lines a replay reads back (a table's latest)."""
IMPORTED = "import"
"""The table id an imported record replays under."""
HANDS_MAX = 200
"""The most hands of a match a replay shows (several times the longest real match): a step's
views grow with the match, so a match of thousands of passed-out hands would cost seconds."""
IMPORT_ACTIONS_MAX = 10_000
"""The most actions an imported record may hold: several times the longest match."""
DELETED = "Deleted player"
"""The name of a seat whose player's account was deleted."""
MATCH_NUMBER_MAX = 10**9
"""Past any table's matches (a larger number would overflow the database's integers)."""


@dataclass(frozen=True, slots=True)
class ReplayMatch:
    """A match someone may replay: its record, up to the hands that are over."""

    table_id: str
    number: int
    record: Record
    seats: list[dict[str, Any]]
    """Who held each seat when the match ended (now, for a match still being played), as
    the table showed them: ``name`` (a player's; ``None`` for a bot), ``bot`` and
    ``player_id`` (whose profile: the player's, or the bot level's)."""
    history: list[dict[str, Any]]
    """Each hand that is over, as the match's history holds it."""
    finished: bool
    seat: int | None
    """The asker's seat in the match, if they played it."""
    ended_at: float | None = None
    """When the match ended (``None``: still being played, or an imported record)."""

    def summary(self, chat: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """What the replay page needs besides the hands' steps, with the match's ``chat``
        (:func:`chat`)."""
        spec = GAMES[self.record.game]
        rules = spec.rules_from_dict(self.record.rules)
        return {"table_id": self.table_id, "match": self.number, "game": spec.name,
                "title": spec.title, "preset": rules.preset_name,
                "players": spec.players(rules), "teams": spec.teams(rules),
                "seats": self.seats, "hands": len(self.history), "history": self.history,
                "finished": self.finished, "seat": self.seat, "chat": chat or []}

    def pbn(self) -> str:
        """The match as PBN-style text, each seat by the name it played under."""
        spec = GAMES[self.record.game]
        names = [seat["name"] or level_word(spec.name, seat["bot"] or "") or f"Seat {n + 1}"
                 for n, seat in enumerate(self.seats)]
        return spec.to_pbn(self.record, names, event=f"{spec.title} at cardroom",
                           site="cardroom")

    def hand(self, number: int, viewer: int) -> list[dict[str, Any]]:
        """The steps of a hand that is over, from ``viewer``'s seat (``ValueError`` for a
        hand that is not, or a seat that is not there)."""
        if not 1 <= number <= min(len(self.history), HANDS_MAX):
            raise ValueError(f"there is no hand {number} to replay")
        return [step.to_dict() for step in hand_steps(self.record, number, viewer)]


async def find(room: Room, player: Player | None, table_id: str, number: int,
               invite: str | None) -> ReplayMatch | None:
    """The match ``number`` of a table, if ``player`` (or a holder of ``invite``) may
    replay it (see the module's rules); else ``None``."""
    if not 0 < number < MATCH_NUMBER_MAX:
        return None
    # Who may see it is settled before the match's actions are read: a refused private match
    # costs what a missing one does.
    match = await room.store.standings.finished(table_id, number)
    if match is not None and match.private and not await _private_allowed(
            room, player, match, invite):
        return None
    found = None if match is None else await room.store.standings.match_record(table_id, number)
    if found is not None:
        return ReplayMatch(table_id, number, found[1], await _seats(room, found[0]),
                           found[0].history, True, _seat_in(found[0], player),
                           found[0].finished_at)
    return _live(await _table(room, table_id), number, player)


async def chat(room: Room, match: ReplayMatch) -> list[dict[str, Any]]:
    """The players' chat of a match the asker may replay: its own lines up to its end (what
    was said after it, maybe once the table turned private, is not the match's), and those
    said before it began, after the match before it ended (a line is kept with the match
    being played, or the last one played, when it was said). An import has none."""
    if match.table_id == IMPORTED:
        return []
    table_id, number, until = match.table_id, match.number, match.ended_at
    before = await room.store.standings.finished(table_id, number - 1) if number > 1 else None
    lead_up_from = before.finished_at if before is not None else 0.0
    end = float("inf") if until is None else until
    return [{"name": line.name, "seat": line.seat, "text": line.text}
            for line in await room.store.chat_lines(table_id, CHAT_LINES)
            if line.channel == PLAYERS_LINE and line.created_at <= end and (
                line.match_number == number
                or (line.match_number == number - 1 and line.created_at >= lead_up_from))]


async def _table(room: Room, table_id: str) -> Table | None:
    """The live table, if there is one (looked at where it is held, or read back)."""
    return await room.sync.read(table_id)


async def _private_allowed(room: Room, player: Player | None, match: FinishedMatch,
                           invite: str | None) -> bool:
    """A private table's finished match: its players, or the table's link holders."""
    if _seat_in(match, player) is not None:
        return True
    table = await _table(room, match.table_id)
    if table is not None and invite_matches(table.settings.invite, invite):
        return True
    return await room.challenge.replay_allowed(player, match.table_id)


def _seat_in(match: FinishedMatch, player: Player | None) -> int | None:
    """The seat ``player`` held when the match ended."""
    if player is None:
        return None
    return next((seat.seat for seat in match.seats if seat.player_id == player.id), None)


def _live(table: Table | None, number: int, player: Player | None) -> ReplayMatch | None:
    """The hands already over of the match a table is playing, for a player seated there."""
    if table is None or table.game is None or table.match_number != number:
        return None
    seat = table.seat_of(player)
    if seat is None:
        return None
    game = table.game
    history = [hand.to_dict() for hand in game.history]
    seats = [_seat(s.player.name if s.player else None, s.bot,
                   entity_of(s.player.id if s.player else None, s.bot)) for s in table.seats]
    return ReplayMatch(table.id, number, game.record, seats, history, game.is_over, seat)


async def _seats(room: Room, match: FinishedMatch) -> list[dict[str, Any]]:
    """Who held each seat when the match ended (a player whose account is gone: "Deleted
    player", as on the profiles)."""
    people = await room.store.players([s.player_id for s in match.seats if s.player_id])
    return [_seat(people[s.player_id].name if s.player_id in people
                  else DELETED if s.player_id else None, s.bot, s.entity)
            for s in match.seats]


def _seat(name: str | None, bot: str | None, entity: str | None) -> dict[str, Any]:
    return {"name": name, "bot": bot, "player_id": entity}


def imported(text: str) -> ReplayMatch:
    """A record file someone brings (``cardroom play --record``, the record download) to
    watch as a replay: nothing is stored, and every hand the record finishes is shown, since
    whoever holds the file holds every card already. ``ValueError`` says why a text is not a
    record this room can replay."""
    try:
        record = Record.from_text(text)
        if len(record.actions) > IMPORT_ACTIONS_MAX:
            raise ValueError(f"more than {IMPORT_ACTIONS_MAX} actions")
        game = game_spec(record.game).replay(record)
        if len(game.history) > HANDS_MAX:
            raise ValueError(f"more than {HANDS_MAX} hands")
    except (ValueError, KeyError, TypeError, RecursionError) as error:
        raise ValueError(f"That file is not a match record this room can replay: "
                         f"{str(error)[:200]}") from None
    seats = [_seat(f"Seat {seat + 1}", None, None) for seat in range(game.players)]
    history = [hand.to_dict() for hand in game.history]
    return ReplayMatch(IMPORTED, 1, record, seats, history, game.is_over, None)
