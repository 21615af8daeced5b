"""The pure renderer: :class:`DisplayState` + :class:`PanelSpec` → Pillow image.

No I/O, no clock.  Drawing happens on a greyscale canvas with three inks (white, black and
*accent*) and text without anti-aliasing (:mod:`bgboard.display.canvas`), then the canvas
becomes the panel's own image: mode ``"1"`` for black/white panels (error boxes and the
offered cube are drawn inverted so they still stand out), ``"P"`` for red/yellow ones.

Three layouts, chosen by :attr:`PanelSpec.size_class` (small strips ~250×122, medium
400×300, large 800×480), share one structure: a player column on each side (name, score,
pip count, clock; the player on roll has an inverted name bar), a centre column (match
length, Crawford, dice, cube) and a footer for the message, the put-back list, the prompt,
the teaching grade and the hint.  The small strips pack the pip counts beside the scores
and the owned cube into the name bar, so that the footer keeps three lines (two with
clocks or a Crawford label).

:func:`render_report` also says which items it placed whole (not cut): :func:`required_items`
names the items a state must show, and the tests check that every one was placed on every
panel.  When the footer has too little room, items are dropped by priority (the put-back
list and the current instruction last), never cut silently.

Its parts: :mod:`~bgboard.display.layouts` (the three layouts), :mod:`~bgboard.display.canvas`,
:mod:`~bgboard.display.scoreboard` (one scoreboard for every panel), :mod:`~bgboard.display.ending`
(the end of a game or match), :mod:`~bgboard.display.diagram` (the set-up screen) and
:mod:`~bgboard.display.footer`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from PIL import Image

from bgboard.display.canvas import Canvas
from bgboard.display.diagram import setup_screen
from bgboard.display.ending import ending_screen
from bgboard.display.footer import footer, instruction_is_message
from bgboard.display.layouts import layout_for
from bgboard.display.panels import PanelSpec
from bgboard.display.scoreboard import scoreboard
from bgboard.display.display_state import DisplayState
from bgboard.display.texts import prompt
from bgboard.language import ENGLISH, Words, said_all


ITEMS = ("score", "match", "cube", "crawford", "dice", "pips", "clock", "instruction",
         "prompt", "message", "put-back", "lesson", "hint", "names", "ending", "points", "sent",
         "diagram", "analysis")
"""Everything the renderer can place; :attr:`Rendered.placed` is a subset."""


@dataclass(frozen=True, slots=True)
class PlacedItem:
    """One item as drawn: its texts (joined by a space; "" for the dice, the diagram), the
    box round them (left, top, right, bottom in pixels) and whether it fitted whole."""

    name: str
    text: str
    box: tuple[int, int, int, int] | None
    fits: bool

    def as_dict(self) -> dict[str, object]:
        return {"name": self.name, "text": self.text,
                "box": list(self.box) if self.box is not None else None, "fits": self.fits}


@dataclass(frozen=True, slots=True)
class Rendered:
    """A rendered frame, the items (:data:`ITEMS`) placed on it whole, and every item drawn
    with its text and box (``bgboard render --json``)."""

    image: Image.Image
    placed: frozenset[str] = field(default_factory=frozenset)
    items: tuple[PlacedItem, ...] = ()


def render(state: DisplayState, panel: PanelSpec, words: Words = ENGLISH) -> Image.Image:
    """Draw ``state`` for ``panel`` in ``words``' language: mode ``"1"`` for black/white
    panels, else ``"P"``."""
    return render_report(state, panel, words).image


#: The most text the renderer takes: characters of a name, of one variant of a text, and
#: variants per text (a 4.2-inch panel shows about 400 characters in all).  Longer input
#: (a name, a message, a hint) is cut first, so the layout's work is bounded.
MAX_NAME = 40
MAX_TEXT = 400
MAX_VARIANTS = 8


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def bounded(state: DisplayState) -> DisplayState:
    """``state`` with every text cut to the limits above (the same state when it fits)."""
    texts = {
        name: tuple(_cut(v, MAX_TEXT) for v in getattr(state, name)[:MAX_VARIANTS])
        for name in ("hint", "message", "title", "put_back", "lesson", "analysis")
    }
    names = tuple(_cut(n, MAX_NAME) for n in state.names)
    if names == state.names and all(texts[k] == getattr(state, k) for k in texts):
        return state
    return replace(state, names=names, **texts)  # type: ignore[arg-type]


def translated(state: DisplayState, words: Words) -> DisplayState:
    """``state`` with its own texts (the controller's messages, hints, put-back lists: each
    a :class:`~bgboard.language.Phrase` or a plain text) said in ``words``' language."""
    if words is ENGLISH:
        return state
    texts = {name: said_all(getattr(state, name), words)
             for name in ("hint", "message", "title", "put_back", "lesson", "analysis")}
    return replace(state, **texts)  # type: ignore[arg-type]


