"""Every fab file of every bgboard board, by one command (Debian's python3, which has KiCad 6's pcbnew):

    python3 hardware/build.py --out DIR [--skidl-python PYTHON] [--board NAME ...]

1. hardware/circuit.py (SKiDL) writes the netlists, each board's KiCad 6 schematic and its
   ERC report (``erc.txt``); it runs under ``--skidl-python`` (default: this python if it has
   skidl, else the checkout's ``.venv/bin/python``, made by ``pip install -e '.[hardware]'``);
   hardware/erc.py, under the same Python, runs KiCad's own ERC (eeschema, through KiAuto
   under Xvfb) on each schematic (``kicad-erc.txt``), while step 2 runs;
2. hardware/boards.py places and routes each board and runs KiCad's DRC (``NAME-drc.rpt``,
   ``drc.json``);
3. per board, in ``DIR/NAME/``, by KiKit's ``fab jlcpcb``: ``NAME-gerbers.zip`` and ``gerber/``
   (copper, mask, paste, silkscreen, Edge.Cuts, Excellon drill), ``NAME-bom.csv`` and
   ``NAME-cpl.csv`` in JLCPCB's assembly format (one origin for all, the rotations corrected,
   an LCSC and a manufacturer part number on every line), and ``NAME.png`` (the picture hardware/README.md shows, copied to hardware/boards/ with
   ``--pictures``).

Exit 0 when both ERCs and every DRC are clean; 1 otherwise (the reports say why); 2 for bad
arguments or a missing tool, in one sentence.
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

HARDWARE = Path(__file__).resolve().parent
ROOT = HARDWARE.parent
PICTURES = HARDWARE / "boards"


def skidl_python(given: str | None) -> str:
    if given:
        return given
    if importlib.util.find_spec("skidl") is not None:
        return sys.executable
    venv = ROOT / ".venv" / "bin" / "python"
    if venv.exists() and subprocess.run([str(venv), "-c", "import skidl"], capture_output=True).returncode == 0:
        return str(venv)
    raise SystemExit("build.py: no Python with skidl: run `python3 -m venv .venv && .venv/bin/pip install -e '.[hardware]'` "
                     "or pass --skidl-python")


def fab(name: str, work: Path, out: Path, python: str, env: dict[str, str]) -> None:
    """Gerbers, drill files, BOM and CPL of one routed board, by KiKit's ``fab jlcpcb`` (1.4, the
    last KiKit for KiCad 6) under ``python``: Gerbers, drill files and pick-and-place all count
    from the board's drill-and-place origin (hardware/boards.py puts it at the bottom-left
    corner), rotations corrected by the table hardware/jlcpcb_rotations.csv.  The fab assembles
    the surface-mount parts; the through-hole ones (headers, screw terminal, bulk capacitor,
    button, the Pico) a maker solders, from hardware/bom.csv: hardware/boards.py marks them
    "exclude from position files", which KiKit leaves out of both the CPL and the BOM."""
    from boards import read_netlist  # hardware/ is on sys.path (this script's directory)

    pcb = work / f"{name}.kicad_pcb"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    run = subprocess.run([python, "-m", "kikit.ui", "fab", "jlcpcb", "--no-drc", "--assembly", "--schematic",
                          str(work / "nets" / f"{name}.kicad_sch"), "--field", "LCSC", "--missingError",
                          "--correctionpatterns", str(HARDWARE / "jlcpcb_rotations.csv"),
                          "--nametemplate", name + "-{}", str(pcb), str(out)], env=env, capture_output=True, text=True)
    if run.returncode:
        raise SystemExit(f"build.py: KiKit's fab jlcpcb failed on {name}: {run.stderr.strip()[-400:]}")
    # JLCPCB's BOM with the maker's part number beside the LCSC number, one line per part
    nets = read_netlist(work / "nets" / f"{name}.net")
    bom = out / f"{name}-bom.csv"
    with open(bom, newline="") as f:
        rows = list(csv.reader(f))
    with open(bom, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(rows[0] + ["Manufacturer", "Manufacturer Part", "Quantity"])
        for row in rows[1:]:
            part = nets.parts[row[1].split(",")[0]]
            w.writerow(row + [part["manufacturer"], part["mpn"], len(row[1].split(","))])
    (out / f"{name}-cpl.csv").write_text((out / f"{name}-pos.csv").read_text())
    (out / f"{name}-pos.csv").unlink()
    shutil.copy(work / f"{name}.png", out / f"{name}.png")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="directory for every fab file")
    parser.add_argument("--skidl-python", help="a Python that has skidl (default: see above)")
    parser.add_argument("--board", action="append", help="only this board (repeatable; default: every board)")
    parser.add_argument("--pictures", action="store_true", help="also copy each board's picture to hardware/boards/")
    args = parser.parse_args(argv)
    try:
        import pcbnew  # noqa: F401
    except ImportError:
        print("build.py: this Python has no KiCad pcbnew module: run it with Debian's /usr/bin/python3 after "
              "`apt-get install kicad kicad-footprints kicad-symbols` (tools/test-services does)", file=sys.stderr)
        return 2
    try:
        python = skidl_python(args.skidl_python)
    except SystemExit as exc:
        print(exc, file=sys.stderr)
        return 2
    out: Path = args.out
    work = out / "work"
    nets = work / "nets"
    erc = subprocess.run([python, str(HARDWARE / "circuit.py"), "--out", str(nets)])
    if erc.returncode == 2:  # a grid.toml or pins.toml the boards cannot carry: circuit.py said why
        return 2
    if erc.returncode not in (0, 1) or not (nets / "erc.txt").exists():
        print(f"build.py: hardware/circuit.py failed (exit {erc.returncode})", file=sys.stderr)
        return 1
    shutil.copy(nets / "erc.txt", out / "erc.txt")
    board_args = [a for name in args.board or [] for a in ("--board", name)]
    # KiCad's ERC runs beside the DRC: KiAuto needs pcbnew, which this (Debian's) Python has
    import pcbnew

    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (str(Path(pcbnew.__file__).resolve().parent), os.environ.get("PYTHONPATH", "")) if p))
    kicad_erc = subprocess.Popen([python, str(HARDWARE / "erc.py"), "--nets", str(nets), *board_args], env=env)
    drc = subprocess.run([sys.executable, str(HARDWARE / "boards.py"), "--nets", str(nets), "--out", str(work),
                          *board_args])
    kicad_erc.wait()
    if kicad_erc.returncode == 2 or not (nets / "kicad-erc.txt").exists():
        print(f"build.py: hardware/erc.py failed (exit {kicad_erc.returncode})", file=sys.stderr)
        return kicad_erc.returncode or 1
    shutil.copy(nets / "kicad-erc.txt", out / "kicad-erc.txt")
    results = json.loads((work / "drc.json").read_text())
    shutil.copy(work / "drc.json", out / "drc.json")
    sys.path.insert(0, str(HARDWARE))
    for result in results:
        name = result["board"]
        try:
            fab(name, work, out / name, python, env)
        except SystemExit as exc:
            print(exc, file=sys.stderr)
            return 1
        shutil.copy(work / f"{name}-drc.rpt", out / name / f"{name}-drc.rpt")
        if args.pictures:
            PICTURES.mkdir(exist_ok=True)
            shutil.copy(work / f"{name}.png", PICTURES / f"{name}.png")
        print(f"{name}: {result['violations']} DRC violations, {result['unconnected']} unconnected pads, "
              f"{result['footprint_errors']} footprint errors -> {out / name}", file=sys.stderr)
    # the mechanical stack-up (build123d, in the hardware extra's Python): STEP, section, the checker's and
    # its insert's STL, the insert's drawing
    stack = subprocess.run([python, str(HARDWARE / "stackup.py"), "--out", str(out / "stackup")])
    return 1 if erc.returncode or kicad_erc.returncode or drc.returncode or stack.returncode else 0


if __name__ == "__main__":
    sys.exit(main())
