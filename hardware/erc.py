"""KiCad 6's own electrical rules check (eeschema's ERC) of every board's schematic.

    python hardware/erc.py --nets DIR [--board NAME ...]

KiCad 6 has no command-line ERC (kicad-cli came with KiCad 7), so eeschema itself runs it,
driven by KiAuto (``eeschema_do run_erc``, the tool KiBot uses: eeschema under a virtual X
server, Xvfb, its menus worked with xdotool).  The schematics are hardware/schematic.py's
(``DIR/NAME.kicad_sch``, written by hardware/circuit.py beside the netlists).  Writes
``DIR/kicad-erc.txt`` (one line per board: errors and warnings, the report's path) and
each board's report ``DIR/erc/NAME/NAME.erc``.

Needs: the ``kiauto`` package in this Python (the hardware extra), KiCad 6's ``pcbnew``
module on its path (Debian puts it in /usr/lib/python3/dist-packages: hardware/build.py
passes it on), and the ``eeschema``, ``Xvfb`` and ``xdotool`` programs (tools/test-services
installs them).  Exit 0 when every board has 0 errors and 0 warnings, 1 otherwise, 2 when a
tool is missing (one sentence).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

BOARDS = ("strip5", "strip4", "controller", "dice")
SUMMARY = re.compile(r"\*\* ERC messages: (\d+)\s+Errors (\d+)\s+Warnings (\d+)")
HANG_S = 600  # a bound against a hang (eeschema waiting on a dialog), not a measure of speed


def missing_tool() -> str | None:
    """One sentence naming what the ERC run lacks, or None."""
    for program, package in (("eeschema", "kicad"), ("Xvfb", "xvfb"), ("xdotool", "xdotool")):
        if shutil.which(program) is None:
            return f"erc.py: {program} is missing: run tools/test-services (apt-get install {package})"
    try:
        import kiauto  # noqa: F401
    except ImportError:
        return "erc.py: KiAuto is missing from this Python: pip install -e '.[hardware]'"
    try:
        import pcbnew  # noqa: F401
    except ImportError:
        return ("erc.py: KiAuto needs KiCad's pcbnew module: put Debian's /usr/lib/python3/dist-packages on "
                "PYTHONPATH (hardware/build.py does)")
    return None


def eeschema_do() -> list[str]:
    """The command that runs KiAuto's eeschema_do with this Python."""
    script = Path(sys.executable).parent / "eeschema_do"
    if script.exists():
        return [sys.executable, str(script)]
    found = shutil.which("eeschema_do")
    if found is None:
        raise FileNotFoundError("eeschema_do")
    return [sys.executable, found]


def check(schematic: Path, out: Path) -> tuple[int, int, str]:
    """eeschema's ERC of ``schematic``: (errors, warnings, the report's text)."""
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    run = subprocess.run([*eeschema_do(), "run_erc", schematic.name, str(out)], cwd=schematic.parent,
                         capture_output=True, text=True, timeout=HANG_S)
    report = out / f"{schematic.stem}.erc"
    text = report.read_text(encoding="utf-8", errors="replace") if report.exists() else ""
    m = SUMMARY.search(text)
    if m is None:
        tail = (run.stderr or run.stdout).strip().splitlines()[-3:]
        raise RuntimeError(f"eeschema wrote no ERC report for {schematic.name} (exit {run.returncode}): "
                           + " | ".join(tail))
    return int(m.group(2)), int(m.group(3)), text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nets", type=Path, required=True, help="hardware/circuit.py's output directory")
    parser.add_argument("--board", action="append", help="only this board (repeatable; default: every board)")
    args = parser.parse_args(argv)
    problem = missing_tool()
    if problem:
        print(problem, file=sys.stderr)
        return 2
    nets: Path = args.nets.resolve()
    boards = args.board or list(BOARDS)
    lines, bad = [], 0
    for name in boards:
        schematic = nets / f"{name}.kicad_sch"
        if not schematic.exists():
            print(f"erc.py: {schematic} is missing: run hardware/circuit.py --out {nets}", file=sys.stderr)
            return 2
        try:
            errors, warnings, _ = check(schematic, nets / "erc" / name)
        except (RuntimeError, subprocess.TimeoutExpired) as exc:
            print(f"erc.py: {exc}", file=sys.stderr)
            return 1
        bad += errors + warnings
        lines.append(f"{name}: {errors} errors, {warnings} warnings (eeschema ERC, erc/{name}/{name}.erc)")
        print(lines[-1], file=sys.stderr)
    (nets / "kicad-erc.txt").write_text("KiCad 6 eeschema ERC (KiAuto)\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
