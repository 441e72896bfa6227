"""Server-rendered pages: the rules of each preset of every game, the rules at a live table,
and help.

Every game is rendered through its registry entry (:data:`cardroom.games.registry.GAMES`): its
``text`` explains a ``Rules`` value (:class:`cardroom.games.text.Explanation`), so what a page
says is what the engine does, and nothing here knows which games there are. The default game's
presets keep their short addresses (``/rules/online``); every game's are at
``/rules/{game}/{preset}`` (``/rules/1000/seed``). ``routes`` is added to the app in
``web/app.py``; the pages expect ``/static`` to serve ``web/static`` (``css/pages.css``,
``js/cards.js``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from cardroom.games.registry import DEFAULT_GAME, GAMES, GameSpec, spec_for_rules
from cardroom.games.text import join_words

TEMPLATES_DIR = Path(__file__).parent / "templates"

_env = Environment(
    loader=FileSystemLoader(TEMPLATES_DIR),
    autoescape=select_autoescape(default=True, default_for_string=True),
    trim_blocks=True,
    lstrip_blocks=True,
)


def render(template: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    """An HTML response from one of the page templates (the header names every game)."""
    games = " & ".join(spec.title for spec in GAMES.values())
    return HTMLResponse(render_text(template, room_games=games, **context),
                        status_code=status_code)


def render_text(template: str, **context: Any) -> str:
    """One of the templates filled in, as text (the pages' HTML, the service worker's
    script)."""
    return _env.get_template(template).render(**context)


def not_found(message: str, choices: list[tuple[str, str]] | None = None) -> HTMLResponse:
    """The 404 page, with a few links to what the visitor may have meant."""
    return render("not_found.html", 404, message=message, choices=choices or [])


def preset_href(spec: GameSpec, preset: str) -> str:
    """The address of a preset's rules page (the default game's keep their short one)."""
    return f"/rules/{preset}" if spec.name == DEFAULT_GAME else f"/rules/{spec.name}/{preset}"


def _game_presets(spec: GameSpec) -> dict[str, Any]:
    """One game's part of the rules index: its title, introduction and presets in short."""
    return {"name": spec.name, "title": spec.title, "intro": spec.text.INTRO,
            "presets": [{"name": name, "title": spec.preset_title(name),
                         "href": preset_href(spec, name),
                         "summary": spec.text.summary(spec.rules_class.preset(name))}
                        for name in spec.presets]}


async def rules_index(_request: Request) -> HTMLResponse:
    """``GET /rules``: every preset of every game in short, each linking to its full rules."""
    games = [_game_presets(spec) for spec in GAMES.values()]
    return render("rules_index.html", section="rules", games=games,
                  title="Rules of " + join_words([spec.title for spec in GAMES.values()]))


def _preset_page(spec: GameSpec, name: str) -> HTMLResponse:
    """The full rules of one preset of a game, or the 404 page naming its presets."""
    if name not in spec.presets:
        return not_found(f"There is no {spec.title} preset called “{name}”.",
                         [(preset_href(spec, p), f"{spec.title}: {spec.preset_title(p)} rules")
                          for p in spec.presets])
    explanation = spec.text.explain(spec.rules_class.preset(name))
    return render("rules.html", section="rules", explanation=explanation,
                  preset_title=spec.preset_title(name), preset_href=preset_href(spec, name),
                  game=spec.name, game_title=spec.title, table_id=None)


async def game_preset(request: Request) -> HTMLResponse:
    """``GET /rules/{game}/{preset}``: the full rules of one preset of a game."""
    spec = GAMES.get(request.path_params["game"])
    if spec is None:
        return not_found("There is no game of that name here.",
                         [(f"/rules#game-{s.name}", f"Rules of {s.title}")
                          for s in GAMES.values()])
    return _preset_page(spec, request.path_params["preset"])


async def rules_preset(request: Request) -> Response:
    """``GET /rules/{name}``: the full rules of a preset of the default game, or a game's
    part of the rules index (``/rules/1000``)."""
    name = request.path_params["preset"]
    if name in GAMES:
        return RedirectResponse(f"/rules#game-{name}")
    return _preset_page(GAMES[DEFAULT_GAME], name)


def _table_rules(request: Request, table_id: str) -> Any:
    """The rules in force at a table of the app's room, or ``None`` if there is no such table
    (nor one the asker may see: a private table's page needs ``?invite=`` with its secret)."""
    room = getattr(request.app.state, "room", None)
    tables = getattr(room, "tables", None) or {}
    table = tables.get(table_id)
    if table is None or not table.reachable_by(None, request.query_params.get("invite")):
        return None
    return table.rules


async def rules_table(request: Request) -> HTMLResponse:
    """``GET /rules/table/{table_id}``: the rules at a live table, house rules marked."""
    table_id = request.path_params["table_id"]
    rules = _table_rules(request, table_id)
    if rules is None:
        return not_found("There is no table with that id: it may have closed.",
                         [("/", "The card room"), ("/rules", "Rules of every preset")])
    spec = spec_for_rules(rules)
    explanation = spec.text.explain(rules, mark_house_rules=True,
                                    title=f"Rules of {spec.title} at table {table_id}")
    return render("rules.html", section="rules", explanation=explanation,
                  preset_title=spec.preset_title(explanation.closest),
                  preset_href=preset_href(spec, explanation.closest),
                  game=spec.name, game_title=spec.title, table_id=table_id)


async def help_page(_request: Request) -> HTMLResponse:
    """``GET /help``: how to use the card room."""
    return render("help.html", section="help")


async def favicon(_request: Request) -> RedirectResponse:
    """``GET /favicon.ico``: browsers ask for it whatever the page links; the icon is the
    card room's SVG (static/favicon.svg), so nothing answers 404."""
    return RedirectResponse("/static/favicon.svg", status_code=301)


routes: list[Route] = [
    Route("/rules", rules_index, methods=["GET"]),
    Route("/rules/table/{table_id}", rules_table, methods=["GET"]),
    Route("/rules/{game}/{preset}", game_preset, methods=["GET"]),
    Route("/rules/{preset}", rules_preset, methods=["GET"]),
    Route("/help", help_page, methods=["GET"]),
    Route("/favicon.ico", favicon, methods=["GET"]),
]
"""The pages' routes, for the app to include."""
