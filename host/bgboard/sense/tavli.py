"""Sensing the seed (tavli) games: where their checkers lie on the physical board, what the hall
sensors report for them, and which legal play a reading shows (pure code).

The physical board is numbered from white's view (:mod:`bgboard.sense.places`).  Black's
point ``q`` lies on physical point ``25 - q`` in Plakoto, Anti and Race, and on ``q - 12``
(``q + 12`` for ``q <= 12``) in Fevga, where both sides go the same way round.  Race's
unentered checkers wait in their owner's tray with the borne-off ones (the tray reads the
sum; the history of plays tells them apart).

**A Plakoto pin on the sensors.**  The pinner lies on the pinned checker (of the other
colour) wherever that one lay, and their two magnets face each other: centred, the pinned
one's field less the pinner's leaves 0.46 of a checker of the pinned colour, below the 0.58
that reads a checker, and set off by the player's hand either field may win (the physics
field, hardware/README.md "Plakoto pins", tests/sim/test_pin_physics.py).  So a pin's spot
reads dark or one checker of the pinned colour, now and then one of the pinners' or one of
each side by side, and the firmware reports the point's runs from its base (firmware/runs.py;
with one sensor per slot the pin's slot reads so in place, at the base).  The host reads a
pinned point as **its pinners' count, with at most one checker of the pinned colour left
out and an empty base skipped**, and takes N pinners to read N − 1 (the pin's spot dark or
the pinned colour) or N (the pinners' colour): both, so the reading never depends on where
the player set the pin.  Which points are pinned, and by whom, the sensors cannot tell (a
1-on-1 pin may read exactly as the lone checker before it): the host takes it from the
history of plays (the board before the roll and the legal plays of the roll).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from typing import Callable, Collection, Sequence

from bgboard.language import Phrase
from bgboard.rules import fevga
from bgboard.rules.board import Board
from bgboard.rules.games import GAMES, Game
from bgboard.rules.play import Play
from bgboard.rules.position import BAR, OFF
from bgboard.rules.step import Step
from bgboard.sense import recognise as judged
from bgboard.sense.places import (
    CAPPED,
    BLACK_BAR,
    BLACK_OFF,
    WHITE_BAR,
    WHITE_OFF,
    Fix,
    Observation,
    SensorFaultError,
    Slots,
    clamp,
    code_fits,
    code_reading,
)
from bgboard.sense.slots import FAULT, SlotMap

WHITE = 0
BLACK = 1


def black_point(variant: str, q: int) -> int:
    """The physical point of black's own point ``q`` in the game called ``variant``."""
    return fevga.theirs_at(q) if GAMES[variant].same_way else 25 - q


@dataclass(frozen=True, slots=True)
class Physical:
    """A variant's board on the table: ``counts`` — 28 signed counts (places 1..28, white
    positive; on a pinned point the count of the pinners on top) — and ``pinned``, the
    physical points holding a pinned checker under the other colour."""

    counts: tuple[int, ...]
    pinned: frozenset[int] = frozenset()

    @property
    def pins(self) -> tuple[tuple[int, int], ...]:
        """``(point, sign)`` of each pinned point: the pinners' colour, +1 white, -1 black."""
        return tuple((p, 1 if self.counts[p - 1] > 0 else -1) for p in sorted(self.pinned))

    def expected(self, slots: Slots = Slots()) -> Observation:
        """What the sensors report, as :func:`observe` reads them with this board's pins: on
        a pinned point the pinners but the first (the pin's spot reads dark or the pinned
        colour), on one slot fewer (the pin's spot takes one); :meth:`fits` also takes a
        pin's spot that reads the pinners' colour."""
        return _expected(self.counts, self.pinned, slots)

    def settled(self, seen: Observation, slots: Slots = Slots()) -> Observation:
        """``seen`` with each pinned point that reads as this board's pin (its spot dark, the
        pinned colour or the pinners') given :meth:`expected`'s code: the reading the other
        places are compared with (:meth:`fits`, :func:`one_lifted`, what to put back)."""
        if not self.pinned:
            return seen
        codes = list(seen.codes)
        want = self.expected(slots).codes
        for place in self.pinned:
            n, cap = self.counts[place - 1], slots.capacity(place)
            sign = 1 if n > 0 else -1
            if any(_reads(codes[place - 1], clamp(sign * m, full), full) for m, full in ((abs(n) - 1, cap - 1), (abs(n), cap))):
                codes[place - 1] = want[place - 1]
        return Observation(tuple(codes), seen.states)

    def fits(self, seen: Observation, slots: Slots = Slots()) -> bool:
        """True if ``seen`` (read by :func:`observe` with this board's pins) can be this
        board: every place reads as :meth:`expected`, except at the last slot's stack level,
        the weakest estimate: a full row may read "one more" and a taller stack may read
        only "full" (noise and the firmware's hysteresis move it; the history of plays
        carries the count); and a pinned point may read its N pinners as N − 1 or N (the
        module docstring)."""
        settled = self.settled(seen, slots)
        for place, (code, want) in enumerate(zip(settled.codes, self.expected(slots).codes), start=1):
            if code != want and not _reads(code, want, slots.capacity(place) - (place in self.pinned)):
                return False
        return True


