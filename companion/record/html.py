"""One recorded game as one self-contained HTML file: the review page (timeline, mat at every
step, camera keyframes, card data, notes) with its styles, scripts and images inside, so it
can be mailed to someone and opened without the companion."""

from __future__ import annotations

import base64
from collections.abc import Mapping
from typing import Any

from companion.paths import web_dir
from companion.record.store import Store

SCRIPTS = ("i18n.js", "mat.js", "cardpanel.js", "review.js")


def export_html(store: Store, game_id: int, lang: str = "en",
                data: Mapping[str, Any] | None = None) -> str:
    """The page of game `game_id`, opening in `lang` ("en" or "de")."""
    import jinja2

    from companion.record.timeline import game_record

    record = dict(data) if data is not None else game_record(store, game_id, static=True)
    record["static"] = True
    record["keyframes"] = {
        str(seq): "data:image/jpeg;base64," + base64.b64encode(jpeg).decode("ascii")
        for seq in sorted({s["keyframe"] for s in record["steps"] if s.get("keyframe")})
        if (jpeg := store.keyframe(game_id, seq)) is not None
    }
    root = web_dir()
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(root / "templates")),
                             autoescape=True)
    static = root / "static"
    return env.get_template("export_game.html").render(
        data=record, header=record["header"], name=record["name"], steps=record["steps"],
        lang="de" if lang == "de" else "en",
        css=(static / "app.css").read_text(encoding="utf-8"),
        scripts=[(static / name).read_text(encoding="utf-8") for name in SCRIPTS],
    )
