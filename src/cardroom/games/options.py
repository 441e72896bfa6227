"""House-rule options shared by every game's ``Rules``: type checks, help texts, catalogues.

Each game keeps its options as the fields of a frozen dataclass, with a docstring under each
field. The helpers here read those fields generically, so the checks that refuse a bad value
and the catalogue that the lobby's "New table" form is built from work the same for 500 and
1000 without either game repeating them.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import re
import textwrap
from itertools import pairwise
from typing import Any, get_args, get_type_hints


def option_types(cls: type) -> dict[str, Any]:
    """The type of every option (dataclass field) of a ``Rules`` class, in field order."""
    hints = get_type_hints(cls)
    return {field.name: hints[field.name] for field in dataclasses.fields(cls)}


def check_option(types: dict[str, Any], key: str, value: Any,
                 error: type[Exception] = ValueError) -> None:
    """Refuse (with ``error``) a value that is not of the option's type, naming what is allowed.

    Booleans, whole numbers, whole numbers or null, and ``Literal`` choices are understood.
    """
    expected = types[key]
    choices = get_args(expected)
    if expected is bool:
        ok = isinstance(value, bool)
        allowed = "true or false"
    elif expected is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
        allowed = "a whole number"
    elif type(None) in choices:
        ok = value is None or (isinstance(value, int) and not isinstance(value, bool))
        allowed = "a whole number or null"
    else:
        ok = value in choices
        allowed = "one of " + ", ".join(repr(c) for c in choices)
    if not ok:
        raise error(f"rules option {key!r} must be {allowed}, not {value!r}")


def field_docstrings(cls: type) -> dict[str, str]:
    """The docstring written under each field of a class (the single source of option help)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    body = tree.body[0].body  # type: ignore[attr-defined]
    docs = {}
    for statement, following in pairwise(body):
        if (isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)
                and isinstance(following, ast.Expr)
                and isinstance(following.value, ast.Constant)
                and isinstance(following.value.value, str)):
            docs[statement.target.id] = " ".join(following.value.value.split())
    return docs


def for_players(doc: str) -> str:
    """A field docstring as players read it: no code quotes, no references to our sources."""
    doc = re.sub(r"``([^`]*)``", r"\1", doc)
    return re.sub(r"\s*\((?:RULES\.md [0-9.]+|seeds? [0-9, /]+)\)", "", doc)


def option_catalogue(cls: type) -> list[dict[str, Any]]:
    """Every option of a ``Rules`` class with its kind, allowed values, default and help,
    for forms (the lobby's "New table") and documentation."""
    docs = field_docstrings(cls)
    defaults = cls()
    catalogue = []
    for name, kind in option_types(cls).items():
        choices = [c for c in get_args(kind) if c is not type(None)]
        entry: dict[str, Any] = {"name": name, "default": getattr(defaults, name),
                                 "doc": for_players(docs.get(name, ""))}
        if kind is bool:
            entry["kind"] = "bool"
        elif kind is int or choices == [int]:
            entry["kind"] = "int"
            entry["nullable"] = kind is not int
        else:
            entry["kind"] = "choice"
            entry["choices"] = list(choices)
        catalogue.append(entry)
    return catalogue