@functools.lru_cache(maxsize=4096)
def _expected(counts: tuple[int, ...], pinned: frozenset[int], slots: Slots) -> Observation:
    """:meth:`Physical.expected`, made once per board: recognition compares every legal
    play's board with each settled reading, the same boards turn after turn."""
    codes: list[int] = []
    for place, (n, cap) in enumerate(zip(counts, slots.capacities(), strict=True), start=1):
        if place in pinned:
            top = abs(n) - 1
            codes.append(clamp(top if n > 0 else -top, cap - 1))
        else:
            codes.append(clamp(n, cap))
    return Observation(tuple(codes))


def _reads(code: int, want: int, full: int) -> bool:
    """True if a place of ``full`` exactly counted slots that should read ``want`` (a code:
    :func:`clamp`) may read ``code``: the same, or a full row read as "one more" and a
    taller stack read as "full" (the last slot's stack level, the weakest estimate)."""
    if code == want:
        return True
    return code * want > 0 and {abs(code), abs(want)} == {full, CAPPED + full + 1}


_SAME_WAY_POINTS = tuple((p, fevga.theirs_at(p)) for p in range(1, 25))
_MIRROR_POINTS = tuple((p, 25 - p) for p in range(1, 25))


def physical(variant: str, board: Board, on_roll: int) -> Physical:
    """Where the checkers of ``board`` (seen by ``on_roll``, 0 white / 1 black) lie."""
    white = board if on_roll == WHITE else board.swap()
    w, b = white.mine, white.theirs
    black_pins = white.pins[1]
    counts = [0] * 28
    pinned: set[int] = set()
    # black_point is an involution: black's point on physical p (the table: this runs for
    # every board on the way to every legal play of a roll, on the asyncio loop)
    for p, q in _SAME_WAY_POINTS if GAMES[variant].same_way else _MIRROR_POINTS:
        wp, bq = w[p], b[q]
        if wp and bq:  # both colours: a Plakoto pin, the pinners on top
            pinned.add(p)
            counts[p - 1] = wp if black_pins >> q & 1 else -bq
        else:
            counts[p - 1] = wp - bq
    counts[WHITE_BAR - 1] = w[BAR]
    counts[BLACK_BAR - 1] = -b[BAR]
    counts[WHITE_OFF - 1] = w[OFF] + white.reserve[0]
    counts[BLACK_OFF - 1] = -(b[OFF] + white.reserve[1])
    return Physical(tuple(counts), frozenset(pinned))


