"""What "one language, names not ids" means, checked independently of the code that words
the texts: the card ids of a game's shipped cardsets and the engine's id shapes (`CC-031#1`,
`p1.hand`, `p1`, `back:123`; a "#12" alone is a step or game number) must not appear, nor a
common word of the other language (card names, titles and keywords as printed, and the
players' names, are taken out first); in English, no word with an umlaut or "ß" either. Used
by the session sweep and the page tests.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from companion.paths import cardsets_dir

COMMON = {
    "en": {"the", "and", "with", "from", "into", "onto", "cannot", "must", "card", "cards",
           "turn", "player", "draws", "attacks", "ends", "your", "you", "not", "of", "is",
           "are", "this", "that", "has", "may", "own", "each", "when", "only", "already"},
    "de": {"der", "das", "und", "mit", "nicht", "ist", "sind", "eine", "einen", "keine",
           "karte", "karten", "zieht", "beendet", "zug", "auf", "aus", "von", "vom", "zum",
           "zur", "dem", "den", "des", "du", "dein", "deine", "wird", "werden", "kann", "darf",
           "noch", "schon", "jeder", "jede", "nur", "oder", "wenn", "hat"},
}
"""Common words of each language; none of English is a German word and vice versa (so no
"die", "an", "in", "hand", "deck", "phase", "start")."""
UMLAUT = re.compile("[äöüß]")
"""Letters no English word has: a German word left in an English text."""
ID_SHAPES = re.compile(r"(?<=\w)#\d+\b|\bp[12]\b(?:\.[\w-]+)?|\bback:\d+"
                       r"|\b[A-Z]{1,4}\d{0,2}-\d{2,4}\b")


def cardset_words(game: str) -> tuple[set[str], list[str]]:
    """The ids and the printed words (names, titles, subnames, keywords) of the game's
    shipped cards."""
    ids: set[str] = set()
    names: set[str] = set()
    for path in (cardsets_dir() / game).glob("*.yaml"):
        for card in yaml.safe_load(path.read_text(encoding="utf-8")).get("cards") or []:
            ids.add(str(card["id"]))
            names.update(str(card[k]) for k in ("name", "title", "subname") if card.get(k))
            names.update(str(k) for k in card.get("keywords") or ())  # printed on the card
    return ids, sorted(names, key=len, reverse=True)


def problems(texts: list[tuple[str, str]], lang: str, ids: set[str], names: list[str],
             players: list[str]) -> list[str]:
    """One line per (where, text) that shows an id or a word of the other language."""
    other = COMMON["de" if lang == "en" else "en"]
    found = []
    for where, text in texts:
        bare = text
        cut = text.rstrip().removesuffix("…").lstrip("+ ").strip()
        if cut != text.strip() and any(n.startswith(cut) for n in names):
            bare = ""  # a card name cut short to fit its tag on the mat
        for name in [*names, *players]:
            bare = bare.replace(name, " ")
        shapes = [m for m in ID_SHAPES.findall(bare) if m]
        known = [i for i in ids if re.search(rf"\b{re.escape(i)}\b", text)]
        words = sorted({w for w in re.findall(r"[^\W\d_]+", bare.lower())
                        if w in other or (lang == "en" and UMLAUT.search(w))})
        if shapes or known or words:
            found.append(f"{where}: {text!r} ({', '.join([*shapes, *known, *words])})")
    return found


LOG_NUMBER = re.compile(r"^#\d+$")
"""A step number of the page's log ("#12"): a number, not a card copy."""


def page_problems(page: Any, game: str, lang: str, players: list[str]) -> list[str]:
    """`problems` of every line of text a page shows (Playwright page)."""
    ids, names = cardset_words(game)
    text = str(page.evaluate("document.body.innerText"))
    lines = [("page", line.strip()) for line in text.splitlines()
             if line.strip() and not LOG_NUMBER.match(line.strip())]
    return problems(lines, lang, ids, names, players)
