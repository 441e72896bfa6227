"""Fuzzing one real connection: every message, however broken, gets exactly one answer.

Hypothesis draws a few thousand messages (arbitrary JSON, messages shaped like the protocol's
with wrong or random fields, broken JSON, deep nesting, huge numbers, binary frames, text
over the size limit) and sends each through the same WebSocket to a `cardroom serve`
subprocess. After each, a ping with a sequence number of the test's own marks the end of the
answer: between the two, exactly one ``ack`` or ``error`` must arrive. The connection must
never drop, and the server's log (``--log-level warning``) must hold no traceback.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.sync.client import ClientConnection, connect

from cardroom.bots import BOT_NAMES
from cardroom.games import thousand
from cardroom.games.five_hundred import ALL_PRESET_NAMES
from cardroom.games.five_hundred.rules import OPTION_TYPES
from cardroom.protocol import CLIENT_MESSAGES, CLIENT_TYPES, MAX_MESSAGE_BYTES
from tests.conftest import ServerProcess, module_server

EXAMPLES = 2500
"""Messages hypothesis sends (a bound on the test's count, so on its time)."""
ANSWER_TIMEOUT = 10.0
"""Seconds to wait for any one answer before calling the connection stuck."""
MARK_BASE = 2**52
"""The test's own ping seqs count up from here: the fuzz may draw any other."""

TYPE_FIELDS: dict[str, list[str]] = {
    str(model.__struct_config__.tag):
        [field.name for field in msgspec.structs.fields(model) if field.name != "seq"]
    for model in CLIENT_MESSAGES
}
"""The fields each message type has."""

FIELDS = sorted({name for names in TYPE_FIELDS.values() for name in names} | {"extra"})
"""Every field of the protocol's client messages, and one no message has."""

TRICKY_STRINGS = ["", " ", "ping", "500", "1000", "online", "classic", "simple", "search",
                  "pass", "bid 7H", "play JK:H", "play 10H", "\x00", "\u202e", "\ufeff",
                  "A" * 200, "🂡", "null", "NaN", "-1"]

INSERTIONS = [*'{}[]",:\\0eE-+.', "\\ud800", "NaN"]
"""What :func:`broken` puts into a message: JSON's punctuation, an escape of a lone
surrogate, a number JSON does not have."""


SCALARS: st.SearchStrategy[Any] = st.one_of(
    st.none(), st.booleans(),
    st.integers(), st.integers(min_value=-(10**40), max_value=10**40),
    st.sampled_from([0, 1, -1, 5, 6, 2**31, 2**53, 2**53 + 1, 2**63, 2**64]),
    st.floats(allow_nan=False, allow_infinity=False), st.sampled_from([0.5, 1.0, 1e308]),
    st.text(max_size=30), st.sampled_from(TRICKY_STRINGS),
)
"""JSON scalars, with the edges a decoder or a validator trips on."""

JSON_VALUES: st.SearchStrategy[Any] = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=5),
    st.dictionaries(st.one_of(st.text(max_size=10), st.sampled_from(FIELDS)), inner,
                    max_size=5)), max_leaves=20)
"""Any JSON value, nested a little."""


RULE_OPTIONS = sorted({*OPTION_TYPES, *(f.name for f in dataclasses.fields(thousand.Rules)),
                       "preset"})
"""Every house option of either game: rules the room must check, not trip on."""

