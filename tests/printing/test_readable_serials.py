"""Every big-cell sticker the printer makes reads back, the right way up.

The oracle is the reader itself on the printed picture (the vision decoder, not the code that
chose the serials): a few payloads' symbols read as well turned or mirrored, and the reader
refuses those (it cannot tell which way up they lie). Back serials skip them; a front that has
one prints as Micro QR."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.markers import bigcell
from companion.markers.payload import encode_back
from companion.markers.render import card_back_image
from companion.printing.stickers import back_serials, back_specs
from companion.vision.detect import Detector

REFUSED_TURNED = 10237  # Fire Emblem's range: its symbol turned lies one cell from a codeword


def read(payload: str, symbology: str = "bigcell") -> set[str]:
    image = card_back_image(payload, 8, symbology=symbology)  # type: ignore[arg-type]
    canvas = np.full((image.shape[0] + 200, image.shape[1] + 200), 200, np.uint8)
    canvas[100:100 + image.shape[0], 100:100 + image.shape[1]] = image
    return {d.text for d in Detector(backend="zxing", read_qr=True).detect(canvas)}


def test_a_serial_whose_symbol_reads_two_ways_up_is_not_printed_as_big_cell() -> None:
    payload = encode_back(REFUSED_TURNED)
    assert not bigcell.fits(payload)
    assert read(payload) == {payload}  # drawn as Micro QR instead, it reads
    serials = back_serials(REFUSED_TURNED - 1, 3)
    assert serials == [REFUSED_TURNED - 1, REFUSED_TURNED + 1, REFUSED_TURNED + 2]
    assert [s.payload for s in back_specs(REFUSED_TURNED - 1, 3)] == [
        encode_back(s) for s in serials]


@settings(max_examples=25, deadline=None)
@given(first=st.integers(1, bigcell.MAX_SERIAL - 40))
def test_every_back_the_printer_makes_reads_back(first: int) -> None:
    for serial in back_serials(first, 3):
        payload = encode_back(serial)
        assert read(payload) == {payload}


def test_the_printed_serials_skip_only_the_ambiguous_ones() -> None:
    serials = back_serials(1, 3000)
    skipped = sorted(set(range(1, serials[-1] + 1)) - set(serials))
    assert skipped and all(not bigcell.unambiguous(encode_back(s)) for s in skipped)
    assert len(skipped) < 10  # about 0.1 %
