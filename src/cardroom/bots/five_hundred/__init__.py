"""The bots of 500: the simple bot, the rules bot and the search bot over the double-dummy
solver, with the 500 know-how they share (reading a view, valuing a hand, match tactics,
who wants what in the play, sampled bidding).

Each bot reads nothing but a seat's view; the registry in :mod:`cardroom.bots` names them.
"""

from __future__ import annotations

from cardroom.bots.five_hundred.rules_bot import RulesBot
from cardroom.bots.five_hundred.search import SearchBot
from cardroom.bots.five_hundred.simple import SimpleBot

__all__ = ["RulesBot", "SearchBot", "SimpleBot"]
