"""The bot workers: processes that work out bots' decisions and hints, shared fairly by tables.

Bots are pure Python and numba and hold the interpreter lock, so they think in worker processes
and the event loop never waits for them. A first-come first-served pool let a few tables hog
every worker: ten tables of ``search:strong`` bots with tiny turn timers queued decision after
decision, and an unrelated table's bot turn took 18.6 s instead of 2.4 s. :class:`BotWorkers`
shares the workers instead:

- **Round-robin by key** (the table id): requests wait in per-key slots, and a free worker takes
  the waiting request of the key it served least recently (keys it never served first, then by
  arrival). A table that asked a hundred times does not go before one that asked once.
- **One waiting request per key and kind**: a new :meth:`BotWorkers.decide` for a key whose
  earlier ``decide`` still waits replaces it, and the earlier caller gets :class:`Superseded`
  (a table that moved on does not want the old answer; a dedicated exception, so that no
  caller mistakes it for its own cancellation); likewise for :meth:`BotWorkers.run`.
  The replacement keeps the replaced request's place in line.
- **A time budget the server enforces**: a worker that has not answered within ``budget``
  seconds is killed and replaced by a fresh one; the table gets a quick bot's move instead
  (:data:`FALLBACK_BOT`, made in this process in about a millisecond), a ``run`` caller
  gets :class:`TimeoutError`.
- **Steady decisions are the same under any load**: a decision asked for with ``steady``
  (the daily challenge's bots, whose replies must be the same for everybody) gets
  :data:`STEADY_BUDGET` times the budget (a fresh worker's first 1000 search compiles the
  solver first) and, past it or with its worker lost, is asked again of a fresh worker up to
  :data:`STEADY_TRIES` times in all: a quick bot's move would answer some players differently
  from others. It is never run lighter, either.
- **Strong levels only where there is room**: a decision that starts while at least
  ``workers`` other requests wait runs one level lighter (:data:`DOWNGRADE`), and two levels
  lighter while :data:`DEEP_BACKLOG` times as many wait: the default ``search`` then plays
  as the rules bot, which answers in about a millisecond, so that bots' turns stay short
  however many tables of bots a server holds.

The workers talk to the server over one pipe each (no queues, so no semaphores for the resource
tracker to find leaked when a worker is killed), and end by themselves when the server dies.
They are forked from a fork server that loaded the bots and compiled the search once
(:mod:`cardroom.tables.warm_workers`), so a new or replacement worker starts warm at once,
without the threads or the event loop of the server it would have inherited from a plain fork.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import multiprocessing
import multiprocessing.context
import multiprocessing.forkserver
import os
import signal
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.context import ForkServerContext
from typing import Any

from cardroom.bots import BOT_NAMES, make_bot
from cardroom.bots.warm import compile_search

log = logging.getLogger(__name__)

DOWNGRADE: dict[str, str] = {"search:strong": "search", "search": "search:fast"}
"""The lighter level a decision runs at when the workers are backlogged (at least ``workers``
other requests waiting as it starts); bots not named here (the quick ones) run as asked."""
DEEP_DOWNGRADE: dict[str, str] = {"search:strong": "search:fast", "search": "rules"}
"""The level two steps lighter, past :data:`DEEP_BACKLOG` (``search:fast`` itself is never
run lighter: a table that chose it gets it whenever one level lighter is all the load asks)."""
DEEP_BACKLOG = 8
"""Requests waiting, in workers, from which a decision runs two levels lighter (see
:data:`DEEP_DOWNGRADE`). With ``search`` in three seats of 500 tables at a human pace on two cores,
one level lighter left a bot's turn 0.5 s at the median and 5.7 s at the 99th percentile;
from 8 requests a worker the turns' 99th percentile stays under 0.6 s past the bots' pause,
and from 4 it is no shorter while three times as many decisions at 100 tables step down
twice (bench/RESULTS.md)."""
FALLBACK_BOT = "rules"
"""The quick bot that decides, in the server process, when a worker overruns its budget."""
STEADY_BUDGET = 3.0
"""How many budgets a steady decision may take (see the module's notes)."""
STEADY_TRIES = 3
"""Fresh workers a steady decision is asked of before the quick bot decides after all."""
START_TIMEOUT = 120.0
"""Seconds a new worker may take to start and load the bots' code."""
STOP_GRACE = 5.0
"""Seconds an idle worker has to exit once its pipe is closed before it is killed."""
REMEMBERED_KEYS = 4096
"""Keys whose last service is remembered; a forgotten key counts as served longest ago,
where it would have stood in line anyway."""
DECIDE = "decide"
RUN = "run"


class Superseded(Exception):
    """A newer request of the same key and kind replaced this one before a worker took it."""


class WorkerLost(RuntimeError):
    """The worker process died while working out a :meth:`BotWorkers.run` request."""


# -- in the worker processes ----------------------------------------------------------------------

def warm_up() -> None:
    """Load the bots' code in a worker process and compile the search (so its first real
    decision, or a player's first hint, is quick)."""
    for name in BOT_NAMES:
        make_bot(name)
    try:
        compile_search()
    except Exception:  # a speed-up only: the search still compiles on its first real use
        log.exception("the bot worker could not compile the search ahead of play")


def watch_parent(parent: int, every: float = 1.0) -> None:
    """Make this worker process end when the server that started it is gone.

    A server killed outright (SIGKILL, the out-of-memory killer, a crash) cannot stop its
    workers, and a worker busy with a long decision would not notice its closed pipe until
    done: in a fault run with a hundred kills, idle workers piled up until memory ran out.
    The worker's parent is the fork server, which exits when the server is gone; the server
    itself is asked too, in case the fork server outlives it."""
    forked_by = os.getppid()

    def watch() -> None:
        while os.getppid() == forked_by and _alive(parent):
            time.sleep(every)
        os._exit(0)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


def _alive(pid: int) -> bool:
    """Whether the process ``pid`` still exists (a zombie counts until it is reaped)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def choose(bot: str, seed: int, view: dict[str, Any]) -> str:
    """A bot's action for a view (module-level, so it pickles to a worker)."""
    return make_bot(bot, seed=seed).choose(view)


def serve(conn: Connection, parent: int) -> None:
    """A worker process's life: warm up, say so, then answer jobs until the pipe closes.

    Each job is ``(function, args)``; each answer ``(ok, result or exception, seconds)``.
    Ctrl-C in a terminal reaches the whole process group: the server ends its workers itself.
    A worker holds nothing to save, so it skips the interpreter's slow tidy-up at the end."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    watch_parent(parent)
    warm_up()
    conn.send(os.getpid())
    while (answer := _work(conn)) is not None:
        try:
            _reply(conn, answer)
        except OSError:  # the server is gone
            break
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def _work(conn: Connection) -> tuple[bool, Any, float] | None:
    """Receive one job and work it out; None once the server has closed the pipe."""
    try:
        function, args = conn.recv()
    except EOFError:
        return None
    except Exception as error:  # a job that does not unpickle here
        return False, error, 0.0
    started = time.perf_counter()
    try:
        return True, function(*args), time.perf_counter() - started
    except Exception as error:
        return False, error, time.perf_counter() - started


def _reply(conn: Connection, answer: tuple[bool, Any, float]) -> None:
    """Send an answer; one that does not pickle goes as an error naming it."""
    try:
        conn.send(answer)
    except OSError:
        raise
    except Exception as error:  # pickling fails before anything is written
        conn.send((False, RuntimeError(f"the answer does not pickle: {error!r}"), answer[2]))


# -- in the server --------------------------------------------------------------------------------

class _Worker:
    """One worker process and the server's end of the pipe to it."""

    def __init__(self, context: ForkServerContext) -> None:
        self.conn, self._there = context.Pipe()
        self.process = context.Process(target=serve, args=(self._there, os.getpid()),
                                       name="cardroom-bot-worker", daemon=True)

    async def start(self) -> None:
        """Start the process and wait until it has warmed up."""
        self.process.start()
        self._there.close()  # so the pipe reports the worker's death
        await self._receive(START_TIMEOUT)

    async def call(self, function: Callable[..., Any], args: tuple[Any, ...],
                   timeout: float) -> tuple[bool, Any, float]:
        """Have the worker run ``function(*args)``: ``TimeoutError`` past ``timeout`` seconds,
        :class:`WorkerLost` if it dies."""
        try:
            self.conn.send((function, args))
        except OSError as error:
            raise WorkerLost("the bot worker is gone") from error
        return await self._receive(timeout)

    async def _receive(self, timeout: float) -> Any:
        """The worker's next message, read when the pipe has one (the loop never blocks)."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[Any] = loop.create_future()
        fd = self.conn.fileno()
        loop.add_reader(fd, self._read, answer)
        try:
            return await asyncio.wait_for(answer, timeout)
        finally:
            loop.remove_reader(fd)

    def _read(self, answer: asyncio.Future[Any]) -> None:
        """The pipe is readable: a message, or the end of a worker that died."""
        if answer.done():
            return
        try:
            answer.set_result(self.conn.recv())
        except (EOFError, OSError) as error:
            answer.set_exception(WorkerLost(f"the bot worker died: {error!r}"))
        except Exception as error:  # an answer that does not unpickle here
            answer.set_exception(error)

    def kill(self) -> None:
        """Kill the process (if it runs) and close the pipe; reap it with :meth:`join`."""
        if self.process.is_alive():
            self.process.kill()
        self.conn.close()
        self._there.close()

    def join(self, timeout: float | None = None) -> None:
        """Wait (blocking) for the process to exit; kill it if it has not in ``timeout``."""
        if self.process.pid is None:
            return
        self.process.join(timeout)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()


@dataclass(eq=False)
class _Request:
    """A request waiting for, or being worked out by, a worker."""

    key: str
    kind: str
    function: Callable[..., Any]
    args: tuple[Any, ...]
    answer: asyncio.Future[Any]
    order: int
    """Place in line by arrival (a replacement keeps the replaced request's)."""
    budget_share: float = 1.0
    """Budgets this request may take (more than one for a steady decision)."""
    steady: bool = False
    """A decision that must not change with the load: never run lighter."""


FORK_SERVER_PRELOAD = ["cardroom.tables.warm_workers"]
"""What the workers' fork server imports before it forks any worker."""


def fork_context() -> multiprocessing.context.ForkServerContext:
    """The workers' process context: forked from a server that has loaded the bots."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(FORK_SERVER_PRELOAD)
    return context


def start_fork_server() -> None:
    """Start the workers' fork server now, so that it loads and warms the bots' code while
    this process loads the rest of the server: the first workers then fork at once instead
    of waiting for it (a server's start was the two one after the other)."""
    fork_context()
    multiprocessing.forkserver.ensure_running()


class BotWorkers:
    """Worker processes for bots' decisions and other bot work, shared fairly by keys.

    ``workers`` processes; ``budget`` seconds per request before its worker is killed and
    replaced; ``on_decision(seconds)`` is told how long the worker spent on each decision
    (an overrun counts the time waited, about ``budget``). ``budget`` may be changed at any
    time: each request reads it as it starts. Call :meth:`start` before use and :meth:`stop`
    at the end; a stopped pool does not start again."""

    def __init__(self, workers: int, budget: float = 10.0,
                 on_decision: Callable[[float], None] | None = None) -> None:
        if workers < 1:
            raise ValueError("at least one bot worker is needed")
        self.workers = workers
        self.budget = budget
        self.on_decision = on_decision
        self.counters: dict[str, int] = {"decided": 0, "downgraded": 0,
                                         "downgraded_twice": 0, "overran": 0, "lost": 0,
                                         "superseded": 0}
        """Decisions taken by a worker, and what the pool had to do about its load and its
        workers (``downgraded`` counts every decision run lighter, ``downgraded_twice``
        those of them run two levels lighter): for /metrics and /api/health."""
        self._context = fork_context()
        self._live: set[_Worker] = set()
        self._idle: list[_Worker] = []
        self._waiting: dict[str, dict[str, _Request]] = {}
        """Per key, the waiting request of each kind."""
        self._served: OrderedDict[str, int] = OrderedDict()
        """When each key last had a request taken, in dispatches, least recent first."""
        self._arrivals = itertools.count()
        self._dispatches = itertools.count()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._stopped = False

    @property
    def pending(self) -> int:
        """Requests waiting for a worker."""
        return sum(len(requests) for requests in self._waiting.values())

    async def start(self) -> None:
        """Start the workers and wait until each has loaded the bots' code."""
        started = await asyncio.gather(*(self._new_worker() for _ in range(self.workers)),
                                       return_exceptions=True)
        self._idle.extend(w for w in started if isinstance(w, _Worker))
        failure = next((e for e in started if isinstance(e, BaseException)), None)
        if failure is not None:
            await self.stop()
            raise failure
        self._dispatch()

    async def decide(self, key: str, bot: str, seed: int, view: dict[str, Any],
                     steady: bool = False) -> str:
        """The action of the registry bot ``bot`` for ``view``, for the table ``key``.

        :class:`Superseded` if a newer ``decide`` for the key replaced this one while it
        waited; past the budget (or if the worker dies), :data:`FALLBACK_BOT`'s action. A
        ``steady`` decision (one that must be the same whatever the load) has a larger
        budget, is never run lighter and is asked again of fresh workers before the quick bot
        answers. The bot's own errors are raised here."""
        tries = STEADY_TRIES if steady else 1
        for attempt in range(1, tries + 1):
            try:
                return await self._submit(key, DECIDE, choose, (bot, seed, view),
                                          STEADY_BUDGET if steady else 1.0, steady)
            except (TimeoutError, WorkerLost) as failure:
                what = ("overran its budget" if isinstance(failure, TimeoutError)
                        else "lost its worker")
                if attempt < tries:
                    log.warning("bot %s at table %s %s; asking a fresh worker again", bot,
                                key, what)
                    continue
                log.warning("bot %s at table %s %s; the %s bot decided instead", bot, key,
                            what, FALLBACK_BOT)
        return make_bot(FALLBACK_BOT, seed=seed).choose(view)

    async def run(self, key: str, function: Callable[..., Any], *args: Any,
                  budget_share: float = 1.0) -> Any:
        """``function(*args)`` worked out in a worker for ``key``, as fairly as decisions.

        ``function`` and ``args`` must pickle (a module-level function). :class:`Superseded`
        if a newer ``run`` for the key replaced this one while it waited; ``TimeoutError`` past
        ``budget_share`` budgets; :class:`WorkerLost` if the worker dies; the function's own
        errors."""
        return await self._submit(key, RUN, function, args, budget_share)

    async def stop(self) -> None:
        """Cancel every request, close the pipes and wait (off the event loop) for the workers
        to exit: idle ones end at once, busy ones are killed (their answers are not wanted)."""
        self._stopped = True
        for requests in self._waiting.values():
            for request in requests.values():
                request.answer.cancel()
        self._waiting.clear()
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        workers, idle = list(self._live), set(self._idle)
        self._live.clear()
        self._idle.clear()
        for worker in workers:
            if worker in idle:
                worker.conn.close()  # it reads the end of its pipe and exits
            else:
                worker.kill()
        await asyncio.to_thread(_join_all, workers, STOP_GRACE)

    # -- queueing ---------------------------------------------------------------------------------

    async def _submit(self, key: str, kind: str, function: Callable[..., Any],
                      args: tuple[Any, ...], budget_share: float = 1.0,
                      steady: bool = False) -> Any:
        """Queue a request in the key's slot for its kind (superseding the one waiting there)
        and wait for its answer (within ``budget_share`` budgets; ``steady``: see
        :meth:`decide`)."""
        if self._stopped:
            raise RuntimeError("the bot workers are stopped")
        requests = self._waiting.setdefault(key, {})
        earlier = requests.get(kind)
        order = earlier.order if earlier is not None else next(self._arrivals)
        request = _Request(key, kind, function, args,
                           asyncio.get_running_loop().create_future(), order, budget_share,
                           steady)
        requests[kind] = request
        if earlier is not None and not earlier.answer.done():
            self.counters["superseded"] += 1
            earlier.answer.set_exception(Superseded(f"a newer {kind} for {key} replaced it"))
        self._dispatch()
        try:
            return await request.answer
        finally:
            self._withdraw(request)

    def _withdraw(self, request: _Request) -> None:
        """Forget a request that still waits (its caller was cancelled)."""
        requests = self._waiting.get(request.key, {})
        if requests.get(request.kind) is request:
            del requests[request.kind]
            if not requests:
                del self._waiting[request.key]

    def _dispatch(self) -> None:
        """Hand waiting requests to idle workers, fairly."""
        while self._idle and self._waiting and not self._stopped:
            request = self._next()
            if not request.answer.done():  # else its caller was cancelled a moment ago
                self._spawn(self._serve(self._idle.pop(), request))

    def _next(self) -> _Request:
        """Take the waiting request of the key served least recently (then oldest)."""
        key = min(self._waiting, key=self._place)
        requests = self._waiting[key]
        request = min(requests.values(), key=lambda r: r.order)
        self._withdraw(request)
        self._served[key] = next(self._dispatches)
        self._served.move_to_end(key)
        if len(self._served) > REMEMBERED_KEYS:
            self._served.popitem(last=False)
        return request

    def _place(self, key: str) -> tuple[int, int]:
        """A key's place in line: least recently served first (never: -1), then oldest."""
        return (self._served.get(key, -1),
                min(request.order for request in self._waiting[key].values()))

    # -- working ----------------------------------------------------------------------------------

    async def _serve(self, worker: _Worker, request: _Request) -> None:
        """Have ``worker`` work out ``request``; replace the worker if it overruns or dies."""
        if request.kind == DECIDE:
            self.counters["decided"] += 1
            if not request.steady:
                self._downgrade(request)
        started = time.perf_counter()
        budget = self.budget * request.budget_share
        try:
            ok, value, seconds = await worker.call(request.function, request.args, budget)
        except (TimeoutError, WorkerLost) as failure:
            overran = isinstance(failure, TimeoutError)
            self.counters["overran" if overran else "lost"] += 1
            self._retire(worker)
            if overran:
                failure = TimeoutError(f"no answer within the budget of {budget:g} s")
            self._answer(request, False, failure, time.perf_counter() - started)
            return
        except asyncio.CancelledError:
            request.answer.cancel()
            raise
        except Exception as error:  # an answer that does not unpickle here
            ok, value, seconds = False, error, time.perf_counter() - started
        self._idle.append(worker)
        self._answer(request, ok, value, seconds)
        self._dispatch()

    def _downgrade(self, request: _Request) -> None:
        """Run a strong level one level lighter while at least ``workers`` others wait, two
        while :data:`DEEP_BACKLOG` times as many do."""
        bot, *rest = request.args
        deep = self.pending >= DEEP_BACKLOG * self.workers
        lighter = (DEEP_DOWNGRADE if deep else DOWNGRADE).get(bot)
        if lighter is None or self.pending < self.workers:
            return
        log.debug("%d requests wait: bot %s at table %s runs as %s", self.pending, bot,
                  request.key, lighter)
        self.counters["downgraded"] += 1
        self.counters["downgraded_twice"] += deep
        request.args = (lighter, *rest)

    def _answer(self, request: _Request, ok: bool, value: Any, seconds: float) -> None:
        """Tell the caller (unless it gave up) and, for a decision, ``on_decision``."""
        if request.kind == DECIDE and self.on_decision is not None:
            try:
                self.on_decision(seconds)
            except Exception:
                log.exception("on_decision")
        if request.answer.done():  # its caller was cancelled meanwhile
            return
        if ok:
            request.answer.set_result(value)
        else:
            request.answer.set_exception(value)

    def _retire(self, worker: _Worker) -> None:
        """Kill a worker that overran or died, and start a fresh one in its place."""
        worker.kill()
        self._live.discard(worker)
        self._spawn(self._replace(worker))

    async def _replace(self, worker: _Worker) -> None:
        """Reap a killed worker, then start and warm up its successor (retrying failures)."""
        await asyncio.to_thread(worker.join)
        while not self._stopped:
            try:
                fresh = await self._new_worker()
            except Exception:
                log.exception("a bot worker did not start; trying again")
                await asyncio.sleep(1.0)
                continue
            self._idle.append(fresh)
            self._dispatch()
            return

    async def _new_worker(self) -> _Worker:
        """A started, warmed-up worker; one that fails to start is killed and reaped."""
        worker = _Worker(self._context)
        self._live.add(worker)
        try:
            await worker.start()
        except BaseException:
            self._live.discard(worker)
            worker.kill()
            await asyncio.to_thread(worker.join)
            raise
        return worker

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in a task that :meth:`stop` can cancel."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


def _join_all(workers: list[_Worker], grace: float) -> None:
    """Wait (blocking) up to ``grace`` seconds in all for the workers to exit; kill the rest."""
    deadline = time.monotonic() + grace
    for worker in workers:
        worker.join(max(0.0, deadline - time.monotonic()))
