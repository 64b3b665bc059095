"""Payload codec for card stickers, and the id plan for ArUco dice, corners and tokens.

Card stickers carry 8 decimal digits, so that they fit a Micro QR M2 at error correction M
(DESIGN.md: 13 modules read at 25 mm on a 1080p webcam):

- card front: ``G NNNN CC D``: game code G (1-5), card number NNNN (the card's `number` in its
  cardset), copy CC (1-99), Damm check digit D. The payload alone names game, card and copy.
- card back: ``9 SSSSSS D``: anonymous serial S, check digit D. Unrelated to the card.

ArUco 4x4 (dictionary DICT_4X4_250) ids:
- die faces: ``die_index * 6 + (value - 1)``, die_index from the die name `pN.<kind><k>`,
- mat corners: ``CORNER_BASE + 4 * (game code - 1) + corner`` (corner 0..3),
- tokens: ``TOKEN_BASE + token index`` (the Challengers! flag is token 0).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from companion.errors import CompanionError

PAYLOAD_DIGITS = 8
BACK_LEAD = 9
MAX_CARD_NUMBER = 9999
MAX_COPY = 99
MAX_SERIAL = 999_999

DIE_KINDS = ("w", "r", "c")  # white start die, red damage die, counter
DICE_PER_KIND = 6
PLAYERS = ("p1", "p2")
FACES = 6
CORNER_BASE = 216
TOKEN_BASE = 240
TOKENS = ("flag",)
ARUCO_DICTIONARY = "DICT_4X4_250"

_DAMM = (
    (0, 3, 1, 7, 5, 9, 8, 6, 4, 2),
    (7, 0, 9, 2, 1, 5, 4, 8, 6, 3),
    (4, 2, 0, 6, 8, 7, 1, 3, 5, 9),
    (1, 7, 5, 0, 9, 8, 3, 4, 2, 6),
    (6, 1, 2, 3, 0, 4, 5, 9, 7, 8),
    (3, 6, 7, 4, 2, 0, 9, 5, 8, 1),
    (5, 8, 6, 9, 7, 2, 0, 1, 3, 4),
    (8, 9, 4, 5, 3, 6, 2, 0, 1, 7),
    (9, 4, 3, 8, 6, 1, 7, 2, 0, 5),
    (2, 5, 8, 1, 4, 3, 6, 7, 9, 0),
)


class PayloadError(CompanionError):
    """A sticker payload that is not one of ours, or fails its check digit."""


def damm_digit(digits: str) -> int:
    interim = 0
    for ch in digits:
        interim = _DAMM[interim][int(ch)]
    return interim


@dataclass(frozen=True)
class FrontPayload:
    game_code: int
    number: int
    copy: int


@dataclass(frozen=True)
class BackPayload:
    serial: int


def encode_front(game_code: int, number: int, copy: int) -> str:
    if not 1 <= game_code <= 8:
        raise PayloadError(f"game code {game_code} out of range 1-8")
    if not 0 <= number <= MAX_CARD_NUMBER:
        raise PayloadError(f"card number {number} out of range 0-{MAX_CARD_NUMBER}")
    if not 1 <= copy <= MAX_COPY:
        raise PayloadError(f"copy {copy} out of range 1-{MAX_COPY}")
    body = f"{game_code}{number:04d}{copy:02d}"
    return body + str(damm_digit(body))


def encode_back(serial: int) -> str:
    if not 0 <= serial <= MAX_SERIAL:
        raise PayloadError(f"back serial {serial} out of range 0-{MAX_SERIAL}")
    body = f"{BACK_LEAD}{serial:06d}"
    return body + str(damm_digit(body))


_PAYLOAD = re.compile(r"^\d{8}$")


def decode(text: str) -> FrontPayload | BackPayload:
    """Parse a sticker payload; anything else (a stray QR code) raises PayloadError."""
    if not _PAYLOAD.match(text):
        raise PayloadError(f"not a companion sticker: {text[:40]!r}")
    if damm_digit(text) != 0:
        raise PayloadError(f"check digit wrong in {text!r}")
    lead = int(text[0])
    if lead == BACK_LEAD:
        return BackPayload(serial=int(text[1:7]))
    if lead == 0:
        raise PayloadError(f"no game has code 0: {text!r}")
    copy = int(text[5:7])
    if copy == 0:
        raise PayloadError(f"copy 0 in {text!r}")
    return FrontPayload(game_code=lead, number=int(text[1:5]), copy=copy)


_DIE_NAME = re.compile(r"^(p[12])\.([wrc])([1-6])$")


def die_index(name: str) -> int:
    m = _DIE_NAME.match(name)
    if not m:
        raise PayloadError(
            f"bad die name {name!r}: expected pN.<kind><k>, kind w (white), r (red) or c "
            f"(counter), k 1-{DICE_PER_KIND}"
        )
    player = PLAYERS.index(m.group(1))
    kind = DIE_KINDS.index(m.group(2))
    return (player * len(DIE_KINDS) + kind) * DICE_PER_KIND + int(m.group(3)) - 1


def die_name(index: int) -> str:
    player, rest = divmod(index, len(DIE_KINDS) * DICE_PER_KIND)
    kind, k = divmod(rest, DICE_PER_KIND)
    return f"{PLAYERS[player]}.{DIE_KINDS[kind]}{k + 1}"


def die_face_id(name: str, value: int) -> int:
    if not 1 <= value <= FACES:
        raise PayloadError(f"die value {value} out of range 1-{FACES}")
    return die_index(name) * FACES + value - 1


def corner_id(game_code: int, corner: int) -> int:
    if not 0 <= corner <= 3:
        raise PayloadError(f"corner {corner} out of range 0-3")
    return CORNER_BASE + 4 * (game_code - 1) + corner


def token_id(token: str) -> int:
    return TOKEN_BASE + TOKENS.index(token)


@dataclass(frozen=True)
class ArucoMeaning:
    kind: str  # "die", "corner", "token"
    die: str | None = None
    value: int | None = None
    game_code: int | None = None
    corner: int | None = None
    token: str | None = None


def decode_aruco(marker_id: int) -> ArucoMeaning:
    n_dice = len(PLAYERS) * len(DIE_KINDS) * DICE_PER_KIND
    if 0 <= marker_id < n_dice * FACES:
        index, face = divmod(marker_id, FACES)
        return ArucoMeaning("die", die=die_name(index), value=face + 1)
    if CORNER_BASE <= marker_id < CORNER_BASE + 4 * 5:
        game, corner = divmod(marker_id - CORNER_BASE, 4)
        return ArucoMeaning("corner", game_code=game + 1, corner=corner)
    if TOKEN_BASE <= marker_id < TOKEN_BASE + len(TOKENS):
        return ArucoMeaning("token", token=TOKENS[marker_id - TOKEN_BASE])
    raise PayloadError(f"ArUco id {marker_id} is not assigned")
