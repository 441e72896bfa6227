"""The terminal client of 500: rich rendering of views and events, and the match loop.

Everything here works from what the engine publishes — a seat's ``view`` and the public
events ``apply`` returns — so the terminal shows a human exactly what the browser would.
Only a replay (``reveal``) looks at every hand, which is fair once the match is over.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from cardroom.bots import Bot
from cardroom.games.base import IllegalAction
from cardroom.games.cards import Card, Suit
from cardroom.games.five_hundred import Bid, Game, strain_for

SEAT_NAMES = ("South", "West", "North", "East")
"""Seat names around the table: play goes clockwise, South → West → North → East."""
TEAM_NAMES = ("North/South", "East/West")
"""Partnerships: seats 0 & 2 and seats 1 & 3."""
TEAM_SHORT = ("N/S", "E/W")
QUIT_WORDS = ("quit", "exit", "q")
HELP_WORDS = ("?", "help", "h")
DISCARD_PHASES = ("discard", "partner_discard")

Reader = Callable[[str], str]
"""Reads one line of input after showing a prompt (``EOFError`` at the end of input)."""


class Quit(Exception):
    """The human left the table (``quit`` or end of input)."""


# -- cards, bids and hands as rich text ----------------------------------------------------


def card_text(text: str) -> Text:
    """A card with its suit symbol, red for hearts and diamonds: ``10H`` → ``10♥``."""
    card = Card.parse(text)
    if card.is_joker:
        return Text(card.text, style="bold magenta")
    suit: Suit = card.suit  # type: ignore[assignment]
    return Text(f"{card.rank}{suit.symbol}", style="red" if suit.is_red else "bold")


def hand_text(texts: Iterable[str], trump: Suit | None = None) -> Text:
    """Cards in the order given, with a wider gap between effective suits (trumps grouped)."""
    strain = strain_for(trump)
    line = Text()
    previous: int | None = None
    for text in texts:
        suit = strain.suit_of[Card.parse(text).index]
        if previous is not None:
            line.append("   " if suit != previous else " ")
        line.append_text(card_text(text))
        previous = suit
    return line


def bid_text(text: str) -> Text:
    """A bid as people say it: ``7H`` → ``7♥``, ``7NT``, ``misère (No Tricks)``, ``pass``."""
    if text == "pass":
        return Text("pass", style="dim")
    bid = Bid.parse(text)
    if bid.tricks and bid.trump is not None:
        return Text(f"{bid.tricks}{bid.trump.symbol}", style="red" if bid.trump.is_red else "bold")
    return Text(bid.text if bid.tricks else bid.name, style="bold")


def _trump_of(view: dict[str, Any]) -> Suit | None:
    contract = view.get("contract") or {}
    return Suit.parse(contract["trump"]) if contract.get("trump") else None


def _joined(parts: Iterable[Text], separator: str = "  ·  ") -> Text:
    return Text(separator).join(parts)


# -- what a human sees at their turn -------------------------------------------------------


class Renderer:
    """Turns views and events into rich renderables, naming seats by ``names``."""

    def __init__(self, names: tuple[str, ...] = SEAT_NAMES) -> None:
        self.names = names

    def table(self, view: dict[str, Any]) -> RenderableType:
        """The whole table as seen by ``view["seat"]``: scores, bidding, contract, trick, hand."""
        trump = _trump_of(view)
        lines: list[RenderableType] = [self._header(view)]
        if view["bidding"]:
            lines.append(Text("Bidding: ").append_text(self._bidding(view["bidding"])))
        if view["contract"] is not None:
            lines.append(self._contract(view))
        if view["trick"]:
            plays = (Text(f"{self.names[p['seat']]} ").append_text(card_text(p["card"]))
                     for p in view["trick"])
            lines.append(Text("Trick: ").append_text(_joined(plays)))
        for seat, cards in view["open_hands"].items():
            lines.append(Text(f"{self.names[int(seat)]}'s open hand: ")
                         .append_text(hand_text(cards, trump)))
        if view["exchange"]:
            label = "From the kitty: " if view["phase"] == "discard" else "Passed to you: "
            lines.append(Text(label).append_text(hand_text(view["exchange"], trump)))
        if view["hand"] is not None:
            lines.append(Text("Your hand: ", style="bold").append_text(
                hand_text(view["hand"], trump)))
        return Panel(Group(*lines), title=f"{self.names[view['seat']]} to act", expand=False)

    def _header(self, view: dict[str, Any]) -> Text:
        dealer = self.names[view["dealer"]]
        return Text(f"Hand {view['hand_number']} · dealer {dealer} · ").append_text(
            self.scores(view["scores"]))

    def scores(self, scores: list[int] | tuple[int, ...]) -> Text:
        """``N/S 120 – E/W 80``."""
        return Text(f"{TEAM_SHORT[0]} {scores[0]} – {TEAM_SHORT[1]} {scores[1]}")

    def _bidding(self, bidding: list[dict[str, Any]]) -> Text:
        return _joined(Text(f"{self.names[b['seat']]} ").append_text(bid_text(b["bid"]))
                       for b in bidding)

    def _contract(self, view: dict[str, Any]) -> Text:
        contract = view["contract"]
        tricks = view["tricks_won"]
        won = f"tricks: {TEAM_SHORT[0]} {tricks[0] + tricks[2]}, " \
              f"{TEAM_SHORT[1]} {tricks[1] + tricks[3]}"
        if contract["contractor"] is None:
            return Text(f"Contract: {contract['name']} · {won}")
        return (Text("Contract: ").append_text(bid_text(contract["bid"]))
                .append(f" by {self.names[contract['contractor']]} ({contract['value']}) · {won}"))

    def history(self, history: list[dict[str, Any]]) -> Table:
        """The score sheet: one row per hand."""
        sheet = Table(title="Hands", show_edge=False)
        for column in ("#", "dealer", "contract", "by", "result", *TEAM_SHORT):
            sheet.add_column(column, justify="right" if column in TEAM_SHORT else "left")
        for hand in history:
            sheet.add_row(str(hand["number"]), self.names[hand["dealer"]],
                          bid_text(hand["contract"]) if hand["contract"] else "—",
                          self.names[hand["contractor"]] if hand["contractor"] is not None
                          else "—", _verdict(hand["made"]),
                          *(f"{p:+d} → {s}" for p, s in zip(hand["points"], hand["scores"],
                                                            strict=True)))
        return sheet

    def hand_line(self, hand: dict[str, Any]) -> Text:
        """A one-line hand result: contract, tricks per side, verdict, points and scores."""
        tricks = hand["tricks"]
        line = Text(f"Hand {hand['number']}: ")
        if hand["contract"]:
            line.append_text(bid_text(hand["contract"]))
            line.append(f" by {self.names[hand['contractor']]}")
        else:
            line.append("no bid")
        line.append(f" · tricks {tricks[0] + tricks[2]}–{tricks[1] + tricks[3]}"
                    f" · {_verdict(hand['made'])} · ")
        points = hand["points"]
        return line.append(f"{points[0]:+d}/{points[1]:+d} · ").append_text(
            self.scores(hand["scores"]))

    def winner(self, winner: int, scores: list[int] | tuple[int, ...]) -> Text:
        """The match result."""
        return Text(f"{TEAM_NAMES[winner]} win the match, ", style="bold green").append_text(
            self.scores(scores))

    def legal_actions(self, view: dict[str, Any]) -> Text:
        """What the seat to act may type now."""
        count = view.get("discard_count")
        if count:
            return Text(f"Put back {count} cards, e.g. 'discard "
                        f"{' '.join(view['hand'][-count:])}'.")
        return Text("You may: ") + Text(", ".join(view["legal_actions"]))


def _verdict(made: bool | None) -> str:
    return {True: "made", False: "failed", None: "—"}[made]


# -- events as they happen -----------------------------------------------------------------


class Narrator:
    """Prints the public events of a match.

    ``detail``: ``summary`` prints one line per hand; ``full`` also the bidding, the kitty and
    every trick. ``reveal``, for replays only, is the game itself: the narrator then shows
    every hand at each deal, the kitty and the discards.
    """

    def __init__(self, console: Console, renderer: Renderer, detail: str = "full",
                 reveal: Game | None = None) -> None:
        self.console = console
        self.renderer = renderer
        self.names = renderer.names
        self.detail = detail
        self.reveal = reveal
        self.trick_number = 0

    def start(self, hand_number: int, dealer: int) -> None:
        """Announce the first deal (at full detail)."""
        if self.detail == "full":
            self._deal({"hand": hand_number, "dealer": dealer})

    def show(self, events: Iterable[dict[str, Any]]) -> None:
        """Print what each event says, at this narrator's level of detail."""
        for event in events:
            handler = getattr(self, "_" + event["type"], None)
            if handler is not None and (self.detail == "full"
                                        or event["type"] in ("hand_scored", "match_over")):
                handler(event)

    def _say(self, text: str | Text) -> None:
        self.console.print(Text(text) if isinstance(text, str) else text)

    def _deal(self, event: dict[str, Any]) -> None:
        self.trick_number = 0
        self.console.print(Rule(f"Hand {event['hand']} · dealer {self.names[event['dealer']]}"))
        if self.reveal is not None:
            for seat in range(4):
                cards = self.reveal.view(seat)["hand"]
                self._say(Text(f"  {self.names[seat]:<6} ").append_text(hand_text(cards)))

    def _pass(self, event: dict[str, Any]) -> None:
        self._say(f"{self.names[event['seat']]} passes")

    def _bid(self, event: dict[str, Any]) -> None:
        self._say(Text(f"{self.names[event['seat']]} bids ").append_text(bid_text(event["bid"])))

    def _all_passed(self, event: dict[str, Any]) -> None:
        outcome = {"play_no_trump": "the hand is played in no trumps at 10 a trick.",
                   "redeal": "the same dealer deals again.",
                   "redeal_then_pass_deal": "the cards are dealt again.",
                   "next_dealer": "the deal passes to the left."}.get(event["outcome"], "")
        self._say(f"Everybody passed: {outcome}")

    def _contract(self, event: dict[str, Any]) -> None:
        self._say(Text(f"{self.names[event['seat']]} wins the bidding with ", style="bold")
                  .append_text(bid_text(event["bid"])).append(f" ({event['value']})"))

    def _kitty_taken(self, event: dict[str, Any]) -> None:
        line = Text(f"{self.names[event['seat']]} takes the kitty")
        if self.reveal is not None:
            line.append(": ").append_text(hand_text(self.reveal.view(event["seat"])["exchange"]))
        self._say(line)

    def _discard(self, event: dict[str, Any]) -> None:
        line = Text(f"{self.names[event['seat']]} puts back {event['count']} cards")
        if self.reveal is not None:
            line.append(": ").append_text(hand_text(self.reveal.view(event["seat"])["discards"]))
        self._say(line)

    def _discards_passed(self, event: dict[str, Any]) -> None:
        self._say(f"{self.names[event['seat']]} passes the discards to {self.names[event['to']]}")

    def _give(self, event: dict[str, Any]) -> None:
        self._say(f"{self.names[event['seat']]} adds a card to the widow")

    def _hand_shown(self, event: dict[str, Any]) -> None:
        self._say(f"{self.names[event['seat']]} lays the hand open")

    def _trick(self, event: dict[str, Any]) -> None:
        self.trick_number += 1
        plays = (Text(f"{self.names[seat]} ").append_text(card_text(card))
                 for seat, card in zip(event["seats"], event["cards"], strict=True))
        line = Text(f"Trick {self.trick_number:>2}: ").append_text(_joined(plays, ", "))
        if event.get("nominated"):
            line.append(f" (joker names {Suit.parse(event['nominated']).symbol})")
        self._say(line.append(f" → {self.names[event['winner']]}", style="bold"))

    def _hand_scored(self, event: dict[str, Any]) -> None:
        if self.detail == "full":
            self._say(Text(event["summary"], style="bold"))
        self._say(self.renderer.hand_line(event))

    def _match_over(self, event: dict[str, Any]) -> None:
        self.console.print(Rule())
        self._say(self.renderer.winner(event["winner"], event["scores"]))


