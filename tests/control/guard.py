"""An autouse fixture that fails any test leaving asyncio tasks or timers behind.

``asyncio.run`` cancels whatever is still pending when the main coroutine returns, which
hides leaks; the fixture looks at the loop just before that clean-up.
"""

from __future__ import annotations

import asyncio
import asyncio.runners
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def no_leftover_tasks(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Fail the test if a task or a timer is still pending when its asyncio.run ends."""
    left: list[str] = []
    original = asyncio.runners._cancel_all_tasks  # type: ignore[attr-defined]

    def check(loop: asyncio.AbstractEventLoop) -> None:
        left.extend(repr(t) for t in asyncio.all_tasks(loop) if not t.done())
        scheduled = getattr(loop, "_scheduled", [])
        left.extend(repr(h) for h in scheduled if not h.cancelled())
        original(loop)

    monkeypatch.setattr(asyncio.runners, "_cancel_all_tasks", check)
    yield
    assert not left, f"asyncio tasks or timers left behind: {left}"
