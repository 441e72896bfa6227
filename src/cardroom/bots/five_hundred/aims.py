"""Who wants what in a hand's card play: the one place that decides, for every contract,
whose tricks the double-dummy solver counts and which seats want that count high.

The rule is the score's: the seats that want the counted number high are exactly those whose
score rises with it. In a trick contract that is the contract's side, which counts its own
tricks. In a no-tricks contract (misère, open and blind misère, Nello, double nullo, Across
The Table, Shields double, patastrophe, and Across The Corner, where the contractor's and the
opponent's tricks are counted against each other) the makers' tricks are counted and it is
the defence that wants them high: every trick the makers take breaks the contract and, where
defenders score, scores for the defence. The search bot (and through it the hints) and the
after-the-fact analysis all ask :func:`contract_aims`, so they cannot disagree about it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from cardroom.bots.five_hundred.knowledge import contract_bid, friends_of, team_of
from cardroom.bots.seen import seat_of
from cardroom.games.five_hundred import Bid
from cardroom.games.five_hundred.shapes import FiveHundredView


@dataclass(frozen=True)
class Aims:
    """The solver's objective for one hand's play."""

    counted: tuple[int, ...]
    """The playing seats whose tricks are counted: the seats playing for the contract (the
    makers of a no-tricks contract; Across The Corner's contractor), or with no contract the
    scoring side asked for."""
    maximisers: tuple[int, ...]
    """The playing seats whose score rises with the counted tricks; every other playing seat
    wants them low."""


def contract_aims(bid: Bid | None, active: Sequence[int], side: Iterable[int]) -> Aims | None:
    """The aims of the seats in ``active`` (those that play the hand) under the contract
    ``bid``, where ``side`` holds the seats playing for the contract: the contractor with its
    team, or with five players its called partners (seats that fold may be in it). With no
    contract (everybody passed and the hand is played for 10 a trick) ``side`` is the scoring
    side whose tricks to count. ``None`` for Hi/Lo, whose bidder must take exactly five
    tricks: no seat simply wants more or fewer, so the solver has no objective for it."""
    members = set(side)
    playing = tuple(seat for seat in active if seat in members)
    others = tuple(seat for seat in active if seat not in members)
    if bid is None or bid.is_trick_bid:
        return Aims(counted=playing, maximisers=playing)
    if bid.is_misere_type:
        return Aims(counted=playing, maximisers=others)
    return None


def view_aims(view: FiveHundredView) -> Aims | None:
    """:func:`contract_aims` for the hand a seat's view shows; with no contract the counted
    side is the viewer's own. The contract's side is what the view tells of it (with five
    players, partners not yet revealed are missing from it)."""
    contract = view.get("contract")
    bid = contract_bid(view)
    playing = contract.get("playing") if contract else None
    active = tuple(playing or range(len(view["hand_sizes"])))
    contractor = contract.get("contractor") if contract else None
    if bid is None or contractor is None:
        return contract_aims(None, active, team_of(view, seat_of(view)))
    return contract_aims(bid, active, friends_of(view, contractor))


def game_aims(game: Any) -> Aims | None:
    """:func:`contract_aims` for the hand a game (the engine's ``Game``, every card known) is
    playing; with no contract the counted side is the first team (seats 0 & 2 of four)."""
    if game.contract is None or game.contractor is None:
        return contract_aims(None, game.active, game.teams[0])
    return contract_aims(game.contract, game.active, game.contract_side)
