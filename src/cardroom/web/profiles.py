"""The JSON behind the profile, leaderboard and replay screens, and matches' records.

``/api/players/{id}``, ``/api/leaderboard?game=500``, ``/api/matches/{table}/{match}/record``
(and ``…/pbn``), the daily challenge's ``/api/challenge?game=500&day=…``,
``/api/challenge/days?game=500`` and ``/api/challenge/players/{id}?game=500``,
``/api/replays/{table}/{match}`` and ``/api/replays/{table}/{match}/hands/{hand}?seat=S``:
each one client address may ask for ``lookups_per_minute`` times a minute (then 429), as they
cost the database a few queries. Replays and records follow :mod:`cardroom.tables.replays`'
rules of who may see what: the asker is the player whose token comes as ``Authorization:
Bearer TOKEN`` (none: a stranger), and a private table's link holders bring ``?invite=``.
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Callable

from starlette.concurrency import run_in_threadpool
from starlette.convertors import Convertor, register_url_convertor
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from cardroom.games.registry import DEFAULT_GAME, GAMES, GameSpec
from cardroom.tables import profiles, replays
from cardroom.tables.analyses import AnalysisBusy
from cardroom.tables.challenge import PAGE_ROWS, day_end
from cardroom.tables.errors import RoomError
from cardroom.tables.model import Player
from cardroom.tables.quotas import QuotaExceeded
from cardroom.tables.room import Room
from cardroom.web.addresses import client_key

TOKEN_MAX = 200
"""Longer than any token the room hands out (a longer header is not looked up)."""
GZIP_FROM = 2048
"""Answers at least this long (bytes of JSON) are compressed for clients that accept it: a
hand's replay repeats the table's view at every step, about 200 KB that compress to 5."""
NOT_FOUND = "There is no such match to replay."
DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
"""A challenge's day in a query (``YYYY-MM-DD``)."""
OFFSET_MAX = 10**6
"""Past any day's last row."""
BOTS_NAME = "The bots"
"""What a challenge leaderboard calls the bots' own row."""


class _Count(Convertor[int]):
    """A match or hand number in a path: at most nine digits, so that no number in a path is
    too long to read (a longer one is no route: 404)."""

    regex = "[0-9]{1,9}"

    def convert(self, value: str) -> int:
        return int(value)

    def to_string(self, value: int) -> str:
        return str(value)


register_url_convertor("count", _Count())
IMPORT_BYTES_MAX = 256 * 1024
"""The largest record file a replay imports (a long match's record is about 20 KB)."""


def _refused(request: Request) -> Response | None:
    """A 429 if the client's address has asked too often this minute, else ``None``."""
    room: Room = request.app.state.room
    address = client_key(request)
    try:
        room.quotas.check(room.quotas.lookups, address)
    except QuotaExceeded as error:
        return JSONResponse({"error": error.message}, status_code=429)
    return None


async def player(request: Request) -> Response:
    """A player's or bot level's profile (404 for nobody); the player's own (their token
    brought) lists their private tables' matches too."""
    refused = _refused(request)
    if refused is not None:
        return refused
    entity = request.path_params["player_id"][:64]
    asker = await _asker(request)
    found = await profiles.profile(request.app.state.room.store, entity,
                                   own=asker is not None and asker.id == entity)
    if found is None:
        return JSONResponse({"error": "There is no such player."}, status_code=404)
    return JSONResponse(found)


async def leaderboard(request: Request) -> Response:
    """A page of a game's leaderboard."""
    refused = _refused(request)
    if refused is not None:
        return refused
    room: Room = request.app.state.room
    game = request.query_params.get("game", DEFAULT_GAME)
    if not profiles.known_game(game):
        return JSONResponse({"error": f"unknown game {game[:20]!r}"}, status_code=404)
    try:
        offset = int(request.query_params.get("offset", 0))
        limit = int(request.query_params.get("limit", 50))
    except ValueError:
        return JSONResponse({"error": "offset and limit are whole numbers"}, status_code=400)
    return JSONResponse(await profiles.leaderboard(
        room.store, game, room.settings.leaderboard_min_matches, offset, limit))


