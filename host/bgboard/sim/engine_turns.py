"""The simulated person's part in the engine's turns (``bgboard sim --opponent``).

When the engine (``bgboard.control.engine_player``) is to act, the person at the board only does
what the display asks: rolls the dice module for it, carries its play out checker by
checker — now and then (``--illegal-rate``) a wrong execution first: another legal play of
the roll, which the board must catch (``wrong_executions`` / ``wrong_caught`` in the summary),
put back, then the engine's play — and waits for the engine's cube answers.  Each is a script
of the driver's ops (:mod:`bgboard.sim.driver`), its verdict rows journalled with the host's
action (so a killed run resumes exactly).
"""

from __future__ import annotations

from typing import Any

from bgboard.match.state import Phase
from bgboard.sim.ops import Carry, Press, RollDice, SimulationError, Wait
from bgboard.sim.checker_moves import Move, moves_of
from bgboard.sim.players import dice_for, rng_for

__all__ = ["THINK_S", "carry_out", "engine_moves", "engine_script", "wrong_execution"]

#: How long the person waits for the engine's decision (its worker's budget: a deep level on a loaded machine).
THINK_S = 120.0


def engine_moves(position: Any, dice: tuple[int, int], steps: tuple[tuple[int, int], ...], colour: int) -> Any:
    """The legal play of ``steps`` (with its hits) and its physical moves."""
    from bgboard.rules import legal_plays

    for play in legal_plays(position, dice):
        if tuple((s.frm, s.to) for s in play.steps) == steps:
            return play, moves_of(play.steps, colour)
    raise ValueError(f"the engine's play {steps} is not a legal play of {dice[0]}-{dice[1]}")


def wrong_execution(position: Any, dice: tuple[int, int], play: Any, colour: int, seed: int, game: int, turn: int,
                    rate: float) -> tuple[Move, ...] | None:
    """Another legal play of the roll (a different result), carried instead of the engine's,
    with probability ``rate``; None otherwise or when the roll has only one result."""
    from bgboard.rules import legal_plays

    rng = rng_for(seed, game, turn, "wrong-execution")
    if rng.random() >= rate:
        return None
    others = [p for p in legal_plays(position, dice) if p.position != play.position]
    if not others:
        return None
    return moves_of(rng.choice(others).steps, colour)


def carry_out(players: Any, turn: int, n: int, what: str, whose: str, take_s: float) -> Any:
    """The person carries out the other side's play shown on the display and the LEDs (the
    engine's, or the other board's): first, once per turn at the options' illegal rate, wrongly
    — the board must catch it, and it is put back —, then as shown; the result (``accepted``:
    the board recorded exactly that play) is noted as ``what`` and returned with the play.  A
    generator of driver ops (``yield from``)."""
    from bgboard.control.events import ROLL

    c = players.controller
    carrier = c.other.carrier  # the other side's play as the room carries it out (the engine's, the other board's)
    s = c.state
    o = players.options
    side = c.other.side
    play, moves = engine_moves(s.position, s.dice, carrier.answer.steps, side)
    if (s.game, turn) not in players.attempted:
        wrong = wrong_execution(s.position, s.dice, play, side, o.seed, s.game, turn, o.illegal_rate)
        if wrong is not None:
            yield Carry(wrong)
            with players.atomic():
                caught = yield Wait(lambda: carrier.guide is not None and carrier.guide.severity == "error",
                                    "the board to catch the wrong execution", 15.0)
                players.note({"what": "wrong", "caught": bool(caught) and len(c.actions) == n,
                              "notice": carrier.guide.text if carrier.guide is not None else None})
                players.attempted.add((s.game, turn))
            yield Carry(tuple(Move(m.dst, m.src) for m in reversed(wrong)))
    want = carrier.answer.steps
    with players.atomic():
        if moves:
            yield Carry(moves)
        done = yield Wait(lambda: len(c.actions) > n or carrier.blind, f"the board to take {whose}", take_s)
        if done and carrier.blind:  # tall stacks hide the play from the sensors: the person says done
            yield Press(side, ROLL)
            done = yield Wait(lambda: len(c.actions) > n, f"the board to take {whose}", 5.0)
        accepted = bool(done) and getattr(c.actions[n], "steps", ()) == want
        players.note({"what": what, "accepted": accepted, "play": play.notation})
    return accepted, play


def engine_script(players: Any, turn: int) -> Any:
    """The person's ops while the engine is the one to act (a generator of driver ops)."""

    c = players.controller
    engine = c.other  # the room's EnginePlayer
    s = c.state
    o = players.options
    n = len(c.actions)
    if s.phase == Phase.TURN:
        # the engine doubles (an action) or asks for its dice (the display says so)
        yield Wait(lambda: len(c.actions) > n or engine.rolls_for_engine, "the engine's cube decision", THINK_S)
        if len(c.actions) == n and engine.dice == "person":  # the display asks the person to roll for it
            yield RollDice(dice_for(o.seed, s.game, turn))
    elif s.phase == Phase.PLAY:
        carrier = engine.carrier
        decided = yield Wait(lambda: len(c.actions) > n or (carrier.answer is not None and carrier.asked is not None
                                                            and carrier.asked[1] == "play"), "the engine's play", THINK_S)
        if len(c.actions) > n:  # no legal play: the engine passed at once
            return
        if not decided:
            raise SimulationError(f"the engine did not decide its play within {THINK_S:.0f} s")
        yield from carry_out(players, turn, n, "engine play", "the engine's play", 5.0)
    # DOUBLED / RESIGNED with the engine to answer: it answers by itself
    yield Wait(lambda: len(c.actions) > n or c.over, f"the engine to act in phase {s.phase}", THINK_S)
