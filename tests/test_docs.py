"""The user documentation travels with the product: every link in it resolves inside the
repository, nothing sends a user to the team's own folder (`../shared`), and every shipped game
has its section in docs/games.md.

Users never have `../shared` (the team's rulebooks, design notes and photos), so a link there is
a dead end for them; the README once pointed there for the rules of the supported games.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.games import GAME_SPECS, game_spec

ROOT = Path(__file__).resolve().parent.parent
USER_DOCS = sorted([ROOT / "README.md", ROOT / "CONTRIBUTING.md", *(ROOT / "docs").glob("*.md")])
LAB_NOTES = sorted((ROOT / "docs" / "lab").glob("*.md"))
"""Dated measurement notes: not user docs, but their links must resolve too."""
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
TEAM_FOLDER = "../shared"
TEAM_MEASUREMENT = "### Real photographs: `companion scan --photos ../shared/photos`"
"""The one allowed mention: a heading naming the team's photo set for a measurement, said in
words to be the team's (docs/benchmarks.md "Real photographs", moved there from the README)."""


def _shipped_games() -> list[str]:
    """Games of the package itself (a test's toy game registered at run time is not shipped)."""
    return [g for g, target in GAME_SPECS.items() if target.startswith("companion.games.")]


@pytest.mark.parametrize("doc", USER_DOCS + LAB_NOTES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    dead = []
    for target in LINK.findall(text):
        if re.match(r"^[a-z]+:", target) or target.startswith("#"):
            continue  # a web address or an anchor in the same page
        path = (doc.parent / target.split("#", 1)[0]).resolve()
        if not path.exists():
            dead.append(target)
    assert dead == [], f"{doc.name}: links to files that do not exist: {dead}"


@pytest.mark.parametrize("doc", USER_DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_user_doc_sends_users_to_the_team_folder(doc: Path) -> None:
    lines = [
        f"{n}: {line.strip()}"
        for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1)
        if TEAM_FOLDER in line and line.strip() != TEAM_MEASUREMENT
    ]
    assert lines == [], f"{doc.name} points users to {TEAM_FOLDER}: {lines}"


def test_team_photo_set_is_said_to_be_the_teams() -> None:
    benchmarks = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    heading = benchmarks.index(TEAM_MEASUREMENT)
    after = benchmarks[heading + len(TEAM_MEASUREMENT):heading + len(TEAM_MEASUREMENT) + 200]
    assert "team's own photo set (not shipped" in after


def test_every_shipped_game_has_a_section_in_the_games_guide() -> None:
    headings = re.findall(r"^## (.+)$", (ROOT / "docs" / "games.md").read_text(encoding="utf-8"),
                          re.M)
    names = [game_spec(g).name for g in _shipped_games()]
    assert len(names) == 5
    assert [h for h in headings if h in names] == names, (
        f"docs/games.md needs one section per game, in registry order: {names}; has {headings}"
    )


def test_readme_points_to_the_games_guide_for_the_rules() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    supported = readme[readme.index("Supported games"):readme.index("| game | id |")]
    assert "(docs/games.md)" in supported
    documentation = readme[readme.index("## Documentation"):readme.index("## Quick start")]
    assert "[docs/games.md](docs/games.md)" in documentation


def _anchors(doc: Path) -> set[str]:
    """The anchors GitHub gives a Markdown file's headings: lower case, punctuation dropped,
    spaces to '-', a repeated heading numbered."""
    seen: dict[str, int] = {}
    for heading in re.findall(r"^#{1,6} +(.+?) *#*$", doc.read_text(encoding="utf-8"), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        seen.setdefault(f"{slug}-{n}" if n else slug, 1)
    return set(seen)


@pytest.mark.parametrize("doc", USER_DOCS + LAB_NOTES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_to_a_section_finds_it(doc: Path) -> None:
    """A link to a section (`page.md#section`, `#section`) lands on that heading, not at the
    top of the page (a renamed heading breaks it silently)."""
    lost = []
    for target in LINK.findall(doc.read_text(encoding="utf-8")):
        if re.match(r"^[a-z]+:", target) or "#" not in target:
            continue
        page, fragment = target.split("#", 1)
        path = (doc.parent / page).resolve() if page else doc
        if path.suffix == ".md" and path.exists() and fragment not in _anchors(path):
            lost.append(target)
    assert lost == [], f"{doc.name}: links to sections that do not exist: {lost}"


README_MOST_LINES = 250


def test_the_readme_stays_short() -> None:
    """The README says what the product is and how to start; the rest lives in docs/."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= README_MOST_LINES, f"README.md has {lines} lines, at most {README_MOST_LINES}"


DATED = re.compile(r"^#{1,6} .*\b20\d\d-\d\d-\d\d\b", re.M)


@pytest.mark.parametrize("doc", USER_DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_lab_notes_stay_out_of_the_user_docs(doc: Path) -> None:
    """Dated notes of what was tried and measured live in docs/lab/ (dated files); a user doc
    keeps no dated entries, except docs/benchmarks.md, whose tables say when they were
    measured."""
    assert not re.match(r"\d{4}-\d\d-\d\d", doc.name), f"{doc.name} is a lab note: docs/lab/"
    if doc.name != "benchmarks.md":
        dated = DATED.findall(doc.read_text(encoding="utf-8"))
        assert dated == [], f"{doc.name} keeps dated notes (move them to docs/lab/): {dated}"
