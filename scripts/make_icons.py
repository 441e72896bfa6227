"""Draw the installable app's PNG icons from the site's own icon, ``favicon.svg``.

The PNGs are committed (the manifest names them, and phones want bitmaps); run this again
only when the SVG changes. It draws the SVG in Debian's Chromium through Playwright, both
already needed by the browser tests, so the room itself gains no dependency::

    .venv/bin/python scripts/make_icons.py
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

STATIC = Path(__file__).resolve().parents[1] / "src" / "cardroom" / "web" / "static"
SIZES = (192, 512)
"""The sizes the manifest offers: a phone's home screen, and its splash screen."""


def main() -> None:
    """Write ``static/icons/icon-SIZE.png`` for every size, transparent outside the icon."""
    svg = (STATIC / "favicon.svg").read_text(encoding="utf-8")
    (STATIC / "icons").mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium",
                                             args=["--no-sandbox", "--disable-gpu"])
        for size in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(f"<style>html,body{{margin:0;background:transparent}}"
                             f"svg{{display:block;width:{size}px;height:{size}px}}</style>{svg}")
            page.screenshot(path=str(STATIC / "icons" / f"icon-{size}.png"),
                            omit_background=True)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
