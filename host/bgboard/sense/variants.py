"""Sensing the seed variants: where their checkers lie on the physical board, what the hall
sensors report for them, and which legal play a reading shows (pure code).

The physical board is numbered from white's view (:mod:`bgboard.sense.board`).  Black's
point ``q`` lies on physical point ``25 - q`` in Plakoto, Anti and Race, and on ``q - 12``
(``q + 12`` for ``q <= 12``) in Fevga, where both sides go the same way round.  Race's
unentered checkers wait in their owner's tray with the borne-off ones (the tray reads the
sum; the history of plays tells them apart).

**A Plakoto pin on the sensors.**  The pinned checker lies at the base of its point (slot 0)
and the first pinner is put on top of it: a north-up and a south-up magnet on one slot
partly cancel, so that slot reads empty or a weak checker of either colour, and further
pinners fill slots 1, 2 ... as usual.  A 1-on-1 pin therefore reads empty (or short) and a
pin under N reads N − 1 of the top colour, beginning after an empty slot — a "gap" that on
any other point means a faulty sensor.  The sensors cannot tell a pin from its absence, so
the host never asks them to: which points are pinned comes from the history of plays (the
board before the roll and the legal plays of the roll), and for those points slot 0 is
not read at all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Collection, Sequence

from bgboard.rules import fevga
from bgboard.rules.board import Board, VariantPlay
from bgboard.rules.games import Game
from bgboard.rules.position import BAR, OFF
from bgboard.sense.board import (
    CAPPED,
    BLACK_BAR,
    BLACK_OFF,
    WHITE_BAR,
    WHITE_OFF,
    Observation,
    SensorFaultError,
    Slots,
    clamp,
)
from bgboard.sense.slots import SlotMap

WHITE = 0
BLACK = 1


def black_point(variant: str, q: int) -> int:
    """The physical point of black's own point ``q``."""
    return fevga.theirs_at(q) if variant == "fevga" else 25 - q


@dataclass(frozen=True, slots=True)
class Physical:
    """A variant's board on the table: ``counts`` — 28 signed counts (places 1..28, white
    positive; on a pinned point the count of the pinners on top) — and ``pinned``, the
    physical points holding a pinned checker under the other colour."""

    counts: tuple[int, ...]
    pinned: frozenset[int] = frozenset()

    def expected(self, slots: Slots = Slots()) -> Observation:
        """What the sensors report, with slot 0 of each pinned point not read: the pinners
        above the first, on one slot fewer."""
        codes: list[int] = []
        for place, (n, cap) in enumerate(zip(self.counts, slots.capacities(), strict=True), start=1):
            if place in self.pinned:
                top = abs(n) - 1
                codes.append(clamp(top if n > 0 else -top, cap - 1))
            else:
                codes.append(clamp(n, cap))
        return Observation(tuple(codes))


    def fits(self, seen: Observation, slots: Slots = Slots()) -> bool:
        """True if ``seen`` can be this board: every place reads as :meth:`expected`, except
        at the last slot's stack level, the weakest estimate: a full row may read "one more"
        and a taller stack may read only "full" (noise and the firmware's hysteresis move
        it; the history of plays carries the count)."""
        for place, (code, want) in enumerate(zip(seen.codes, self.expected(slots).codes), start=1):
            if code == want:
                continue
            full = slots.capacity(place) - (place in self.pinned)
            if code * want <= 0 or {abs(code), abs(want)} != {full, CAPPED + full + 1}:
                return False
        return True


