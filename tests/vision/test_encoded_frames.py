"""Frames kept as JPEG: decoded when first asked, their small copy straight from the decoder, a
Motion-JPEG file or camera read without decoding (a camera that cannot give its buffers is read
as before); and the live feed's preview of a frame the motion gate skipped (no picture in the
update: the frame's own, turned as the pipeline turns it)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from companion.server.feeds import picture_of
from companion.vision.sources import (
    CameraSource,
    EncodedFrame,
    Frame,
    JpegDecodeError,
    ReconnectingSource,
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


MJPG = cv2.VideoWriter.fourcc(*"MJPG")
YUYV = cv2.VideoWriter.fourcc(*"YUYV")


class FakeWebcam:
    """A webcam as OpenCV's V4L2 reader shows it: its formats, and with `CAP_PROP_CONVERT_RGB`
    0 in Motion-JPEG the driver's buffers as they come (one row of bytes, padded with zeros
    after the picture's end, as a USB camera's buffer is), else decoded pictures.
    `honours_raw`: False for a backend that refuses the setting; `gives_raw`: False for one
    that takes it and decodes anyway."""

    def __init__(self, pictures: list[np.ndarray], formats: tuple[int, ...] = (YUYV, MJPG),
                 honours_raw: bool = True, gives_raw: bool = True) -> None:
        self.pictures = list(pictures)
        self.formats = formats
        self.honours_raw = honours_raw
        self.gives_raw = gives_raw
        self.props: dict[int, float] = {cv2.CAP_PROP_FOURCC: formats[0],
                                        cv2.CAP_PROP_CONVERT_RGB: 1.0}

    def isOpened(self) -> bool:
        return True

    def set(self, prop: int, value: float) -> bool:
        if prop == cv2.CAP_PROP_FOURCC and value not in self.formats:
            return False
        if prop == cv2.CAP_PROP_CONVERT_RGB and not self.honours_raw:
            return False
        self.props[prop] = value
        return True

    def get(self, prop: int) -> float:
        return float(self.props.get(prop, 0.0))

    def read(self) -> tuple[bool, np.ndarray | None]:
        if not self.pictures:
            return False, None
        image = self.pictures.pop(0)
        if (self.gives_raw and self.props[cv2.CAP_PROP_FOURCC] == MJPG
                and self.props[cv2.CAP_PROP_CONVERT_RGB] == 0):
            data = np.frombuffer(jpeg(image), np.uint8)
            return True, np.concatenate([data, np.zeros(64, np.uint8)]).reshape(1, -1)
        return True, image.copy()

    def release(self) -> None:
        pass


def test_a_motion_jpeg_webcam_gives_its_buffers_undecoded_through_reconnects() -> None:
    pictures = [np.roll(picture(), 8 * k, axis=1) for k in range(3)]
    webcam = FakeWebcam(list(pictures))
    source = ReconnectingSource(lambda: CameraSource(0, encoded=True, capture=webcam))
    for k, shown in enumerate(pictures):
        frame = source.read()
        assert isinstance(frame, EncodedFrame) and not frame.decoded and frame.index == k
        small = frame.reduced(8)
        assert small is not None and not frame.decoded  # the gate's copy, still undecoded
        assert float(np.abs(frame.image.astype(int) - shown).mean()) < 2.0  # that picture
    assert webcam.props[cv2.CAP_PROP_FOURCC] == MJPG  # it was asked for Motion-JPEG
    source.close()


@pytest.mark.parametrize("webcam", [
    FakeWebcam([picture()], formats=(YUYV,)),  # no Motion-JPEG at all
    FakeWebcam([picture()], honours_raw=False),  # a backend that refuses raw buffers
    FakeWebcam([picture()], gives_raw=False),  # one that takes the setting, decodes anyway
], ids=["yuyv-only", "refuses-raw", "decodes-anyway"])
def test_a_webcam_that_cannot_give_jpeg_is_read_as_pictures(webcam: FakeWebcam) -> None:
    source = CameraSource(0, encoded=True, capture=webcam)
    frame = source.read()
    assert frame is not None and not isinstance(frame, EncodedFrame)
    assert frame.image.shape == (128, 256, 3)  # a picture, never a raw YUYV buffer
    if webcam.props[cv2.CAP_PROP_FOURCC] != MJPG:
        assert webcam.props[cv2.CAP_PROP_CONVERT_RGB] == 1.0  # raw YUYV is never asked for
    source.close()
