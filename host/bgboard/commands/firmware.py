"""``bgboard firmware deploy``: copy the MicroPython firmware to the board's Pico.

    bgboard firmware deploy --port PORT [--dry-run] [--no-stop] [--source DIR]
    bgboard firmware stop --port PORT
    bgboard firmware selftest --port PORT [--empty-only] [--timeout S]


PORT is the Pico's serial device (``/dev/ttyACM0``; mpremote shortcuts such as ``a0`` or
``id:SERIAL`` are passed through).  The running firmware ignores Ctrl-C
(``micropython.kbd_intr(-1)``, see docs/protocol.md), so deploy first sends it a REBOOT
frame with mode 1 (stop and give the REPL back), then runs
``mpremote connect PORT cp <firmware files> : + reset``.  ``--no-stop`` skips the frame
(a board in safe mode — dice button held at power-on — or with no firmware yet);
``--dry-run`` prints the steps without touching the port.  ``stop`` only stops the
firmware (the REPL is then free for ``mpremote``, e.g. to copy the dice log
``mpremote connect PORT cp :rolls.log .``); unplugging and replugging restarts it.

``selftest`` is the bring-up check of a newly built board (hardware/README.md, "Bring-up"),
over the serial link with the firmware running: it asks for a SNAPSHOT and every slot must
read empty; then it asks for one checker on each slot in turn, in grid.toml's order, and
checks that exactly that slot (and no other) reads it, and reads empty again once the
checker is taken away.  Every slot that reads wrong is named with its place, its
multiplexer channel and its strip header pin.  Exit 0 when every slot passed, 1 when some
did not (the list says which), 69 when the board did not answer (an environment failure,
see bgboard.errors).
"""

from __future__ import annotations

import argparse
import logging
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Protocol

from bgboard.errors import EnvironmentFailure, InputError, shown
from bgboard.hardware import PLACES, Grid, Slot, firmware_dir, load_grid
from bgboard.link import messages as m
from bgboard.link.frames import Frame, FrameDecoder

FIRMWARE_DIR = firmware_dir()

log = logging.getLogger(__name__)


class DeployError(InputError):
    """The firmware could not be deployed as asked (a bad port name, a source that is not
    the firmware, a board built from another grid.toml): one sentence, what to check."""


