"""match.mat and match.sgf beside the journal are written on the records thread, never on
the loop (two fsyncs and renames per action), and a record that cannot be written stops the
match with one sentence, as a journal that cannot be written does."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from gpiozero.pins.mock import MockFactory

from bgboard.app import App
from bgboard.control.controller import Controller
from bgboard.display.panel import FilePanel
from bgboard.display.panels import panel_spec
from bgboard.match import recordfile
from bgboard.match.mat import export_mat
from bgboard.match.sgf import export_sgf
from bgboard.rules.starts import start_position
from bgboard.sense.places import WHITE, board_of
from bgboard.store.journal import Journal
from tests.control.fakeboard import FakeBoard, slot_states
from tests.control.test_app import FAST, GRID, _config, _running, _settings, press, until


@pytest.mark.slow
def test_the_records_are_written_off_the_loop_and_end_with_the_last_action(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = recordfile.write_records
    threads: list[str] = []

    def spy(actions, directory, info=None, replayed=None):
        threads.append(threading.current_thread().name)
        return real(actions, directory, info, replayed)

    monkeypatch.setattr(recordfile, "write_records", spy)

    async def main() -> tuple[int, str]:
        async with _running(tmp_path) as (board, factory, app):
            c = app.controller
            press(factory, 5)  # white rolls the opening roll
            await until(lambda: board.rolling)
            board.roll((3, 1))
            await until(lambda: c.state.phase == "play")
            loop_thread = threading.current_thread().name
            count = len(c.actions)
        return count, loop_thread

    count, loop_thread = asyncio.run(main())
    assert count >= 1 and threads, "the records were written"
    assert set(threads) == {"bgboard-records"} and loop_thread not in threads
    with Journal(tmp_path / "journal.db") as journal:
        actions = Controller.resume(journal, _settings(tmp_path), 0).actions
    assert len(actions) == count
    assert (tmp_path / "match.mat").read_text() == export_mat(actions)  # the last action is in the record
    assert (tmp_path / "match.sgf").read_text() == export_sgf(actions)


def test_a_record_that_cannot_be_written_stops_the_match_with_one_sentence(tmp_path: Path) -> None:
    (tmp_path / "match.mat").mkdir()  # the record cannot replace a directory

    async def main() -> App:
        board = FakeBoard(tmp_path / "bgboard", slots=GRID.count)
        board.states = slot_states(board_of(start_position(), WHITE), GRID)
        board.plug()
        board.boot()
        factory = MockFactory()
        app = App(_config(tmp_path), pin_factory=factory, panel=FilePanel(panel_spec("waveshare-2in9"), tmp_path / "f"),
                  timing=FAST)
        task = asyncio.create_task(app.run())
        try:
            await until(lambda: task.done() or (app.controller is not None and app.controller.observation is not None))
            if not task.done():
                press(factory, 5)  # white rolls: the opening roll is an action to record
                await until(lambda: board.rolling or task.done())
                if not task.done():
                    board.roll((3, 1))
            with pytest.raises(recordfile.RecordFileError) as stopped:
                await asyncio.wait_for(task, 30)
        finally:
            board.unplug()
            factory.reset()
        message = str(stopped.value)
        assert message.startswith(f"cannot write the match record {tmp_path / 'match.mat'}") and "\n" not in message
        return app

    app = asyncio.run(main())
    assert isinstance(app.failure, recordfile.RecordFileError)
    with Journal(tmp_path / "journal.db") as journal:  # the journal kept the match: export rebuilds the record
        assert Controller.resume(journal, _settings(tmp_path), 0).actions
