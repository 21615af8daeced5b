"""The Pico's power pins under the real MicroPython unix port (issue 32, finding 6): GP23, the
on-board regulator's power-save pin, driven high at start (PWM mode, less ripple under the
ADC); and no line to the strips or the dice driven while the 5 V supply is off (a Pico on USB
alone would feed the unpowered strips through their multiplexers' clamp diodes), driven when
it comes, released when it goes.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from bgboard.link import messages as m
from fwrun import ROOT, run_firmware, run_script  # noqa: F401  (the fixture)

PINS = tomllib.loads((ROOT / "hardware" / "pins.toml").read_text())["pico"]

# prints each line's mode and level: "id mode level" (the shim's Pin.OUT is 1, Pin.IN 0)
STATE = """
def state(ids):
    return " ".join("%d:%d:%d" % (i, machine.SIM.pins[i].mode, machine.SIM.pins[i].level) for i in ids)
LINES = list(board.MUX_SELECT) + list(board.MUX_ENABLE) + [board.LED_DATA, board.DICE_BUTTON]
"""


def parse(line: str) -> dict[int, tuple[int, int]]:
    return {int(i): (int(mode), int(level)) for i, mode, level in (w.split(":") for w in line.split())}


def test_gp23_is_driven_high_at_start(tmp_path: Path) -> None:
    run = run_script("import machine, board, hal\n" + STATE + "h = hal.Hal()\nprint(state([board.SMPS_MODE]))\n",
                     tmp_path)
    assert run.returncode == 0, run.stderr
    assert PINS["power"]["smps_mode"] == 23  # the Pico datasheet's SMPS power-save pin
    assert parse(run.stdout.strip()) == {23: (1, 1)}  # an output, high


def test_without_the_supply_no_line_to_the_strips_is_driven(tmp_path: Path) -> None:
    code = "import machine, board, hal\n" + STATE + """
machine.SIM.supply = 0
h = hal.Hal()
print(state(LINES), all(machine.SIM.pins[i].pull is None for i in LINES))
writes = machine.SIM.led_writes
h.write_leds([(255, 255, 255)] * board.LED_COUNT)
print(machine.SIM.led_writes - writes, h.button_pressed())
machine.SIM.supply = 1
print(h.supply(), state(LINES))
machine.SIM.supply = 0
print(h.supply(), state(LINES), all(machine.SIM.pins[i].pull is None for i in LINES))
print(state([board.SMPS_MODE]))
"""
    run = run_script(code, tmp_path)
    assert run.returncode == 0, run.stderr
    off, leds, on, off_again, smps = run.stdout.strip().splitlines()
    mux, power = PINS["mux"], PINS["power"]
    lines = [*mux["select"], *mux["enable"], PINS["leds"]["data"], PINS["dice"]["button"]]
    assert off.endswith(" True")  # no pull on any of them: high-Z
    assert parse(off.removesuffix(" True")) == {n: (0, 0) for n in lines}  # inputs, low
    assert leds == "0 False"  # no LED frame sent, no press read
    assert on.startswith("True ")
    driven = parse(on.split(" ", 1)[1])
    assert {n: driven[n] for n in mux["select"]} == {n: (1, 0) for n in mux["select"]}
    assert {n: driven[n] for n in mux["enable"]} == {n: (1, 1) for n in mux["enable"]}  # every /E off
    assert driven[PINS["leds"]["data"]] == (1, 0)
    assert driven[PINS["dice"]["button"]] == (0, 1)  # an input pulled up
    assert off_again.startswith("False ") and off_again.endswith(" True")  # released, the pull-up too
    assert parse(off_again.split(" ", 1)[1].removesuffix(" True")) == {n: (0, 0) for n in lines}
    assert parse(smps) == {power["smps_mode"]: (1, 1)}  # GP23 stays high whatever the supply


def test_the_firmware_waits_for_the_supply_before_scanning(run_firmware) -> None:
    """On USB alone the firmware says HELLO and waits: no snapshot, no LED frame; when the
    supply comes it boots on, the board read."""
    off = run_firmware(["@2000", "stop"], BGBOARD_SIM_SUPPLY="0")
    assert off.returncode == 0, off.stderr
    assert off.of(m.Hello) and not off.of(m.Snapshot)
    assert off.leds == []
    later = run_firmware(["@2000", "supply on", "slot 0 white", "@4000", "stop"], BGBOARD_SIM_SUPPLY="0")
    assert later.returncode == 0, later.stderr
    snapshots = later.of(m.Snapshot)
    assert len(snapshots) == 1 and later.leds
