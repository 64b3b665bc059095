"""`companion watch`: the headless pipeline on an image folder and a video file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import pytest
from click.testing import CliRunner

from companion.cli import cli
from companion.markers.payload import encode_back, encode_front

from .scene3d import Camera, Die, Scene, Sticker, render


def _scene() -> Scene:
    scene = Scene()
    z = scene.layout.zones
    scene.stickers = [Sticker(encode_front(5, 1, 1), *z["p1.A1"].centre),
                      Sticker(encode_front(5, 3, 2), *z["p2.B2"].centre, angle_deg=90),
                      Sticker(encode_back(12), *z["p1.lager"].centre, back=True)]
    x, y = z["p1.dice"].centre
    scene.dice = [Die("p1.w1", 3, x - 20, y), Die("p1.w2", 6, x + 15, y + 10, yaw_deg=20)]
    return scene


TRUTH = {("CC-001#1", "p1.A1", False), ("CC-003#2", "p2.B2", True),
         ("back:12", "p1.lager", False)}


def test_watch_an_image_folder_prints_json_lines(tmp_path: Path) -> None:
    scene = _scene()
    for k in range(5):
        cv2.imwrite(str(tmp_path / f"f{k:02d}.png"), render(scene, Camera(tilt_deg=20), seed=k))
    result = CliRunner().invoke(cli, ["watch", str(tmp_path), "--game", "creature-crush",
                                      "--json"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == 1
    snap = lines[0]
    assert {(c["uid"], c["zone"], c["tapped"]) for c in snap["cards"]} == TRUTH
    assert {(d["die"], d["value"], d["rolls"]) for d in snap["dice"]} == {
        ("p1.w1", 3, 0), ("p1.w2", 6, 0)}
    assert "5 frames, 1 settled table(s)" in result.stderr


def test_watch_a_mirrored_video_says_so_and_reads_it(tmp_path: Path) -> None:
    scene = _scene()
    video = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10, (1280, 720))
    if not writer.isOpened():
        pytest.skip("no MJPG video writer in this OpenCV build")
    for k in range(12):
        writer.write(render(scene, Camera(tilt_deg=20, size=(1280, 720), dist_mm=620), seed=k,
                            mirror=True))
    writer.release()
    result = CliRunner().invoke(cli, ["watch", str(video), "--game", "creature-crush"])
    assert result.exit_code == 0, result.output
    assert "mirrored" in result.stderr
    assert "CC-003#2" in result.stdout and "tapped" in result.stdout
    assert "die p1.w2" in result.stdout


def test_watch_refuses_what_is_not_a_source(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["watch", str(tmp_path / "nope.txt"), "--game",
                                      "creature-crush"])
    assert result.exit_code != 0
    assert "not a camera index" in result.output


@pytest.mark.parametrize("source, said", [("7", "Error: cannot open camera 7"),
                                          ("http://127.0.0.1:9/video",
                                           "Error: cannot open stream http://127.0.0.1:9/video")])
def test_a_source_that_does_not_open_gets_one_plain_line(source: str, said: str) -> None:
    """OpenCV's and FFmpeg's own logging ("can't open camera by index", "[tcp @ 0x...]
    Connection refused") goes to the terminal from C++; the user gets our line only."""
    env = {k: v for k, v in os.environ.items() if k != "OPENCV_FFMPEG_LOGLEVEL"}
    done = subprocess.run([sys.executable, "-m", "companion.cli", "watch", source, "--game",
                           "creature-crush"], capture_output=True, text=True, timeout=120,
                          env=env)
    assert done.returncode != 0
    assert done.stderr.strip().splitlines() == [said]
