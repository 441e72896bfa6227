"""Players' names: which names may be shown, and the key that decides when two names are one.

A name is refused (``bad_name``) when nobody could read it as a name or when it misleads:

* nothing visible is left once whitespace and invisible characters are removed (Unicode's
  Default_Ignorable_Code_Point: zero-width spaces and joiners, variation selectors, Hangul
  fillers, tag characters …, plus the blank Braille pattern U+2800);
* it holds control characters (C0, DEL, C1), line or paragraph separators, or unpaired
  surrogates;
* it holds a bidirectional control (Unicode's Bidi_Control: the embeddings and overrides
  U+202A-202E, the isolates U+2066-2069, LRM, RLM and ALM), which could reorder what is
  shown around the name;
* it holds format characters that are not invisible (interlinear annotations, the Arabic
  number sign …), private-use or unassigned code points, or the object replacement mark;
* a letter carries more than two combining marks (a pile of them draws over the names
  around it);
* it is longer than the protocol's :data:`~cardroom.protocol.NAME_MAX`;
* it passes for a bot: "Bot", "Bot 2", "bot_3", "Simple bot", "Search bot", "Bot (rules)"
  or a registry name of :data:`cardroom.bots.BOT_NAMES` such as "search:strong", compared
  on the key below, so case, look-alike letters, small capitals and spaced or dotted
  letters ("B0T", Cyrillic "Вot", "ʙᴏᴛ", "B.O.T") do not help.

Otherwise the display name is the player's own text with its ends trimmed and every run of
whitespace made one space: letters, accents and invisible joiners are kept as typed (a
zero-width non-joiner is part of some Persian words, a joiner part of some emoji).

The **name key** folds a name to what it looks like: case and compatibility forms folded
(Unicode's compatibility caseless match: case folding with NFKD/NFKC, so fullwidth letters,
ligatures and either spelling of an accent fold alike), Latin small capitals read as their
letters, enclosing and overlay marks (a stroke through a letter) and invisible characters
removed,
whitespace collapsed, then the confusable skeleton of Unicode Technical Standard #39
(Cyrillic 'а' and Latin 'a', Greek 'ο' and 'o', '0' and 'O', 'rn' and 'm' share one). The
skeleton is taken of the name in upper case and then, case folded again, in lower case: many
look-alikes exist in one case only (Cyrillic 'В', 'Н', 'Т' and Greek 'Η', 'Ν' look like
Latin capitals, their small letters do not), and a key taken in one case would let "ВОВ" in
beside "BOB". The price is that capital 'I' and small 'l' (one stroke in most sans-serif
fonts) fold together, so 'i' and 'l' share a key. The round is repeated until nothing
changes (a skeleton can be compatibility text or upper case again: '0' becomes 'O'), so the
key of a key is itself. "Alice", "ALICE", "Аlice" (Cyrillic А) and "Ａｌｉｃｅ" have one key.
The store keeps it in a unique column: of two players whose names look alike only the first
gets in.

The skeleton comes from ICU (PyICU's ``SpoofChecker.getSkeleton``), which implements UTS #39
from Unicode's own confusables data, and ICU's property sets give the invisible and
bidirectional characters, so this module holds no character tables. confusable-homoglyphs
was evaluated and not chosen: it answers whether a string *contains* characters that could
be mistaken for another script's (``is_confusable``, ``is_dangerous``) and lists each
character's look-alikes in both directions without telling which is the prototype, so it
offers no skeleton: finding a look-alike name would mean comparing a new name with every
stored one, where a key lets the database's unique index decide, also between processes.
ICU's data is that of the ICU the machine builds PyICU against; keys stored under one ICU
version stay as they were when a later one changes a mapping.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

import icu

from cardroom.protocol import NAME_MAX
from cardroom.store.accounts import DELETED_NAME

_SKELETON = icu.SpoofChecker()
_SKELETON_TYPE = 0
"""ICU ignores the skeleton type since ICU 58 and asks for 0."""
_INVISIBLE = {ord(c): None for c in icu.UnicodeSet("[:Default_Ignorable_Code_Point:]")}
"""A ``str.translate`` table removing every default-ignorable character."""
_BLANK = {ord(c): None for c in icu.UnicodeSet(
    r"[[:Default_Ignorable_Code_Point:][:White_Space:]\u2800]")}
"""Characters that show nothing: invisible ones, whitespace and the blank Braille pattern
(Braille patterns are symbols, but U+2800 has no dots and is a well-known empty name)."""
_BIDI_CONTROLS = frozenset(icu.UnicodeSet("[:Bidi_Control:]"))
_CONTROL_CATEGORIES = frozenset({"Cc", "Zl", "Zp"})
_UNSHOWABLE_CATEGORIES = frozenset({"Co", "Cn"})
"""Private-use and unassigned code points: no font agrees on what they show."""
_MARKS = frozenset({"Mn", "Me"})
MAX_MARKS = 2
"""Combining marks one letter may carry (more draw over the names around it)."""
_SMALL_CAPITAL = "LATIN LETTER SMALL CAPITAL "
_OVERLAY = 1
"""The canonical combining class of overlay marks (strokes through a letter)."""
_MAX_ROUNDS = 8
"""Folding rounds before giving up on a fixed point (every single code point needs at most
three)."""
_SEPARATORS = re.compile(r"[\W_]+")


class BadName(ValueError):
    """A name that may not be used; the message tells the player why."""


@dataclass(frozen=True)
class CheckedName:
    """A name fit to show, and its key."""

    display: str
    """The player's own spelling, trimmed, with whitespace collapsed."""
    key: str
    """:func:`name_key` of the name: equal for names that look alike."""


