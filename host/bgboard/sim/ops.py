"""The one board protocol of the simulator: what the simulated players touch and read.

A person at the board presses the player buttons and the dice button, carries checkers over
the hall field, lays the checkers out, and watches the display until the host has done what
they expect.  Each of those is an :class:`Op`; a decision of the players is a script of ops
(:data:`Script`, a generator that is sent back what each op returned), and :func:`perform`
runs it on any :class:`Board`.  Two back ends implement the protocol:

* :class:`bgboard.sim.modelled_board.ModelledBoard` - the in-process model of the firmware's
  classify and debounce, the host's settler and controller on a virtual clock: every op is
  done at once (its coroutines never wait, so :func:`run_now` drives them without a loop);
* :class:`bgboard.sim.firmware_board.FirmwareBoard` - the real firmware under the MicroPython
  unix port on a pty, the real host app: the ops take their (scaled) time.

The turn loop that asks the players for their decisions is written once, in
:func:`bgboard.sim.driver.play`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine, Generator
from dataclasses import dataclass
from typing import Protocol, TypeVar

from bgboard.control.events import Button
from bgboard.errors import InputError
from bgboard.sim.layout import Layout
from bgboard.sim.checker_moves import Move

__all__ = [
    "TIMEOUT_S",
    "Board",
    "Carry",
    "LayOut",
    "Op",
    "Preload",
    "Press",
    "RollDice",
    "Script",
    "SetUp",
    "SimulationError",
    "Wait",
    "do",
    "perform",
    "run_now",
]

#: How long the players wait for the host to act on a decision (seconds of the board's time).
TIMEOUT_S = 15.0

T = TypeVar("T")


class SimulationError(InputError):
    """The simulated match cannot go on (a sensor fault, a journal of another match)."""


@dataclass(frozen=True, slots=True)
class Press:
    """``player`` presses ``button``."""

    player: int
    button: Button


@dataclass(frozen=True, slots=True)
class RollDice:
    """The board's dice button, rolling ``dice`` (the host must have enabled rolling)."""

    dice: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Preload:
    """The dice the module's next roll shows (the simulator's field channel: the engine's own
    roll, which the module makes by itself, is then a function of the seed too)."""

    dice: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Carry:
    """Carry checkers over the field, then let the host read the board at rest."""

    moves: tuple[Move, ...]


@dataclass(frozen=True, slots=True)
class SetUp:
    """Lay the checkers out as the match stands, and let the host read them."""


@dataclass(frozen=True, slots=True)
class LayOut:
    """Lay the checkers out as ``layout`` (a drill's position, as a person following the
    set-up guidance does): the host reads the board as it was first, then as laid out."""

    layout: Layout


@dataclass(frozen=True, slots=True)
class Wait:
    """Wait up to ``timeout_s`` until ``test()`` holds; the board sends back whether it did."""

    test: Callable[[], bool]
    what: str
    timeout_s: float = TIMEOUT_S


Op = Press | RollDice | Preload | Carry | SetUp | LayOut | Wait
#: A decision of the players: the ops it does, each sent back what the board answered.
Script = Generator[Op, bool | None, None]


class Board(Protocol):
    """What the simulated players touch (buttons, dice, checkers) and read (whether the host
    has shown what they wait for).  Every method returns once the board has done it."""

    async def press(self, player: int, button: Button) -> None:
        """``player`` presses ``button``."""
        ...

    async def roll(self, dice: tuple[int, int]) -> None:
        """Press the dice button; the roll shows ``dice``."""
        ...

    async def preload(self, dice: tuple[int, int]) -> None:
        """The dice the module's next roll of its own shows."""
        ...

    async def carry(self, moves: tuple[Move, ...]) -> None:
        """Carry checkers over the field and let the host read the board at rest."""
        ...

    async def set_up(self) -> None:
        """Lay the checkers out as the host's match stands, and let the host read them."""
        ...

    async def lay_out(self, layout: Layout) -> None:
        """Lay the checkers out as ``layout`` (see :class:`LayOut`)."""
        ...

    async def wait(self, test: Callable[[], bool], what: str, timeout_s: float) -> bool:
        """Whether ``test()`` came to hold within ``timeout_s`` of the board's time."""
        ...


async def do(board: Board, op: Op) -> bool | None:
    """One op on ``board``: what a :class:`Wait` saw, None for the others."""
    if isinstance(op, Press):
        await board.press(op.player, op.button)
    elif isinstance(op, RollDice):
        await board.roll(op.dice)
    elif isinstance(op, Preload):
        await board.preload(op.dice)
    elif isinstance(op, Carry):
        await board.carry(op.moves)
    elif isinstance(op, SetUp):
        await board.set_up()
    elif isinstance(op, LayOut):
        await board.lay_out(op.layout)
    else:
        return await board.wait(op.test, op.what, op.timeout_s)
    return None


async def perform(script: Script, board: Board, step: Callable[[Board, Op], Awaitable[bool | None]] = do) -> None:
    """Run a decision's script on ``board`` (``step`` does one op: :func:`do` unless a back
    end adds to it)."""
    try:
        result: bool | None = None
        while True:
            result = await step(board, script.send(result))
    except StopIteration:
        return
    finally:
        script.close()  # a failed op: an open journal transaction is rolled back now


def run_now(coroutine: Coroutine[object, None, T]) -> T:
    """The result of ``coroutine`` that never waits (the modelled board's ops are done at
    once), without an event loop: it may run inside one, as the club's boards do.  A
    coroutine that waits is a bug of its back end (``RuntimeError``)."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    coroutine.close()
    raise RuntimeError("the modelled board waited for time to pass")  # a bug of a back end, not of the input
