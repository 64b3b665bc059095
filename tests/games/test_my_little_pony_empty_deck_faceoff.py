"""A faceoff with one player's deck empty: that player's flip is skipped, not waited for.

Rulebook, "Keine Karten mehr übrig haben": "Wenn eine Deckkarte in eine Konfrontation
aufgedeckt werden soll, dann überspringe auch das." Oracle, worked by hand from "Konfrontationen
durchführen": Ada confronts Ponyville in a Bottle (1 point + bonus 2) and Bo's Cloudbursting
(1 + 1) = 5, then the double faceoff: Ada 2 + 1 + 2 + 3 + 1 + 1 (no flip) = 10 against Bo's
flip of 1; Ada wins the higher bonus, 2: 7 points. Full presses only: with Ada's flip skipped
nothing on the table changes, so a camera alone cannot see the score phase begin.
"""

from __future__ import annotations

from pathlib import Path

from companion.referee.script import referee_script

SCRIPT = """\
game: my-little-pony-ccg
players: [Ada, Bo]
first: p1
seed: 61
decks:
  p1: [PR63, PR26]
  p2: [PR20, PR14, PR16]
  p1.problem-deck: [PR162, PR175]
  p2.problem-deck: [PR167, PR176]
setup:
  turn: 5
  active: p1
  phase: main
  table:
    p1.home: [PR4]
    p2.home: [PR1]
    p1.problem: [PR188, PR60, PR52, PR33]
    p2.problem: [PR168, PR63#2, PR26#2]
  hands: {p1: 2}
  action_tokens: {p1: 0, p2: 0}
steps:
  - phase: true
    expect: {phase: score, score: {p1: 5, p2: 0}, hands: {p1: 2}}
  - declare:
      move: {kind: flip, value: 1}
      player: p2
    expect: {legal: true, faceoff: p1, score: {p1: 7, p2: 0}, solved: [PR188, PR168]}
"""


def test_an_empty_deck_skips_its_faceoff_flip(tmp_path: Path) -> None:
    path = tmp_path / "empty-deck-faceoff.yaml"
    path.write_text(SCRIPT, encoding="utf-8")
    report = referee_script(str(path))
    assert report.failures == []
