"""Several cameras, one table: the fusion of settled readings (companion.vision.multicam).

Hand-made tables are read by two hand-made cameras (one at each long edge, seeing its own half
more clearly): each item is read right, not read, or misread by each camera, and the place of
each reading is a few mm off. An oracle that knows the real table says what must come out:
every item read right by some camera and misread by none, at the clearest camera's place; no
item that any camera misread; nothing that is not on the table.
"""

from __future__ import annotations

import random

import pytest

from companion.snapshot import SeenCard, SeenDie, TableSnapshot
from companion.vision.multicam import CameraView, fuse

GAME = "creature-crush"
HEIGHT = 400.0
ZONES = {f"{'p1' if r >= 3 else 'p2'}.s{r * 8 + c}": (60.0 + 68 * c, 40.0 + 64 * r)
         for r in range(6) for c in range(8)}


def near_p1(x: float, y: float) -> float:
    """The laptop at player 1's edge (y = 400): 0.5 px/mm at the far edge, 1.7 at its own."""
    return 0.5 + 1.2 * y / HEIGHT


def near_p2(x: float, y: float) -> float:
    return 0.5 + 1.2 * (HEIGHT - y) / HEIGHT


CLARITY = (near_p1, near_p2)


def zone_of(x: float, y: float) -> str:
    return min(ZONES, key=lambda z: (ZONES[z][0] - x) ** 2 + (ZONES[z][1] - y) ** 2)


def _table(rng: random.Random) -> tuple[list[SeenCard], list[SeenDie]]:
    places = rng.sample(sorted(ZONES), 20)
    uids = [f"CC-{k:03d}#1" if rng.random() < 0.8 else f"back:{900 + k}" for k in range(14)]
    cards = [SeenCard(uid, z, not uid.startswith("back:"), x_mm=ZONES[z][0], y_mm=ZONES[z][1])
             for uid, z in zip(uids, places[:14], strict=True)]
    dice = [SeenDie(f"p{1 + k % 2}.w{1 + k // 2}", rng.randint(1, 6), z,
                    x_mm=ZONES[z][0] + 20, y_mm=ZONES[z][1])
            for k, z in enumerate(places[14:])]
    return cards, dice


def _read(rng: random.Random, cards: list[SeenCard], dice: list[SeenDie], camera: int,
          misread: dict[str, int]) -> TableSnapshot:
    """What one camera settles on: a reading is likelier where it sees more clearly, a few mm
    off; an item in `misread` for this camera is read wrong (another identity, another value)
    and read right by the other camera."""
    out_cards = []
    for c in cards:
        assert c.x_mm is not None and c.y_mm is not None
        if misread.get(c.uid) == camera:
            uid = f"CC-{500 + rng.randrange(100):03d}#1"
        elif c.uid in misread or rng.random() < CLARITY[camera](c.x_mm, c.y_mm) / 1.8:
            uid = c.uid
        else:
            continue
        x, y = c.x_mm + rng.uniform(-6, 6), c.y_mm + rng.uniform(-6, 6)
        out_cards.append(SeenCard(uid, zone_of(x, y), not uid.startswith("back:"), x_mm=x,
                                  y_mm=y, confidence=rng.uniform(0.6, 1.0)))
    out_dice = []
    for d in dice:
        assert d.x_mm is not None and d.y_mm is not None
        if misread.get(d.die) == camera:
            value = d.value % 6 + 1
        elif d.die in misread or rng.random() < CLARITY[camera](d.x_mm, d.y_mm) / 2.5:
            value = d.value
        else:
            continue
        x, y = d.x_mm + rng.uniform(-3, 3), d.y_mm + rng.uniform(-3, 3)
        out_dice.append(SeenDie(d.die, value, zone_of(x, y), x_mm=x, y_mm=y))
    return TableSnapshot(GAME, cards=tuple(out_cards), dice=tuple(out_dice))


