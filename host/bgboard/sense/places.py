"""The physical board as the sensors see it: 28 places, each reading a colour and a count range.

Places are numbered from **white's** (player 0's) view, the way the board is built:

    place 1..24   physical points 1..24 (white's home = 1..6, black's home = 19..24)
    WHITE_BAR     the bar section holding white checkers (25)
    BLACK_BAR     the bar section holding black checkers (26)
    WHITE_OFF     white's bear-off tray (27)
    BLACK_OFF     black's bear-off tray (28)

A point has a fixed number of sensor slots along it; a stack taller than the slots reads
"at least slots + 1" — the count is uncertain.  An :class:`Observation` keeps one compact integer
code per place (the fast path used by recognition) and shows it as :class:`Reading` values.

Codes: ``0`` empty, ``+n`` exactly n white, ``-n`` exactly n black, ``±(CAPPED + n)`` at
least n of that colour, :data:`MIXED` both colours (in transit or a sensor fault).

Pure code: no I/O, no clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

from bgboard.errors import InputError
from bgboard.language import Joined, Phrase
from bgboard.rules.position import BAR, OFF, Position

WHITE = 0
BLACK = 1
COLOUR_NAMES = ("white", "black")
#: The colours as the players read them.
COLOURS = (Phrase("white"), Phrase("black"))

WHITE_BAR = 25
BLACK_BAR = 26
WHITE_OFF = 27
BLACK_OFF = 28
PLACES = tuple(range(1, 29))

CAPPED = 100
MIXED = 10_000


class SensorFaultError(InputError):
    """A sensor reading that cannot be a real board (the message names the place to check)."""


def place_name(place: int) -> str:
    """``"point 7"``, ``"the white bar"``, ``"the black tray"``..."""
    if 1 <= place <= 24:
        # source: point = "punt" seeds/002, "Punkt" seeds/004, "felt" seeds/001
        return Phrase("point %(point)d", point=place)
    return {
        # source: bar = "bar" seeds/002, "Bar" seeds/004, "barrieren" seeds/001
        WHITE_BAR: Phrase("the white bar"),
        BLACK_BAR: Phrase("the black bar"),
        WHITE_OFF: Phrase("the white tray"),
        BLACK_OFF: Phrase("the black tray"),
    }[place]


@dataclass(frozen=True, slots=True)
class Slots:
    """How many checkers each kind of place can count exactly: its sensor slots (the
    defaults are hardware/grid.toml's: 5 per point, 4 per bar half, 5 per tray).  A taller
    stack reads "at least one more" (a slot senses a stack, not how tall)."""

    point: int = 5
    bar: int = 4
    tray: int = 5

    def capacity(self, place: int) -> int:
        """Slots of ``place``: a taller stack reads "at least" one more."""
        if place <= 24:
            return self.point
        if place <= BLACK_BAR:
            return self.bar
        return self.tray

    def capacities(self) -> tuple[int, ...]:
        """The capacity of places 1..28 in order."""
        return tuple(self.capacity(p) for p in PLACES)


@dataclass(frozen=True, slots=True)
class Reading:
    """What the sensors say about one place: ``colour`` (WHITE, BLACK, or None when empty
    or mixed), at least ``low`` and at most ``high`` checkers; ``mixed`` when both colours
    are seen (a checker in transit, or a fault)."""

    colour: int | None
    low: int
    high: int
    mixed: bool = False

    @property
    def exact(self) -> bool:
        """True when the count is known exactly."""
        return self.low == self.high and not self.mixed

    def __str__(self) -> str:
        return str(self.phrase())

    def phrase(self) -> str:
        """The reading in words ("2 white", "3 or more black", "empty"), said in the players'
        language where it is shown."""
        if self.mixed:
            return Phrase("both colours")
        if self.colour is None:
            return Phrase("empty")
        name = COLOURS[self.colour]
        if self.exact:
            return Phrase("%(n)d %(colour)s", n=self.low, colour=name)
        return Phrase("%(n)d or more %(colour)s", n=self.low, colour=name)


def code_reading(code: int, checkers: int = 15) -> Reading:
    """The :class:`Reading` of one place code."""
    if code == 0:
        return Reading(None, 0, 0)
    if code == MIXED:
        return Reading(None, 0, 2 * checkers, mixed=True)
    colour = WHITE if code > 0 else BLACK
    n = abs(code)
    if n > CAPPED:
        return Reading(colour, n - CAPPED, checkers)
    return Reading(colour, n, n)


def clamp(count: int, capacity: int) -> int:
    """The code a stack of ``count`` signed checkers produces on a place of ``capacity`` slots:
    exact up to ``capacity`` (a slot's field tells one checker from a stack), then
    "at least ``capacity + 1``"."""
    n = abs(count)
    if n <= capacity:
        return count
    return CAPPED + capacity + 1 if count > 0 else -(CAPPED + capacity + 1)


@dataclass(frozen=True, slots=True)
class Observation:
    """A whole-board sensor reading: one code per place 1..28 (see the module docstring).

    ``states``: the slot states it was read from (wire order), kept where recognition needs
    more than the codes (a Plakoto pin, :mod:`bgboard.sense.tavli`); not compared."""

    codes: tuple[int, ...]
    states: tuple[int, ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        if len(self.codes) != 28:
            raise SensorFaultError(f"a board reading has 28 places, {len(self.codes)} given")

    def __getitem__(self, place: int) -> Reading:
        return code_reading(self.codes[place - 1])

    def readings(self) -> tuple[Reading, ...]:
        """Readings of places 1..28 in order."""
        return tuple(code_reading(c) for c in self.codes)

    @classmethod
    def of_board(cls, board: Sequence[int], slots: Slots = Slots()) -> "Observation":
        """What the sensors report for an exact physical board (28 signed counts)."""
        return cls(tuple(clamp(n, cap) for n, cap in zip(board, slots.capacities(), strict=True)))

    @classmethod
    def exact(cls, board: Sequence[int]) -> "Observation":
        """An observation with every count known (no capacity limit)."""
        return cls(tuple(board))

    def counts(self, colour: int) -> tuple[int, int]:
        """``(low, high)`` total of ``colour`` over the whole board, from the readings."""
        low = high = 0
        for r in self.readings():
            if r.mixed:
                high += r.high
                continue
            if r.colour == colour:
                low += r.low
                high += r.high
        return low, high

    def consistent_with(self, board: Sequence[int]) -> bool:
        """True if an exact physical ``board`` (28 signed counts) could produce these readings."""
        return all(code == n or code_fits(code, n) for code, n in zip(self.codes, board))


def code_fits(code: int, count: int) -> bool:
    """True if ``count`` signed checkers on a place can produce the reading ``code``."""
    if code == count:
        return True
    if code == MIXED or count == 0 or (code > 0) != (count > 0):
        return False
    n = abs(code)
    return n > CAPPED and abs(count) >= n - CAPPED


def reading_from_slots(place: int, slots: Sequence[int], stacked: bool = False) -> int:
    """The place code from one place's slot states (``+1`` white, ``-1`` black, ``0``
    empty; slot 0 nearest the base); ``stacked``: a slot senses more than one magnet, so the
    place holds at least one checker more than it has occupied slots.

    Checkers lie in a row from the base, so an occupied slot beyond an empty one
    contradicts itself: raises :class:`SensorFaultError` ("check point 7").
    """
    seen = [s for s in slots if s]
    if not seen:
        return 0
    first_empty = next((i for i, s in enumerate(slots) if not s), len(slots))
    if any(slots[first_empty:]):
        raise SensorFaultError(Phrase("check %(place)s: a sensor sees a checker beyond a gap", place=place_name(place)))
    colours = set(seen)
    if len(colours) > 1:
        return MIXED
    n = len(seen)
    sign = 1 if seen[0] > 0 else -1
    if stacked:
        return sign * (CAPPED + n + 1)
    return sign * n


# ------------------------------------------------------------------ positions ↔ boards
def board_of(position: Position, mover: int) -> tuple[int, ...]:
    """The 28 signed physical counts (white +, black −) of ``position`` whose player on
    roll (``mine``) has colour ``mover``."""
    mine, theirs = position.mine, position.theirs
    board = [0] * 28
    if mover == WHITE:
        white, black = mine, theirs
    else:
        white, black = theirs, mine
    for p in range(1, 25):
        board[p - 1] = white[p] - black[25 - p]
    board[WHITE_BAR - 1] = white[BAR]
    board[BLACK_BAR - 1] = -black[BAR]
    board[WHITE_OFF - 1] = white[OFF]
    board[BLACK_OFF - 1] = -black[OFF]
    return tuple(board)


def position_of(board: Sequence[int], mover: int) -> Position:
    """The :class:`Position` (``mover`` on roll) of 28 signed physical counts (unchecked)."""
    white = [0] * 26
    black = [0] * 26
    for p in range(1, 25):
        n = board[p - 1]
        if n > 0:
            white[p] = n
        elif n < 0:
            black[25 - p] = -n
    white[BAR] = board[WHITE_BAR - 1]
    black[BAR] = -board[BLACK_BAR - 1]
    white[OFF] = board[WHITE_OFF - 1]
    black[OFF] = -board[BLACK_OFF - 1]
    if mover == WHITE:
        return Position(tuple(white), tuple(black))
    return Position(tuple(black), tuple(white))


def physical_point(point: int, colour: int) -> int:
    """The physical place of ``colour``'s own point ``point`` (25 = its bar, 0 = its tray)."""
    if point == BAR:
        return WHITE_BAR if colour == WHITE else BLACK_BAR
    if point == OFF:
        return WHITE_OFF if colour == WHITE else BLACK_OFF
    return point if colour == WHITE else 25 - point


def guess_board(observation: Observation, checkers: int, prefer: Sequence[int]) -> tuple[int, ...] | None:
    """An exact board consistent with ``observation`` and ``checkers`` per side, filling
    uncertain stacks from ``prefer`` (e.g. the board before the move) where possible;
    None when no such board exists (a miscount or a checker in the hand)."""
    board = [0] * 28
    capped: dict[int, list[int]] = {WHITE: [], BLACK: []}
    for i, code in enumerate(observation.codes):
        r = code_reading(code)
        if r.mixed:
            return None
        if r.colour is None:
            continue
        sign = 1 if r.colour == WHITE else -1
        board[i] = sign * r.low
        if not r.exact:
            capped[r.colour].append(i)
    for colour, sign in ((WHITE, 1), (BLACK, -1)):
        total = sum(abs(n) for n in board if (n > 0) == (sign > 0) and n != 0)
        spare = checkers - total
        if spare < 0 or (spare > 0 and not capped[colour]):
            return None
        for i in capped[colour]:
            want = max(0, abs(prefer[i]) - abs(board[i])) if (prefer[i] > 0) == (sign > 0) else 0
            add = min(want, spare)
            board[i] += sign * add
            spare -= add
        if spare:
            board[capped[colour][0]] += sign * spare
    return tuple(board)


def differences(observation: Observation, board: Sequence[int]) -> tuple["Fix", ...]:
    """Every place whose reading cannot come from ``board``: what should be there."""
    fixes: list[Fix] = []
    for place, code, n in zip(PLACES, observation.codes, board):
        if not code_fits(code, n):
            fixes.append(Fix(place, n, code_reading(code)))
    return tuple(fixes)


@dataclass(frozen=True, slots=True)
class Fix:
    """One place to correct: ``want`` signed checkers (white +, black −), ``seen`` now."""

    place: int
    want: int
    seen: Reading

    def __str__(self) -> str:
        return str(self.phrase())

    def phrase(self) -> str:
        """The fix in words, said in the players' language where it is shown."""
        if self.want == 0:
            return Phrase("clear %(place)s (now %(seen)s)", place=place_name(self.place), seen=self.seen.phrase())
        return Phrase("%(place)s: %(n)d %(colour)s (now %(seen)s)", place=place_name(self.place), n=abs(self.want),
                      colour=COLOURS[WHITE if self.want > 0 else BLACK], seen=self.seen.phrase())


def describe_fixes(fixes: Iterable[Fix]) -> str:
    """The places to correct, as one phrase ("point 8: 3 white (now 2 white); clear point 2 ...")."""
    parts = [f.phrase() for f in fixes]
    if not parts:
        return Phrase("nothing to correct")
    return Joined("; ", parts)


def black_own_point(place: int, variant: str | None = None) -> int:
    """Black's own number of physical point ``place``: ``25 - place``, or in Fevga, where
    both sides go the same way round, ``place ± 12`` (:func:`bgboard.rules.fevga.theirs_at`)."""
    from bgboard.rules.games import GAMES

    if variant is not None and GAMES[variant].same_way:
        from bgboard.rules.fevga import theirs_at

        return theirs_at(place)
    return 25 - place


def _place_for(place: int, colour: int, own: bool, variant: str | None = None) -> str:
    """``place`` as said to ``colour``'s player: in that player's own numbering ("your
    24-point", "your bar", "your tray") or physically ("point 1", "the black bar")."""
    if 1 <= place <= 24:
        if not own:
            # source: point = "punt" seeds/002, "Punkt" seeds/004, "felt" seeds/001
            return Phrase("point %(point)d", point=place)
        return Phrase("your %(point)d-point", point=black_own_point(place, variant) if colour == BLACK else place)
    if own:
        return Phrase("your bar") if place in (WHITE_BAR, BLACK_BAR) else Phrase("your tray")
    return place_name(place)


def setup_guidance(fixes: Iterable[Fix], own: bool = True, variant: str | None = None) -> str:
    """The set-up instructions, each addressed to the player whose checkers it is about,
    white's first: ``"white: put 3 on your 8-point (now 2 white); black: put 2 on your
    24-point (now empty), clear your 6-point (now 1 black)"``.  ``own`` names each player's
    places in that player's own numbering (as notation and gnubg do), else physically
    (white's numbering, the sensing layer's) for both; the LEDs light the same places.

    A place short of its checkers is ``put N on``, one with too many ``leave N on``; the
    other colour's checkers on it are ``take yours off`` (``clear`` where the place should
    be empty); a reading of both colours addresses both players.  ``variant`` (a game going the same way round, Fevga)
    names black's points as that game numbers them."""
    said: dict[int, list[str]] = {WHITE: [], BLACK: []}
    for f in fixes:
        wanted = None if f.want == 0 else (WHITE if f.want > 0 else BLACK)
        now = f.seen.phrase()
        if wanted is not None:
            n = abs(f.want)
            where = _place_for(f.place, wanted, own, variant)
            tray = f.place in (WHITE_OFF, BLACK_OFF)
            if f.seen.colour == wanted and f.seen.low > n:
                said[wanted].append(Phrase("leave %(n)d in %(place)s (now %(seen)s)", n=n, place=where, seen=now) if tray
                                    else Phrase("leave %(n)d on %(place)s (now %(seen)s)", n=n, place=where, seen=now))
            else:
                said[wanted].append(Phrase("put %(n)d in %(place)s (now %(seen)s)", n=n, place=where, seen=now) if tray
                                    else Phrase("put %(n)d on %(place)s (now %(seen)s)", n=n, place=where, seen=now))
        others = (WHITE, BLACK) if f.seen.mixed else (() if f.seen.colour is None else (f.seen.colour,))
        for colour in others:
            if colour != wanted:
                where = _place_for(f.place, colour, own, variant)
                said[colour].append(Phrase("clear %(place)s (now %(seen)s)", place=where, seen=now) if wanted is None
                                    else Phrase("take yours off %(place)s (now %(seen)s)", place=where, seen=now))
    parts = [Phrase("%(colour)s: %(fixes)s", colour=COLOURS[c], fixes=Joined(", ", said[c]))
             for c in (WHITE, BLACK) if said[c]]
    return Joined("; ", parts) if parts else Phrase("nothing to correct")


def place_number(place: int, player: int | None = None) -> str:
    """A place in ``player``'s own numbering for short texts: points 1..24 from that
    player's side (physical numbering when ``player`` is None or 0 — physical numbers are
    white's), ``"bar"`` and ``"off"`` for the bar sections and the trays."""
    if 1 <= place <= 24:
        return str(25 - place if player == BLACK else place)
    return "bar" if place in (WHITE_BAR, BLACK_BAR) else "off"


def put_back(fixes: Iterable[Fix], player: int | None = None) -> tuple[str, ...]:
    """The put-back list in short, for every panel: ``("put back: 13→8, clear 4",
    "13→8, clear 4")``, numbered for ``player`` (see :func:`place_number`).

    A checker too many on one place and one too few of the same colour on another become
    one move ``a→b`` (``a→b ×2`` for two); a place that should be empty and holds checkers
    nobody misses is ``clear a``; what is left over is ``a −n`` / ``b +n``.  A reading that
    is not an exact count (a tall stack, both colours) is ``check a``.  Empty for no fixes.
    """
    fixes = tuple(fixes)
    if not fixes:
        return ()
    parts: list[str] = []  # notation ("13→8") and phrases ("clear 4"), each said in the players' language
    surplus: dict[int, list[list[int]]] = {WHITE: [], BLACK: []}
    deficit: dict[int, list[list[int]]] = {WHITE: [], BLACK: []}
    checks: list[int] = []
    for f in fixes:
        if not f.seen.exact:
            checks.append(f.place)
            continue
        for colour, sign in ((WHITE, 1), (BLACK, -1)):
            want = abs(f.want) if f.want * sign > 0 else 0
            seen = f.seen.low if f.seen.colour == colour else 0
            if seen > want:
                surplus[colour].append([f.place, seen - want])
            elif want > seen:
                deficit[colour].append([f.place, want - seen])

    def name(place: int) -> str:
        return place_number(place, player)

    cleared: set[int] = set()
    for colour in (WHITE, BLACK):
        for s in surplus[colour]:
            for d in deficit[colour]:
                n = min(s[1], d[1])
                if n <= 0:
                    continue
                parts.append(f"{name(s[0])}→{name(d[0])}" + (f" ×{n}" if n > 1 else ""))
                s[1] -= n
                d[1] -= n
    wanted = {f.place: f.want for f in fixes}
    for colour in (WHITE, BLACK):
        for place, n in surplus[colour]:
            if n and wanted[place] == 0:
                if place not in cleared:
                    parts.append(Phrase("clear %(place)s", place=name(place)))
                    cleared.add(place)
            elif n:
                parts.append(f"{name(place)} −{n}")
        for place, n in deficit[colour]:
            if n:
                parts.append(f"{name(place)} +{n}")
    parts += [Phrase("check %(place)s", place=name(place)) for place in checks]
    listed = Joined(", ", parts)
    return (Phrase("put back: %(moves)s", moves=listed), listed)