async def challenge_board(request: Request) -> Response:
    """A page of a day's challenge leaderboard (today's unless ``?day=YYYY-MM-DD`` names a
    past one; ``offset`` and ``limit``, at most 100 rows), with the asker's own entry: how
    many deals they played, their row, and their table while it is open. The others'
    results show once the day is over or the asker has played every deal."""
    spec = _challenge_asked(request)
    if isinstance(spec, Response):
        return spec
    room: Room = request.app.state.room
    today = room.challenge.today()
    day = request.query_params.get("day", today)
    if not _real_day(day) or day > today:
        return _no_challenge()
    try:
        offset = min(max(0, int(request.query_params.get("offset", 0))), OFFSET_MAX)
        limit = min(max(1, int(request.query_params.get("limit", PAGE_ROWS))), PAGE_ROWS)
    except ValueError:
        return JSONResponse({"error": "offset and limit are whole numbers"}, status_code=400)
    asker = await _asker(request)
    board = await room.challenge.board(spec, day)
    answer = board.to_dict(asker.id if asker else None, BOTS_NAME, offset, limit)
    answer.update(today=today, title=spec.title, you=None)
    if asker is not None:
        entry = await room.store.challenges.entry(spec.name, day, asker.id)
        row = answer["you_row"]
        if entry is not None:
            answer["you"] = {"played": row["played"] if row else 0,
                             "rank": row["rank"] if row else None,
                             "table_id": entry.table_id if not board.finished(asker.id)
                             and not board.over else None}
    return JSONResponse(answer)


def _real_day(day: str) -> bool:
    """``YYYY-MM-DD`` naming a day of the calendar."""
    if not DAY.fullmatch(day):
        return False
    try:
        day_end(day)
    except ValueError:
        return False
    return True


async def challenge_days(request: Request) -> Response:
    """The past days of a game's challenge that anybody played, newest first."""
    spec = _challenge_asked(request)
    if isinstance(spec, Response):
        return spec
    room: Room = request.app.state.room
    return JSONResponse({"game": spec.name, "today": room.challenge.today(),
                         "days": await room.challenge.archive(spec)})


async def challenge_history(request: Request) -> Response:
    """A player's past and present entries of a game's challenge, newest first, with their
    rank among the day's players (the profile's history of ranks)."""
    spec = _challenge_asked(request)
    if isinstance(spec, Response):
        return spec
    room: Room = request.app.state.room
    player_id = request.path_params["player_id"][:64]
    return JSONResponse({"game": spec.name, "player_id": player_id,
                         "days": await room.challenge.history(spec, player_id)})


def _challenge_asked(request: Request) -> GameSpec | Response:
    """The game whose challenge the query names (``?game=``, the default game if none); or
    the answer instead: 429 for an address that asks too often, 404 for no such game."""
    refused = _refused(request)
    if refused is not None:
        return refused
    spec = GAMES.get(request.query_params.get("game", DEFAULT_GAME))
    return _no_challenge() if spec is None else spec


def _no_challenge() -> Response:
    return JSONResponse({"error": "There is no such challenge."}, status_code=404)


