"""The ``cardroom`` command: one typer app, one function per sub-command.

Each command only parses its options, builds what it needs and hands over to the module that
does the work (:mod:`cardroom.tools.terminal` for playing and replaying), so new commands (serve,
arena, bench …) slot in beside these without touching them.
"""

from __future__ import annotations

import dataclasses
import inspect
import math
import secrets
import time
import typing
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.text import Text
from typer.core import TyperCommand, TyperGroup, TyperOption

from cardroom.bots import make_bot
from cardroom.bots.levels import CHALLENGE_BOT, DEFAULT_BOT
from cardroom.games.five_hundred import Game, Record
from cardroom.games.registry import GAMES, pick_game, presets_by_game
from cardroom.games.registry import replay as replay_game
from cardroom.tools.terminal import TerminalMatch, replay_match
from cardroom.web.http_limits import (
    MAX_HTTP_CONNECTIONS_PER_ADDRESS,
    REQUEST_READ_TIMEOUT,
    STALLED_WRITE_TIMEOUT,
)

if TYPE_CHECKING:
    from cardroom.store.backup import Outcome
    from cardroom.tools.evaluator_data import Dataset


class _FlagsTakeNoValue:
    """Typer's rich help prints a type after every option, flags too (``--help <bool>``,
    ``--auto <bool>``), as if they took a value: an empty metavar leaves the flags' type
    column blank, so they read as they are typed."""

    def get_params(self, ctx: Any) -> list[Any]:
        """The command's parameters, flags without a shown type."""
        params: list[Any] = super().get_params(ctx)  # type: ignore[misc]
        for param in params:
            if isinstance(param, TyperOption) and param.is_flag and param.metavar is None:
                param.metavar = ""
        return params


class ReadableCommand(_FlagsTakeNoValue, TyperCommand):
    """A command whose help shows flags without a value."""


class ReadableGroup(_FlagsTakeNoValue, TyperGroup):
    """A group of commands whose help shows flags without a value."""


app = typer.Typer(
    name="cardroom",
    cls=ReadableGroup,
    help="An online card room for 500 and 1000: serve it, play in the terminal, replay and "
         "analyse records, pit bots against each other.",
    no_args_is_help=True,
    add_completion=False,
)

HUMAN_SEAT = 0
DEFAULT_DATABASE_URL = "sqlite:///cardroom.sqlite3"
DATABASE_URL_ENVVARS = ["CARDROOM_DATABASE_URL", "DATABASE_URL"]
"""Where the server's database is named, first found first."""


MIN_LEASE_SECONDS = 1.0
"""The shortest table lease ``serve`` takes: a renewal (every third of it) is a database
round trip that must fit well inside it."""


def _env(name: str, help: str) -> Any:
    """An option that may also be set by the environment variable ``CARDROOM_<name>``."""
    return typer.Option(envvar=f"CARDROOM_{name}", help=help)


def read_config_file(path: Path, command: Any) -> dict[str, Any]:
    """The option values a TOML config file sets for ``command``, by parameter name.

    Each line is an option's long name without its dashes (``bot-delay = 0.8``; an
    underscore for the dash works too). An unknown name is an error rather than a line
    silently ignored: a misspelt limit would otherwise leave the room at its default."""
    import tomllib

    try:
        table = tomllib.loads(path.read_text())
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise typer.BadParameter(f"cannot read {path}: {error}") from None
    by_line = {name.removeprefix("--"): param.name for param in command.params
               for name in param.opts if name.startswith("--") and not param.is_eager}
    kinds = typing.get_type_hints(inspect.unwrap(command.callback))
    values: dict[str, Any] = {}
    for key, value in table.items():
        name = by_line.get(key.replace("_", "-"))
        if name is None:
            raise typer.BadParameter(f"{path}: no option is called {key!r}")
        values[name] = _config_value(path, key, kinds[name], value)
    return values


def _config_value(path: Path, key: str, kind: Any, value: Any) -> Any:
    """A settings file's ``value`` for an option whose parameter is typed ``kind``, if TOML
    gave that kind: a number for a number, text for text, a list of texts (or one text) for a
    list. Anything else is refused by name: click would turn a list or a boolean into its
    Python spelling (``"['127.0.0.1', '::1']"``) and the room would run on a setting nobody
    wrote."""
    kinds = [k for k in typing.get_args(kind) if k is not type(None)] or [kind]
    base = typing.get_origin(kinds[0]) or kinds[0]
    if base is list:
        items = [value] if isinstance(value, str) else value
        if isinstance(items, list) and all(isinstance(item, str) for item in items):
            return items
        wanted = "a text or a list of texts"
    elif base is bool:
        if isinstance(value, bool):
            return value
        wanted = "true or false"
    elif base is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        wanted = "a whole number"
    elif base is float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return value
        wanted = "a number"
    else:
        if isinstance(value, str):
            return value
        wanted = 'a text in quotes (several addresses: "127.0.0.1,::1")'
    raise typer.BadParameter(f"{path}: {key} must be {wanted}, not {value!r}")


def _load_config(ctx: typer.Context, _param: Any, path: Path | None) -> Path | None:
    """Eager ``--config``: the file's values become the command's defaults, so that a flag
    or an environment variable still wins over the file's line (click's order)."""
    if path is not None:
        ctx.default_map = {**(ctx.default_map or {}), **read_config_file(path, ctx.command)}
    return path


DatabaseUrl = Annotated[str, typer.Option(envvar=DATABASE_URL_ENVVARS,
                                          help="sqlite:///file or postgresql://user@host/db")]
"""The ``--database-url`` of the commands that open the database."""