@pytest.mark.parametrize("seed", range(40))
def test_fused_tables_match_the_oracle(seed: int) -> None:
    rng = random.Random(seed)
    cards, dice = _table(rng)
    # a few items misread by one camera while the other reads them right
    misread = {item: rng.randrange(2) for item in
               rng.sample([c.uid for c in cards] + [d.die for d in dice], 3)}
    snaps = [_read(rng, cards, dice, k, misread) for k in (0, 1)]
    fused = fuse([CameraView(f"camera {k + 1}", snaps[k], CLARITY[k]) for k in (0, 1)], GAME,
                 ZONES, HEIGHT)
    got = fused.snapshot

    # the oracle: read right by a camera and misread by none -> in, from the clearest view
    def right_readings(key: str) -> list[tuple[float, SeenCard | SeenDie]]:
        out: list[tuple[float, SeenCard | SeenDie]] = []
        for k, snap in enumerate(snaps):
            for item in (*snap.cards, *snap.dice):
                name = item.uid if isinstance(item, SeenCard) else item.die
                assert item.x_mm is not None and item.y_mm is not None
                if name == key and misread.get(key) != k:
                    out.append((CLARITY[k](item.x_mm, item.y_mm) * item.confidence, item))
        return out

    expected_cards = {}
    for c in cards:
        seen = right_readings(c.uid)
        if seen and c.uid not in misread:
            expected_cards[c.uid] = max(seen, key=lambda s: s[0])[1]
    expected_dice = {}
    for d in dice:
        seen = right_readings(d.die)
        if seen and d.die not in misread:
            expected_dice[d.die] = max(seen, key=lambda s: s[0])[1]
    assert {c.uid: c for c in got.cards} == expected_cards
    assert {d.die: d for d in got.dice} == expected_dice
    # never a wrong identity or value, and every misread item is said to be unsure
    real = {c.uid for c in cards}
    assert all(c.uid in real for c in got.cards)
    values = {d.die: d.value for d in dice}
    assert all(values[d.die] == d.value for d in got.dice)
    unsure_items = {what.split("=")[0] for u in fused.unsure for _, what in u.readings}
    assert set(misread) <= unsure_items


def test_one_camera_reads_what_the_other_cannot() -> None:
    a = TableSnapshot(GAME, cards=(SeenCard("CC-001#1", "p1.s40", x_mm=60, y_mm=360),))
    b = TableSnapshot(GAME, cards=(SeenCard("CC-002#1", "p2.s0", x_mm=60, y_mm=40),))
    fused = fuse([CameraView("a", a, near_p1), CameraView("b", b, near_p2)], GAME, ZONES,
                 HEIGHT)
    assert {c.uid for c in fused.snapshot.cards} == {"CC-001#1", "CC-002#1"}
    assert not fused.unsure and not fused.unwatched_halves and fused.note() is None


def test_the_clearer_view_gives_the_place_and_zone() -> None:
    far = SeenCard("CC-001#1", "p1.s33", x_mm=128, y_mm=305, confidence=1.0)
    near = SeenCard("CC-001#1", "p1.s41", x_mm=128, y_mm=340, confidence=0.9)
    fused = fuse([CameraView("p2's laptop", TableSnapshot(GAME, cards=(far,)), near_p2),
                  CameraView("p1's laptop", TableSnapshot(GAME, cards=(near,)), near_p1)],
                 GAME, ZONES, HEIGHT)
    assert fused.snapshot.cards == (near,)


@pytest.mark.parametrize("a, b, why", [
    (SeenCard("CC-001#1", "p1.s40", x_mm=60, y_mm=360),
     SeenCard("CC-009#1", "p1.s40", x_mm=70, y_mm=355), "different things at one place"),
    (SeenCard("CC-001#1", "p1.s40", x_mm=60, y_mm=360),
     SeenCard("back:77", "p1.s40", False, x_mm=62, y_mm=362), "different things at one place"),
    (SeenCard("CC-001#1", "p1.s40", x_mm=60, y_mm=360),
     SeenCard("CC-001#1", "p2.s0", x_mm=60, y_mm=40), "different places"),
])
def test_cameras_that_disagree_leave_the_card_out(a: SeenCard, b: SeenCard, why: str) -> None:
    fused = fuse([CameraView("a", TableSnapshot(GAME, cards=(a,)), near_p1),
                  CameraView("b", TableSnapshot(GAME, cards=(b,)), near_p2)], GAME, ZONES,
                 HEIGHT)
    assert fused.snapshot.cards == ()
    assert fused.unsure and all(why in u.why for u in fused.unsure)


def test_the_top_of_a_pile_seen_from_both_edges_is_one_card() -> None:
    """Each laptop sees a tall pile's top sticker shifted away from itself: 60 mm apart, in
    the pile's zone. Out of it, as far apart, the card is at two places."""
    def views(zone_b: str) -> list[CameraView]:
        return [CameraView("a", TableSnapshot(GAME, cards=(
                    SeenCard("CC-001#1", "p1.hell", x_mm=511, y_mm=233),)), near_p1),
                CameraView("b", TableSnapshot(GAME, cards=(
                    SeenCard("CC-001#1", zone_b, x_mm=542, y_mm=286),)), near_p2)]

    assert len(fuse(views("p1.hell"), GAME, ZONES, HEIGHT).snapshot.cards) == 1
    assert fuse(views("p1.lager"), GAME, ZONES, HEIGHT).snapshot.cards == ()


