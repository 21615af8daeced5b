"""A scripted match: the events two players and the board would produce (test helper).

Each next batch of events is a function of the seed and the number of match actions so
far only, so a run that is killed and resumed from its journal produces exactly the same
match as an uninterrupted one.
"""

from __future__ import annotations

import random

from bgboard.control.controller import Controller
from bgboard.control.events import DOUBLE, DROP, ROLL, BoardRead, ButtonPressed, DiceRolled, Event
from bgboard.rules.legal import legal_plays
from bgboard.rules.starts import start_position
from bgboard.sense.places import WHITE, Observation, board_of


def next_events(controller: Controller, seed: int) -> list[Event]:
    """What happens next at the board (see the module docstring)."""
    state = controller.state
    assert state is not None
    n = len(controller.actions)
    rng = random.Random(f"{seed}:{n}")
    at = 1_000_000 + n * 1_000
    slots = controller.settings.slots
    phase = state.phase
    if phase == "opening":
        return [ButtonPressed(0, ROLL, at), DiceRolled((rng.randint(1, 6), rng.randint(1, 6)), n, at + 10)]
    if phase == "turn":
        assert state.turn is not None
        if state.may_double and rng.random() < 0.15:
            return [ButtonPressed(state.turn, DOUBLE, at)]
        return [ButtonPressed(state.turn, ROLL, at), DiceRolled((rng.randint(1, 6), rng.randint(1, 6)), n, at + 10)]
    if phase == "doubled":
        decider = state.decider
        assert decider is not None
        return [ButtonPressed(decider, DOUBLE if rng.random() < 0.7 else DROP, at)]
    if phase == "play":
        assert state.turn is not None and state.dice is not None
        plays = legal_plays(state.position, state.dice)
        result = rng.choice(plays).position if plays else state.position
        board = Observation.of_board(board_of(result, state.turn), slots)
        return [BoardRead(board, at), ButtonPressed(state.turn, ROLL, at + 10)]
    if phase == "game_over":
        board = Observation.of_board(board_of(start_position(state.rules.variant), WHITE), slots)
        return [BoardRead(board, at), ButtonPressed(0, ROLL, at + 10)]
    raise AssertionError(f"no script for phase {phase}")


def play_out(controller: Controller, seed: int, limit: int = 100_000) -> None:
    """Feed scripted events until the match is over."""
    for _ in range(limit):
        if controller.over:
            return
        for event in next_events(controller, seed):
            controller.handle(event)
    raise AssertionError("the scripted match did not end")
