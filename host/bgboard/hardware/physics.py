"""The sensing physics of the board (pure): checker, magnet, gap, sensor, slot pitch, and
what a sensor reads for any placement of checkers.

The design is ``hardware/sensing.toml`` (:func:`parse_design`): a checker carries an array of
stock discs, one on its axis and hexagonal rings round it (:func:`magnet_centres`).  The field
itself is computed by magpylib in :mod:`bgboard.hardware.magnets` (the adapter, the only
importer of magpylib) into a :class:`FieldTable` — the axial field ``Bz`` of one checker's
magnets at a lateral offset ``r`` from the sensor, averaged over the directions round it, and
``level`` checkers up a stack — which
``hardware/make_field.py`` writes to ``field_table.json`` beside this module.  Everything
else here only reads that table: a placement's field is the sum over its magnets
(:func:`field_mt`), a reading in *checker units* is that field over a centred checker's
(``units``), and the firmware's thresholds (``PRESENT``, the stack level) say what it reads
as (:func:`reads_as`).  :func:`disc_on_axis_mt` is the textbook closed form the magpylib
numbers are checked against.

Signs: a north-up (white) magnet gives ``Bz > 0`` at the sensor under it (its south face
faces the sensor's branded side: the DRV5055's output rises); a south-up (black) one
``Bz < 0``.  Lengths in mm, fields in mT.
"""

from __future__ import annotations

import json
import math
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from bgboard.errors import InputError
from bgboard.hardware.magnet_grades import GRADE_TABLE

HERE = Path(__file__).resolve().parent
TABLE_FILE = HERE / "field_table.json"

#: Remanent polarisation J (tesla) of common grades (the makers' typical Br, with the rest of
#: each grade's figures and their sources in :mod:`bgboard.hardware.magnet_grades`).  N35's
#: 1.19 T is the value of issue 22's table; N38 is the design's stock discs' grade; Y30 is
#: anisotropic sintered ferrite, Y10T isotropic sintered ferrite (the pressed disc before them).
GRADES: Mapping[str, float] = {name: g.br_t for name, g in GRADE_TABLE.items()}


@dataclass(frozen=True, slots=True)
class Sensor:
    """A DRV5055 variant at 3.3 V: sensitivity, linear range and noise (TI datasheet
    SBAS640: 60/30/15/7.5 mV/mT and ±22/44/88/176 mT at VCC = 3.3 V).

    ``noise_mt`` is the design's allowance for the noise of *one ADC conversion* (RMS, in mT
    at the sensor), the sensor's and the ADC's together: the DRV5055's input-referred noise
    density at 3.3 V is 215 nT/√Hz over its 20 kHz sensing bandwidth (SBAS640, "Magnetic
    Characteristics"; about 0.2 mT peak to peak), 0.030 mT RMS; the RP2040's ADC has an ENOB
    of 8.7 bits (RP2040 datasheet, section 4.9, "ADC"), an 8.7-bit converter's quantisation
    noise over the 3.3 V range, 2.3 mV RMS, is 0.038 mT at the A1's 60 mV/mT; together
    0.049 mT, and the allowance doubles it (supply ripple, the multiplexer).  The firmware
    reads :data:`ADC_SAMPLES` conversions a sensor and keeps their mean:
    :func:`reading_noise_mt` is a reading's noise."""

    name: str
    mv_per_mt: float
    range_mt: float
    noise_mt: float


SENSORS: Mapping[str, Sensor] = {
    "DRV5055A1": Sensor("DRV5055A1", 60.0, 22.0, 0.1),
    "DRV5055A2": Sensor("DRV5055A2", 30.0, 44.0, 0.1),
    "DRV5055A3": Sensor("DRV5055A3", 15.0, 88.0, 0.1),
    "DRV5055A4": Sensor("DRV5055A4", 7.5, 176.0, 0.1),
}

#: Conversions the firmware averages into one reading of a sensor (firmware/scan.py, written
#: to firmware/board.py as ADC_SAMPLES).  Four: a power of two (the mean is a shift), half
#: the noise, and 828 more conversions a scan at 2 µs each (the RP2040's ADC: 96 cycles of
#: its 48 MHz clock, 500 kS/s; RP2040 datasheet, section 4.9).
ADC_SAMPLES = 4