class BoardUnreachableError(EnvironmentFailure):
    """The board or the tool to reach it is not there (no port, a port that will not open, a
    board that does not answer, mpremote missing or failing): one sentence, what to check."""


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "firmware", help="deploy the MicroPython firmware to the board's Pico",
        description="Deploy the MicroPython firmware to the board's Pico with mpremote.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    deploy = actions.add_parser("deploy", help="copy firmware/*.py to the Pico and restart it")
    deploy.add_argument("--port", required=True, help="the Pico's serial port, e.g. /dev/ttyACM0")
    deploy.add_argument("--dry-run", action="store_true", help="print the steps, do nothing")
    deploy.add_argument("--no-stop", action="store_true",
                        help="do not send the stop frame first (safe mode or a fresh Pico)")
    deploy.add_argument("--source", type=Path, default=FIRMWARE_DIR,
                        help="the firmware directory (default: the one installed with bgboard)")
    stop = actions.add_parser("stop", help="stop the running firmware and give the REPL back")
    stop.add_argument("--port", required=True, help="the Pico's serial port, e.g. /dev/ttyACM0")
    selftest = actions.add_parser("selftest", help="check every slot of a new board: empty, then one checker on each")
    selftest.add_argument("--port", required=True, help="the Pico's serial port, e.g. /dev/ttyACM0")
    selftest.add_argument("--empty-only", action="store_true", help="only check that every slot reads empty")
    selftest.add_argument("--timeout", type=float, default=300.0,
                          help="seconds to wait for the board and for each checker (default 300)")
    return parser


def firmware_files(source: Path) -> list[Path]:
    """The files to copy: every .py of ``source`` (not the unix-port sim/), main.py last so
    a copy cut short never starts a main.py without its modules."""
    if not source.is_dir():
        raise DeployError(f"there is no firmware directory at {source}")
    files = sorted(p for p in source.glob("*.py") if p.name != "main.py")
    main = source / "main.py"
    if not main.exists() or not files:
        raise DeployError(f"{source} does not hold the firmware (main.py and its modules)")
    return files + [main]


def mpremote_command(port: str, files: list[Path]) -> list[str]:
    """The mpremote command line that copies ``files`` to the Pico's root and resets it."""
    if not port or port.startswith("-") or any(c.isspace() for c in port):
        raise DeployError(f"{port!r} is not a serial port name")
    return ["mpremote", "connect", port, "cp", *(str(f) for f in files), ":", "+", "reset"]


def check_port(port: str) -> None:
    """A device path must exist (mpremote shortcuts like ``a0`` or ``id:...`` pass)."""
    if port.startswith("/") and not Path(port).exists():
        raise BoardUnreachableError(f"there is no serial port {port}: is the board plugged in?")


class _Port(Protocol):
    """What :func:`read_available` uses of a pyserial port."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...


def read_available(link: _Port) -> bytes:
    """What the board has sent: the bytes waiting, or the first one to come within the
    port's timeout.  (``read(256)`` waits the whole timeout unless 256 bytes come, and an
    answer is a frame of a few bytes: 100 ms lost on each, twice per sensor in a self-test.)"""
    return link.read(link.in_waiting or 1)


def stop_firmware(port: str, timeout: float = 2.0) -> bool:
    """Send REBOOT mode 1 and wait for its ACK; False if nothing answered (the board may
    already be at the REPL)."""
    import serial  # the adapter's library, imported where it is used

    try:
        link = serial.serial_for_url(port, baudrate=115200, timeout=0.1)
    except (serial.SerialException, OSError) as exc:
        log.debug("cannot open %s: %s", port, shown(exc))
        raise BoardUnreachableError(f"cannot open {port}: {exc}") from None
    log.debug("%s is open: asking the firmware to stop", port)
    with link:
        link.write(m.encode(m.Reboot(m.REBOOT_REPL), 0))
        link.flush()
        decoder = FrameDecoder()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for item in decoder.feed(read_available(link)):
                if isinstance(item, Frame) and item.kind == m.Ack.KIND:
                    if m.decode(item) == m.Ack(0, m.Reboot.KIND):
                        return True
    return False


# ------------------------------------------------------------------------------ selftest
_STATE_WORDS = {m.EMPTY: "empty", m.WHITE: "white", m.BLACK: "black", m.FAULT: "FAULT (open or shorted sensor)"}


def where(slot: Slot) -> str:
    """A slot in a builder's words: the place, the slot from its base."""
    if slot.place.isdigit():
        place = f"point {slot.place}"
    elif slot.place.startswith("bar"):
        place = f"the {slot.place.split('-')[1]} half of the bar"
    else:
        place = f"{slot.place.split('-')[1]}'s tray"
    return f"{place}, slot {slot.index} from its base"


def spot(slot: Slot, part: int, per: int) -> str:
    """Where a builder puts a checker over a slot's ``part``-th sensor: the slot itself with one
    sensor per slot; its centre or half a pitch further with two."""
    if per == 1:
        return where(slot)
    if part == 0:
        return f"{where(slot)}, on its centre"
    return f"{where(slot)}, half a slot further (between it and the next)"


def wiring(slot: Slot, part: int | None = None) -> str:
    """Where to look when a sensor reads wrong: its multiplexer channel and strip header pin
    (``part`` None: every sensor of the slot)."""
    header = PLACES.index(slot.place) + 1 if slot.place in PLACES else 0  # the controller's headers, in place order
    per = len(slot.sensors)
    if per == 1:  # the design before: the multiplexers on the controller, a wire per sensor
        n = slot.index
        mux, channel = slot.sensors[0]
        return f"mux {mux} channel {channel}, controller header J{header} pin {5 + n}, sensor U{n + 1} of that strip"
    # two sensors per slot: each strip's own multiplexer U20 (hardware/README.md, "Boards")
    parts = range(per) if part is None else (part,)
    many = "s" if len(parts) > 1 else ""
    sensors = " and ".join(f"U{slot.index * per + k + 1}" for k in parts)
    channels = " and ".join(str(slot.sensors[k][1]) for k in parts)
    return (f"sensor{many} {sensors} of the strip on controller header J{header}, its multiplexer U20 "
            f"(mux {slot.sensors[0][0]}) channel{many} {channels}, the ribbon's /E (pin 9) and SIG (pin 11)")


def state_words(state: int) -> str:
    words = _STATE_WORDS[m.state_colour(state)]
    level = m.state_level(state)
    return f"{words} (level {level})" if level > 1 else words


class _Board:
    """The serial link to a running board: numbered commands out, decoded messages in."""

    def __init__(self, port: str, timeout: float) -> None:
        import serial  # the adapter's library, imported where it is used

        try:
            self.link = serial.serial_for_url(port, baudrate=115200, timeout=0.1)
        except (serial.SerialException, OSError) as exc:
            log.debug("cannot open %s: %s", port, shown(exc))
            raise BoardUnreachableError(f"cannot open {port}: {exc}") from None
        log.debug("%s is open for the self-test", port)
        self.port, self.timeout = port, timeout
        self.decoder = FrameDecoder()
        self.seq = 0
        self.pending: list[m.Message] = []

    def send(self, message: m.Message) -> None:
        log.debug("to the board: %s (seq %d)", type(message).__name__, self.seq)
        self.link.write(m.encode(message, self.seq))
        self.link.flush()
        self.seq = (self.seq + 1) & 0xFFFF

    def next(self, what: str) -> m.Message:
        """The next message from the board; BoardUnreachableError after ``timeout`` s of silence about ``what``."""
        deadline = time.monotonic() + self.timeout
        while not self.pending:
            if time.monotonic() > deadline:
                raise BoardUnreachableError(f"the board on {self.port} did not answer ({what}): is the firmware running?")
            for item in self.decoder.feed(read_available(self.link)):
                if isinstance(item, Frame):
                    try:
                        self.pending.append(m.decode(item))
                    except m.MessageError as exc:
                        log.debug("a frame from the board was refused: %s", exc)
                        continue
        return self.pending.pop(0)

    def close(self) -> None:
        self.link.close()


def selftest(port: str, grid: Grid, empty_only: bool, timeout: float) -> int:
    """The bring-up check (module docstring); prints as it goes, returns the exit code."""
    board = _Board(port, timeout)
    try:
        board.send(m.RequestSnapshot())
        while not isinstance(message := board.next("a snapshot"), m.Snapshot):
            pass
        states = list(message.states)
        if len(states) != len(grid.slots):
            raise DeployError(f"the board reports {len(states)} slots but grid.toml has {len(grid.slots)}: "
                              "deploy the firmware built from this grid.toml")
        bad = [(i, s) for i, s in enumerate(states) if s != 0]
        for i, state in bad:
            print(f"slot {i} ({where(grid.slots[i])}) reads {state_words(state)} on an empty board: "
                  f"check {wiring(grid.slots[i])}")
        if bad:
            print(f"selftest: {len(bad)} of {len(states)} slots do not read empty: take every checker off and "
                  "check the slots named above")
            return 1
        print(f"empty board: all {len(states)} slots read empty", flush=True)
        if empty_only:
            return 0
        # one checker over each sensor in turn; with two sensors per slot the board reports a
        # place's checkers from its base, so the place's base slot reacts
        per = grid.per_slot
        failed: list[int] = []
        for n, (slot, part) in enumerate(grid.sensors()):
            i = grid.position(slot)
            expected = i if per == 1 else grid.position(grid.of(slot.place)[0])
            label = f"slot {i}" if per == 1 else f"sensor {n}"
            print(f"put one checker on {spot(slot, part, per)} ({label})", flush=True)
            reacted = _wait(board, states, lambda s: s != 0, f"a checker on {label}")
            if reacted != expected:
                failed.append(n)
                print(f"  slot {reacted} ({where(grid.slots[reacted])}) read it instead of slot {expected}: check "
                      f"{wiring(slot, part)} (and the wires of {where(grid.slots[reacted])})", flush=True)
            elif m.state_colour(states[expected]) == m.FAULT:
                failed.append(n)
                print(f"  slot {expected} reads {state_words(states[expected])}: check {wiring(slot, part)}", flush=True)
            print("  take it away", flush=True)
            _wait(board, states, lambda s: s == 0, f"slot {reacted} to read empty again", only=reacted)
        what = "slots" if per == 1 else "sensors"
        if failed:
            print(f"selftest: {len(failed)} of {len(grid.sensors())} {what} read wrong: {what} {', '.join(map(str, failed))}")
            return 1
        if per == 1:
            print(f"selftest: all {len(states)} slots read empty and then read their checker")
        else:
            print(f"selftest: all {len(states)} slots read empty and then {len(grid.sensors())} sensors read their checker")
        return 0
    finally:
        board.close()


def _wait(board: _Board, states: list[int], done, what: str, only: int | None = None) -> int:
    """Apply the board's changes to ``states`` until a slot (``only`` that one) satisfies ``done``; its number."""
    while True:
        message = board.next(what)
        if isinstance(message, m.Snapshot):
            states[:] = message.states
            changed = [(i, s) for i, s in enumerate(states)]
        elif isinstance(message, m.Changes):
            changed = []
            for change in message.changes:
                states[change.slot] = change.state
                changed.append((change.slot, change.state))
        else:
            continue
        for slot, state in changed:
            if (only is None or slot == only) and done(state) and (only is not None or state != 0):
                return slot


def run(args: argparse.Namespace) -> int:
    if args.action == "selftest":
        check_port(args.port)
        if args.timeout <= 0:
            raise DeployError(f"--timeout {args.timeout} is not a positive number of seconds")
        return selftest(args.port, load_grid(), args.empty_only, args.timeout)
    if args.action == "stop":
        check_port(args.port)
        if not stop_firmware(args.port):
            raise BoardUnreachableError(f"the firmware on {args.port} did not answer: is it running?")
        print(f"stopped the firmware on {args.port}: the REPL is free")
        return 0
    files = firmware_files(args.source)
    command = mpremote_command(args.port, files)
    if args.dry_run:
        if not args.no_stop:
            print(f"send REBOOT (mode 1: stop to the REPL) to {args.port}")
        print(" ".join(command))
        return 0
    check_port(args.port)
    mpremote = shutil.which("mpremote") or str(Path(sys.executable).with_name("mpremote"))
    if not Path(mpremote).exists():
        raise BoardUnreachableError("mpremote is not installed: pip install mpremote")
    if not args.no_stop and not stop_firmware(args.port):
        print(f"bgboard: no answer from the firmware on {args.port}; trying the REPL directly",
              file=sys.stderr)
    result = subprocess.run([mpremote, *command[1:]])
    if result.returncode != 0:
        raise BoardUnreachableError(f"mpremote failed (exit {result.returncode}): see its message above")
    print(f"deployed {len(files)} files to {args.port}")
    return 0
