"""Recognising plays from settled board readings (the picochess approach).

When the dice are known, :class:`Turn` computes once what the board can look like:

* the board after every legal play (``bgboard.rules.legal_plays``), as the sensors would
  read it (stacks taller than the slots read "at least N");
* every board on the way there, one checker step at a time, in any order the player may
  move the checkers of a play;
* the boards at the start of earlier turns (takebacks).

:meth:`Turn.recognise` then turns each settled :class:`Observation` into a verdict by
dictionary look-ups: exactly one legal play fits → :class:`Played`; several fit because a
stack count is uncertain → :class:`Ambiguous` (the player chooses with the buttons); the
player is still moving (possibly with a checker in the hand) → :class:`Moving` with the legal
next steps and their LED destinations; an earlier position of the game → :class:`Takeback`;
nothing fits → :class:`Illegal` with the rules engine's explanation and what to put back,
or :class:`Miscount` when the checkers do not add up.

Pure code: no I/O, no clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Iterable, Protocol, Sequence

from bgboard import rules
from bgboard.errors import InputError
from bgboard.language import Phrase
from bgboard.rules.legal import legal_plays
from bgboard.rules.play import Play
from bgboard.rules.position import BAR, OFF, Position
from bgboard.rules.step import Step, apply_step
from bgboard.sense.places import (
    BLACK,
    CAPPED,
    MIXED,
    WHITE,
    Fix,
    Observation,
    Slots,
    board_of,
    clamp,
    code_reading,
    describe_fixes,
    differences,
    guess_board,
    physical_point,
    place_name,
    position_of,
    setup_guidance,
)

Board = tuple[int, ...]


# ------------------------------------------------------------------ verdicts
@dataclass(frozen=True, slots=True)
class Unchanged:
    """The board still shows the position before the roll; ``no_play``: the roll has no
    legal play, so this *is* the complete (empty) play."""

    no_play: bool = False


@dataclass(frozen=True, slots=True)
class Played:
    """The board shows the result of exactly one legal play (a seed variant's
    ``Play[Board]`` in :meth:`bgboard.sense.tavli.VariantTurn.recognise`)."""

    play: Play


@dataclass(frozen=True, slots=True)
class Ambiguous:
    """Several legal plays fit the readings (a stack count is uncertain): the player picks one."""

    plays: tuple[Play, ...]


@dataclass(frozen=True, slots=True)
class Moving:
    """Part of a legal play is on the board.

    ``steps``: the steps made so far (in one legal order); ``lifted``: the place a checker
    has been lifted from and is still in the hand (None if none); ``next_steps``: the legal
    next steps (only those of the lifted checker when one is in the hand);
    ``destinations``: the physical places of those steps (for the LEDs).
    """

    steps: tuple[Step, ...]
    lifted: int | None
    next_steps: tuple[Step, ...]
    destinations: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Takeback:
    """The board shows the position at the start of an earlier turn: ``turns`` back (1 = the
    previous turn's start)."""

    turns: int


@dataclass(frozen=True, slots=True)
class Illegal:
    """Nothing legal fits: ``reason`` says why (one sentence), ``fixes`` what to put back to
    return to the position before the roll."""

    reason: str
    fixes: tuple[Fix, ...]

    @property
    def message(self) -> str:
        """The reason and what to put back, for the display."""
        return f"{self.reason}: put back {describe_fixes(self.fixes)}"


@dataclass(frozen=True, slots=True)
class Miscount:
    """The readings cannot be a whole board (checkers missing, both colours on a place)."""

    reason: str
    fixes: tuple[Fix, ...]


Verdict = Unchanged | Played | Ambiguous | Moving | Takeback | Illegal | Miscount


class RollReader(Protocol):
    """What the turn judge (:mod:`bgboard.control.judge`) needs of the recognition of one
    roll, in every game: backgammon's :class:`Turn` and the seed games'
    :class:`bgboard.sense.tavli.VariantTurn`, behind the one reading every caller builds
    (:class:`bgboard.sense.roll.RollReading`, from the game's registry entry)."""

    @property
    def mover(self) -> int: ...

    def recognise(self, observation: Observation) -> Verdict: ...

    def guess(self, observation: Observation, checkers: int) -> tuple[int, ...] | None: ...


# ------------------------------------------------------------------ the turn
def _step_board(position: Position, frm: int, to: int) -> Position | None:
    """The position after a physical step, or None if there is no checker on ``frm`` or
    ``to`` is held by two or more opponent checkers."""
    if position.mine[frm] == 0:
        return None
    if to != OFF and position.theirs[BAR - to] >= 2:
        return None
    return apply_step(position, Step(frm, to, 0))


class Turn:
    """What the board may show during one roll (see the module docstring).

    ``position``: before the roll, the mover on roll; ``mover``: the mover's colour
    (WHITE/BLACK); ``history``: positions at the start of earlier turns, oldest first, each
    with the colour on roll then, as ``(position, colour)`` pairs.
    """

    def __init__(
        self,
        position: Position,
        dice: tuple[int, int],
        mover: int,
        *,
        checkers: int = 15,
        slots: Slots = Slots(),
        history: Sequence[tuple[Position, int]] = (),
        plays: Sequence[Play] | None = None,
    ) -> None:
        self.position = position
        self.dice = dice
        self.mover = mover
        self.checkers = checkers
        self.slots = slots
        self.plays: tuple[Play, ...] = tuple(
            legal_plays(position, dice) if plays is None else plays
        )
        self.start = board_of(position, mover)
        self._start_key = Observation.of_board(self.start, slots).codes
        self._full: dict[Board, list[Play]] = {}
        for play in self.plays:
            key = Observation.of_board(board_of(play.position, mover), slots).codes
            self._full.setdefault(key, []).append(play)
        self._partial: dict[Board, tuple[tuple[Step, ...], Position]] = {}
        self._reach: set[Position] = {play.position for play in self.plays}
        self._index_partials()
        self._history: dict[Board, int] = {}
        for back, (earlier, colour) in enumerate(reversed(history), start=1):
            key = Observation.of_board(board_of(earlier, colour), slots).codes
            self._history.setdefault(key, back)

    def _index_partials(self) -> None:
        """Every board reached by doing some of the steps of a legal play, in any order —
        also with a blot that is about to be hit already lifted to the bar (players often
        clear the blot before moving the hitting checker)."""
        caps = self.slots.capacities()
        seen_sets: set[tuple[tuple[tuple[int, int], ...], tuple[int, ...]]] = set()

        def add(position: Position, done: tuple[Step, ...]) -> None:
            board = board_of(position, self.mover)
            key = tuple(clamp(n, c) for n, c in zip(board, caps))
            if key not in self._full and key != self._start_key:
                self._partial.setdefault(key, (done, position))

        for play in self.plays:
            steps = play.steps
            if len(steps) == 2 and steps[1].frm == steps[0].to and steps[0].die != steps[1].die:
                # one checker moving both dice may stop on either intermediate point
                first, second = steps
                via = first.frm - second.die
                if via > 0:
                    hit = self.position.theirs[BAR - via] == 1
                    after = _step_board(self.position, first.frm, via)
                    if after is not None:
                        self._reach.add(after)
                        add(after, (Step(first.frm, via, second.die, hit),))
                        if second.to != OFF and after.theirs[BAR - second.to] == 1:  # blot lifted first
                            theirs = list(after.theirs)
                            theirs[BAR - second.to] = 0
                            theirs[BAR] += 1
                            add(Position(after.mine, tuple(theirs)), (Step(first.frm, via, second.die, hit),))
            for k in range(0, len(steps)):
                for chosen in combinations(range(len(steps)), k):
                    moves = tuple(sorted((steps[i].frm, steps[i].to) for i in chosen))
                    hits = tuple(sorted(s.to for i, s in enumerate(steps) if s.hit and i not in chosen))
                    if (moves, hits) in seen_sets:
                        continue
                    seen_sets.add((moves, hits))
                    position: Position | None = self.position
                    done: list[Step] = []
                    for i in chosen:
                        position = _step_board(position, steps[i].frm, steps[i].to)
                        if position is None:
                            break
                        done.append(steps[i])
                    if position is None:
                        continue
                    if k:
                        self._reach.add(position)
                        add(position, tuple(done))
                    for i, step in enumerate(steps):
                        if i not in chosen and step.to != OFF and position.theirs[BAR - step.to] == 1:
                            theirs = list(position.theirs)
                            theirs[BAR - step.to] = 0
                            theirs[BAR] += 1
                            add(Position(position.mine, tuple(theirs)), tuple(done))

    # -------------------------------------------------------------- recognition
    def guess(self, observation: Observation, checkers: int) -> Board | None:
        """The whole board the reading most likely shows (for condoning), preferring the
        start of the roll where a reading is unsure."""
        return guess_board(observation, checkers, self.start)

    def recognise(self, observation: Observation) -> Verdict:
        """The verdict on a settled ``observation`` (see the module docstring)."""
        key = observation.codes
        found = self._full.get(key)
        if found is not None:
            return Played(found[0]) if len(found) == 1 else Ambiguous(tuple(found))
        if key == self._start_key:
            return Unchanged(no_play=not self.plays)
        partial = self._partial.get(key)
        if partial is not None:
            return self._moving(*partial, None)
        lifted = self._in_hand(key)
        if lifted is not None:
            return lifted
        back = self._history.get(key)
        if back is not None:
            return Takeback(back)
        return self._wrong(observation)

    def _in_hand(self, key: Board) -> Verdict | None:
        """A checker held in the hand: the mover's, lifted from some place, or the
        opponent's (a blot lifted before or after it was hit, on its way to the bar)."""
        sign = 1 if self.mover == WHITE else -1
        caps = self.slots.capacities()
        best: tuple[int, tuple[Step, ...], Position, int | None] | None = None
        for colour_sign in (sign, -sign):
            for place in range(1, 29):
                code = key[place - 1]
                if code == MIXED or (code != 0 and (code > 0) != (colour_sign > 0)) or _is_capped(code):
                    continue  # (a capped stack could hide the checker: not a safe guess)
                trial = key[: place - 1] + (clamp(colour_sign * (abs(code) + 1), caps[place - 1]),) + key[place:]
                lifted = place if colour_sign == sign else None
                # the likeliest first: lifted at the start, then mid-play, then after a play
                if trial == self._start_key:
                    found: tuple[int, tuple[Step, ...], Position, int | None] | None = (0, (), self.position, lifted)
                elif trial in self._partial:
                    found = (1, *self._partial[trial], lifted)
                elif trial in self._full:
                    play = self._full[trial][0]
                    found = (2, play.steps, play.position, lifted)
                else:
                    continue
                if best is None or found[0] < best[0]:
                    best = found
        if best is None:
            return None
        return self._moving(best[1], best[2], best[3])

    def _moving(self, steps: tuple[Step, ...], position: Position, lifted: int | None) -> Moving:
        nexts = self._next_steps(steps, position)
        if lifted is not None:
            own = _own_point(lifted, self.mover)
            nexts = tuple(s for s in nexts if s.frm == own)
        dests = tuple(sorted({physical_point(s.to, self.mover) for s in nexts}))
        return Moving(steps, lifted, nexts, dests)

    def _next_steps(self, steps: tuple[Step, ...], position: Position) -> tuple[Step, ...]:
        """The single steps after which the roll can still end in a legal play: those allowed
        now (bar first, bearing off from home) whose board is one of the indexed boards on
        the way to (or at) a legal play's result — the same steps as
        ``bgboard.rules.legal_steps`` (a test checks it), found by look-up."""
        left = [self.dice[0]] * 4 if self.dice[0] == self.dice[1] else list(self.dice)
        for step in steps:
            if step.die in left:
                left.remove(step.die)
        mine = position.mine
        out: list[Step] = []
        home = not any(mine[7:26])
        highest = max((p for p in range(1, 26) if mine[p]), default=0)
        for die in sorted(set(left), reverse=True):
            for frm in range(25, 0, -1):
                if not mine[frm] or (mine[BAR] and frm != BAR):
                    continue  # a checker on the bar enters first
                to = max(frm - die, OFF)
                if to == OFF and (not home or (frm < die and frm != highest)):
                    continue  # bear off only from home, with a larger die only from the top
                after = _step_board(position, frm, to)
                if after is not None and after in self._reach:
                    out.append(Step(frm, to, die, to != OFF and position.theirs[BAR - to] == 1))
        return tuple(out)

    def _wrong(self, observation: Observation) -> Verdict:
        fixes = differences(observation, self.start)
        mixed = [p for p, c in enumerate(observation.codes, start=1) if c == MIXED]
        if mixed:
            return Miscount(f"{place_name(mixed[0])} shows both colours", fixes)
        guess = guess_board(observation, self.checkers, self.start)
        if guess is None:
            return Miscount(_count_sentence(observation, self.checkers), fixes)
        result = position_of(guess, self.mover)
        reason = None
        try:
            reason = rules.explain(self.position, self.dice, result)
        except InputError:  # the engine rejects the board itself
            reason = None
        if reason is None:
            d1, d2 = self.dice
            reason = f"this is not a legal play of {d1}-{d2}"
        return Illegal(reason, fixes)


def _own_point(place: int, colour: int) -> int:
    """``colour``'s own point number of a physical place (25 = bar, 0 = tray)."""
    if place <= 24:
        return place if colour == WHITE else 25 - place
    if place in (25, 26):
        return BAR
    return OFF


def _is_capped(code: int) -> bool:
    return abs(code) > CAPPED and code != MIXED


def _count_sentence(observation: Observation, checkers: int) -> str:
    for colour in (WHITE, BLACK):
        low, high = observation.counts(colour)
        if high < checkers:
            missing = checkers - high
            if colour == WHITE:
                return Phrase.counted("%(n)d white checker missing from the board",
                                      "%(n)d white checkers missing from the board", missing)
            return Phrase.counted("%(n)d black checker missing from the board",
                                  "%(n)d black checkers missing from the board", missing)
        if low > checkers:
            if colour == WHITE:
                return Phrase("%(seen)d white checkers seen, %(expected)d expected", seen=low, expected=checkers)
            return Phrase("%(seen)d black checkers seen, %(expected)d expected", seen=low, expected=checkers)
    return Phrase("the checkers do not add up")


# ------------------------------------------------------------------ before a game
def setup_fixes(observation: Observation, start: Position, slots: Slots = Slots()) -> tuple[Fix, ...]:
    """Every place that differs from ``start`` (white's view): the "set up the board" list."""
    del slots
    return differences(observation, board_of(start, WHITE))


def setup_message(fixes: Iterable[Fix], own: bool = True, variant: str | None = None) -> str:
    """One sentence for the display: what to change to reach the start position, each
    instruction to the player whose checkers it is about, in that player's numbering
    (``own``; black's Fevga points as ``variant`` (Fevga) numbers them) or the board's
    (:func:`bgboard.sense.places.setup_guidance`)."""
    fixes = tuple(fixes)
    if not fixes:
        return Phrase("the board is set up: roll to start")
    return Phrase("set up the board — %(guidance)s", guidance=setup_guidance(fixes, own, variant))


__all__ = [
    "Ambiguous",
    "Illegal",
    "Miscount",
    "Moving",
    "Played",
    "RollReader",
    "Takeback",
    "Turn",
    "Unchanged",
    "Verdict",
    "code_reading",
    "setup_fixes",
    "setup_message",
]
