"""Write host/bgboard/analysis/met.py from gnubg's Kazaross-XG2 match equity table (the
default MET of gnubg, shipped in the ``gnubg`` package's data/met/Kazaross-XG2.xml).

    python tools/make_met.py [XML]
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "host" / "bgboard" / "analysis" / "met.py"


def main() -> None:
    if len(sys.argv) > 1:
        xml = Path(sys.argv[1])
    else:
        import gnubg  # type: ignore[import-not-found]

        xml = Path(gnubg.__file__).parent / "data" / "met" / "Kazaross-XG2.xml"
    root = ET.parse(xml).getroot()
    name = root.findtext("info/name")
    pre = [[float(me.text or "") for me in row.findall("me")] for row in root.findall("pre-crawford-table/row")]
    post = [float(me.text or "") for me in root.findall("post-crawford-table/row")[0].findall("me")]
    lines = [
        '"""gnubg\'s default match equity table, Kazaross XG2 (25 points), as numbers.',
        "",
        "Written by tools/make_met.py from gnubg's data/met/Kazaross-XG2.xml:",
        "  Copyright (C) 2011 Neil Kazaross.  Table rolled up to 9 point match by eXtreme Gammon,",
        "  then the R/K MET rolled up to 15 and extrapolated to 25 points; transcribed for GNUbg",
        "  by Michael Petch.  Copying and distribution of this file, with or without",
        "  modification, are permitted in any medium without royalty provided the copyright",
        "  notice and this notice are preserved.  This file is offered as-is, without any warranty.",
        "",
        "``PRE[i][j]``: player 0's match winning chance when player 0 is i+1 away and player 1",
        "j+1 away (before Crawford); ``POST[i]``: the trailer's chance at i+1 away against a",
        "1-away leader after the Crawford game (gnubg's aafMETPostCrawford, both players).",
        '"""',
        "",
        f"NAME = {name!r}",
        "",
        "PRE: tuple[tuple[float, ...], ...] = (",
    ]
    lines += [f"    ({', '.join(repr(v) for v in row)})," for row in pre]
    lines += [")", "", f"POST: tuple[float, ...] = ({', '.join(repr(v) for v in post)})", ""]
    OUT.write_text("\n".join(lines))
    print(f"{OUT}: {len(pre)}x{len(pre[0])} and {len(post)}")


if __name__ == "__main__":
    main()
