"""The shim's simulator hooks under the real MicroPython unix port: ``dice D1 D2`` (the
next roll, through the firmware's own whitening, rejection sampler, numbering and roll log)
and the fast clock ``BGBOARD_SIM_CLOCK=fast:K`` (firmware time runs K times real time)."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from bgboard.link import messages as m
from bgboard.link.codec import Frame, FrameDecoder

from fwrun import FIRMWARE, MICROPYTHON, host, micropython_env


def test_dice_lines_choose_the_next_rolls_numbered_and_logged(run_firmware, tmp_path: Path) -> None:
    flash = tmp_path / "flash"
    run = run_firmware([
        host(m.SetRolling(True), 0),
        "dice 6 1", "@100", "button down", "@200", "button up",
        "dice 3 3", "dice 2 5",                 # the later line replaces the earlier one
        "@300", "button down", "@400", "button up",
        "@500", "button down", "@600", "button up",  # no line: the ROSC decides
        "dice 7 1", "dice 0 2", "dice 4",             # not dice: refused, one line each
        "@1200", "stop",
    ], flash=flash)
    rolls = run.of(m.Roll)
    assert [(r.number, r.dice) for r in rolls[:2]] == [(1, (6, 1)), (2, (2, 5))]
    assert rolls[2].number == 3 and all(1 <= d <= 6 for d in rolls[2].dice)
    log = (flash / "rolls.log").read_text().splitlines()
    assert [tuple(map(int, line.split()[:3])) for line in log] == [(r.number, *r.dice) for r in rolls]
    assert run.stderr.count("sim: ignored field line") == 3, run.stderr
    # the numbering continues after a power cycle, and a forced roll is still numbered
    again = run_firmware([host(m.SetRolling(True), 0), "dice 4 4", "@100", "button down", "@200", "stop"], flash=flash)
    assert [(r.number, r.dice) for r in again.of(m.Roll)] == [(4, (4, 4))]


def test_every_pair_of_faces_can_be_forced(tmp_path: Path) -> None:
    """All 36 rolls through the real Hal.random_bits and dice.die."""
    script = tmp_path / "all.py"
    script.write_text(
        "import machine\n"
        "from hal import Hal\n"
        "from dice import die\n"
        "hal = Hal()\n"
        "out = []\n"
        "for a in range(1, 7):\n"
        "    for b in range(1, 7):\n"
        "        machine.SIM.apply('dice %d %d' % (a, b))\n"
        "        out.append('%d%d' % (die(hal.random_bits), die(hal.random_bits)))\n"
        "print(' '.join(out))\n"
    )
    proc = subprocess.run([str(MICROPYTHON), str(script)], capture_output=True, text=True, timeout=60,
                          env=micropython_env(tmp_path / "flash", BGBOARD_SIM_CLOCK="virtual"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == [f"{a}{b}" for a in range(1, 7) for b in range(1, 7)]


def _heartbeats(clock: str, tmp_path: Path, seconds: float) -> list[int]:
    """Uptimes of the heartbeats the firmware sends in ``seconds`` of real time, with stdin
    on a pipe (the host can still talk in fast mode)."""
    proc = subprocess.Popen(
        [str(MICROPYTHON), str(FIRMWARE / "main.py")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=micropython_env(tmp_path / f"flash-{clock}", BGBOARD_SIM_CLOCK=clock),
    )
    assert proc.stdin is not None and proc.stdout is not None
    os.set_blocking(proc.stdout.fileno(), False)
    decoder = FrameDecoder()
    got: list[m.Message] = []
    ping_sent = False
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        data = proc.stdout.read() or b""
        got += [m.decode(f) for f in decoder.feed(data) if isinstance(f, Frame)]
        if not ping_sent and any(isinstance(x, m.Snapshot) for x in got):
            proc.stdin.write(m.encode(m.Ping(1234), 0))
            proc.stdin.flush()
            ping_sent = True
        time.sleep(0.02)
    proc.stdin.close()  # end of file on the serial port stops the firmware
    assert proc.wait(10) == 0, proc.stderr.read() if proc.stderr else ""
    assert any(isinstance(x, m.Pong) and x.nonce == 1234 for x in got), got
    return [x.uptime_ms for x in got if isinstance(x, m.Heartbeat)]


@pytest.mark.slow
def test_fast_clock_runs_firmware_time_k_times_real_time_and_still_reads_the_host(tmp_path: Path) -> None:
    fast = _heartbeats("fast:8", tmp_path, 1.5)
    # 1 s heartbeats of firmware time: 8 per real second at K = 8 (a loaded machine may lose
    # some real time to scheduling, never firmware time to the clock)
    assert len(fast) >= 6, fast
    assert all(b > a for a, b in zip(fast, fast[1:]))
    assert fast[-1] >= 6000
    real = _heartbeats("real", tmp_path, 1.5)
    assert len(real) <= 2, real
