"""Headless Chromium for the page tests, and helpers that measure what a player sees.

Every wait is a condition (a selector, a DOM state, a count), never a clock: CI runs on a busy
2-core machine. Screenshots go to $COMPANION_SHOTS (default /tmp/companion-shots).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

SHOTS = Path(os.environ.get("COMPANION_SHOTS", "/tmp/companion-shots"))
WAIT_MS = 30_000
"""Upper bound of any wait: a condition met earlier returns at once."""

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


@contextmanager
def opened(browser: Any, url: str, size: dict[str, int], lang: str = "en",
           view: str | None = None, sound: str = "on") -> Iterator[Any]:
    """A fresh page (own storage) at `url` in `lang`; page errors fail the test."""
    context = browser.new_context(viewport=size)
    context.add_init_script(
        "try {"
        f"localStorage.setItem('companion.lang', '{lang}');"
        f"localStorage.setItem('companion.sound', '{sound}');"
        + (f"localStorage.setItem('companion.view', '{view}');" if view else "")
        + "} catch (e) { /* about:blank has no storage */ }")
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    try:
        yield page
    finally:
        context.close()
    assert not errors, errors


def open_live(page: Any, url: str) -> None:
    """`url` in English on an open page, once its live stream is connected."""
    page.goto(url)
    page.evaluate("localStorage.setItem('companion.lang', 'en')")
    page.reload()
    page.wait_for_selector('#conn[data-state="live"]')


def shot(page: Any, name: str, full_page: bool = False) -> None:
    """A screenshot of the window (with `full_page`, of the whole page scrolled through)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_function(  # the picture as it settles, not halfway through a fade-in
        "document.getAnimations().every(a => a.playState !== 'running' || a.effect"
        " && a.effect.getComputedTiming().iterations === Infinity)")
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)


BOX_JS = """sel => {
  const el = document.querySelector(sel);
  if (!el) return null;
  const r = el.getBoundingClientRect(), cs = getComputedStyle(el);
  const cx = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
  const cy = Math.min(Math.max(r.top + Math.min(r.height / 2, 20), 0), innerHeight - 1);
  const top = document.elementFromPoint(cx, cy);
  return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width,
          height: r.height, font: parseFloat(cs.fontSize), color: cs.color,
          visible: cs.visibility !== 'hidden' && cs.display !== 'none'
                   && r.width > 0 && r.height > 0,
          on_top: !!top && (el === top || el.contains(top)),
          vw: innerWidth, vh: innerHeight};
}"""


def box(page: Any, selector: str) -> dict[str, Any]:
    found = page.evaluate(BOX_JS, selector)
    assert found is not None, f"{selector} is not on the page"
    return dict(found)


def assert_seen(page: Any, selector: str, min_font: float = 0.0) -> dict[str, Any]:
    """`selector` is visible, not covered, entirely above the fold and inside the width, and
    its letters are at least `min_font` px."""
    b = box(page, selector)
    assert b["visible"], f"{selector} is not visible"
    assert b["left"] >= -0.5 and b["right"] <= b["vw"] + 0.5, f"{selector} leaves the width: {b}"
    assert b["top"] >= -0.5 and b["bottom"] <= b["vh"] + 0.5, f"{selector} is below the fold: {b}"
    assert b["on_top"], f"{selector} is covered by something else"
    assert b["font"] >= min_font, f"{selector}: {b['font']} px letters, want >= {min_font}"
    return b


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    inner = page.evaluate("innerWidth")
    assert width <= inner, f"the page is {width} px wide in a {inner} px window"
