"""The dice: rejection sampling without bias, the button, numbering and the audit log."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bgboard.link import messages as m

from fwrun import host, run_script

ROLLS = 60_000
# chi-square critical values at p = 1e-5 (a fair source fails once in 100,000 runs;
# the 3-bit modulo bias that rejection sampling avoids gives chi-square in the thousands)
CHI2_5 = 30.856  # faces: 5 degrees of freedom
CHI2_35 = 82.640  # ordered pairs of one roll: 35 degrees of freedom


@pytest.mark.slow
def test_sixty_thousand_rolls_are_uniform(tmp_path: Path) -> None:
    """The real Hal.random_bits (ROSC bit via the shim, von Neumann whitening) and the
    real rejection sampler, under MicroPython."""
    proc = run_script(
        "import json\n"
        "from hal import Hal\n"
        "from dice import die\n"
        "hal = Hal()\n"
        "faces = [0] * 7\n"
        "pairs = [0] * 36\n"
        f"for _ in range({ROLLS // 2}):\n"
        "    a = die(hal.random_bits); b = die(hal.random_bits)\n"
        "    faces[a] += 1; faces[b] += 1; pairs[(a - 1) * 6 + b - 1] += 1\n"
        "print(json.dumps([faces[1:], pairs]))\n",
        tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    faces, pairs = json.loads(proc.stdout)
    assert sum(faces) == ROLLS
    expected = ROLLS / 6
    chi2 = sum((f - expected) ** 2 / expected for f in faces)
    assert chi2 < CHI2_5, (faces, chi2)
    expected_pair = ROLLS / 2 / 36
    chi2_pairs = sum((p - expected_pair) ** 2 / expected_pair for p in pairs)
    assert chi2_pairs < CHI2_35, (pairs, chi2_pairs)


def test_rejection_sampling_throws_away_six_and_seven(tmp_path: Path) -> None:
    """Fed 7, 6, 6, 5 then 0: the sampler skips the 7 and the 6s and shows 6, then 1."""
    proc = run_script(
        "from dice import die\n"
        "seq = [7, 6, 6, 5, 0]\n"
        "def bits(n):\n"
        "    assert n == 3\n"
        "    return seq.pop(0)\n"
        "print(die(bits), die(bits), len(seq))\n",
        tmp_path,
    )
    assert proc.stdout.split() == ["6", "1", "0"], proc.stderr


def test_von_neumann_whitening_turns_a_biased_bit_fair(tmp_path: Path) -> None:
    """A ROSC bit stuck at 1 most of the time still gives balanced output bits."""
    proc = run_script(
        "import machine\n"
        "from hal import Hal\n"
        "hal = Hal()\n"
        "state = [0]\n"
        "def biased():\n"
        "    state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF\n"
        "    return 1 if (state[0] >> 16) % 10 < 8 else 0\n"
        "machine.SIM.random_bit = biased\n"
        "ones = sum(hal.random_bits(1) for _ in range(20000))\n"
        "print(ones)\n",
        tmp_path,
    )
    ones = int(proc.stdout)
    assert abs(ones - 10000) < 400, ones  # raw bias is 80 % ones


def test_button_rolls_only_when_enabled_and_numbers_survive_reboot(run_firmware, tmp_path: Path) -> None:
    flash = tmp_path / "flash"
    run = run_firmware([
        "@100", "button down", "@200", "button up",                    # disabled: error
        host(m.SetRolling(True), 0),
        "@300", "button down", "@305", "button up",                   # too short: ignored
        "@400", "button down", "@600", "button up",                   # one roll, not repeated
        "@700", "button down", "@800", "button up",                   # second roll
        "@1500", "stop",
    ], flash=flash)
    errors = run.of(m.DeviceError)
    assert [e.name for e in errors] == ["rolling_disabled"]
    rolls = run.of(m.Roll)
    assert [r.number for r in rolls] == [1, 2]
    beat = run.of(m.Heartbeat)[0]
    assert (beat.last_roll, beat.rolling) == (2, True)
    log = (flash / "rolls.log").read_text().splitlines()
    assert [tuple(map(int, line.split()[:3])) for line in log] == [(r.number, *r.dice) for r in rolls]
    # the dice displays show the last roll's pips (7 LEDs per die after the 28 host LEDs)
    pips = run.leds[-1].split()[1:][28:]
    lit = [sum(p != "000000" for p in pips[:7]), sum(p != "000000" for p in pips[7:])]
    assert lit == list(rolls[-1].dice)

    again = run_firmware([host(m.SetRolling(True), 0), "@100", "button down", "@200", "stop"], flash=flash)
    assert [r.number for r in again.of(m.Roll)] == [3]


def test_roll_log_rotates_and_numbering_continues(run_firmware, tmp_path: Path) -> None:
    flash = tmp_path / "flash"
    flash.mkdir()
    line = "41 3 4 100\n"
    (flash / "rolls.log").write_text(line * (65536 // len(line)))
    run = run_firmware([host(m.SetRolling(True), 0), "@100", "button down", "@200", "stop"], flash=flash)
    assert [r.number for r in run.of(m.Roll)] == [42]
    assert (flash / "rolls.1.log").exists()
    assert (flash / "rolls.log").read_text().split()[0] == "42"


def test_the_chi_square_check_catches_modulo_bias(tmp_path: Path) -> None:
    """The same check on ``bits(3) % 6`` (what rejection sampling avoids) fails loudly."""
    proc = run_script(
        "from hal import Hal\n"
        "hal = Hal()\n"
        "faces = [0] * 6\n"
        "for _ in range(60000):\n"
        "    faces[hal.random_bits(3) % 6] += 1\n"
        "print(' '.join(map(str, faces)))\n",
        tmp_path,
    )
    faces = [int(x) for x in proc.stdout.split()]
    expected = sum(faces) / 6
    assert sum((f - expected) ** 2 / expected for f in faces) > 10 * CHI2_5


def test_roll_now_rolls_at_once_and_leaves_the_button_off(run_firmware) -> None:
    """ROLLING 2 (the engine opponent's own dice): an ACK, one ROLL, the button off after."""
    run = run_firmware([
        "@100", host(m.SetRolling(False, now=True), 0),
        "@300", "button down", "@500", "button up",  # the button is off again: an error, no roll
        "@1500", "stop",
    ])
    assert [r.number for r in run.of(m.Roll)] == [1]
    assert m.Ack(0, m.SetRolling.KIND) in run.messages
    assert run.messages.index(m.Ack(0, m.SetRolling.KIND)) < run.messages.index(run.of(m.Roll)[0])
    assert [e.name for e in run.of(m.DeviceError)] == ["rolling_disabled"]
    assert not run.of(m.Heartbeat)[-1].rolling
