"""The one exception the room refuses a request with: a protocol error code and a message."""

from __future__ import annotations

from cardroom.protocol import ErrorCode, Quota


class RoomError(Exception):
    """A refused request: a protocol error code and a message for the player; ``quota``
    names the limit reached when the code is ``quota_exceeded``. Nothing refused changes any
    state."""

    def __init__(self, code: ErrorCode, message: str, quota: Quota | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.quota = quota


def no_such_table() -> RoomError:
    """The error for a table that closed, never was, or is private to the asker: the same
    answer for each, so a guessed id tells nothing."""
    return RoomError(ErrorCode.NO_SUCH_TABLE, "There is no such table (it may have closed).")


class Moved(RoomError):
    """A change of a table this process no longer owns (another process took it over): it
    is not written here. A verb meets it only while its table changes hands; the relay then
    sends the verb to the new owner (:mod:`cardroom.tables.relay`)."""

    def __init__(self) -> None:
        super().__init__(ErrorCode.RECONNECTING, "The table is moving to another server: "
                                                 "try again in a moment.")
