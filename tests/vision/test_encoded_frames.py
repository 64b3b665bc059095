"""Frames kept as JPEG: decoded when first asked, their small copy straight from the decoder, a
Motion-JPEG file read without decoding; and the live feed's preview of a frame the motion gate
skipped (no picture in the update: the frame's own, turned as the pipeline turns it)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from companion.server.feeds import picture_of
from companion.vision.sources import (
    EncodedFrame,
    Frame,
    JpegDecodeError,
    VideoFileSource,
    open_source,
)


def picture(width: int = 256, height: int = 128) -> np.ndarray:
    """Left half dark blue, right half light orange, with a grey square: the halves tell a
    turned picture from the original."""
    image = np.zeros((height, width, 3), np.uint8)
    image[:, : width // 2] = (120, 40, 20)
    image[:, width // 2:] = (60, 170, 230)
    image[40:72, 24:56] = (128, 128, 128)
    return image


def jpeg(image: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    assert ok
    return data.tobytes()


def test_the_picture_is_decoded_when_first_asked_and_kept() -> None:
    image = picture()
    frame = EncodedFrame(index=3, time_s=0.1, jpeg=jpeg(image))
    assert not frame.decoded
    small = frame.reduced(8)
    assert small is not None and small.shape == (16, 32, 3) and not frame.decoded
    decoded = frame.image
    assert frame.decoded and frame.image is decoded  # once
    assert float(np.abs(decoded.astype(int) - image).mean()) < 2.0  # lossy, barely
    # the decoder's 1/8 copy: each 8 x 8 block's mean, as an area shrink of the picture gives
    shrunk = cv2.resize(image, (32, 16), interpolation=cv2.INTER_AREA)
    assert float(np.abs(small.astype(int) - shrunk).mean()) < 3.0


def test_bytes_that_are_not_a_jpeg_say_so() -> None:
    with pytest.raises(JpegDecodeError, match="not a JPEG"):
        EncodedFrame(index=7, time_s=0.0, jpeg=b"\x89PNG....")


def test_a_frame_turned_by_replace_is_that_picture() -> None:
    frame = EncodedFrame(index=0, time_s=0.0, jpeg=jpeg(picture()))
    turned = replace(frame, image=cv2.flip(frame.image, 1))
    assert isinstance(turned, EncodedFrame) and turned.jpeg is None
    assert turned.reduced(8) is None  # no JPEG: the pipeline shrinks the picture
    assert turned.image[64, 10, 2] > 200  # the orange half is on the left now


def test_a_motion_jpeg_file_gives_its_frames_undecoded(tmp_path: Path) -> None:
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, (256, 128))
    for k in range(3):
        writer.write(np.roll(picture(), 8 * k, axis=1))
    writer.release()
    plain = open_source(str(path))
    encoded = open_source(str(path), encoded=True)
    assert isinstance(encoded, VideoFileSource) and encoded.encoded
    for _ in range(3):
        a, b = plain.read(), encoded.read()
        assert a is not None and b is not None
        assert isinstance(b, EncodedFrame) and not b.decoded
        assert (b.index, b.time_s) == (a.index, a.time_s)
        assert float(np.abs(b.image.astype(int) - a.image).mean()) < 2.0  # the same picture
    assert plain.read() is None and encoded.read() is None
    plain.close()
    encoded.close()


def test_another_codec_is_decoded_as_usual(tmp_path: Path) -> None:
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"FFV1"), 10.0, (256, 128))
    if not writer.isOpened():
        pytest.skip("no FFV1 encoder in this OpenCV")
    writer.write(picture())
    writer.release()
    source = VideoFileSource(path, encoded=True)
    assert not source.encoded
    frame = source.read()
    assert frame is not None and not isinstance(frame, EncodedFrame)
    source.close()


def test_a_skipped_frame_is_previewed_turned_as_the_pipeline_reads_it() -> None:
    image = picture()
    frame = Frame(image, 0, 0.0)
    skipped = SimpleNamespace(image=None)
    assert picture_of(frame, SimpleNamespace(mirrored=False), skipped) is image
    turned = picture_of(frame, SimpleNamespace(mirrored=True), skipped)
    assert np.array_equal(turned, image[:, ::-1])
    read = SimpleNamespace(image=np.zeros_like(image))
    assert picture_of(frame, SimpleNamespace(mirrored=True), read) is read.image
