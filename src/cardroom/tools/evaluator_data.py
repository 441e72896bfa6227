"""Training data for the learned hand evaluators: random deals, solved exactly.

Each evaluator the project learns is a :class:`Dataset` (:func:`dataset_for`: 500 at four
and at three players, 1000 at three): its deals, its models and where its data and model
live. The chunks, their seed and their resumption are the same for all; this module solves
500's deals, :mod:`cardroom.tools.evaluator_thousand` 1000's.

For 500:
Each deal is dealt by the engine from a seed (so the data is reproducible), bid by the rules
bot in every seat up to each seat's first call (so the context a seat bids in looks like a
real auction's), and then, for each seat as contractor, played double dummy in every suit
and in no trumps after the seat takes the kitty and puts back the rules bot's discard, and
as a misère (the partner out, the seat shedding its riskiest cards). Every solution gives
two rows: the hand as dealt with the kitty still to take, and the ten cards kept with the
kitty taken (what the exchange compares).

Four-handed and three-handed tables learn apart (``players``: each has its own model, as a
seat with a partner and a seat alone take their tricks differently); at three players every
seat plays for itself and nobody sits out of a misère.

Deals are written in chunks, one ``.npz`` file each, named by their number: a run that is
stopped and started again skips the chunks already written, and the same seed always gives
the same chunk. Run ``cardroom evaluator generate --deals 20000 --out data/evaluator``
(``--game 1000`` for 1000's).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache, partial
from pathlib import Path

import numpy as np

from cardroom.bots.five_hundred.bidding import rules_discard
from cardroom.bots.five_hundred.evaluator import (
    KINDS,
    MODEL_FILES,
    TABLE_PLAY_LOSS,
    TRICK_OUTCOMES,
    Context,
    Evaluator,
    Kind,
    context_from_bids,
    features,
)
from cardroom.bots.five_hundred.rules_bot import RulesBot
from cardroom.bots.five_hundred.solver import FastSearch, Position
from cardroom.bots.five_hundred.valuation import shed_for_misere
from cardroom.bots.thousand import evaluator as thousand_evaluator
from cardroom.games.cards import Suit, cards_of
from cardroom.games.five_hundred import Bid, Game, Rules, strain_for

CHUNK_DEALS = 20
"""Deals per chunk file."""
TABLES: dict[int, tuple[tuple[str, str | None], ...]] = {
    4: (("online", None), ("classic", None), ("american", None), ("australian", None),
        ("online", "46"), ("classic", "43-red-trump-4")),
    3: (("three-handed", None),),
}
"""The tables the deals cycle through, by players (a preset, and a deck in its place): their
decks are the evaluator's :data:`~cardroom.bots.five_hundred.evaluator.LEARNED_DECKS`."""


