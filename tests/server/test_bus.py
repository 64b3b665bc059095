"""Event bus and SSE text: ids, ring buffer, resume, heartbeat."""

from __future__ import annotations

import threading

from hypothesis import given
from hypothesis import strategies as st

from companion.server.bus import EventBus, sse_stream


def test_since_gives_what_was_missed_or_none_when_gone() -> None:
    bus = EventBus(capacity=3)
    ids = [bus.publish("log", {"n": i}) for i in range(5)]
    assert ids == [1, 2, 3, 4, 5]
    got = bus.since(3)
    assert got is not None and [m.id for m in got] == [4, 5]
    assert bus.since(1) is None  # 2 already left the buffer
    assert bus.since(5) == []


@given(st.integers(1, 20), st.integers(0, 60))
def test_buffer_never_grows_past_capacity(capacity: int, count: int) -> None:
    bus = EventBus(capacity=capacity)
    for i in range(count):
        bus.publish("x", i)
    assert len(bus._buffer) == min(capacity, count)
    assert bus.last_id == count


def test_stream_starts_with_full_state_then_follows() -> None:
    bus = EventBus()
    stream = sse_stream(bus, None, lambda: {"full": True}, heartbeat_s=0.05, max_messages=3)
    assert next(stream).startswith("retry:")
    first = next(stream)
    assert "event: state" in first and '"full": true' in first
    threading.Timer(0.05, lambda: bus.publish("log", {"n": 1})).start()
    chunk = next(stream)
    while chunk.startswith(":"):
        chunk = next(stream)
    assert "id: 1\nevent: log\n" in chunk


def test_stream_resumes_after_last_event_id_without_full_state() -> None:
    bus = EventBus()
    for i in range(4):
        bus.publish("log", {"n": i})
    stream = sse_stream(bus, 2, lambda: {"full": True}, heartbeat_s=0.05, max_messages=2)
    next(stream)
    assert [c.split("\n")[0] for c in (next(stream), next(stream))] == ["id: 3", "id: 4"]


def test_stream_sends_heartbeats_while_quiet() -> None:
    bus = EventBus()
    stream = sse_stream(bus, 0, lambda: {}, heartbeat_s=0.01)
    next(stream)
    assert next(stream) == ": heartbeat\n\n"


def test_stale_last_event_id_gets_a_fresh_state() -> None:
    bus = EventBus(capacity=2)
    for i in range(6):
        bus.publish("log", i)
    stream = sse_stream(bus, 1, lambda: {"fresh": 1}, heartbeat_s=0.05)
    next(stream)
    assert "event: state" in next(stream)


def test_an_id_from_before_a_restart_gets_a_full_state() -> None:
    from companion.server.bus import EventBus, sse_stream

    bus = EventBus()
    bus.publish("log", {"n": 1})
    assert bus.since(1) == [] and bus.since(57) is None
    text = "".join(sse_stream(bus, 57, lambda: {"fresh": True}, max_messages=1))
    assert "event: state" in text and '"fresh": true' in text
    bus.close()
