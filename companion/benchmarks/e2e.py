"""`companion bench e2e`: whole games as a user meets the product, at a realistic camera.

Each bundled opening (or, with `--scripts all`, every bundled script a camera can follow) is
rendered through a simulated camera kind into a video and refereed through `serve --video`'s
path (companion.server.video_check), by default with nobody at the page. Per game and camera:
frames, settled tables, violations shown against those the script names (extra, missing),
whether the final state (scores, phase, turn, winner) is the script's, questions left open,
and the wall time. Runs go one at a time: rendering takes both cores of a small machine.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import click

from companion.server.video_report import PERSONS, VideoReport

DEFAULT_CAMERAS = ("overhead-webcam-1080p", "phone-holder-1080p")


@dataclass(frozen=True)
class E2ERow:
    """One game at one camera with one person at the page."""

    game: str
    script: str
    camera: str
    person: str
    report: VideoReport
    wall_s: float

    @property
    def final_right(self) -> bool:
        return not self.report.final_wrong

    def cells(self) -> list[str]:
        r = self.report
        return [self.game, self.script, self.camera, self.person, str(r.frames),
                str(r.snapshots), str(len(r.violations)), str(len(r.expected)),
                ", ".join(r.extra) or "-", ", ".join(r.missing) or "-",
                ", ".join(r.unsure) or "-",
                "right" if self.final_right else "wrong: " + "; ".join(r.final_wrong),
                f"{r.unanswered}/{r.questions}", f"{self.wall_s:.0f}"]


HEADERS = ["game", "script", "camera", "person", "frames", "settled", "shown", "named",
           "extra", "missing", "not sure (glare)", "final state", "open/asked questions", "wall s"]


def camera_followable(path: Path) -> bool:
    """True when a camera alone can follow the script: no step the camera sees needs a
    `phase` or `pass` press (`camera_steps` keeps only presses that are a rule case)."""
    from companion.referee.script import camera_steps
    from companion.sim.script import load_script

    plan = camera_steps(load_script(path).steps)
    return all(not (s.phase or s.pass_turn) for s, _ in plan if s is not None)


def bench_scripts(which: str, games: Sequence[str] = ()) -> list[Path]:
    """The bundled openings (`which` = openings) or every bundled script a camera can
    follow (`all`), of `games` (every registered game when empty)."""
    from companion.games import game_ids
    from companion.sim.script import bundled_scripts_dir

    folder = bundled_scripts_dir()
    chosen = list(games) or game_ids()
    if which == "openings":
        return [p for g in chosen if (p := folder / g / "opening.yaml").is_file()]
    return [p for g in chosen for p in sorted((folder / g).glob("*.yaml"))
            if camera_followable(p)]


def run_one(path: Path, camera: str, person: str, trace_dir: Path | None = None,
            settle_s: float | None = None) -> E2ERow:
    """Render and referee one script at one camera; write its trace to `trace_dir`."""
    from companion.server.video_check import SETTLE_S, check_video

    start = time.perf_counter()
    report = check_video(path, camera, person=person,
                         settle_s=SETTLE_S if settle_s is None else settle_s)
    row = E2ERow(path.parent.name, path.stem, camera, person, report,
                 time.perf_counter() - start)
    if trace_dir is not None:
        write_trace(row, path, trace_dir)
    return row


def write_trace(row: E2ERow, path: Path, trace_dir: Path) -> Path:
    """The run's diagnosis trace (companion.benchmarks.e2e_trace) as a text file."""
    from companion.benchmarks.e2e_trace import trace_lines
    from companion.sim.script import load_script
    from companion.sim.source import script_snapshots

    truths = script_snapshots(load_script(path))
    trace_dir.mkdir(parents=True, exist_ok=True)
    out = trace_dir / f"{row.game}--{row.script}--{row.camera}--{row.person}.txt"
    out.write_text("\n".join(trace_lines(row.report, truths)) + "\n", encoding="utf-8")
    return out


def markdown_table(rows: Iterable[E2ERow]) -> str:
    """The rows as a Markdown table (for docs/benchmarks.md)."""
    lines = ["| " + " | ".join(HEADERS) + " |", "|" + "---|" * len(HEADERS)]
    lines += ["| " + " | ".join(c.replace("|", "/") for c in row.cells()) + " |"
              for row in rows]
    return "\n".join(lines) + "\n"


def text_line(row: E2ERow) -> str:
    r = row.report
    final = "right" if row.final_right else "WRONG (" + "; ".join(r.final_wrong) + ")"
    return (f"{row.game}/{row.script} @ {row.camera}, person {row.person}: {r.frames} frames, "
            f"{r.snapshots} settled, violations {len(r.violations)} shown / "
            f"{len(r.expected)} named (extra {r.extra or '-'}, missing {r.missing or '-'}), "
            f"final {final}, questions {r.unanswered}/{r.questions} open, {row.wall_s:.0f} s")


@click.command("e2e")
@click.option("--camera", "cameras", multiple=True, default=DEFAULT_CAMERAS, show_default=True,
              help="Simulated camera kinds (repeat; e.g. overhead-webcam-720p too); `truth` "
                   "feeds the script's true tables (a perfect eye, no video).")
@click.option("--person", "persons", multiple=True, type=click.Choice(PERSONS),
              default=("none",), show_default=True,
              help="Who sits at the page (repeat for both): nobody, or the script's person.")
@click.option("--scripts", "which", type=click.Choice(("openings", "all")), default="openings",
              show_default=True,
              help="Each game's opening, or every bundled script a camera can follow.")
@click.option("--game", "games", multiple=True, help="Only these games (repeat).")
@click.option("--markdown", "markdown", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Also write the table as Markdown to this file.")
@click.option("--settle-s", type=float, default=None,
              help="Seconds the players leave the table still after each change "
                   "(default: video_check's 0.45).")
@click.option("--trace", "trace_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None, help="Write each run's diagnosis trace into this folder.")
def bench_e2e(cameras: tuple[str, ...], persons: tuple[str, ...], which: str,
              games: tuple[str, ...], markdown: Path | None, settle_s: float | None,
              trace_dir: Path | None) -> None:
    """Whole games rendered at realistic cameras and refereed as `serve --video` does."""
    from companion.server.video_check import TRUTH_CAMERA
    from companion.sim.presets import preset_names

    known = (*preset_names(), "1080p", "720p", TRUTH_CAMERA)
    unknown = [c for c in cameras if c not in known]
    if unknown:
        raise click.BadParameter(f"unknown camera {unknown}; one of {list(known)}")
    paths = bench_scripts(which, games)
    if not paths:
        raise click.ClickException("no bundled script to run")
    rows: list[E2ERow] = []
    for path in paths:
        for camera in cameras:
            for person in persons:
                row = run_one(path, camera, person, trace_dir, settle_s)
                rows.append(row)
                click.echo(text_line(row))
                if markdown is not None:  # written as it grows: a long run can be read
                    markdown.write_text(markdown_table(rows), encoding="utf-8")
    click.echo("")
    click.echo(markdown_table(rows))
    exact = sum(1 for r in rows if r.report.ok and r.final_right)
    click.echo(f"{exact} of {len(rows)} runs exact (violations and final state)")
