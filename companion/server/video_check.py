"""A bundled opening as a video file, refereed the way `companion serve --video` does.

The simulator renders the script (camera preset, hands, settling) into a video file; the file
is read back frame by frame through the same path as `serve --video` (video source, vision
pipeline, live session on the real engine). Nobody presses "next phase" or "end turn": the
only person at the page is the script's (`ScriptDirector`), who enters what a person tells
the page (an attack's target) and answers the page's questions. The violations the session
shows must be exactly those the script's `expect`s name.

`python -m companion.server.video_check SCRIPT [--camera 1080p]` runs one check by hand.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import click

VIDEO_FPS = 15.0
SETTLE_S = 0.45
MJPEG_QUALITY = 95


@dataclass
class Rendered:
    """A rendered video and, per frame, the script step it shows (as the simulator knows)."""

    path: Path
    steps: list[int]


@dataclass
class VideoReport:
    """What the live session made of a video."""

    violations: list[str]
    expected: list[str]
    frames: int
    snapshots: int
    status: dict[str, Any] = field(default_factory=dict)

    @property
    def extra(self) -> list[str]:
        return sorted((Counter(self.violations) - Counter(self.expected)).elements())

    @property
    def missing(self) -> list[str]:
        return sorted((Counter(self.expected) - Counter(self.violations)).elements())

    @property
    def ok(self) -> bool:
        return not self.extra and not self.missing


def render_video(script_path: Path, out: Path, camera: str = "1080p",
                 fps: float = VIDEO_FPS, settle_s: float = SETTLE_S) -> Rendered:
    """The script through the simulator's camera (hands, settling, webcam degradation) into
    a Motion-JPEG file, the kind of file a phone or webcam recording gives. `camera` is a
    camera kind of the physical simulator or one of the old flat simulator's profiles."""
    import cv2

    from companion.sim.camera import CameraProfile
    from companion.sim.presets import preset_names
    from companion.sim.script import load_script
    from companion.sim.source import ScriptFrameSource

    script = load_script(script_path)
    seed = int(script.seed or 0)
    if camera in preset_names():  # a camera kind of the physical simulator (docs/simulator.md)
        source = ScriptFrameSource(script, preset=camera, fps=fps, settle_s=settle_s, seed=seed)
    else:  # the old flat simulator's profiles ("1080p", "720p")
        source = ScriptFrameSource(script, camera=CameraProfile.named(camera), fps=fps,
                                   settle_s=settle_s, seed=seed)
    writer: Any = None
    steps: list[int] = []
    try:
        while (frame := source.read()) is not None:
            image = frame.image
            if image.ndim == 2:
                image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
            if writer is None:
                h, w = image.shape[:2]
                writer = cv2.VideoWriter(str(out), cv2.VideoWriter.fourcc(*"MJPG"), fps, (w, h))
                writer.set(cv2.VIDEOWRITER_PROP_QUALITY, MJPEG_QUALITY)
                if not writer.isOpened():
                    raise click.ClickException(f"cannot write the video {out}")
            writer.write(image)
            steps.append(int(frame.step))
    finally:
        source.close()
        if writer is not None:
            writer.release()
    return Rendered(out, steps)


def expected_violations(script_path: Path) -> list[str]:
    """The violation codes the script's `expect`s name (with --camera-only, the presses left
    out), as the engine's own referee finds them on the true table."""
    from companion.referee.script import referee_script

    report = referee_script(str(script_path), camera_only=True)
    if report.failures:
        raise click.ClickException("the script itself fails: " + "; ".join(report.failures))
    return sorted(v.code for s in report.steps for e in s.moves for v in e.violations)


def run_video(script_path: Path, rendered: Rendered, db: Path) -> VideoReport:
    """The video through `serve --video`'s path; the script's person declares and answers."""
    from companion.layouts import load_layout
    from companion.referee.script import config_from_script
    from companion.server.feeds import FrameFeed
    from companion.server.live_setup import ScriptDirector, build_live
    from companion.sim.script import load_script
    from companion.sim.source import script_cardset
    from companion.vision.pipeline import build_pipeline
    from companion.vision.sources import open_source

    script = load_script(script_path)
    layout = load_layout(script.game)
    source = open_source(str(rendered.path))
    pipeline = build_pipeline(layout, script.game, script_cardset(script))
    feed = FrameFeed(source, pipeline, end_status="finished")
    live = build_live(config_from_script(script), feed, db, f"video: {script_path.stem}")
    director = ScriptDirector(script, live.session)

    def on_frame(frame: Any) -> None:
        index = int(getattr(frame, "index", 0))
        if index < len(rendered.steps):
            director.on_frame(SimpleNamespace(step=rendered.steps[index]))

    feed.on_frame, feed.on_end = on_frame, director.on_end
    try:
        live.runner.start()
        live.runner.join()
        if live.runner.error is not None:
            raise live.runner.error
        state = live.session.state()
        got = sorted(str(v["code"]) for v in state["violations"])
        return VideoReport(got, expected_violations(script_path), feed.frames,
                           feed.snapshots, dict(state.get("status", {})))
    finally:
        live.close()


def check_video(script_path: Path, camera: str = "1080p", workdir: Path | None = None
                ) -> VideoReport:
    """Render, then referee the video; both files go to `workdir` (a temporary folder)."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = workdir or Path(tmp)
        rendered = render_video(script_path, folder / f"{script_path.stem}.avi", camera)
        return run_video(script_path, rendered, folder / "games.db")


@click.command()
@click.argument("script", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--camera", default="1080p", show_default=True,
              help="Simulated camera: a camera kind of the physical simulator "
                   "(overhead-webcam-1080p, ...) or the old flat simulator's 1080p/720p.")
def main(script: Path, camera: str) -> None:
    """Render SCRIPT to a video and referee it as `serve --video` does, nobody pressing."""
    report = check_video(script, camera)
    click.echo(f"{script}: {report.frames} frames, {report.snapshots} settled tables")
    click.echo(f"violations shown: {report.violations or 'none'}")
    click.echo(f"named by the script: {report.expected or 'none'}")
    if not report.ok:
        raise click.ClickException(f"extra {report.extra}, missing {report.missing}")
    click.echo("exactly the violations the script names")


if __name__ == "__main__":
    main()