def render_report(state: DisplayState, panel: PanelSpec, words: Words = ENGLISH) -> Rendered:
    """Draw ``state`` for ``panel`` (the texts the renderer makes itself in ``words``'
    language; the state's own texts come translated) and report which items were placed
    whole."""
    state = bounded(translated(state, words))
    c = Canvas(panel, accent=panel.colours != "bw", words=words)
    lay = layout_for(panel)
    if state.phase == "match-over" or (state.phase == "game-over" and state.ending is not None):
        foot_top = ending_screen(c, lay, state)
    elif state.phase == "setup" and state.diagram is not None:
        foot_top = setup_screen(c, lay, state, state.diagram)
    else:
        foot_top = scoreboard(c, lay, state)
    footer(c, lay, state, foot_top)
    if {"name0", "name1"} <= c.placed:
        c.placed.add("names")
    c.placed -= {"name0", "name1"}
    items = tuple(PlacedItem(name, " ".join(texts), box, name in c.placed)
                  for name, (texts, box) in sorted(c.drawn.items(), key=lambda kv: ITEMS.index(kv[0])))
    items += tuple(PlacedItem(name, "", None, True) for name in ITEMS
                   if name in c.placed and name not in c.drawn)
    return Rendered(c.result(), frozenset(c.placed), items)


def required_items(state: DisplayState) -> frozenset[str]:
    """The items every panel must show for ``state`` (checked against
    :attr:`Rendered.placed`): score, match length, the cube when it is not a centred 1,
    Crawford, dice, both pip counts (labelled), the clocks, the current instruction and
    the put-back list; on the end screens who won, how, the points and the new score, and
    at the match's end its analysis when there is one."""
    need = {"instruction"} if (instruction_is_message(state) or state.title or prompt(state, ENGLISH)) else set()
    if state.put_back:
        need.add("put-back")
    if state.phase == "setup" and state.diagram is not None:
        return frozenset(need | {"diagram"})
    need |= {"score", "match"}
    if state.phase == "match-over" or (state.phase == "game-over" and state.ending is not None):
        need |= {"ending"} if state.ending is not None or state.phase == "match-over" else set()
        if state.analysis and state.phase == "match-over":
            need.add("analysis")
        if state.ending is not None:
            need.add("points")
            if state.ending.sent is not None:
                need.add("sent")
        return frozenset(need)
    if state.cube > 1 or state.cube_owner is not None or state.phase == "cube-offered":
        need.add("cube")
    if state.crawford != "none" and state.match_length:
        need.add("crawford")
    if state.dice is not None and state.phase in ("opening", "moving"):
        need.add("dice")
    if state.pips is not None:
        need.add("pips")
    if state.clock is not None:
        need.add("clock")
    return frozenset(need)


__all__ = ["ITEMS", "MAX_NAME", "MAX_TEXT", "MAX_VARIANTS", "PlacedItem", "Rendered", "render", "render_report", "bounded", "translated",
           "required_items"]