def reading_noise_mt(sensor: Sensor, samples: int = ADC_SAMPLES) -> float:
    """The noise allowance (RMS, mT) of one firmware reading, the mean of ``samples``
    conversions: ``sensor.noise_mt / sqrt(samples)``.  The conversions' noise is independent
    from one to the next: the ADC's is, and the DRV5055's stays alike only for about
    1/(2π·20 kHz) = 8 µs, while the scan takes a sensor's samples three conversions apart
    (firmware/scan.py goes round the three ADC inputs).  Were the sensor's part wholly alike
    across the four, the datasheet figures would still give a mean of 0.036 mT, under this
    allowance's 0.05 mT (firmware/README.md, "Averaging the ADC")."""
    return sensor.noise_mt / math.sqrt(samples)

# The firmware's classifier (firmware/classify.py), in checker units.
PRESENT = 0.5
HYSTERESIS = 0.08
#: Around a stack level's threshold: 2.5 times one conversion's noise allowance on the 28 mm
#: disc before the array (0.1 mT = 0.016 of its checker), five times a reading's (the mean of
#: ADC_SAMPLES conversions: 0.05 mT); on the array, whose field is weaker, 0.05 mT is 0.021 of a
#: checker, twice a reading's noise (the debouncer wants 4 identical scans); no more, because one
#: checker and a stack of two set down a player's few millimetres off their sensor come within
#: 0.20 of the level-2 threshold on the array (:attr:`Response.stack_band`).
LEVEL_HYSTERESIS = 0.04
#: The stack heights the table covers (a place never holds more than 15 of one colour).
MAX_STACK = 15
#: How far off its nearest sensor a checker's centre lies in nine placements of ten: the
#: 90th percentile of the simulator's players' scatter (bgboard.sim.placement.Scatter, two
#: sensors per slot: 5.27 mm; tests/sim/test_placement.py recomputes it).  The stack levels'
#: thresholds are set over this band of offsets, not on the centred checker alone: an array
#: of small magnets peaks over its middle disc, so a stack set down a few millimetres off its
#: sensor reads well under a centred one (hardware/README.md, "Stock discs in an array").
PLACEMENT_MM = 5.25


#: The most hexagonal rings of discs a design may have (4 rings: 61 discs).
MAX_RINGS = 4


class DesignError(InputError):
    """A sensing design that cannot be built or read (one sentence naming the value)."""