def physical(variant: str, board: Board, on_roll: int) -> Physical:
    """Where the checkers of ``board`` (seen by ``on_roll``, 0 white / 1 black) lie."""
    white = board if on_roll == WHITE else board.swap()
    w, b = white.mine, white.theirs
    black_pins = white.pins[1]
    counts = [0] * 28
    pinned: set[int] = set()
    for p in range(1, 25):
        q = black_point(variant, p)  # an involution: black's point on physical p
        if w[p] and b[q]:  # both colours: a Plakoto pin, the pinners on top
            pinned.add(p)
            counts[p - 1] = w[p] if black_pins >> q & 1 else -b[q]
        else:
            counts[p - 1] = w[p] - b[q]
    counts[WHITE_BAR - 1] = w[BAR]
    counts[BLACK_BAR - 1] = -b[BAR]
    counts[WHITE_OFF - 1] = w[OFF] + white.reserve[0]
    counts[BLACK_OFF - 1] = -(b[OFF] + white.reserve[1])
    return Physical(tuple(counts), frozenset(pinned))


def observe(slot_map: SlotMap, states: Sequence[int], pinned: Collection[int] = ()) -> Observation:
    """The observation of the board's slot states with the base slot of each ``pinned``
    point left unread (see the module docstring)."""
    return slot_map.observation(states, skip_base=pinned)


# ------------------------------------------------------------------ recognition
@dataclass(frozen=True, slots=True)
class Unchanged:
    """The board still shows the position before the roll (``no_play``: nothing can be played)."""

    no_play: bool = False


@dataclass(frozen=True, slots=True)
class Played:
    """The readings show exactly this legal play."""

    play: VariantPlay


@dataclass(frozen=True, slots=True)
class Ambiguous:
    """Several legal plays give these readings, or one does and so does the board before the
    roll (a capped stack or a pin hides a count): the player says which with the buttons."""

    plays: tuple[VariantPlay, ...]


@dataclass(frozen=True, slots=True)
class Unexplained:
    """No legal play (nor the board before the roll) gives these readings."""

    reason: str


@dataclass
class VariantTurn:
    """One roll being played in a seed variant on the real board: the board before the roll
    (``board`` seen by ``on_roll``), the dice, and every legal result as the sensors would
    read it.  :meth:`recognise` never returns a play the rules forbid: it only compares the
    readings with the legal plays' readings."""

    game: Game
    board: Board
    on_roll: int
    dice: tuple[int, int]
    slots: Slots = Slots()
    plays: tuple[VariantPlay, ...] = field(init=False)
    _before: Physical = field(init=False)
    _after: tuple[Physical, ...] = field(init=False)

    def __post_init__(self) -> None:
        self.plays = self.game.plays(self.board, self.dice)
        self._before = physical(self.game.name, self.board, self.on_roll)
        self._after = tuple(physical(self.game.name, p.board, self.on_roll) for p in self.plays)

    def recognise(self, slot_map: SlotMap, states: Sequence[int]) -> Unchanged | Played | Ambiguous | Unexplained:
        """The verdict for one settled set of slot states."""
        unchanged = _shows(slot_map, states, self._before, self.slots)
        fits = tuple(
            play for play, after in zip(self.plays, self._after) if _shows(slot_map, states, after, self.slots)
        )
        if len(fits) == 1 and not unchanged:
            return Played(fits[0])
        if fits:  # a stack taller than its slots hides the difference: the player says which
            return Ambiguous(fits)
        if unchanged:
            return Unchanged(no_play=not self.plays)
        d1, d2 = self.dice
        if not self.plays:
            return Unexplained(f"there is no legal play of {d1}-{d2}: put the checkers back")
        return Unexplained(f"the board shows no legal play of {d1}-{d2} in {self.game.title}")


def _shows(slot_map: SlotMap, states: Sequence[int], board: Physical, slots: Slots) -> bool:
    try:
        seen = observe(slot_map, states, board.pinned)
    except SensorFaultError:
        return False
    return board.fits(seen, slots)


# ------------------------------------------------------------------ setting up
def setup_text(variant: str) -> tuple[str, ...]:
    """How to set the board up for a game of ``variant`` (one line each)."""
    if variant == "plakoto":
        return ("Plakoto: 15 white on 24, 15 black on 1",)
    if variant == "fevga":
        return ("Fevga: 15 white on 24, 15 black on 12",)
    if variant == "race":
        return ("Race: 15 of each colour in its tray",)
    return ("Set up as for backgammon.",)