PLAUSIBLE: dict[str, st.SearchStrategy[Any]] = {
    "name": st.one_of(st.text(min_size=1, max_size=30), st.sampled_from(TRICKY_STRINGS)),
    "token": st.text(min_size=16, max_size=40),
    "game": st.sampled_from(["500", "1000", "", "999", "five hundred"]),
    "preset": st.one_of(st.none(), st.sampled_from([*ALL_PRESET_NAMES, *thousand.PRESET_NAMES,
                                                    "nope"])),
    "rules": st.dictionaries(st.sampled_from(RULE_OPTIONS), JSON_VALUES, max_size=4),
    "seat": st.integers(-1, 7),
    "offset": st.integers(-5, 10**6),
    "limit": st.integers(-5, 10**6),
    "turn_seconds": st.one_of(st.none(), st.floats(0, 4000), st.integers(-5, 4000)),
    "bot": st.sampled_from([*BOT_NAMES, "", "nope"]),
    "hints": st.booleans(),
    "action": st.one_of(st.sampled_from(["pass", "bid 6S", "bid 7NT", "play AS", "play JK:H",
                                         "discard AS KS QS", "call AH", "nominate pass"]),
                        st.text(max_size=40)),
    "description": st.text(min_size=1, max_size=100),
    "client_state": st.dictionaries(st.text(max_size=10), JSON_VALUES, max_size=5),
}
"""Values close to right for each field, so messages get past validation to the room."""

@st.composite
def protocol_like(draw: st.DrawFn, table_ids: list[str]) -> dict[str, Any]:
    """A message that looks like the protocol's: a known type and a valid seq (mostly), and
    the type's fields (some left out) with values close to right (mostly) or anything."""
    kind = draw(st.sampled_from(sorted(TYPE_FIELDS)))
    message: dict[str, Any] = {}
    if draw(st.integers(0, 19)):
        message["type"] = kind if draw(st.integers(0, 9)) else draw(JSON_VALUES)
    if draw(st.integers(0, 19)):
        message["seq"] = draw(st.integers(0, 10_000) if draw(st.integers(0, 5)) else SCALARS)
    for name in TYPE_FIELDS[kind]:
        if draw(st.integers(0, 9)) == 0:
            continue
        if name == "table_id":
            value = draw(st.sampled_from(table_ids) if draw(st.integers(0, 9)) else JSON_VALUES)
        else:
            value = draw(PLAUSIBLE.get(name, JSON_VALUES) if draw(st.integers(0, 9))
                         else JSON_VALUES)
        message[name] = value
    if draw(st.integers(0, 19)) == 0:
        message[draw(st.sampled_from(FIELDS))] = draw(JSON_VALUES)
    return message


@st.composite
def broken(draw: st.DrawFn, texts: st.SearchStrategy[str]) -> str:
    """A message's text cut short or with a character put in or taken out."""
    text = draw(texts)
    at = draw(st.integers(0, len(text)))
    how = draw(st.sampled_from(["cut", "insert", "delete"]))
    if how == "cut":
        return text[:at]
    if how == "insert":
        return text[:at] + draw(st.sampled_from(INSERTIONS)) + text[at:]
    return text[:at] + text[at + 1:]


@st.composite
def nested(draw: st.DrawFn) -> str:
    """Arrays or objects nested up to far beyond any interpreter's recursion limit."""
    depth = draw(st.integers(0, 3000))
    inside = draw(st.sampled_from(["", "1", "null"]))
    if draw(st.booleans()):
        body = "[" * depth + inside + "]" * depth
    else:
        body = '{"a":' * depth + (inside or "1") + "}" * depth
    if draw(st.booleans()):
        return body
    return json.dumps({"type": "ping", "seq": 1})[:-1] + ', "x": ' + body + "}"


@st.composite
def huge_number(draw: st.DrawFn) -> str:
    """A seq (or another field) with thousands of digits, or an exponent past a float."""
    digits = "9" * draw(st.integers(1, 6000))
    number = draw(st.sampled_from([digits, "-" + digits, "1e" + digits[:5], "0." + digits]))
    field = draw(st.sampled_from(["seq", "seat", "turn_seconds"]))
    return '{"type": "join", "table_id": "x", "seat": 0, "seq": 3, "' + field + '": ' \
        + number + "}"


def dumps(value: Any, ascii_only: bool) -> str:
    """JSON text as a client might write it (NaN and friends included, as Python writes
    them)."""
    return json.dumps(value, ensure_ascii=ascii_only)


