"""Traces of seeded random matches, to hold an engine's behaviour while its code is reshaped.

An engine's trace test (``tests/<game>/test_engine_trace.py``) replays a fixed set of seeded
random matches step by step. Before every action it takes what the engine shows (its own
``observe``: views, legal actions, the cards in every place …); after it, the action's events;
at the end, the record, the score history and the scores. All of it goes into a running
SHA-256 whose value every :data:`CHUNK` steps is kept: :func:`digests` gives those values,
:func:`write_trace_file` stores them for every match, and :func:`assert_same_trace` compares a
fresh trace with the stored one, naming the steps where they part. A trace test parametrises
its test over its matches with :func:`over_matches`, checks each with :func:`assert_as_stored`
and, run as a script, writes its file with :func:`write_when_asked`.

The stored file is written once from the engine as it is before a reshaping, and again only for
a change of behaviour that is meant.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import pytest

CHUNK = 25
"""Steps between two digests kept in a trace file: a mismatch is placed within this many steps."""


class TracedAction(Protocol):
    """What a trace needs of an action: its text."""

    @property
    def text(self) -> str: ...


class TracedGame(Protocol):
    """What a trace needs of a game, beyond what its test's ``observe`` reads."""

    @property
    def is_over(self) -> bool: ...

    @property
    def record(self) -> Any: ...

    @property
    def history(self) -> Any: ...

    @property
    def scores(self) -> Any: ...

    def apply(self, action: Any, seat: int | None = None) -> list[dict[str, Any]]: ...


def match_key(*parts: object) -> str:
    """The name of one traced match in a trace file: its parts joined by slashes."""
    return "/".join(map(str, parts))


def digests(game: TracedGame, choose: Callable[[], TracedAction],
            observe: Callable[[], Any], step_limit: int, chunk: int = CHUNK) -> list[str]:
    """The digests of one replayed match: one every ``chunk`` steps and one at the end.

    Before each action ``observe()`` is fed to the digest, then the text of the action
    ``choose()`` picks and the events of applying it; the match stops when it is over or after
    ``step_limit`` actions. Last come the record, the history and the scores.
    """
    digest = hashlib.sha256()
    kept = []

    def feed(value: Any) -> None:
        digest.update(json.dumps(value, sort_keys=True).encode())

    for step in range(step_limit):
        feed(observe())
        if game.is_over:
            break
        action = choose()
        feed([action.text, game.apply(action)])
        if step % chunk == chunk - 1:
            kept.append(digest.hexdigest()[:16])
    feed([game.record.to_dict(), [result.to_dict() for result in game.history], game.scores])
    kept.append(digest.hexdigest()[:16])
    return kept


def stored_traces(path: Path) -> dict[str, list[str]]:
    """The digests of every match of a trace file, by :func:`match_key`."""
    matches: dict[str, list[str]] = json.loads(path.read_text())["matches"]
    return matches


def assert_same_trace(key: str, got: list[str], want: list[str], chunk: int = CHUNK) -> None:
    """Fail, naming the steps, where the digests ``got`` of match ``key`` part from ``want``."""
    for number, (mine, theirs) in enumerate(zip(got, want, strict=False)):
        assert mine == theirs, (f"{key} differs within steps {number * chunk + 1} to "
                                f"{(number + 1) * chunk} (or at the end)")
    assert len(got) == len(want), "the match ended after a different number of actions"


def write_trace_file(path: Path, made_by: str, traces: Mapping[str, list[str]],
                     step_limit: int, chunk: int = CHUNK) -> None:
    """Store the digests of every match (``traces``, by :func:`match_key`) in ``path``."""
    data = {"made_by": made_by, "step_limit": step_limit, "chunk": chunk,
            "matches": dict(traces)}
    path.write_text(json.dumps(data, indent=1) + "\n")


Match = tuple[str, str, int]
"""One traced match: its rule set's name, the policy choosing its actions, and its seed."""
Trace = Callable[[str, str, int], list[str]]
"""A trace test's replay of one match: the digests of (rule set, policy, seed)."""


def over_matches(matches: Sequence[Match]) -> pytest.MarkDecorator:
    """Parametrise a test over ``matches`` (``name``, ``policy``, ``seed``), each named by
    its :func:`match_key`."""
    return pytest.mark.parametrize(("name", "policy", "seed"), matches,
                                   ids=[match_key(*match) for match in matches])


def assert_as_stored(path: Path, trace: Trace, name: str, policy: str, seed: int) -> None:
    """Fail unless ``trace`` of one match gives the digests stored for it in ``path``."""
    key = match_key(name, policy, seed)
    assert_same_trace(key, trace(name, policy, seed), stored_traces(path)[key])


def write_when_asked(path: Path, made_by: str, matches: Sequence[Match], trace: Trace,
                     step_limit: int, engine: str, usage: str) -> None:
    """For a trace test run as a script with ``--write``: store ``trace`` of every match in
    ``path``, saying which ``engine`` (the file of the engine importable now) it came from;
    any other arguments exit with ``usage``."""
    if sys.argv[1:] != ["--write"]:
        sys.exit(f"usage: {usage} --write")
    traces = {match_key(*match): trace(*match) for match in matches}
    write_trace_file(path, made_by, traces, step_limit)
    print(f"wrote {path} from {engine}")
