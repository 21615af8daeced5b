"""The display thread (bgboard.display.painter): the loop's tick wakes it only when the
refresh policy has a frame due, and the frame due is then shown."""

from __future__ import annotations

import time
from pathlib import Path

from bgboard.display.demos import DEMOS
from bgboard.display.painter import Painter
from bgboard.display.panel import FilePanel
from bgboard.display.panels import PANELS
from bgboard.display.screen import Screen


def _until(test, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < deadline, "the display thread did not get there"
        time.sleep(0.005)


def test_the_tick_wakes_the_display_thread_only_when_a_frame_is_due(tmp_path: Path) -> None:
    now = [1_000]
    screen = Screen(FilePanel(PANELS["waveshare-2in13"], tmp_path / "frames"))
    asked: list[int] = []
    tick = screen.tick

    def counted(at_ms: int) -> int | None:
        asked.append(at_ms)
        return tick(at_ms)

    screen.tick = counted  # type: ignore[method-assign]
    painter = Painter(screen, lambda: now[0])
    try:
        painter.update(DEMOS["opening"])  # a new state wakes the thread: it waits coalesce_ms
        _until(lambda: len(asked) == 1)
        for _ in range(20):  # ticks before the frame is due: the thread is not woken
            painter.tick()
        time.sleep(0.05)
        assert len(asked) == 1 and not screen.history
        now[0] += 10_000  # the frame is due: the next tick shows it
        painter.tick()
        _until(lambda: len(screen.history) == 1)
        calls = len(asked)
        for _ in range(20):  # nothing waits any more: no wake-ups
            painter.tick()
        time.sleep(0.05)
        assert len(asked) == calls
    finally:
        painter.close(30)