async def _asker(request: Request) -> Player | None:
    """The player whose token the request brings (``None``: none, or not a valid one)."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token or len(token) > TOKEN_MAX:
        return None
    try:
        return await request.app.state.room.authenticate(token.strip())
    except RoomError:
        return None


async def _replayable(request: Request) -> replays.ReplayMatch | None:
    """The match the path names, if the asker may replay it."""
    invite = request.query_params.get("invite")
    return await replays.find(request.app.state.room, await _asker(request),
                              request.path_params["table_id"][:64],
                              request.path_params["number"], invite[:64] if invite else None)


async def _json(request: Request, data: object) -> Response:
    """JSON, compressed when long and the client accepts gzip (encoded beside the event
    loop: a replay's hand is a few hundred kilobytes)."""
    body, compressed = await run_in_threadpool(_encode, data, _accepts_gzip(request))
    headers = {"Vary": "Accept-Encoding"}
    if compressed:
        headers["Content-Encoding"] = "gzip"
    return Response(body, media_type="application/json", headers=headers)


def _encode(data: object, gzip_ok: bool) -> tuple[bytes, bool]:
    """The JSON bytes, gzip-compressed when they are long and the client takes gzip."""
    body = json.dumps(data, separators=(",", ":")).encode()
    if gzip_ok and len(body) >= GZIP_FROM:
        return gzip.compress(body, compresslevel=6), True
    return body, False


def _accepts_gzip(request: Request) -> bool:
    """Whether ``Accept-Encoding`` takes gzip (not with ``q=0``)."""
    for part in request.headers.get("accept-encoding", "").split(","):
        coding, _, params = part.strip().partition(";")
        if coding.strip().lower() in ("gzip", "*"):
            return params.replace(" ", "").lower() not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


def _not_found() -> Response:
    return JSONResponse({"error": NOT_FOUND}, status_code=404)


async def match_record(request: Request) -> Response:
    """A finished match's record as the file ``cardroom replay FILE`` plays back; 404 for
    a match not finished, not there, or that the asker may not replay."""
    return await _download(request, "record", lambda match: match.record.to_text())


async def match_pbn(request: Request) -> Response:
    """A finished match as PBN-style text (``docs/pbn.md``), on the same terms."""
    return await _download(request, "pbn", replays.ReplayMatch.pbn)


async def _download(request: Request, suffix: str,
                    text: Callable[[replays.ReplayMatch], str]) -> Response:
    """A finished match as a file to download, to whoever may replay it."""
    refused = _refused(request)
    if refused is not None:
        return refused
    match = await _replayable(request)
    if match is None or not match.finished:
        return _not_found()
    filename = f"cardroom-{match.table_id}-{match.number}.{suffix}"
    return PlainTextResponse(await run_in_threadpool(text, match), headers={
        "Content-Disposition": f'attachment; filename="{filename}"'})


async def replay(request: Request) -> Response:
    """A match to replay: its game, seats, names and the hands that are over."""
    refused = _refused(request)
    if refused is not None:
        return refused
    match = await _replayable(request)
    if match is None:
        return _not_found()
    return await _json(request, match.summary(await replays.chat(request.app.state.room, match)))


async def replay_hand(request: Request) -> Response:
    """Every step of a hand that is over, from the seat ``?seat=`` (the asker's own seat in
    the match by default, else the first)."""
    refused = _refused(request)
    if refused is not None:
        return refused
    match = await _replayable(request)
    return _not_found() if match is None else await _hand(request, match,
                                                          request.path_params["hand"])


async def _hand(request: Request, match: replays.ReplayMatch, hand: int) -> Response:
    """A hand's steps from the seat ``?seat=`` (replayed beside the event loop: a long
    match's last hand replays the whole record first)."""
    try:
        seat = int(request.query_params.get("seat", match.seat or 0))
        steps = await run_in_threadpool(match.hand, hand, seat)
    except ValueError:
        return _not_found()
    return await _json(request, {"hand": hand, "seat": seat, "steps": steps})


async def hand_analysis(request: Request) -> Response:
    """Where the analysis of a hand that is over stands (see
    :meth:`cardroom.tables.analyses.Analyses.status`): asked again until it is ready."""
    refused = _refused(request)
    if refused is not None:
        return refused
    match = await _replayable(request)
    if match is None:
        return _not_found()
    return await _analysis(request, match, request.path_params["hand"])


async def _analysis(request: Request, match: replays.ReplayMatch, hand: int) -> Response:
    """A hand's analysis status; 503 while too many hands wait."""
    try:
        address = client_key(request)
        status = await request.app.state.room.analyses.status(match, hand, address)
    except AnalysisBusy as busy:
        return JSONResponse({"error": str(busy)}, status_code=503,
                            headers={"Retry-After": "30"})
    except ValueError:
        return _not_found()
    return await _json(request, status)


async def import_record(request: Request) -> Response:
    """A record file sent as the body (at most :data:`IMPORT_BYTES_MAX` bytes), replayed
    as it is: its summary, or with ``?hand=H`` that hand's steps (and with ``&analysis=1``
    its analysis). Nothing of it is stored."""
    refused = _refused(request)
    if refused is not None:
        return refused
    body = await _body(request)
    if body is None:
        return JSONResponse({"error": f"A record file is at most {IMPORT_BYTES_MAX // 1024} KB."},
                            status_code=413)
    try:
        match = await run_in_threadpool(replays.imported, body.decode("utf-8", "replace"))
    except ValueError as error:
        return JSONResponse({"error": str(error)}, status_code=400)
    hand = request.query_params.get("hand")
    if hand is None:
        return await _json(request, match.summary())
    number = int(hand) if hand.isdecimal() and hand.isascii() and len(hand) < 6 else 0
    if request.query_params.get("analysis"):
        return await _analysis(request, match, number)
    return await _hand(request, match, number)


async def _body(request: Request) -> bytes | None:
    """The request's body, read up to the import limit (``None``: longer, or cut off)."""
    body = bytearray()
    try:
        async for chunk in request.stream():
            body.extend(chunk)
            if len(body) > IMPORT_BYTES_MAX:
                return None
    except ClientDisconnect:
        return None
    return bytes(body)


routes: list[Route] = [
    Route("/api/players/{player_id}", player, methods=["GET"]),
    Route("/api/leaderboard", leaderboard, methods=["GET"]),
    Route("/api/challenge", challenge_board, methods=["GET"]),
    Route("/api/challenge/days", challenge_days, methods=["GET"]),
    Route("/api/challenge/players/{player_id}", challenge_history, methods=["GET"]),
    Route("/api/matches/{table_id}/{number:count}/record", match_record, methods=["GET"]),
    Route("/api/matches/{table_id}/{number:count}/pbn", match_pbn, methods=["GET"]),
    Route("/api/replays/import", import_record, methods=["POST"]),
    Route("/api/replays/{table_id}/{number:count}", replay, methods=["GET"]),
    Route("/api/replays/{table_id}/{number:count}/hands/{hand:count}", replay_hand,
          methods=["GET"]),
    Route("/api/replays/{table_id}/{number:count}/hands/{hand:count}/analysis", hand_analysis,
          methods=["GET"]),
]
