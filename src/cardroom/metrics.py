"""What an operator can see of a running card room, in Prometheus's text format (``/metrics``).

One :class:`Metrics` per server process, on a registry of its own (so several rooms in one
test process never share counters). Counters and histograms are updated where things happen
(the room, the socket, the bot workers); the figures that are a state (connections, tables,
the bot queue, quota refusals) are read from the room only when ``/metrics`` is scraped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
                   10.0, 30.0)
"""Seconds: from a millisecond (a quiet server's action) to half a minute (a stuck one)."""
DECISION_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
"""Seconds: quick bots decide in a millisecond, the strong search in a few seconds."""


@dataclass
class RoomState:
    """The room's figures at one moment (read at each scrape)."""

    connections: int = 0
    lobby_watchers: int = 0
    tables: dict[str, int] = field(default_factory=dict)
    """Open tables by state (``waiting``, ``playing``, ``closing``)."""
    bot_queue: int = 0
    """Bot decisions and hints waiting for a worker."""
    bot_workers: dict[str, int] = field(default_factory=dict)
    """What the bot workers did so far, by event (``BotWorkers.counters``)."""
    quota_refusals: dict[str, int] = field(default_factory=dict)
    """Requests refused so far, by quota."""


class _StateCollector(Collector):
    """Reports a :class:`RoomState` read from the room when scraped."""

    def __init__(self, read: Callable[[], RoomState]) -> None:
        self._read = read

    def collect(self) -> Iterator[Metric]:
        state = self._read()
        yield GaugeMetricFamily("cardroom_connections", "Open WebSocket connections.",
                                value=state.connections)
        yield GaugeMetricFamily("cardroom_lobby_watchers",
                                "Connections watching the lobby.", value=state.lobby_watchers)
        tables = GaugeMetricFamily("cardroom_tables", "Open tables by state.",
                                   labels=["state"])
        for name, count in sorted(state.tables.items()):
            tables.add_metric([name], count)
        yield tables
        yield GaugeMetricFamily("cardroom_bot_queue_length",
                                "Bot decisions and hints waiting for a worker.",
                                value=state.bot_queue)
        work = CounterMetricFamily("cardroom_bot_worker_events",
                                   "Bot decisions taken by a worker, run one level lighter "
                                   "or two under a backlog, overrun, lost or superseded.",
                                   labels=["event"])
        for name, count in sorted(state.bot_workers.items()):
            work.add_metric([name], count)
        yield work
        refusals = CounterMetricFamily("cardroom_quota_refusals",
                                       "Requests refused because a quota was reached.",
                                       labels=["quota"])
        for name, count in sorted(state.quota_refusals.items()):
            refusals.add_metric([name], count)
        yield refusals


class Metrics:
    """The process's counters and histograms, and its ``/metrics`` text."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.actions = Counter("cardroom_actions", "Actions accepted at tables (players' "
                               "and bots'); its rate is actions per second.",
                               registry=self.registry)
        self.action_latency = Histogram(
            "cardroom_action_to_view_seconds",
            "From an action's arrival (or a bot's decision) to its views being queued for "
            "every connection following the table.", buckets=LATENCY_BUCKETS,
            registry=self.registry)
        self.bot_decision = Histogram("cardroom_bot_decision_seconds",
                                      "Time a bot decision took in its worker.",
                                      buckets=DECISION_BUCKETS, registry=self.registry)
        self.db_write = Histogram("cardroom_db_write_seconds",
                                  "Time to write one change of a table to the database.",
                                  buckets=LATENCY_BUCKETS, registry=self.registry)
        self.rejected = Counter("cardroom_rejected_messages",
                                "Client messages answered with an error, by error code.",
                                ["code"], registry=self.registry)

    def watch(self, read: Callable[[], RoomState]) -> None:
        """Report the room's state, read by ``read`` at every scrape."""
        self.registry.register(_StateCollector(read))

    def text(self) -> bytes:
        """Every metric in Prometheus's text exposition format."""
        return generate_latest(self.registry)
