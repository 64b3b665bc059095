"""`Move.from_dict` takes only JSON a move can be: each field of its own type, or a precise
`MoveFieldError` naming the field (a saved game or a post with `"to": {"x": [1]}` must not
become a move that breaks the rules code three calls later)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.engine.api import Move, MoveFieldError, MoveFormatError

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.floats(allow_nan=False)
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                               max_size=3),
    max_leaves=6)


def valid(name: str, value: Any) -> bool:
    """What each field may be, written out from the Move's documented types."""
    if name in ("kind", "player"):
        return isinstance(value, str)
    if name in ("to", "target"):
        return value is None or isinstance(value, str)
    if name == "cards":
        return isinstance(value, list) and all(isinstance(c, str) for c in value)
    if name == "value":
        return value is None or (isinstance(value, int | str) and not isinstance(value, bool))
    if name == "options":
        return value is None or (isinstance(value, dict) and all(
            isinstance(v, str | int) and not isinstance(v, bool) for v in value.values()))
    raise AssertionError(name)


BASE = {"kind": "play", "player": "p1", "cards": ["A#1"], "to": "p1.field", "target": "B#2",
        "value": 3, "options": {"mode": "x"}}


@given(st.sampled_from(sorted(BASE)), JSON)
def test_each_field_is_its_own_type_or_a_precise_error(name: str, value: Any) -> None:
    data = {**BASE, name: value}
    if valid(name, value):
        move = Move.from_dict(data)
        assert Move.from_dict(json.loads(json.dumps(move.to_dict()))) == move
        assert move.to is None or isinstance(move.to, str)
        assert move.target is None or isinstance(move.target, str)
    else:
        with pytest.raises(MoveFieldError) as caught:
            Move.from_dict(data)
        assert caught.value.field == name
        assert f"'{name}'" in str(caught.value)
        assert isinstance(caught.value, MoveFormatError)


@pytest.mark.parametrize("field,value", [
    ("to", {"zone": "p1.field"}), ("to", ["p1.field"]), ("to", 3), ("to", True),
    ("target", ["B#2"]), ("target", 7.5), ("target", {}),
    ("cards", {"A#1": 1}), ("value", True), ("options", ["a"]), ("options", {"a": [1]}),
])
def test_known_bad_fields_are_refused(field: str, value: Any) -> None:
    with pytest.raises(MoveFieldError, match=f"'{field}'"):
        Move.from_dict({**BASE, field: value})


@given(JSON)
def test_anything_else_than_an_object_is_refused(data: Any) -> None:
    if isinstance(data, dict):
        return
    with pytest.raises(MoveFormatError):
        Move.from_dict(data)