# -- driving a match -----------------------------------------------------------------------


def interpret(text: str, view: dict[str, Any]) -> str:
    """Expand the shortcuts a human may type into the engine's notation.

    A bare bid (``7H``) while bidding, bare cards while discarding and a bare card (``JH``,
    ``JK:H``) while playing or giving; anything else goes to the engine as typed, so that its
    refusal explains what is wrong.
    """
    phase = view["phase"]
    first = text.split()[0].lower()
    if first in ("pass", "bid", "play", "discard", "give", "bye", "p"):
        return text
    verb = {"bidding": "bid", "play": "play", "give": "give"}.get(phase)
    if phase in DISCARD_PHASES:
        verb = "discard"
    return f"{verb} {text}" if verb else text


class TerminalMatch:
    """Plays a match in the terminal: bots take their seats, a human (if any) is prompted."""

    def __init__(self, game: Game, bots: dict[int, Bot], console: Console,
                 human: int | None = None, read: Reader | None = None,
                 detail: str = "full") -> None:
        self.game = game
        self.bots = bots
        self.console = console
        self.human = human
        self.read = read or console.input
        names = list(SEAT_NAMES)
        if human is not None:
            names[human] = f"{names[human]} (you)"
        self.renderer = Renderer(tuple(names))
        self.narrator = Narrator(console, self.renderer, detail)

    def run(self) -> bool:
        """Play until the match is over (``True``) or the human quits (``False``)."""
        game = self.game
        self.narrator.start(game.hand_number, game.dealer)
        try:
            while not game.is_over:
                seat: int = game.to_act  # type: ignore[assignment]
                if seat == self.human:
                    events = self._human_turn(seat)
                else:
                    events = game.apply(self.bots[seat].choose(game.view(seat)))
                self.narrator.show(events)
                if self.human is not None and any(e["type"] == "hand_scored" for e in events):
                    self.console.print(self.renderer.history(game.view(self.human)["history"]))
        except Quit:
            self.console.print("You leave the table. Goodbye.")
            return False
        return True

    def _human_turn(self, seat: int) -> list[dict[str, Any]]:
        """Show the table, then ask until the human gives a legal action."""
        view = self.game.view(seat)
        self.console.print(self.renderer.table(view))
        while True:
            text = self._ask(view)
            if text.lower() in HELP_WORDS:
                self.console.print(self.renderer.legal_actions(view))
                continue
            try:
                return self.game.apply(interpret(text, view), seat=seat)
            except IllegalAction as error:
                self.console.print(Text(f"Not allowed: {error}", style="red"))

    def _ask(self, view: dict[str, Any]) -> str:
        """One non-empty line of input; ``Quit`` on a quit word or the end of input."""
        prompt = {"bidding": "Your bid", "play": "Your card", "give": "Card to give"}.get(
            view["phase"], f"Discard {view.get('discard_count')}")
        while True:
            try:
                text = self.read(f"{prompt} (? for help) > ").strip()
            except EOFError:
                raise Quit from None
            if text.lower() in QUIT_WORDS:
                raise Quit
            if text:
                return text


