"""A ``table`` message sent as what changed since the last one (``table_patch``).

A table's full message is about 5 KB and most of it (the rules, the ladder of bids, the seats,
the earlier matches) is the same from one action to the next. A connection that asks for
patches (``/ws?patches=1``) gets one full ``table`` message when it opens a table, and after
that, for each change, a ``table_patch``: the message's top-level parts that changed, and the
view's parts that changed or went. Applying the patch to the message it was built against
gives the full message exactly; a client holding any other version (a message lost between
processes) opens the table again for a full one. The server, the Python client and the
browser (``net.js``) share these rules; the server tests check that patches applied in order
rebuild every full message.
"""

from __future__ import annotations

from typing import Any, cast

from cardroom.protocol import TablePatch, TableUpdate

_NOT_PATCHED = frozenset({"type", "table_id", "version", "view"})
"""Top-level keys a patch never carries in ``set``: the first two never change, the version
is the patch's own, and the view is patched key by key."""


def _differs(before: Any, after: Any) -> bool:
    """Whether a part changed (the same object is the same part, without a deep compare)."""
    return before is not after and before != after


def table_patch(before: TableUpdate, after: TableUpdate) -> TablePatch | None:
    """What turns ``before`` (the last message a connection was sent) into ``after``, or
    ``None`` when only a full message will do: another table, or a version that did not move
    on (a patch's ``base`` must name exactly one message)."""
    if before["table_id"] != after["table_id"] or after["version"] <= before["version"]:
        return None
    parts = cast("dict[str, Any]", before)
    changed = {key: value for key, value in after.items()
               if key not in _NOT_PATCHED and (key not in parts or _differs(parts[key], value))}
    view_set: dict[str, Any] = {}
    view_unset: list[str] = []
    old, new = before["view"], after["view"]
    if old is None or new is None:
        if old is not new:
            changed["view"] = new
    elif old is not new:
        view_set = {key: value for key, value in new.items()
                    if key not in old or _differs(old[key], value)}
        view_unset = [key for key in old if key not in new]
    return {"type": "table_patch", "table_id": after["table_id"], "version": after["version"],
            "base": before["version"], "set": changed, "view_set": view_set,
            "view_unset": view_unset}


def apply_table_patch(message: TableUpdate | None, patch: TablePatch) -> TableUpdate | None:
    """The full message ``patch`` leads to from ``message`` (the last one held of the
    table), or ``None`` when it was built against another version or none is held (a
    message was lost on the way: open the table again)."""
    if (message is None or message["table_id"] != patch["table_id"]
            or message["version"] != patch["base"]):
        return None
    merged: dict[str, Any] = {**message, **patch["set"], "version": patch["version"]}
    if patch["view_set"] or patch["view_unset"]:
        view = dict(message["view"] or {})
        for key in patch["view_unset"]:
            view.pop(key, None)
        view.update(patch["view_set"])
        merged["view"] = view
    return cast("TableUpdate", merged)
