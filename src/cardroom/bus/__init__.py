"""Fan-out of table events between server processes: in-process by default."""

from cardroom.bus.memory import Bus, InProcessBus

__all__ = ["Bus", "InProcessBus"]
