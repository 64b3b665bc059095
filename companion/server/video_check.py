"""A bundled opening as a video file, refereed the way `companion serve --video` does.

The simulator renders the script (camera preset, hands, settling) into a video file; the file
is read back frame by frame through the same path as `serve --video` (video source, vision
pipeline, live session on the real engine). Nobody presses "next phase" or "end turn". With
`--person script` the script's person (`ScriptDirector`) enters what a person tells the page
(an attack's target) and answers the page's questions; with `--person none` nobody is at the
page at all. The violations the session shows must be exactly those the script's `expect`s
name, and the final state (scores, phase, turn, winner) that of the engine's own referee on
the script's true table.

`python -m companion.server.video_check SCRIPT [--camera overhead-webcam-1080p]
[--person none]` runs one check by hand.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import click

from companion.server.video_report import (
    PERSONS,
    FinalState,
    Settled,
    VideoReport,
    named_violations,
    page_log,
    question_counts,
    questions_asked,
    shown_violations,
)

DEFAULT_CAMERA = "overhead-webcam-1080p"

VIDEO_FPS = 15.0
SETTLE_S = 0.45
MJPEG_QUALITY = 95


@dataclass
class Rendered:
    """A rendered video and, per frame, the script step it shows (as the simulator knows)."""

    path: Path
    steps: list[int]


def render_video(script_path: Path, out: Path, camera: str = DEFAULT_CAMERA,
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


def script_truth(script_path: Path) -> Any:
    """The engine's own referee on the script's true table, presses left out
    (`referee_script(camera_only=True)`): per step its moves, violations and state."""
    from companion.referee.script import referee_script

    report = referee_script(str(script_path), camera_only=True)
    if report.failures:
        raise click.ClickException("the script itself fails: " + "; ".join(report.failures))
    return report


def expected_violations(script_path: Path) -> list[str]:
    """The violation codes the script's `expect`s name (with --camera-only, the presses left
    out), as the engine's own referee finds them on the true table."""
    return sorted(code for _, code in named_violations(script_truth(script_path)))


class NobodyAtThePage:
    """`--person none`: nobody declares, answers or presses; a question stays open. The
    product as it meets a table where nobody looks at the page."""

    def on_frame(self, frame: Any) -> None:
        """Nobody sees the table change."""

    def on_end(self) -> None:
        """Nobody answers the last question."""


class SettledLog:
    """The vision pipeline, keeping each settled table it gives with its frame and the script
    step that frame shows (for the report's diagnosis); everything else is the pipeline's."""

    def __init__(self, pipeline: Any, steps: list[int]) -> None:
        self.pipeline = pipeline
        self.steps = steps
        self.settled: list[Settled] = []

    def process(self, frame: Any) -> Any:
        update = self.pipeline.process(frame)
        if update.snapshot is not None:
            index = int(getattr(frame, "index", 0))
            step = self.steps[index] if index < len(self.steps) else -1
            self.settled.append(Settled(index, step + 1, update.snapshot))
        return update

    def __getattr__(self, name: str) -> Any:
        return getattr(self.pipeline, name)


TRUTH_CAMERA = "truth"
"""Not a camera: the script's true tables as the settled tables (a perfect eye), so what
remains wrong is the rules', the person's or the timing's, never the eye's."""


class TruthFrames:
    """Two frames per script step: the change under way (no table yet), then settled."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.index = 0

    def read(self) -> Any:
        import numpy as np

        if self.index >= 2 * self.count:
            return None
        frame = SimpleNamespace(index=self.index, time_s=float(self.index),
                                image=np.zeros((8, 8, 3), np.uint8))
        self.index += 1
        return frame

    def close(self) -> None:
        """Nothing to release."""

    @property
    def steps(self) -> list[int]:
        return [k - 1 for k in range(self.count) for _ in (0, 1)]


class TruthEye:
    """A perfect eye: the true visible table of each step, settled on its second frame."""

    def __init__(self, tables: list[Any]) -> None:
        self.tables = tables

    def process(self, frame: Any) -> Any:
        k = frame.index // 2
        table = self.tables[k].with_seq(k + 1, float(k)) if frame.index % 2 else None
        stats = SimpleNamespace(fps=VIDEO_FPS, markers_seen=4, calibration_ok=True,
                                cards_seen=len(self.tables[k].cards), frame_ms=0.0)
        return SimpleNamespace(snapshot=table, stats=stats, detections=())


def referee_truth(script_path: Path, db: Path, person: str = "script") -> VideoReport:
    """The script's true tables through the live session (no rendering, a perfect eye)."""
    from companion.sim.script import load_script
    from companion.sim.source import script_snapshots

    tables = script_snapshots(load_script(script_path))
    frames = TruthFrames(len(tables))
    return referee_feed(script_path, frames, TruthEye(tables), frames.steps, db, person)


def director_for(person: str, script: Any, session: Any) -> Any:
    """Who sits at the page: the script's person (`ScriptDirector`) or nobody."""
    from companion.server.live_setup import ScriptDirector

    if person not in PERSONS:
        raise click.ClickException(f"--person must be one of {', '.join(PERSONS)}, not {person}")
    return ScriptDirector(script, session) if person == "script" else NobodyAtThePage()


