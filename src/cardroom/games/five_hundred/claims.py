"""Claims in the play of 500: a player says how many of the tricks left their side takes.

Under the ``claims`` option the player on lead (``lead``), or any player at their turn to play
(``turn``), may claim at a table of four in two partnerships: ``claim 4`` gives the
claimant's side four of the tricks left and the other side the rest. In a no-tricks contract
only its players may claim, and only that their side takes none (``claim 0``); Across The
Corner and Hi/Lo, where no side simply wants more or fewer tricks, have no claims.

The claimant's hand is shown to all from the claim on. The engine cannot prove a claim (it
would need the solver, which lives with the bots): the room proves it first and, when the
solver shows the claim holds against any defence, applies ``claim 4 proven``, which ends the
hand at once. Any other claim is put to the opponents, who ``accept`` or ``refuse`` in turn
clockwise from the claimant (``claim_consent``: both must accept, or one suffices). A claim
that stands scores the hand as if the tricks had been played so: the claimant is given its
side's tricks and the first opponent after it the rest. A refused claim lets play go on
where it stopped, and the claimant may not claim again until that trick is over.
"""

from __future__ import annotations

from typing import Any

from cardroom.games.base import IllegalAction
from cardroom.games.five_hundred.actions import ACCEPT, ACCEPT_ACTION, REFUSE_ACTION, Action
from cardroom.games.five_hundred.bids import Contract
from cardroom.games.five_hundred.scoring import end_hand
from cardroom.games.five_hundred.shapes import ClaimView
from cardroom.games.five_hundred.state import CLAIM_PHASE, PLAYING, TRICKS_PER_HAND, State

CLAIM_PLAYERS = 4
"""Claims are played at tables of four in two partnerships (where each side's tricks are
its two seats' together, however a claim gives them out)."""
NO_CLAIM_CONTRACTS = frozenset({Contract.ACROSS_THE_CORNER, Contract.HI_LO})
"""Contracts whose players neither simply want tricks nor simply want none."""


def tricks_left(game: State) -> int:
    """The tricks not yet won this hand (the one in progress included)."""
    return TRICKS_PER_HAND - len(game.completed)


def claim_side(game: State, seat: int) -> tuple[int, ...]:
    """The seats playing the hand on ``seat``'s side (its partner unless folded)."""
    side = game.team_of[seat]
    return tuple(s for s in game.active if game.team_of[s] == side)


def wants_tricks(game: State, seat: int) -> bool:
    """Whether ``seat``'s side scores by taking tricks (not the players of a no-tricks
    contract)."""
    return seat not in game.makers()


def claim_refusal(game: State, seat: int) -> str | None:
    """Why ``seat`` may not claim now, or ``None`` when it may."""
    rules = game.rules
    if rules.claims == "off":
        return "This table does not allow claims."
    if rules.players != CLAIM_PLAYERS or len(game.teams) != 2:
        return "Claims are played at tables of four in two partnerships."
    if game._phase != PLAYING:
        return "Claims are made in the play of the cards."
    if game._to_act != seat:
        return "You may claim only at your turn to play."
    if rules.claims == "lead" and game.trick:
        return "At this table only the player on lead may claim, before the trick's first card."
    if game.claim_barred >> seat & 1:
        return "Your claim was refused: you may claim again once this trick is over."
    contract = game.contract
    if contract is not None and contract.contract in NO_CLAIM_CONTRACTS:
        return f"Nobody claims in {contract.name}."
    if contract is not None and contract.is_misere_type and seat not in game.makers():
        return "In a no-tricks contract only its players claim (that they take no more tricks)."
    return None


def claim_counts(game: State, seat: int) -> tuple[int, ...]:
    """The trick counts ``seat`` may claim now (none when it may not claim)."""
    return () if claim_refusal(game, seat) is not None else _counts(game, seat)


def _counts(game: State, seat: int) -> tuple[int, ...]:
    """The trick counts of a seat that may claim: none of the tricks left in a no-tricks
    contract, any number of them otherwise."""
    return (0,) if not wants_tricks(game, seat) else tuple(range(tricks_left(game) + 1))


def opponents_to_answer(game: State, seat: int) -> tuple[int, ...]:
    """The playing seats not on ``seat``'s side, clockwise from it: who answers its claim."""
    side = claim_side(game, seat)
    order = [(seat + step) % game.players for step in range(1, game.players)]
    return tuple(s for s in order if s in game.active and s not in side)


