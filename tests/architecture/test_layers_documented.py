"""The layer tables people read (README "How it is built", CONTRIBUTING "How the code is
layered") list the contract's layers, every one, in the contract's order."""

from __future__ import annotations

import re

import pytest

from tests.architecture.imports import ROOT
from tests.architecture.test_import_contract import GAME_PACKAGES, LAYER_OF, LAYERS

NAME = re.compile(r"`([^`]+)`|the hall's table side")


def unit_named(name: str | None) -> str:
    """The contract unit a table names (`games/<game>/` stands for the first game)."""
    if name is None:
        return "companion.hall.table-side"
    if name == "games/<game>/":
        return f"companion.games.{GAME_PACKAGES[0]}"
    if name == "games/__init__.py":
        return "companion.games"
    return "companion." + name.removesuffix(".py").removesuffix("/").replace("/", ".")


def layer_table(text: str, heading: str) -> list[str]:
    """The units named in the first column of the first table under `heading`, in order."""
    section = text.split(heading, 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")][1:]  # no header
    return [unit_named(m.group(1)) for row in rows for m in NAME.finditer(row.split("|")[1])]


def problems(units: list[str]) -> list[str]:
    """What is wrong with a documented list of layers: unknown units, order, a layer left out."""
    unknown = [u for u in units if u not in LAYER_OF]
    if unknown:
        return [f"no such layer: {u}" for u in unknown]
    order = [LAYER_OF[u] for u in units]
    out = [f"{units[i + 1]} listed after {units[i]}" for i in range(len(order) - 1)
           if order[i + 1] < order[i]]
    return out + [f"left out: {LAYERS[i]}" for i in range(len(LAYERS)) if i not in order]


@pytest.mark.parametrize(("doc", "heading"), [("README.md", "## How it is built"),
                                              ("CONTRIBUTING.md", "## How the code is layered")])
def test_the_documented_layers_are_the_contracts(doc: str, heading: str) -> None:
    units = layer_table((ROOT / doc).read_text(encoding="utf-8"), heading)
    assert problems(units) == []


def test_a_table_out_of_order_or_with_a_gap_is_caught() -> None:
    table = "## L\n\n| layer | x |\n|---|---|\n| `sim` | a |\n| `engine` · `hall` | b |\n"
    units = layer_table(table, "## L")
    assert units == ["companion.sim", "companion.engine", "companion.hall"]
    found = problems(units)
    assert found[0] == "companion.engine listed after companion.sim"
    assert "left out: ('companion.server',)" in found
    assert problems(["companion.nowhere"]) == ["no such layer: companion.nowhere"]
    assert layer_table("## L\n| h |\n| `sim` · the hall's table side |\n", "## L") == [
        "companion.sim", "companion.hall.table-side"]
