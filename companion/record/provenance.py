"""Which rules and which cards a recording was made with.

A recording is replayed by running its inputs through the engine again, so it must say which
engine and cards it expects: the ruleset's declared version plus a digest of the rules code
(engine and the game's package), and a digest of the cardset's card data (plus the inline
cards of a table script). `--resume` and review can then tell "same rules" from "other rules".
"""

from __future__ import annotations

import hashlib
import importlib
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

DIGEST_CHARS = 12


def _digest(chunks: Iterable[bytes]) -> str:
    h = hashlib.sha256()
    for chunk in chunks:
        h.update(len(chunk).to_bytes(8, "big"))
        h.update(chunk)
    return h.hexdigest()[:DIGEST_CHARS]


def _sources(folder: Path) -> list[bytes]:
    files = sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)
    return [str(p.relative_to(folder)).encode() + b"\0" + p.read_bytes() for p in files]


def ruleset_version(game: str, ruleset: Any = None) -> str:
    """"<declared>+<code digest>", e.g. "1+3f2a9c0d1e2b"."""
    from companion.games import get_ruleset

    ruleset = ruleset if ruleset is not None else get_ruleset(game)
    declared = str(getattr(ruleset, "version", "") or "1")
    engine = Path(importlib.import_module("companion.engine").__file__ or "").parent
    package = Path(importlib.import_module(type(ruleset).__module__).__file__ or "").parent
    chunks = _sources(engine)
    if package != engine:
        chunks += _sources(package)
    return f"{declared}+{_digest(chunks)}"


def cardset_hash(game: str, inline_cards: Iterable[Mapping[str, Any]] = ()) -> str:
    """A digest of every card's data (the cardset files' content as loaded, inline cards)."""
    from companion.cardsets import load_cardset

    rows = []
    for card in load_cardset(game):
        rows.append(json.dumps({"id": card.id, "name": card.name, "type": card.type,
                                "number": card.number, "keywords": list(card.keywords),
                                "fields": dict(card.fields)}, sort_keys=True, default=str))
    rows += [json.dumps(dict(c), sort_keys=True, default=str) for c in inline_cards]
    return _digest(r.encode() for r in sorted(rows))