def replay_match(start: Game, actions: list[str], console: Console) -> None:
    """Print a recorded match hand by hand, with every deal, bid and trick, from ``start``."""
    renderer = Renderer()
    narrator = Narrator(console, renderer, "full", reveal=start)
    narrator.start(start.hand_number, start.dealer)
    for action in actions:
        narrator.show(start.apply(action))
    if start.history:
        console.print(renderer.history(start.view(None)["history"]))
    if not start.is_over:
        console.print(Text("The record ends before the match does.", style="yellow"))


def replay_any(start: Any, actions: list[str], console: Console) -> None:
    """Print a recorded match of any game from ``start`` (its first state): each deal, every
    action by seat, each trick with its winner and each deal's result. The plain companion
    of :func:`replay_match`, for games without a renderer of their own (1000)."""
    for number, action in enumerate(actions):
        seat = start.to_act
        events = start.apply(action)
        if number == 0:
            console.print(Rule(f"Deal {start.hand_number} · dealer Seat {start.dealer}"))
        console.print(Text(f"Seat {seat}: {action}"))
        for event in events:
            if event["type"] == "trick":
                plays = ", ".join(f"Seat {who} {card}"
                                  for who, card in zip(event["seats"], event["cards"], strict=True))
                console.print(Text(f"  trick: {plays} → Seat {event['winner']}", style="bold"))
            elif event["type"] == "hand_scored":
                console.print(Text(f"{event['summary']} Points {event['points']}, "
                                   f"scores {event['scores']}", style="bold"))
            elif event["type"] == "deal":
                console.print(Rule(f"Deal {event['hand']} · dealer Seat {event['dealer']}"))
    if not start.is_over:
        console.print(Text("The record ends before the match does.", style="yellow"))