@dataclass(frozen=True, slots=True)
class Design:
    """Checker, magnet, gap and sensor: everything the field at a sensor depends on."""

    checker_diameter_mm: float
    checker_thickness_mm: float
    magnet_diameter_mm: float
    magnet_thickness_mm: float
    grade: str
    magnet_depth_mm: float
    surface_mm: float
    slot_pitch_mm: float
    base_mm: float
    point_pitch_mm: float
    tip_gap_mm: float
    sensor: Sensor
    supply_v: float = 3.3
    full_scale: int = 65536
    checker_mass_g: float = 12.0
    friction: float = 0.3
    #: The magnet's polarisation as a measured strip gave it (``bgboard hardware fit``), which
    #: then replaces the one computed from its grade (:mod:`bgboard.hardware.magnets`).
    measured_polarization_t: float | None = None
    #: Hexagonal rings of discs round the one on the checker's axis (0: that disc alone; 1: 7
    #: discs; 2: 19), ``magnet_spacing_mm`` apart (:func:`magnet_centres`).
    magnet_rings: int = 0
    magnet_spacing_mm: float = 0.0

    @property
    def magnet_count(self) -> int:
        """How many discs a checker carries."""
        return 1 + 3 * self.magnet_rings * (self.magnet_rings + 1)

    @property
    def magnet_width_mm(self) -> float:
        """Across the checker's magnets (the outer discs' outer edges)."""
        return 2 * self.magnet_rings * self.magnet_spacing_mm + self.magnet_diameter_mm

    @property
    def weight_mn(self) -> float:
        """A checker's weight in mN (with its magnet)."""
        return self.checker_mass_g * 9.81

    @property
    def polarization_t(self) -> float:
        """The magnet's remanent polarisation J in tesla (its grade's remanence; the field is
        computed at its working point, a little lower: :mod:`bgboard.hardware.magnets`)."""
        return GRADES[self.grade]

    @property
    def recoil_permeability(self) -> float:
        """The magnet's recoil permeability (its grade's nominal)."""
        return GRADE_TABLE[self.grade].mu_rec_nominal

    @property
    def gap_mm(self) -> float:
        """Sensor element to the lowest magnet's bottom face."""
        return self.surface_mm + self.magnet_depth_mm

    @property
    def counts_per_mt(self) -> float:
        """ADC counts (``read_u16`` scale) per mT of field at the sensor."""
        return self.sensor.mv_per_mt * self.full_scale / (self.supply_v * 1000.0)

    def key(self) -> dict[str, float | str]:
        """What the field table depends on (to tell a stale table)."""
        key: dict[str, float | str] = {
            "magnet_diameter_mm": self.magnet_diameter_mm,
            "magnet_thickness_mm": self.magnet_thickness_mm,
            "polarization_t": self.polarization_t,
            "recoil_permeability": self.recoil_permeability,
            "gap_mm": round(self.gap_mm, 6),
            "checker_thickness_mm": self.checker_thickness_mm,
            "magnet_rings": self.magnet_rings,
            "magnet_spacing_mm": self.magnet_spacing_mm,
        }
        if self.measured_polarization_t is not None:
            key["measured_polarization_t"] = self.measured_polarization_t
        return key

    def with_options(
        self,
        magnet: tuple[float, float] | None = None,
        grade: str | None = None,
        gap_mm: float | None = None,
        sensor: str | None = None,
        rings: int | None = None,
        spacing_mm: float | None = None,
    ) -> "Design":
        """This design with another magnet (diameter, thickness), grade, gap or sensor, or
        its discs in another array (``rings`` round the axis disc, ``spacing_mm`` apart)."""
        d = self
        values: dict[str, Any] = {f: getattr(d, f) for f in d.__slots__}  # type: ignore[attr-defined]
        if magnet is not None:
            values["magnet_diameter_mm"], values["magnet_thickness_mm"] = magnet
        if grade is not None:
            values["grade"] = grade
        if gap_mm is not None:
            values["surface_mm"] = gap_mm - d.magnet_depth_mm
        if rings is not None:
            values["magnet_rings"] = rings
        if spacing_mm is not None:
            values["magnet_spacing_mm"] = spacing_mm
        if sensor is not None:
            if sensor not in SENSORS:
                raise DesignError(f"--sensor {sensor} is not one of {', '.join(SENSORS)}")
            values["sensor"] = SENSORS[sensor]
        new = Design(**values)
        check_design(new)
        return new


def _number(table: Any, section: str, key: str, low: float, high: float) -> float:
    value = table.get(key) if isinstance(table, dict) else None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise DesignError(f"sensing.toml needs {section}.{key} between {low:g} and {high:g}")
    return float(value)


def check_design(d: Design) -> None:
    """Raise :class:`DesignError` if ``d`` cannot be built (magnet wider than the checker...)."""
    if d.grade not in GRADES:
        raise DesignError(f"magnet grade {d.grade} is not one of {', '.join(GRADES)}")
    if not 1.0 <= d.magnet_diameter_mm <= d.checker_diameter_mm - 2.0:
        raise DesignError(
            f"a {d.magnet_diameter_mm:g} mm magnet does not fit a {d.checker_diameter_mm:g} mm checker (1 mm wall at least)")
    if not 0 <= d.magnet_rings <= MAX_RINGS:
        raise DesignError(f"magnet.rings must be a whole number from 0 to {MAX_RINGS}, not {d.magnet_rings}")
    if d.magnet_rings and d.magnet_spacing_mm < d.magnet_diameter_mm:
        raise DesignError(
            f"{d.magnet_diameter_mm:g} mm discs {d.magnet_spacing_mm:g} mm apart overlap (magnet.spacing_mm must be at least their diameter)")
    if d.magnet_width_mm > d.checker_diameter_mm - 2.0:
        raise DesignError(
            f"an array of {d.magnet_count} discs {d.magnet_width_mm:g} mm across does not fit a {d.checker_diameter_mm:g} mm checker (1 mm wall at least)")
    if not 0.2 <= d.magnet_thickness_mm <= d.checker_thickness_mm - d.magnet_depth_mm:
        raise DesignError(f"a {d.magnet_thickness_mm:g} mm thick magnet does not fit a {d.checker_thickness_mm:g} mm checker")
    if not 0.5 <= d.gap_mm <= 30.0:
        raise DesignError(f"a gap of {d.gap_mm:g} mm is not between 0.5 and 30 mm")


