"""``bgboard hardware field``: what a sensor reads, for a builder — computed with magpylib;
``bgboard hardware fit``: the model fitted to a measured strip.

    bgboard hardware field [--magnet DxT] [--rings R --spacing-mm S] [--grade N35] [--gap-mm G] [--sensor DRV5055A4] [--json]
    bgboard hardware fit READINGS.csv [--json]

For the design as built (hardware/sensing.toml: an array of discs), or with another magnet
(one disc, diameter x thickness in mm; with ``--rings`` an array of them: that many hexagonal
rings round one on the checker's axis, ``--spacing-mm`` apart), grade, gap (sensor element to
the lowest magnet's bottom face, mm) or DRV5055 variant: the field ``bz_mt`` at a sensor of a stack of 1 to 5 checkers lying
``offset_mm`` off it (0 to the design's tolerance), and what the firmware reads it as.
``--json`` prints ``{"magnet": {"diameter_mm", "thickness_mm", "count", "rings", "spacing_mm",
"polarization_t", "working_polarization_t"}, "checker_thickness_mm", "gap_mm", "sensor": {"name", "mv_per_mt",
"range_mt"}, "threshold_mt", "slot_pitch_mm", "max_offset_mm", "working_point": {"case",
"inner_field_ka_m", "worst_c", "margin"}, "samples": [{"stack", "offset_mm", "bz_mt",
"reads_as"}]}``.  ``max_offset_mm`` is how far off its sensor one checker may lie on a
crowded board and still read as one (hardware/README.md, "Sensing physics");
``working_point`` is the magnet's worst case (its own field and its neighbours' in a stack,
a pin or a crowded row) against its grade's HcJ over -20...60 °C: ``margin`` below 0.10 is
a magnet that may lose its field (hardware/README.md, "Magnets that keep their field").

Needs the hardware extra (magpylib): without it the command says so in one sentence.
"""

from __future__ import annotations

import argparse
import json
import math
import re

from bgboard.errors import InputError
from bgboard.hardware.magnet_grades import GRADE_TABLE, worst_margin
from bgboard.hardware.physics import (
    GRADES,
    MAX_RINGS,
    SENSORS,
    Design,
    crowded_tolerance_mm,
    load_design,
    reads_as,
    response,
)

STACKS = (1, 2, 3, 4, 5)


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "hardware",
        help="the board's sensing physics (what a sensor reads)",
        description="The board as built: what a hall sensor reads for stacks of checkers off its centre.",
    )
    sub = parser.add_subparsers(dest="what", required=True, metavar="field|fit")
    field = sub.add_parser(
        "field",
        help="what a sensor reads for stacks of 1-5 at offsets up to the design's tolerance",
        description="Compute (magpylib) what a sensor reads for stacks of 1 to 5 checkers at "
        "offsets from 0 to the design's tolerance, for the design as built or another magnet, "
        "grade, gap or sensor.",
    )
    field.add_argument("--magnet", metavar="DxT", help="magnet diameter x thickness in mm, like 30x1")
    field.add_argument("--rings", metavar="R", help="hexagonal rings of discs round the one on the axis (0: one disc)")
    field.add_argument("--spacing-mm", metavar="S", help="the discs' spacing in the rings, mm")
    field.add_argument("--grade", metavar="GRADE", help=f"magnet grade: {', '.join(GRADES)}")
    field.add_argument("--gap-mm", metavar="G", help="sensor element to the magnet's bottom face, mm")
    field.add_argument("--sensor", metavar="NAME", help=f"sensor: {', '.join(SENSORS)}")
    field.add_argument("--json", action="store_true", help="print one JSON object")
    fitting = sub.add_parser(
        "fit",
        help="fit the sensing model to a measured strip's readings",
        description="Fit the magnet's polarisation, the gap and each sensor's gain and offset to "
        "readings at known positions and stack heights (a CSV: sensor,offset_mm,stack,counts; "
        "hardware/prototype.md), or say in one sentence why no gap and magnet explain them.",
    )
    fitting.add_argument("readings", metavar="READINGS.csv", help="the readings")
    fitting.add_argument("--json", action="store_true", help="print one JSON object")
    fitting.add_argument("--out", metavar="DIR", help="write the measured board's sensing.toml and field_table.json here")
    return parser


