"""The simulator's one board protocol (bgboard.sim.ops.Board) and its one turn loop
(bgboard.sim.driver.play): both back ends implement the protocol as it is written, the
modelled board's ops never wait (so the turn loop runs on it without an event loop, also
inside one, as a club board does), and the practice run is the match's board composed with
a practice room."""

from __future__ import annotations

import asyncio
import inspect
from pathlib import Path

import pytest

from bgboard.sim.driver import Options, play
from bgboard.sim.firmware_board import LiveRun
from bgboard.sim.modelled_board import ModelledBoard, Simulation
from bgboard.sim.ops import Board, perform, run_now
from bgboard.sim.practice_run import PracticeRun
from bgboard.sim.remote_run import SeatedBoard

PROTOCOL = {name: inspect.signature(getattr(Board, name)) for name in ("press", "roll", "preload", "carry", "set_up",
                                                                        "lay_out", "wait")}


@pytest.mark.parametrize("back_end", [ModelledBoard, LiveRun, SeatedBoard], ids=lambda c: c.__name__)
def test_every_back_end_implements_the_board_protocol_as_written(back_end: type) -> None:
    for name, signature in PROTOCOL.items():
        method = getattr(back_end, name, None)
        assert method is not None and inspect.iscoroutinefunction(method), f"{back_end.__name__}.{name}"
        assert list(inspect.signature(method).parameters) == list(signature.parameters), f"{back_end.__name__}.{name}"


def test_run_now_gives_a_coroutines_result_and_refuses_one_that_waits() -> None:
    async def at_once() -> int:
        return 7

    assert run_now(at_once()) == 7
    with pytest.raises(RuntimeError, match="waited for time to pass"):
        run_now(asyncio.sleep(0))


def test_the_turn_loop_in_steps_inside_an_event_loop_plays_the_match_of_one_run(tmp_path: Path) -> None:
    """A club board steps the driver's loop inside its asyncio loop: the modelled board never
    waits, so the match in steps of a few actions is the match of one run."""
    options = Options(match_length=1, seed=5, illegal_rate=0.2)
    whole = Simulation(options, tmp_path / "whole")
    try:
        whole.run()
        want = [a for a in whole.actions]
    finally:
        whole.close()

    async def stepped() -> list[object]:
        sim = Simulation(options, tmp_path / "stepped")
        try:
            steps = 0
            while not sim.controller.over:
                run_now(play(sim.board, sim.players, max_actions=3))
                steps += 1
                await asyncio.sleep(0)
            assert steps > 3
            return list(sim.actions)
        finally:
            sim.close()

    assert asyncio.run(stepped()) == want and want


def test_the_practice_run_is_the_match_board_under_a_practice_room(tmp_path: Path) -> None:
    """Practice by composition: the same ModelledBoard, its events going to the room."""
    from bgboard.control.practice_room import PracticeRoom
    from bgboard.teaching import builtin_drills

    run = PracticeRun(Options(match_length=1, seed=3, engine="gnubg-nn"), tmp_path, builtin_drills()[:1])
    assert type(run.board) is ModelledBoard and isinstance(run.room, PracticeRoom) and run.board.host is run.room
    run.run()
    assert run.room.over and len(run.room.results) == 1 and run.board.clock > 0
    assert not isinstance(run, Simulation)


def test_perform_runs_a_decision_on_the_modelled_board(tmp_path: Path) -> None:
    sim = Simulation(Options(match_length=1, seed=2), tmp_path)
    try:
        before = len(sim.actions)
        run_now(perform(sim.players.decide(), sim.board))  # the opening roll
        assert len(sim.actions) == before + 1 and sim.actions[-1].kind == "opening"
    finally:
        sim.close()
