"""kill -9 at random moments: the match resumes from the journal and ends exactly as an
uninterrupted run does (the real controller, match machine, rules and SQLite journal)."""

from __future__ import annotations

import os
import random
import signal
import time
from pathlib import Path

import pytest

from bgboard.control.clock import ClockRules
from bgboard.control.controller import Controller, Settings
from bgboard.store.journal import Journal, MemoryJournal
from tests.control.scripted import play_out

SETTINGS = Settings(length=3, clock=ClockRules(per_point_ms=10**9))


def _host(path: Path, seed: int) -> None:
    """The host process: resume from the journal and play on until the match is over."""
    code = 1
    try:
        with Journal(path) as journal:
            controller = Controller.resume(journal, SETTINGS, 0)
            play_out(controller, seed)
        code = 0
    finally:
        os._exit(code)


def crash_run(path: Path, seed: int, kills: int, rng: random.Random, max_delay: float) -> int:
    """Run the match in child processes, killing ``kills`` of them with SIGKILL after a random
    delay; returns how many kills landed while the host was still playing."""
    landed = 0
    while True:
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child never returns
            _host(path, seed)
        if landed < kills:
            time.sleep(rng.uniform(0, max_delay))
            done, status = os.waitpid(pid, os.WNOHANG)
            if done == 0:
                os.kill(pid, signal.SIGKILL)
                _, status = os.waitpid(pid, 0)
                if os.WIFSIGNALED(status):
                    assert os.WTERMSIG(status) == signal.SIGKILL
                    landed += 1
                    continue
                # the host finished between the poll and the kill: judge its exit below
        else:
            _, status = os.waitpid(pid, 0)
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, "the host failed to resume"
        return landed


@pytest.mark.slow
def test_kill_9_at_200_random_moments_changes_nothing(tmp_path: Path) -> None:
    rng = random.Random(2026)
    total = 0
    seed = 0
    while total < 200:
        seed += 1
        # a safety bound, not the measure: a faster machine finishes more runs before the kill
        # lands, so it needs more matches to reach 200 kills (about 20 a match here)
        assert seed <= 40, f"only {total} kills landed"
        reference = Controller.resume(MemoryJournal(), SETTINGS, 0)
        play_out(reference, seed)
        path = tmp_path / f"match{seed}.db"
        total += crash_run(path, seed, kills=60, rng=rng, max_delay=0.04)
        with Journal(path) as journal:
            resumed = Controller.resume(journal, SETTINGS, 0)
        assert resumed.over
        assert resumed.actions == reference.actions
        assert resumed.state == reference.state
        assert resumed.state is not None and resumed.state.score == reference.state.score
