"""Errors as errors.py promises (issue 33): a program error inside an optional engine call is
logged with its traceback, not as "the engine failed"; the engine's own failures stay one
sentence; the disk under bgboard's own store failing is exit 69, not a mistake of the user's."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bgboard.control.decisions import Question
from bgboard.hints.hint_engine import EngineUnavailableError
from bgboard.hints.levels import level_of, make_engine
from bgboard.match import replay
from bgboard.match.actions import StartMatch
from bgboard.sense.places import BLACK


def _answer_with(monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, fault: Exception) -> list:
    """The engine opponent on a real worker whose decision raises ``fault``; what it posted."""
    import bgboard.opponents as opponents
    from bgboard.hints.worker import HintWorker

    def broken(*args: object, **kwargs: object) -> object:
        raise fault

    monkeypatch.setattr(opponents, "decide_cached", broken)
    state = replay([StartMatch(3)])

    async def main() -> list:
        posted: list = []
        with HintWorker(make_engine("pubeval"), separate_process=False) as worker:
            opponent = opponents.EngineOpponent(level_of("pubeval"), BLACK, worker=worker, post=posted.append,
                                                clock=lambda: 7)
            assert opponent.ask(Question("cube", BLACK, state, ("key",))) is None
            while not posted:
                await asyncio.sleep(0.001)
        return posted

    with caplog.at_level(logging.WARNING, logger="bgboard.opponents"):
        return asyncio.run(main())


def test_a_program_error_in_the_engine_call_is_logged_with_its_traceback(monkeypatch, caplog) -> None:
    posted = _answer_with(monkeypatch, caplog, TypeError("decide() got an unexpected keyword argument 'x'"))
    assert len(posted) == 1  # the match goes on: the first legal choice
    [record] = [r for r in caplog.records if r.name == "bgboard.opponents"]
    assert record.levelno == logging.ERROR and record.exc_info is not None
    assert record.exc_info[0] is TypeError
    assert "opponent failed (" not in record.getMessage()  # not the engine's failure sentence


def test_an_engine_failure_is_one_sentence_without_a_traceback(monkeypatch, caplog) -> None:
    posted = _answer_with(monkeypatch, caplog, EngineUnavailableError("gnubg-nn is not installed"))
    assert len(posted) == 1
    [record] = [r for r in caplog.records if r.name == "bgboard.opponents"]
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert "failed ('gnubg-nn is not installed')" in record.getMessage()


def _run_with_journal(tmp_path, journal: str):
    import subprocess
    import sys
    from pathlib import Path

    config = tmp_path / "config.toml"
    config.write_text(f'[journal]\npath = "{journal}"\n')
    bgboard = Path(sys.executable).with_name("bgboard")
    return subprocess.run([str(bgboard), "run", "--config", str(config), "-q"], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)


def test_a_journal_on_a_full_disk_is_the_machine_exit_69(tmp_path) -> None:
    # /dev/full: every write is "no space left on device", SQLite's SQLITE_FULL
    done = _run_with_journal(tmp_path, "/dev/full")
    assert done.returncode == 69, done.stderr
    assert "Traceback" not in done.stderr
    [line] = [x for x in done.stderr.splitlines() if x.startswith("bgboard: ")]
    assert "the journal /dev/full cannot be written" in line and "free space" in line


def test_a_journal_where_no_file_can_be_made_is_the_machine_exit_69(tmp_path) -> None:
    # /proc takes no new file, whoever asks (root too): a place that cannot be written
    done = _run_with_journal(tmp_path, "/proc/bgboard-journal.db")
    assert done.returncode == 69, done.stderr
    assert "Traceback" not in done.stderr and "cannot be written" in done.stderr


def test_a_file_that_is_not_a_journal_is_still_bad_input_exit_2(tmp_path) -> None:
    other = tmp_path / "notes.txt"
    other.write_text("not a database, but plenty of text to be sure of it\n" * 40)
    done = _run_with_journal(tmp_path, str(other))
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "cannot be used as a journal" in done.stderr



def _paint_with_clock(tmp_path, caplog, fault: Exception) -> tuple[list, str | None]:
    """The display thread painting a demo on a file panel, its clock raising ``fault``."""
    from bgboard.display.demos import DEMOS
    from bgboard.display.painter import Painter
    from bgboard.display.panel import FilePanel
    from bgboard.display.panels import PANELS
    from bgboard.display.screen import Screen

    def clock_ms() -> int:
        raise fault

    painter = Painter(Screen(FilePanel(PANELS["waveshare-2in13"], tmp_path / "frames")), clock_ms)
    with caplog.at_level(logging.ERROR, logger="bgboard.display.painter"):
        painter.update(DEMOS["opening"], full=True)
        painter.close(30)
    return [r for r in caplog.records if r.name == "bgboard.display.painter"], painter.error


def test_a_program_error_on_the_display_thread_is_logged_with_its_traceback(tmp_path, caplog) -> None:
    records, error = _paint_with_clock(tmp_path, caplog, TypeError("unsupported operand"))
    [record] = records
    assert record.exc_info is not None and record.exc_info[0] is TypeError
    assert error == "the display failed (TypeError)"  # the match is told, never stopped


def test_a_panel_failure_on_the_display_thread_stays_one_sentence(tmp_path, caplog) -> None:
    records, error = _paint_with_clock(tmp_path, caplog, OSError(5, "Input/output error"))
    [record] = records
    assert record.exc_info is None and "the display failed" in record.getMessage()
    assert error is not None and "Input/output error" in error
