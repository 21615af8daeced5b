"""The whole companion with the real firmware: MicroPython unix port on a real pty, the real
host app (serial transport, link protocol, settler, controller, journal, gpiozero buttons on
MockFactory, file panel) - with a firmware restart and garbled bytes on the wire mid-match."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bgboard.match.actions import action_from_dict
from bgboard.match.state import replay
from bgboard.sim.live import Faults_, LiveRun
from bgboard.sim.run import Options
from bgboard.store.journal import Journal


def test_firmware_restart_and_garbled_bytes_mid_match(tmp_path: Path) -> None:
    run = LiveRun(
        Options(5, seed=3, noise=180.0, illegal_rate=0.3),  # 5 points: not over in 20 actions
        tmp_path,
        faults=Faults_(restart_at=6, garble_at=12),
        max_actions=20,
    )
    asyncio.run(run.run())
    assert run.injected == ["firmware restart after 6 actions", "garbled bytes after 12 actions"]
    assert run.pico.restarts == 1
    summary = run.summary()
    assert summary["legal_rejected"] == 0
    assert summary["plays_recognised"] >= 6
    assert summary["illegal_flagged"] == summary["illegal_attempts"]
    with Journal(tmp_path / "journal.sqlite") as j:
        actions = [action_from_dict(e.body) for e in j.entries() if e.kind == "action"]
    assert len(actions) >= 20
    assert replay(actions) == run.controller.state
    assert "Traceback" not in (tmp_path / "pico" / "firmware.log").read_text()
    assert list((tmp_path / "frames").glob("frame-*.png"))
    # the LED strip as the firmware drove it: host LEDs 0..27 after the time stamp
    lit: set[tuple[int, int, int]] = set()
    for line in (tmp_path / "pico" / "leds.log").read_text().splitlines():
        for value in line.split()[1:29]:
            rgb = (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16))
            if rgb != (0, 0, 0):
                lit.add(tuple(1 if c else 0 for c in rgb))  # type: ignore[arg-type]
    assert (0, 1, 0) in lit  # legal destinations of a lifted checker (green)
    assert (0, 0, 1) in lit  # the place it was lifted from (blue)
    if summary["illegal_attempts"]:
        assert (1, 0, 0) in lit  # the places to put right after an illegal play (red)
