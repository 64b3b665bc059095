"""The table's own camera and a camera that joined from another device, as one eye for the
session (companion/server/table_cameras.py): the session sees what either camera reads best,
and goes on with its own camera alone when the other falls silent."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from companion.layouts import load_layout
from companion.server.table_cameras import THIS_CAMERA, TableCameras
from companion.snapshot import SeenCard, TableSnapshot, Unreadable
from companion.vision.multicam import CornerAnchors, clarity_grid
from tests.camera_fakes import near

GAME = "creature-crush"



def card(uid: str, zone: str, y: float) -> SeenCard:
    return SeenCard(uid, zone, x_mm=230.0, y_mm=y)


def corners(layout: Any) -> list[Any]:
    return [SimpleNamespace(marker_id=c.marker_id) for c in layout.corners]


class Table:
    def __init__(self) -> None:
        self.layout = load_layout(GAME)
        self.now = [100.0]
        self.seen: list[TableSnapshot] = []
        self.cameras = TableCameras(GAME, self.layout, lambda t, jpeg=None: self.seen.append(t),
                                    clock=lambda: self.now[0])

    def remote(self, snapshot: TableSnapshot, edge_y: float) -> None:
        """Another device's reading, as the join route hands it on."""
        anchors = CornerAnchors(self.layout)
        anchors.see(corners(self.layout))
        fused = self.cameras.hub.receive(
            "Bo's laptop", snapshot,
            clarity_grid(near(edge_y).px_per_mm, self.layout.width_mm, self.layout.height_mm),
            list(anchors.points()))
        self.cameras.remote(fused)


def test_alone_the_tables_own_camera_goes_to_the_session_as_it_is() -> None:
    table = Table()
    own = TableSnapshot(GAME, cards=(card("CC-001#1", "p1.C1", 358),))
    table.cameras.see(corners(table.layout), near(400))
    table.cameras.own(own)
    assert table.seen == [own]


def test_a_joined_camera_adds_the_half_the_tables_own_camera_cannot_read() -> None:
    table = Table()
    glare = Unreadable("p1.C2", 300.0, 350.0)
    own = TableSnapshot(GAME, cards=(card("CC-001#1", "p1.C1", 358),), unreadable=(glare,))
    table.cameras.see(corners(table.layout), near(400))
    table.cameras.own(own)
    table.remote(TableSnapshot(GAME, cards=(card("CC-004#1", "p2.C3", 42),)), 0)
    assert {c.uid for c in table.seen[-1].cards} == {"CC-001#1", "CC-004#1"}
    assert table.seen[-1].unreadable == (glare,)  # the own camera's reflection rides along
    table.now[0] += 3  # a new settled table of its own while the other is live: fused
    table.cameras.own(TableSnapshot(GAME, cards=(card("CC-001#1", "p1.C1", 358),
                                                 card("CC-002#1", "p1.C2", 358))))
    assert {c.uid for c in table.seen[-1].cards} == {"CC-001#1", "CC-002#1", "CC-004#1"}


def test_a_card_too_far_for_the_own_camera_goes_once_the_joined_camera_reads_it() -> None:
    table = Table()
    far = Unreadable("p2.C3", 230.0, 45.0, cause="far")
    own = TableSnapshot(GAME, cards=(card("CC-001#1", "p1.C1", 358),), unreadable=(far,))
    table.cameras.see(corners(table.layout), near(400))
    table.cameras.own(own)
    assert table.seen[-1].unreadable == (far,)  # alone: a card seen, not yet identified
    table.remote(TableSnapshot(GAME, cards=(card("CC-004#1", "p2.C3", 42),)), 0)
    assert table.seen[-1].card("CC-004#1") is not None
    assert table.seen[-1].unreadable == ()  # Bo's laptop read it: no longer unidentified


def test_the_tables_own_view_stays_current_while_the_table_is_still() -> None:
    """A still table settles no new table; the own camera's frames keep it counted."""
    table = Table()
    table.cameras.see(corners(table.layout), near(400))
    table.cameras.own(TableSnapshot(GAME, cards=(card("CC-001#1", "p1.C1", 358),)))
    table.remote(TableSnapshot(GAME, cards=(card("CC-004#1", "p2.C3", 42),)), 0)
    for _ in range(30):  # 30 s of frames with nothing new on the table
        table.now[0] += 1.0
        table.cameras.see(corners(table.layout), near(400))
    live = {c["camera"]: c["live"] for c in table.cameras.hub.status()}
    assert live[THIS_CAMERA] and not live["Bo's laptop"]
    assert not table.cameras.joined()
    after = TableSnapshot(GAME, cards=(card("CC-001#1", "p1.C1", 358),
                                       card("CC-003#1", "p1.C3", 358)))
    table.cameras.own(after)
    assert table.seen[-1] == after  # the other fell silent: the own camera alone again
