"""The journal on a full disk: the match stops with one sentence and nothing already
journalled is lost (every action is written before it takes effect)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bgboard.app import App
from bgboard.control.controller import Controller
from bgboard.display.panel import FilePanel
from bgboard.display.panels import panel_spec
from bgboard.rules.starts import start_position
from bgboard.sense.places import WHITE, board_of
from bgboard.store.journal import Journal, JournalWriteError
from tests.control.fakeboard import FakeBoard, slot_states
from tests.control.test_app import FAST, GRID, _config, _settings, press, until


def _fill(journal: Journal) -> None:
    """The disk is full from now on: the file may not grow by a page (SQLite then answers
    SQLITE_FULL, "database or disk is full", as on a full disk), and its free room is used up."""
    db = journal._db
    assert db is not None
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count = {pages}")
    for size in (1000, 100, 10, 1):  # rows of a kind the match ignores fill the last page
        try:
            while True:
                db.execute("INSERT INTO journal (kind, body, at_ms) VALUES ('filler', ?, 0)", (f'"{"x" * size}"',))
        except sqlite3.OperationalError as exc:
            assert "full" in str(exc)


@pytest.mark.slow
def test_a_full_journal_stops_the_match_with_a_sentence_and_keeps_what_was_written(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.db")
    seen: list[list[str]] = []

    async def main() -> App:
        board = FakeBoard(tmp_path / "bgboard", slots=GRID.count)
        board.states = slot_states(board_of(start_position(), WHITE), GRID)
        board.plug()
        board.boot()
        from gpiozero.pins.mock import MockFactory

        factory = MockFactory()
        app = App(_config(tmp_path), pin_factory=factory, panel=FilePanel(panel_spec("waveshare-2in9"), tmp_path / "f"),
                  journal=journal, timing=FAST)
        task = asyncio.create_task(app.run())
        await until(lambda: app.controller is not None and app.controller.observation is not None)
        seen.append([e.kind for e in journal.entries()])
        _fill(journal)
        press(factory, 5)  # white rolls: the opening roll cannot be journalled
        await until(lambda: board.rolling or task.done())
        if not task.done():
            board.roll((3, 1))
        with pytest.raises(JournalWriteError) as stopped:
            await asyncio.wait_for(task, 30)
        board.unplug()
        factory.reset()
        assert "cannot be written (database or disk is full): free space on its disk and start bgboard again" in str(stopped.value)
        return app

    app = asyncio.run(main())
    assert app.failure is not None
    kept = [e.kind for e in journal.entries()]
    assert kept[: len(seen[0])] == seen[0], "everything journalled before the disk filled is still there"
    journal.close()
    with Journal(tmp_path / "journal.db") as again:  # the next start resumes where it stopped
        resumed = Controller.resume(again, _settings(tmp_path), 0)
        assert resumed.state is not None and len(resumed.actions) == len([k for k in kept if k == "action"])
