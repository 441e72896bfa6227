"""Five Hundred (500) for three to six players: rules, presets, bids, tricks and the engine.

The public surface other layers use::

    from cardroom.games.five_hundred import Game, Rules, Action, Bid, trick_winner
"""

from cardroom.games.base import IllegalAction
from cardroom.games.five_hundred.actions import Action, DiscardChoices
from cardroom.games.five_hundred.bids import Bid, Contract, bid_value
from cardroom.games.five_hundred.game import Game, HandResult
from cardroom.games.five_hundred.rules import ALL_PRESET_NAMES, PRESET_NAMES, Rules, RulesError
from cardroom.games.five_hundred.tricks import Strain, strain_for, trick_winner
from cardroom.games.record import Record

__all__ = [
    "ALL_PRESET_NAMES",
    "PRESET_NAMES",
    "Action",
    "Bid",
    "Contract",
    "DiscardChoices",
    "Game",
    "HandResult",
    "IllegalAction",
    "Record",
    "Rules",
    "RulesError",
    "Strain",
    "bid_value",
    "strain_for",
    "trick_winner",
]