def _rings(magnet: Any) -> int:
    value = magnet.get("rings", 0) if isinstance(magnet, dict) else 0
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_RINGS:
        raise DesignError(f"sensing.toml needs magnet.rings a whole number from 0 to {MAX_RINGS}")
    return value


def parse_design(text: str) -> Design:
    """The design of sensing.toml text, checked."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DesignError(f"sensing.toml is not valid TOML ({exc})") from None
    checker, magnet, board = data.get("checker"), data.get("magnet"), data.get("board")
    sensor, adc = data.get("sensor"), data.get("adc")
    grade = magnet.get("grade") if isinstance(magnet, dict) else None
    if grade not in GRADES:
        raise DesignError(f"sensing.toml needs magnet.grade, one of {', '.join(GRADES)}")
    name = sensor.get("name") if isinstance(sensor, dict) else None
    if name not in SENSORS:
        raise DesignError(f"sensing.toml needs sensor.name, one of {', '.join(SENSORS)}")
    rings = _rings(magnet)
    design = Design(
        checker_diameter_mm=_number(checker, "checker", "diameter_mm", 15, 60),
        checker_thickness_mm=_number(checker, "checker", "thickness_mm", 2, 20),
        magnet_diameter_mm=_number(magnet, "magnet", "diameter_mm", 1, 58),
        magnet_thickness_mm=_number(magnet, "magnet", "thickness_mm", 0.2, 15),
        grade=str(grade),
        magnet_depth_mm=_number(magnet, "magnet", "depth_mm", 0, 10),
        surface_mm=_number(board, "board", "surface_mm", 0.5, 30),
        slot_pitch_mm=_number(board, "board", "slot_pitch_mm", 15, 80),
        base_mm=_number(board, "board", "base_mm", 5, 60),
        point_pitch_mm=_number(board, "board", "point_pitch_mm", 15, 80),
        tip_gap_mm=_number(board, "board", "tip_gap_mm", 15, 400),
        sensor=SENSORS[str(name)],
        supply_v=_number(sensor, "sensor", "supply_v", 3.0, 3.6),
        full_scale=int(_number(adc, "adc", "full_scale", 4096, 65536)),
        checker_mass_g=_number(checker, "checker", "mass_g", 1, 100),
        friction=_number(checker, "checker", "friction", 0.05, 1.0),
        measured_polarization_t=(_number(magnet, "magnet", "measured_polarization_t", 0.01, 2.0)
                                 if isinstance(magnet, dict) and "measured_polarization_t" in magnet else None),
        magnet_rings=rings,
        magnet_spacing_mm=(_number(magnet, "magnet", "spacing_mm", 1, 30) if rings else
                           _number(magnet, "magnet", "spacing_mm", 0, 30) if isinstance(magnet, dict) and "spacing_mm" in magnet else 0.0),
    )
    check_design(design)
    return design


def load_design(path: str | Path | None = None) -> Design:
    """The design of ``sensing.toml`` (default: the one shipped beside this module)."""
    p = Path(path) if path else HERE / "sensing.toml"
    try:
        return parse_design(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise DesignError(f"cannot read {p} ({exc.strerror or exc}): reinstall bgboard") from None


def hex_centres(rings: int, spacing_mm: float) -> tuple[tuple[float, float], ...]:
    """The centres (mm) of a hexagonal array: one on the axis first, then ``rings`` rings round
    it (ring k: 6k centres on a hexagon k spacings out, its corners at 0, 60 ... 300°)."""
    out = [(0.0, 0.0)]
    for k in range(1, rings + 1):
        for side in range(6):
            a0, a1 = math.radians(60 * side), math.radians(60 * (side + 1))
            for j in range(k):
                f = j / k
                out.append((k * spacing_mm * ((1 - f) * math.cos(a0) + f * math.cos(a1)),
                            k * spacing_mm * ((1 - f) * math.sin(a0) + f * math.sin(a1))))
    return tuple(out)


def magnet_centres(design: Design) -> tuple[tuple[float, float], ...]:
    """Where a checker's discs sit (mm from its axis), the first on the axis."""
    return hex_centres(design.magnet_rings, design.magnet_spacing_mm)