def _console() -> Console:
    """A console on the current standard output (so test runners can capture it)."""
    return Console(highlight=False)


def _fail(console: Console, message: str) -> typer.Exit:
    """Print an error and give the exit to raise (code 1)."""
    console.print(Text("Error: ", style="red").append(message), soft_wrap=True)
    return typer.Exit(code=1)


@app.command(cls=ReadableCommand)
def play(
    preset: Annotated[str | None, typer.Option(
        help=f"Rules preset ({presets_by_game()}); it names its game.")] = None,
    game: Annotated[str | None, typer.Option(
        help=f"The game ({', '.join(GAMES)}), when no preset names it: its default preset "
             f"is played.")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the deals (random if omitted).")]
    = None,
    auto: Annotated[bool, typer.Option(help="Bots hold every seat; you watch.")] = False,
    bot: Annotated[str, typer.Option(help="The bots' registry name (see BOT_NAMES): simple, "
                                          "rules, search:fast, search, search:strong.")]
    = DEFAULT_BOT,
    verbose: Annotated[bool, typer.Option(help="With --auto: show bids and tricks.")] = False,
    record: Annotated[Path | None, typer.Option(help="Save the match record to this file.")]
    = None,
) -> None:
    """Play a match of 500 or 1000 in the terminal: you are South, bots hold the other seats."""
    console = _console()
    try:
        spec, preset = pick_game(game, preset)
    except ValueError as error:
        raise _fail(console, str(error)) from None
    seed = secrets.randbelow(1_000_000) if seed is None else seed
    match = spec.new(spec.rules(preset), seed=seed)
    human = None if auto else HUMAN_SEAT
    try:
        bots = {seat: make_bot(bot, seed=seed * 4 + seat)
                for seat in range(match.players) if seat != human}
    except ValueError as error:
        raise _fail(console, str(error)) from None
    console.print(f"{spec.title}, preset [bold]{preset}[/bold], seed {seed}")
    if human is not None:
        console.print("Type an action ('pass', 'bid 7H' or just '7H', 'JH'); '?' lists what "
                      "you may do, with each bid's points; 'quit' leaves.")
    detail = "summary" if auto and not verbose else "full"
    TerminalMatch(match, bots, console, human=human, detail=detail).run()
    if record is not None:
        match.record.save(record)
        console.print(Text(f"Record saved to {record}"))


@app.command(cls=ReadableCommand)
def replay(
    file: Annotated[Path, typer.Argument(help="A match record saved by 'play --record'.")],
) -> None:
    """Replay a recorded match of 500 or 1000: every deal, bid and trick, hand by hand."""
    console = _console()
    try:
        saved = Record.load(file)
        replay_game(saved)  # check the whole record before printing any of it
        start = replay_game(dataclasses.replace(saved, actions=[], seats=[]))
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise _fail(console, f"cannot replay {file}: {error}") from None
    replay_match(start, saved.actions, console)


@app.command(cls=ReadableCommand)
def serve(
    config_file: Annotated[Path | None, typer.Option(
        "--config", envvar="CARDROOM_CONFIG", is_eager=True, callback=_load_config,
        dir_okay=False,
        help="A TOML file of these options, one a line by long name (bot-delay = 0.8): "
             "a flag or an environment variable wins over its line.")] = None,
    host: Annotated[str, _env("HOST", "Address to listen on (0.0.0.0: every interface).")]
    = "127.0.0.1",
    port: Annotated[int, _env("PORT", "Port to listen on.")] = 8500,
    database_url: DatabaseUrl = DEFAULT_DATABASE_URL,
    database_pool: Annotated[int, _env(
        "DATABASE_POOL", "PostgreSQL connections this process keeps open, and the most it "
                         "opens (a burst waits for one): processes × this must stay under "
                         "the database's max_connections.")] = 20,
    redis_url: Annotated[str | None, typer.Option(
        envvar=["CARDROOM_REDIS_URL", "REDIS_URL"],
        help="redis://host:port to share tables between processes (default: in-process).")]
    = None,
    disconnect_grace: Annotated[float, _env(
        "DISCONNECT_GRACE", "Seconds a disconnected player's seat waits before a bot plays it.")]
    = 120.0,
    bot_delay: Annotated[float, _env("BOT_DELAY", "Seconds a bot pauses before acting.")] = 0.8,
    next_match_delay: Annotated[float, _env(
        "NEXT_MATCH_DELAY", "Seconds between the end of a match and the next one.")] = 5.0,
    message_rate: Annotated[float, _env(
        "MESSAGE_RATE", "Messages a second one connection may send on average.")] = 20.0,
    message_burst: Annotated[float, _env(
        "MESSAGE_BURST", "Messages one connection may send at once.")] = 60.0,
    min_turn_seconds: Annotated[float, _env(
        "MIN_TURN_SECONDS", "The shortest turn timer a table may have.")] = 5.0,
    resume_delay: Annotated[float, _env(
        "RESUME_DELAY", "After a restart, seconds the restored tables' bots wait for their "
                        "players to come back before playing on.")] = 1.0,
    abandon_after: Annotated[float, _env(
        "ABANDON_AFTER", "Seconds without a seated human connected after which a table "
                         "finishes its hand and closes.")] = 600.0,
    default_bot: Annotated[str, _env(
        "DEFAULT_BOT", "The bot of a table created without naming one (see BOT_NAMES).")]
    = DEFAULT_BOT,
    challenge_bot: Annotated[str, _env(
        "CHALLENGE_BOT", "The bot in the daily challenge's other seats: one whose decisions "
                         "depend only on the cards and the seed, so that everybody meets "
                         "the same replies.")] = CHALLENGE_BOT,
    lease_seconds: Annotated[float, _env(
        "LEASE_SECONDS", "With Redis: seconds this process owns a table unless it renews "
                         "(every third of it); a dead process's tables are taken over "
                         "within about this, a stalled one loses them past it. The same "
                         "for every process of a room.")] = 4.0,
    bot_budget: Annotated[float, _env(
        "BOT_BUDGET", "Seconds a bot decision may take before its worker is replaced and a "
                      "quick bot decides instead.")] = 10.0,
    max_tables_per_player: Annotated[int, _env(
        "MAX_TABLES_PER_PLAYER", "Open tables one player may have created.")] = 3,
    max_tables: Annotated[int, _env("MAX_TABLES", "Open tables in the whole room.")] = 2000,
    max_registrations_per_minute: Annotated[int, _env(
        "MAX_REGISTRATIONS_PER_MINUTE", "Registrations from one client address per minute.")]
    = 10,
    max_connections_per_address: Annotated[int, _env(
        "MAX_CONNECTIONS_PER_ADDRESS", "WebSocket connections from one client address at once.")]
    = 32,
    max_bug_reports_per_hour: Annotated[int, _env(
        "MAX_BUG_REPORTS_PER_HOUR", "Bug reports one player may send per hour.")] = 5,
    max_hints_per_minute: Annotated[int, _env(
        "MAX_HINTS_PER_MINUTE", "Hint requests one player may send per minute.")] = 20,
    max_chat_per_minute: Annotated[int, _env(
        "MAX_CHAT_PER_MINUTE", "Chat lines one player may send per minute.")] = 20,
    max_sign_ins_per_minute: Annotated[int, _env(
        "MAX_SIGN_INS_PER_MINUTE", "Sign-in attempts per name per minute (four times as many "
                                   "per client address).")] = 5,
    max_lookups_per_minute: Annotated[int, _env(
        "MAX_LOOKUPS_PER_MINUTE", "Profiles, leaderboard pages and match records one client "
                                  "address may ask for per minute.")] = 120,
    max_challenge_entries_per_day: Annotated[int, _env(
        "MAX_CHALLENGE_ENTRIES_PER_DAY", "New entries in a day's challenge of one game from "
                                         "one client address in 24 hours.")] = 3,
    leaderboard_min_matches: Annotated[int, _env(
        "LEADERBOARD_MIN_MATCHES", "Rated matches a player or bot needs to appear on a "
                                   "game's leaderboard.")] = 10,
    forwarded_allow_ips: Annotated[str, _env(
        "FORWARDED_ALLOW_IPS", "Proxies (addresses, comma-separated, or *) trusted to name the "
                               "client in X-Forwarded-For; none by default.")] = "",
    stalled_write_timeout: Annotated[float, _env(
        "STALLED_WRITE_TIMEOUT", "Seconds an HTTP client may take nothing of its responses "
                                 "before its connection is dropped.")] = STALLED_WRITE_TIMEOUT,
    request_read_timeout: Annotated[float, _env(
        "REQUEST_READ_TIMEOUT", "Seconds an HTTP client has to send a request (head and "
                                "body) once it connected or began it.")] = REQUEST_READ_TIMEOUT,
    max_http_connections_per_address: Annotated[int, _env(
        "MAX_HTTP_CONNECTIONS_PER_ADDRESS", "Connections (HTTP and WebSocket) one client "
                                            "address may hold open at once; trusted proxies' "
                                            "are not counted.")]
    = MAX_HTTP_CONNECTIONS_PER_ADDRESS,
    log_level: Annotated[str, _env("LOG_LEVEL", "debug, info, warning or error.")] = "info",
    allowed_origin: Annotated[list[str] | None, typer.Option(
        envvar="CARDROOM_ALLOWED_ORIGINS",
        help="Another origin (https://example.org) whose pages may open the WebSocket, "
             "besides the host the browser asked for (a proxy that changes Host needs it); "
             "repeat, or separate with commas; * allows any.")] = None,
) -> None:
    """Start the card room server (SQLite file and one process unless told otherwise)."""
    from cardroom.tables.workers import start_fork_server

    start_fork_server()  # it loads the bots while this process loads the rest
    from cardroom.tables.quotas import QuotaSettings
    from cardroom.tables.room import RoomSettings
    from cardroom.web.app import ServerConfig
    from cardroom.web.security import parse_allowed_origins
    from cardroom.web.server import serve as run_server

    try:
        origins = parse_allowed_origins(allowed_origin or [])
    except ValueError as error:
        raise _fail(_console(), f"--allowed-origin: {error}") from None
    for option, bot in (("--default-bot", default_bot), ("--challenge-bot", challenge_bot)):
        try:
            make_bot(bot)
        except ValueError as error:
            raise _fail(_console(), f"{option}: {error}") from None
    quotas = QuotaSettings(
        tables_per_player=max_tables_per_player, tables=max_tables,
        registrations_per_minute=max_registrations_per_minute,
        connections_per_address=max_connections_per_address,
        bug_reports_per_hour=max_bug_reports_per_hour, hints_per_minute=max_hints_per_minute,
        chat_per_minute=max_chat_per_minute, sign_ins_per_minute=max_sign_ins_per_minute,
        lookups_per_minute=max_lookups_per_minute,
        challenge_entries_per_day=max_challenge_entries_per_day)
    settings = RoomSettings(disconnect_grace=disconnect_grace, bot_delay=bot_delay,
                            next_match_delay=next_match_delay,
                            min_turn_seconds=min_turn_seconds, abandon_after=abandon_after,
                            resume_delay=resume_delay,
                            default_bot=default_bot, challenge_bot=challenge_bot,
                            bot_budget=bot_budget, lease_seconds=lease_seconds,
                            quotas=quotas,
                            leaderboard_min_matches=leaderboard_min_matches)
    if database_pool < 1:
        raise _fail(_console(), "--database-pool: at least one connection")
    if max_http_connections_per_address < 1:
        raise _fail(_console(), "--max-http-connections-per-address: at least one")
    config = ServerConfig(database_url=database_url, database_pool=database_pool,
                          redis_url=redis_url, room=settings,
                          rate=message_rate, burst=message_burst, allowed_origins=origins)
    _console().print(f"cardroom serving on http://{host}:{port} (database {database_url})")
    for option, seconds, least in (("--stalled-write-timeout", stalled_write_timeout, 0.0),
                                   ("--request-read-timeout", request_read_timeout, 0.0),
                                   ("--lease-seconds", lease_seconds, MIN_LEASE_SECONDS)):
        if not (math.isfinite(seconds) and seconds > least):  # nan and inf are refused too
            raise _fail(_console(), f"{option}: a number of seconds, more than {least:g}")
    run_server(host, port, config, log_level, forwarded_allow_ips, stalled_write_timeout,
               request_read_timeout, max_http_connections_per_address)


db_app = typer.Typer(cls=ReadableGroup, help="The database: create or upgrade its schema, "
                                              "back it up and restore it, archive old "
                                              "matches.",
                     no_args_is_help=True)
app.add_typer(db_app, name="db")


@db_app.command("upgrade", cls=ReadableCommand)
def db_upgrade(
    database_url: DatabaseUrl = DEFAULT_DATABASE_URL,
    revision: Annotated[str, typer.Option(help="Target revision (default: the newest).")]
    = "head",
) -> None:
    """Create the schema, or upgrade it to the newest migration (servers do this at start)."""
    import asyncio

    from cardroom.store.db import make_engine
    from cardroom.store.migrate import upgrade

    async def run() -> str | None:
        engine = make_engine(database_url)
        try:
            return await upgrade(engine, revision)
        finally:
            await engine.dispose()

    console = _console()
    try:
        reached = asyncio.run(run())
    except Exception as error:  # a bad URL, an unreachable server, a failed migration
        raise _fail(console, f"cannot upgrade {database_url}: {error}") from None
    console.print(f"Database schema at revision {reached}.")


def _backup_report(console: Console, verb: str, outcome: Outcome) -> None:
    """One line of what a backup or a restore did, and what the database it made holds."""
    size = outcome.size / 1_048_576
    console.print(f"{verb} {outcome.file} ({size:.1f} MiB) in {outcome.seconds:.1f} s.")
    if outcome.contents is not None:
        console.print(f"It holds {outcome.contents}.")


@db_app.command("backup", cls=ReadableCommand)
def db_backup(
    file: Annotated[Path, typer.Argument(help="The backup to write (replaced if it exists).")],
    database_url: DatabaseUrl = DEFAULT_DATABASE_URL,
) -> None:
    """Back the whole database up while the room runs: SQLite's online backup into a
    database file, or pg_dump's custom format for PostgreSQL."""
    import asyncio

    from cardroom.store.backup import BackupError, backup

    console = _console()
    try:
        with console.status(f"Backing up {database_url} …"):
            outcome = asyncio.run(backup(database_url, file))
    except (BackupError, OSError) as error:
        raise _fail(console, f"cannot back up {database_url}: {error}") from None
    _backup_report(console, "Backed up into", outcome)


@db_app.command("restore", cls=ReadableCommand)
def db_restore(
    file: Annotated[Path, typer.Argument(help="A backup written by 'db backup'.")],
    database_url: DatabaseUrl = DEFAULT_DATABASE_URL,
    force: Annotated[bool, typer.Option(
        help="Replace what the database holds (else only an empty one is restored into).")]
    = False,
) -> None:
    """Restore a backup into a database (stop its servers first); a server started on it
    upgrades the schema if the backup is older than the code."""
    import asyncio

    from cardroom.store.backup import BackupError, restore

    console = _console()
    try:
        with console.status(f"Restoring {file} into {database_url} …"):
            outcome = asyncio.run(restore(database_url, file, force))
    except (BackupError, OSError) as error:
        raise _fail(console, f"cannot restore {file}: {error}") from None
    _backup_report(console, "Restored", outcome)


@db_app.command("archive", cls=ReadableCommand)
def db_archive(
    older_than: Annotated[float, typer.Option(
        "--older-than", min=0, help="Archive matches that finished more than this many days "
                                    "ago.")],
    to: Annotated[Path, typer.Option("--to", help="The archive folder (made if missing; "
                                                  "later runs add to it).")],
    database_url: DatabaseUrl = DEFAULT_DATABASE_URL,
) -> None:
    """Move old finished matches out of the database into gzip record files (one a match,
    with an index), a batch a transaction; 'db import-archive' puts them back."""
    import asyncio
    import time

    from rich.progress import BarColumn, MofNCompleteColumn, Progress

    from cardroom.store.archive import DAY, archive
    from cardroom.store.db import Store

    console = _console()

    async def run() -> int:
        store = await Store.open(database_url)
        moved = 0
        try:
            now = time.time()
            total = await store.archive.count(now - older_than * DAY)
            columns = (*Progress.get_default_columns()[:1], BarColumn(), MofNCompleteColumn())
            with Progress(*columns, console=console) as progress:
                task = progress.add_task("Archiving matches", total=total)
                async for count in archive(store.archive, to, older_than, now=now):
                    moved += count
                    progress.advance(task, count)
        finally:
            await store.close()
        return moved

    try:
        moved = asyncio.run(run())
    except Exception as error:  # an unreachable database, a folder that cannot be written
        raise _fail(console, f"cannot archive {database_url} into {to}: {error}") from None
    console.print(f"Archived {moved} matches into {to}." if moved else
                  f"No match finished more than {older_than:g} days ago; nothing archived.")


@db_app.command("import-archive", cls=ReadableCommand)
def db_import_archive(
    folder: Annotated[Path, typer.Argument(help="An archive folder written by 'db archive'.")],
    database_url: DatabaseUrl = DEFAULT_DATABASE_URL,
) -> None:
    """Put archived matches back into the database (those it holds already are skipped), so
    histories, replays and profiles show them again."""
    import asyncio

    from rich.progress import BarColumn, MofNCompleteColumn, Progress

    from cardroom.store.archive import archive_files, import_archive
    from cardroom.store.db import Store

    console = _console()
    if not folder.is_dir():
        raise _fail(console, f"there is no archive folder {folder}")

    async def run() -> tuple[int, int]:
        store = await Store.open(database_url)
        read = added = 0
        try:
            columns = (*Progress.get_default_columns()[:1], BarColumn(), MofNCompleteColumn())
            with Progress(*columns, console=console) as progress:
                task = progress.add_task("Importing matches", total=len(archive_files(folder)))
                async for files, new in import_archive(store.archive, folder):
                    read, added = read + files, added + new
                    progress.advance(task, files)
        finally:
            await store.close()
        return read, added

    try:
        read, added = asyncio.run(run())
    except Exception as error:  # a damaged file, an unreachable database
        raise _fail(console, f"cannot import {folder}: {error}") from None
    console.print(f"Imported {added} of the {read} archived matches in {folder}"
                  + (f" ({read - added} were in the database already)." if read > added
                     else "."))


evaluator_app = typer.Typer(cls=ReadableGroup, no_args_is_help=True,
                             help="The bots' learned hand evaluator: make its training data "
                                  "from solved deals, and fit it.")
app.add_typer(evaluator_app, name="evaluator")


GameOption = Annotated[str, typer.Option(help="The game whose evaluator it is: 500 or 1000.")]
PlayersOption = Annotated[int | None, typer.Option(
    help="Players at the table: 500 at 4 (the default) or 3; each has its own model and "
         "data folder.")]


def _dataset(console: Console, game: str, players: int | None) -> Dataset:
    """The evaluator of ``game`` at ``players``, or a clear failure naming those there are."""
    from cardroom.tools.evaluator_data import dataset_for

    try:
        return dataset_for(game, players)
    except ValueError as error:
        raise _fail(console, str(error)) from None


@evaluator_app.command("generate", cls=ReadableCommand)
def evaluator_generate(
    out: Annotated[Path | None, typer.Option(
        help="Folder of the data's chunk files (default: data/evaluator, data/evaluator-3 "
             "for 500's three players, data/evaluator-1000 for 1000).")] = None,
    deals: Annotated[int, typer.Option(help="Deals in all (chunks already written are "
                                            "kept: a stopped run goes on where it was).")]
    = 20_000,
    seed: Annotated[str | None, typer.Option(
        help="Seed of the deals (default: the seed the shipped model learned from).")] = None,
    jobs: Annotated[int, typer.Option(help="Worker processes.")] = 1,
    game: GameOption = "500",
    players: PlayersOption = None,
) -> None:
    """Solve random deals exactly for a hand evaluator's training: 500's in every strain and
    as a misère, 1000's for the highest bet each seat makes as contractor."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from cardroom.tools.evaluator_data import generate

    console = _console()
    dataset = _dataset(console, game, players)
    out = out or dataset.folder
    columns = (*Progress.get_default_columns()[:1], BarColumn(), MofNCompleteColumn(),
               TimeRemainingColumn())
    try:
        with Progress(*columns, console=console) as progress:
            task = progress.add_task("deals solved", total=deals)
            written = generate(out, deals, seed or dataset.seed, jobs,
                               lambda done: progress.update(task, completed=done), dataset)
    except ValueError as error:  # the folder holds another seed's deals
        raise _fail(console, str(error)) from None
    console.print(f"{written} chunks written to {out}.")


@evaluator_app.command("train", cls=ReadableCommand)
def evaluator_train(
    data: Annotated[Path | None, typer.Option(
        help="Folder of the data's chunk files (default: the evaluator's, as generate "
             "writes it).")] = None,
    model: Annotated[Path | None, typer.Option(
        help="Where to write the fitted evaluator (default: the model the bots load, in "
             "this checkout).")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the fit.")] = 1,
    game: GameOption = "500",
    players: PlayersOption = None,
) -> None:
    """Fit a hand evaluator to its solved deals (needs scikit-learn: the train extra) and
    report its held-out errors."""
    from rich.table import Table as RichTable

    from cardroom.tools.evaluator_data import check_dataset
    from cardroom.tools.evaluator_training import train

    console = _console()
    dataset = _dataset(console, game, players)
    data = data or dataset.folder
    model = model or dataset.model_path
    try:
        check_dataset(data, dataset)
    except ValueError as error:
        raise _fail(console, str(error)) from None
    try:
        with console.status(f"fitting the models of {dataset.title}: "
                            f"{', '.join(dataset.kinds)}"):
            fits = train(data, model, seed, dataset=dataset)
    except (ValueError, ImportError) as error:
        raise _fail(console, str(error)) from None
    table = RichTable(title=f"Held-out errors (every tenth chunk of {data})")
    for column in ("model", "kept", "rows fitted", "rows held out", "log loss",
                   "baseline log loss", "mean error", "baseline mean error"):
        table.add_column(column)
    for kind, fit in fits.items():
        table.add_row(kind, fit.chosen, str(fit.rows), str(fit.held_out_rows),
                      *(f"{figure:.4f}" for figure in (
                          fit.log_loss, fit.baseline_log_loss, fit.mean_error,
                          fit.baseline_mean_error)))
    console.print(table)
    console.print(f"Mean error: the expected outcome's mean absolute error in "
                  f"{dataset.error_unit} (a yes-or-no model's: the Brier score). {model} "
                  f"holds {model.stat().st_size:,} bytes.")


_HIDDEN_CATEGORIES = {"Cc", "Cf", "Cs", "Zl", "Zp"}
"""Categories :func:`player_text` shows as escapes: controls (C0, DEL, C1), format characters
(bidi controls, zero-width characters), unpaired surrogates, line and paragraph separators."""


def player_text(text: str, newlines: bool = False) -> Text:
    """Text a player wrote as plain, visible text for the operator's terminal (never Rich
    markup); hidden characters are shown as escapes and a backslash is doubled, so an escape
    always stands for the character and never for what a player typed."""
    out = []
    for char in text:
        if char == "\\":
            out.append("\\\\")
        elif char == "\n" and newlines:
            out.append(char)
        elif unicodedata.category(char) in _HIDDEN_CATEGORIES:
            out.append(char.encode("unicode_escape").decode("ascii"))
        else:
            out.append(char)
    return Text("".join(out))


@app.command(cls=ReadableCommand)
def bugs(
    database_url: Annotated[str, typer.Option(
        envvar=DATABASE_URL_ENVVARS, help="The server's database.")] = DEFAULT_DATABASE_URL,
) -> None:
    """List the bug reports players sent, newest last (player text shown as plain text)."""
    # Everything a player wrote (names, descriptions, client state, table ids) is printed as
    # plain text: never read as Rich markup (a stray closing tag would stop the whole listing,
    # a link tag would become a link), with control characters, bidirectional controls and
    # other invisible format characters shown as escapes (\x1b, \u202e), so nothing a player
    # typed can move the cursor, recolour or reorder the operator's terminal.
    import asyncio
    import json

    from rich.table import Table as RichTable

    from cardroom.store.data import BugReport
    from cardroom.store.db import Store

    shown = player_text

    def shown_json(value: object) -> Text:
        """A JSON value as compact JSON text, with JSON's own escapes for every hidden
        character (JSON escapes backslashes and C0 controls itself; C1 controls and format
        characters get ``\\uXXXX``), so the listing shows valid JSON."""
        text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"),
                          default=str)
        return Text("".join(json.dumps(char)[1:-1]
                            if unicodedata.category(char) in _HIDDEN_CATEGORIES
                            else char for char in text))

    async def load() -> list[BugReport]:
        store = await Store.open(database_url)
        try:
            return await store.bugs()
        finally:
            await store.close()

    console = _console()
    reports = asyncio.run(load())
    if not reports:
        console.print("No bug reports.")
        return
    listing = RichTable(title="Bug reports")
    for column in ("#", "when", "player", "table", "actions", "description", "client state"):
        listing.add_column(column, overflow="fold")
    for report in reports:
        when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(report.created_at))
        listing.add_row(Text(str(report.id)), Text(when), shown(report.player_name),
                        shown(report.table_id or "-"),
                        Text(str(len(report.record.actions) if report.record else 0)),
                        shown(report.description, newlines=True),
                        shown_json(report.client_state))
    console.print(listing)


@app.command(cls=ReadableCommand)
def history(
    table_id: Annotated[str, typer.Argument(help="A table's id (the #table=… of its page).")],
    database_url: Annotated[str, typer.Option(
        envvar=DATABASE_URL_ENVVARS, help="The server's database.")] = DEFAULT_DATABASE_URL,
) -> None:
    """Replay a table's matches from the server's database, each with its chat."""
    import asyncio

    from cardroom.store.data import ChatLine, MatchRecord
    from cardroom.store.db import Store

    async def load() -> tuple[list[MatchRecord], list[ChatLine]]:
        store = await Store.open(database_url)
        try:
            return (await store.match_records(table_id),
                    await store.chat_lines(table_id, limit=1_000_000))
        finally:
            await store.close()

    console = _console()
    matches, lines = asyncio.run(load())
    if not matches and not lines:
        raise _fail(console, f"no matches and no chat for table {table_id!r} in {database_url}")

    def said(number: int) -> None:
        for line in (line for line in lines if line.match_number == number):
            where = "" if line.seat is not None else " (watching)"
            console.print(Text.assemble("  ", player_text(line.name), where, ": ",
                                        player_text(line.text)))

    if any(line.match_number == 0 for line in lines):
        console.print(Text("Chat before the first match", style="bold"))
        said(0)
    for match in matches:
        console.print(Text(f"Match {match.match.number}", style="bold"))
        start = replay_game(dataclasses.replace(match.record, actions=[], seats=[]))
        replay_match(start, match.record.actions, console)
        if any(line.match_number == match.match.number for line in lines):
            console.print(Text(f"Chat during match {match.match.number}", style="bold"))
            said(match.match.number)


@app.command(cls=ReadableCommand)
def arena(
    team_a: Annotated[str, typer.Option(help="Bot of team A (see BOT_NAMES).")] = DEFAULT_BOT,
    team_b: Annotated[str, typer.Option(help="Bot of team B.")] = "rules",
    preset: Annotated[str | None, typer.Option(
        help=f"Rules preset ({presets_by_game()}); it names its game.")] = None,
    game: Annotated[str | None, typer.Option(
        help=f"The game ({', '.join(GAMES)}), when no preset names it: its default preset "
             f"is played.")] = None,
    matches: Annotated[int, typer.Option(help="Matches to play (rounded up to whole sets: "
                                               "each deal is played once with A at each side "
                                               "of the table).")] = 200,
    seed: Annotated[int, typer.Option(help="Seed of the first set of matches.")] = 1,
    jobs: Annotated[int, typer.Option(help="Worker processes.")] = 1,
    records: Annotated[Path | None, typer.Option(help="Write every match's record here.")]
    = None,
    hands: Annotated[int | None, typer.Option(
        help="Stop every match after this many hands and compare the teams hand by hand "
             "(1: duplicate single deals).")] = None,
) -> None:
    """Bot teams against each other on duplicate deals, with 95% confidence intervals."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
    from rich.table import Table as RichTable

    from cardroom.bots import BOT_NAMES
    from cardroom.tools.arena import duplicate_sets, run_arena

    console = _console()
    for bot in (team_a, team_b):
        if bot not in BOT_NAMES:
            raise _fail(console, f"unknown bot {bot!r}; choose one of: {', '.join(BOT_NAMES)}")
    try:
        spec, preset = pick_game(game, preset)
    except ValueError as error:
        raise _fail(console, str(error)) from None
    rules = spec.rules(preset)
    sets = duplicate_sets(rules, matches)
    columns = (*Progress.get_default_columns()[:1], BarColumn(), MofNCompleteColumn(),
               TimeRemainingColumn())
    with Progress(*columns, console=console) as progress:
        task = progress.add_task(f"{team_a} vs {team_b}", total=sets)
        report = run_arena(rules, team_a, team_b, sets, seed, jobs, records,
                           lambda done: progress.update(task, completed=done), hands)
    table = RichTable(title=f"{report.matches} matches on duplicate deals, preset {preset} "
                            "(95% confidence intervals)")
    for column in ("", f"A: {team_a}", f"B: {team_b}"):
        table.add_column(column)
    if hands is None:
        table.add_row("match wins", str(report.win_rate("a")), str(report.win_rate("b")))
    table.add_row("points per hand", str(report.points_per_hand("a")),
                  str(report.points_per_hand("b")))
    table.add_row("A's edge per hand, same deals", str(report.edge_per_hand()), "")
    made_a, failed_a, share_a = report.contracts("a")
    made_b, failed_b, share_b = report.contracts("b")
    table.add_row("contracts made / failed", f"{made_a} / {failed_a}",
                  f"{made_b} / {failed_b}")
    table.add_row("share of contracts made", str(share_a), str(share_b))
    levels_a, levels_b = report.contracts_by_level("a"), report.contracts_by_level("b")
    for level in [*levels_a, *(name for name in levels_b if name not in levels_a)]:
        named = f"level {level}" if level.isdigit() else level
        table.add_row(f"  {named} made as contractor",
                      *(_made_of(levels.get(level)) for levels in (levels_a, levels_b)))
    console.print(table)