@st.composite
def messages(draw: st.DrawFn, table_ids: list[str]) -> str | bytes:
    """Everything the fuzz sends: half of it messages shaped like the protocol's (so the
    room's handlers see them), the rest broken in every other way; text frames mostly,
    binary frames sometimes."""
    shaped = st.builds(dumps, protocol_like(table_ids), st.booleans())
    if draw(st.integers(0, 1)):
        return draw(shaped)
    return draw(st.one_of(
        st.builds(dumps, JSON_VALUES, st.booleans()),
        broken(shaped),
        st.text(max_size=200), st.binary(max_size=200),
        nested(), huge_number(),
        st.builds(lambda n: '{"type": "ping", "seq": 1, "x": "' + "x" * n + '"}',
                  st.integers(MAX_MESSAGE_BYTES - 60, MAX_MESSAGE_BYTES + 60)),
        st.floats().map(lambda x: json.dumps({"type": "ping", "seq": x})),
    ))


class Conversation:
    """One WebSocket: send a message, then collect the answers up to the test's next mark."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket
        self.mark = MARK_BASE
        self.sent = 0

    def exchange(self, message: str | bytes) -> list[dict[str, Any]]:
        """The acks and errors that answer ``message`` (other messages are skipped)."""
        self.socket.send(message)
        self.mark += 1
        self.sent += 1
        self.socket.send(json.dumps({"type": "ping", "seq": self.mark}))
        answers = []
        while True:
            reply = json.loads(self.socket.recv(timeout=ANSWER_TIMEOUT))
            if reply.get("type") not in ("ack", "error"):
                continue
            if reply.get("seq") == self.mark:
                assert reply["type"] == "ack", reply
                return answers
            answers.append(reply)

    def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        """A well-formed request's single answer."""
        self.mark += 1
        self.socket.send(json.dumps({"type": kind, "seq": self.mark, **fields}))
        while True:
            reply = json.loads(self.socket.recv(timeout=ANSWER_TIMEOUT))
            if reply.get("type") in ("ack", "error") and reply.get("seq") == self.mark:
                return reply


@pytest.fixture(scope="module")
def fuzz_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server that never rate-limits: every message reaches the decoder."""
    yield from module_server(tmp_path_factory, "fuzz",
                             **{"message-rate": 1_000_000, "message-burst": 1_000_000})


def test_the_fuzz_knows_every_message_type() -> None:
    assert set(TYPE_FIELDS) == CLIENT_TYPES


def test_every_message_gets_exactly_one_answer(fuzz_server: ServerProcess) -> None:
    # No keep-alive pings: the client would draw their payloads from `random` while
    # hypothesis runs, which hypothesis warns of.
    with connect(fuzz_server.url, max_size=2**22, open_timeout=ANSWER_TIMEOUT,
                 ping_interval=None) as socket:
        talk = Conversation(socket)
        assert talk.request("register", name="Fuzzer")["type"] == "ack"
        created = talk.request("create_table", seat=0)
        assert created["type"] == "ack", created
        table_ids = [created["result"]["table_id"], "no-such-table"]

        @settings(max_examples=EXAMPLES, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(message=messages(table_ids))
        def one_answer(message: str | bytes) -> None:
            answers = talk.exchange(message)
            assert len(answers) == 1, (message[:300], answers)
            answer = answers[0]
            if answer["type"] == "error":
                assert answer["code"] != "internal", (message[:300], answer)
                assert answer["seq"] is None or (
                    isinstance(answer["seq"], int) and 0 <= answer["seq"] <= 2**53), answer

        one_answer()
        assert talk.sent >= EXAMPLES // 2
        assert talk.request("ping")["type"] == "ack"
    log = fuzz_server.database.with_suffix(".log").read_text()
    assert "Traceback" not in log, log[-5000:]
    assert " ERROR " not in log, log[-5000:]