def referee_feed(script_path: Path, source: Any, pipeline: Any, steps: list[int], db: Path,
                 person: str = "script") -> VideoReport:
    """Frames of `source` through `pipeline` into a live session, as `serve --video` does,
    with `person` at the page; `steps[i]` is the script step frame i shows (counted from 0,
    -1: the start; the report counts as the script does, from 1)."""
    from companion.referee.script import config_from_script
    from companion.server.feeds import FrameFeed
    from companion.server.live_setup import build_live
    from companion.sim.script import load_script

    script = load_script(script_path)
    truth = script_truth(script_path)
    log = SettledLog(pipeline, steps)
    feed = FrameFeed(source, log, end_status="finished")
    live = build_live(config_from_script(script), feed, db, f"video: {script_path.stem}")
    director = director_for(person, script, live.session)
    marks: list[tuple[int, int]] = []  # (last event seq, step) when the video reached a step

    def on_frame(frame: Any) -> None:
        index = int(getattr(frame, "index", 0))
        if index < len(steps):
            if not marks or marks[-1][1] != steps[index] + 1:
                marks.append((live.store.log_stamp(live.session.game_id)[0], steps[index] + 1))
            director.on_frame(SimpleNamespace(step=steps[index]))

    feed.on_frame, feed.on_end = on_frame, director.on_end
    try:
        live.runner.start()
        live.runner.join()
        if live.runner.error is not None:
            raise live.runner.error
        state = live.session.state()
        events = live.session.store.events(live.session.game_id)
    finally:
        live.close()
    asked, unanswered = question_counts(events)
    step_of = {s.snapshot.seq: s.step for s in log.settled}
    named = named_violations(truth)
    return VideoReport(
        violations=sorted(str(v["code"]) for v in state["violations"] if not v.get("unsure")),
        unsure=sorted(str(v["code"]) for v in state["violations"] if v.get("unsure")),
        expected=sorted(code for _, code in named), frames=feed.frames,
        snapshots=feed.snapshots, status=dict(state.get("status", {})), person=person,
        final=FinalState.from_page(state), truth=FinalState.from_step(truth.steps[-1]),
        questions=asked, unanswered=unanswered, settled=log.settled,
        shown=shown_violations(events, step_of, marks), named=named,
        asked=questions_asked(events, step_of), log=page_log(events, step_of, marks))


def run_video(script_path: Path, rendered: Rendered, db: Path, person: str = "script"
              ) -> VideoReport:
    """The video through `serve --video`'s path (video file, vision pipeline, session)."""
    from companion.layouts import load_layout
    from companion.sim.script import load_script
    from companion.sim.source import script_cardset
    from companion.vision.pipeline import build_pipeline
    from companion.vision.sources import open_source

    script = load_script(script_path)
    pipeline = build_pipeline(load_layout(script.game), script.game, script_cardset(script))
    return referee_feed(script_path, open_source(str(rendered.path)), pipeline, rendered.steps,
                        db, person)


def check_video(script_path: Path, camera: str = DEFAULT_CAMERA, workdir: Path | None = None,
                person: str = "script", settle_s: float = SETTLE_S) -> VideoReport:
    """Render, then referee the video; both files go to `workdir` (a temporary folder).
    Camera `truth`: no video, the script's true tables (`referee_truth`). `settle_s`: how
    long the players leave the table still after each change (their pace)."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = workdir or Path(tmp)
        if camera == TRUTH_CAMERA:
            return referee_truth(script_path, folder / "games.db", person)
        rendered = render_video(script_path, folder / f"{script_path.stem}.avi", camera,
                                settle_s=settle_s)
        return run_video(script_path, rendered, folder / "games.db", person)


def print_report(report: VideoReport, echo: Any = click.echo) -> None:
    """The report as a person reads it: violations, final state, questions."""
    echo(f"violations shown: {report.violations or 'none'}")
    echo(f"named by the script: {report.expected or 'none'}")
    if report.unsure:
        echo(f"not sure (a card under the lamp's reflection could explain): {report.unsure}")
    if report.final is not None and report.truth is not None:
        echo(f"final state shown:  {report.final.brief()}")
        echo(f"the script's truth: {report.truth.brief()}")
    wrong = report.final_wrong
    echo("final state right" if not wrong else f"final state wrong: {'; '.join(wrong)}")
    echo(f"questions asked: {report.questions}, left unanswered: {report.unanswered}")


@click.command()
@click.argument("script", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--camera", default=DEFAULT_CAMERA, show_default=True,
              help="Simulated camera: a camera kind of the physical simulator "
                   "(overhead-webcam-1080p, phone-holder-1080p, ...) or the old flat "
                   "simulator's 1080p/720p, or `truth` (the script's true tables, no video).")
@click.option("--person", type=click.Choice(PERSONS), default="script", show_default=True,
              help="Who sits at the page: the script's person (declares attacks, answers "
                   "questions) or nobody at all.")
@click.option("--settle-s", type=float, default=SETTLE_S, show_default=True,
              help="Seconds the players leave the table still after each change.")
def main(script: Path, camera: str, person: str, settle_s: float) -> None:
    """Render SCRIPT to a video and referee it as `serve --video` does, nobody pressing."""
    report = check_video(script, camera, person=person, settle_s=settle_s)
    click.echo(f"{script} at {camera}, person {person}: {report.frames} frames, "
               f"{report.snapshots} settled tables")
    print_report(report)
    if not report.ok or report.final_wrong:
        raise click.ClickException(f"extra {report.extra}, missing {report.missing}, "
                                   f"final state {report.final_wrong or 'right'}")
    click.echo("exactly the violations the script names, and its final state")


if __name__ == "__main__":
    main()
