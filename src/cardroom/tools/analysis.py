"""After the fact, in the terminal: `cardroom analyse` prints what was makeable with all cards
visible and which plays cost tricks (the analysis itself is
:mod:`cardroom.bots.five_hundred.analysis`, which the room's replays show too).
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from cardroom.bots.five_hundred.analysis import (
    MAX_SOLVED_PLAYERS,
    HandAnalysis,
    Slip,
    analyse,
    check_solvable,
    hands_to_analyse,
)
from cardroom.tools.terminal import Renderer, bid_text, card_text

__all__ = ["MAX_SOLVED_PLAYERS", "HandAnalysis", "Slip", "analyse", "check_solvable",
           "hand_report", "hands_to_analyse"]


# -- the review as people read it ---------------------------------------------------------------


def hand_report(hand: HandAnalysis, renderer: Renderer) -> RenderableType:
    """One hand of the review: its contract and what was makeable and made, then each slip on
    a line of its own, wrapped under its own indent."""
    names = renderer.names
    title = Text()
    if hand.contract is None or hand.contractor is None:
        title.append("nobody bid; played in no trumps.")
    else:
        title.append_text(bid_text(renderer.style, hand.contract)).append(
            f" by {names[hand.contractor]}.")
    if hand.makeable is not None:
        counted = " & ".join(names[seat] for seat in hand.makers)
        take, they = ("takes", "") if len(hand.makers) == 1 else ("take", "they ")
        title.append(f" Double dummy {counted} {take} {hand.makeable}; {they}took {hand.taken}.")
    slips = Table.grid(padding=(0, 1))
    slips.add_column(width=1)
    slips.add_column(no_wrap=True)
    slips.add_column()
    for slip in hand.slips:
        slips.add_row("", f"trick {slip.trick}:", _slip_text(slip, names))
    if not hand.slips:
        slips.add_row("", "no card cost a trick.")
    heading = Table.grid(padding=(0, 1))
    heading.add_column(no_wrap=True, style="bold")
    heading.add_column()
    heading.add_row(f"Hand {hand.number}:", title)
    return Group(heading, slips)


def _slip_text(slip: Slip, names: tuple[str, ...]) -> Text:
    """``West played 6♥, 1 trick worse than A♥ or K♥``."""
    line = Text(f"{names[slip.seat]} played ").append_text(card_text(slip.played))
    line.append(f", {slip.lost} trick{'s' * (slip.lost != 1)} worse than ")
    best = [card_text(card) for card in slip.best]
    return line.append_text(Text(" or ").join(best))
