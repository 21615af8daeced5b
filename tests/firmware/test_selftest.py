"""``bgboard firmware selftest``: the bring-up check against the real firmware under the
MicroPython unix port, over a real serial line (two ptys joined), the sensors played through
the shim's field channel the way a builder's hand would: each checker goes down when the
selftest asks for it and comes away when it says so."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bgboard.cli import main
from bgboard.errors import EXIT_ENVIRONMENT, EXIT_INPUT
from bgboard.hardware import load_grid

from fwrun import EMPTY, FIRMWARE, MICROPYTHON, counts, micropython_env
from test_deploy_command import _until_booted, null_modem

HANG_S = 600  # a bound against a hang only
BGBOARD = Path(sys.executable).with_name("bgboard")
GRID = load_grid()
SLOTS = len(GRID.slots)
SENSORS = len(GRID.sensors())  # two per slot: the self-test walks a checker over each


@contextmanager
def board(tmp_path: Path, first_lines: list[str] = ()) -> Iterator[tuple[str, object]]:
    """The real firmware on a serial line: ``(port, field)``; ``field`` is the open field channel."""
    fifo = tmp_path / "field"
    os.mkfifo(fifo)
    firmware_end, port, close = null_modem()
    proc = subprocess.Popen([str(MICROPYTHON), str(FIRMWARE / "main.py")], stdin=firmware_end, stdout=firmware_end,
                            stderr=subprocess.PIPE,
                            env=micropython_env(tmp_path / "flash", BGBOARD_SIM_FIELD=str(fifo),
                                                BGBOARD_SIM_CLOCK="fast:8"))
    field = open(fifo, "w")  # the shim opens the other end as the firmware starts
    try:
        for line in first_lines:
            field.write(line + "\n")
        field.flush()
        _until_booted(port, proc)
        yield port, field
    finally:
        field.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()
        close()


def play(port: str, field, swap: tuple[int, int] | None = None, *extra: str) -> tuple[int, list[str]]:
    """Run ``bgboard firmware selftest`` and answer its requests through the field; ``swap``
    puts the checker asked for on one sensor on the other (two crossed wires)."""
    proc = subprocess.Popen([str(BGBOARD), "firmware", "selftest", "--port", port, "--timeout", "120", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    where = None
    for line in proc.stdout:
        lines.append(line.rstrip("\n"))
        if line.startswith("put one checker on"):
            word, number = line.rsplit("(", 1)[1].rstrip(")\n").split()  # "(slot N)" or "(sensor N)"
            asked = int(number)
            where = asked
            if swap and asked in swap:
                where = swap[1] if asked == swap[0] else swap[0]
            field.write(f"{word} {where} {counts('white')}\n")
            field.flush()
        elif line.strip() == "take it away":
            field.write(f"{word} {where} {EMPTY}\n")
            field.flush()
    return proc.wait(timeout=HANG_S), lines


@pytest.mark.slow
def test_every_slot_reads_empty_then_its_checker(tmp_path: Path) -> None:
    with board(tmp_path) as (port, field):
        code, lines = play(port, field)
    assert code == 0, lines[-5:]
    assert lines[0] == f"empty board: all {SLOTS} slots read empty"
    assert sum(line.startswith("put one checker on") for line in lines) == SENSORS == 2 * SLOTS
    assert lines[1] == "put one checker on point 1, slot 0 from its base, on its centre (sensor 0)"
    assert lines[3] == "put one checker on point 1, slot 0 from its base, half a slot further (between it and the next) (sensor 1)"
    assert lines[-1] == f"selftest: all {SLOTS} slots read empty and then {SENSORS} sensors read their checker"


@pytest.mark.slow
def test_two_crossed_sensor_wires_are_named(tmp_path: Path) -> None:
    with board(tmp_path) as (port, field):
        # point 1's last sensor and point 2's first: two ribbons' wires crossed
        code, lines = play(port, field, (9, 10))
    assert code == 1
    assert any(line == ("  slot 5 (point 2, slot 0 from its base) read it instead of slot 0: check sensor U10 of the "
                        "strip on controller header J1, its multiplexer U20 (mux 0) channel 9, the ribbon's /E (pin 9) "
                        "and SIG (pin 11) (and the wires of point 2, slot 0 from its base)") for line in lines), lines
    assert lines[-1] == f"selftest: 2 of {SENSORS} sensors read wrong: sensors 9, 10"


def test_a_dead_sensor_and_a_left_checker_fail_the_empty_check(tmp_path: Path) -> None:
    # sensor 6 (point 1, slot 3's centre) dead; a checker left on black's tray's last sensor
    with board(tmp_path, ["sensor 6 0", f"sensor {SENSORS - 1} {counts('black')}"]) as (port, field):
        code, lines = play(port, field)
    assert code == 1
    assert lines[0] == ("slot 3 (point 1, slot 3 from its base) reads FAULT (open or shorted sensor) on an empty "
                        "board: check sensors U7 and U8 of the strip on controller header J1, its multiplexer U20 (mux 0) "
                        "channels 6 and 7, the ribbon's /E (pin 9) and SIG (pin 11)")
    # the firmware reports a place's checkers from its base (firmware/runs.py)
    tray = GRID.position(GRID.of("off-black")[0])
    assert lines[1] == (f"slot {tray} (black's tray, slot 0 from its base) reads black on an empty board: check "
                        "sensors U1 and U2 of the strip on controller header J28, its multiplexer U20 (mux 27) "
                        "channels 0 and 1, the ribbon's /E (pin 9) and SIG (pin 11)")
    assert lines[-1].startswith(f"selftest: 2 of {SLOTS} slots do not read empty")


def test_empty_only_stops_after_the_empty_check(tmp_path: Path) -> None:
    with board(tmp_path) as (port, field):
        code, lines = play(port, field, None, "--empty-only")
    assert (code, lines) == (0, [f"empty board: all {SLOTS} slots read empty"])


def test_bad_arguments_exit_2_and_no_board_exits_69_each_with_one_sentence(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["firmware", "selftest", "--port", "/dev/does-not-exist"]) == EXIT_ENVIRONMENT
    assert "no serial port /dev/does-not-exist" in capsys.readouterr().err
    _, port, close = null_modem()
    try:
        assert main(["firmware", "selftest", "--port", port, "--timeout", "0.3"]) == EXIT_ENVIRONMENT
        err = capsys.readouterr().err
        assert "did not answer (a snapshot)" in err and err.count("\n") == 1
        assert main(["firmware", "selftest", "--port", port, "--timeout", "-1"]) == EXIT_INPUT
        assert "not a positive number" in capsys.readouterr().err
    finally:
        close()
