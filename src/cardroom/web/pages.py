"""Server-rendered pages: the rules of each preset, the rules at a live table, and help.

The rules pages render :func:`cardroom.web.rules_text.explain` of a :class:`Rules` value, so
what they say is what the engine does. ``routes`` is added to the app in ``web/app.py``; the
pages expect ``/static`` to serve ``web/static`` (``css/pages.css``, ``js/cards.js``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse
from starlette.routing import Route

from cardroom.games import thousand
from cardroom.games.five_hundred import ALL_PRESET_NAMES, Rules
from cardroom.web import rules_text_thousand
from cardroom.web.rules_text import PRESET_TITLES, explain, summary

TEMPLATES_DIR = Path(__file__).parent / "templates"

_env = Environment(
    loader=FileSystemLoader(TEMPLATES_DIR),
    autoescape=select_autoescape(default=True, default_for_string=True),
    trim_blocks=True,
    lstrip_blocks=True,
)


def render(template: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    """An HTML response from one of the page templates."""
    return HTMLResponse(_env.get_template(template).render(**context), status_code=status_code)


def _title(preset: str) -> str:
    """A preset's display name."""
    return PRESET_TITLES.get(preset, preset)


def not_found(message: str, choices: list[tuple[str, str]] | None = None) -> HTMLResponse:
    """The 404 page, with a few links to what the visitor may have meant."""
    return render("not_found.html", 404, message=message, choices=choices or [])


async def rules_index(_request: Request) -> HTMLResponse:
    """``GET /rules``: every preset of both games in short, each linking to its full rules."""
    presets = [{"name": name, "title": _title(name), "summary": summary(Rules.preset(name)),
                "href": f"/rules/{name}"} for name in ALL_PRESET_NAMES]
    thousand_presets = [
        {"name": name, "title": rules_text_thousand.title(name), "href": f"/rules/1000/{name}",
         "summary": rules_text_thousand.summary(thousand.Rules.preset(name))}
        for name in thousand.PRESET_NAMES]
    return render("rules_index.html", section="rules", presets=presets,
                  thousand_presets=thousand_presets)


async def thousand_preset(request: Request) -> HTMLResponse:
    """``GET /rules/1000/{preset}``: the full rules of one preset of 1000."""
    name = request.path_params["preset"]
    if name not in thousand.PRESET_NAMES:
        return not_found(f"There is no 1000 preset called “{name}”.",
                         [(f"/rules/1000/{p}", f"1000: {rules_text_thousand.title(p)} rules")
                          for p in thousand.PRESET_NAMES])
    explanation = rules_text_thousand.explain(thousand.Rules.preset(name))
    return render("rules.html", section="rules", explanation=explanation,
                  preset_title=rules_text_thousand.title(name), table_id=None,
                  rules_prefix="/rules/1000/", game="1000")


async def thousand_index(_request: Request) -> RedirectResponse:
    """``GET /rules/1000``: the 1000 part of the rules index."""
    return RedirectResponse("/rules#game-1000")


async def rules_preset(request: Request) -> HTMLResponse:
    """``GET /rules/{preset}``: the full rules of one preset."""
    name = request.path_params["preset"]
    if name not in ALL_PRESET_NAMES:
        return not_found(f"There is no preset called “{name}”.",
                         [(f"/rules/{p}", f"{_title(p)} rules") for p in ALL_PRESET_NAMES])
    explanation = explain(Rules.preset(name))
    return render("rules.html", section="rules", explanation=explanation,
                  preset_title=_title(name), table_id=None)


def _table_rules(request: Request, table_id: str) -> Rules | thousand.Rules | None:
    """The rules in force at a table of the app's room, or ``None`` if there is no such table."""
    room = getattr(request.app.state, "room", None)
    tables = getattr(room, "tables", None) or {}
    table = tables.get(table_id)
    return None if table is None else table.rules


async def rules_table(request: Request) -> HTMLResponse:
    """``GET /rules/table/{table_id}``: the rules at a live table, house rules marked."""
    table_id = request.path_params["table_id"]
    rules = _table_rules(request, table_id)
    if rules is None:
        return not_found("There is no table with that id: it may have closed.",
                         [("/", "The card room"), ("/rules", "Rules of every preset")])
    if isinstance(rules, thousand.Rules):
        explanation = rules_text_thousand.explain(rules, mark_house_rules=True,
                                                  title_text=f"Rules of 1000 at table {table_id}")
        return render("rules.html", section="rules", explanation=explanation,
                      preset_title=rules_text_thousand.title(explanation.closest),
                      table_id=table_id, rules_prefix="/rules/1000/", game="1000")
    explanation = explain(rules, mark_house_rules=True,
                          title=f"Rules at table {table_id}")
    return render("rules.html", section="rules", explanation=explanation,
                  preset_title=_title(explanation.closest), table_id=table_id)


async def help_page(_request: Request) -> HTMLResponse:
    """``GET /help``: how to use the card room."""
    return render("help.html", section="help")


routes: list[Route] = [
    Route("/rules", rules_index, methods=["GET"]),
    Route("/rules/table/{table_id}", rules_table, methods=["GET"]),
    Route("/rules/1000", thousand_index, methods=["GET"]),
    Route("/rules/1000/{preset}", thousand_preset, methods=["GET"]),
    Route("/rules/{preset}", rules_preset, methods=["GET"]),
    Route("/help", help_page, methods=["GET"]),
]
"""The pages' routes, for the app to include."""
