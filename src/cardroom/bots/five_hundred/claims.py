"""The double-dummy solver's proof of a claim, and the claims bots make.

A claim (:mod:`cardroom.games.five_hundred.claims`) holds against any defence when the
claimant's side, playing on with every card known, takes at least the tricks it claims
whatever the opponents play (a no-tricks contract's player: takes no more, whatever the
defenders do). The room asks :func:`judged_claim` before it applies a player's claim, in a bot
worker (the solve reads every hand, so it never runs in a bot's own view), and applies the
proven form (``claim 4 proven``) when the solver shows it holds, which ends the hand at once.
:func:`bot_claim` is the claim a bot makes: all the tricks left, when they are proven its
side's.
"""

from __future__ import annotations

import time

from cardroom.bots.five_hundred.solver import FastSearch, Position, SolverTimeout
from cardroom.games.five_hundred import Game
from cardroom.games.five_hundred.actions import CLAIM, CLAIM_ACTIONS, Action
from cardroom.games.five_hundred.claims import (
    claim_counts,
    claim_side,
    tricks_left,
    wants_tricks,
)

PROOF_SECONDS = 3.0
"""How long the solver may take over one proof before the claim counts as not proven (a
full deal takes about 15 ms; the room's worker budget cuts off anything longer anyway)."""
BOT_CLAIM_FROM = 2
"""Bots claim only with at least this many tricks left (the last one is quicker played)."""


def claim_holds(game: Game, seat: int, tricks: int, seconds: float = PROOF_SECONDS) -> bool:
    """Whether ``seat``'s side takes at least ``tricks`` of the tricks left (a no-tricks
    contract's player: at most ``tricks``) against any defence, every card known. A proof
    that runs out of time is no proof."""
    side = claim_side(game, seat)
    position = Position.from_game(game)
    deadline = time.perf_counter() + seconds
    try:
        if wants_tricks(game, seat):
            return tricks == 0 or FastSearch(position, side, deadline, side).reaches(tricks)
        others = tuple(s for s in game.active if s not in side)
        return not FastSearch(position, side, deadline, others).reaches(tricks + 1)
    except SolverTimeout:
        return False


def claim_text(text: str) -> tuple[str, bool] | None:
    """A claim in the engine's own spelling (``claim 4``) and whether it says it is proven
    (which only the room may apply), or ``None`` when ``text`` is no claim. Every action
    a player sends comes through here: one whose first word is not ``claim`` is no claim,
    and is not parsed a first time for nothing."""
    if isinstance(text, str) and text.lstrip()[:len(CLAIM)].lower() != CLAIM:
        return None
    try:
        action = Action.parse(text)
    except ValueError:
        return None
    if action.kind != CLAIM:
        return None
    return CLAIM_ACTIONS[action.claimed, False].text, action.proven


def judged_claim(game: Game, seat: int, text: str) -> str:
    """The action to apply for ``seat``'s claim ``text`` (one of ``game.claim_options``): its
    proven form when the solver proves it, else the claim as made."""
    action = Action.parse(text)
    return CLAIM_ACTIONS[action.claimed, claim_holds(game, seat, action.claimed)].text


def bot_claim_due(game: Game, seat: int) -> bool:
    """Whether a bot in ``seat`` should ask the solver about claiming now: on lead (at a
    table where any player may claim at their turn, a bot still claims only on lead), with at
    least :data:`BOT_CLAIM_FROM` tricks left. Cheap: the room asks it before every bot move."""
    return (not game.trick and tricks_left(game) >= BOT_CLAIM_FROM
            and bool(claim_counts(game, seat)))


def bot_claim(game: Game, seat: int) -> str | None:
    """The claim a bot in ``seat`` makes now: the most it may claim (every trick left; in a
    no-tricks contract, none of them) when the solver proves it, with at least
    :data:`BOT_CLAIM_FROM` tricks left; otherwise ``None``."""
    if not bot_claim_due(game, seat):
        return None
    best = claim_counts(game, seat)[-1]
    return CLAIM_ACTIONS[best, True].text if claim_holds(game, seat, best) else None
