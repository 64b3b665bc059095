"""Golden playthroughs: every game's seeded random games written out step by step.

After OpenSpiel's playthrough files: a seeded chooser plays each game over the engine's legal
moves (conformance's random player: `Game.new(game, ("A", "B"), seed=...)`, a
`random.Random(seed)` choosing among `Game.legal_moves`) and now and then, seeded too, makes a
move that breaks a rule (a candidate the rules refuse, one of the game's `illegal_examples`, or
a legal move made by the wrong player), recorded from the camera as the referee records what
happened. Each step writes position, the legal moves before it, the move, its violation codes,
scores and what changed in the referee's view; `tests/playthroughs/<game>.txt` holds the
expected text. A change of a rule anywhere in a game changes some step, and this test shows the
first differences. When the change is intended, bless the files after reading the diff:

    .venv/bin/python -m pytest tests/test_playthroughs.py --bless
"""

from __future__ import annotations

import difflib
import hashlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.engine.api import PLAYERS, Move, blocking
from companion.engine.game import Game
from companion.games import game_ids, game_spec

HERE = Path(__file__).resolve().parent / "playthroughs"
SEEDS = (1, 2)
STEPS = 100
MORE_SEEDS = (3, 4, 5, 6)
"""Played after SEEDS while the file holds fewer than STEPS steps (a Challengers! match can
end in thirty)."""
ILLEGAL_EVERY = 8
"""About one move in eight breaks a rule, so every game's violations appear in its file."""
SHOWN_LEGAL = 12
"""Legal moves written out by name; the rest are counted (all of them are in the hash)."""
DIFF_LINES = 60


def canonical(data: Any) -> str:
    """One line of JSON that does not depend on dict order."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def move_key(move: Move) -> str:
    return canonical(move.to_dict())


def flat(view: Any, path: str = "") -> dict[str, str]:
    """The view as `path -> JSON value` leaves (dicts opened, lists kept whole), so a step
    can say what changed in a line each."""
    if isinstance(view, dict) and view:
        out: dict[str, str] = {}
        for key in sorted(view):
            out.update(flat(view[key], f"{path}/{key}" if path else str(key)))
        return out
    return {path or "/": canonical(view)}


def view_changes(before: dict[str, str], after: dict[str, str]) -> list[str]:
    lines = []
    for path in sorted(set(before) | set(after)):
        if path not in after:
            lines.append(f"    - {path}")
        elif before.get(path) != after[path]:
            lines.append(f"    {path} = {after[path]}")
    return lines


class Chooser:
    """The seeded chooser: legal moves in a fixed order (sorted, never the engine's list or
    set order) and, every so often, a move that breaks a rule."""

    def __init__(self, seed: int) -> None:
        self.pick = random.Random(seed)
        self.misstep = random.Random(f"illegal-{seed}")  # str seeds hash with sha512, not hash()

    def illegal(self, game: Game, legal: list[Move]) -> list[list[Move]]:
        """Moves that break a rule now, by kind: candidates the rules refuse, legal moves made
        by the other player, and the game's own examples (of its kinds)."""
        ruleset, state = game.ruleset, game.state
        refused = [m for m in ruleset.candidate_moves(state) if m not in legal]
        swapped = [Move(m.kind, next(p for p in PLAYERS if p != m.player), m.cards, m.to,
                        m.target, m.value, m.options) for m in legal if m.player in PLAYERS]
        examples = [m for m in ruleset.illegal_examples(state) if m.kind in ruleset.known_kinds]
        kinds = []
        for pool in (refused, swapped, examples):
            unique = {move_key(m): m for m in pool}
            bad = [unique[k] for k in sorted(unique) if blocking(game.check(unique[k]))]
            if bad:
                kinds.append(bad)
        return kinds

    def choose(self, game: Game, legal: list[Move]) -> tuple[Move, str]:
        if self.misstep.randrange(ILLEGAL_EVERY) == 0:
            kinds = self.illegal(game, legal)
            if kinds:
                return self.misstep.choice(self.misstep.choice(kinds)), "camera"
        return self.pick.choice(legal), "automatic"


def legal_lines(game: Game, legal: list[Move]) -> list[str]:
    names = sorted(game.ruleset.describe(m, "en") for m in legal)
    digest = hashlib.sha256("\n".join(sorted(map(move_key, legal))).encode()).hexdigest()
    lines = [f"  legal: {len(legal)} sha256:{digest[:12]}"]
    lines += [f"    {n}" for n in names[:SHOWN_LEGAL]]
    if len(names) > SHOWN_LEGAL:
        lines.append(f"    ... and {len(names) - SHOWN_LEGAL} more")
    return lines


def scores_line(game: Game) -> str:
    return "  scores: " + ", ".join(f"{p} {s.value}" for p, s in sorted(game.scores().items()))


