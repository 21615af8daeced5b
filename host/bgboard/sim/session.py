"""``bgboard sim`` end to end: run the match and write every output file (adapter).

Outputs in the directory ``out``:

* ``journal.sqlite`` - every action and verdict (written as the match goes);
* ``match.mat`` / ``match.sgf`` - the match record (rewritten from the journal at the end);
* ``frames/NNNN.png`` - each distinct display frame, ``display.gif`` - all of them;
* ``summary.json`` - the ``--json`` summary.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from bgboard.display.panels import panel_spec
from bgboard.display.render import render
from bgboard.display.state import DisplayState
from bgboard.match.actions import Action
from bgboard.match.state import MatchState
from bgboard.sim.run import Options, Simulation
from bgboard.sim.screen import display_state

PANEL = "waveshare-4in2"


class Frames:
    """Renders each distinct display state once, numbered in order."""

    def __init__(self, out: Path, panel: str = PANEL) -> None:
        self.dir = out / "frames"
        self.dir.mkdir(parents=True, exist_ok=True)
        self.panel = panel_spec(panel)
        self.last: DisplayState | None = None
        self.count = len(list(self.dir.glob("*.png")))

    def show(self, state: DisplayState) -> None:
        """Draw ``state`` unless it is what the display already shows."""
        if state == self.last:
            return
        self.last = state
        image = render(state, self.panel)
        image.save(self.dir / f"{self.count:04d}.png")
        self.count += 1

    def gif(self, path: Path, limit: int = 400) -> None:
        """All frames (at most the last ``limit``) as an animated GIF."""
        from PIL import Image

        files = sorted(self.dir.glob("*.png"))[-limit:]
        if not files:
            return
        images = [Image.open(f).convert("P") for f in files]
        images[0].save(path, save_all=True, append_images=images[1:], duration=400, loop=0)


class Progress:
    """A one-line progress bar on a terminal (nothing elsewhere)."""

    def __init__(self, enabled: bool, length: int) -> None:
        self.enabled = enabled
        self.length = length

    def update(self, state: MatchState) -> None:
        if not self.enabled:
            return
        a, b = state.score
        done = min(self.length, max(a, b))
        bar = "#" * (20 * done // max(1, self.length))
        sys.stderr.write(f"\r[{bar:<20}] game {state.game} score {a}-{b} ")
        sys.stderr.flush()

    def end(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")


def run_match(options: Options, out: Path, *, progress: bool = False, realtime: bool = False) -> dict[str, Any]:
    """Play (or resume) the match in ``out`` and write all outputs; returns the summary."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    frames = Frames(out)
    bar = Progress(progress, options.match_length)

    def on_action(state: MatchState, action: Action) -> None:
        frames.show(display_state(state))
        bar.update(state)
        if realtime:
            time.sleep(0.3)

    sim = Simulation(options, out, on_action=on_action)
    try:
        sim.run()
        summary = sim.summary()
        write_records(sim, out)
    finally:
        sim.close()
        bar.end()
    frames.gif(out / "display.gif")
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    return summary


def write_records(sim: Simulation, out: Path) -> None:
    """``match.mat`` and ``match.sgf`` from the action log."""
    from bgboard.sim.records import write_mat, write_sgf

    write_mat(sim.actions, out / "match.mat")
    write_sgf(sim.actions, out / "match.sgf")
