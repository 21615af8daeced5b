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
from bgboard.link.frames import Frame, FrameDecoder

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


class _Firmware:
    """The firmware under MicroPython with ``clock``, stdin on a pipe (the host can still talk
    in fast mode): the frames it has sent so far, a PING answered once it has booted."""

    def __init__(self, clock: str, tmp_path: Path) -> None:
        self.proc = subprocess.Popen(
            [str(MICROPYTHON), str(FIRMWARE / "main.py")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=micropython_env(tmp_path / f"flash-{clock}", BGBOARD_SIM_CLOCK=clock),
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        os.set_blocking(self.proc.stdout.fileno(), False)
        self.decoder = FrameDecoder()
        self.got: list[m.Message] = []
        self.ping_sent = False

    def read(self) -> None:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        data = self.proc.stdout.read() or b""
        self.got += [m.decode(f) for f in self.decoder.feed(data) if isinstance(f, Frame)]
        if not self.ping_sent and any(isinstance(x, m.Snapshot) for x in self.got):
            self.proc.stdin.write(m.encode(m.Ping(1234), 0))
            self.proc.stdin.flush()
            self.ping_sent = True

    def ponged(self) -> bool:
        return any(isinstance(x, m.Pong) and x.nonce == 1234 for x in self.got)

    def beats(self) -> list[int]:
        """The uptimes (firmware time, ms) of the heartbeats so far."""
        return [x.uptime_ms for x in self.got if isinstance(x, m.Heartbeat)]

    def stop(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()  # end of file on the serial port stops the firmware
        assert self.proc.wait(30) == 0, self.proc.stderr.read() if self.proc.stderr else ""
        for pipe in (self.proc.stdout, self.proc.stderr):
            if pipe is not None:
                pipe.close()


@pytest.mark.slow
def test_fast_clock_runs_firmware_time_k_times_real_time_and_still_reads_the_host(tmp_path: Path) -> None:
    """A fast:8 firmware and a real-clock one run side by side, in the same real time, until
    the fast one has lived 16 s of firmware time (about 2 s of real time): the real one has
    lived only about 2 s by then.  No wall-clock bound: a loaded machine slows both alike
    (both clocks follow the machine's clock, so it loses real time, never firmware time)."""
    fast, real = _Firmware("fast:8", tmp_path), _Firmware("real", tmp_path)
    try:
        deadline = time.monotonic() + 120  # against a hang only
        while not (fast.ponged() and real.ponged() and fast.beats() and fast.beats()[-1] >= 16_000):
            assert time.monotonic() < deadline, (fast.got, real.got)
            fast.read()
            real.read()
            time.sleep(0.02)
        real_beats = real.beats()   # when the fast one has lived 16 s
    finally:
        fast.stop()
        real.stop()
    beats = fast.beats()
    assert len(beats) >= 6 and all(b > a for a, b in zip(beats, beats[1:])), beats  # 1 s heartbeats of its time
    # 16 s at 8x is 2 s of real time: the real clock's firmware is far behind (8 s: 4x margin
    # for the two processes' different start-up)
    assert not real_beats or real_beats[-1] <= 8_000, (real_beats, beats)