def playthrough(game_id: str, seed: int, steps: int = STEPS) -> Iterator[str]:
    """One seeded game, line by line. The game gets a ruleset of its own, built here: the
    registry's shared one is built once, in whichever test asks first, so mutation testing
    would judge what a ruleset declares when built (its phases, their moves and end checks)
    by that test alone, not by these games."""
    game = Game(Game.new(game_id, ("A", "B"), seed=seed).config,
                game_spec(game_id).load_ruleset())
    chooser = Chooser(seed)
    view = flat(game.view("referee"))
    yield f"## {game_id} seed {seed}"
    yield f"setup: turn {game.state.turn}, active {game.active}, phase {game.phase}"
    yield scores_line(game)
    yield "  view:"
    yield from (f"    {path} = {value}" for path, value in view.items())
    for step in range(1, steps + 1):
        legal = sorted(game.legal_moves, key=move_key)
        if not legal:
            break
        yield ""
        yield f"step {step}: turn {game.state.turn}, active {game.active}, phase {game.phase}"
        yield from legal_lines(game, legal)
        move, source = chooser.choose(game, legal)
        violations = game.push(move, source)
        yield f"  move ({source}): {game.ruleset.describe(move, 'en')}"
        yield f"    {move_key(move)}"
        codes = [v.code + ("" if v.blocking else f" (lifted by {v.lifted_by})")
                 for v in violations]
        yield "  violations: " + (", ".join(codes) if codes else "-")
        yield scores_line(game)
        after = flat(game.view("referee"))
        changes = view_changes(view, after)
        yield "  view:" if changes else "  view: unchanged"
        yield from changes
        view = after
    outcome = game.outcome()
    yield ""
    yield f"end: turn {game.state.turn}, active {game.active}, phase {game.phase}, " + (
        f"winner {outcome.winner}: {outcome.reason_en}" if outcome else "no outcome")


def golden(game_id: str) -> str:
    """The whole file for one game: a header, then each seed's playthrough."""
    played: list[int] = []
    body: list[str] = []
    for seed in (*SEEDS, *MORE_SEEDS):
        if seed in MORE_SEEDS and sum(line.startswith("step ") for line in body) >= STEPS:
            break
        played.append(seed)
        body += [*playthrough(game_id, seed), ""]
    head = [
        f"# Golden playthrough: {game_id}, seeds {', '.join(map(str, played))}, "
        f"up to {STEPS} steps each",
        "# Written by tests/test_playthroughs.py; a rule change shows as a diff here. After",
        "# checking the diff is intended: .venv/bin/python -m pytest tests/test_playthroughs.py "
        "--bless",
        "# Each step: position before the move; legal moves (count, hash of all, the first "
        f"{SHOWN_LEGAL} by name);",
        "# the move (automatic: chosen from the legal ones; camera: one that breaks a rule) "
        "and its JSON;",
        "# violation codes; scores; the referee view's leaves that changed (`- path`: gone).",
        "",
    ]
    return "\n".join(head + body)


def first_difference(expected: list[str], now: list[str]) -> str:
    """Where the first differing line lies: the game and step around it (the diff's context
    may not reach back to the step's header)."""
    at = next((i for i, (a, b) in enumerate(zip(expected, now, strict=False)) if a != b),
              min(len(expected), len(now)))
    game = next((line for line in reversed(now[:at + 1]) if line.startswith("## ")), "header")
    step = next((line for line in reversed(now[:at + 1])
                 if line.startswith(("step ", "setup:", "## "))), "")
    return f"first difference at line {at + 1}: {game.removeprefix('## ')}, {step}"


def file_name(game_id: str) -> Path:
    return HERE / f"{game_id.replace('-', '_')}.txt"


@pytest.mark.parametrize("game_id", game_ids())
def test_playthrough_matches_golden(game_id: str, request: pytest.FixtureRequest) -> None:
    text = golden(game_id)
    path = file_name(game_id)
    if request.config.getoption("--bless"):
        HERE.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(f"{path.relative_to(HERE.parent.parent)} is missing: write it with "
                    f"`.venv/bin/python -m pytest tests/test_playthroughs.py --bless`")
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        diff = list(difflib.unified_diff(expected.splitlines(), text.splitlines(),
                                         f"golden {path.name}", "now", n=2, lineterm=""))
        where = first_difference(expected.splitlines(), text.splitlines())
        shown = "\n".join(diff[:DIFF_LINES])
        more = f"\n... {len(diff) - DIFF_LINES} more diff lines" if len(diff) > DIFF_LINES else ""
        pytest.fail(f"{game_id} plays differently from its golden playthrough (if intended, "
                    f"bless it: .venv/bin/python -m pytest tests/test_playthroughs.py --bless)"
                    f"\n{where}\n{shown}{more}", pytrace=False)


def test_flat_view_changes_name_every_leaf() -> None:
    """The view's changes are written leaf by leaf: a changed, a new and a gone leaf each show,
    an unchanged one does not (else the goldens would miss or blur a rule's change)."""
    before = flat({"zones": {"p1.hand": {"count": 5, "seen": []}}, "turn": 2, "gone": {"x": 1}})
    after = flat({"zones": {"p1.hand": {"count": 4, "seen": []}}, "turn": 2, "new": [1, 2]})
    assert view_changes(before, after) == [
        "    - gone/x", "    new = [1,2]", "    zones/p1.hand/count = 4"]


def test_first_difference_names_the_step() -> None:
    """A failure names the game and step of the first differing line, the header above it."""
    expected = ["# head", "## g seed 1", "setup: turn 0", "", "step 1: turn 1", "  legal: 2",
                "  move (automatic): x"]
    now = [*expected[:5], "  legal: 3", expected[6]]
    assert first_difference(expected, now) == "first difference at line 6: g seed 1, step 1: turn 1"
    shorter = first_difference(expected, expected[:4])
    assert shorter == "first difference at line 5: g seed 1, setup: turn 0"
