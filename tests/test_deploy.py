"""The deploy files say what the code does: the guide lists every setting of `cardroom serve`,
the example settings file loads, and each systemd unit starts the server with options it
knows. (tests/browser/test_behind_proxy.py runs the nginx configuration itself.)"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import click
import pytest
import typer

from cardroom.cli import app, read_config_file
from cardroom.web.profiles import IMPORT_BYTES_MAX

REPO = Path(__file__).resolve().parent.parent
DEPLOY = REPO / "deploy"


def serve_command() -> Any:
    """The click command behind `cardroom serve`."""
    return typer.main.get_command(app).commands["serve"]  # type: ignore[attr-defined]


def test_the_deploy_guide_lists_every_setting_as_flag_variable_and_file_line() -> None:
    guide = (REPO / "docs" / "deploy.md").read_text()
    rows = {line.split("|")[1].strip(): line for line in guide.splitlines()
            if line.startswith("| `--")}
    for param in serve_command().params:
        if param.name == "help":
            continue
        flag = next(name for name in param.opts if name.startswith("--"))
        row = rows.get(f"`{flag}`")
        assert row is not None, f"docs/deploy.md does not list {flag}"
        names = [param.envvar] if isinstance(param.envvar, str) else param.envvar
        assert all(f"`{name}" in row for name in names), flag
        assert param.is_eager or f"`{flag[2:]} = …`" in row, flag


def test_the_example_settings_file_sets_known_options() -> None:
    values = read_config_file(DEPLOY / "cardroom.toml", serve_command())
    assert values["forwarded_allow_ips"] == "127.0.0.1"
    assert values["host"] == "127.0.0.1"


def unit_settings(path: Path) -> dict[str, dict[str, list[str]]]:
    """A systemd unit's settings by section and key, every value of a repeated key kept
    (``Environment=`` may come several times)."""
    sections: dict[str, dict[str, list[str]]] = {}
    section: dict[str, list[str]] = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line.startswith("[") and line.endswith("]"):
            section = sections.setdefault(line[1:-1], {})
        elif line and not line.startswith("#"):
            key, _, value = line.partition("=")
            section.setdefault(key, []).append(value)
    return sections


@pytest.mark.parametrize("unit", ["cardroom.service", "cardroom@.service"])
def test_each_systemd_unit_starts_the_server_with_options_it_knows(unit: str) -> None:
    settings = unit_settings(DEPLOY / "systemd" / unit)
    service = settings["Service"]
    (start,) = service["ExecStart"]
    words = shlex.split(start.replace("%i", "8501"))
    assert words[0] == "/opt/cardroom/.venv/bin/cardroom" and words[1] == "serve"
    assert "CARDROOM_CONFIG=/etc/cardroom/cardroom.toml" in service["Environment"]
    command = serve_command()
    with click.Context(command) as context:
        command.parse_args(context, words[2:])
        assert context.params["port"] == (8501 if "@" in unit else 8500)
    assert service["Restart"] == ["always"] and service["KillMode"] == ["mixed"]
    assert settings["Install"]["WantedBy"] == ["multi-user.target"]


def test_the_proxy_lets_through_the_largest_body_the_room_takes() -> None:
    """A record file to watch may be IMPORT_BYTES_MAX bytes: the proxy must not refuse it."""
    site = (DEPLOY / "nginx" / "cardroom.conf").read_text()
    limit = re.search(r"^\s*client_max_body_size (\d+)k;", site, re.MULTILINE)
    assert limit is not None
    assert int(limit.group(1)) * 1024 >= IMPORT_BYTES_MAX
