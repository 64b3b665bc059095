"""Reported places change zone by zone, once two looks in a row agree on that zone."""

from __future__ import annotations

from companion.snapshot import Unreadable
from companion.vision.steady_places import SteadyPlaces


def spot(zone: str, x: float = 100.0) -> Unreadable:
    return Unreadable(zone, x, 50.0, cause="far")


def test_a_flickering_zone_does_not_hold_back_a_steady_one() -> None:
    steady = SteadyPlaces()
    looks = [[spot("p2.A1"), spot("p2.C1")], [spot("p2.A1")], [spot("p2.A1"), spot("p2.C1")],
             [spot("p2.A1")]]
    reported = [sorted(u.zone for u in steady.report(look)) for look in looks]
    assert reported == [[], ["p2.A1"], ["p2.A1"], ["p2.A1"]]


def test_a_second_card_in_an_area_is_a_change_once_two_looks_count_it() -> None:
    steady = SteadyPlaces()
    one, two = [spot("p2.lanes")], [spot("p2.lanes"), spot("p2.lanes", 180.0)]
    assert steady.report(one) == ()
    assert len(steady.report(one)) == 1
    assert len(steady.report(two)) == 1  # one look: not yet
    assert len(steady.report(two)) == 2
    assert len(steady.report([])) == 2  # one look without: still there
    assert steady.report([]) == ()