@dataclass
class Rows:
    """Feature rows and their targets for each model (500's three by default)."""

    kinds: tuple[str, ...] = KINDS
    features: dict[str, list[list[float]]] = field(default_factory=dict)
    targets: dict[str, list[int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for kind in self.kinds:
            self.features.setdefault(kind, [])
            self.targets.setdefault(kind, [])

    def add(self, kind: str, row: list[float], target: int) -> None:
        """One more row for ``kind``'s model."""
        self.features[kind].append(row)
        self.targets[kind].append(target)

    def extend(self, other: Rows) -> None:
        """Every row of ``other`` (of the same models) after these."""
        for kind in self.kinds:
            self.features[kind] += other.features[kind]
            self.targets[kind] += other.targets[kind]

    def arrays(self) -> dict[str, np.ndarray]:
        """The rows as arrays named ``<kind>/x`` and ``<kind>/y``."""
        out: dict[str, np.ndarray] = {}
        for kind in self.kinds:
            out[f"{kind}/x"] = np.asarray(self.features[kind], dtype=np.float32)
            out[f"{kind}/y"] = np.asarray(self.targets[kind], dtype=np.int8)
        return out


def table_rules(number: int, players: int = 4) -> Rules:
    """The rules of deal ``number``'s table at ``players`` (:data:`TABLES`, in turn)."""
    tables = TABLES[players]
    preset, deck = tables[number % len(tables)]
    rules = Rules.preset(preset)
    return rules if deck is None else Rules.from_dict({**rules.to_dict(), "deck": deck})


def first_call_bids(game: Game, seed: int) -> dict[int, list[tuple[int, Bid | None]]]:
    """The calls made before each seat's first call, with the rules bot in every seat (a
    seat the auction never reached is left out)."""
    bots = [RulesBot(seed + seat) for seat in range(game.players)]
    seen: dict[int, list[tuple[int, Bid | None]]] = {}
    while game.phase == "bidding" and len(seen) < game.players:
        seat = game.to_act
        assert seat is not None, "a seat is to call while the bidding lasts"
        if seat not in seen:
            seen[seat] = list(game.bids)
        game.apply(bots[seat].choose(game.view(seat)), seat)
    return seen


def leader_for(rules: Rules, dealer: int, contractor: int, active: tuple[int, ...],
               players: int = 4) -> int:
    """Who leads the first trick of a contract won by ``contractor``."""
    if rules.first_lead == "contractor":
        return contractor
    return next(seat for step in range(1, players + 1)
                if (seat := (dealer + step) % players) in active)


def partner_of(seat: int, players: int) -> int | None:
    """The seat's partner: across the table at four players, nobody at three."""
    return (seat + 2) % 4 if players == 4 else None


def solve_deal(number: int, seed: str, players: int = 4) -> Rows:
    """Every row deal ``number`` of a ``players``-handed table gives (see the module's
    docstring)."""
    rules = table_rules(number, players)
    spec = rules.deck_spec
    rng = random.Random(f"{seed}:{number}")
    game = Game.new(rules, rng.randrange(2**31), dealer=rng.randrange(players))
    hands = [*game.hands, *[0] * (4 - players)]
    kitty, dealer = game.kitty, game.dealer
    everyone = tuple(range(players))
    bids = first_call_bids(game, rng.randrange(2**31))
    rows = Rows()
    for seat, before in bids.items():
        partner = partner_of(seat, players)
        mates = () if partner is None else (partner,)
        taken = hands[seat] | kitty
        leader = leader_for(rules, dealer, seat, everyone, players)

        def context(kitty_left: int, seat: int = seat,
                    before: list[tuple[int, Bid | None]] = before,
                    leader: int = leader, mates: tuple[int, ...] = mates) -> Context:
            return context_from_bids(rules.deck, kitty_left, leader == seat, seat, mates,
                                     before)

        for trump in (*Suit, None):
            kind: Kind = "no_trumps" if trump is None else "suit"
            strain = strain_for(trump, colour_four=spec.colour_four)
            kept = taken & ~rules_discard(strain, taken, spec.kitty, spec.mask)
            dealt = list(hands)
            dealt[seat] = kept
            position = Position(tuple(dealt), strain, leader, active=everyone,
                                joker_any_time=trump is None and rules.nt_joker == "play_any_time")
            tricks = FastSearch(position, (seat, *mates)).value()
            rows.add(kind, features(hands[seat], kind, trump, context(spec.kitty)), tricks)
            rows.add(kind, features(kept, kind, trump, context(0)), tricks)
        _solve_misere(rows, rules, hands, seat, taken, dealer, context, players)
    return rows


def _solve_misere(rows: Rows, rules: Rules, hands: list[int], seat: int, taken: int,
                  dealer: int, context: Callable[[int], Context], players: int) -> None:
    """The misère rows of ``seat``: success when the seat takes no trick (its partner, at
    four players, sitting out)."""
    spec = rules.deck_spec
    joker_low = rules.joker_low_in_misere
    shed = shed_for_misere(cards_of(taken), spec.kitty, spec.mask, joker_low)
    kept = taken & ~sum(card.mask for card in shed)
    partner = partner_of(seat, players)
    active = tuple(s for s in range(players) if s != partner)
    dealt = list(hands)
    dealt[seat] = kept
    if partner is not None:
        dealt[partner] = 0
    strain = strain_for(None, joker_low)
    position = Position(tuple(dealt), strain, leader_for(rules, dealer, seat, active, players),
                        active=active, joker_forced=rules.misere_joker_forced)
    opponents = tuple(s for s in active if s != seat)
    taken_tricks = FastSearch(position, (seat,), maximisers=opponents).value()
    made = int(taken_tricks == 0)
    rows.add("misere", features(hands[seat], "misere", None, context(spec.kitty)), made)
    rows.add("misere", features(kept, "misere", None, context(0)), made)


@dataclass(frozen=True)
class Dataset:
    """One learned evaluator's training: the deals it learns from and the models it fits."""

    game: str
    """The game's name (``"500"``, ``"1000"``)."""
    players: int
    """The table size its deals are dealt at."""
    kinds: tuple[str, ...]
    """Its models, by name."""
    outcomes: dict[str, int]
    """Each model's number of outcomes (1: a yes-or-no model, fitted on 0 and 1)."""
    solve: Callable[[int, str], Rows]
    """``solve(number, seed)``: every row deal ``number`` of the seed gives."""
    label_suffix: str
    """What a data folder's seed file adds to the seed to name the deals' table."""
    folder: Path
    """The default folder of its data."""
    package: str
    model_file: str
    """The model the bots load: ``model_file`` inside ``package``."""
    load: Callable[[dict[str, np.ndarray]], object]
    """Builds the bots' evaluator from the arrays the training writes (a check that they
    load)."""
    place_value: float
    error_unit: str
    """A model's mean error is in outcome places times ``place_value``, read in
    ``error_unit``."""
    thresholds: dict[str, tuple[tuple[str, int], ...]]
    """For each model of counted outcomes, the bids its calibration is reported at: a
    bid's name and the least outcome that makes it."""
    seed: str
    """The seed of the deals the shipped model was fitted on (the generator's default)."""

    @property
    def key(self) -> tuple[str, int]:
        """The game and table size, which name the evaluator."""
        return self.game, self.players

    @property
    def title(self) -> str:
        """The table the evaluator is of, in words."""
        return f"{self.game} at {self.players} players"

    @property
    def model_path(self) -> Path:
        """Where the training writes the shipped model in a checkout."""
        return Path("src", *self.package.split(".")) / self.model_file


def _solve_thousand(number: int, seed: str) -> Rows:
    """1000's rows of deal ``number`` (its module reads :class:`Rows` from this one)."""
    from cardroom.tools.evaluator_thousand import solve_deal as solve_thousand_deal

    return solve_thousand_deal(number, seed)


def _thousand_dataset() -> Dataset:
    return Dataset("1000", 3, (thousand_evaluator.MODEL,),
                   {thousand_evaluator.MODEL: thousand_evaluator.OUTCOMES}, _solve_thousand,
                   " (1000)", Path("data/evaluator-1000"), "cardroom.bots.thousand",
                   thousand_evaluator.MODEL_FILE, thousand_evaluator.Evaluator.from_arrays,
                   float(thousand_evaluator.BET_STEP), "points",
                   {thousand_evaluator.MODEL: tuple(
                       (str(bet), thousand_evaluator.outcome_of(bet))
                       for bet in (100, 110, 120, 150, 200))}, "evaluator-1000")


def _five_hundred_dataset(players: int) -> Dataset:
    outcomes: dict[str, int] = {kind: 1 if kind == "misere" else TRICK_OUTCOMES
                                for kind in KINDS}
    return Dataset("500", players, KINDS, outcomes, partial(solve_deal, players=players),
                   "" if players == 4 else f" ({players} players)",
                   Path("data/evaluator" if players == 4 else f"data/evaluator-{players}"),
                   "cardroom.bots.five_hundred", MODEL_FILES[players],
                   partial(Evaluator.from_arrays, table_play_loss=TABLE_PLAY_LOSS[players]),
                   1.0, "tricks", {kind: tuple((str(level), level) for level in (7, 8, 9, 10))
                                   for kind in ("suit", "no_trumps")},
                   "evaluator-1" if players == 4 else f"evaluator-{players}")


@cache
def datasets() -> dict[tuple[str, int], Dataset]:
    """Every evaluator the project learns, by game and table size."""
    found = {("500", players): _five_hundred_dataset(players) for players in TABLES}
    found["1000", 3] = _thousand_dataset()
    return found


def dataset_for(game: str = "500", players: int | None = None) -> Dataset:
    """The evaluator of ``game`` at ``players`` (``None``: the game's only or four-handed
    one); ``ValueError`` naming those there are."""
    known = datasets()
    sizes = sorted(size for name, size in known if name == game)
    if not sizes:
        raise ValueError(f"no evaluator is made for the game {game!r}: "
                         f"{', '.join(sorted({name for name, _ in known}))} have one")
    size = players if players is not None else (4 if 4 in sizes else sizes[0])
    if (game, size) not in known:
        raise ValueError(f"no evaluator is made for {game} at {size} players: "
                         f"{' and '.join(map(str, sizes))} players have one")
    return known[game, size]


def chunk_path(out: Path, chunk: int) -> Path:
    """Where chunk number ``chunk`` is written."""
    return out / f"chunk-{chunk:05d}.npz"


def write_chunk(out: Path, chunk: int, seed: str, solve: Callable[[int, str], Rows],
                kinds: tuple[str, ...] = KINDS) -> int:
    """Solve the deals of chunk ``chunk`` with ``solve`` and write them; how many rows it
    holds."""
    rows = Rows(kinds)
    for number in range(chunk * CHUNK_DEALS, (chunk + 1) * CHUNK_DEALS):
        rows.extend(solve(number, seed))
    write_arrays(chunk_path(out, chunk), rows.arrays())
    return sum(len(targets) for targets in rows.targets.values())


def write_arrays(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """Save named arrays as a compressed ``.npz`` at ``path``, whole or not at all (written
    beside it first, then renamed)."""
    partial_path = path.with_suffix(".part.npz")
    np.savez_compressed(partial_path, **arrays)  # type: ignore[arg-type]
    partial_path.replace(path)


SEED_FILE = "seed.txt"
"""Names the seed a data folder's chunks were dealt from."""


def data_label(seed: str, dataset: Dataset) -> str:
    """What a data folder's deals are dealt from: the seed, and the table where not 500's
    four-handed one."""
    return seed + dataset.label_suffix


def data_dataset(out: Path) -> Dataset | None:
    """The evaluator whose deals data folder ``out`` holds, from its seed's label (``None``:
    the folder holds no deals)."""
    path = out / SEED_FILE
    if not path.exists():
        return None
    label = path.read_text(encoding="utf-8").strip()
    known = sorted(datasets().values(), key=lambda dataset: -len(dataset.label_suffix))
    return next(dataset for dataset in known if label.endswith(dataset.label_suffix))


def check_dataset(out: Path, dataset: Dataset) -> None:
    """Refuse (``ValueError``) to read ``out`` as ``dataset``'s data when it holds another
    table's deals: a model fitted on them would value every hand wrongly."""
    found = data_dataset(out)
    if found is None or found.key == dataset.key:
        return
    if found.game == dataset.game:
        raise ValueError(f"{out} holds {found.players}-handed deals, not "
                         f"{dataset.players}-handed: use --players {found.players} or "
                         "another folder")
    raise ValueError(f"{out} holds deals of {found.game}, not {dataset.game}: use --game "
                     f"{found.game} or another folder")


def check_seed(out: Path, seed: str) -> None:
    """Remember ``seed`` (a :func:`data_label`) as the data folder's, or refuse another
    (``ValueError``): chunks of two seeds, or two tables, in one folder would share their
    numbers and so their deals' place."""
    path = out / SEED_FILE
    if not path.exists():
        path.write_text(seed + "\n", encoding="utf-8")
    elif (known := path.read_text(encoding="utf-8").strip()) != seed:
        raise ValueError(f"{out} holds deals of the seed {known!r}, not {seed!r}: "
                         "use another folder")


def missing_chunks(out: Path, deals: int) -> list[int]:
    """The chunks of the first ``deals`` deals not written yet."""
    chunks = -(-deals // CHUNK_DEALS)
    return [chunk for chunk in range(chunks) if not chunk_path(out, chunk).exists()]


def load_chunks(out: Path) -> Iterator[tuple[int, dict[str, np.ndarray]]]:
    """Every chunk written, by number, as arrays."""
    for path in sorted(out.glob("chunk-*.npz")):
        if path.name.endswith(".part.npz"):
            continue
        with np.load(path) as arrays:
            yield int(path.stem.split("-")[1]), {name: arrays[name] for name in arrays.files}


def generate(out: Path, deals: int, seed: str, jobs: int,
             progress: Callable[[int], None], dataset: Dataset | None = None) -> int:
    """Write every missing chunk of the first ``deals`` deals of ``dataset`` (500's
    four-handed by default) into ``out`` with ``jobs`` processes, calling ``progress`` with
    the number of deals done after each chunk; how many chunks were written."""
    from concurrent.futures import ProcessPoolExecutor, as_completed

    dataset = dataset or dataset_for()
    out.mkdir(parents=True, exist_ok=True)
    check_seed(out, data_label(seed, dataset))
    missing = missing_chunks(out, deals)
    done = (-(-deals // CHUNK_DEALS) - len(missing)) * CHUNK_DEALS
    progress(done)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(write_chunk, out, chunk, seed, dataset.solve, dataset.kinds)
                   for chunk in missing]
        for future in as_completed(futures):
            future.result()
            done += CHUNK_DEALS
            progress(min(done, deals))
    return len(missing)
