"""Everything game-specific is reached through the game's registry entry: a made-up third game,
registered for the test only, gets its rules pages, its rules index section, its lobby
catalogue and its hint wording from the same web and tables code as 500 and 1000; and neither
those layers nor the lobby's scripts name any game, preset or preset title of their own."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from cardroom.games import registry
from cardroom.games.options import PresetRules
from cardroom.games.registry import GAMES, DailySet, GameSpec
from cardroom.games.text import Explanation, Section, explanation, para
from cardroom.tables import hints
from cardroom.web.app import create_app
from cardroom.web.pages import routes
from tests.test_pages import open_table, page, text_of

SRC = Path(__file__).resolve().parents[1] / "src" / "cardroom"
JS = SRC / "web" / "static" / "js"


class DominoError(ValueError):
    """Rules of dominoes that cannot be played."""


@dataclass(frozen=True)
class DominoRules(PresetRules):
    """Options of a made-up game, to plug into the registry."""

    players: int = 4
    """Players at the table."""
    target: int = 100
    """Points that win the match."""
    doubles_spin: bool = False
    """A double may be played crosswise and opens two more ends."""

    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        "draw": {"players": 4, "target": 100, "doubles_spin": False},
        "sevens": {"players": 3, "target": 150, "doubles_spin": True},
    }
    DEFAULT_PRESET: ClassVar[str] = "draw"
    ERROR: ClassVar[type[Exception]] = DominoError

    @property
    def teams(self) -> tuple[tuple[int, ...], ...] | None:
        """Partners opposite each other at four, each for themself otherwise."""
        return ((0, 2), (1, 3)) if self.players == 4 else None


def _sections(rules: DominoRules) -> tuple[Section, ...]:
    return (Section("play", "Playing the tiles", (
        para(f"Each of the {rules.players} players draws seven tiles.", "players"),
        para("Doubles spin." if rules.doubles_spin else "Doubles are played in line.",
             "doubles_spin"),
        para(f"The first side to {rules.target} points wins.", "target"),
    )),)


def _explain(rules: DominoRules, *, mark_house_rules: bool = False,
             title: str | None = None) -> Explanation:
    return explanation(rules, _sections(rules), DOMINO_TEXT.OPTION_LABELS,
                       lambda preset: f"Dominoes: {DOMINO_TEXT.PRESET_TITLES[preset]}",
                       mark_house_rules=mark_house_rules, title=title)


DOMINO_TEXT = SimpleNamespace(
    INTRO="Dominoes, a tile game that has wandered in to prove the point.",
    PRESET_TITLES={"draw": "Draw game", "sevens": "All sevens"},
    PRESET_BLURBS={"draw": "Four in partnerships, draw from the boneyard",
                   "sevens": "Three players, ends that sum to sevens"},
    OPTION_LABELS={"players": "Players", "target": "Winning score",
                   "doubles_spin": "Spinning doubles"},
    OPTION_STEPS={"target": 5},
    explain=_explain,
    summary=lambda rules: (f"{rules.players} players", f"first to {rules.target}"),
    hint=lambda view, samples: f"The domino bot's {view['phase']} over {samples} deals.",
)
"""The made-up game's words, shaped like ``games/five_hundred/text.py``."""


@pytest.fixture
def dominoes(monkeypatch: pytest.MonkeyPatch) -> GameSpec:
    """The made-up game in the registry for one test."""
    module = SimpleNamespace(Rules=DominoRules, RulesError=DominoError,
                             PRESET_NAMES=tuple(DominoRules.PRESETS))
    spec = GameSpec("dominoes", "Dominoes", module, default_preset="draw",
                    dealer_keyword="dealer", text=DOMINO_TEXT,  # type: ignore[arg-type]
                    daily=DailySet("draw", 4))
    monkeypatch.setitem(GAMES, "dominoes", spec)
    return spec


@pytest.fixture
def client(dominoes: GameSpec) -> TestClient:
    """The pages' routes, with a room holding a dominoes table played by house rules."""
    app = Starlette(routes=routes)
    house = DominoRules.from_dict({"preset": "draw", "doubles_spin": True})
    app.state.room = SimpleNamespace(tables={"dom1": open_table(house)})
    return TestClient(app)


# -- a third game through the same code -----------------------------------------------------------


def test_a_third_game_has_its_rules_pages(client: TestClient) -> None:
    text = text_of(page(client, "/rules/dominoes/sevens"))
    assert "Dominoes: All sevens rules" in text
    assert "Each of the 3 players draws seven tiles" in text and "Doubles spin." in text
    assert "The All sevens preset of Dominoes" in text
    missing = client.get("/rules/dominoes/online")
    assert missing.status_code == 404 and 'href="/rules/dominoes/draw"' in missing.text
    redirect = client.get("/rules/dominoes", follow_redirects=False)
    assert redirect.headers["location"] == "/rules#game-dominoes"


