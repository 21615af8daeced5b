"""``bgboard run --replay``: the whole host (real pty, gpiozero's MockFactory, a file panel)
steps through a match file: the set-up guidance until the board shows the stop's position,
then the play's LEDs and the stop's display; roll goes forward, double back."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from bgboard.app import App
from bgboard.control.replay_room import replay_steps
from bgboard.display.panel import FilePanel
from bgboard.display.panels import panel_spec
from bgboard.link.messages import SetLeds
from bgboard.match import import_mat
from bgboard.rules.starts import start_position
from bgboard.sense.places import WHITE, board_of
from tests.control.fakeboard import FakeBoard, slot_states
from tests.control.test_app import FAST, GRID, _config, press, show, until

FILE = Path(__file__).parents[1] / "data" / "match" / "world" / "hand_notation.mat"
WHITE_ROLL, WHITE_DOUBLE = 5, 6


@pytest.mark.slow
def test_run_replay_guides_the_set_up_then_lights_each_play(tmp_path: Path) -> None:
    match = import_mat(FILE.read_bytes())
    steps = replay_steps(match)

    async def scenario() -> None:
        board = FakeBoard(tmp_path / "bgboard", slots=GRID.count)
        board.states = slot_states(board_of(start_position(), WHITE), GRID)
        board.plug()
        board.boot()
        factory = MockFactory()
        app = App(_config(tmp_path), pin_factory=factory, panel=FilePanel(panel_spec("waveshare-4in2"), tmp_path / "f"),
                  timing=FAST, replay=match)
        task = asyncio.create_task(app.run())
        try:
            # stop 1 is the start position: the board shows it, so the play is lit at once
            await until(lambda: bool(app.shown) and app.shown[-1] == steps[0].display)
            await until(lambda: board.leds == steps[0].leds)
            assert board.leds  # 61: 13/6 lights 13 blue and 6 green
            press(factory, WHITE_ROLL)  # forward: the board still shows the start
            await until(lambda: bool(app.shown) and "set up the board" in " ".join(app.shown[-1].message))
            assert app.shown[-1].phase == "setup" and app.shown[-1].diagram is not None
            # the lights go out too: a message over the pty, which may land after the display's update
            await until(lambda: [m for m in board.received if isinstance(m, SetLeds)][-1].leds == ())
            show(board, board_of(steps[1].position, WHITE))  # the player follows the guidance
            await until(lambda: app.shown[-1] == steps[1].display and board.leds == steps[1].leds)
            press(factory, WHITE_DOUBLE)  # back: lay out the start again
            await until(lambda: "set up the board" in " ".join(app.shown[-1].message))
            show(board, board_of(steps[0].position, WHITE))
            await until(lambda: app.shown[-1] == steps[0].display)
            assert app.controller is not None and app.controller.actions == []
        finally:
            app.stop()
            await asyncio.wait_for(task, 30)
            board.unplug()

    asyncio.run(scenario())
    assert not (tmp_path / "match.mat").exists()  # a replay records nothing


@pytest.mark.slow
def test_run_replay_with_a_hint_engine_shows_the_grade_of_each_play(tmp_path: Path) -> None:
    from bgboard.config import config_from_dict

    match = import_mat(FILE.read_bytes())
    config = config_from_dict({
        "board": {"port": str(tmp_path / "bgboard"), "settle_ms": 60},
        "buttons": {"bounce_ms": 0},
        "hints": {"engine": "pubeval"},
        "journal": {"path": str(tmp_path / "journal.db")},
    })

    async def scenario() -> list[str]:
        board = FakeBoard(tmp_path / "bgboard", slots=GRID.count)
        board.states = slot_states(board_of(start_position(), WHITE), GRID)
        board.plug()
        board.boot()
        app = App(config, pin_factory=MockFactory(), panel=FilePanel(panel_spec("waveshare-4in2"), tmp_path / "f"),
                  timing=FAST, replay=match)
        task = asyncio.create_task(app.run())
        try:
            await until(lambda: bool(app.shown) and app.shown[-1].phase != "setup", timeout=20)
            return list(app.shown[-1].message)
        finally:
            app.stop()
            await asyncio.wait_for(task, 30)
            board.unplug()

    message = asyncio.run(scenario())
    # Ann's opening 61 (13/6 in the file) graded by pubeval, which ranks but does not measure
    assert message[0].startswith("Game 1, 1: Ann 61: 13/6 - ")
    assert "engine" in message[0]
