"""The terminal client of the card room's games: rich rendering of views and events, and the
match loop.

Everything here works from what an engine publishes — a seat's ``view`` and the public events
``apply`` returns — so the terminal shows a human exactly what the browser would, for any game
of the registry. Only a replay (``reveal``) looks at every hand, which is fair once the match is
over. How a game's bids and cards read (500's bowers belong to trumps) comes from its registry
entry's ``card_words``; the terminal only colours them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from cardroom.bots import GAME_CLAIMS, Bot
from cardroom.games.base import Game, GameView, IllegalAction
from cardroom.games.cards import Card, Suit, cards_of
from cardroom.games.registry import game_spec
from cardroom.games.text import CardWords, suits_as_symbols

SEAT_NAMES_BY_PLAYERS: dict[int, tuple[str, ...]] = {
    2: ("South", "North"),
    3: ("South", "West", "East"),
    4: ("South", "West", "North", "East"),
    5: ("South", "West", "North-West", "North-East", "East"),
    6: ("South", "South-West", "North-West", "North", "North-East", "South-East"),
}
"""Seat names around a table of each size; play goes clockwise, starting from South. Two
players face each other, as at a table for four whose side seats are empty (two-handed 500
deals its dead hands there)."""
SEAT_NAMES = SEAT_NAMES_BY_PLAYERS[4]
QUIT_WORDS = ("quit", "exit", "q")
HELP_WORDS = ("?", "help", "h")
NOT_VERBS = ("pass", "look")
"""Actions that name no cards or points, so they never give the verb a bare entry takes."""
VERBS = ("bid", "play", "discard", "give", "bet", "bye", "p", "claim", "accept", "refuse",
         *NOT_VERBS)
"""First words that make an entry a whole action, passed to the engine as typed."""
PROMPTS = {"bid": "Your bid", "play": "Your card", "give": "Cards to give", "bet": "Your bet",
           "discard": "Discard"}

Reader = Callable[[str], str]
"""Reads one line of input after showing a prompt (``EOFError`` at the end of input)."""


class Quit(Exception):
    """The human left the table (``quit`` or end of input)."""


# -- cards and bids as rich text ----------------------------------------------------------------


def card_text(text: str, mark: str = "") -> Text:
    """A card with its suit symbol, red for hearts and diamonds: ``10H`` → ``10♥``; ``mark`` is
    appended (a bower's ``(R)``)."""
    name, _, named = text.partition(":")
    card = Card.parse(name)
    if card.is_joker:
        return Text("Joker" + (f"({Suit.parse(named).symbol})" if named else ""),
                    style="bold magenta")
    suit: Suit = card.suit  # type: ignore[assignment]
    return Text(f"{card.rank}{suit.symbol}{mark}", style="red" if suit.is_red else "bold")


def bid_text(words: CardWords, bid: object) -> Text:
    """A bid or pass as people say it, in the game's words: ``pass`` dim, a red suit red."""
    if bid == "pass":
        return Text("pass", style="dim")
    said = words.bid_words(str(bid))
    return Text(said, style="red" if any(suit in said for suit in "♥♦") else "bold")


def _joined(parts: Iterable[Text], separator: str = "  ·  ") -> Text:
    return Text(separator).join(parts)


def _verdict(made: bool | None) -> str:
    return {True: "made", False: "failed", None: "—"}[made]


# -- seats and sides ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Seating:
    """Who sits where: a name per seat and the sides that keep a score (a partnership, or one
    seat), as the game's registry entry gives them."""

    names: tuple[str, ...]
    sides: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, game: Any, human: int | None = None) -> Seating:
        """The seating of ``game``; the human's seat is marked ``(you)``."""
        view = game.view(None)
        spec = game_spec(view["game"])
        rules = spec.rules_from_dict(view["rules"])
        players = spec.players(rules)
        names = list(SEAT_NAMES_BY_PLAYERS.get(players, [f"Seat {s + 1}" for s in
                                                         range(players)]))
        if human is not None:
            names[human] = f"{names[human]} (you)"
        return cls(tuple(names), tuple(map(tuple, spec.teams(rules))))

    def side_name(self, side: int) -> str:
        """``N/S`` for a partnership (``S/NW/NE`` for three), the seat's name for a side of
        one."""
        seats = self.sides[side]
        if len(seats) == 1:
            return self.names[seats[0]]
        initials = ["".join(word[0] for word in self.names[s].split()[0].split("-"))
                    for s in seats]
        return "/".join(sorted(initials) if len(initials) == 2 else initials)

    def per_side(self, numbers: Sequence[int]) -> tuple[int, ...]:
        """Per-seat counts (tricks) summed for each side."""
        return tuple(sum(numbers[s] for s in seats) for seats in self.sides)

    def scores(self, scores: Sequence[int]) -> Text:
        """``N/S 120 – E/W 80``."""
        return Text(" – ".join(f"{self.side_name(side)} {score}"
                               for side, score in enumerate(scores)))