def pin_row(row: Sequence[int], sign: int) -> list[int]:
    """A pinned point's slot states (from its base) as the host reads its pinners (``sign``:
    their colour, +1 white / -1 black): the first slot of the pinned colour left out (the
    pin's spot, wherever along the run it shows), then an empty base (one sensor per slot:
    the pin's spot at the base reading dark), the rest moved down and empty slots added, so
    the row keeps its length; a stack level among fewer pinners than the row's slots is read
    as one checker (the pin's magnets reach the pinner beside it)."""
    pinned = 2 if sign > 0 else 1
    out = list(row)
    for i, state in enumerate(out):
        if state & 3 == pinned:
            del out[i]
            break
    if out and out[0] & 3 == 0:
        del out[0]
    if len([x for x in out if x & 3]) < len(row):
        # the pinner lies 7 mm up on its victim, and its field and the victim's return field
        # reach the pinner beside it (up to 0.1 of a checker each): a stack level there is not
        # a stack (further pinners go beside the pin, as a row goes) until the row is full
        out = [1 << 2 | x & 3 if x & 3 in (1, 2) else x for x in out]
    return out + [0] * (len(row) - len(out))


def observe(slot_map: SlotMap, states: Sequence[int], pins: Collection[tuple[int, int]] = ()) -> Observation:
    """The observation of the board's slot states with each pinned point read as its pinners
    (``pins``: ``(point, sign)`` pairs, :attr:`Physical.pins`; :func:`pin_row`)."""
    if pins and len(states) == slot_map.count:
        states = list(states)
        for place, sign in pins:
            wires = slot_map.places[place - 1]
            for wire, state in zip(wires, pin_row([states[w] for w in wires], sign), strict=True):
                states[wire] = state
    return slot_map.observation(states)


def read_board(slot_map: SlotMap, states: Sequence[int], pins: bool = True) -> Observation:
    """A seed variant's board as the host's settler and controller get it: the place codes
    and, kept with them, the slot states (:meth:`VariantTurn.recognise` reads those with
    the pins the history of plays knows).  With ``pins`` (a match that may play Plakoto)
    a point whose slots show both colours, one of them on a single slot, is read as a pin
    under the other colour (:func:`pin_row`; both single: the base one pinned), and a point
    with an empty base under a checker as one whose pin's spot reads dark (one sensor per
    slot) — which the plain reading would call a faulty sensor; which points are really
    pinned the host knows from the history of plays, not from this reading."""
    if len(states) != slot_map.count:
        raise SensorFaultError(Phrase("the board reported %(slots)d slots, the grid has %(grid)d", slots=len(states),
                                      grid=slot_map.count))
    guessed: list[tuple[int, int]] = []
    if pins:
        for place in range(1, 25):
            colours = [states[w] & 3 for w in slot_map.places[place - 1]]
            if FAULT in colours:
                continue
            white, black = colours.count(1), colours.count(2)
            if white and black and min(white, black) == 1:
                if white == black == 1:  # the base one is the pinned one
                    guessed.append((place, 1 if next(c for c in colours if c) == 2 else -1))
                else:
                    guessed.append((place, 1 if white > black else -1))
            elif colours and not colours[0] and any(colours):
                guessed.append((place, 1 if white else -1))
    return Observation(observe(slot_map, states, guessed).codes, tuple(states))


def place_of(variant: str, index: int, colour: int, *, reserve: bool = False) -> int:
    """The physical place (1..28, :mod:`bgboard.sense.places`) of ``colour``'s own index
    (0 off, 1..24 points, 25 bar; ``reserve``: Race's unentered checkers, in the tray)."""
    if index == OFF or (index == BAR and reserve):
        return WHITE_OFF if colour == WHITE else BLACK_OFF
    if index == BAR:
        return WHITE_BAR if colour == WHITE else BLACK_BAR
    return index if colour == WHITE else black_point(variant, index)