def claim(game: State, seat: int, action: Action) -> list[dict[str, Any]]:
    """``seat`` claims ``action.claimed`` of the tricks left (``IllegalAction`` if it may
    not): a proven claim ends the hand; any other waits for the opponents' answers."""
    refusal = claim_refusal(game, seat)
    if refusal is not None:
        raise IllegalAction(refusal)
    counts = _counts(game, seat)
    if action.claimed not in counts:
        raise IllegalAction(
            "In a no-tricks contract you may only claim that you take no more tricks."
            if counts == (0,) else
            f"{tricks_left(game)} tricks are left: claim from 0 to {counts[-1]} of them.")
    if seat not in game.open_seats:
        game.open_seats = (*game.open_seats, seat)
    event = {"type": "claim", "seat": seat, "tricks": action.claimed,
             "remaining": tricks_left(game), "proven": action.proven,
             "hand": shown_hand(game, seat)}
    game.claimant, game.claimed = seat, action.claimed
    if action.proven:
        return [event, *settle(game)]
    game._phase = CLAIM_PHASE
    game.claim_waiting = opponents_to_answer(game, seat)
    game.claim_accepted = ()
    game._to_act = game.claim_waiting[0]
    return [event]


def shown_hand(game: State, seat: int) -> list[str]:
    """The claimant's cards as its shown hand lists them."""
    from cardroom.games.five_hundred.view import sort_hand  # the view imports this module

    return [card.text for card in sort_hand(game, game.hands[seat])]


def legal_answers(game: State) -> list[Action]:
    """An opponent's answers to the claim put to it."""
    return [ACCEPT_ACTION, REFUSE_ACTION]


def answer(game: State, seat: int, action: Action) -> list[dict[str, Any]]:
    """The opponent to answer accepts or refuses the claim: the claim stands once enough of
    them accept (``claim_consent``), and play goes on once it cannot."""
    if action not in (ACCEPT_ACTION, REFUSE_ACTION):
        raise IllegalAction("A claim waits for your answer: 'accept' or 'refuse'.")
    accepted = action.kind == ACCEPT
    event = {"type": "claim_answer", "seat": seat, "accepted": accepted}
    waiting = game.claim_waiting[1:]
    if accepted:
        game.claim_accepted = (*game.claim_accepted, seat)
    needs_all = game.rules.claim_consent == "both"
    if accepted and (not needs_all or not waiting):
        return [event, *settle(game)]
    if not waiting or (needs_all and not accepted):
        return [event, *resume(game)]
    game.claim_waiting = waiting
    game._to_act = waiting[0]
    return [event]


def settle(game: State) -> list[dict[str, Any]]:
    """The claim stands: its side takes the tricks claimed, the other side the rest (given to
    the claimant and to the first opponent after it), and the hand is scored."""
    seat: int = game.claimant  # type: ignore[assignment]
    left = tricks_left(game)
    game.tricks_won[seat] += game.claimed
    game.tricks_won[opponents_to_answer(game, seat)[0]] += left - game.claimed
    event = {"type": "claim_settled", "seat": seat, "tricks": game.claimed,
             "conceded": left - game.claimed}
    game.trick, game.trick_seats = [], []
    _clear(game)
    return [event, *end_hand(game)]


def resume(game: State) -> list[dict[str, Any]]:
    """The claim is refused: play goes on with the seat that claimed, which may not claim
    again until the trick is over."""
    seat: int = game.claimant  # type: ignore[assignment]
    game.claim_barred |= 1 << seat
    _clear(game)
    game._phase = PLAYING
    game._to_act = seat
    return [{"type": "claim_refused", "seat": seat}]


def _clear(game: State) -> None:
    game.claimant, game.claimed = None, 0
    game.claim_waiting, game.claim_accepted = (), ()


def waiting_claim(game: State) -> ClaimView | None:
    """The claim waiting for answers, as every seat sees it (``None`` when there is none)."""
    if game._phase != CLAIM_PHASE:
        return None
    claimant: int = game.claimant  # type: ignore[assignment]
    return {"seat": claimant, "tricks": game.claimed, "remaining": tricks_left(game),
            "accepted": list(game.claim_accepted), "consent": game.rules.claim_consent}
