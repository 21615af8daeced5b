"""``bgboard firmware deploy``: argument handling, the plan, and the stop frame against the
real firmware over a pty (mpremote itself needs a Pico and is not run here)."""

from __future__ import annotations

import os
import select
import subprocess
import threading
import time
import tty
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bgboard.cli import main
from bgboard.commands.firmware import firmware_files, mpremote_command, stop_firmware
from bgboard.errors import EXIT_ENVIRONMENT, EXIT_INPUT

from fwrun import FIRMWARE, MICROPYTHON, micropython_env


def test_dry_run_prints_the_stop_and_the_mpremote_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["firmware", "deploy", "--port", "/dev/ttyACM0", "--dry-run"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "send REBOOT (mode 1: stop to the REPL) to /dev/ttyACM0"
    words = out[1].split()
    assert words[:4] == ["mpremote", "connect", "/dev/ttyACM0", "cp"]
    assert words[-3:] == [":", "+", "reset"]
    copied = [Path(w).name for w in words[4:-3]]
    assert copied[-1] == "main.py"
    assert set(copied) == {p.name for p in FIRMWARE.glob("*.py")}
    assert "machine.py" not in copied  # the unix-port shim stays home


def test_missing_port_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["firmware", "deploy"])
    assert exit_.value.code == 2
    assert "--port" in capsys.readouterr().err


@pytest.mark.parametrize("argv, words, code", [
    (["--port", "/dev/does-not-exist"], "no serial port /dev/does-not-exist", EXIT_ENVIRONMENT),  # no board
    (["--port", "bad port", "--dry-run"], "not a serial port name", EXIT_INPUT),
    (["--port", "a0", "--source", "/nonexistent", "--dry-run"], "no firmware directory", EXIT_INPUT),
])
def test_bad_arguments_exit_2_and_a_missing_board_69_with_one_line(argv: list[str], words: str, code: int,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["firmware", "deploy", *argv]) == code
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_a_directory_without_main_is_refused(tmp_path: Path) -> None:
    (tmp_path / "hal.py").write_text("")
    with pytest.raises(Exception, match="does not hold the firmware"):
        firmware_files(tmp_path)
    assert mpremote_command("COM3", [tmp_path / "main.py"])[2] == "COM3"


def null_modem() -> tuple[int, str, callable]:
    """Two ptys joined master to master: the firmware on one slave (fd), the deploy
    command on the other (path), like a USB serial cable between them."""
    m1, s1 = os.openpty()
    m2, s2 = os.openpty()
    for fd in (m1, s1, m2, s2):
        tty.setraw(fd)
    done = threading.Event()

    def pump() -> None:
        while not done.is_set():
            ready, _, _ = select.select([m1, m2], [], [], 0.05)
            for fd in ready:
                try:
                    data = os.read(fd, 4096)
                except OSError:
                    continue
                os.write(m2 if fd == m1 else m1, data)

    thread = threading.Thread(target=pump, daemon=True)
    thread.start()

    def close() -> None:
        done.set()
        thread.join()
        for fd in (m1, m2, s1, s2):
            os.close(fd)

    return s1, os.ttyname(s2), close


def _until_booted(port: str, proc: subprocess.Popen, seconds: float = 60) -> None:
    """Read the line until the firmware's boot HELLO: a board that is running, as the stop
    command expects (its own 2 s wait for the answer must not include MicroPython's start
    on a loaded machine)."""
    import serial

    from bgboard.link import messages as m
    from bgboard.link.frames import Frame, FrameDecoder

    decoder = FrameDecoder()
    deadline = time.monotonic() + seconds
    with serial.serial_for_url(port, baudrate=115200, timeout=0.1) as link:
        while time.monotonic() < deadline and proc.poll() is None:
            for item in decoder.feed(link.read(256)):
                if isinstance(item, Frame) and item.kind == m.Hello.KIND:
                    return
    raise AssertionError(f"the firmware did not boot (exit code {proc.poll()})")


@contextmanager
def firmware_on_a_serial_line(tmp_path: Path) -> Iterator[tuple[subprocess.Popen, str]]:
    """The real firmware on one end of a :func:`null_modem`: ``(process, port of the other end)``."""
    firmware_end, port, close = null_modem()
    proc = subprocess.Popen([str(MICROPYTHON), str(FIRMWARE / "main.py")], stdin=firmware_end,
                            stdout=firmware_end, stderr=subprocess.PIPE,
                            env=micropython_env(tmp_path / "flash"))
    try:
        _until_booted(port, proc)
        yield proc, port
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()
        close()


def test_stop_frame_stops_the_real_firmware_over_a_serial_line(tmp_path: Path) -> None:
    with firmware_on_a_serial_line(tmp_path) as (proc, port):
        assert stop_firmware(port, timeout=60) is True
        assert proc.wait(timeout=60) == 0


def test_stop_frame_with_nobody_answering_returns_false(tmp_path: Path) -> None:
    _, port, close = null_modem()
    try:
        assert stop_firmware(port, timeout=0.3) is False
    finally:
        close()


@pytest.mark.slow
def test_stop_command_stops_the_firmware_and_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with firmware_on_a_serial_line(tmp_path) as (proc, port):
        assert main(["firmware", "stop", "--port", port]) == 0
        assert proc.wait(timeout=60) == 0
        assert "stopped the firmware" in capsys.readouterr().out
        # nothing runs any more: a second stop gets no answer -> one line, exit 69 (the board, not the input)
        assert main(["firmware", "stop", "--port", port]) == EXIT_ENVIRONMENT
        assert "did not answer" in capsys.readouterr().err
