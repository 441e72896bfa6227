"""Replays (issue 22): a finished match replays hand by hand and card by card for anyone, a
private table's only for its players and link holders, and the hands already over of a match
being played only for the people seated there. Tried as a stranger would: without a token,
with another player's, a bad one, a wrong invite, the hand in progress, a seat or hand that
is not there."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, ClassVar

import pytest
from starlette.testclient import TestClient

from cardroom.bots import make_bot
from cardroom.games.record import Record
from cardroom.games.registry import replay
from cardroom.tables.quotas import QuotaSettings
from cardroom.tables.room import Room, RoomSettings
from cardroom.web.app import ServerConfig, create_app
from tests.server.helpers import cards_in, finished_match

NOT_FOUND = {"error": "There is no such match to replay."}


@pytest.fixture
def room_settings() -> RoomSettings:
    return RoomSettings(bot_workers=1, bot_delay=0.0, next_match_delay=3600,
                        disconnect_grace=3600, default_bot="simple",
                        quotas=QuotaSettings(tables_per_player=100, tables=1000,
                                             lookups_per_minute=1000))


@pytest.fixture
def web(tmp_path: Path, room_settings: RoomSettings) -> Any:
    app = create_app(ServerConfig(database_url=f"sqlite:///{tmp_path / 'room.sqlite3'}",
                                  room=room_settings))
    with TestClient(app) as client:
        yield client


def call(web: TestClient, work: Any) -> Any:
    return web.portal.call(work)  # type: ignore[attr-defined]


def anns_finished_match(web: TestClient) -> str:
    """The table of a quick match Ann started and the room's bots finished for her."""
    room: Room = web.app.state.room  # type: ignore[attr-defined]

    async def play() -> str:
        ann, _ = await room.register("Ann")
        return await finished_match(room, ann)

    table_id: str = call(web, play)
    return table_id


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_finished_match_replays_every_hand_step_by_step_for_anyone(web: TestClient) -> None:
    room: Room = web.app.state.room  # type: ignore[attr-defined]

    async def play() -> tuple[str, str]:
        ann, _ = await room.register("Ann")
        return ann.id, await finished_match(room, ann)

    ann_id, table_id = call(web, play)
    summary = web.get(f"/api/replays/{table_id}/1").json()
    record = Record.from_text(web.get(f"/api/matches/{table_id}/1/record").text)
    match = replay(record)
    assert summary["finished"] and summary["game"] == "500" and summary["seat"] is None
    assert [seat["name"] for seat in summary["seats"]] == ["Ann", None, None, None]
    assert [seat["player_id"] for seat in summary["seats"]] == [ann_id] + ["bot:simple"] * 3
    assert summary["hands"] == len(match.history) >= 1
    assert summary["history"] == [hand.to_dict() for hand in match.history]

    actions = iter(record.actions)
    for hand in range(1, summary["hands"] + 1):
        answer = web.get(f"/api/replays/{table_id}/1/hands/{hand}?seat=2",
                         headers={"Accept-Encoding": "gzip"})
        assert answer.headers["content-encoding"] == "gzip"
        steps = answer.json()["steps"]
        first, last = steps[0], steps[-1]
        assert first["action"] is None and first["events"] == [] and not first["ended"]
        assert [step["action"] for step in steps[1:]] == [
            next(actions) for _ in steps[1:]]  # every action of the hand, in order
        assert last["ended"] and last["events"][-1]["type"] in ("hand_scored", "match_over")
        assert all(event["type"] != "deal" for event in last["events"])
        for step in steps:
            view = step["view"]
            assert view["seat"] == 2 and view["legal_actions"] == []
            assert view["hand_number"] == match.history[hand - 1].number
            assert sorted(step["hands"]) == ["0", "1", "3"]
        dealt = cards_in(first["view"]["hand"]) | cards_in(list(first["hands"].values()))
        assert len(dealt) == 40  # every seat's ten cards from the deal on
    assert next(actions, None) is None


def test_what_is_not_there_is_the_same_404(web: TestClient) -> None:
    table_id = anns_finished_match(web)
    for path in (f"/api/replays/{table_id}/2", f"/api/replays/{table_id}/0",
                 "/api/replays/nonesuch/1", f"/api/replays/{table_id}/1/hands/0",
                 f"/api/replays/{table_id}/1/hands/99", f"/api/replays/{table_id}/{10**9 - 1}",
                 f"/api/replays/{table_id}/1/hands/1?seat=4",
                 f"/api/replays/{table_id}/1/hands/1?seat=-1",
                 f"/api/replays/{table_id}/1/hands/1?seat=x"):
        answer = web.get(path)
        assert answer.status_code == 404 and answer.json() == NOT_FOUND, path
    for junk in ("Bearer", "Bearer " + "x" * 500, "Basic abc", "Bearer nope"):
        assert web.get(f"/api/replays/{table_id}/1",
                       headers={"Authorization": junk}).status_code == 200  # a stranger


