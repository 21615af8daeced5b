"""Per-sensor calibration: the no-field reading and single-checker swing of every slot.

Kept in flash as JSON with a CRC-32 over its numbers.  ``load`` never raises: a missing
file gives the defaults (status DEFAULTS), an unreadable or inconsistent one gives the
defaults and a one-sentence reason (status CORRUPT) for an ERROR frame.  ``save`` writes a
temporary file and renames it over the old one, so a power cut leaves the old or the new
calibration, never half of one.
"""

import binascii
import json
import os

LOADED = 0
DEFAULTS = 1
CORRUPT = 2

EMPTY_COUNTS = 32768  # half scale: no field
SWING = 9000  # counts of one checker's magnet on a DRV5055A3 at ~4 mm (design value)
STACK_GAIN_MILLI = 300  # each further stacked magnet adds 0.30 of a single one
WHITE_SIGN = 1  # a north-up (white) magnet raises the reading
SWING_MIN = 500  # the swings a calibration file may hold (a checkers calibration clamps to these)
SWING_MAX = 30000

FORMAT = 1


class Calibration:
    """``empty[s]`` and ``swing[s]`` in ADC counts, ``white_sign`` +1/-1, ``stack_gain_milli``."""

    def __init__(
        self, empty: list, swing: list, white_sign: int = WHITE_SIGN, stack_gain_milli: int = STACK_GAIN_MILLI
    ) -> None:
        self.empty = empty
        self.swing = swing
        self.white_sign = white_sign
        self.stack_gain_milli = stack_gain_milli


def defaults(count: int) -> Calibration:
    """The design values for every one of ``count`` slots."""
    return Calibration([EMPTY_COUNTS] * count, [SWING] * count)


def _checksum(cal: Calibration) -> int:
    text = "%d|%d|%d|%s|%s" % (
        FORMAT,
        cal.white_sign,
        cal.stack_gain_milli,
        ",".join(str(v) for v in cal.empty),
        ",".join(str(v) for v in cal.swing),
    )
    return binascii.crc32(text.encode()) & 0xFFFFFFFF


def _ints(values: object, count: int, low: int, high: int) -> bool:
    if not isinstance(values, list) or len(values) != count:
        return False
    for v in values:
        if not isinstance(v, int) or v < low or v > high:
            return False
    return True


def load(path: str, count: int) -> tuple:
    """``(calibration, status, reason)``: reason is None unless status is CORRUPT."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return defaults(count), DEFAULTS, None
    try:
        data = json.loads(text)
    except (ValueError, TypeError, UnicodeError):
        return defaults(count), CORRUPT, "the calibration file is not readable: defaults in use"
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("slots") != count:
        return defaults(count), CORRUPT, "the calibration file is for another board: defaults in use"
    sign = data.get("white_sign")
    gain = data.get("stack_gain_milli")
    empty = data.get("empty")
    swing = data.get("swing")
    if (
        not isinstance(empty, list)
        or not isinstance(swing, list)
        or sign not in (1, -1)
        or not isinstance(gain, int)
        or not 50 <= gain <= 1000
        or not _ints(empty, count, 4096, 61439)
        or not _ints(swing, count, SWING_MIN, SWING_MAX)
    ):
        return defaults(count), CORRUPT, "the calibration file holds impossible values: defaults in use"
    cal = Calibration(empty, swing, sign, gain)
    if data.get("crc") != _checksum(cal):
        return defaults(count), CORRUPT, "the calibration file is corrupt: defaults in use"
    return cal, LOADED, None


def save(path: str, cal: Calibration) -> bool:
    """Write ``cal`` to ``path`` atomically; False if the flash refused."""
    data = {
        "format": FORMAT,
        "slots": len(cal.empty),
        "white_sign": cal.white_sign,
        "stack_gain_milli": cal.stack_gain_milli,
        "empty": cal.empty,
        "swing": cal.swing,
        "crc": _checksum(cal),
    }
    tmp = path + ".tmp"
    try:
        with open(tmp, "w") as f:
            f.write(json.dumps(data))
        os.rename(tmp, path)
    except OSError:
        return False
    return True
