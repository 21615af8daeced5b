"""Simulated players (pure): what a person at the board does on each turn.

Every decision is a deterministic function of ``(seed, game, turn, purpose)`` - never of
how the run got there - so a match interrupted and resumed from the journal ends exactly as
an uninterrupted one.  A player

* picks a legal play with a small heuristic (hits, made points, safe checkers) and a seeded
  tie-break, and lays it out as physical moves, one checker at a time; a hit first moves the
  opponent's blot to the bar;
* doubles, takes and drops by a simple pip-count rule with a seeded coin;
* at ``illegal_rate`` first tries an illegal play (a die played by the wrong distance, one
  die left unplayed where that die cannot start the play, a checker moved while one waits
  on the bar) - always one that the rules engine's ``explain`` rejects with a reason, never
  a legal first step (that is a play still in progress, not an illegal one) - and then
  corrects it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import product
from typing import Sequence

from bgboard.rules import BAR, OFF, Position
from bgboard.rules.board import Board
from bgboard.rules.game import Game
from bgboard.rules.play import Play
from bgboard.rules.step import Step
from bgboard.sense.places import Slots
from bgboard.sense.tavli import Physical
from bgboard.sim.layout import BAR_PLACES, OFF_PLACES, Layout, place_of


def rng_for(seed: int, game: int, turn: int, purpose: str) -> random.Random:
    """The random source of one decision (string seeds hash with SHA-512: stable)."""
    return random.Random(f"bgboard-sim:{seed}:{game}:{turn}:{purpose}")


def dice_for(seed: int, game: int, turn: int) -> tuple[int, int]:
    """The dice of one turn (turn 0 of a game is the opening roll: never a double)."""
    rng = rng_for(seed, game, turn, "dice")
    while True:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        if turn > 0 or d1 != d2:
            return d1, d2


@dataclass(frozen=True, slots=True)
class Move:
    """One checker carried from ``src`` to ``dst`` (physical place names)."""

    src: str
    dst: str
    pin: bool = False  # a Plakoto pinner set on a single checker of the other colour


@dataclass(frozen=True, slots=True)
class Attempt:
    """A wrong play a learner tries first: its physical moves, the layout they leave and the
    reason the rules engine gives."""

    moves: tuple[Move, ...]
    result: Position
    reason: str


def moves_of(steps: Sequence[object], colour: int) -> tuple[Move, ...]:
    """Physical moves of a play's steps (``Step(frm, to, die, hit)``) for the mover of
    ``colour``; a hit first carries the opponent's blot to its bar."""
    out: list[Move] = []
    for step in steps:
        frm, to, hit = step.frm, step.to, step.hit  # type: ignore[attr-defined]
        if hit:
            out.append(Move(place_of(to, colour), BAR_PLACES[1 - colour]))
        out.append(Move(place_of(frm, colour), place_of(to, colour)))
    return tuple(out)


def _score(before: Position, after: Position, rng: random.Random) -> float:
    """Heuristic value of a play's result (before the sides swap) for the mover."""
    mine, theirs = after.mine, after.theirs
    hits = theirs[BAR] - before.theirs[BAR]
    made = sum(1 for p in range(1, 25) if mine[p] >= 2)
    blots = sum(1 for p in range(1, 25) if mine[p] == 1)
    home = sum(mine[p] for p in range(1, 7)) + 2 * mine[OFF]
    return 3.0 * hits + 1.0 * made - 1.2 * blots + 0.4 * home + rng.random()


def choose_play(game: Game, board: Board, dice: tuple[int, int], seed: int, number: int, turn: int) -> Play | None:
    """The legal play this player makes in ``game`` from ``board`` (the player on roll
    moves), or ``None`` when there is none (a pass): in backgammon's games the play
    heuristic above over the fast generator's plays; in a seed game the self-play heuristic
    (:func:`bgboard.match.selfplay.variant_score`); either with a seeded tie-break."""
    from bgboard.match.selfplay import variant_score
    from bgboard.rules import legal_plays

    rng = rng_for(seed, number, turn, "play")
    if not game.seed:
        position = board.plain()
        found = legal_plays(position, dice)
        return max(found, key=lambda play: _score(position, play.position, rng)) if found else None
    plays = game.plays(board, dice)
    if not plays:
        return None
    return max(plays, key=lambda p: variant_score(game, p.position, game.outcome(p.position)) + rng.random())


#: Place names of the host's place numbers 25..28.
_PLACE_NAMES = {25: BAR_PLACES[0], 26: BAR_PLACES[1], 27: OFF_PLACES[0], 28: OFF_PLACES[1]}


