"""Thousand (1000) for three players (or four, the dealer sitting out): rules, presets, the
pack's tables and the match engine (``game.py`` assembling ``state``, ``bidding``, ``bank``,
``play``, ``scoring`` and ``view``; the view's shape is ``shapes.ThousandView``).

The public surface other layers use::

    from cardroom.games.thousand import Game, Rules, Action, trick_winner
"""

from cardroom.games.base import IllegalAction
from cardroom.games.record import Record
from cardroom.games.thousand.actions import Action
from cardroom.games.thousand.deck import (
    MARRIAGE_POINTS,
    PACK_MASK,
    POINTS,
    marriages_in,
    playable,
    points_of,
    trick_winner,
)
from cardroom.games.thousand.game import GAME_NAME, Game
from cardroom.games.thousand.pbn import to_pbn
from cardroom.games.thousand.rules import PRESET_NAMES, Rules, RulesError
from cardroom.games.thousand.scoring import (
    CONTRACT_LEVELS,
    DealScore,
    HandResult,
    contract_kind,
    contract_label,
    score_deal,
)
from cardroom.games.thousand.shapes import ThousandView

VIEW_SHAPE = ThousandView
"""The typed structure of a 1000 view (the registry's ``view_shape``)."""

__all__ = [
    "CONTRACT_LEVELS",
    "GAME_NAME",
    "MARRIAGE_POINTS",
    "PACK_MASK",
    "POINTS",
    "PRESET_NAMES",
    "VIEW_SHAPE",
    "Action",
    "DealScore",
    "Game",
    "HandResult",
    "IllegalAction",
    "Record",
    "Rules",
    "RulesError",
    "ThousandView",
    "contract_kind",
    "contract_label",
    "marriages_in",
    "playable",
    "points_of",
    "score_deal",
    "to_pbn",
    "trick_winner",
]