# -- what a human sees at their turn ------------------------------------------------------------


def trump_of(view: GameView) -> Suit | None:
    """The trump suit a view names (the contract's in 500, the declared one in 1000)."""
    letter = view.get("trump") or (view.get("contract") or {}).get("trump")
    return Suit.parse(letter) if letter else None


class Renderer:
    """Turns views and events into rich renderables for one game and seating."""

    def __init__(self, seating: Seating, style: CardWords) -> None:
        self.seating = seating
        self.names = seating.names
        self.style = style

    @classmethod
    def of(cls, game: Game, human: int | None = None) -> Renderer:
        """The renderer of a match: its seats' names and its game's card words."""
        return cls(Seating.of(game, human), game_spec(game.view(None)["game"]).card_words)

    def hand(self, texts: Iterable[str], trump: Suit | None = None) -> Text:
        """Cards in the order given, a wider gap between suits (trumps grouped), bowers
        marked."""
        line = Text()
        previous: int | None = None
        for text in texts:
            card = Card.parse(text)
            suit = self.style.group_of(card, trump)
            if line:
                line.append("   " if suit != previous else " ")
            line.append_text(card_text(text, self.style.mark(card, trump)))
            previous = suit
        return line

    def table(self, view: GameView) -> RenderableType:
        """The whole table as seen by ``view["seat"]``: scores, bidding, contract, trick, hand."""
        trump = trump_of(view)
        lines: list[RenderableType] = [self._header(view)]
        if view["bidding"]:
            lines.append(Text("Bidding: ").append_text(self._bidding(view["bidding"])))
        if view["contract"] is not None:
            lines.append(self._contract(view))
        if view["trick"]:
            lines.append(Text("Trick: ").append_text(self.plays(
                [p["seat"] for p in view["trick"]], [p["card"] for p in view["trick"]])))
        for seat, cards in (view.get("open_hands") or {}).items():
            lines.append(Text(f"{self.names[int(seat)]}'s open hand: ")
                         .append_text(self.hand(cards, trump)))
        for label, cards in self._extra_cards(view):
            lines.append(Text(label).append_text(self.hand(cards, trump)))
        if view["hand"] is not None:
            lines.append(Text("Your hand: ", style="bold").append_text(
                self.hand(view["hand"], trump)))
            if any(self.style.mark(Card.parse(c), trump) for c in view["hand"]):
                lines.append(Text("(R), (L): the right and left bowers", style="dim"))
        return Panel(Group(*lines), title=f"{self.names[view['seat']]} to act", expand=False)

    @staticmethod
    def _extra_cards(view: GameView) -> list[tuple[str, list[str]]]:
        """Cards beside the hand: the kitty taken or the cards passed (500), the bank (1000)."""
        extra = []
        if view.get("exchange"):
            label = "From the kitty: " if view["phase"] == "discard" else "Passed to you: "
            extra.append((label, view["exchange"]))
        if view.get("bank"):
            extra.append(("The bank: ", view["bank"]))
        return extra

    def plays(self, seats: Sequence[int], cards: Sequence[str]) -> Text:
        """``West 10♥, North J♥``."""
        return _joined((Text(f"{self.names[seat]} ").append_text(card_text(card))
                        for seat, card in zip(seats, cards, strict=True)), ", ")

    def _header(self, view: GameView) -> Text:
        dealer = self.names[view["dealer"]]
        return Text(f"Hand {view['hand_number']} · dealer {dealer} · ").append_text(
            self.seating.scores(view["scores"]))

    def _bidding(self, bidding: list[dict[str, Any]]) -> Text:
        return _joined(Text(f"{self.names[b['seat']]} ").append_text(bid_text(self.style, b["bid"]))
                       for b in bidding)

    def _contract(self, view: GameView) -> Text:
        contract = view["contract"]
        won = ", ".join(f"{self.seating.side_name(side)} {count}" for side, count
                        in enumerate(self.seating.per_side(view["tricks_won"])))
        line = Text("Contract: ")
        if contract["contractor"] is None:
            line.append(contract.get("name", "none"))
        else:
            line.append_text(bid_text(self.style, contract.get("bet") or contract["bid"]))
            line.append(f" by {self.names[contract['contractor']]}")
            if contract.get("value"):
                line.append(f" ({contract['value']})")
        trump = trump_of(view)
        if view.get("trump") and trump is not None:
            line.append(f" · trumps {trump.symbol}")
        return line.append(f" · tricks: {won}")

    def history(self, history: list[dict[str, Any]]) -> Table:
        """The score sheet: one row per hand."""
        sides = [self.seating.side_name(side) for side in range(len(self.seating.sides))]
        sheet = Table(title="Hands", show_edge=False)
        for column in ("#", "dealer", "contract", "by", "result"):
            sheet.add_column(column)
        for side in sides:
            sheet.add_column(side, justify="right")
        for hand in history:
            contract = _contract_of(hand)
            sheet.add_row(str(hand["number"]), self.names[hand["dealer"]],
                          bid_text(self.style, contract) if contract else "—",
                          self.names[hand["contractor"]] if hand["contractor"] is not None
                          else "—", _verdict(hand["made"]),
                          *(f"{p:+d} → {s}" for p, s in zip(self._side_points(hand),
                                                            hand["scores"], strict=True)))
        return sheet

    def _side_points(self, hand: dict[str, Any]) -> list[int]:
        """A hand's points per side (a game scoring partners once or each seat)."""
        points = hand["points"]
        if len(points) == len(self.seating.sides):
            return list(points)
        return [points[seats[0]] for seats in self.seating.sides]

    def hand_line(self, hand: dict[str, Any]) -> Text:
        """A one-line hand result: contract, tricks per side, verdict, points and scores."""
        contract = _contract_of(hand)
        line = Text(f"Hand {hand['number']}: ")
        if contract:
            line.append_text(bid_text(self.style, contract))
            line.append(f" by {self.names[hand['contractor']]}")
        else:
            line.append("no bid")
        tricks = "–".join(map(str, self.seating.per_side(hand["tricks"])))
        line.append(f" · tricks {tricks} · {_verdict(hand['made'])} · ")
        points = "/".join(f"{p:+d}" for p in self._side_points(hand))
        return line.append(f"{points} · ").append_text(self.seating.scores(hand["scores"]))

    def winner(self, winner: int, scores: Sequence[int]) -> Text:
        """The match result."""
        name = self.seating.side_name(winner)
        verb = "wins" if len(self.seating.sides[winner]) == 1 else "win"
        return Text(f"{name} {verb} the match, ", style="bold green").append_text(
            self.seating.scores(scores))

    def legal_actions(self, view: GameView) -> Text:
        """What the seat to act may type now; each bid with the points it is worth."""
        count = view.get("discard_count")
        if count and not view["legal_actions"]:
            return Text(f"Put back {count} cards, e.g. 'discard "
                        f"{' '.join(view['hand'][-count:])}'.")
        values = {entry["bid"]: entry["value"] for entry in view.get("ladder") or ()}
        shown = [f"{action} ({values[action[4:]]})" if action[4:] in values else action
                 for action in view["legal_actions"]]
        line = Text("You may: ") + Text(", ".join(shown))
        claims = view.get("claims") or []
        if claims:
            counts = "0" if claims == [0] else f"0 to {claims[-1]}"
            line.append(f"; or claim the tricks your side takes of those left ('claim N', "
                        f"N {counts}): your hand is shown, the solver ends the hand if the "
                        "claim is sure, else the opponents accept or refuse it")
        return line


