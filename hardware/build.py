"""Every fab file of every bgboard board, by one command (Debian's python3, which has KiCad 6's pcbnew):

    python3 hardware/build.py --out DIR [--skidl-python PYTHON] [--board NAME ...]

1. hardware/circuit.py (SKiDL) writes the netlists, each board's KiCad 6 schematic and its
   ERC report (``erc.txt``); it runs under ``--skidl-python`` (default: this python if it has
   skidl, else the checkout's ``.venv/bin/python``, made by ``pip install -e '.[hardware]'``);
   hardware/erc.py, under the same Python, runs KiCad's own ERC (eeschema, through KiAuto
   under Xvfb) on each schematic (``kicad-erc.txt``), while step 2 runs;
2. hardware/boards.py places and routes each board and runs KiCad's DRC (``NAME-drc.rpt``,
   ``drc.json``);
3. per board, in ``DIR/NAME/``: Gerbers (copper, mask, paste, silkscreen, Edge.Cuts), Excellon
   drill files, ``NAME-bom.csv`` and ``NAME-cpl.csv`` in JLCPCB's assembly format, and
   ``NAME.png`` (the picture hardware/README.md shows, copied to hardware/boards/ with
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


def fab(name: str, work: Path, out: Path) -> None:
    """Gerbers, drill files, BOM and CPL of one routed board."""
    import pcbnew

    from boards import read_netlist  # hardware/ is on sys.path (this script's directory)

    board = pcbnew.LoadBoard(str(work / f"{name}.kicad_pcb"))
    out.mkdir(parents=True, exist_ok=True)
    controller = pcbnew.PLOT_CONTROLLER(board)
    options = controller.GetPlotOptions()
    options.SetOutputDirectory(str(out))
    options.SetPlotFrameRef(False)
    options.SetUseGerberProtelExtensions(True)
    options.SetUseGerberX2format(True)
    options.SetIncludeGerberNetlistInfo(True)
    options.SetSubtractMaskFromSilk(True)
    options.SetUseAuxOrigin(False)
    options.SetDrillMarksType(pcbnew.PCB_PLOT_PARAMS.NO_DRILL_SHAPE)
    for layer, suffix in ((pcbnew.F_Cu, "F_Cu"), (pcbnew.B_Cu, "B_Cu"), (pcbnew.F_Mask, "F_Mask"),
                          (pcbnew.B_Mask, "B_Mask"), (pcbnew.F_Paste, "F_Paste"), (pcbnew.F_SilkS, "F_Silkscreen"),
                          (pcbnew.B_SilkS, "B_Silkscreen"), (pcbnew.Edge_Cuts, "Edge_Cuts")):
        controller.SetLayer(layer)
        controller.OpenPlotfile(suffix, pcbnew.PLOT_FORMAT_GERBER, suffix)
        controller.PlotLayer()
    controller.ClosePlot()
    drill = pcbnew.EXCELLON_WRITER(board)
    drill.SetOptions(False, False, pcbnew.wxPoint(0, 0), False)
    drill.SetFormat(True)  # metric
    drill.CreateDrillandMapFilesSet(str(out), True, False)

    nets = read_netlist(work / "nets" / f"{name}.net")
    groups: dict[tuple[str, str, str], list[str]] = {}
    for ref, part in nets.parts.items():
        groups.setdefault((part["value"], part["footprint"].split(":")[1], part["mpn"]), []).append(ref)
    with open(out / f"{name}-bom.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["Comment", "Designator", "Footprint", "Manufacturer Part", "Quantity"])
        for (value, footprint, mpn), refs in sorted(groups.items()):
            w.writerow([value, ",".join(sorted(refs, key=natural)), footprint, mpn, len(refs)])
    with open(out / f"{name}-cpl.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["Designator", "Mid X", "Mid Y", "Layer", "Rotation"])
        edge = next(d for d in board.GetDrawings() if d.GetLayer() == pcbnew.Edge_Cuts)
        left, bottom = edge.GetStart().x, edge.GetEnd().y  # the outline's corners, not its line's width
        for fp in sorted(board.GetFootprints(), key=lambda fp: natural(fp.GetReference())):
            if fp.GetReference().startswith("H"):
                continue  # mounting holes are drilled, not placed
            pos = fp.GetPosition()
            w.writerow([fp.GetReference(), f"{pcbnew.ToMM(pos.x - left):.3f}mm",
                        f"{pcbnew.ToMM(bottom - pos.y):.3f}mm",  # y up from the bottom edge
                        "Top" if fp.GetLayer() == pcbnew.F_Cu else "Bottom", f"{fp.GetOrientationDegrees():.0f}"])
    shutil.copy(work / f"{name}.png", out / f"{name}.png")


def natural(ref: str) -> tuple:
    head = ref.rstrip("0123456789")
    tail = ref[len(head):]
    return head, int(tail) if tail else -1


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
        fab(name, work, out / name)
        shutil.copy(work / f"{name}-drc.rpt", out / name / f"{name}-drc.rpt")
        if args.pictures:
            PICTURES.mkdir(exist_ok=True)
            shutil.copy(work / f"{name}.png", PICTURES / f"{name}.png")
        print(f"{name}: {result['violations']} DRC violations, {result['unconnected']} unconnected pads, "
              f"{result['footprint_errors']} footprint errors -> {out / name}", file=sys.stderr)
    # the mechanical stack-up (build123d, in the hardware extra's Python): STEP, section, checker STL
    stack = subprocess.run([python, str(HARDWARE / "stackup.py"), "--out", str(out / "stackup")])
    return 1 if erc.returncode or kicad_erc.returncode or drc.returncode or stack.returncode else 0


if __name__ == "__main__":
    sys.exit(main())
