"""The bots of 1000: the rules bot (a club player's heuristics over a count of the cards) and
the search bot (sampled deals solved double-dummy), both reading only a seat's view; the
registry in :mod:`cardroom.bots` names them.
"""

from __future__ import annotations

from cardroom.bots.thousand.rules_bot import ThousandRulesBot
from cardroom.bots.thousand.search import ThousandSearchBot

__all__ = ["ThousandRulesBot", "ThousandSearchBot"]
