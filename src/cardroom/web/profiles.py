"""The JSON behind the profile and leaderboard screens, and finished matches' records.

``/api/players/{id}``, ``/api/leaderboard?game=500`` and
``/api/matches/{table}/{match}/record``: each one client address may ask for
``lookups_per_minute`` times a minute (then 429), as they cost the database a few queries.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from cardroom.games.registry import DEFAULT_GAME
from cardroom.tables import profiles
from cardroom.tables.quotas import QuotaExceeded
from cardroom.tables.room import Room

MATCH_NUMBER_MAX = 10**9


def _refused(request: Request) -> Response | None:
    """A 429 if the client's address has asked too often this minute, else ``None``."""
    room: Room = request.app.state.room
    address = request.client.host if request.client else "unknown"
    try:
        room.quotas.check(room.quotas.lookups, address)
    except QuotaExceeded as error:
        return JSONResponse({"error": error.message}, status_code=429)
    return None


async def player(request: Request) -> Response:
    """A player's or bot level's profile (404 for nobody)."""
    refused = _refused(request)
    if refused is not None:
        return refused
    entity = request.path_params["player_id"]
    found = await profiles.profile(request.app.state.room.store, entity[:64])
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


async def match_record(request: Request) -> Response:
    """A finished match's record as the file ``cardroom replay FILE`` plays back; 404 for
    a match not finished, not there, or at a private table (as for a stranger anywhere)."""
    refused = _refused(request)
    if refused is not None:
        return refused
    table_id = request.path_params["table_id"][:64]
    number = request.path_params["number"]
    found = None
    if 0 < number < MATCH_NUMBER_MAX:
        found = await request.app.state.room.store.standings.match_record(table_id, number)
    if found is None or found[0].private:
        return JSONResponse({"error": "There is no such finished match."}, status_code=404)
    filename = f"cardroom-{table_id}-{number}.record"
    return PlainTextResponse(found[1].to_text(), headers={
        "Content-Disposition": f'attachment; filename="{filename}"'})


routes: list[Route] = [
    Route("/api/players/{player_id}", player, methods=["GET"]),
    Route("/api/leaderboard", leaderboard, methods=["GET"]),
    Route("/api/matches/{table_id}/{number:int}/record", match_record, methods=["GET"]),
]
