"""The service worker as the server serves it: from the root, never from an HTTP cache, with
every static file to keep and a version that a change to any of them changes (so a deploy
replaces the browsers' caches); and nothing but static files among what it keeps."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from cardroom.web import pwa
from cardroom.web.app import create_app


@pytest.fixture
def fresh_caches() -> Iterator[None]:
    """The worker's files and version worked out afresh, before and after the test."""
    for cached in (pwa.static_files, pwa.static_version, pwa.worker_script):
        cached.cache_clear()
    yield
    for cached in (pwa.static_files, pwa.static_version, pwa.worker_script):
        cached.cache_clear()


def declared(script: str, name: str) -> object:
    """The JSON value of ``const NAME = …;`` in the worker's script."""
    found = re.search(rf"^const {name} = (.*);$", script, re.MULTILINE)
    assert found, name
    return json.loads(found.group(1))


def test_the_worker_is_served_from_the_root_uncached_with_every_static_file(
        fresh_caches: None) -> None:
    answer = TestClient(create_app()).get("/sw.js")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["cache-control"] == "no-cache"
    files = declared(answer.text, "FILES")
    assert declared(answer.text, "VERSION") == pwa.static_version()
    on_disk = {f"/static/{p.relative_to(pwa.STATIC).as_posix()}"
               for p in pwa.STATIC.rglob("*") if p.is_file()} - {"/static/index.html"}
    assert isinstance(files, list) and set(files) == on_disk | {"/"}
    assert {"/static/manifest.webmanifest", "/static/icons/icon-192.png",
            "/static/js/offline.js"} <= set(files)
    assert all(f == "/" or f.startswith("/static/") for f in files)


def test_a_changed_static_file_changes_the_version(tmp_path: Path, fresh_caches: None,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    static = tmp_path / "static"
    shutil.copytree(pwa.STATIC, static)
    monkeypatch.setattr(pwa, "STATIC", static)
    before = pwa.static_version()
    pwa.static_version.cache_clear()
    assert pwa.static_version() == before  # the same files, the same version everywhere
    (static / "css" / "base.css").write_text("body { color: red; }\n")
    pwa.static_version.cache_clear()
    assert pwa.static_version() != before
