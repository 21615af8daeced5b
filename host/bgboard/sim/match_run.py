"""``bgboard sim`` end to end: run the match and write every output file (adapter).

Outputs in the directory ``out``:

* ``journal.sqlite`` - the host's journal (every action) plus the simulator's verdict rows;
* ``match.mat`` / ``match.sgf`` - the match record (rewritten from the action log);
* ``frames/frame-NNNN-{full,partial}.png`` - every e-ink refresh through the display's file
  panel and refresh policy, ``display.gif`` - all of them;
* ``summary.json`` - the ``--json`` summary.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from bgboard.language import ENGLISH, Phrase, Words
from bgboard.display.panel import FilePanel
from bgboard.display.panels import panel_spec
from bgboard.display.screen import Screen
from bgboard.display.display_state import DisplayState
from bgboard.sim.modelled_board import Options, Simulation, SimulationError

PANEL = "waveshare-4in2"


class Progress:
    """A one-line progress bar on a terminal (nothing elsewhere)."""

    def __init__(self, enabled: bool, length: int) -> None:
        self.enabled = enabled
        self.length = length

    def update(self, state: Any) -> None:
        """Redraw the bar for the shown state (anything with a ``score`` pair)."""
        if not self.enabled:
            return
        a, b = state.score
        done = min(self.length, max(a, b))
        bar = "#" * (20 * done // max(1, self.length))
        sys.stderr.write(f"\r[{bar:<20}] score {a}-{b} ")
        sys.stderr.flush()

    def end(self) -> None:
        """Finish the line."""
        if self.enabled:
            sys.stderr.write("\n")


def run_match(options: Options, out: Path, *, progress: bool = False, realtime: bool = False,
              words: Words = ENGLISH) -> dict[str, Any]:
    """Play (or resume) the match in ``out`` and write all outputs; returns the summary
    (the display's frames in ``words``' language)."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise SimulationError(f"--out {out} is a file, not a directory")
    out.mkdir(parents=True, exist_ok=True)
    frames = out / "frames"
    start = len(list(frames.glob("*.png"))) if frames.exists() else 0
    panel = FilePanel(panel_spec(PANEL), frames)
    panel.frames = [(p, "full" in p.name) for p in sorted(frames.glob("*.png"))][:start]
    screen = Screen(panel, words=words)
    bar = Progress(progress, options.match_length)
    due: list[int | None] = [None]

    def on_show(state: DisplayState, now_ms: int) -> None:
        if due[0] is not None and now_ms >= due[0]:
            due[0] = screen.tick(now_ms)
        due[0] = screen.update(state, now_ms)
        if due[0] is not None and due[0] <= now_ms:
            due[0] = screen.tick(now_ms)
        bar.update(state)
        if realtime:
            time.sleep(0.3)

    sim = Simulation(options, out, on_show=on_show)
    try:
        sim.run()
        while due[0] is not None:  # let the last frame reach the panel
            due[0] = screen.tick(max(due[0], sim.clock))
        summary = sim.summary()
        write_records(sim, out)
        if sim.teacher is not None:  # the learner report, beside the journal
            summary |= sim.teacher.session(write_learner_report(sim, out))
    finally:
        sim.close()
        bar.end()
    write_gif([p for p, _ in panel.frames], out / "display.gif")
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    return summary


def write_learner_report(sim: Simulation, out: Path, words: Words = ENGLISH) -> Path:
    """The learner report of a ``--teach`` match, beside its journal (``OUT/learner-report.html``),
    in ``words``' language."""
    from bgboard.teaching import REPORT_NAME

    assert sim.teacher is not None
    return sim.teacher.write_report(
        out / REPORT_NAME, sim.options.players,
        Phrase("Learner report: %(length)d-point match, seed %(seed)d", length=sim.options.match_length,
               seed=sim.options.seed),
        *_learner_history(sim, out), words=words)


def _learner_history(sim: Simulation, out: Path) -> tuple[Any, Any, Any]:
    """The finished match's analysis (both players' figures, when the engine gives equities)
    and the learners' PR match by match beside the journal, the match kept in it first: the
    report's ``figures``, ``learners`` and ``histories`` (as ``bgboard run`` writes them)."""
    from bgboard.analysis.match_end import figures_for_actions
    from bgboard.config import LEARNERS
    from bgboard.teaching import learner_histories

    teacher = sim.teacher
    if teacher is None:
        raise SimulationError("a learner report needs the teacher of --teach")
    learners = LEARNERS[sim.options.learner]
    actions = tuple(sim.controller.actions)
    over = bool(getattr(sim.controller, "over", False))
    figures = figures_for_actions(actions, teacher.engine.name) if over else ()
    histories = learner_histories(out, list(teacher.lessons), sim.options.players, learners,
                                  actions if over else None, figures)
    return figures, learners, histories


def run_firmware_match(
    options: Options, out: Path, *, progress: bool = False, speed: int | None = None, lang: str = "en"
) -> dict[str, Any]:
    """Play (or resume) the match in ``out`` through the real firmware on a pty and the real
    host app (the default of ``bgboard sim``); ``speed`` K runs firmware and host time K
    times real time (1: real time, ``--realtime``); ``lang``: the display's language (the
    host's ``[display] language``)."""
    import asyncio

    from bgboard.sim.firmware_board import SPEED, LiveRun

    out = Path(out)
    bar = Progress(progress, options.match_length)
    live = LiveRun(options, out, speed=SPEED if speed is None else speed, on_turn=bar.update,
                   more_config={"display": {"language": lang}} if lang != "en" else None)
    try:
        asyncio.run(live.run())
    finally:
        bar.end()
    summary = live.summary()
    from bgboard.sim.records import write_mat, write_sgf

    write_mat(live.controller.actions, out / "match.mat")
    write_sgf(live.controller.actions, out / "match.sgf")
    write_gif([p for p, _ in live.panel.frames], out / "display.gif")
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    return summary


def write_gif(frames: list[Path], path: Path, frame_ms: int = 400) -> None:
    """All frames as one animated GIF, read one at a time (a match has hundreds of frames:
    holding them all as RGB images would cost hundreds of MB).  A frame that cannot be read
    (cut short when a run was killed while writing it) is left out."""
    from PIL import Image

    def readable() -> Any:
        for f in frames:
            try:
                with Image.open(f) as im:
                    yield im.convert("P")
            except (OSError, SyntaxError):
                continue

    images = readable()
    first = next(images, None)
    if first is None:
        return
    first.save(path, format="GIF", save_all=True, append_images=images, duration=frame_ms, loop=0)


def write_records(sim: Simulation, out: Path) -> None:
    """``match.mat`` and ``match.sgf`` from the action log."""
    from bgboard.sim.records import write_mat, write_sgf

    write_mat(sim.actions, out / "match.mat")
    write_sgf(sim.actions, out / "match.sgf")
