"""An automated accessibility audit of what a page shows, with axe-core run inside the page.

axe-core's ``axe.min.js`` (MPL-2.0) comes from the ``axe-playwright-python`` package of the
``test`` extra, which ships it inside; only that file is used here. It is evaluated in the
page through Playwright (no script tag: the room's Content-Security-Policy would refuse one).
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

from playwright.sync_api import Page

#: The impacts that fail an audit.
FAILING = ("serious", "critical")

#: The guidelines audited: WCAG 2.1 A and AA, and axe's best practices.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


@cache
def axe_source() -> str:
    """axe-core's script, as the package ships it."""
    return resources.files("axe_playwright_python").joinpath("axe.min.js").read_text("utf-8")


def audit(page: Page, exclude: dict[str, list[str]] | None = None) -> list[dict[str, Any]]:
    """Run axe on the page as it is now; return its serious and critical violations.

    ``exclude`` maps a rule's id to CSS selectors of elements that rule skips: for the few
    findings that cannot be fixed, each with its reason where the caller passes it.
    """
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(axe_source())
    results = page.evaluate(
        """async (tags) => {
            const results = await axe.run(document, {
                runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
            return results.violations.map((v) => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map((n) => ({ target: n.target, impact: n.impact,
                                             summary: n.failureSummary })) }));
        }""",
        TAGS,
    )
    found = []
    for violation in results:
        skipped = (exclude or {}).get(violation["id"], [])
        nodes = [node for node in violation["nodes"]
                 if node["impact"] in FAILING and not _skipped(page, node["target"], skipped)]
        if nodes:
            found.append({**violation, "nodes": nodes})
    return found


def _skipped(page: Page, target: list[Any], selectors: list[str]) -> bool:
    """Whether the node axe names (its selector path) matches one of the selectors."""
    if not selectors or len(target) != 1 or not isinstance(target[0], str):
        return False
    return bool(page.evaluate(
        "([target, selectors]) => { const node = document.querySelector(target);"
        " return Boolean(node) && selectors.some((s) => node.matches(s)); }",
        [target[0], selectors]))


def describe(violations: list[dict[str, Any]]) -> str:
    """Every violation in words: rule, impact, help and each element's selector."""
    lines = []
    for violation in violations:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"]:
            summary = " ".join((node["summary"] or "").split())
            lines.append(f"    {' > '.join(map(str, node['target']))}: {summary[:300]}")
    return "\n".join(lines)


def assert_accessible(page: Page, where: str,
                      exclude: dict[str, list[str]] | None = None) -> None:
    """Fail listing every serious or critical violation axe finds on the page."""
    violations = audit(page, exclude)
    assert not violations, f"{where}: accessibility violations\n{describe(violations)}"