def variant_moves(game: Game, board: Board, steps: Sequence[Step], colour: int) -> tuple[Move, ...]:
    """Physical moves of a seed variant's steps from ``board`` (the mover of ``colour`` on
    roll): Fevga's black on its own side of the table, Race's checkers entering from the
    tray, a hit (Race, Anti) first carries the blot to its bar, a Plakoto pin sets the
    pinner on the single checker."""
    from bgboard.sense.tavli import place_of as host_place

    def name(place: int) -> str:
        return _PLACE_NAMES.get(place, str(place))

    out: list[Move] = []
    for step in steps:
        after = next((a for st, a in game.steps_from(board, step.die) if st == step), None)
        if after is None:
            raise ValueError(f"{step} is not a step of {game.title} here")
        src = name(host_place(game.name, step.frm, colour, reserve=step.frm == BAR and not board.mine[BAR]))
        dst = name(host_place(game.name, step.to, colour))
        pinning = step.hit and game.pins
        if step.hit and not pinning:
            out.append(Move(dst, BAR_PLACES[1 - colour]))
        out.append(Move(src, dst, pin=pinning))
        board = after
    return tuple(out)


def variant_illegal_attempt(
    game: Game,
    board: Board,
    dice: tuple[int, int],
    colour: int,
    seed: int,
    number: int,
    turn: int,
    rate: float,
    capacity: int = 5,
) -> Attempt | None:
    """At ``rate``, a wrong play of a seed variant a learner tries first: one checker moved
    by a die's distance plus or minus one onto an empty point or its own, whose board the
    sensors tell from every legal play, every board on the way to one and the board before
    the roll.  The host's reason for it (:meth:`bgboard.sense.tavli.VariantTurn.recognise`)
    is the ``reason``.  None when there is no such move (or at the rate's coin)."""
    rng = rng_for(seed, number, turn, "illegal")
    if rate <= 0 or rng.random() >= rate:
        return None
    from bgboard.sense.tavli import VariantTurn, physical
    from bgboard.sense.tavli import place_of as host_place

    legal = VariantTurn(game, board, colour, dice)
    if not legal.plays:
        return None
    slots = Slots(point=capacity)
    shapes = [physical(game.name, board, colour)] + [physical(game.name, p.position, colour) for p in legal.plays]
    shapes += [place for _, place in legal.partials().values()]
    mine, theirs = board.mine, board.theirs
    candidates: list[tuple[int, int]] = []
    for frm in range(24, 0, -1):
        if not mine[frm] or board.pins[0] >> frm & 1 or (mine[frm] == 1 and board.pins[1] >> game.opposite(frm) & 1):
            continue  # no checker, a pinned one (under the opponent's) or a lone pinner
        for die in sorted(set(dice)):
            for to in (frm - die - 1, frm - die + 1):
                if 1 <= to < frm and not theirs[game.opposite(to)] and mine[to] < capacity - 1:
                    candidates.append((frm, to))
    rng.shuffle(candidates)
    for frm, to in candidates:
        after = list(mine)
        after[frm] -= 1
        after[to] += 1
        result = Board(tuple(after), theirs, board.pins, board.reserve)
        table = physical(game.name, result, colour)
        if any(_could_read_as(table, shape, slots) for shape in shapes):
            continue  # the host could take it for a legal board (or one with a checker in the hand)
        src, dst = (_PLACE_NAMES.get(p, str(p)) for p in (host_place(game.name, frm, colour), host_place(game.name, to, colour)))
        d1, d2 = dice
        return Attempt(
            (Move(src, dst),),
            result.plain(),
            f"the board shows no legal play of {d1}-{d2} in {game.title}",
        )
    return None


def _could_read_as(table: Physical, shape: Physical, slots: Slots) -> bool:
    """True if the host could read the table ``table`` as the board ``shape`` (a legal one,
    or one with a checker in the hand).  A pin's spot reads dark in the field model, or now
    and then, under noise, one checker of the pinned colour (bgboard.sense.tavli): the host
    leaves that out on a point ``shape`` says is pinned, but where ``shape`` has no pin, a
    1-on-1 pin so read is the pinned checker alone — every such choice is tried."""
    from bgboard.sense.places import Observation
    from bgboard.sense.tavli import one_lifted

    seen = table.expected(slots)  # the pins' spots dark: the pinners but the first
    free = [(p, sign) for p, sign in table.pins if abs(table.counts[p - 1]) == 1 and p not in shape.pinned]
    for choice in product((False, True), repeat=len(free)):
        codes = list(seen.codes)
        for (p, sign), lit in zip(free, choice):
            if lit:
                codes[p - 1] = -sign
        reading = Observation(tuple(codes))
        if shape.fits(reading, slots) or one_lifted(shape.settled(reading, slots), shape.expected(slots)):
            return True
    return False


