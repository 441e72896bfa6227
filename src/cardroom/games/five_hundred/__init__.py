"""Five Hundred (500) for two to six players: rules, presets, bids, tricks and the engine.

The public surface other layers use::

    from cardroom.games.five_hundred import Game, Rules, Action, Bid, trick_winner
"""

from cardroom.games.base import IllegalAction
from cardroom.games.five_hundred.actions import Action, DiscardChoices
from cardroom.games.five_hundred.bids import Bid, Contract, bid_value
from cardroom.games.five_hundred.game import Game, HandResult
from cardroom.games.five_hundred.pbn import to_pbn
from cardroom.games.five_hundred.rules import ALL_PRESET_NAMES, PRESET_NAMES, Rules, RulesError
from cardroom.games.five_hundred.scoring import CONTRACT_LEVELS, contract_kind, contract_label
from cardroom.games.five_hundred.shapes import FiveHundredView
from cardroom.games.five_hundred.tricks import Strain, strain_for, trick_winner
from cardroom.games.record import Record

VIEW_SHAPE = FiveHundredView
"""The typed structure of a 500 view (the registry's ``view_shape``)."""

__all__ = [
    "ALL_PRESET_NAMES",
    "CONTRACT_LEVELS",
    "PRESET_NAMES",
    "VIEW_SHAPE",
    "Action",
    "Bid",
    "Contract",
    "DiscardChoices",
    "FiveHundredView",
    "Game",
    "HandResult",
    "IllegalAction",
    "Record",
    "Rules",
    "RulesError",
    "Strain",
    "bid_value",
    "contract_kind",
    "contract_label",
    "strain_for",
    "to_pbn",
    "trick_winner",
]