def test_two_values_of_one_die_leave_it_out_until_they_agree() -> None:
    def views(value_b: int) -> list[CameraView]:
        return [CameraView("a", TableSnapshot(GAME, dice=(
                    SeenDie("p1.w1", 3, "p1.s40", x_mm=60, y_mm=360),)), near_p1),
                CameraView("b", TableSnapshot(GAME, dice=(
                    SeenDie("p1.w1", value_b, "p1.s40", x_mm=61, y_mm=358),)), near_p2)]

    unsure = fuse(views(5), GAME, ZONES, HEIGHT)
    assert unsure.snapshot.dice == () and unsure.unsure[0].readings == (
        ("a", "p1.w1=3"), ("b", "p1.w1=5"))
    agreed = fuse(views(3), GAME, ZONES, HEIGHT)
    assert [(d.die, d.value) for d in agreed.snapshot.dice] == [("p1.w1", 3)]


def test_a_die_one_camera_did_not_read_again_gives_way_to_the_camera_that_reads_it() -> None:
    """Camera a holds the die unread (a hand was over it; its last value 3), camera b reads
    it showing 5 now: the fused table takes b's reading, not a disagreement. Read by
    neither, it stays unread."""
    unread = SeenDie("p1.w1", 3, "p1.s40", x_mm=60, y_mm=360, unread=True)
    read = SeenDie("p1.w1", 5, "p1.s40", x_mm=61, y_mm=358)
    both = fuse([CameraView("a", TableSnapshot(GAME, dice=(unread,)), near_p1),
                 CameraView("b", TableSnapshot(GAME, dice=(read,)), near_p2)],
                GAME, ZONES, HEIGHT)
    assert both.unsure == ()
    assert [(d.die, d.value, d.unread) for d in both.snapshot.dice] == [("p1.w1", 5, False)]
    alone = fuse([CameraView("a", TableSnapshot(GAME, dice=(unread,)), near_p1),
                  CameraView("b", TableSnapshot(GAME), near_p2)], GAME, ZONES, HEIGHT)
    assert [(d.value, d.unread) for d in alone.snapshot.dice] == [(3, True)]


def test_a_neighbour_read_by_one_camera_only_is_no_disagreement() -> None:
    """Camera a reads two cards 35 mm apart (overlapping in an area); camera b reads one of
    them: b's card is the one a reads too, not a rival to the other."""
    x1 = SeenCard("CC-001#1", "p1.s40", x_mm=60, y_mm=360)
    x2 = SeenCard("CC-002#1", "p1.s40", x_mm=95, y_mm=360)
    fused = fuse([CameraView("a", TableSnapshot(GAME, cards=(x1, x2)), near_p1),
                  CameraView("b", TableSnapshot(GAME, cards=(x1,)), near_p2)], GAME, ZONES,
                 HEIGHT)
    assert {c.uid for c in fused.snapshot.cards} == {"CC-001#1", "CC-002#1"}


def test_a_camera_that_dropped_out_no_longer_counts_and_its_half_is_unwatched() -> None:
    a = TableSnapshot(GAME, cards=(SeenCard("CC-001#1", "p1.s40", x_mm=60, y_mm=360),))
    b = TableSnapshot(GAME, cards=(SeenCard("CC-002#1", "p2.s0", x_mm=60, y_mm=40),))
    fused = fuse([CameraView("camera 1", a, near_p1),
                  CameraView("camera 2", b, near_p2, live=False)], GAME, ZONES, HEIGHT)
    assert [c.uid for c in fused.snapshot.cards] == ["CC-001#1"]
    assert fused.unwatched_halves == ("player 2's half",) and fused.dropped == ("camera 2",)
    assert all(z.startswith("p2.") for z in fused.unwatched_zones)
    assert fused.note() == ("Player 2's half is not watched by any camera "
                            "(camera 2 stopped).")
    # a camera whose mat is not found watches nothing either
    blind = fuse([CameraView("camera 1", None, None), CameraView("camera 2", b, near_p2)],
                 GAME, ZONES, HEIGHT)
    assert blind.unwatched_halves == ("player 1's half",)