def test_a_third_game_is_in_the_rules_index(client: TestClient) -> None:
    html = page(client, "/rules")
    assert "Rules of 500, 1000 and Dominoes" in html
    assert 'id="game-dominoes"' in html and DOMINO_TEXT.INTRO in html
    for name, title in DOMINO_TEXT.PRESET_TITLES.items():
        assert f'id="dominoes-{name}"' in html and f'href="/rules/dominoes/{name}"' in html
        assert title in html
    assert "first to 150" in text_of(html)


def test_a_third_games_table_page_marks_its_house_rules(client: TestClient) -> None:
    html = page(client, "/rules/table/dom1")
    assert "Rules of Dominoes at table dom1" in html
    assert 'data-option="doubles_spin"' in html and "Spinning doubles" in html
    assert re.search(r'<p class="house">Doubles spin\.', html)
    assert 'href="/rules/dominoes/draw"' in html


def test_a_third_games_lobby_catalogue(dominoes: GameSpec) -> None:
    """``/api/rules`` serves what the lobby's New table form needs, from the registry alone."""
    answer = TestClient(create_app()).get("/api/rules?game=dominoes")
    assert answer.status_code == 200
    catalogue = answer.json()
    assert "dominoes" in catalogue["games"]
    assert catalogue["title"] == "Dominoes" and catalogue["default_preset"] == "draw"
    assert catalogue["presets"]["sevens"]["target"] == 150
    assert catalogue["preset_details"] == [
        {"name": "draw", "title": "Draw game", "players": 4, "teams": [[0, 2], [1, 3]],
         "blurb": "Four in partnerships, draw from the boneyard"},
        {"name": "sevens", "title": "All sevens", "players": 3, "teams": [[0], [1], [2]],
         "blurb": "Three players, ends that sum to sevens"}]
    options = {option["name"]: option for option in catalogue["options"]}
    assert options["doubles_spin"]["label"] == "Spinning doubles"
    assert options["target"]["step"] == 5 and options["players"]["step"] == 1


def test_a_third_games_hints_speak_its_words(dominoes: GameSpec) -> None:
    view = {"game": "dominoes", "phase": "play", "legal_actions": ["play 6-6", "play 6-1"]}
    bot = SimpleNamespace(last_samples=12)
    assert hints.explain(view, "play 6-6", bot) == "The domino bot's play over 12 deals."
    only = {**view, "legal_actions": ["play 6-6"]}
    assert hints.explain(only, "play 6-6", bot) == "It is your only legal move."


def test_every_game_is_found_by_its_rules(dominoes: GameSpec) -> None:
    for spec in GAMES.values():
        assert registry.spec_for_rules(spec.rules(None)) is spec


# -- no game named outside games/ -----------------------------------------------------------------


def _python_files(*layers: str) -> list[Path]:
    return sorted(path for layer in layers for path in (SRC / layer).rglob("*.py"))


@pytest.mark.parametrize("path", _python_files("web", "tables"),
                         ids=lambda path: str(path.relative_to(SRC)))
def test_web_and_tables_name_no_game(path: Path) -> None:
    """No import of a game's own package and no game name as a value to branch on: the web
    and tables layers reach every game through the registry."""
    tree = ast.parse(path.read_text())
    packages = {f"cardroom.games.{spec.module.__name__.rsplit('.', 1)[-1]}"
                for spec in GAMES.values()}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            assert not any(module == p or module.startswith(p + ".") for p in packages), (
                f"{path.name} imports {module}")
            if module == "cardroom.games":
                names = {alias.name for alias in node.names}
                assert not names & {p.rsplit(".", 1)[-1] for p in packages}, path.name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                assert not any(alias.name.startswith(p) for p in packages), path.name
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            assert node.value not in GAMES, f"{path.name} names the game {node.value!r}"


@pytest.mark.parametrize("script", ["lobby.js", "house_rules.js", "options.js"])
def test_lobby_scripts_name_no_game_or_preset(script: str) -> None:
    """The lobby's presets, their titles and descriptions come from ``/api/rules``."""
    source = (JS / script).read_text()
    for spec in GAMES.values():
        words = {spec.name, *spec.presets, *spec.text.PRESET_TITLES.values(),
                 *spec.text.PRESET_BLURBS.values()}
        for word in words:
            for quoted in (f'"{word}"', f"'{word}'", f"`{word}`"):
                assert quoted not in source, f"{script} holds {quoted}"
