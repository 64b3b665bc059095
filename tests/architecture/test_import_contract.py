"""The import contract: layers point one way, games are independent, no cycles anywhere.

Read from the source (tests/architecture/imports.py), so it also sees imports inside functions
and under `if TYPE_CHECKING:`. A module may import its own unit and units of lower layers only;
units that share a layer are independent of each other.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from tests.architecture.imports import ROOT, Import, all_imports, cycles, module_files

GAMES_DIR = ROOT / "companion" / "games"
GAME_PACKAGES = sorted(p.parent.name for p in GAMES_DIR.glob("*/spec.py"))

HALL_TABLE_SIDE = ("wire", "table_link", "publisher", "outbox", "loop", "overlay", "natsd",
                   "netcut", "credentials")
"""The hall's modules a table uses to publish to a hall (the page's overlay included; the
event's credentials, whose address format a table reads too): they lie below the server; the
rest of `companion.hall` (the hall itself) lies above it."""

LAYERS: list[tuple[str, ...]] = [
    ("companion", "companion.errors", "companion.paths"),
    ("companion.lazy_group", "companion.markers", "companion.snapshot", "companion.safeio"),
    ("companion.cardsets",),
    ("companion.engine",),  # knows no game, server, vision or simulator
    ("companion.games.spec", "companion.games.info"),  # what a game spec is
    tuple(f"companion.games.{g}" for g in GAME_PACKAGES),  # the games, each on its own
    ("companion.games",),  # the registry
    ("companion.layouts",),
    ("companion.record",),
    ("companion.vision",),
    ("companion.decks",),
    ("companion.printing",),
    ("companion.sim",),
    ("companion.referee",),  # plays table scripts (sim) through a game's ruleset (engine)
    ("companion.hall.table-side",),
    ("companion.server",),
    ("companion.tournaments",),
    ("companion.hall",),
    ("companion.benchmarks",),  # measurements over the whole stack (vision on the simulator)
    ("companion.cli", "companion.bench"),
]
"""Bottom first."""

EXEMPT: dict[str, str] = {}
"""Modules the layer checks skip, each with the reason. Empty, and it stays empty: a module that
cannot keep the contract moves to the layer where its imports belong."""


def unit_of(module: str) -> str:
    """The contract unit a module belongs to: a game package, the registry, the hall's table
    side, or a package."""
    parts = module.split(".")
    if len(parts) >= 3 and parts[1] == "hall" and parts[2] in HALL_TABLE_SIDE:
        return "companion.hall.table-side"
    if len(parts) >= 3 and parts[1] == "games":
        candidate = ".".join(parts[:3])
        if parts[2] in GAME_PACKAGES or candidate in ("companion.games.spec",
                                                      "companion.games.info"):
            return candidate
    return ".".join(parts[:2])


LAYER_OF = {unit: i for i, layer in enumerate(LAYERS) for unit in layer}


def breaks_contract(imp: Import) -> str | None:
    """Why `imp` breaks the layers, or None when it keeps them."""
    src, dst = unit_of(imp.importer), unit_of(imp.target)
    if src == dst:
        return None
    if src not in LAYER_OF or dst not in LAYER_OF:
        return f"{src if src not in LAYER_OF else dst} is in no layer of the contract"
    if LAYER_OF[dst] > LAYER_OF[src]:
        return f"{src} imports {dst}, which lies above it"
    if LAYER_OF[dst] == LAYER_OF[src]:
        return f"{src} imports {dst}, which must stay independent of it"
    return None


@pytest.fixture(scope="module")
def imports() -> list[Import]:
    return all_imports()


def test_every_module_is_in_a_layer() -> None:
    missing = sorted({unit_of(m) for m in module_files()} - set(LAYER_OF))
    assert missing == []


def test_layers_point_one_way(imports: list[Import]) -> None:
    broken = [f"{i}: {why}" for i in imports
              if i.importer not in EXEMPT and (why := breaks_contract(i))]
    assert broken == []


def test_no_module_is_exempt() -> None:
    assert EXEMPT == {}


def test_engine_imports_no_game_server_vision_or_simulator(imports: list[Import]) -> None:
    banned = ("companion.games", "companion.server", "companion.vision", "companion.sim")
    found = [str(i) for i in imports if i.importer.startswith("companion.engine")
             and i.importer not in EXEMPT and i.target.startswith(banned)]
    assert found == []


def test_vision_imports_no_simulator(imports: list[Import]) -> None:
    found = [str(i) for i in imports if i.importer.startswith("companion.vision")
             and i.importer not in EXEMPT and i.target.startswith("companion.sim")]
    assert found == []


def test_no_import_cycles_between_modules(imports: list[Import]) -> None:
    edges: dict[str, set[str]] = defaultdict(set)
    for i in imports:
        edges[i.importer].add(i.target)
    assert cycles(edges) == []


def test_no_import_cycles_between_units(imports: list[Import]) -> None:
    """Units (packages, each game, the registry) form no cycle either, exemptions aside."""
    edges: dict[str, set[str]] = defaultdict(set)
    for i in imports:
        if i.importer not in EXEMPT and unit_of(i.importer) != unit_of(i.target):
            edges[unit_of(i.importer)].add(unit_of(i.target))
    assert cycles(edges) == []


# ----- the checker itself must see what it is meant to see ---------------------------------


def test_the_reader_sees_function_and_type_checking_imports(tmp_path: Path) -> None:
    from tests.architecture.imports import imports_of

    pkg = tmp_path / "companion"
    (pkg / "a").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a" / "__init__.py").write_text("")
    (pkg / "b.py").write_text("")
    (pkg / "a" / "x.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from companion.b import thing\n"
        "def f():\n    from .. import b\n    import companion.a\n"
    )
    modules = module_files(tmp_path)
    found = imports_of("companion.a.x", modules["companion.a.x"], modules)
    assert [(i.target, i.line) for i in found] == [
        ("companion.b", 3), ("companion.b", 5), ("companion.a", 6)]


def test_the_cycle_finder_finds_a_cycle_and_nothing_else() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": {"c"}}) == []


@pytest.mark.parametrize(
    ("importer", "target", "ok"),
    [
        ("companion.engine.game", "companion.games", False),
        ("companion.engine.game", "companion.cardsets.loader", True),
        ("companion.vision.pipeline", "companion.sim.render", False),
        ("companion.games.trick_or_beat.rules", "companion.games.creature_crush.rules", False),
        ("companion.games.trick_or_beat.rules", "companion.games", False),
        ("companion.games.trick_or_beat.spec", "companion.games.spec", True),
        ("companion.sim.script", "companion.games", True),
        ("companion.cardsets.loader", "companion.games", False),
        ("companion.engine.interpreter", "companion.referee.script", False),
        ("companion.referee.script", "companion.sim.table_state", True),
        ("companion.referee.commands", "companion.games", True),
        ("companion.sim.script", "companion.referee.script", False),
        ("companion.server.video_check", "companion.referee.script", True),
        ("companion.benchmarks.engine", "companion.referee.script", True),
    ],
)
def test_the_contract_judges_known_cases(importer: str, target: str, ok: bool) -> None:
    assert (breaks_contract(Import(importer, target, 1)) is None) == ok
