"""Players' names: what may be shown (``bad_name``), and names that look alike are one name
(``name_taken``), decided by the database's unique name key even between two processes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy.exc import IntegrityError

from cardroom.bots import BOT_NAMES
from cardroom.protocol import NAME_MAX, ErrorCode
from cardroom.store.db import NameTaken, Store
from cardroom.tables.names import BadName, check_name, name_key, passes_for_a_bot
from cardroom.tables.room import Room, RoomError
from cardroom.tools.client import Client, ClientError
from tests.server.pg import fresh_schema

BAD = ErrorCode.BAD_NAME.value

NAMES: list[tuple[str, str | None]] = [
    # Accepted (None), with the player's own spelling kept.
    ("Alice", None),
    ("Shaun O'Neil", None),
    ("Zoë", None),
    ("Σίσυφος", None),
    ("Аня", None),
    ("李小龙", None),
    ("فاطمه\u200cای", None),  # a Persian zero-width non-joiner is part of the spelling
    ("👨\u200d👩\u200d👧 family", None),  # joiners inside an emoji sequence
    ("Robot Rick", None),
    ("Botox", None),
    ("Abbot", None),
    ("Bot Alice", None),
    ("Simple Simon", None),
    ("Search party", None),
    ("x" * NAME_MAX, None),
    # Nothing visible once invisible characters are removed.
    ("", BAD),
    ("   ", BAD),
    ("\u200b", BAD),  # zero-width space
    ("\u200d\u200c", BAD),  # zero-width joiner and non-joiner
    ("\ufe0f\ufe0e", BAD),  # variation selectors
    ("\u2060\ufeff", BAD),  # word joiner, byte order mark
    ("\u3164", BAD),  # Hangul filler
    ("\u2800", BAD),  # blank Braille pattern
    ("\U000e0041\U000e0042", BAD),  # tag characters
    ("\u00ad", BAD),  # soft hyphen
    # Control characters and line breaks.
    ("Al\x1bice", BAD),
    ("\x1b[31mRed", BAD),
    ("Al\x00ice", BAD),
    ("Al\x7fice", BAD),
    ("Al\x9bice", BAD),  # C1 control sequence introducer
    ("Al\nice", BAD),
    ("Al\tice", BAD),
    ("Al\u2028ice", BAD),  # line separator
    ("Al\ud800ice", BAD),  # an unpaired surrogate (JSON can carry one)
    # Bidirectional controls.
    ("\u202eecilA", BAD),
    ("Alice\u202a", BAD),
    ("Alice\u202c", BAD),
    ("A\u202dlice", BAD),
    ("Al\u2066ice\u2069", BAD),
    ("\u2067Alice", BAD),
    ("\u2068Alice", BAD),
    ("Alice\u200f", BAD),  # right-to-left mark
    ("Alice\u200e", BAD),  # left-to-right mark
    ("Alice\u061c", BAD),  # Arabic letter mark
    # Too long.
    ("x" * (NAME_MAX + 1), BAD),
    # Passing for a bot.
    ("Bot", BAD),
    ("bot", BAD),
    ("Bot 2", BAD),
    ("Bot2", BAD),
    ("bot_3", BAD),
    ("Bot 12", BAD),
    ("Simple bot", BAD),
    ("Search bot", BAD),
    ("Rules Bot 4", BAD),
    ("searchbot", BAD),
    ("Bot (simple)", BAD),
    ("search:strong", BAD),
    ("SEARCH:FAST", BAD),
    ("Search Strong", BAD),
    ("Random", BAD),
    ("[bot]", BAD),
    ("B0T", BAD),  # digit zero
    ("Вот", BAD),  # Cyrillic capital Ve, small o and te
    ("Ｂｏｔ", BAD),  # fullwidth
    ("B\u200bot", BAD),  # a zero-width space inside
    ("ВОТ 1", BAD),
    ("ʙᴏᴛ", BAD),  # Latin small capitals
    ("B.O.T", BAD),  # dotted letters
    ("B o t", BAD),  # spaced letters
    ("Zalgo" + "\u0489" * 23, BAD),  # enclosing marks that draw over the names around
    ("a" + "\u0301" * 3, BAD),  # three accents on one letter
    ("x\ufff9y", BAD),  # interlinear annotation: a format character that is not invisible
    ("\u0600ab", BAD),  # Arabic number sign
    ("x\ue000y", BAD),  # private use
    ("x\ufffcy", BAD),  # object replacement
    ("Ắn", None),  # two marks on one letter are a spelling
]


@pytest.mark.parametrize(("name", "code"), NAMES)
def test_name_rules(name: str, code: str | None) -> None:
    if code is None:
        checked = check_name(name)
        assert checked.display == " ".join(name.split())  # the player's own spelling
        assert checked.key == name_key(name)
    else:
        with pytest.raises(BadName) as refused:
            check_name(name)
        assert str(refused.value)  # a message for the player


def test_every_registry_bot_name_is_refused() -> None:
    for bot in BOT_NAMES:
        assert passes_for_a_bot(bot), bot
        assert passes_for_a_bot(bot.upper()), bot
        assert passes_for_a_bot(f"{bot} bot"), bot


def test_display_name_is_trimmed_and_collapsed_but_keeps_its_spelling() -> None:
    assert check_name("  Аnna \u3000  Maria ").display == "Аnna Maria"  # Cyrillic А kept
    assert check_name("ＡＬＩＣＥ").display == "ＡＬＩＣＥ"


@pytest.mark.parametrize(("first", "second"), [
    ("Alice", "ALICE"),
    ("Alice", "alice"),
    ("Alice", "Аlice"),  # Cyrillic А
    ("Alice", "Ａｌｉｃｅ"),  # fullwidth
    ("Alice", "A l i c e".replace(" ", "\u200b")),  # zero-width spaces between the letters
    ("Alice", " Alice "),
    ("Alice", "Alice\u0336"),  # struck through
    ("Bob", "Вов"),  # Cyrillic capital Ve, small o, small ve
    ("BOB", "ВОВ"),  # all Cyrillic capitals
    ("Nikos", "Νikos"),  # Greek capital Nu
    ("Nikos", "Nіkos"),  # Cyrillic small і
    ("Olga", "0lga"),  # digit zero
    ("Olga", "Οlga"),  # Greek capital Omicron
    ("Olga", "οlga"),  # Greek small omicron
    ("Kim", "Kirn"),  # r and n side by side look like m
    ("Bill", "BiII"),  # capital I and small l
    ("Mary Ann", "Mary  Ann"),
    ("Mary Ann", "Mary\u00a0Ann"),  # a no-break space
    ("Straße", "STRASSE"),
    ("Øyvind", "øyvind"),
    ("Σίσυφος", "ΣΊΣΥΦΟΣ"),
    ("José", "Jose\u0301"),  # composed and decomposed accents
])
def test_names_that_look_alike_share_a_key(first: str, second: str) -> None:
    assert name_key(first) == name_key(second)


@pytest.mark.parametrize(("first", "second"), [
    ("Alice", "Alicia"),
    ("Jose", "José"),  # an accent is visible
    ("Mary Ann", "MaryAnn"),  # so is a space
    ("Anna", "Ana"),
    ("Shaun", "Shawn"),
])
def test_names_that_look_different_have_different_keys(first: str, second: str) -> None:
    assert name_key(first) != name_key(second)


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=NAME_MAX))
def test_the_key_of_a_key_is_itself(name: str) -> None:
    key = name_key(name)
    assert name_key(key) == key


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=NAME_MAX))
def test_the_key_does_not_depend_on_case(name: str) -> None:
    key = name_key(name)
    assert name_key(name.upper()) == key
    assert name_key(name.lower()) == key
    assert name_key(name.swapcase()) == key
    assert name_key(name.title()) == key


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=NAME_MAX))
def test_an_accepted_name_keeps_its_text_and_has_a_key(name: str) -> None:
    try:
        checked = check_name(name)
    except BadName:
        return
    assert checked.display == " ".join(name.split())
    assert checked.key and checked.key == name_key(checked.display)


# -- the room and the store ----------------------------------------------------------------


@pytest.fixture
async def room(tmp_path: Path) -> AsyncIterator[Room]:
    store = await Store.open(f"sqlite:///{tmp_path / 'names.sqlite3'}")
    made = Room(store)
    yield made
    await made.stop()
    await store.close()


@pytest.mark.parametrize(("name", "code"), NAMES)
async def test_register_answers_each_name_with_its_code(room: Room, name: str,
                                                        code: str | None) -> None:
    if code is None:
        player, _ = await room.register(name)
        assert player.name == " ".join(name.split())
    else:
        with pytest.raises(RoomError) as refused:
            await room.register(name)
        assert refused.value.code == code


async def test_a_look_alike_of_a_registered_name_is_taken(room: Room) -> None:
    first, _ = await room.register("Alice")
    for again in ("Alice", "ALICE", "Аlice", "Ａｌｉｃｅ", " alice\u200b"):
        with pytest.raises(RoomError) as refused:
            await room.register(again)
        assert refused.value.code == ErrorCode.NAME_TAKEN
        assert f'"{check_name(again).display}"' in refused.value.message
    assert first.name == "Alice"
    other, _ = await room.register("Alicia")
    assert other.name == "Alicia"


async def _race(urls: list[str], name_of: list[str]) -> list[object]:
    """Register ``name_of[n]`` in room ``n`` all at once (each room on its own store, as two
    server processes are); the outcome of each."""
    stores = [await Store.open(url) for url in urls]
    rooms = [Room(store) for store in stores]
    try:
        return await asyncio.gather(*(room.register(name)
                                      for room, name in zip(rooms, name_of, strict=True)),
                                    return_exceptions=True)
    finally:
        for room in rooms:
            await room.stop()
        for store in stores:
            await store.close()


def _one_wins(outcomes: list[object]) -> None:
    won = [o for o in outcomes if not isinstance(o, BaseException)]
    lost = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(won) == 1, outcomes
    assert lost and all(isinstance(o, RoomError) and o.code == ErrorCode.NAME_TAKEN
                        for o in lost), outcomes


async def test_two_rooms_registering_look_alikes_at_once_on_sqlite(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    await (await Store.open(url)).close()  # migrated once, before the races
    for round_ in range(5):
        _one_wins(await _race([url] * 3, [f"Racer{round_}", f"RACER{round_}",
                                          f"Rаcer{round_}"]))


async def test_two_rooms_registering_look_alikes_at_once_on_postgresql() -> None:
    with fresh_schema() as url:
        await (await Store.open(url)).close()  # migrated once, before the races
        for round_ in range(5):
            _one_wins(await _race([url] * 3, [f"Racer{round_}", f"racer{round_}",
                                              f"Rаcer{round_}"]))


async def test_the_store_refuses_a_taken_key_and_nothing_else(tmp_path: Path) -> None:
    store = await Store.open(f"sqlite:///{tmp_path / 'keys.sqlite3'}")
    try:
        await store.add_player("p1", "Alice", "h1", name_key=name_key("Alice"))
        with pytest.raises(NameTaken):
            await store.add_player("p2", "ALICE", "h2", name_key=name_key("ALICE"))
        # Another broken constraint is not a taken name.
        with pytest.raises(IntegrityError):
            await store.add_player("p3", "Carol", "h1", name_key=name_key("Carol"))
        assert set(await store.players(["p1", "p2", "p3"])) == {"p1"}
    finally:
        await store.close()


# -- through a real server -----------------------------------------------------------------


async def test_refused_names_come_back_as_typed_errors_and_the_connection_stays_usable(
        server) -> None:
    async with Client(server.url) as first, Client(server.url) as second:
        await first.register("Shaun")
        for name, code in (("Shaun", "name_taken"), ("SHAUN", "name_taken"),
                           ("Ѕhaun", "name_taken"),  # Cyrillic Ѕ
                           ("\u202eNUAHS", "bad_name"), ("Bot 2", "bad_name"),
                           ("search:strong", "bad_name"), ("\u200b\u200b", "bad_name"),
                           ("Sh\x1baun", "bad_name")):
            with pytest.raises(ClientError) as refused:
                await second.register(name)
            assert refused.value.code == code, name
            assert refused.value.message
        await second.request("ping")  # the connection survives every refusal
        token = await second.register("Shawn")
        assert token
        hello = await second.hello(token)
        assert hello["name"] == "Shawn"
        table = await second.create_table(seat=0)  # and plays
        assert table