def _contract_of(hand: dict[str, Any]) -> object:
    """A hand result's contract: 500's bid text, 1000's bet."""
    return hand.get("contract") or hand.get("bet") or hand.get("bid")


# -- events as they happen ----------------------------------------------------------------------


class Narrator:
    """Prints the public events of a match.

    ``detail``: ``summary`` prints one line per hand; ``full`` also the bidding, the exchange
    and every trick. ``reveal``, for replays only, is the game itself: the narrator then shows
    every hand at each deal and the cards exchanged.
    """

    def __init__(self, console: Console, renderer: Renderer, detail: str = "full",
                 reveal: Game | None = None) -> None:
        self.console = console
        self.renderer = renderer
        self.names = renderer.names
        self.style = renderer.style
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

    def _seat(self, event: dict[str, Any]) -> str:
        return self.names[event["seat"]]

    def _revealed(self, seat: int, key: str) -> list[str] | None:
        """A seat's cards under ``key`` of its view, in a replay only."""
        return None if self.reveal is None else self.reveal.view(seat).get(key)

    def _deal(self, event: dict[str, Any]) -> None:
        self.trick_number = 0
        self.console.print(Rule(f"Hand {event['hand']} · dealer {self.names[event['dealer']]}"))
        for seat in range(len(self.names)) if self.reveal is not None else ():
            cards = self._revealed(seat, "hand")
            if cards:
                self._say(Text(f"  {self.names[seat]:<6} ").append_text(
                    self.renderer.hand(cards)))
        dead = self._dead_cards()
        if dead:
            self._say(Text("  Out of play ", style="dim").append_text(self.renderer.hand(dead)))

    def _dead_cards(self) -> list[str]:
        """In a replay, the cards of the hand's dead hands (two-handed 500), which no seat
        held or played. No view ever shows them, so the live game never does; a replay shows
        every hand once the match is over, and the record holds these too (its deals replay
        from them), so showing them hides nothing a player could still use and explains where
        the rest of the deck went."""
        dead = getattr(self.reveal, "dead", 0) if self.reveal is not None else 0
        return [str(card) for card in cards_of(dead)] if isinstance(dead, int) else []

    def _pass(self, event: dict[str, Any]) -> None:
        self._say(f"{self._seat(event)} passes")

    def _bid(self, event: dict[str, Any]) -> None:
        line = Text(f"{self._seat(event)} bids ").append_text(bid_text(self.style, event["bid"]))
        self._say(line.append(" blind") if event.get("blind") else line)

    def _all_passed(self, event: dict[str, Any]) -> None:
        outcome = {"play_no_trump": "the hand is played in no trumps at 10 a trick.",
                   "redeal": "the same dealer deals again.",
                   "redeal_then_pass_deal": "the cards are dealt again.",
                   "next_dealer": "the deal passes to the left."}.get(event.get("outcome", ""),
                                                                      "")
        self._say(f"Everybody passed: {outcome}".strip())

    def _contract(self, event: dict[str, Any]) -> None:
        line = Text(f"{self._seat(event)} wins the bidding with ", style="bold")
        line.append_text(bid_text(self.style, event["bid"]))
        self._say(line.append(f" ({event['value']})") if event.get("value") else line)

    def _bank(self, event: dict[str, Any]) -> None:
        self._say(Text("The bank: ").append_text(self.renderer.hand(event["cards"])))

    def _kitty_taken(self, event: dict[str, Any]) -> None:
        line = Text(f"{self._seat(event)} takes the kitty")
        cards = self._revealed(event["seat"], "exchange")
        self._say(line.append(": ").append_text(self.renderer.hand(cards)) if cards else line)

    def _bank_taken(self, event: dict[str, Any]) -> None:
        self._say(f"{self._seat(event)} takes the bank")

    def _discard(self, event: dict[str, Any]) -> None:
        line = Text(f"{self._seat(event)} puts back {event['count']} cards")
        cards = self._revealed(event["seat"], "discards")
        self._say(line.append(": ").append_text(self.renderer.hand(cards)) if cards else line)

    def _discards_passed(self, event: dict[str, Any]) -> None:
        self._say(f"{self._seat(event)} passes the discards to {self.names[event['to']]}")

    def _give(self, event: dict[str, Any]) -> None:
        if "to" in event:
            self._say(f"{self._seat(event)} gives a card to {self.names[event['to']]}")
        else:
            self._say(f"{self._seat(event)} adds a card to the widow")

    def _bet(self, event: dict[str, Any]) -> None:
        self._say(f"{self._seat(event)} bets {event['bet']}")

    def _marriage(self, event: dict[str, Any]) -> None:
        self._say(f"{self._seat(event)} declares the {Suit.parse(event['suit']).symbol} "
                  f"marriage ({event['points']}): trumps")

    def _claim(self, event: dict[str, Any]) -> None:
        left = event["remaining"]
        claimed = event["tricks"]
        what = (f"all {left} tricks left" if claimed == left else "none of the tricks left"
                if claimed == 0 else f"{claimed} of the {left} tricks left")
        line = Text(f"{self._seat(event)} claims {what}, showing ").append_text(
            self.renderer.hand(event["hand"]))
        if event["proven"]:
            line.append(": the solver proves it", style="bold")
        self._say(line)

    def _claim_answer(self, event: dict[str, Any]) -> None:
        answer = "accepts" if event["accepted"] else "refuses"
        self._say(f"{self._seat(event)} {answer} the claim")

    def _claim_settled(self, event: dict[str, Any]) -> None:
        self._say(f"The claim stands: {self._seat(event)}'s side takes {event['tricks']}, "
                  f"the other side {event['conceded']}")

    def _claim_refused(self, event: dict[str, Any]) -> None:
        self._say(f"The claim is refused: play goes on, {self._seat(event)} to play")

    def _hand_shown(self, event: dict[str, Any]) -> None:
        self._say(f"{self._seat(event)} lays the hand open")

    def _trick(self, event: dict[str, Any]) -> None:
        self.trick_number += 1
        line = Text(f"Trick {self.trick_number:>2}: ").append_text(
            self.renderer.plays(event["seats"], event["cards"]))
        if event.get("nominated"):
            line.append(f" (joker names {Suit.parse(event['nominated']).symbol})")
        self._say(line.append(f" → {self.names[event['winner']]}", style="bold"))

    def _hand_scored(self, event: dict[str, Any]) -> None:
        if self.detail == "full":
            self._say(Text(suits_as_symbols(event["summary"]), style="bold"))
        self._say(self.renderer.hand_line(event))

    def _match_over(self, event: dict[str, Any]) -> None:
        self.console.print(Rule())
        self._say(self.renderer.winner(event["winner"], event["scores"]))


