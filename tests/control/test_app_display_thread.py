"""The loop never waits for the panel: during a slow e-ink refresh (a fake panel that polls
its BUSY line with time.sleep, as the Waveshare driver does) the app still serves heartbeats
and button presses, and the panel then draws only the newest frame."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from PIL import Image

from bgboard.app import App
from bgboard.display.panel import FilePanel
from bgboard.display.panels import panel_spec
from bgboard.link.connection import Beat
from bgboard.rules.starts import start_position
from bgboard.sense.places import WHITE, board_of
from tests.control.fakeboard import FakeBoard, slot_states
from tests.control.test_app import FAST, GRID, _config, press, until


class SlowPanel(FilePanel):
    """A file panel whose refresh blocks its caller like a panel's BUSY line: polled every
    10 ms until the test releases it (or ``limit_s`` passes)."""

    def __init__(self, directory: Path, limit_s: float = 300.0) -> None:
        super().__init__(panel_spec("waveshare-2in9"), directory)
        self.limit_s = limit_s
        self.drawing = threading.Event()
        self.release = threading.Event()
        self.threads: set[str] = set()

    def show(self, image: Image.Image, full: bool) -> None:
        self.threads.add(threading.current_thread().name)
        self.drawing.set()
        deadline = time.monotonic() + self.limit_s
        while not self.release.is_set() and time.monotonic() < deadline:
            time.sleep(0.01)  # BUSY still high
        self.drawing.clear()
        super().show(image, full)


@pytest.mark.slow
def test_heartbeats_and_buttons_are_served_while_the_panel_refreshes(tmp_path: Path) -> None:
    async def main() -> tuple[int, SlowPanel, App]:
        board = FakeBoard(tmp_path / "bgboard", slots=GRID.count)
        board.states = slot_states(board_of(start_position(), WHITE), GRID)
        board.plug()
        board.boot()
        factory = MockFactory()
        panel = SlowPanel(tmp_path / "frames")
        # FAST's watchdog is far longer than the test (a loaded machine that holds this process
        # back for a second must not lose the board): the heartbeats served are counted instead
        app = App(_config(tmp_path), pin_factory=factory, panel=panel, timing=FAST)
        beats: list[Beat] = []
        on_link = app.board.on_link
        app.board.on_link = lambda event: (beats.append(event) if isinstance(event, Beat) else None, on_link(event))[1]
        task = asyncio.create_task(app.run())
        await until(lambda: panel.drawing.is_set())  # the first frame: the refresh has begun
        await until(lambda: app.link is not None and app.link.connection is not None and app.link.connection.in_sync)
        beats.clear()
        c = app.controller
        assert c is not None and c.state is not None and c.state.phase == "opening"
        for k in range(15):  # 15 heartbeats into a refresh that blocks its thread, each one
            board.heartbeat()  # read and handed to the app before the next is sent
            await until(lambda: len(beats) > k)
        press(factory, 5)  # white: roll, while the panel is still busy
        await until(lambda: board.rolling)
        board.roll((3, 1))
        await until(lambda: c.state.phase == "play")
        # the panel is still blocked (it draws only when released): the loop served all of
        # this while the refresh held its thread, so it never waited for the panel.  How long
        # the loop may stall is measured in benchmarks/loop_lag.py, not asserted here.
        assert panel.drawing.is_set() and not panel.frames, "all of this happened during the first refresh"
        assert c.link_up, "the board was never lost"
        served = len(beats)
        panel.release.set()
        await until(lambda: len(panel.frames) >= 2)  # the first frame, then the newest one
        app.stop()
        await asyncio.wait_for(task, 30)
        board.unplug()
        factory.reset()
        return served, panel, app

    served, panel, app = asyncio.run(main())
    assert served >= 15, f"only {served} heartbeats reached the app during the refresh"
    assert panel.threads == {"bgboard-display"}, "the panel is driven from the display thread only"
    # frames queued during the refresh were coalesced: the second frame drawn is the newest state
    assert len(panel.frames) == 2
    with Image.open(panel.frames[-1][0]) as last:
        from bgboard.display.renderer import render

        assert last.convert("1").tobytes() == render(app.shown[-1], panel.caps).tobytes()


def test_the_hint_is_computed_on_the_hint_worker_and_shown_when_it_comes(tmp_path: Path) -> None:
    from bgboard.config import config_from_dict
    from bgboard.hints.advice import play_hints
    from bgboard.hints.registry import open_engine

    config = config_from_dict({
        "board": {"port": str(tmp_path / "bgboard"), "settle_ms": 60},
        "buttons": {"bounce_ms": 0},
        "match": {"length": 1},
        "journal": {"path": str(tmp_path / "journal.db")},
        "hints": {"engine": "pubeval"},
    })

    async def main() -> tuple[object, tuple, set[str]]:
        board = FakeBoard(tmp_path / "bgboard", slots=GRID.count)
        board.states = slot_states(board_of(start_position(), WHITE), GRID)
        board.plug()
        board.boot()
        factory = MockFactory()
        app = App(config, pin_factory=factory, panel=FilePanel(panel_spec("waveshare-2in9"), tmp_path / "f"), timing=FAST)
        task = asyncio.create_task(app.run())
        await until(lambda: app.controller is not None and app.controller.observation is not None)
        threads: set[str] = set()
        engine = app.hints.engine
        rank = engine.rank
        engine.rank = lambda *a, **k: (threads.add(threading.current_thread().name), rank(*a, **k))[1]
        press(factory, 5)
        await until(lambda: board.rolling)
        board.roll((6, 1))
        await until(lambda: bool(app.shown[-1].hint))
        position = app.controller.state.position
        app.stop()
        await asyncio.wait_for(task, 30)
        board.unplug()
        factory.reset()
        return position, app.shown[-1].hint, threads

    position, hint, threads = asyncio.run(main())
    best = play_hints(open_engine("pubeval").engine, position, (6, 1), limit=1).plays[0].notation
    assert hint == (f"best: {best}",)
    assert threads and all(name.startswith("bgboard-hint") for name in threads)