def _apply_moves(position: Position, moves: Sequence[Move], colour: int) -> Position | None:
    layout = Layout.from_position(position, colour)
    try:
        for m in moves:
            layout, c = layout.lift(m.src)
            layout = layout.put(m.dst, c)
    except ValueError:
        return None
    return layout.to_position(colour)


def illegal_attempt(
    position: Position,
    dice: tuple[int, int],
    colour: int,
    seed: int,
    game: int,
    turn: int,
    rate: float,
    capacity: int = 5,
) -> Attempt | None:
    """At ``rate``, a plausible wrong play for this turn that the rules engine rejects.

    None while the mover has a stack taller than a point's ``capacity`` (sensor slots), and
    never a checker put on a stack as tall as ``capacity``: the sensors cannot count such a
    stack exactly, so the board could also be a play in progress with a checker in the
    hand - the host rightly says "finish your play first" there, not why the play is
    illegal."""
    rng = rng_for(seed, game, turn, "illegal")
    if rate <= 0 or rng.random() >= rate:
        return None
    if max(position.mine[1:25]) > capacity:
        return None
    from bgboard.rules import explain, legal_plays, legal_steps

    partial = _partial_results(position, dice)
    plays = legal_plays(position, dice)
    candidates: list[tuple[Move, ...]] = []
    for play in plays[:8]:
        steps = list(play.steps)
        # one die left unplayed
        if len(steps) >= 2:
            candidates.append(moves_of(steps[:1], colour))
        # a die played by the wrong distance
        for s in steps:
            for delta in (1, -1):
                to = s.to + delta if s.to != OFF else s.frm - s.die + delta
                if 1 <= to <= 24 and to != s.frm and to < s.frm:
                    candidates.append((Move(place_of(s.frm, colour), place_of(to, colour)),))
    if position.mine[BAR]:
        # move another checker while one waits on the bar
        for p in range(24, 0, -1):
            if position.mine[p]:
                to = p - dice[0]
                if 1 <= to and position.theirs[25 - to] == 0:
                    candidates.append((Move(place_of(p, colour), place_of(to, colour)),))
                    break
    rng.shuffle(candidates)
    seen: set[Position] = set()
    for moves in candidates:
        result = _apply_moves(position, moves, colour)
        if result is None or result in seen or result.problems():
            continue
        start = Layout.from_position(position, colour)
        if any(start.at(m.dst)[1] >= capacity for m in moves):
            continue  # lands unseen on a tall stack
        if result in partial:
            continue  # part of a legal play: the player is still moving, not playing illegally
        seen.add(result)
        reason = explain(position, dice, result)
        if reason:
            return Attempt(moves, result, reason)
    return None


def _partial_results(position: Position, dice: tuple[int, int]) -> set[Position]:
    """Every position reached by some but not all steps of a legal play, the steps taken in
    any order (a player may enter from the bar last): a board still being moved."""
    from itertools import combinations

    from bgboard.rules import legal_plays

    found: set[Position] = set()
    for play in legal_plays(position, dice):
        steps = play.steps
        for k in range(1, len(steps)):
            for chosen in combinations(steps, k):
                mine, theirs = list(position.mine), list(position.theirs)
                for st in chosen:
                    mine[st.frm] -= 1
                    mine[st.to] += 1
                    if st.to != OFF and theirs[25 - st.to] == 1:
                        theirs[25 - st.to] = 0
                        theirs[BAR] += 1
                if min(mine) >= 0:
                    found.add(Position(tuple(mine), tuple(theirs)))
    # ... and every position on the way by single legal steps, either die first
    from bgboard.rules import apply_step, legal_steps

    stack: list[tuple[Position, tuple[object, ...]]] = [(position, ())]
    seen: set[Position] = set()
    while stack:
        here, done = stack.pop()
        for step in legal_steps(position, dice, done):  # type: ignore[arg-type]
            after = apply_step(here, step)
            nxt = (*done, step)
            if after not in seen and legal_steps(position, dice, nxt):  # type: ignore[arg-type]
                seen.add(after)
                found.add(after)
                stack.append((after, nxt))
    return found


def wants_double(position: Position, seed: int, game: int, turn: int) -> bool:
    """Offer the cube when clearly ahead in the race (and a seeded coin agrees)."""
    mine, theirs = position.pips()
    rng = rng_for(seed, game, turn, "double")
    return mine + 8 < theirs * 0.92 and rng.random() < 0.6


def takes(position: Position, seed: int, game: int, turn: int) -> bool:
    """Answer a double (``position`` seen by the taker): take unless far behind."""
    mine, theirs = position.pips()
    rng = rng_for(seed, game, turn, "take")
    return mine <= theirs * 1.18 or rng.random() < 0.15
