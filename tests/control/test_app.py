"""The whole host over a real pty, gpiozero's MockFactory, a file panel and SQLite: a match
survives unplugging, a firmware reboot and a host restart."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
from pathlib import Path
from typing import AsyncIterator

import pytest
from gpiozero.pins.mock import MockFactory

from bgboard.app import App
from bgboard.config import config_from_dict
from bgboard.control.controller import Controller
from bgboard.display.panel import FilePanel
from bgboard.display.panels import panel_spec
from bgboard.link.connection import Timing
from bgboard.link.messages import Changes, SlotChange
from bgboard.match import Move
from bgboard.rules.starts import start_position
from bgboard.sense.places import BLACK, WHITE, board_of
from bgboard.hardware import load_grid
from bgboard.sense.slots import SlotMap
from tests.control.fakeboard import FakeBoard, slot_states
from tests.support import until, wait_until

# Short timeouts keep the tests fast.  The watchdog is long: the fake board sends heartbeats
# only when a test says so, and a loaded machine that holds a test back for a second must not
# lose the board (tests/link/test_connection.py tests the watchdog itself).
FAST = Timing(hello_s=0.3, watchdog_s=30.0, snapshot_s=0.3, ack_s=0.2, tick_s=0.02)
GRID = SlotMap.from_slots(load_grid().slots)


def show(board: FakeBoard, layout: tuple[int, ...]) -> None:
    """The players move checkers: every slot that changes, one CHANGES frame each."""
    new = slot_states(layout, GRID)
    for slot, state in enumerate(new):
        if board.states[slot] != state:
            board.states[slot] = state
            board.send(Changes((SlotChange(slot, state),)))


def press(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_low()
    factory.pin(pin).drive_high()


def _config(tmp_path: Path):
    return config_from_dict(
        {
            "board": {"port": str(tmp_path / "bgboard"), "settle_ms": 60},
            "buttons": {"bounce_ms": 0},
            "match": {"length": 1},
            "journal": {"path": str(tmp_path / "journal.db")},
        }
    )


@contextlib.asynccontextmanager
async def _running(tmp_path: Path, frames: str = "f") -> AsyncIterator[tuple[FakeBoard, MockFactory, App]]:
    """The fake board at the start position, plugged in and booted, and the app running until
    it has read the board; afterwards the app stops and the board is unplugged."""
    board = FakeBoard(tmp_path / "bgboard", slots=GRID.count)
    board.states = slot_states(board_of(start_position(), WHITE), GRID)
    board.plug()
    board.boot()
    factory = MockFactory()
    app = App(_config(tmp_path), pin_factory=factory, panel=FilePanel(panel_spec("waveshare-2in9"), tmp_path / frames), timing=FAST)
    task = asyncio.create_task(app.run())
    await until(lambda: app.controller is not None and app.controller.observation is not None)
    yield board, factory, app
    app.stop()
    await asyncio.wait_for(task, 30)
    board.unplug()
    factory.reset()


@pytest.mark.slow
def test_a_match_survives_unplugging_a_reboot_and_a_host_restart(tmp_path: Path) -> None:
    async def main() -> list:
        start = board_of(start_position(), WHITE)
        async with _running(tmp_path, "frames") as (board, factory, app):
            c = app.controller
            assert c is not None and c.state is not None and c.state.phase == "opening"

            press(factory, 5)  # white: roll
            await until(lambda: board.rolling)
            board.roll((3, 1))
            await until(lambda: c.state.phase == "play")
            assert not board.rolling
            after = list(start)
            after[8 - 1] -= 1
            after[5 - 1] += 2
            after[6 - 1] -= 1
            show(board, tuple(after))  # 8/5 6/5
            await until(lambda: c.verdict is not None and "8/5 6/5" in c.message().text)
            press(factory, 5)  # done
            await until(lambda: c.state.turn == 1)

            board.unplug()  # the cable is pulled mid-game
            await until(lambda: not c.link_up)
            assert app.shown[-1].severity == "error"
            await asyncio.sleep(0.2)
            board.plug()
            board.boot()
            await until(lambda: c.link_up and app.link is not None and app.link.connection is not None and app.link.connection.in_sync)

            press(factory, 13)  # black: roll
            await until(lambda: board.rolling)
            board.boot()  # the Pico resets while black is about to roll: rolling is switched on again
            await until(lambda: board.rolling and app.link.connection.in_sync)
            board.roll((6, 4))
            await until(lambda: c.state.phase == "play")
            black = list(board_of(c.state.position, BLACK))
            black[1 - 1] += 1  # black 24/14: physical 1 -> 11
            black[11 - 1] -= 1
            show(board, tuple(black))
            await until(lambda: c.verdict is not None and "24/14" in c.message().text)
            press(factory, 13)
            await until(lambda: c.state.turn == 0)
            actions = list(c.actions)
        return actions

    actions = asyncio.run(main())
    assert [a for a in actions if isinstance(a, Move)] == [Move(((8, 5), (6, 5))), Move(((24, 18), (18, 14)))] or [
        a for a in actions if isinstance(a, Move)
    ] == [Move(((8, 5), (6, 5))), Move(((24, 20), (20, 14)))]
    from bgboard.store.journal import Journal

    with Journal(tmp_path / "journal.db") as journal:  # the host restarts: same match
        again = Controller.resume(journal, _settings(tmp_path), 0)
    assert again.actions == actions
    assert list((tmp_path / "frames").glob("*.png")), "the display showed frames"


def _settings(tmp_path: Path):
    from bgboard.modes.settings import settings_of

    return settings_of(_config(tmp_path), GRID.slots())


def test_bgboard_run_with_a_bad_config_is_one_line_and_exit_2(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[clock]\ndelay_s = "twelve"\n')
    done = subprocess.run(
        [sys.executable, "-m", "bgboard", "run", "--config", str(config)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr == "bgboard: clock.delay_s must be a number, not 'twelve'\n"


@pytest.mark.slow
def test_bgboard_run_starts_without_a_board_and_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    import signal

    config = tmp_path / "config.toml"
    config.write_text(
        f'[board]\nport = "{tmp_path / "ttyACM9"}"\n'
        '[buttons]\npin_factory = "mock"\n'
        f'[display]\nframes_dir = "{tmp_path / "frames"}"\n'
        f'[journal]\npath = "{tmp_path / "state" / "journal.db"}"\n'
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "bgboard", "run", "--config", str(config)], stderr=subprocess.PIPE, text=True
    )
    try:
        # the display shows the unplugged board (at once; 60 s against a loaded machine)
        wait_until(lambda: list((tmp_path / "frames").glob("*.png")), 60, "a frame on the display", poll=0.1)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.stderr is not None
    text = proc.stderr.read()
    assert "Traceback" not in text and "WARNING" not in text and "ERROR" not in text, text  # only its INFO log
    from bgboard.store.journal import Journal

    with Journal(tmp_path / "state" / "journal.db") as journal:
        assert [e.body["type"] for e in journal.entries()] == ["start"]


@pytest.mark.slow
def test_a_flickering_sensor_is_named_on_the_display(tmp_path: Path) -> None:
    from bgboard.link.messages import slot_state

    async def main() -> list:
        async with _running(tmp_path) as (board, factory, app):
            slot = GRID.places[7 - 1][0]  # point 7's first slot, empty at the start, flickers
            for i in range(12):
                board.change(slot, slot_state(1, 1) if i % 2 == 0 else 0)
                await asyncio.sleep(0.03)
            await until(lambda: any("check point 7" in " ".join(s.message) for s in app.shown))
        return app.shown

    shown = asyncio.run(main())
    faults = [s for s in shown if s.message and s.message[0] == "check point 7: its sensor keeps changing"]
    assert faults and faults[0].severity == "error"
    assert all(a != b for a, b in zip(shown, shown[1:])), "a display state is drawn only when it changes"


@pytest.mark.slow
def test_the_dice_setting_is_restored_when_a_heartbeat_disagrees(tmp_path: Path) -> None:
    async def main() -> None:
        async with _running(tmp_path) as (board, factory, app):
            press(factory, 5)  # white: roll -> the dice button is switched on
            await until(lambda: board.rolling)
            board.rolling = False  # the Pico forgot (a lost command, a brown-out)
            board.heartbeat()
            await until(lambda: board.rolling)

    asyncio.run(main())
