"""A board's untrusted state payload → a checked, bounded :class:`BoardView` (pure).

A board's state comes over the network (``bgboard.club.live_boards``), so every field is checked
here, once, for the pages: names are cut to :data:`MAX_NAME` characters, numbers must be
whole numbers in range, the checkers come from the gnubg Position ID through
``bgboard.rules``.  A missing or malformed field becomes ``None`` (the page shows "-");
a Position ID that does not decode gives no checkers and a ``problem`` sentence.
Nothing here escapes HTML: the templates (autoescaped) and :mod:`.board_picture` do.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence, cast

from bgboard.club.live_boards import BoardLive
from bgboard.errors import InputError
from bgboard.language import ENGLISH, N_, Words, say
from bgboard.rules import position_from_id

MAX_NAME = 40
MAX_TEXT = 60
PHASE_WORDS = {
    "opening": N_("opening roll"),
    "turn": N_("to roll or double"),
    "doubled": N_("doubled"),
    "play": N_("to play"),
    "resigned": N_("resigned"),
    "game_over": N_("game over"),
    "match_over": N_("match over"),
}
#: The names of a board's players when it sent none (said in the page's language).
UNNAMED = (N_("White"), N_("Black"))
#: A player's phase as a sentence (a language may put the name elsewhere: "Ann ist am Zug").
PLAYER_PHASE = {
    "turn": N_("%(name)s to roll or double"),
    "doubled": N_("%(name)s doubled"),
    "play": N_("%(name)s to play"),
    "resigned": N_("%(name)s resigned"),
}

Side = tuple[int, ...]


def bounded(text: object, limit: int = MAX_TEXT) -> str | None:
    """``text`` as a single printable line of at most ``limit`` characters (… marks a cut;
    control characters and lone surrogates are dropped), or None."""
    if not isinstance(text, str):
        return None
    line = " ".join("".join(c for c in word if c.isprintable()) for word in text[: 4 * limit].split())
    line = " ".join(line.split())
    if not line:
        return None
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _int(value: object, low: int, high: int) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        return None
    return value


def _pair(value: object, low: int, high: int) -> tuple[int, int] | None:
    if not isinstance(value, (list, tuple)):
        return None
    items = cast("Sequence[object]", value)  # untrusted: each item is checked
    if len(items) != 2:
        return None
    a, b = (_int(v, low, high) for v in items)
    return None if a is None or b is None else (a, b)


@dataclass(frozen=True, slots=True)
class BoardView:
    """What the pages show of one board; every field checked (None = unknown).

    ``sides[p]`` is player ``p``'s 26-tuple from ``p``'s own view (0 off, 1..24, 25 bar),
    as ``bgboard.match.MatchState.board``; player 0 plays white from the bottom."""

    board: int
    online: bool
    players: tuple[str, str]
    length: int | None = None
    score: tuple[int, int] | None = None
    cube: int = 1
    cube_owner: int | None = None
    crawford: bool = False
    turn: int | None = None
    dice: tuple[int, int] | None = None
    clocks: tuple[int, int] | None = None
    clock_running: int | None = None
    phase: str | None = None
    event: str | None = None
    match: int | None = None
    sides: tuple[Side, Side] | None = None
    problem: str | None = None
    unnamed: tuple[bool, bool] = (False, False)   # a side the board sent no name for (players: UNNAMED)

    @property
    def phase_words(self) -> str:
        return PHASE_WORDS.get(self.phase or "", "")

    @property
    def phase_line(self) -> str:
        """Who must do what, in words ("Ann to play", "Bob doubled", "game over")."""
        return self.phase_said(ENGLISH)

    def phase_said(self, words: Words) -> str:
        """:attr:`phase_line` in ``words``' language."""
        if self.phase in PLAYER_PHASE and self.turn is not None:
            return say(words, PLAYER_PHASE[self.phase], name=self.name(self.turn, words))
        return say(words, self.phase_words) if self.phase_words else ""

    def name(self, player: int, words: Words = ENGLISH) -> str:
        """Player ``player``'s name; a side the board named nobody for is "White" / "Black"
        in ``words``' language."""
        return say(words, self.players[player]) if self.unnamed[player] else self.players[player]

    def clock_text(self, player: int) -> str | None:
        """A reserve as m:ss, or None."""
        if self.clocks is None:
            return None
        seconds = self.clocks[player] // 1000
        return f"{seconds // 60}:{seconds % 60:02d}"


def _sides(position_id: object, turn: int | None) -> tuple[tuple[Side, Side] | None, str | None]:
    if position_id is None:
        return None, None
    if not isinstance(position_id, str) or len(position_id) > 20:
        return None, "the board sent no readable Position ID"
    try:
        position = position_from_id(position_id)
    except InputError as exc:
        return None, str(exc)
    on_roll = turn if turn is not None else 0
    sides = [position.theirs, position.theirs]
    sides[on_roll] = position.mine
    return (sides[0], sides[1]), None


def board_view(board: int, state: Mapping[str, Any], online: bool = True) -> BoardView:
    """Check a board's state payload (see ``bgboard.club.live_boards``) into a :class:`BoardView`."""
    got = state.get("players")
    names: Sequence[object] = (None, None)
    if isinstance(got, (list, tuple)) and len(cast("Sequence[object]", got)) == 2:
        names = cast("Sequence[object]", got)
    given = (bounded(names[0], MAX_NAME), bounded(names[1], MAX_NAME))
    players = (given[0] or UNNAMED[0], given[1] or UNNAMED[1])
    turn = _int(state.get("turn"), 0, 1)
    dice = _pair(state.get("dice"), 1, 6)
    cube = _int(state.get("cube"), 1, 2**15)
    phase = state.get("phase") if state.get("phase") in PHASE_WORDS else None
    sides, problem = _sides(state.get("position_id"), turn)
    return BoardView(
        board=board,
        online=online,
        players=players,
        unnamed=(given[0] is None, given[1] is None),
        length=_int(state.get("length"), 0, 999),
        score=_pair(state.get("score"), 0, 9999),
        cube=cube if cube is not None and cube & (cube - 1) == 0 else 1,
        cube_owner=_int(state.get("cube_owner"), 0, 1),
        crawford=state.get("crawford") is True,
        turn=turn,
        dice=dice,
        clocks=_pair(state.get("clocks"), 0, 10**8),
        clock_running=_int(state.get("clock_running"), 0, 1),
        phase=phase,
        event=bounded(state.get("event")),
        match=_int(state.get("match"), 1, 10**9),
        sides=sides,
        problem=problem,
    )


def view_of(live: BoardLive) -> BoardView:
    """The view of a hub entry."""
    return board_view(live.board, live.state, live.online)