def test_a_private_tables_match_replays_for_its_players_and_link_holders(
        web: TestClient) -> None:
    room: Room = web.app.state.room  # type: ignore[attr-defined]

    async def play() -> tuple[str, str, str, str]:
        ann, ann_token = await room.register("Ann")
        _, bob_token = await room.register("Bob")
        table_id = await finished_match(room, ann, private=True)
        invite = await room.invite(ann, table_id, revoke=False)
        assert invite is not None
        return table_id, ann_token, bob_token, invite

    table_id, ann_token, bob_token, invite = call(web, play)
    paths = [f"/api/replays/{table_id}/1", f"/api/replays/{table_id}/1/hands/1",
             f"/api/matches/{table_id}/1/record"]
    for path in paths:
        assert web.get(path).status_code == 404, path  # a stranger
        assert web.get(path, headers=bearer(bob_token)).status_code == 404, path
        assert web.get(f"{path}?invite=wrong").status_code == 404, path
        assert web.get(path, headers=bearer(ann_token)).status_code == 200, path
        assert web.get(f"{path}?invite={invite}").status_code == 200, path
    assert web.get(paths[0], headers=bearer(ann_token)).json()["seat"] == 0


def test_a_match_being_played_replays_its_finished_hands_to_its_players_only(
        web: TestClient) -> None:
    room: Room = web.app.state.room  # type: ignore[attr-defined]

    async def play_one_hand() -> tuple[str, str, str, list[str]]:
        ann, ann_token = await room.register("Ann")
        _, bob_token = await room.register("Bob")
        table = await room.create_table(ann, "online", {}, 0, None, "simple")
        await room.start_with_bots(ann, table.id, None)
        bot = make_bot("simple", seed=1)
        for _ in range(2000):
            game = table.game
            assert game is not None
            if game.history and game.to_act is not None:
                break
            if game.to_act == 0:
                await room.act(ann, table.id, bot.choose(game.view(0)))
            else:
                await asyncio.sleep(0.01)
        else:
            raise AssertionError("the first hand did not end")
        assert table.game is not None
        others_now = sorted(card for seat in (1, 2, 3)
                            for card in table.game.view(seat)["hand"] or [])
        assert len(others_now) == 30  # the next deal is dealt
        return table.id, ann_token, bob_token, others_now

    table_id, ann_token, bob_token, others_now = call(web, play_one_hand)
    mine = bearer(ann_token)
    summary = web.get(f"/api/replays/{table_id}/1", headers=mine).json()
    assert not summary["finished"] and summary["hands"] == 1 and summary["seat"] == 0
    steps = web.get(f"/api/replays/{table_id}/1/hands/1", headers=mine).json()["steps"]
    # Nothing of the hand being played: every step is of hand 1, and the last one stands
    # before the last card, when nobody holds more than that card, or before the claim that
    # ended the hand (a bot claims the rest when the solver proves it theirs), with the
    # cards held then (the next deal's ten cards a seat, which Ann must not see, never show).
    assert all(step["view"]["hand_number"] == 1 for step in steps)
    last = steps[-1]
    held = [len(last["view"]["hand"]), *map(len, last["hands"].values())]
    played = [n for n in held if n < 10]  # (a misère maker's partner sits out with its ten)
    assert last["ended"] and (last["action"].startswith("claim") or max(played) <= 1)
    assert len(set(played)) <= 2  # at most the trick in progress between the hands held
    assert sorted(cards_in(list(last["hands"].values()))) != others_now
    assert web.get(f"/api/replays/{table_id}/1/hands/2", headers=mine).status_code == 404
    assert web.get(f"/api/matches/{table_id}/1/record", headers=mine).status_code == 404
    for headers in ({}, bearer(bob_token)):  # a spectator of an open table, or nobody
        assert web.get(f"/api/replays/{table_id}/1", headers=headers).status_code == 404
        assert web.get(f"/api/replays/{table_id}/1/hands/1",
                       headers=headers).status_code == 404