def parse_magnet(text: str) -> tuple[float, float]:
    """``"30x1"`` (or ``30×1``, ``30X1.5``) -> (30.0, 1.0); one sentence otherwise."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*[xX×]\s*(\d+(?:\.\d+)?)\s*", text)
    if not m:
        raise InputError(f"--magnet {text[:40]!r} is not a diameter x thickness in mm, like 30x1")
    return float(m.group(1)), float(m.group(2))


def _millimetres(option: str, text: str, low: float, high: float) -> float:
    """``text`` as millimetres from ``low`` to ``high``; one sentence naming ``option`` otherwise."""
    try:
        value = float(text)
    except ValueError:
        raise InputError(f"{option} {text[:40]!r} is not a number of millimetres") from None
    if not math.isfinite(value) or not low <= value <= high:
        raise InputError(f"{option} {text[:40]} is not between {low:g} and {high:g} mm")
    return value


def parse_gap(text: str) -> float:
    return _millimetres("--gap-mm", text, 0.5, 30)


def parse_rings(text: str | None) -> int | None:
    if text is None:
        return None
    if not re.fullmatch(r"\s*\d{1,2}\s*", text) or int(text) > MAX_RINGS:
        raise InputError(f"--rings {text[:40]!r} is not a whole number from 0 to {MAX_RINGS}")
    return int(text)


def parse_spacing(text: str | None) -> float | None:
    return None if text is None else _millimetres("--spacing-mm", text, 1, 30)


def design_of(args: argparse.Namespace) -> Design:
    """The design as built with the command line's changes (checked): ``--magnet`` alone is one
    disc of that size; with ``--rings``, an array of them."""
    if args.grade is not None and args.grade not in GRADES:
        raise InputError(f"--grade {args.grade[:40]} is not one of {', '.join(GRADES)}")
    if args.sensor is not None and args.sensor not in SENSORS:
        raise InputError(f"--sensor {args.sensor[:40]} is not one of {', '.join(SENSORS)}")
    rings, spacing = parse_rings(getattr(args, "rings", None)), parse_spacing(getattr(args, "spacing_mm", None))
    if rings is None and args.magnet is not None:
        rings = 0
    return load_design().with_options(
        magnet=parse_magnet(args.magnet) if args.magnet is not None else None,
        grade=args.grade,
        gap_mm=parse_gap(args.gap_mm) if args.gap_mm is not None else None,
        sensor=args.sensor,
        rings=rings,
        spacing_mm=spacing,
    )


def field_report(design: Design) -> dict:
    """The JSON object of ``bgboard hardware field`` for ``design`` (magpylib)."""
    from bgboard.hardware import magnets

    table = magnets.compute_table(design)
    resp = response(design, table)
    tolerance = crowded_tolerance_mm(design, table)
    offsets = [float(x) for x in range(0, int(tolerance) + 1)]
    if tolerance > offsets[-1]:
        offsets.append(tolerance)
    samples = []
    for stack in STACKS:
        values = [magnets.bz_mt(design, [0.0], stack=stack, offset_mm=x)[0] for x in offsets]
        for x, bz in zip(offsets, values):
            samples.append({"stack": stack, "offset_mm": x, "bz_mt": round(bz, 2),
                            "reads_as": reads_as(bz / resp.b0_mt, resp)})
    # the tolerance holds only as far as every one-checker row reads one checker (a field the
    # sensor cannot measure, "out of range", reads as nothing the firmware can use)
    ones = [x for x in samples if x["stack"] == 1]
    wrong = next((x["offset_mm"] for x in ones if x["reads_as"] != "white"), None)
    if wrong is not None:
        tolerance = max((x["offset_mm"] for x in ones if x["offset_mm"] < wrong), default=0.0)
    return {
        "one_checker_reads": wrong != 0.0,
        "magnet": {"diameter_mm": design.magnet_diameter_mm, "thickness_mm": design.magnet_thickness_mm,
                   "count": design.magnet_count, "rings": design.magnet_rings, "spacing_mm": design.magnet_spacing_mm,
                   "polarization_t": design.polarization_t,
                   "working_polarization_t": round(magnets.working_polarization_t(design), 4)},
        "working_point": working_point(design),
        "checker_thickness_mm": design.checker_thickness_mm,
        "gap_mm": round(design.gap_mm, 3),
        "sensor": {"name": design.sensor.name, "mv_per_mt": design.sensor.mv_per_mt,
                   "range_mt": design.sensor.range_mt},
        "threshold_mt": round(resp.threshold_mt, 2),
        "slot_pitch_mm": design.slot_pitch_mm,
        "max_offset_mm": tolerance,
        "samples": samples,
    }


def working_point(design: Design) -> dict:
    """The magnet's worst case of :data:`bgboard.hardware.magnets.NEIGHBOURS` over the
    storage temperatures (magpylib-material-response)."""
    from bgboard.hardware import magnets

    grade = GRADE_TABLE[design.grade]
    worst = None
    for case in magnets.NEIGHBOURS:
        h = magnets.inner_field_ka_m(design, case)
        temp, margin = worst_margin(grade, h)
        if worst is None or margin < worst["margin"]:
            worst = {"case": case, "inner_field_ka_m": round(h, 1), "worst_c": temp, "margin": round(margin, 3)}
    assert worst is not None
    return worst


def text_report(report: dict) -> str:
    m, s, w = report["magnet"], report["sensor"], report["working_point"]
    lines = [
        (f"magnet {m['count']} discs " if m["count"] > 1 else "magnet ")
        + f"{m['diameter_mm']:g} x {m['thickness_mm']:g} mm"
        + (f" {m['spacing_mm']:g} mm apart" if m["count"] > 1 else "") + f", J = {m['polarization_t']:g} T "
        f"({m['working_polarization_t']:g} T at its working point); "
        f"gap {report['gap_mm']:g} mm; {s['name']} ({s['mv_per_mt']:g} mV/mT, ±{s['range_mt']:g} mT)",
        f"worst case {w['case']}: {w['inner_field_ka_m']:g} kA/m inside it; at {w['worst_c']:g} °C its HcJ "
        f"is {w['margin']:+.0%} beyond that" + ("" if w["margin"] >= 0.10 else " (less than 10 %: it may lose its field)"),
        f"reads a checker from {report['threshold_mt']:g} mT; " + (
            f"one checker reads right up to {report['max_offset_mm']:g} mm off its sensor "
            f"(slot pitch {report['slot_pitch_mm']:g} mm)" if report["one_checker_reads"] else
            f"one checker does not read right even on its sensor ({report['samples'][0]['reads_as']}: "
            f"{report['samples'][0]['bz_mt']:g} mT against the sensor's ±{s['range_mt']:g} mT): "
            "a wider gap, a weaker magnet or a sensor of a larger range"),
        f"{'stack':>5} {'offset mm':>9} {'Bz mT':>8}  reads as",
    ]
    for x in report["samples"]:
        lines.append(f"{x['stack']:>5} {x['offset_mm']:>9g} {x['bz_mt']:>8.2f}  {x['reads_as']}")
    return "\n".join(lines)


def fit_report(path: str) -> dict:
    """The JSON object of ``bgboard hardware fit``: the measured board against the design."""
    from pathlib import Path

    from bgboard.hardware import bench_fit, magnets

    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {path[:200]} ({getattr(exc, 'strerror', None) or exc})") from None
    design = load_design()
    readings = bench_fit.parse_readings(text)
    found = bench_fit.fit(readings, lambda gap, configs: magnets.unit_bz_mt(design, gap, configs),
                          design.counts_per_mt, design.sensor.noise_mt)
    # the swing of the design the report writes (its gap and polarisation as rounded there)
    b0 = round(found.polarization_t, 4) * magnets.unit_bz_mt(design, round(found.gap_mm, 2), [(0.0, 1)])[0]
    return {
        "polarization_t": round(found.polarization_t, 4),
        "design_polarization_t": round(magnets.working_polarization_t(design), 4),
        "gap_mm": round(found.gap_mm, 2),
        "design_gap_mm": design.gap_mm,
        "swing": round(b0 * design.counts_per_mt),
        "rms_mt": round(found.rms_mt, 4),
        "sensors": [{"sensor": name, "gain": round(g, 4), "offset_counts": round(o, 1)}
                    for name, (g, o) in sorted(found.sensors.items())],
    }


def measured_sensing(text: str, gap_mm: float, depth_mm: float, polarization_t: float) -> str:
    """sensing.toml ``text`` with the measured gap (its ``[board] surface_mm``) and the
    measured polarisation (``[magnet] measured_polarization_t``)."""
    out, section = [], ""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("["):
            section = stripped
        if section == "[board]" and stripped.startswith("surface_mm"):
            line = f"surface_mm = {gap_mm - depth_mm:.2f}        # measured: bgboard hardware fit"
        if section == "[magnet]" and stripped.startswith("measured_polarization_t"):
            continue
        out.append(line)
        if section == "[magnet]" and stripped.startswith("depth_mm"):
            out.append(f"measured_polarization_t = {polarization_t:.4f}   # measured: bgboard hardware fit")
    return "\n".join(out) + "\n"


def write_measured(report: dict, directory: str) -> None:
    """The measured board's sensing.toml and field table in ``directory`` (copy them over
    hardware/sensing.toml and host/bgboard/hardware/field_table.json, then run
    hardware/make_board.py and hardware/draw_field.py: hardware/prototype.md)."""
    from pathlib import Path

    from bgboard.hardware import magnets
    from bgboard.hardware.physics import HERE, parse_design

    design = load_design()
    text = measured_sensing((HERE / "sensing.toml").read_text(encoding="utf-8"), report["gap_mm"],
                            design.magnet_depth_mm, report["polarization_t"])
    measured = parse_design(text)
    out = Path(directory)
    try:
        out.mkdir(parents=True, exist_ok=True)
        (out / "sensing.toml").write_text(text, encoding="utf-8")
        (out / "field_table.json").write_text(magnets.compute_table(measured).to_json(), encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot write to {directory[:200]} ({exc.strerror or exc})") from None


def fit_text(report: dict) -> str:
    lines = [
        f"magnet J = {report['polarization_t']:g} T (the design's {report['design_polarization_t']:g} T); "
        f"gap {report['gap_mm']:g} mm (the design's {report['design_gap_mm']:g} mm); "
        f"one centred checker {report['swing']} counts; readings scatter {report['rms_mt']:g} mT about the fit",
        f"{'sensor':>8} {'gain':>7} {'offset':>8}",
    ]
    lines += [f"{s['sensor']:>8} {s['gain']:>7.3f} {s['offset_counts']:>8.1f}" for s in report["sensors"]]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from bgboard.hardware import magnets

    magnets.require()  # before anything is computed: what to install, exit 69
    if args.what == "fit":
        found = fit_report(args.readings)
        if args.out is not None:
            write_measured(found, args.out)
        print(json.dumps(found) if args.json else fit_text(found))
        return 0
    report = field_report(design_of(args))
    print(json.dumps(report) if args.json else text_report(report))
    return 0
