"""The simulated person's turns while the other board of a remote match acts (a generator
of driver ops, as :mod:`bgboard.sim.engine_turns` is for the engine): wait for the other
board's decision, and carry its play out on this board as the display and the LEDs show it.
Below the driver (:mod:`bgboard.sim.driver` asks :func:`remote_decides` and runs
:func:`remote_script`), above the ops; :mod:`bgboard.sim.remote_run` runs the boards."""

from __future__ import annotations

from typing import Any

from bgboard.errors import EnvironmentFailure
from bgboard.match.state import Phase
from bgboard.sim.engine_turns import carry_out
from bgboard.sim.ops import SetUp, SimulationError, Wait

__all__ = ["REMOTE_WAIT_S", "RemoteLoginError", "remote_decides", "remote_script", "stopped"]

#: How long a person waits for the other board (its person, a restart, a broker coming back).
REMOTE_WAIT_S = 600.0


def remote_decides(controller: Any, state: Any) -> bool:
    """Whether the match waits for the other board now (its decision, or a game it starts)."""
    if state.phase in (Phase.OPENING, Phase.GAME_OVER):
        return bool(controller.other.side == 0)
    return bool(state.decider == controller.other.side)


def remote_script(players: Any, turn: int) -> Any:
    """The person's ops while the other board acts (a generator of driver ops)."""
    c = players.controller
    peer, carrier = c.other.peer, c.other.carrier  # the room's RemotePlayer: the other board, its play carried out here
    s = c.state
    n = len(c.actions)
    if s.phase == Phase.GAME_OVER:
        yield SetUp()  # the person sets the board up while the other board starts the next game
    if s.phase == Phase.PLAY:
        shown = yield Wait(lambda: len(c.actions) > n or peer.problem is not None
                           or (carrier.answer is not None and carrier.asked == carrier.key("play", s)), "the other board's play",
                           REMOTE_WAIT_S)
        stopped(c)
        if not shown:
            raise SimulationError(f"the other board's play did not come within {REMOTE_WAIT_S:.0f} s")
        if len(c.actions) == n:  # its play is on the display and the LEDs: carry it out
            accepted, play = yield from carry_out(players, turn, n, "remote play", "the other board's play", 8.0)
            if not accepted:
                notice = c.message()
                raise SimulationError(f"the board did not take the other board's play {play.notation}"
                                      f" ({notice.text if notice else 'no message'})")
            return
    acted = yield Wait(lambda: len(c.actions) > n or c.over or peer.problem is not None,
                       f"the other board to act in phase {s.phase}", REMOTE_WAIT_S)
    stopped(c)
    if not acted:
        raise SimulationError(f"the other board did not act within {REMOTE_WAIT_S:.0f} s (phase {s.phase})")
    if c.state.phase == Phase.OPENING and s.phase == Phase.GAME_OVER:
        yield SetUp()


class RemoteLoginError(EnvironmentFailure):
    """The broker refused this board's login (MQTT 134/135): the [remote] table is to fix."""


def stopped(controller: Any) -> None:
    """Raise the other board's problem, if it has one (a refused login: :class:`RemoteLoginError`)."""
    peer = controller.other.peer
    if peer.problem is not None:
        if peer.refused:
            raise RemoteLoginError(peer.problem)
        raise SimulationError(peer.problem)