def test_watch_two_laptops_fuses_them_and_goes_on_when_one_stops(tmp_path) -> None:
    """End to end: a still table rendered by the simulator's two laptops with mirror clips
    (one at each long edge), each laptop's pictures in a folder; `companion watch A B` reads
    both and prints the fused table. Player 2's laptop's folder ends first: the other goes on
    and stderr says which half is no longer watched."""

    import cv2
    from click.testing import CliRunner

    from companion.benchmarks.vision import number_of, still_table
    from companion.cli import cli
    from companion.layouts import load_layout
    from companion.sim.presets import make_renderers
    from companion.sim.source import SnapshotPlayer
    from companion.vision.pipeline import layout_game_code

    layout = load_layout(GAME)
    truth = still_table(layout, 1000)
    renderers = make_renderers(layout, "two-laptops-720p-mirror", seed=1000)
    piles = [z.id for z in layout.zones.values() if z.kind == "pile"]
    scene = SnapshotPlayer(renderers[0], [truth], layout_game_code(layout), number_of,
                           hands=False, seed=1000, pile_zones=piles).scene(0)
    folders = [tmp_path / "p1-laptop", tmp_path / "p2-laptop"]
    for renderer, folder, frames in zip(renderers, folders, (4, 2), strict=True):
        folder.mkdir()
        for index in range(frames):
            cv2.imwrite(str(folder / f"f{index:02d}.jpg"), renderer.render(scene, (), index).image)
    result = CliRunner().invoke(cli, ["watch", *map(str, folders), "--game", GAME, "--json"])
    assert result.exit_code == 0, result.output
    tables = [TableSnapshot.from_json(line) for line in result.stdout.splitlines()]
    real = {f"CC-{int(c.uid[1:].split('#')[0]):03d}#1" if c.face_up else c.uid: c.zone
            for c in truth.cards}
    values = {d.die: d.value for d in truth.dice}
    for table in tables:  # never a wrong identity, zone or die value
        assert all(real.get(c.uid) == c.zone for c in table.cards)
        assert all(values.get(d.die) == d.value for d in table.dice)
    both = max(tables[:-1], key=lambda t: len(t.cards))
    halves = {c.zone[:2] for c in both.cards}
    assert halves == {"p1", "p2"}  # each laptop reads its own half
    assert "[camera 2] source ended: the other cameras go on." in result.stderr
    assert "Player 2's half is not watched by any camera (camera 2 stopped)." in result.stderr
    assert len(tables[-1].cards) < len(both.cards)  # what only camera 2 read is gone


def test_a_view_stretched_beyond_its_corner_markers_gives_way_for_the_place() -> None:
    """Player 1's laptop read only the two far corner markers: its place for a card at its own
    edge is 35 mm off (out of the zone); player 2's laptop, fitted on the corners beside that
    card, sees it less sharply but places it right."""
    from companion.vision.multicam import CornerAnchors, stretch_mm

    far, near = ((25.0, 25.0), (575.0, 25.0)), ((25.0, 375.0), (575.0, 375.0))
    assert stretch_mm(far, 228, 359) == pytest.approx(334, abs=1)
    assert stretch_mm((*far, *near), 228, 359) == 0 and stretch_mm(None, 0, 0) == 0
    off = SeenCard("CC-008#1", "", x_mm=225, y_mm=398)
    right = SeenCard("CC-008#1", "p1.s41", x_mm=224, y_mm=366, confidence=0.7)
    views = [CameraView("p1's laptop", TableSnapshot(GAME, cards=(off,)), near_p1, True, far),
             CameraView("p2's laptop", TableSnapshot(GAME, cards=(right,)), near_p2, True,
                        near)]
    assert fuse(views, GAME, ZONES, HEIGHT).snapshot.cards == (right,)

    from types import SimpleNamespace

    layout = SimpleNamespace(corners=[SimpleNamespace(marker_id=232 + k, x_mm=x, y_mm=y)
                                      for k, (x, y) in enumerate((*far, *reversed(near)))])

    class Det:
        def __init__(self, marker_id: int | None) -> None:
            self.marker_id = marker_id

    anchors = CornerAnchors(layout, frames=2)
    anchors.see([Det(232), Det(None), Det(7)])
    anchors.see([Det(233)])
    assert anchors.points() == far
    anchors.see([])
    anchors.see([])
    assert anchors.points() == ()


def test_the_bench_gives_the_fused_row_and_each_laptop_alone() -> None:
    from companion.benchmarks.vision import measure_cameras

    # 4 frames a third of a second apart: the table settles as in the bench's 14 at 30 fps
    fused, p1, p2 = measure_cameras("two-laptops-720p-mirror", None, scenes=1, frames=4,
                                    fps=3.0)
    assert fused.label == "2 cameras, fused" and "player 1's edge" in p1.label
    assert "player 2's edge" in p2.label and fused.frames == p1.frames == 4
    assert fused.wrong == p1.wrong == p2.wrong == 0
    assert fused.cards_settled is not None and p1.cards_settled is not None
    assert p2.cards_settled is not None
    assert fused.cards_settled > max(p1.cards_settled, p2.cards_settled) > 0
