"""The hint engine the app runs on: the configured engine on a ``HintWorker`` (its thread, or a
process of its own for the compiled engines), shared by hints, the teacher, the match analysis
and the replay's grades."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bgboard.hints.worker import HintWorker


def open_hints(engine_name: str) -> tuple[HintWorker | None, str | None]:
    """A :class:`~bgboard.hints.worker.HintWorker` on the configured engine (None for
    "none") and the engine's notice (e.g. the fallback it had to take), for the display.
    Loading an engine takes a while: call it off the loop."""
    if engine_name == "none":
        return None, None
    from bgboard.hints.registry import open_engine
    from bgboard.hints.worker import HintWorker

    opened = open_engine(engine_name)
    # the compiled engines hold the GIL for a whole evaluation: they get a process of their own
    worker = HintWorker(opened.engine, separate_process=opened.engine.name in ("bgsage", "gnubg-nn"))
    worker.start()
    return worker, opened.notice