def _skeleton(text: str) -> str:
    return _SKELETON.getSkeleton(_SKELETON_TYPE, text)


def _caseless(text: str) -> str:
    """Unicode's compatibility caseless form (definition D145: case folding and
    normalisation interleaved, so canonically equivalent spellings fold alike), in NFKC."""
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFD", text).casefold())
    return unicodedata.normalize("NFKC", text.casefold())


def _plain_letter(char: str) -> str:
    """A Latin small capital as its letter ('ʙ' as 'b'); any other character as it is."""
    name = unicodedata.name(char, "")
    rest = name[len(_SMALL_CAPITAL):] if name.startswith(_SMALL_CAPITAL) else ""
    return rest.lower() if len(rest) == 1 else char


def _without_overlays(text: str) -> str:
    """The text without enclosing and overlay marks (a circle round a letter, a stroke
    through it): they decorate a letter without making it another; accents stay."""
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFC", "".join(
        c for c in decomposed
        if unicodedata.category(c) != "Me" and unicodedata.combining(c) != _OVERLAY))


def _fold(text: str) -> str:
    """One round of folding: compatibility caseless form, small capitals as letters,
    overlay marks and invisibles removed, whitespace collapsed, and the confusable skeleton
    taken of the upper case, then of the lower case."""
    text = _without_overlays("".join(map(_plain_letter, _caseless(text))))
    text = " ".join(text.translate(_INVISIBLE).split())
    return _skeleton(_skeleton(text.upper()).casefold())


def name_key(name: str) -> str:
    """The key of a name: what it looks like, with case, compatibility forms, invisible
    characters and confusable letters folded away. Idempotent: ``name_key(name_key(x)) ==
    name_key(x)``; two names with one key cannot both be registered."""
    key = name
    for _ in range(_MAX_ROUNDS):
        folded = _fold(key)
        if folded == key:
            break
        key = folded
    return key


def _words(key: str) -> str:
    """A key's words joined by single spaces (punctuation and underscores separate words)."""
    return " ".join(word for word in _SEPARATORS.split(key) if word)


@functools.cache
def _bot_name() -> re.Pattern[str]:
    """A pattern of the keys of names that pass for a bot (built on first use: the bots'
    registry is imported only when a name is checked)."""
    from cardroom.bots import BOT_NAMES

    levels = sorted({_words(name_key(bot)) for bot in BOT_NAMES}, key=len, reverse=True)
    level = "|".join(re.escape(words).replace(r"\ ", " ?") for words in levels)
    bot = re.escape(name_key("bot"))
    number = "[" + "".join(re.escape(c) for c in sorted(set(name_key("0123456789")))) + "]+"
    return re.compile(
        rf"(?:(?:{level}) ?)?{bot}(?: ?{number})?"  # Bot, Bot 2, bot_3, Simple bot, searchbot
        rf"|{bot} ?(?:{level})(?: ?{number})?"  # Bot (simple), bot-search 2
        rf"|(?:{level})(?: ?{number})?")  # search:strong, Random, Rules 3


def passes_for_a_bot(name: str) -> bool:
    """Whether a name would read as one of the room's bots (case and look-alikes folded,
    spaced or dotted letters too: "B.O.T", "B o t")."""
    words = _words(name_key(name))
    return any(_bot_name().fullmatch(text) is not None
               for text in (words, words.replace(" ", "")))


def _too_many_marks(text: str) -> bool:
    """Some letter carries more than :data:`MAX_MARKS` combining marks."""
    run = 0
    for char in unicodedata.normalize("NFD", text):
        run = run + 1 if unicodedata.category(char) in _MARKS else 0
        if run > MAX_MARKS:
            return True
    return False


def check_name(name: str) -> CheckedName:
    """The display name and key of a name a player asked for; :class:`BadName` if it may not
    be used (see the module's documentation for the rules)."""
    text = name.strip()
    if any(unicodedata.category(c) in _CONTROL_CATEGORIES for c in text):
        raise BadName("Names cannot contain control characters or line breaks.")
    if any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        raise BadName("That name is not valid text (it holds an unpaired surrogate).")
    if any(c in _BIDI_CONTROLS for c in text):
        raise BadName("Names cannot contain characters that change the direction of text.")
    if any(unicodedata.category(c) in _UNSHOWABLE_CATEGORIES
           or (unicodedata.category(c) == "Cf" and ord(c) not in _INVISIBLE)
           or c == "\ufffc" for c in text):
        raise BadName("Names cannot contain formatting, private or unassigned characters.")
    if _too_many_marks(text):
        raise BadName(f"A letter of a name may carry at most {MAX_MARKS} accents.")
    if not text.translate(_BLANK):
        raise BadName("Please enter a name with at least one visible character.")
    display = " ".join(text.split())
    if len(display) > NAME_MAX:
        raise BadName(f"Names have at most {NAME_MAX} characters.")
    if passes_for_a_bot(display):
        raise BadName("That name passes for one of the room's bots; please choose another.")
    if name_key(display) == name_key(DELETED_NAME):
        raise BadName("That name stands for deleted accounts; please choose another.")
    return CheckedName(display, name_key(display))
