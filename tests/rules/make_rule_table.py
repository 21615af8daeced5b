"""Write tests/data/rules/rule_table.json: for every trap of tests/rules/traps.py, a few
self-play positions that contain it, with the expected plays (checked against gnubg-nn
when written).  Run: .venv/bin/python -m tests.rules.make_rule_table"""

from __future__ import annotations

import json
from pathlib import Path

from bgboard.rules import STARTS, checkers_of, legal_plays, position_id

from .oracle import gnubg_ids
from .selfplay import ROLLS, selfplay_positions
from .traps import TRAPS

PER_TRAP = 3
OUT = Path(__file__).resolve().parents[1] / "data" / "rules" / "rule_table.json"


def main() -> None:
    found: dict[str, list[dict]] = {name: [] for name in TRAPS}
    for variant, position in selfplay_positions(seed=99, count=60000, variants=STARTS):
        for dice in ROLLS:
            for name, detect in TRAPS.items():
                if len(found[name]) >= PER_TRAP or not detect(position, dice):
                    continue
                if any(e["position_id"] == position_id(position) for e in found[name]):
                    continue
                plays = legal_plays(position, dice)
                if not plays and "no play" not in name:
                    continue
                if variant != "standard" and any(e["variant"] != "standard" for e in found[name]):
                    continue
                assert {position_id(p.position) for p in plays} == gnubg_ids(position, dice)
                found[name].append(
                    {
                        "rule": name,
                        "variant": variant,
                        "position_id": position_id(position),
                        "checkers": checkers_of(variant),
                        "dice": list(dice),
                        "plays": sorted(p.notation for p in plays),
                    }
                )
        if all(len(v) >= PER_TRAP for v in found.values()):
            break
    missing = [k for k, v in found.items() if len(v) < PER_TRAP]
    assert not missing, missing
    rows = [row for rows in found.values() for row in rows]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(rows, indent=1) + "\n")
    print(f"{len(rows)} rows written to {OUT}")


if __name__ == "__main__":
    main()