# ---------------------------------------------------------------------- closed form
def disc_on_axis_mt(polarization_t: float, diameter_mm: float, thickness_mm: float, distance_mm: float) -> float:
    """Bz on the axis of an axially magnetised disc, ``distance_mm`` from its near face
    (the textbook closed form: Bz = J/2 · [(z+T)/√((z+T)²+R²) − z/√(z²+R²)]), in mT."""
    r, z, t = diameter_mm / 2, distance_mm, thickness_mm
    return 500.0 * polarization_t * ((z + t) / math.hypot(z + t, r) - z / math.hypot(z, r))


# ---------------------------------------------------------------------- the table
@dataclass(frozen=True)
class FieldTable:
    """Bz (mT) under one north-up magnet ``level`` checkers up a stack (0 = on the board),
    at lateral offsets ``0, step, 2·step ...`` mm from the sensor (the disc is axially
    symmetric, so the offset's direction does not matter)."""

    step_mm: float
    bz: tuple[tuple[float, ...], ...]  # bz[level][i]
    design_key: Mapping[str, Any]
    source: str

    @property
    def reach_mm(self) -> float:
        """Beyond this offset the table says 0 (the field there is under 1 % of the threshold:
        :data:`bgboard.hardware.magnets.REACH_MM`)."""
        return self.step_mm * (len(self.bz[0]) - 1)

    def at(self, level: int, offset_mm: float) -> float:
        """Bz (mT) of a magnet ``level`` up at ``offset_mm`` (linear interpolation)."""
        row = self.bz[level]
        x = abs(offset_mm) / self.step_mm
        i = int(x)
        if i >= len(row) - 1:
            return 0.0
        f = x - i
        return row[i] * (1 - f) + row[i + 1] * f

    def to_json(self) -> str:
        return json.dumps(
            {"source": self.source, "design": dict(self.design_key), "step_mm": self.step_mm,
             "bz_mt": [list(r) for r in self.bz]}, indent=None, separators=(",", ":")) + "\n"

    @classmethod
    def from_json(cls, text: str) -> "FieldTable":
        try:
            data = json.loads(text)
            rows = tuple(tuple(float(v) for v in r) for r in data["bz_mt"])
            table = cls(float(data["step_mm"]), rows, dict(data["design"]), str(data["source"]))
        except (ValueError, KeyError, TypeError):
            raise DesignError("field_table.json is not a field table: run python3 hardware/make_field.py") from None
        if len(rows) != MAX_STACK or len({len(r) for r in rows}) != 1 or table.step_mm <= 0:
            raise DesignError("field_table.json is not a field table: run python3 hardware/make_field.py")
        return table


