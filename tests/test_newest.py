"""bgboard.newest: the one newest-only worker thread of the display and the records."""

from __future__ import annotations

import logging
import threading

import pytest

from bgboard.newest import NewestOnly


def test_while_the_thread_is_busy_only_the_newest_item_waits_and_a_merge_combines() -> None:
    started, release = threading.Event(), threading.Event()
    seen: list[tuple[int, bool] | None] = []

    def work(item: tuple[int, bool] | None) -> None:
        seen.append(item)
        if item is not None and item[0] == 1:
            started.set()
            release.wait(5)

    worker: NewestOnly[tuple[int, bool]] = NewestOnly(
        "test-newest", work, lambda waiting, new: (new[0], waiting[1] or new[1]))
    worker.hand((1, False))
    assert started.wait(5)
    worker.hand((2, True))   # waits, then is merged with ...
    worker.hand((3, False))  # ... this newer one: 3, with the full refresh 2 asked for
    release.set()
    worker.close(5)
    assert seen == [(1, False), (3, True)]


def test_a_fault_in_the_work_is_logged_and_the_thread_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    done: list[int] = []

    def work(item: int | None) -> None:
        if item == 1:
            raise ValueError("a programming error")
        if item is not None:
            done.append(item)

    worker: NewestOnly[int] = NewestOnly("test-faulty", work)
    with caplog.at_level(logging.ERROR, logger="bgboard.newest"):
        worker.hand(1)
        # wait until the fault was logged before handing the next item, so neither replaces the other
        for _ in range(500):
            if caplog.records:
                break
            threading.Event().wait(0.01)
        worker.hand(2)
        worker.close(5)
    assert done == [2]
    assert "test-faulty thread failed" in caplog.text


def test_wake_calls_the_work_with_none() -> None:
    seen: list[int | None] = []
    woken = threading.Event()

    def work(item: int | None) -> None:
        seen.append(item)
        woken.set()

    worker: NewestOnly[int] = NewestOnly("test-wake", work)
    worker.wake()
    assert woken.wait(5)
    worker.close(5)
    assert seen[0] is None