def test_a_record_file_imports_back_to_the_same_replay(web: TestClient) -> None:
    table_id = anns_finished_match(web)
    text = web.get(f"/api/matches/{table_id}/1/record").text
    stored = web.get(f"/api/replays/{table_id}/1").json()
    brought = web.post("/api/replays/import", content=text.encode()).json()
    assert brought["history"] == stored["history"] and brought["finished"]
    assert brought["table_id"] == "import" and brought["seat"] is None
    assert [seat["name"] for seat in brought["seats"]] == ["Seat 1", "Seat 2", "Seat 3", "Seat 4"]
    for hand in range(1, stored["hands"] + 1):
        same = web.get(f"/api/replays/{table_id}/1/hands/{hand}?seat=3").json()
        again = web.post(f"/api/replays/import?hand={hand}&seat=3", content=text).json()
        assert again == same
    assert web.post("/api/replays/import?hand=99", content=text).status_code == 404


def test_an_import_that_is_not_a_record_says_why_and_keeps_nothing(web: TestClient) -> None:
    game = "game: 500\nrules: {\"preset\": \"online\"}\nseed: 4\ndealer: 0\nactions:\n"
    nested = "[" * 100_000 + "]" * 100_000
    for text, words in (
            ("hello", "expected 'key: value'"),
            (game.replace("500", "chess"), "unknown game"),
            (game + "0: play JK\n", "action 1"),
            (game.replace('{"preset": "online"}', nested)[:200_000], "record"),
            (game + "pass\n" * 10_001, "more than 10000 actions"),
            (game.replace("seed: 4", "seed: " + "9" * 5000), "record")):
        answer = web.post("/api/replays/import", content=text.encode())
        assert answer.status_code == 400, text[:80]
        assert answer.json()["error"].startswith("That file is not a match record")
        assert words in answer.json()["error"], (words, answer.json())
    assert web.post("/api/replays/import", content=b"\xff\xfe" * 10).status_code == 400
    too_big = web.post("/api/replays/import", content=b"x" * (256 * 1024 + 1))
    assert too_big.status_code == 413
    assert web.get("/api/replays/import").status_code in (404, 405)


def analysed(web: TestClient, path: str, body: str | None = None) -> dict[str, Any]:
    """Ask for an analysis until it is ready (or said to be unavailable)."""
    import time

    states = []
    for _ in range(600):
        answer = (web.get(path) if body is None else web.post(path, content=body)).json()
        states.append(answer["state"])
        if answer["state"] in ("ready", "unavailable"):
            assert states[0] in ("queued", "working", "ready", "unavailable")
            return answer
        time.sleep(0.1)
    raise AssertionError(f"no analysis: {states[-5:]}")


def test_a_hand_is_analysed_once_in_the_workers_and_kept_with_its_match(
        web: TestClient) -> None:
    room: Room = web.app.state.room  # type: ignore[attr-defined]

    async def play() -> tuple[str, str]:
        ann, _ = await room.register("Ann")
        return await finished_match(room, ann), await finished_match(room, ann, private=True)

    table_id, hidden = call(web, play)
    path = f"/api/replays/{table_id}/1/hands/1/analysis"
    first = web.get(path).json()
    assert first["state"] in ("queued", "working")
    answer = analysed(web, path)
    assert answer["state"] == "ready", answer
    analysis = answer["analysis"]
    record = Record.from_text(web.get(f"/api/matches/{table_id}/1/record").text)
    game = replay(record)
    result = game.history[0]
    assert analysis["number"] == result.number and analysis["contract"] == result.contract
    assert analysis["taken"] == sum(result.tricks[seat] for seat in analysis["makers"])
    assert 0 <= analysis["makeable"] <= 10 and set(analysis["par"]) <= {"S", "C", "D", "H", "NT"}
    steps = web.get(f"/api/replays/{table_id}/1/hands/1").json()["steps"]
    plays = [n for n, step in enumerate(steps) if (step["action"] or "").startswith("play ")]
    assert len(analysis["cards"]) == len(plays) and analysis["cards"]
    first_play = record.actions.index(steps[plays[0]]["action"])
    assert analysis["cards"][0]["action"] == first_play
    calls = [steps[n] for n in range(1, plays[0]) if steps[n - 1]["view"]["phase"] == "bidding"]
    assert [(c["action"], c["seat"], c["call"]) for c in analysis["bidding"]] == [
        (step["index"], step["seat"], step["action"]) for step in calls]
    assert all(c["bot"] == "pass" or c["bot"].startswith("bid ") for c in analysis["bidding"])
    for card in analysis["cards"]:
        assert card["before"] >= card["after"] and card["lost"] == card["before"] - card["after"]
        assert (card["lost"] > 0) == bool(card["best"]) and card["played"] not in card["best"]

    async def kept() -> dict[str, Any] | None:
        return await room.store.hand_analysis(table_id, 1, 1)

    assert call(web, kept) == analysis  # kept with the match: the next ask reads it back
    assert web.get(path).json() == {"state": "ready", "analysis": analysis}
    assert web.get(f"/api/replays/{hidden}/1/hands/1/analysis").status_code == 404
    assert web.get(f"/api/replays/{table_id}/1/hands/99/analysis").status_code == 404


