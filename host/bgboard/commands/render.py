"""``bgboard render``: draw a display state for a panel into a PNG file.

``bgboard render --demo NAME --panel PANEL --out FILE.png`` draws one of the built-in demo
states; ``--state FILE.json`` draws a state read from JSON (see docs/display.md).
``--list`` prints the demos and panels.  ``--lang L`` draws it in a language (docs/languages.md);
``--json`` prints the placed items ``{"items": [{"name", "text", "box", "fits"}]}`` (with or
without ``--out``), so a language's fit can be checked from outside.
"""

from __future__ import annotations

import argparse
import json

from bgboard.display.demos import DEMOS, demo_state
from bgboard.display.panels import PANELS, panel_spec
from bgboard.display.renderer import render_report
from bgboard.display.display_state import state_from_json
from bgboard.errors import InputError
from bgboard.language.catalogues import add_lang_argument, players_words


class OutputFileError(InputError):
    """The image could not be written where the user asked."""


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """Register ``render``."""
    parser = subparsers.add_parser(
        "render",
        help="draw the e-ink display for a demo or a JSON state into a PNG",
        description="Draw the e-ink display for a demo or a JSON state into a PNG file.",
    )
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--demo", metavar="NAME", help=f"one of: {', '.join(DEMOS)}")
    source.add_argument("--state", metavar="FILE.json", help="a display state as JSON")
    source.add_argument("--list", action="store_true", help="list demos and panels")
    parser.add_argument("--panel", default="waveshare-4in2", metavar="PANEL",
                        help=f"one of: {', '.join(PANELS)} (default waveshare-4in2)")
    parser.add_argument("--out", metavar="FILE.png", help="the image file to write")
    parser.add_argument("--scale", type=int, default=1, metavar="N",
                        help="enlarge N times (nearest neighbour) for viewing on a screen")
    parser.add_argument("--json", action="store_true",
                        help='print the placed items {"items": [{"name", "text", "box", "fits"}]}')
    add_lang_argument(parser)
    return parser


def run(args: argparse.Namespace) -> int:
    """Render and write the image; bad names or files raise one-sentence InputErrors."""
    if args.list:
        print("demos: " + ", ".join(DEMOS))
        for spec in PANELS.values():
            print(f"panel {spec.name}: {spec.width}x{spec.height} {spec.colours}, "
                  f"text >= {spec.min_text_px} px, {spec.title}")
        return 0
    panel = panel_spec(args.panel)
    if args.demo is None and args.state is None:
        raise InputError("give --demo NAME or --state FILE.json (or --list)")
    if not args.out and not args.json:
        raise InputError("give --out FILE.png for the image (or --json for the placed items)")
    if args.scale < 1 or args.scale > 8:
        raise InputError(f"--scale must be from 1 to 8, not {args.scale}")
    words = players_words(args.lang)
    if args.demo is not None:
        state = demo_state(args.demo, words)
    else:
        from bgboard.files import read_text

        state = state_from_json(read_text(args.state, "the state file", limit=1024 * 1024))
    report = render_report(state, panel, words)
    if args.json:
        print(json.dumps({"items": [item.as_dict() for item in report.items]}, ensure_ascii=False))
    if not args.out:
        return 0
    image = report.image
    if args.scale > 1:
        image = image.resize((image.width * args.scale, image.height * args.scale), 0)
    try:
        image.save(args.out, format="PNG")
    except (OSError, ValueError) as exc:
        raise OutputFileError(f"cannot write {args.out}: {getattr(exc, 'strerror', None) or exc}") from None
    print(f"{args.out}: {panel.name} {panel.width}x{panel.height}")
    return 0
