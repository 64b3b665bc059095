"""The package's frame: games, marker payloads, the CLI, the data folders."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from companion.cli import VERBS, cli
from companion.games import GAMES, UnknownGameError, game_by_code, game_info
from companion.markers import payload as pl
from companion.paths import data_dir


def test_five_games_with_distinct_codes() -> None:
    assert len(GAMES) == 5
    assert sorted(g.code for g in GAMES.values()) == [1, 2, 3, 4, 5]
    assert game_by_code(5).id == "creature-crush"
    with pytest.raises(UnknownGameError, match="known games"):
        game_info("chess")


@given(st.integers(1, 5), st.integers(0, 9999), st.integers(1, 99))
def test_front_payload_round_trip(game: int, number: int, copy: int) -> None:
    text = pl.encode_front(game, number, copy)
    assert len(text) == 8
    assert pl.decode(text) == pl.FrontPayload(game, number, copy)


@given(st.integers(0, 999_999))
def test_back_payload_round_trip(serial: int) -> None:
    assert pl.decode(pl.encode_back(serial)) == pl.BackPayload(serial)


@given(st.integers(1, 5), st.integers(0, 9999), st.integers(1, 99), st.integers(0, 7),
       st.integers(1, 9))
def test_any_single_digit_error_is_caught(game: int, number: int, copy: int, pos: int,
                                          delta: int) -> None:
    text = pl.encode_front(game, number, copy)
    wrong = text[:pos] + str((int(text[pos]) + delta) % 10) + text[pos + 1 :]
    with pytest.raises(pl.PayloadError):
        pl.decode(wrong)


@pytest.mark.parametrize("text", ["", "hello", "1234567", "123456789", "http://x.org"])
def test_stray_codes_are_not_cards(text: str) -> None:
    with pytest.raises(pl.PayloadError):
        pl.decode(text)


def test_aruco_ids_do_not_overlap() -> None:
    seen: dict[int, str] = {}
    for player in pl.PLAYERS:
        for kind in pl.DIE_KINDS:
            for k in range(1, pl.DICE_PER_KIND + 1):
                for v in range(1, 7):
                    name = f"{player}.{kind}{k}"
                    mid = pl.die_face_id(name, v)
                    assert mid not in seen
                    seen[mid] = name
                    meaning = pl.decode_aruco(mid)
                    assert (meaning.die, meaning.value) == (name, v)
    for code in range(1, 6):
        for corner in range(4):
            mid = pl.corner_id(code, corner)
            assert mid not in seen
            seen[mid] = "corner"
            assert pl.decode_aruco(mid).corner == corner
    assert pl.token_id("flag") not in seen
    assert max(seen) < 250


def test_help_lists_every_verb() -> None:
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    for verb in VERBS:
        assert verb in result.output


def test_every_verb_imports() -> None:
    for verb in VERBS:
        assert cli.get_command(None, verb) is not None  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["cardsets", "calibration", "web"])
def test_data_folders_found(name: str) -> None:
    assert data_dir(name).is_dir()
