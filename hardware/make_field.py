"""Compute the sensing field of hardware/sensing.toml with magpylib and write
host/bgboard/hardware/field_table.json (then run hardware/make_board.py: the firmware's
default calibration comes from the table).

The table is what the simulator, the firmware constants and `bgboard hardware field`'s
thresholds are derived from; a test recomputes it and fails if the committed file differs.
Usage: python3 hardware/make_field.py   (needs the hardware extra: magpylib)
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host"))

from bgboard.hardware.magnets import compute_table  # noqa: E402
from bgboard.hardware.physics import TABLE_FILE, load_design  # noqa: E402


def main() -> int:
    table = compute_table(load_design())
    TABLE_FILE.write_text(table.to_json())
    print(f"wrote {TABLE_FILE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