# ------------------------------------------------------------------ recognition
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
    slot_map: SlotMap | None = None
    plays: tuple[Play[Board], ...] = field(init=False)
    _before: Physical = field(init=False)
    _after: tuple[Physical, ...] = field(init=False)
    _partial: dict[Board, tuple[tuple[Step, ...], Physical]] | None = field(init=False, default=None)
    _steps: dict[tuple[Board, int], list[tuple[Step, Board]]] = field(init=False, default_factory=lambda: {})
    _rules: Callable[[Board, int], list[tuple[Step, Board]]] = field(init=False)

    def __post_init__(self) -> None:
        # The rules' single steps from each board met, kept for the roll: the plays' search,
        # the boards on the way (partials) and the next steps (LEDs) walk the same tree, so
        # each (board, die) is generated once per roll.  Same rules, same plays: only the
        # repeated work goes (a double's tree cost up to ~20 ms of CPU twice on the loop).
        self._rules = self.game.steps_from
        self.game = replace(self.game, steps_from=self._steps_from)
        self.plays = self.game.plays(self.board, self.dice)
        self._before = physical(self.game.name, self.board, self.on_roll)
        self._after = tuple(physical(self.game.name, p.position, self.on_roll) for p in self.plays)

    @property
    def mover(self) -> int:
        """The colour on roll (0 white, 1 black)."""
        return self.on_roll

    def _steps_from(self, board: Board, die: int) -> list[tuple[Step, Board]]:
        key = (board, die)
        found = self._steps.get(key)
        if found is None:
            found = self._steps[key] = self._rules(board, die)
        return found

    # -------------------------------------------------------------- the controller's verdict
    def guess(self, observation: Observation, checkers: int) -> tuple[int, ...] | None:
        """No whole board is guessed for condoning: condoning is for backgammon only."""
        return None

    def recognise(self, observation: Observation) -> judged.Verdict:
        """The controller's verdict (:mod:`bgboard.sense.recognise`'s kinds) on a settled
        reading of :func:`read_board`: a legal play (or several a stack or pin hides), the
        board unchanged, part of a legal play with the next legal steps (the LEDs), or
        nothing legal — with what to put back.  Never a play the rules forbid: only the
        legal plays' and their steps' readings are compared, each read with its own pins
        (:func:`observe` of ``observation.states``; without them, the codes alone)."""
        seen: dict[tuple[tuple[int, int], ...], Observation | None] = {}

        def shows(board: Physical) -> bool:
            if board.pins not in seen:
                seen[board.pins] = self._read(observation, board.pins)
            reading = seen[board.pins]
            return reading is not None and board.fits(reading, self.slots)

        unchanged = shows(self._before)
        fits = tuple(play for play, after in zip(self.plays, self._after) if shows(after))
        if len(fits) == 1 and not unchanged:
            return judged.Played(fits[0])
        if fits:
            return judged.Ambiguous(fits)
        if unchanged:
            return judged.Unchanged(no_play=not self.plays)
        partials = self.partials()
        for board, (steps, place) in partials.items():
            if shows(place):
                return self._moving(board, steps)
        # a checker in the hand: one fewer on one place than the board before the roll, on
        # the way, or after a legal play (the likeliest first)
        candidates = [(self.board, (), self._before), *((b, st, ph) for b, (st, ph) in partials.items()),
                      *((p.position, p.steps, ph) for p, ph in zip(self.plays, self._after))]
        for board, steps, place in candidates:
            if place.pins not in seen:
                seen[place.pins] = self._read(observation, place.pins)
            reading = seen[place.pins]
            lifted = None if reading is None else one_lifted(place.settled(reading, self.slots), place.expected(self.slots))
            if lifted is not None:
                moving = self._moving(board, steps)
                if lifted[1] != self.on_roll:  # the opponent's checker on its way to the bar
                    return moving
                own = [s for s in moving.next_steps if place_of(self.game.name, s.frm, self.on_roll,
                                                                 reserve=s.frm == BAR and not board.mine[BAR]) == lifted[0]]
                dests = tuple(sorted({place_of(self.game.name, s.to, self.on_roll) for s in own}))
                return judged.Moving(steps, lifted[0], tuple(own), dests)
        d1, d2 = self.dice
        if not self.plays:
            reason = f"there is no legal play of {d1}-{d2}"
        else:
            reason = f"the board shows no legal play of {d1}-{d2} in {self.game.title}"
        return judged.Illegal(reason, self._fixes(observation, seen.get(self._before.pins)))

    def _read(self, observation: Observation, pins: tuple[tuple[int, int], ...]) -> Observation | None:
        if self.slot_map is not None and observation.states:
            try:
                return observe(self.slot_map, observation.states, pins)
            except SensorFaultError:
                return None
        return observation if not pins else None

    def _fixes(self, observation: Observation, reading: Observation | None) -> tuple[Fix, ...]:
        """The places that differ from the board before the roll (what to put back)."""
        seen = self._before.settled(reading, self.slots) if reading is not None else observation
        want = self._before.expected(self.slots).codes
        fixes: list[Fix] = []
        for place, (code, expected, count) in enumerate(zip(seen.codes, want, self._before.counts), start=1):
            if code != expected and not code_fits(code, count):
                fixes.append(Fix(place, count, code_reading(code)))
        return tuple(fixes)

    def partials(self) -> dict[Board, tuple[tuple[Step, ...], Physical]]:
        """Every board on the way to a legal play, one checker step at a time (the steps in
        any order the rules allow each), with the steps made and its physical board."""
        if self._partial is None:
            finals = {p.position for p in self.plays}
            d1, d2 = self.dice
            dice = (d1,) * 4 if d1 == d2 else (d1, d2)
            found: dict[Board, tuple[Step, ...]] = {}
            memo: dict[tuple[Board, tuple[int, ...]], bool] = {}

            def walk(board: Board, left: tuple[int, ...], done: tuple[Step, ...]) -> bool:
                key = (board, left)
                ok = memo.get(key)
                if ok is None:
                    ok = False
                    if board in finals and done:
                        ok = True
                    else:
                        for die in sorted(set(left)):
                            rest = list(left)
                            rest.remove(die)
                            for step, after in self.game.steps_from(board, die):
                                ok = walk(after, tuple(rest), (*done, step)) or ok
                    memo[key] = ok
                if ok and done and board not in finals:
                    found.setdefault(board, done)
                return ok

            if finals:
                walk(self.board, dice, ())
            self._partial = {
                b: (steps, physical(self.game.name, b, self.on_roll)) for b, steps in found.items() if b != self.board
            }
        return self._partial

    def _moving(self, board: Board, steps: tuple[Step, ...]) -> judged.Moving:
        """Part of a play on the board: the next legal steps and where they land (LEDs)."""
        d1, d2 = self.dice
        left = [d1] * 4 if d1 == d2 else [d1, d2]
        for step in steps:
            if step.die in left:
                left.remove(step.die)
        reach = self.partials().keys() | {p.position for p in self.plays}
        nexts = tuple(
            step
            for die in sorted(set(left), reverse=True)
            for step, after in self.game.steps_from(board, die)
            if after in reach
        )
        dests = tuple(sorted({place_of(self.game.name, s.to, self.on_roll) for s in nexts}))
        return judged.Moving(steps, None, nexts, dests)

def one_lifted(seen: Observation, want: Observation) -> tuple[int, int] | None:
    """``(place, colour)`` when ``seen`` is ``want`` with one checker lifted off one place
    (an exact count there: a capped stack could hide it), else None."""
    found: tuple[int, int] | None = None
    for place, (code, expected) in enumerate(zip(seen.codes, want.codes), start=1):
        if code == expected:
            continue
        if found is not None or abs(expected) > CAPPED or abs(code) > CAPPED or code * expected < 0:
            return None
        if abs(expected) - abs(code) != 1:
            return None
        found = (place, WHITE if expected > 0 else BLACK)
    return found


# ------------------------------------------------------------------ setting up
def setup_text(variant: str) -> tuple[str, ...]:
    """How to set the board up for a game of ``variant`` (one line each: the registry's)."""
    return (GAMES[variant].setup,)


def start_counts(variant: str) -> tuple[int, ...]:
    """The 28 signed physical counts of the start of the game called ``variant``."""
    game = GAMES[variant]
    return physical(game.name, game.start(), WHITE).counts
