"""The firmware in real-time mode over a real pty with a FIFO field channel: the way the
board simulator (bgboard sim) runs it."""

from __future__ import annotations

import os
import select
import subprocess
import time
import tty
from pathlib import Path

from bgboard.link import messages as m
from bgboard.link.frames import Frame, FrameDecoder

from fwrun import _BOARD, FIRMWARE, MICROPYTHON, as_reported, counts, micropython_env


def read_until(fd: int, decoder: FrameDecoder, want: type, timeout: float = 60.0) -> list[m.Message]:
    got: list[m.Message] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if not ready:
            continue
        for item in decoder.feed(os.read(fd, 4096)):
            assert isinstance(item, Frame), item
            got.append(m.decode(item))
            if isinstance(got[-1], want):
                return got
    raise AssertionError(f"no {want.__name__} within {timeout} s: {got}")


def test_ping_and_a_checker_over_a_pty_in_real_time(tmp_path: Path) -> None:
    fifo = tmp_path / "field"
    os.mkfifo(fifo)
    master, slave = os.openpty()
    tty.setraw(slave)
    proc = subprocess.Popen(
        [str(MICROPYTHON), str(FIRMWARE / "main.py")],
        stdin=slave, stdout=slave, stderr=subprocess.PIPE,
        env=micropython_env(tmp_path / "flash", BGBOARD_SIM_FIELD=str(fifo)),
    )
    os.close(slave)
    field = open(fifo, "w")  # the shim opens the reading end at start
    try:
        decoder = FrameDecoder()
        boot = read_until(master, decoder, m.Snapshot)
        assert isinstance(boot[0], m.Hello)
        # 0x03 inside the frame must not interrupt the firmware (kbd_intr(-1))
        os.write(master, m.encode(m.Ping(0x03030303), 0))
        assert read_until(master, decoder, m.Pong)[-1] == m.Pong(0, 0x03030303)
        field.write(f"slot 77 {counts('black')}\n")
        field.flush()
        changes = read_until(master, decoder, m.Changes)[-1]
        black = m.slot_state(m.BLACK, 1)
        reported = as_reported([black if i == 77 else 0 for i in range(_BOARD["SLOT_COUNT"])])
        assert changes == m.Changes((m.SlotChange(reported.index(black), black),))
        os.write(master, m.encode(m.Reboot(m.REBOOT_REPL), 1))
        assert proc.wait(timeout=60) == 0
    finally:
        field.close()
        os.close(master)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()


def test_end_of_input_stops_the_firmware(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [str(MICROPYTHON), str(FIRMWARE / "main.py")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env=micropython_env(tmp_path / "flash"),
    )
    out, err = proc.communicate(m.encode(m.Ping(9), 0), timeout=60)
    assert proc.returncode == 0, err
    messages = [m.decode(f) for f in FrameDecoder().feed(out)]
    assert isinstance(messages[0], m.Hello)
    assert m.Pong(0, 9) in messages


def test_closing_the_pty_stops_the_firmware(tmp_path: Path) -> None:
    master, slave = os.openpty()
    tty.setraw(slave)
    proc = subprocess.Popen(
        [str(MICROPYTHON), str(FIRMWARE / "main.py")],
        stdin=slave, stdout=slave, stderr=subprocess.PIPE, env=micropython_env(tmp_path / "flash"),
    )
    os.close(slave)
    read_until(master, FrameDecoder(), m.Snapshot)
    os.close(master)
    assert proc.wait(timeout=60) == 0, proc.stderr.read()
    proc.stderr.close()
