"""``bgboard firmware deploy``: copy the MicroPython firmware to the board's Pico.

    bgboard firmware deploy --port PORT [--dry-run] [--no-stop] [--source DIR]
    bgboard firmware stop --port PORT


PORT is the Pico's serial device (``/dev/ttyACM0``; mpremote shortcuts such as ``a0`` or
``id:SERIAL`` are passed through).  The running firmware ignores Ctrl-C
(``micropython.kbd_intr(-1)``, see docs/protocol.md), so deploy first sends it a REBOOT
frame with mode 1 (stop and give the REPL back), then runs
``mpremote connect PORT cp <firmware files> : + reset``.  ``--no-stop`` skips the frame
(a board in safe mode — dice button held at power-on — or with no firmware yet);
``--dry-run`` prints the steps without touching the port.  ``stop`` only stops the
firmware (the REPL is then free for ``mpremote``, e.g. to copy the dice log
``mpremote connect PORT cp :rolls.log .``); unplugging and replugging restarts it.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

from bgboard.errors import InputError
from bgboard.hardware import firmware_dir
from bgboard.link import messages as m
from bgboard.link.codec import Frame, FrameDecoder

FIRMWARE_DIR = firmware_dir()


class DeployError(InputError):
    """The firmware could not be deployed (one sentence: what to check)."""


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
        raise DeployError(f"there is no serial port {port}: is the board plugged in?")


def stop_firmware(port: str, timeout: float = 2.0) -> bool:
    """Send REBOOT mode 1 and wait for its ACK; False if nothing answered (the board may
    already be at the REPL)."""
    import serial  # the adapter's library, imported where it is used

    try:
        link = serial.serial_for_url(port, baudrate=115200, timeout=0.1)
    except (serial.SerialException, OSError) as exc:
        raise DeployError(f"cannot open {port}: {exc}") from None
    with link:
        link.write(m.encode(m.Reboot(m.REBOOT_REPL), 0))
        link.flush()
        decoder = FrameDecoder()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for item in decoder.feed(link.read(256)):
                if isinstance(item, Frame) and item.kind == m.Ack.KIND:
                    if m.decode(item) == m.Ack(0, m.Reboot.KIND):
                        return True
    return False


def run(args: argparse.Namespace) -> int:
    if args.action == "stop":
        check_port(args.port)
        if not stop_firmware(args.port):
            raise DeployError(f"the firmware on {args.port} did not answer: is it running?")
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
        raise DeployError("mpremote is not installed: pip install mpremote")
    if not args.no_stop and not stop_firmware(args.port):
        print(f"bgboard: no answer from the firmware on {args.port}; trying the REPL directly",
              file=sys.stderr)
    result = subprocess.run([mpremote, *command[1:]])
    if result.returncode != 0:
        raise DeployError(f"mpremote failed (exit {result.returncode}): see its message above")
    print(f"deployed {len(files)} files to {args.port}")
    return 0