def load_table(design: Design | None = None, path: Path = TABLE_FILE) -> FieldTable:
    """The committed field table; with ``design``, checked to be the table of that design."""
    try:
        table = FieldTable.from_json(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise DesignError(f"cannot read {path} ({exc.strerror or exc}): run python3 hardware/make_field.py") from None
    if design is not None and dict(table.design_key) != design.key():
        raise DesignError("field_table.json is not the table of sensing.toml: run python3 hardware/make_field.py")
    return table


# ---------------------------------------------------------------------- what it reads as
@dataclass(frozen=True, slots=True)
class Magnet:
    """One checker's magnet: centre ``(x, y)`` in mm on the board, ``level`` up a stack,
    ``sign`` +1 north-up (white) or -1 south-up (black)."""

    x: float
    y: float
    level: int
    sign: int


def field_mt(table: FieldTable, sensor_x: float, sensor_y: float, magnets: Sequence[Magnet]) -> float:
    """Bz at a sensor from every magnet on the board (the fields add)."""
    total = 0.0
    reach = table.reach_mm
    for m in magnets:
        dx, dy = m.x - sensor_x, m.y - sensor_y
        if abs(dx) >= reach or abs(dy) >= reach:
            continue
        total += m.sign * table.at(m.level, math.hypot(dx, dy))
    return total


@dataclass(frozen=True, slots=True)
class Response:
    """A design's numbers the firmware, the simulator and the host use (from the table)."""

    b0_mt: float  # one checker centred on its sensor
    swing: int  # its ADC counts from half scale (the firmware's default SWING)
    stack_units: tuple[float, ...]  # k = 1..MAX_STACK stacked and centred, in checker units
    #: (least, most) field of k = 1..MAX_STACK stacked checkers whose centre lies anywhere
    #: within PLACEMENT_MM of the sensor, in checker units
    stack_band: tuple[tuple[float, float], ...]
    pin_residual: float  # a black checker on a white one (Plakoto pin), in checker units
    range_units: float  # the sensor's linear range, in checker units

    @property
    def stack_gain(self) -> float:
        """What the second checker of a stack adds, in checker units."""
        return self.stack_units[1] - 1.0

    @property
    def threshold_mt(self) -> float:
        """The field from which a slot reads occupied (half a centred checker's)."""
        return PRESENT * self.b0_mt

    def stack_threshold(self) -> float:
        """The level-2 ("a stack") threshold in checker units, as the firmware computes it
        from the generated constants (firmware/classify.py: 1 + gain · shape / 1000)."""
        return 1.0 + self.stack_gain * level_shape(self)[0] / 1000


def response(design: Design, table: FieldTable) -> Response:
    """The design's :class:`Response`."""
    b0 = table.at(0, 0.0)
    if b0 <= 0:
        raise DesignError("the field table gives no field under a checker")
    units = []
    total = 0.0
    for k in range(MAX_STACK):
        total += table.at(k, 0.0)
        units.append(total / b0)
    return Response(
        b0_mt=b0,
        swing=round(b0 * design.counts_per_mt),
        stack_units=tuple(units),
        stack_band=stack_band(table),
        pin_residual=(table.at(0, 0.0) - table.at(1, 0.0)) / b0,
        range_units=design.sensor.range_mt / b0,
    )


def stack_band(table: FieldTable, within_mm: float = PLACEMENT_MM, step_mm: float = 0.25) -> tuple[tuple[float, float], ...]:
    """For k = 1..MAX_STACK stacked checkers, the least and the most field (checker units: a
    centred checker's is 1) that they give a sensor with their centre anywhere from 0 to
    ``within_mm`` off it."""
    b0 = table.at(0, 0.0)
    offsets = [i * step_mm for i in range(int(round(within_mm / step_mm)) + 1)]
    totals = [0.0] * len(offsets)
    out = []
    for k in range(MAX_STACK):
        totals = [t + table.at(k, r) / b0 for t, r in zip(totals, offsets)]
        out.append((min(totals), max(totals)))
    return tuple(out)


#: The firmware's highest stack level (firmware/classify.py MAX_LEVEL).
MAX_LEVEL = 7
#: Two stack heights are told apart only if their fields differ by this much (checker
#: units): the sensors' calibration spread and the noise are a few hundredths, a leaning
#: stack loses a tenth.
LEVEL_SEPARATION = 0.25


def level_shape(resp: Response) -> tuple[int, ...]:
    """The firmware's stack-level thresholds for levels 2..MAX_LEVEL, as thousandths of the
    stack gain: level L from ``1 + gain · shape[L-2] / 1000`` checker units — the midpoint
    between the most field L-1 stacked checkers give their sensor and the least L give it,
    their centre anywhere within :data:`PLACEMENT_MM` of it (:attr:`Response.stack_band`; a
    wide disc's field is flat there and this is the centred midpoint give or take 0.02).  A
    level whose centred field is closer than :data:`LEVEL_SEPARATION` to the one below cannot
    be told and gets 0 (never reached): the top level reached means "that many or more"."""
    out: list[int] = []
    u = resp.stack_units
    band = resp.stack_band
    for level in range(2, MAX_LEVEL + 1):
        told = not out or out[-1] != 0
        if told and u[level - 1] - u[level - 2] >= LEVEL_SEPARATION:
            out.append(round(((band[level - 2][1] + band[level - 1][0]) / 2 - 1) / resp.stack_gain * 1000))
        else:
            out.append(0)
    return tuple(out)


def reads_as(units: float, resp: Response) -> str:
    """What the firmware makes of a field of ``units`` (signed checker units) read from
    empty: "empty", "white"/"black" (one checker), "white stack"/"black stack" (two or
    more: how many, physics cannot tell), or "out of range" (the sensor clips)."""
    if abs(units) >= resp.range_units:
        return "out of range"
    if abs(units) < PRESENT + HYSTERESIS:
        return "empty"
    colour = "white" if units > 0 else "black"
    if abs(units) >= resp.stack_threshold() + LEVEL_HYSTERESIS:
        return f"{colour} stack"
    return colour


def single_tolerance_mm(design: Design, table: FieldTable, step: float = 0.5) -> float:
    """How far off its sensor (any direction) one checker may lie and still read as one
    checker there, while the next sensor along (one slot pitch away) still reads empty."""
    b0 = table.at(0, 0.0)
    x = 0.0
    while x + step <= design.slot_pitch_mm / 2:
        nxt = x + step
        here = table.at(0, nxt) / b0
        other = table.at(0, design.slot_pitch_mm - nxt) / b0
        if not (PRESENT + HYSTERESIS <= here and abs(other) < PRESENT - HYSTERESIS):
            break
        x = nxt
    return x


def pin_sits(design: Design, sideways_mn: float, up_mn: float) -> bool:
    """Whether a Plakoto pinner stays where it is set on the pinned checker, given the
    magnets' force on it (:func:`bgboard.hardware.magnets.pin_forces_mn`): it is not lifted
    (the upward push is less than half its weight, a margin for a jolted board) and the
    sideways push is less than what friction holds with the weight that is left."""
    weight = design.weight_mn
    return up_mn < weight / 2 and abs(sideways_mn) < design.friction * (weight - up_mn)


def crowd(design: Design, x: float, colour: int, side: int) -> list[Magnet]:
    """The checkers around one of ``colour`` lying ``x`` mm along its point from its sensor
    (at 0, 0) on a full board: its own row's neighbours touching it (same colour), and the
    rows of both neighbouring points (``side``'s colour) on their slots."""
    d, w = design.checker_diameter_mm, design.point_pitch_mm
    row = [Magnet(x - d, 0.0, 0, colour), Magnet(x + d, 0.0, 0, colour)]
    return row + [Magnet(a, b, 0, side) for a in (-d, 0.0, d) for b in (-w, w)]


def crowded_tolerance_mm(design: Design, table: FieldTable, step: float = 0.5) -> float:
    """:func:`single_tolerance_mm` with the board crowded around the checker (:func:`crowd`,
    either colour on the neighbouring points): what a player may rely on anywhere."""
    b0 = table.at(0, 0.0)
    stack = response(design, table).stack_threshold()
    x = 0.0
    while x + step <= single_tolerance_mm(design, table, step):
        nxt = x + step
        ok = True
        for side in (1, -1):
            units = field_mt(table, 0.0, 0.0, [Magnet(nxt, 0.0, 0, 1)] + crowd(design, nxt, 1, side)) / b0
            ok = ok and PRESENT + HYSTERESIS <= units < stack - LEVEL_HYSTERESIS
        if not ok:
            break
        x = nxt
    return x


__all__ = [
    "ADC_SAMPLES", "reading_noise_mt",
    "GRADES", "HYSTERESIS", "LEVEL_HYSTERESIS", "LEVEL_SEPARATION", "MAX_LEVEL", "MAX_RINGS", "MAX_STACK", "PLACEMENT_MM", "PRESENT", "SENSORS",
    "TABLE_FILE",
    "Design", "DesignError", "FieldTable", "Magnet", "Response", "Sensor",
    "check_design", "crowd", "crowded_tolerance_mm", "disc_on_axis_mt", "field_mt", "hex_centres", "level_shape", "load_design", "load_table", "magnet_centres", "parse_design",
    "pin_sits", "reads_as", "response", "single_tolerance_mm", "stack_band",
]
