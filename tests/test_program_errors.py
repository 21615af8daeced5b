"""Errors as errors.py promises (issue 33): a program error inside an optional engine call is
logged with its traceback, not as "the engine failed"; the engine's own failures stay one
sentence; the disk under bgboard's own store failing is exit 69, not a mistake of the user's."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bgboard.control.opponent_room import Question
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