def test_analyses_wait_in_a_capped_queue_and_say_when_there_is_none(
        web: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardroom.games.five_hundred import Rules
    from cardroom.tables import analyses
    from cardroom.tools.arena import play_match

    five = play_match(Rules.preset("five-handed"), 3, "rules", "rules", 0, keep_record=True,
                      hands=1).record
    assert five is not None
    answer = analysed(web, "/api/replays/import?hand=1&analysis=1", five)
    assert answer["state"] == "unavailable" and "at most 4 hands" in answer["reason"]
    thousand = play_match(thousand_rules(), 3, "rules", "rules", 0, keep_record=True,
                          hands=1).record
    assert thousand is not None
    answer = analysed(web, "/api/replays/import?hand=1&analysis=1", thousand)
    assert answer["state"] == "ready" and answer["analysis"]["unit"] == "points"  # 1000's
    four = play_match(Rules.preset("online"), 5, "rules", "rules", 0, keep_record=True,
                      hands=2).record
    assert four is not None
    monkeypatch.setattr(analyses, "QUEUE_MAX", 0)
    busy = web.post("/api/replays/import?hand=2&analysis=1", content=four)
    assert busy.status_code == 503 and busy.headers["retry-after"] == "30"
    monkeypatch.setattr(analyses, "QUEUE_MAX", 16)  # one client may not fill the queue
    room: Room = web.app.state.room  # type: ignore[attr-defined]
    room.analyses.working = ("someone", "1", 1)  # the worker is busy elsewhere
    room.analyses.spawn = lambda coroutine: coroutine.close()  # type: ignore[assignment]
    codes = [web.post("/api/replays/import?hand=1&analysis=1", content=f"{four}# {n}\n")
             .status_code for n in range(analyses.PER_CLIENT_MAX + 1)]
    assert codes == [200] * analyses.PER_CLIENT_MAX + [503]


def thousand_rules() -> Any:
    from cardroom.games.thousand import Rules

    return Rules.preset("seed")


def test_a_finished_match_downloads_as_pbn_to_whoever_may_replay_it(web: TestClient) -> None:
    room: Room = web.app.state.room  # type: ignore[attr-defined]

    async def play() -> tuple[str, str, str]:
        ann, token = await room.register("Ann")
        return await finished_match(room, ann), await finished_match(room, ann, True, True), token

    table_id, hidden, token = call(web, play)
    answer = web.get(f"/api/matches/{table_id}/1/pbn")
    assert answer.status_code == 200
    assert answer.headers["content-disposition"] == (
        f'attachment; filename="cardroom-{table_id}-1.pbn"')
    text = answer.text
    hands = web.get(f"/api/replays/{table_id}/1").json()["hands"]
    assert text.count('[Board "') == hands and '[South "Ann"]' in text
    assert '[West "Beginner"]' in text and '[Event "500 at cardroom"]' in text
    assert web.get(f"/api/matches/{hidden}/1/pbn").status_code == 404
    assert web.get(f"/api/matches/{hidden}/1/pbn", headers=bearer(token)).status_code == 200


def test_odd_numbers_and_long_matches_are_refused_plainly(web: TestClient) -> None:
    """Numbers too long to be matches or hands are no route; a record of hundreds of hands
    (a match of passes) is not replayed; a gzip the client refuses is not sent."""
    game = "game: 500\nrules: {\"preset\": \"two-handed\"}\nseed: 4\ndealer: 0\nactions:\n"
    long = web.post("/api/replays/import", content=game + "pass\n" * 600)
    assert long.status_code == 400 and "more than 200 hands" in long.json()["error"]
    digits = "9" * 5000
    for path in (f"/api/replays/x/{digits}", f"/api/replays/x/1/hands/{digits}",
                 f"/api/matches/x/{digits}/record", f"/api/replays/x/1/hands/{digits}/analysis"):
        assert web.get(path).status_code == 404, path
    assert web.post("/api/replays/import?hand=%C2%B2", content=game).status_code == 404
    four = play_match_text()
    plain = web.post("/api/replays/import?hand=1", content=four,
                     headers={"Accept-Encoding": "gzip;q=0"})
    assert "content-encoding" not in plain.headers and plain.headers["vary"] == "Accept-Encoding"


def play_match_text() -> str:
    from cardroom.games.five_hundred import Rules
    from cardroom.tools.arena import play_match

    text = play_match(Rules.preset("online"), 5, "rules", "rules", 0, keep_record=True,
                      hands=1).record
    assert text is not None
    return text


def test_a_finished_matchs_replay_holds_only_the_chat_said_before_it_ended(
        web: TestClient) -> None:
    from cardroom.store.data import ChatLine

    room: Room = web.app.state.room  # type: ignore[attr-defined]

    async def play() -> str:
        ann, _ = await room.register("Ann")
        table_id = await finished_match(room, ann)
        finished = await room.store.standings.finished(table_id, 1)
        assert finished is not None
        for text, at in (("during", finished.finished_at - 1), ("later", finished.finished_at + 5)):
            await room.store.add_chat_line(ChatLine(
                table_id=table_id, match_number=1, created_at=at, player_id=ann.id,
                name="Ann", seat=0, channel="players", kind="text", text=text))
        return table_id

    table_id = call(web, play)
    said = [line["text"] for line in web.get(f"/api/replays/{table_id}/1").json()["chat"]]
    assert "during" in said and "later" not in said


async def test_an_analysis_that_overran_is_worked_out_again_when_asked_again() -> None:
    """A hand the workers gave up on (maybe only a busy moment) is not remembered as having
    no analysis: the next ask queues it again."""
    from cardroom.tables.analyses import BUDGETS, Analyses
    from cardroom.tables.replays import imported

    class Workers:
        calls = 0
        budgets: ClassVar[list[float]] = []

        async def run(self, _key: str, _review: Any, *_args: Any,
                      budget_share: float = 1.0) -> Any:
            Workers.budgets.append(budget_share)
            Workers.calls += 1
            if Workers.calls == 1:
                raise TimeoutError
            return {"cards": []}

    analyses = Analyses(None, Workers(), asyncio.ensure_future)  # type: ignore[arg-type]
    match = imported(play_match_text())
    assert (await analyses.status(match, 1, "me"))["state"] == "queued"
    while analyses.working or analyses.waiting or Workers.calls == 0:
        await asyncio.sleep(0.01)
    assert (await analyses.status(match, 1, "me"))["state"] == "queued"  # asked again
    # A hand may take several budgets (a fresh worker's first 1000 solve compiles first).
    assert set(Workers.budgets) == {BUDGETS} and BUDGETS > 1
    for _ in range(100):
        answer = await analyses.status(match, 1, "me")
        if answer["state"] == "ready":
            break
        await asyncio.sleep(0.01)
    assert answer == {"state": "ready", "analysis": {"cards": []}} and Workers.calls == 2


def test_a_players_own_profile_links_their_private_matches_and_nobody_elses_does(
        web: TestClient) -> None:
    room: Room = web.app.state.room  # type: ignore[attr-defined]

    async def play() -> tuple[str, str, str, str]:
        ann, ann_token = await room.register("Ann")
        _, bob_token = await room.register("Bob")
        hidden = await finished_match(room, ann, private=True)
        for _ in range(200):  # the match's seats are written with its finish
            if (await room.store.standings.recent(ann.id)):
                break
            await asyncio.sleep(0.05)
        return ann.id, hidden, ann_token, bob_token

    ann_id, hidden, ann_token, bob_token = call(web, play)
    for headers in ({}, bearer(bob_token), {"Authorization": "Bearer nope"}):
        match = web.get(f"/api/players/{ann_id}", headers=headers).json()["recent"][0]
        assert match["table_id"] is None and match["players"] == [] and hidden not in str(match)
    own = web.get(f"/api/players/{ann_id}", headers=bearer(ann_token)).json()["recent"][0]
    assert own["table_id"] == hidden and own["record"] and len(own["players"]) == 4
    assert web.get(f"/api/replays/{hidden}/1", headers=bearer(ann_token)).status_code == 200
