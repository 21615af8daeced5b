"""Helpers of the firmware tests: run the real firmware under the real MicroPython unix port.

``run_firmware(field)`` starts ``micropython firmware/main.py`` with the machine shim
(firmware/sim) in virtual-clock mode, feeds ``field`` (the lines of firmware/sim/README.md)
and decodes what the firmware wrote on its serial port with the HOST codec.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass, field as dc_field
from pathlib import Path

import pytest

from bgboard.link import messages as m
from bgboard.sim.field import PHYSICS
from bgboard.link.frames import Frame, FrameDecoder

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
SIM = FIRMWARE / "sim"
MICROPYTHON = Path(sys.executable).with_name("micropython")

EMPTY = 32768
# the firmware's default calibration, generated from the sensing physics (firmware/board.py)
_BOARD: dict = {}
exec((FIRMWARE / "board.py").read_text(), _BOARD)
SWING: int = _BOARD["SWING"]
STACK_GAIN: float = _BOARD["STACK_GAIN_MILLI"] / 1000
#: the highest stack level the firmware reports ("that many or more": the physics cannot
#: tell taller stacks apart)
TOP_LEVEL: int = 1 + sum(1 for v in _BOARD["STACK_SHAPE_MILLI"] if v)


def counts(colour: str, k: int = 1) -> int:
    """The default-calibration reading of ``k`` stacked checkers of ``colour`` (the sensing
    physics: :mod:`bgboard.hardware.physics`, as the simulator's field has it)."""
    if k == 0:
        return EMPTY
    units = PHYSICS.stack_units[k - 1]
    return round(EMPTY + (SWING if colour == "white" else -SWING) * units)


PER_SLOT: int = _BOARD["PER_SLOT"]
_PLACES: list[list[int]] = []
for _slot, (_place, _index) in enumerate(zip(_BOARD["SLOT_PLACE"], _BOARD["SLOT_INDEX"])):
    while len(_PLACES) <= _place:
        _PLACES.append([])
    _PLACES[_place].append(_slot)


def as_reported(states: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    """The slot states the firmware reports when the sensor under each slot's centre reads as
    that slot's state in ``states`` (a checker on each slot's centre) and any sensor between
    slots reads empty.  One sensor per slot: ``states``.  Two (hardware/README.md, "A lone
    checker anywhere"): each place's checkers from its base, in order, each keeping its state;
    a FAULT slot keeps FAULT and empties the rest of its place."""
    if PER_SLOT == 1:
        return tuple(states)
    out = list(states)
    for slots in _PLACES:
        order = sorted(slots, key=lambda s: _BOARD["SLOT_INDEX"][s])
        row = [states[s] for s in order]
        if any(st & 3 == 3 for st in row):
            new = [3 if st & 3 == 3 else 0 for st in row]
        else:
            new = [st for st in row if st & 3]
            new += [0] * (len(row) - len(new))
        for s, st in zip(order, new):
            out[s] = st
    return tuple(out)


def host(message: m.Message, seq: int) -> str:
    """A field line injecting ``message`` as host frame ``seq``."""
    return "host " + m.encode(message, seq).hex()


@dataclass
class Run:
    returncode: int
    stderr: str
    frames: list[Frame]
    problems: list
    leds: list[str] = dc_field(default_factory=list)

    @property
    def messages(self) -> list[m.Message]:
        return [m.decode(f) for f in self.frames]

    def of(self, kind: type) -> list:
        return [x for x in self.messages if isinstance(x, kind)]


def micropython_env(flash: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        MICROPYPATH=f"{SIM}:{FIRMWARE}:.frozen",
        BGBOARD_SIM_FLASH=str(flash),
    )
    env.update(extra)
    return env


@pytest.fixture
def run_firmware(tmp_path: Path):
    """``run_firmware(lines, flash=None, heap=None, **env) -> Run`` (virtual clock, exact
    and fast; ``heap`` limits the MicroPython heap, e.g. "128k")."""
    counter = iter(range(1000))

    def run(lines: list[str], flash: Path | None = None, timeout: float = 60, heap: str | None = None,
            **env: str) -> Run:
        n = next(counter)
        field = tmp_path / f"field{n}.txt"
        field.write_text("\n".join(lines) + "\n")
        leds = tmp_path / f"leds{n}.txt"
        proc = subprocess.run(
            [str(MICROPYTHON), *(["-X", f"heapsize={heap}"] if heap else []), str(FIRMWARE / "main.py")],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=timeout,
            env=micropython_env(
                flash or tmp_path / "flash",
                BGBOARD_SIM_CLOCK="virtual",
                BGBOARD_SIM_FIELD=str(field),
                BGBOARD_SIM_LEDS=str(leds),
                **env,
            ),
        )
        items = FrameDecoder().feed(proc.stdout)
        frames = [i for i in items if isinstance(i, Frame)]
        problems = [i for i in items if not isinstance(i, Frame)]
        led_lines = leds.read_text().splitlines() if leds.exists() else []
        return Run(proc.returncode, proc.stderr.decode(), frames, problems, led_lines)

    return run


def run_script(code: str, tmp_path: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run a MicroPython script with the firmware and the shim importable."""
    script = tmp_path / "script.py"
    script.write_text(code)
    return subprocess.run(
        [str(MICROPYTHON), str(script)],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env=micropython_env(tmp_path / "flash", BGBOARD_SIM_CLOCK="virtual"),
    )
