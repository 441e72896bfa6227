"""House-rule options shared by every game's ``Rules``: type checks, help texts, catalogues,
and the presets-and-options machinery (:class:`PresetRules`) every ``Rules`` builds on.

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
from functools import cached_property
from itertools import pairwise
from typing import Any, ClassVar, Self, get_args, get_type_hints


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
    """A field docstring as players read it: no code quotes, no references to our sources
    (the seeds, pagat), and an empty number field, not Python's or JSON's null, for "none"."""
    doc = re.sub(r"``([^`]*)``", r"\1", doc)
    doc = re.sub(r"\b(?:None|null)(?=: )", "empty", doc)
    doc = doc.replace("(pagat: ", "(usually ")
    doc = re.sub(r",\s*(?:seeds? \d{3}|pagat)(?=[),;])", "", doc)
    return re.sub(r"\s*\((?:RULES\.md [0-9.]+|seeds? [0-9, /]+|pagat)\)", "", doc)


_WORDS: dict[type, tuple[dict[str, str], dict[str, dict[str, str]]]] = {}
"""Each ``Rules`` class's names for its options and their values (see :func:`name_options`)."""


def name_options(rules_class: type, options: dict[str, str],
                 values: dict[str, dict[str, str]]) -> None:
    """Give a ``Rules`` class's options (option → label) and the values of its choice
    options (option → value → label) their names for people, as the game's text module says
    them: the catalogue offers the values by these names, and the options' explanations say
    them in place of the code words (``slam_250``, ``see six_handed_teams``)."""
    _WORDS[rules_class] = (options, values)


def value_label(value: str) -> str:
    """A value's name when its game gives none: ``play_any_time`` → "Play any time"."""
    words = str(value).replace("_", " ")
    return words[:1].upper() + words[1:]


def _choice_labels(rules_class: type, name: str, choices: list[Any]) -> dict[str, str]:
    given = _WORDS.get(rules_class, ({}, {}))[1].get(name, {})
    return {str(c): given.get(str(c), value_label(str(c))) for c in choices}


def _in_words(doc: str, labels: dict[str, str]) -> str:
    """An explanation with each code word (one with an underscore) of ``labels`` replaced by
    its label in quotes: "slam_250 (…)" → "“At least 250” (…)"."""
    for code, label in labels.items():
        if "_" in code:
            doc = re.sub(rf"\b{re.escape(code)}\b", f"“{label}”", doc)
    return doc


def option_catalogue(cls: type) -> list[dict[str, Any]]:
    """Every option of a ``Rules`` class with its kind, allowed values (and their labels for
    people), default and help, for forms (the lobby's "New table") and documentation."""
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
            entry["choice_labels"] = _choice_labels(cls, name, entry["choices"])
            entry["doc"] = _in_words(entry["doc"], entry["choice_labels"])
        entry["doc"] = _in_words(entry["doc"], _WORDS.get(cls, ({}, {}))[0])
        catalogue.append(entry)
    return catalogue


_OPTION_TYPES: dict[type, dict[str, Any]] = {}
_PRESETS: dict[tuple[type, str], Any] = {}


def _option_types_of(cls: type) -> dict[str, Any]:
    """A ``Rules`` class's option types, worked out once per class (rules are built often)."""
    types = _OPTION_TYPES.get(cls)
    if types is None:
        types = _OPTION_TYPES[cls] = option_types(cls)
    return types


def _preset_of(cls: type[PresetRules], name: str) -> Any:
    """Presets are immutable, so each is built (and whatever it derives cached) once."""
    preset = _PRESETS.get((cls, name))
    if preset is None:
        preset = _PRESETS[(cls, name)] = cls(**cls.PRESETS[name])
    return preset


class PresetRules:
    """What every game's ``Rules`` shares: presets, dicts of options, checked changes.

    A game's ``Rules`` is a frozen dataclass that subclasses this, fills ``PRESETS`` (name →
    options), names its ``DEFAULT_PRESET`` and its ``ERROR`` (the game's ``RulesError``), and
    checks the combinations it cannot play in ``_validate``; every option's type is checked here
    first, whenever rules are built.
    """

    PRESETS: ClassVar[dict[str, dict[str, Any]]]
    DEFAULT_PRESET: ClassVar[str]
    ERROR: ClassVar[type[Exception]]

    def __post_init__(self) -> None:
        types = _option_types_of(type(self))
        for key in types:
            check_option(types, key, getattr(self, key), self.ERROR)
        self._validate()

    def _validate(self) -> None:
        """Refuse (with ``ERROR``) combinations of options that cannot be played."""

    @classmethod
    def preset(cls, name: str) -> Self:
        """A named preset (one of ``PRESETS``)."""
        if name not in cls.PRESETS:
            raise cls.ERROR(f"unknown preset {name!r}; choose one of: "
                            f"{', '.join(cls.PRESETS)}")
        return _preset_of(cls, name)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """Rules from a dict of options; a ``preset`` key gives the starting point."""
        if not isinstance(data, dict):
            raise cls.ERROR("rules must be a mapping of option names to values")
        data = dict(data)
        preset = data.pop("preset", cls.DEFAULT_PRESET)
        if not isinstance(preset, str) or preset not in cls.PRESETS:
            raise cls.ERROR(f"unknown preset {preset!r}; choose one of: "
                            f"{', '.join(cls.PRESETS)}")
        types = _option_types_of(cls)
        unknown = sorted(set(data) - types.keys())
        if unknown:
            raise cls.ERROR(f"unknown rules option(s): {', '.join(unknown)}; known options: "
                            f"{', '.join(types)}")
        for key, value in data.items():
            check_option(types, key, value, cls.ERROR)
        return cls(**{**cls.PRESETS[preset], **data})

    def to_dict(self) -> dict[str, Any]:
        """Every option and its value (JSON-ready); ``from_dict`` of it gives back these rules."""
        return dict(self._options)

    @cached_property
    def _options(self) -> dict[str, Any]:
        return dataclasses.asdict(self)  # type: ignore[call-overload]

    @property
    def shown_options(self) -> dict[str, Any]:
        """Every option and its value as views show them: the one dict of these rules, to be
        read and never changed, so that every view of a match holds the same object (a
        table's next message sees at once that its rules did not change)."""
        return self._options

    def replace(self, **changes: Any) -> Self:
        """These rules with some options changed (validated like any other)."""
        types = _option_types_of(type(self))
        for key, value in changes.items():
            if key not in types:
                raise self.ERROR(f"unknown rules option: {key}")
            check_option(types, key, value, self.ERROR)
        return dataclasses.replace(self, **changes)  # type: ignore[type-var]

    @cached_property
    def preset_name(self) -> str | None:
        """The name of the preset these rules equal, if any."""
        return next((name for name in self.PRESETS if self.preset(name) == self), None)
