"""The road back from a measured strip (pure): readings at known positions and stack heights
fitted to the sensing model — the magnets' polarisation (the working J of a checker's discs),
the gap, each sensor's gain and offset — or refused, in one sentence, when no gap and no
magnet explain them.

A reading is ``(sensor, offset_mm, stack, counts)``: the ADC counts (``read_u16``) of a
sensor with a centred stack of ``stack`` white (north-up) checkers whose centre lies
``offset_mm`` from it (``stack`` 0: nothing near it).  The model: ``counts = offset_s +
gain_s · J · c · u(offset, stack; gap)``, with ``u`` the field of a unit-polarisation stack
(:func:`bgboard.hardware.magnets.unit_bz_mt`, passed in as ``field``: this module does no
field computation itself) and ``c`` the sensor's datasheet counts per mT.  The field is
linear in J, so for each gap every sensor's ``offset_s`` and ``J · gain_s`` are an ordinary
straight-line fit; the gap is then the one-dimensional minimum of the residual (golden
section).  J and the sensors' mean sensitivity cannot be told apart by any reading of a
field: the gains are relative to the datasheet's typical sensitivity (their mean is 1), so
the polarisation found carries the strip's mean sensitivity error (the DRV5055's is a few
per cent; averaged over ten sensors, less).
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass
from typing import Callable, Sequence

from bgboard.errors import InputError

#: The gaps the fit searches (mm): the design's is 6.5.
GAP_RANGE = (1.0, 12.0)
#: A reading further than this many noise allowances from the best fit's is unexplained.
NOISE_LIMIT = 4.0
#: Each sensor's gain must lie within this of the datasheet's (a sensor outside is faulty).
GAIN_RANGE = (0.75, 1.33)
#: At most this many readings (a bench run of a strip is a few hundred).
MAX_READINGS = 100_000

Field = Callable[[float, Sequence[tuple[float, int]]], Sequence[float]]


class FitError(InputError):
    """Readings that cannot be fitted (one sentence saying why)."""


@dataclass(frozen=True, slots=True)
class Reading:
    sensor: str
    offset_mm: float
    stack: int
    counts: float


@dataclass(frozen=True)
class Fit:
    """The measured board: polarisation (T), gap (mm), each sensor's ``(gain, offset)`` and
    the readings' RMS residual (mT)."""

    polarization_t: float
    gap_mm: float
    sensors: dict[str, tuple[float, float]]
    rms_mt: float


def parse_readings(text: str) -> list[Reading]:
    """The readings of a CSV with the header ``sensor,offset_mm,stack,counts``."""
    rows = csv.DictReader(io.StringIO(text))
    if rows.fieldnames is None or not {"sensor", "offset_mm", "stack", "counts"} <= set(rows.fieldnames):
        raise FitError("the readings need a header line sensor,offset_mm,stack,counts")
    out = []
    for n, row in enumerate(rows, start=2):
        if len(out) >= MAX_READINGS:
            raise FitError(f"more than {MAX_READINGS} readings: fit one strip at a time")
        try:
            offset, stack, counts = float(row["offset_mm"]), int(row["stack"]), float(row["counts"])
        except (TypeError, ValueError):
            raise FitError(f"line {n} of the readings is not a sensor, an offset in mm, a stack height and counts") from None
        sensor = (row["sensor"] or "").strip()[:40]
        if not sensor or not (math.isfinite(offset) and 0 <= offset <= 200) or not 0 <= stack <= 15 \
                or not (math.isfinite(counts) and 0 <= counts <= 65535):
            raise FitError(f"line {n} of the readings is out of range (offset 0-200 mm, stack 0-15, counts 0-65535)")
        out.append(Reading(sensor, offset, stack, counts))
    if not out:
        raise FitError("the readings file has no readings")
    return out


def _line(xs: Sequence[float], ys: Sequence[float]) -> tuple[float, float, float]:
    """Least squares ``y = a + b·x``: ``(a, b, sum of squared residuals)``."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    a = my - b * mx
    return a, b, sum((y - a - b * x) ** 2 for x, y in zip(xs, ys))


def fit(readings: Sequence[Reading], field: Field, counts_per_mt: float, noise_mt: float) -> Fit:
    """The :class:`Fit` of ``readings`` (``field(gap, [(offset, stack)])`` gives the unit
    field of each), or :class:`FitError` when they cannot tell the gap or no gap and magnet
    explain them within :data:`NOISE_LIMIT` noise allowances."""
    by_sensor: dict[str, list[Reading]] = {}
    for r in readings:
        by_sensor.setdefault(r.sensor, []).append(r)
    configs = sorted({(r.offset_mm, r.stack) for r in readings})
    if len({c for c in configs if c[1] > 0}) < 2:
        raise FitError("readings of one position and one stack height cannot tell the gap from the magnet: "
                       "add a stack of two or a checker off its sensor")

    def solve(gap: float) -> tuple[float, dict[str, tuple[float, float]]]:
        unit = dict(zip(configs, field(gap, configs)))
        total, lines = 0.0, {}
        for name, rs in by_sensor.items():
            xs = [unit[(r.offset_mm, r.stack)] if r.stack else 0.0 for r in rs]
            if max(xs) - min(xs) < 1e-9:
                raise FitError(f"sensor {name} needs readings of two different fields (no checker near it, and a checker)")
            a, b, sq = _line(xs, [r.counts for r in rs])
            total += sq
            lines[name] = (b, a)
        return total, lines

    lo, hi = GAP_RANGE
    golden = (math.sqrt(5) - 1) / 2
    a, b = lo, hi
    c, d = b - golden * (b - a), a + golden * (b - a)
    fc, fd = solve(c)[0], solve(d)[0]
    while b - a > 0.002:
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - golden * (b - a)
            fc = solve(c)[0]
        else:
            a, c, fc = c, d, fd
            d = a + golden * (b - a)
            fd = solve(d)[0]
    gap = (a + b) / 2
    total, lines = solve(gap)
    rms_mt = math.sqrt(total / len(readings)) / counts_per_mt
    if rms_mt > NOISE_LIMIT * noise_mt or not lo + 0.05 < gap < hi - 0.05:
        raise FitError(f"no gap from {lo:g} to {hi:g} mm and no magnet explain these readings "
                       f"(they scatter {rms_mt:.2f} mT about the best fit, the sensor {noise_mt:g} mT): "
                       "check each reading's sensor, position and stack")
    scale = sum(slope for slope, _ in lines.values()) / len(lines)
    if scale <= 0:
        raise FitError("the readings fall where a north-up checker should raise them: is the magnet upside down?")
    sensors = {name: (slope / scale, offset) for name, (slope, offset) in lines.items()}
    for name, (gain, _) in sensors.items():
        if not GAIN_RANGE[0] <= gain <= GAIN_RANGE[1]:
            raise FitError(f"sensor {name} reads {gain:.2f} times the others' field: check its part and its solder")
    return Fit(scale / counts_per_mt, gap, sensors, rms_mt)


__all__ = ["GAP_RANGE", "GAIN_RANGE", "MAX_READINGS", "NOISE_LIMIT", "Field", "Fit", "FitError", "Reading", "fit",
           "parse_readings"]