# -- driving a match ----------------------------------------------------------------------------


def verb_of(view: GameView) -> str | None:
    """The verb every action of the seat to act shares but ``pass`` and ``look`` (``bid``,
    ``play``, ``discard`` …), which a bare entry takes; ``None`` if they differ."""
    verbs = {action.split()[0] for action in view.get("legal_actions") or ()} - set(NOT_VERBS)
    if not verbs and view.get("discard_count"):
        return "discard"
    return verbs.pop() if len(verbs) == 1 else None


def interpret(text: str, view: GameView) -> str:
    """Expand the shortcuts a human may type into the engine's notation.

    A bare entry (``7H``, ``120``, ``JH``, ``JK:H``, ``4C 5C 6D``) gets the verb the legal
    actions share; anything else goes to the engine as typed, so that its refusal explains
    what is wrong.
    """
    verb = verb_of(view)
    if verb is None or text.split()[0].lower() in VERBS:
        return text
    return f"{verb} {text}"


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
        self.renderer = Renderer.of(game, human)
        self.narrator = Narrator(console, self.renderer, detail)
        self.claims = GAME_CLAIMS.get(game.view(None)["game"])
        """The game's claim judge (``None``: a game without claims)."""

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
                    events = game.apply(self._bot_claim(seat)
                                        or self.bots[seat].choose(game.view(seat)))
                self.narrator.show(events)
                if self.human is not None and any(e["type"] == "hand_scored" for e in events):
                    self.console.print(self.renderer.history(game.view(self.human)["history"]))
        except Quit:
            self.console.print("You leave the table. Goodbye.")
            return False
        return True

    def _bot_claim(self, seat: int) -> str | None:
        """A bot's claim of the tricks left, proven by the solver, while a human plays."""
        if self.claims is None or self.human is None:
            return None
        return self.claims.bot_claim(self.game, seat)

    def _judged(self, seat: int, text: str) -> str:
        """A claim the human may make now, in its proven form when the solver proves it
        (``ValueError`` for one typed as proven); anything else as typed."""
        judge = self.claims
        parsed = None if judge is None else judge.claim_text(text)
        if parsed is None:
            return text
        plain, proven = parsed
        if proven:
            raise ValueError("only the solver proves a claim: type e.g. 'claim 4'")
        if judge is not None and plain in self.game.claim_options(seat):
            return judge.judged(self.game, seat, plain)
        return plain

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
                return self.game.apply(self._judged(seat, interpret(text, view)), seat=seat)
            except (IllegalAction, ValueError) as error:
                self.console.print(Text(f"Not allowed: {error}", style="red"))

    def _ask(self, view: GameView) -> str:
        """One non-empty line of input; ``Quit`` on a quit word or the end of input."""
        verb = verb_of(view)
        prompt = PROMPTS.get(verb or "", "Your move")
        if view.get("claim") is not None:
            prompt = "Accept or refuse the claim"
        elif verb == "discard":
            prompt = f"Discard {view.get('discard_count')}"
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
    """Print a recorded match of any game hand by hand, from ``start`` (its first state), with
    every deal, bid and trick."""
    renderer = Renderer.of(start)
    narrator = Narrator(console, renderer, "full", reveal=start)
    narrator.start(start.hand_number, start.dealer)
    for action in actions:
        narrator.show(start.apply(action))
    history = start.view(None)["history"]
    if history:
        console.print(renderer.history(history))
    if not start.is_over:
        console.print(Text("The record ends before the match does.", style="yellow"))