def _made_of(tally: tuple[int, int, object] | None) -> str:
    """A side's contracts of one kind: how many of how many were made, and the share."""
    if tally is None:
        return "-"
    made, failed, share = tally
    return f"{made} of {made + failed}, {share}"


@app.command(cls=ReadableCommand)
def analyse(
    file: Annotated[Path, typer.Argument(help="A match record (play --record, arena --records).")],
    hands: Annotated[int | None, typer.Option(help="Analyse only the first N hands.")] = None,
) -> None:
    """Each hand double dummy: what the contract could make, what it made, the costly plays."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn

    from cardroom.tools.analysis import HandAnalysis, hand_report, hands_to_analyse
    from cardroom.tools.analysis import analyse as analyse_record
    from cardroom.tools.terminal import Renderer

    console = _console()
    try:
        saved = Record.load(file)
        renderer = Renderer.of(Game.replay(saved))
        total = hands_to_analyse(saved, hands)
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise _fail(console, f"cannot analyse {file}: {error}") from None
    shown: set[int] = set()

    def show(hand: HandAnalysis) -> None:
        """Print a hand as soon as it is solved, above the progress bar."""
        progress.console.print(hand_report(hand, renderer))
        shown.add(hand.number)
        progress.advance(task)

    columns = (SpinnerColumn(), *Progress.get_default_columns()[:1], BarColumn(),
               MofNCompleteColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("solving every card", total=total)
        report = analyse_record(saved, hands, show)
    for hand in report:  # a hand the record ends in the middle of
        if hand.number not in shown:
            console.print(hand_report(hand, renderer))


@app.command(cls=ReadableCommand)
def loadtest(
    tables: Annotated[int, typer.Option(help="Tables, four WebSocket clients each.")] = 20,
    duration: Annotated[float, typer.Option(help="Seconds of play.")] = 30.0,
    url: Annotated[list[str] | None, typer.Option(
        help="WebSocket address of a running server (repeat for several). Without it, the "
             "load test starts its own servers.")] = None,
    pace: Annotated[str, typer.Option(help="human (an action every ~2 s per table) or full.")]
    = "human",
    servers: Annotated[int, typer.Option(
        help="Servers to start when no --url is given (more than one needs --database-url "
             "and --redis-url).")] = 1,
    database_url: Annotated[str | None, typer.Option(
        help="The servers' database: for starting them, and for checking the record at the "
             "end. Default: a fresh SQLite file. Give an empty one: the tables an earlier "
             "run left come back with bots in every seat and load the servers.")] = None,
    redis_url: Annotated[str | None, typer.Option(help="Redis for the servers it starts.")]
    = None,
    server_pid: Annotated[list[int] | None, typer.Option(
        help="Pid of a local server to read memory from (else /api/health is asked).")] = None,
    bot: Annotated[str, typer.Option(help="Whose choices the clients play.")] = "simple",
    bot_seats: Annotated[int, typer.Option(
        help="Seats of each table the server's own bots play (0 to 3; the table's owner "
             "runs them, so a killed owner's bots wait for its lease to end).")] = 0,
    server_bot: Annotated[str, typer.Option(
        help="The bot the servers play their seats with (--bot-seats): the room's default, "
             "thinking in the bot workers (simple: a light load).")] = DEFAULT_BOT,
    bot_delay: Annotated[float, typer.Option(
        help="Seconds the bots of the servers it starts pause before acting (a server's own "
             "default is 0.8).")] = 0.0,
    chat_every: Annotated[float, typer.Option(
        help="Say a quick phrase at each table every this many seconds on average (0: no "
             "chat).")] = 0.0,
    kill_every: Annotated[float | None, typer.Option(
        help="SIGKILL one of the servers it started every this many seconds, and restart it.")]
    = None,
    drop_rate: Annotated[float, typer.Option(
        help="Share of client connections dropped each second (they reconnect).")] = 0.0,
    stop_redis_every: Annotated[float | None, typer.Option(
        help="Run a Redis of the load test's own for the servers it starts, and SIGKILL it "
             "every this many seconds (it comes back after --stop-redis-for).")] = None,
    stop_redis_for: Annotated[float, typer.Option(
        help="Seconds each Redis outage lasts.")] = 3.0,
    seed: Annotated[int, typer.Option(help="Seed of the clients' choices.")] = 1,
    keep_logs: Annotated[Path | None, typer.Option(
        help="Copy the logs of the servers it started into this folder.")] = None,
    relay_only: Annotated[bool, typer.Option(
        help="With two servers it starts: the first owns every table, every client is on "
             "the second, which only relays (their CPU per action apart).")] = False,
    full_views: Annotated[bool, typer.Option(
        help="Clients take every table message whole rather than as patches.")] = False,
) -> None:
    """Drive N tables of bots behind WebSockets against the server and measure it.

    With faults (killed servers, dropped connections, Redis down), check that nothing is lost."""
    import asyncio
    from pathlib import Path as _Path

    from rich.table import Table as RichTable

    from cardroom.bots import BOT_NAMES
    from cardroom.tools.loadtest import HUMAN_THINK, LoadRun, default_folder, figures, run_load
    from cardroom.tools.loadtest import start_servers as start_load_servers
    from cardroom.tools.processes import ManagedRedis, free_port

    console = _console()
    if pace not in ("human", "full"):
        raise _fail(console, "--pace is human or full")
    for name in (bot, server_bot):
        if name not in BOT_NAMES:
            raise _fail(console, f"unknown bot {name!r}; choose one of: {', '.join(BOT_NAMES)}")
    if not 0 <= bot_seats < 4:
        raise _fail(console, "--bot-seats is 0 to 3: one seat at least is a client's")
    if kill_every and url:
        raise _fail(console, "--kill-every kills only servers the load test started itself: "
                             "leave out --url")
    if relay_only and (url or servers != 2 or kill_every):
        raise _fail(console, "--relay-only takes --servers 2 that the load test starts, and "
                             "no --kill-every (a restarted server takes tables)")
    if stop_redis_every and (url or redis_url):
        raise _fail(console, "--stop-redis-every stops a Redis of the load test's own, for "
                             "servers it starts: leave out --url and --redis-url")
    with default_folder() as folder:
        started = []
        own_redis = None
        try:
            if stop_redis_every:
                own_redis = ManagedRedis(free_port(), _Path(folder) / "redis.log")
                own_redis.start()
                redis_url = own_redis.url
            if not url:
                try:
                    # Every client comes from this machine's one address: the chat's
                    # per-address limit would stop the chat traffic being measured.
                    chatty = ["--max-chat-per-minute", "1000000"] if chat_every else []
                    started = start_load_servers(servers, database_url, redis_url,
                                                 _Path(folder), extra=[
                                                     *chatty, "--bot-delay", str(bot_delay)])
                except (ValueError, RuntimeError) as error:
                    raise _fail(console, str(error)) from None
            run = LoadRun(urls=list(url) if url else [s.url for s in started], tables=tables,
                          duration=duration, think=HUMAN_THINK if pace == "human" else 0.0,
                          bot=bot, bot_seats=bot_seats, server_bot=server_bot,
                          chat_every=chat_every,
                          drop_rate=drop_rate,
                          kill_every=kill_every,
                          redis=own_redis, stop_redis_every=stop_redis_every,
                          stop_redis_for=stop_redis_for,
                          servers=started, server_pids=list(server_pid or []),
                          database_url=database_url or (started[0].database_url
                                                        if started else None), seed=seed,
                          relay_only=relay_only, full_views=full_views)
            asyncio.run(run_load(run, console))
        finally:
            for server in started:
                server.stop()
            if own_redis is not None:
                own_redis.stop()
            if keep_logs is not None:
                import shutil

                keep_logs.mkdir(parents=True, exist_ok=True)
                for server in started:
                    shutil.copy(server.log, keep_logs / server.log.name)
    result = RichTable(title="cardroom loadtest")
    result.add_column("figure")
    result.add_column("value", justify="right", overflow="fold")
    for name, value in figures(run):
        result.add_row(name, value)
    console.print(result)
    verdict = run.verdict
    for label, items in (("missing", verdict.missing), ("replayed differently",
                                                        verdict.mismatched),
                         ("stuck", verdict.stuck)):
        for item in items[:10]:
            console.print(f"[red]{label}:[/red] {item}")
    if not verdict.ok:
        raise typer.Exit(code=1)
