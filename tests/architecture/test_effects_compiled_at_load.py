"""Card texts are read once, when the cards load, never during play.

Read from the source: a game's effect compiler (`companion/games/<game>/card_effects.py`) is
named by its spec as text and imported by no module of the package, so only the load hook
(`Catalog.for_game` through `compile_card`, and the cardset loader through the registry) runs
it; outside the compilers no module of a game or the engine reads a card's `text` field or
imports `re` (one listed exception that matches no card text).
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.architecture.imports import ROOT, all_imports, module_files

COMPILER = "card_effects"
TEXT_READERS = {
    "companion.engine.effects.compiling",  # the structured compiler: a text becomes a Prompt
}
"""Modules besides the games' compilers that may read a card's `text` (at load only)."""
RE_USERS = {
    "companion.games.creature_crush.board": "checks die names (p1.w3) in moves, no card text",
}
"""Modules besides the compilers that import `re`, with the reason."""
HOOK_CALLERS = {
    "companion.engine.cards",  # Catalog.for_game: the engine's load hook
    "companion.engine.effects",  # re-exports it
    "companion.engine.effects.compiling",  # defines it
}


def _play_modules() -> dict[str, Path]:
    """Every module of the engine and the games except the games' compilers."""
    return {m: p for m, p in module_files().items()
            if m.startswith(("companion.engine", "companion.games"))
            and m.rpartition(".")[2] != COMPILER}


def _reads_text_field(tree: ast.AST) -> list[int]:
    """Lines with `x.get("text" ...)` or `x["text"]`."""
    lines = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "get" and node.args
                and isinstance(node.args[0], ast.Constant) and node.args[0].value == "text"):
            lines.append(node.lineno)
        if (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant)
                and node.slice.value == "text"):
            lines.append(node.lineno)
    return lines


def _imports_re(tree: ast.AST) -> bool:
    return any(
        (isinstance(n, ast.Import) and any(a.name == "re" for a in n.names))
        or (isinstance(n, ast.ImportFrom) and n.module == "re")
        for n in ast.walk(tree))


def test_every_game_with_card_text_has_a_compiler() -> None:
    games = ROOT / "companion" / "games"
    assert sorted(p.parent.name for p in games.glob(f"*/{COMPILER}.py")) == [
        "challengers", "creature_crush", "trick_or_beat"]


def test_no_module_imports_a_games_compiler() -> None:
    found = [str(i) for i in all_imports() if i.target.endswith(f".{COMPILER}")
             and i.importer.rpartition(".")[2] != COMPILER]
    assert found == []


def test_only_the_load_hook_calls_the_compile_step() -> None:
    callers = []
    for module, path in module_files().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | {
            n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        if {"compile_card", "compiler_for"} & names:
            callers.append(module)
    assert sorted(set(callers) - HOOK_CALLERS) == []
    assert "companion.engine.cards" in callers


def test_play_code_reads_no_card_text_and_matches_no_patterns() -> None:
    readers, re_users = [], []
    for module, path in _play_modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if module not in TEXT_READERS and (lines := _reads_text_field(tree)):
            readers.append(f"{module}:{lines}")
        if _imports_re(tree) and module not in RE_USERS:
            re_users.append(module)
    assert readers == []
    assert re_users == []
