"""Checks a value against the typed structure it claims to have: every key the structure
names is there with a value of its type (msgspec, strictly: no int where a str belongs), and no
key it does not name, at any depth. The view and message tests use it on what the engine
returns and the server sends."""

from __future__ import annotations

import types
from typing import Any, NotRequired, Union, get_args, get_origin, get_type_hints, is_typeddict

import msgspec

from cardroom.games.registry import game_spec
from cardroom.protocol import SERVER_MESSAGES


def check_shape(value: Any, shape: Any) -> None:
    """``AssertionError`` naming the first place where ``value`` is not a ``shape``."""
    try:
        msgspec.convert(value, shape, strict=True)
    except msgspec.ValidationError as error:
        raise AssertionError(f"not a {getattr(shape, '__name__', shape)}: {error}") from None
    _no_unknown_keys(value, shape, "$")


def check_message(message: dict[str, Any]) -> None:
    """A message the server sent has its type's shape, and a table message's view has its
    game's (the registry entry's ``view_shape``)."""
    assert message.get("type") in SERVER_MESSAGES, f"unknown message type {message.get('type')}"
    check_shape(message, SERVER_MESSAGES[message["type"]])
    if message["type"] == "table" and message["view"] is not None:
        check_shape(message["view"], game_spec(message["game"]).view_shape)


def _no_unknown_keys(value: Any, shape: Any, where: str) -> None:
    """msgspec ignores keys a TypedDict does not name; a view must not carry any."""
    if value is None:
        return
    if is_typeddict(shape):
        hints = get_type_hints(shape)
        unknown = set(value) - set(hints)
        assert not unknown, f"{where} has keys its shape does not name: {sorted(unknown)}"
        for key, hint in hints.items():
            if key in value:
                _no_unknown_keys(value[key], hint, f"{where}.{key}")
        return
    origin = get_origin(shape)
    if origin is NotRequired:
        _no_unknown_keys(value, get_args(shape)[0], where)
    elif origin in (Union, types.UnionType):
        for option in get_args(shape):
            if is_typeddict(option) or get_origin(option) in (list, dict):
                _no_unknown_keys(value, option, where)
    elif origin is list:
        for index, item in enumerate(value):
            _no_unknown_keys(item, get_args(shape)[0], f"{where}[{index}]")
    elif origin is dict:
        for key, item in value.items():
            _no_unknown_keys(item, get_args(shape)[1], f"{where}.{key}")
