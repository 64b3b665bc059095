"""The big-cell card code: the card sticker's payload in 36 cells a camera can read from afar.

Why: a Micro QR M2 has 13 modules across; a 25 mm symbol gives 1.9 mm modules, and realistic
webcam pictures need about 4 px per module to read (docs/markers.md). A laptop's camera, a 720p
webcam or a camera 68 cm up at 40 degrees gives 2-3. This code puts the same payload into an
8 x 8 grid of 3.1 mm cells on the same 25 mm: a black border one cell wide (found like an ArUco
marker's) around 6 x 6 data cells, 1.6 times the Micro QR's module.

What it carries (18 bits): the card payload's meaning, not its digits.
- front: game code G (1-7, 3 bits), card number (0-4095, 12 bits), copy (1-8, 3 bits);
- back: G = 0 and the anonymous serial (0-32767, 15 bits).
Cards beyond that (card number over 4095, a ninth copy, serial over 32767) keep a Micro QR
sticker; both read side by side.

Protection: the 18 bits are a shortened binary BCH code (63, 45) -> (36, 18) with minimum
distance 7, then XORed with a fixed mask (so no payload prints as a blank or striped square).
The reader takes the one of the eight ways to lay the grid (4 turns, mirrored or not) that needs
the fewest corrections, at most one and two fewer than any other, and a corrected cell must be
one the picture left unsure: a wrong identity needs six cells read wrong in the right
orientation, or a badly read grid in another orientation that happens to lie within one
unsure cell of a codeword (`read_cells`).

Grid as printed: `symbol_cells(payload)` is 8 x 8 booleans (True = ink). For the module-based
drawing code (printer, simulator: a symbol drawn `sticker_mm` wide with a quiet zone of 2
modules) each cell is 2 x 2 modules, so the standard quiet zone is one cell wide.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import numpy as np

from companion.markers.payload import (
    BackPayload,
    FrontPayload,
    PayloadError,
    decode,
    encode_back,
    encode_front,
)

CELLS = 8  # black border plus 6 x 6 data cells
DATA_CELLS = 6
N = DATA_CELLS * DATA_CELLS  # 36 code bits
K = 18  # payload bits
MODULES_PER_CELL = 2
MODULES = CELLS * MODULES_PER_CELL  # 16 modules across, for module-based drawing
MAX_CORRECTIONS = 2  # the syndrome table's reach; readers accept fewer (see read_cells)
ACCEPT_CORRECTIONS = 1
MAX_NUMBER = 4095
MAX_COPY = 8
MAX_SERIAL = 32767

_PRIMITIVE = 0b1000011  # x^6 + x + 1 over GF(2): GF(64)
# minimal polynomials of alpha, alpha^3, alpha^5 in GF(64)
_M1 = 0b1000011
_M3 = 0b1010111
_M5 = 0b1100111
_MASK = 0x9C5A3_6B2E >> 2  # fixed 36-bit pattern of mixed ink and paper


def _mul(a: int, b: int) -> int:
    out = 0
    while b:
        if b & 1:
            out ^= a
        a <<= 1
        b >>= 1
    return out


def _mod(a: int, m: int) -> int:
    deg = m.bit_length() - 1
    while a.bit_length() - 1 >= deg:
        a ^= m << (a.bit_length() - 1 - deg)
    return a


GENERATOR = _mul(_mul(_M1, _M3), _M5)  # degree 18: BCH(63, 45), t = 3
PARITY = GENERATOR.bit_length() - 1
MASK = _MASK & ((1 << N) - 1)


class BigCellError(PayloadError):
    """A payload that does not fit the big-cell code (use a Micro QR sticker for it)."""


def encode_bits(value: int) -> int:
    """18-bit value -> 36-bit masked codeword (systematic: value in the high bits)."""
    if not 0 <= value < (1 << K):
        raise BigCellError(f"value {value} does not fit {K} bits")
    shifted = value << PARITY
    return (shifted | _mod(shifted, GENERATOR)) ^ MASK


@lru_cache(maxsize=1)
def _syndromes() -> dict[int, int]:
    """Syndrome -> error pattern for every pattern of at most MAX_CORRECTIONS errors."""
    table = {0: 0}
    for weight in range(1, MAX_CORRECTIONS + 1):
        for positions in combinations(range(N), weight):
            error = 0
            for p in positions:
                error |= 1 << p
            table.setdefault(_mod(error, GENERATOR), error)
    return table


def decode_bits(word: int) -> tuple[int, int] | None:
    """36-bit word as read -> (18-bit value, cells corrected), or None when more than
    MAX_CORRECTIONS cells would have to be wrong."""
    word ^= MASK
    error = _syndromes().get(_mod(word, GENERATOR))
    if error is None:
        return None
    fixed = word ^ error
    return fixed >> PARITY, bin(error).count("1")


def value_of(payload: str) -> int:
    """The 18-bit value of an 8-digit sticker payload (raises BigCellError if it does not fit)."""
    meaning = decode(payload)
    if isinstance(meaning, BackPayload):
        if meaning.serial > MAX_SERIAL:
            raise BigCellError(f"back serial {meaning.serial} is over {MAX_SERIAL}")
        return meaning.serial
    assert isinstance(meaning, FrontPayload)
    if not 1 <= meaning.game_code <= 7:
        raise BigCellError(f"game code {meaning.game_code} out of range 1-7")
    if meaning.number > MAX_NUMBER:
        raise BigCellError(f"card number {meaning.number} is over {MAX_NUMBER}")
    if meaning.copy > MAX_COPY:
        raise BigCellError(f"copy {meaning.copy} is over {MAX_COPY}")
    return (meaning.game_code << 15) | (meaning.number << 3) | (meaning.copy - 1)


def payload_of(value: int) -> str:
    """The 8-digit sticker payload an 18-bit value stands for (what the reader reports)."""
    game = value >> 15
    if game == 0:
        return encode_back(value & 0x7FFF)
    return encode_front(game, (value >> 3) & 0xFFF, (value & 0x7) + 1)


def fits(payload: str) -> bool:
    """Whether `payload` prints as a big-cell sticker every reader reads: in the code's range,
    and no other turn (or mirror image) of its symbol lies within one cell of a codeword
    (`read_cells` refuses such a symbol, since it cannot tell which way up it lies: 38 of the
    32,767 back serials, about 0.1 % of payloads). The others print as Micro QR."""
    try:
        value_of(payload)
    except PayloadError:
        return False
    return unambiguous(payload)


def unambiguous(payload: str) -> bool:
    """No other orientation of the printed symbol decodes with fewer than two corrections."""
    data = symbol_cells(payload)[1:-1, 1:-1]
    for mirrored in (False, True):
        grid = data[:, ::-1] if mirrored else data
        for turns in range(4):
            if not mirrored and turns == 0:
                continue
            decoded = decode_bits(_word(np.rot90(grid, -turns)))
            if decoded is not None and decoded[1] < 2:
                return False
    return True


def symbol_cells(payload: str) -> np.ndarray:
    """8 x 8 cells (True = ink) of the big-cell symbol for `payload`, in its printed
    orientation: data bits row by row from the top-left data cell, bit 35 first."""
    word = encode_bits(value_of(payload))
    bits = np.array([(word >> (N - 1 - i)) & 1 for i in range(N)], dtype=bool)
    cells = np.ones((CELLS, CELLS), dtype=bool)
    cells[1:-1, 1:-1] = bits.reshape(DATA_CELLS, DATA_CELLS)
    return cells


def symbol_modules(payload: str) -> np.ndarray:
    """The symbol as a module grid (each cell 2 x 2 modules), for module-based drawing."""
    cells = symbol_cells(payload)
    return np.kron(cells, np.ones((MODULES_PER_CELL, MODULES_PER_CELL), dtype=bool))


def _word(data: np.ndarray) -> int:
    word = 0
    for bit in data.ravel():
        word = (word << 1) | int(bool(bit))
    return word


def read_cells(data: np.ndarray, mirrored_too: bool = True,
               max_corrections: int = ACCEPT_CORRECTIONS,
               unsure: np.ndarray | None = None) -> tuple[str, int, int, bool] | None:
    """The payload of a 6 x 6 data grid read from a picture (True = ink), in any of its
    orientations (4 turns; mirrored too unless the picture is known to be the right way
    round): (payload, corrections, quarter turns, mirrored), or None.

    The orientation needing the fewest corrections wins: read cleanly, when every other
    orientation needs at least two corrections; with one correction (at most
    `max_corrections`), when no other orientation decodes at all and the corrected cell is one
    the picture left `unsure` (when that mask is given).
    Why so strict: the code has distance 7, so in the right orientation a wrong payload needs
    6 cells read wrong; but a badly read sticker seen in one of the other orientations is a
    random pattern, which lies within one cell of some codeword for 0.1 % of patterns."""
    found = []
    for mirrored in (False, True) if mirrored_too else (False,):
        grid = data[:, ::-1] if mirrored else data
        for turns in range(4):
            decoded = decode_bits(_word(np.rot90(grid, -turns)))
            if decoded is not None:
                found.append((decoded[1], decoded[0], turns, mirrored))
    if not found:
        return None
    found.sort(key=lambda f: f[0])
    corrections, value, turns, mirrored = found[0]
    if corrections > max_corrections:
        return None
    if len(found) > 1 and (corrections > 0 or found[1][0] < 2):
        # another orientation reads almost as well: no telling which (a clean reading may
        # stand beside another orientation two cells off, a corrected one beside none)
        return None
    try:
        payload = payload_of(value)
    except PayloadError:
        return None
    if corrections and unsure is not None:
        printed = symbol_cells(payload)[1:-1, 1:-1]
        seen = np.rot90(printed, turns)
        if mirrored:
            seen = seen[:, ::-1]
        if not bool(unsure[seen != data].all()):
            return None  # the code corrected a cell the picture showed clearly
    return payload, corrections, turns, mirrored


# ----- soft decoding: errors and erasures --------------------------------------------------

CHASE_CELLS = 8  # the least reliable cells tried both ways (2^8 test patterns)
SOFT_T = 3  # errors the syndrome table corrects on top of each test pattern (distance 7)


@lru_cache(maxsize=1)
def _leaders() -> np.ndarray:
    """Syndrome (18 bits) -> the error pattern of at most SOFT_T cells that gives it, or -1."""
    table = np.full(1 << PARITY, -1, np.int64)
    table[0] = 0
    for weight in range(1, SOFT_T + 1):
        for positions in combinations(range(N), weight):
            error = 0
            for p in positions:
                error |= 1 << p
            s = _mod(error, GENERATOR)
            if table[s] < 0:
                table[s] = error
    return table


@lru_cache(maxsize=1)
def _bit_syndromes() -> np.ndarray:
    return np.array([_mod(1 << p, GENERATOR) for p in range(N)], np.int64)


@dataclass(frozen=True)
class SoftReading:
    """The nearest codeword to a soft-read grid and how far the next one is.

    `cost`: the summed confidence of the cells read against the codeword (0: all agree);
    `runner_up`: the same for the nearest other codeword in any orientation (a lower bound
    where none was found within the search's reach)."""

    payload: str
    cost: float
    runner_up: float
    turns: int
    mirrored: bool
    erased: int


def _chase(soft: np.ndarray, chase: int) -> tuple[list[tuple[float, int]], float]:
    """All codewords (cost, masked-off value) the Chase-2 search reaches from one orientation
    of a 6 x 6 soft grid (positive: ink, its size the confidence; 0: erased), and the lower
    bound on the cost of any codeword it did not reach."""
    flat = soft.ravel().astype(np.float64)
    bit_of_cell = N - 1 - np.arange(N)
    conf = np.zeros(N)
    conf[bit_of_cell] = np.abs(flat)
    word = 0
    for b, v in zip(bit_of_cell, flat, strict=True):
        if v > 0:
            word |= 1 << int(b)
    word ^= MASK
    order = np.argsort(conf, kind="stable")
    weak = order[:chase]
    # every subset of the weak bits: its flip pattern and syndrome
    patterns = np.zeros(1, np.int64)
    syndromes = np.zeros(1, np.int64)
    singles = _bit_syndromes()
    for b in weak:
        patterns = np.concatenate([patterns, patterns | (1 << int(b))])
        syndromes = np.concatenate([syndromes, syndromes ^ singles[b]])
    syndromes ^= _mod(word, GENERATOR)
    errors = _leaders()[syndromes]
    ok = errors >= 0
    diff = np.unique(patterns[ok] ^ errors[ok])
    bits = (diff[:, None] >> np.arange(N)) & 1
    costs = bits @ conf
    values = (word ^ diff) >> PARITY
    bound = (SOFT_T + 1) * float(np.sort(conf)[chase]) if chase < N else np.inf
    return [(float(c), int(v)) for c, v in zip(costs, values, strict=True)], bound


def read_soft(soft: np.ndarray, mirrored_too: bool = True, chase: int = CHASE_CELLS
              ) -> SoftReading | None:
    """The codeword nearest a soft-read 6 x 6 data grid in any orientation, with the distance
    to the next nearest: errors-and-erasures decoding (Chase-2 around the `chase` least sure
    cells, each pattern completed by up to three corrections). The caller decides from `cost`
    and `runner_up` whether the reading is beyond doubt; this only finds them."""
    found: list[tuple[float, int, int, bool]] = []
    bound = np.inf
    for mirrored in (False, True) if mirrored_too else (False,):
        grid = soft[:, ::-1] if mirrored else soft
        for turns in range(4):
            words, reach = _chase(np.rot90(grid, -turns), chase)
            bound = min(bound, reach)
            found.extend((c, v, turns, mirrored) for c, v in words)
    if not found:
        return None
    found.sort(key=lambda f: f[0])
    cost, value, turns, mirrored = found[0]
    runner_up = min(found[1][0] if len(found) > 1 else np.inf, bound)
    try:
        payload = payload_of(value)
    except PayloadError:
        return None
    return SoftReading(payload, cost, float(runner_up), turns, mirrored,
                       int((soft == 0).sum()))
