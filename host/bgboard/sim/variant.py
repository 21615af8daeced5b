"""``bgboard sim --variant``: whole matches of the seed variants (and tavli's rotation) on
the virtual board, every play read back through the real firmware.

For each roll the built-in heuristic player (:mod:`bgboard.match.selfplay`) chooses a legal
play; the table changes to the play's result (the whole play put down at once — the
single-colour hand model of :mod:`bgboard.sim.hand` does not carry checkers onto a pin);
the hall field of that table, with Plakoto's pin model (:mod:`bgboard.sim.field`), goes to
the firmware (MicroPython unix port, on a pty) over its field channel; the firmware
classifies and debounces the slots and reports SNAPSHOT/CHANGES frames; and the host
recognises the play from those slot states alone, with the history of plays
(:class:`bgboard.sense.variants.VariantTurn`).  Only the recognised play becomes the
match's ``Move``: a reading that shows no legal play stops the run with a one-sentence
error.  Dice come from the seeded RNG; each new game starts from the variant's set-up,
checked on the sensors before the opening roll.

This is its own small loop, not the backgammon simulator's controller (docs/simulator.md
says what it does not do yet: step-by-step carrying, illegal attempts, the display).
"""

from __future__ import annotations

import json
import os
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bgboard.control.variants import display_state, variant_notes
from bgboard.display.panels import panel_spec
from bgboard.display.render import render
from bgboard.errors import InputError
from bgboard.hardware import load_grid
from bgboard.link import messages as m
from bgboard.link.codec import Frame, FrameDecoder
from bgboard.match import Move, NextGame, OpeningRoll, Pass, Roll, StartMatch, apply
from bgboard.match.actions import Action
from bgboard.match.mat import export_mat
from bgboard.match.selfplay import _score, variant_score
from bgboard.match.sgf import export_sgf
from bgboard.match.state import GAME_OVER, MATCH_OVER, OPENING, PLAY, TURN, MatchState
from bgboard.rules.board import Board, VariantPlay
from bgboard.rules.games import BACKGAMMON, Game
from bgboard.sense.slots import SlotMap
from bgboard.sense.variants import Ambiguous, Physical, Played, VariantTurn, physical, setup_text
from bgboard.sim.field import NOISE_LEVELS, readings
from bgboard.sim.layout import Layout
from bgboard.sim.pico import VirtualPico


class VariantSimError(InputError):
    """The firmware's readings did not show what was played (the message says what)."""


@dataclass
class FirmwareTable:
    """The real firmware on a pty with the simulator's field, and the slot states it reports."""

    workdir: Path
    rng: random.Random
    noise: float
    clock: str = "fast:8"
    grid: Any = field(default_factory=load_grid)
    states: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.slot_map = SlotMap.from_slots(self.grid.slots)
        self.pico = VirtualPico(self.workdir, clock=self.clock)
        self.pico.start()
        self.fd = os.open(self.pico.slave_name, os.O_RDWR | os.O_NONBLOCK)
        self.decoder = FrameDecoder()
        self.frames = 0
        deadline = time.monotonic() + 30
        while not self.states:
            self._read()
            if time.monotonic() > deadline:
                raise VariantSimError("the firmware sent no snapshot within 30 s: see firmware.log")

    def show(self, layout: Layout) -> None:
        """Put the table's field under the sensors."""
        self.pico.slots(readings(self.grid, layout, self.rng, noise=self.noise))

    def _read(self) -> bool:
        try:
            data = os.read(self.fd, 65536)
        except BlockingIOError:
            time.sleep(0.003)
            return False
        changed = False
        for frame in self.decoder.feed(data):
            if not isinstance(frame, Frame):
                continue
            self.frames += 1
            message = m.decode(frame)
            if isinstance(message, m.Snapshot):
                self.states = list(message.states)
                changed = True
            elif isinstance(message, m.Changes) and self.states:
                for change in message.changes:
                    self.states[change.slot] = change.state
                changed = True
        return changed

    def wait_for(self, accept: Any, what: str, timeout: float = 30.0) -> Any:
        """Read frames until ``accept(states)`` gives a verdict that is not None."""
        deadline = time.monotonic() + timeout
        verdict = accept(self.states)
        while verdict is None:
            if time.monotonic() > deadline:
                raise VariantSimError(f"the sensors did not show {what} within {timeout:.0f} s")
            if self._read():
                verdict = accept(self.states)
        return verdict

    def close(self) -> None:
        os.close(self.fd)
        self.pico.close()


def _game_of(state: MatchState) -> Game:
    return state.game_rules or BACKGAMMON


def _layout(game: Game, board: Board, on_roll: int) -> tuple[Layout, Physical]:
    place = physical(game.name, board, on_roll)
    return Layout.from_physical(place), place


def _choose(game: Game, plays: tuple[VariantPlay, ...], rng: random.Random) -> VariantPlay:
    if game is BACKGAMMON:
        return max(plays, key=lambda p: _score(p.board.position(), rng))
    return max(plays, key=lambda p: variant_score(game.name, p.board, game.outcome(p.board)) + rng.random())


def play_match(
    out: Path, *, variant: str | None, rules: str, length: int, seed: int, noise: str | float = "low"
) -> dict[str, Any]:
    """Play a whole match on the firmware; write ``match.mat``, ``match.sgf`` and
    ``summary.json`` into ``out`` and return the summary."""
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    level = NOISE_LEVELS[noise] if isinstance(noise, str) else float(noise)
    actions: list[Action] = [StartMatch(length, rules=rules, variant=variant)]
    state = apply(None, actions[0])
    table = FirmwareTable(out / "pico", random.Random(seed + 1), level)
    recognised = pins_read = 0
    started = time.monotonic()
    frames = out / "frames"
    frames.mkdir(exist_ok=True)
    panel = panel_spec("waveshare-4in2")
    drawn: list[tuple[str, ...]] = []

    def draw(**setup: Any) -> None:
        """A display frame when a game is set up, when the variant's notes change (a pin, a
        mother checker in danger) and when a game ends."""
        render(display_state(state, **setup), panel).save(frames / f"{len(drawn) + 1:04d}.png")
        drawn.append(variant_notes(state))

    def do(action: Action) -> None:
        nonlocal state
        state = apply(state, action)
        actions.append(action)
        if state.phase in (GAME_OVER, MATCH_OVER) or (state.game_rules and variant_notes(state) != drawn[-1]):
            draw()

    try:
        set_up = True
        while state.phase != MATCH_OVER:
            if set_up:  # a new game: its start on the table, seen by the sensors
                game = _game_of(state)
                layout, place = _layout(game, state.board_view, 0)
                table.show(layout)
                draw(setup=setup_text(state.variant), diagram=place.counts[:24])
                table.wait_for(
                    lambda s, place=place: True if place.fits(table.slot_map.observation(s)) else None,
                    f"the {game.title} set-up",
                )
                set_up = False
            if state.phase == OPENING:
                do(OpeningRoll((rng.randint(1, 6), rng.randint(1, 6))))
            elif state.phase == TURN:
                do(Roll((rng.randint(1, 6), rng.randint(1, 6))))
            elif state.phase == PLAY:
                assert state.dice is not None and state.turn is not None
                game = _game_of(state)
                board = state.board_view
                turn = VariantTurn(game, board, state.turn, state.dice)
                if not turn.plays:
                    do(Pass())
                    continue
                chosen = _choose(game, turn.plays, rng)
                layout, place = _layout(game, chosen.board, state.turn)
                table.show(layout)

                def accept(states: list[int], chosen: VariantPlay = chosen, turn: VariantTurn = turn) -> Any:
                    verdict = turn.recognise(table.slot_map, states)
                    if isinstance(verdict, Played) and verdict.play.board == chosen.board:
                        return verdict.play
                    if isinstance(verdict, Ambiguous) and chosen in verdict.plays:
                        return chosen  # the player picks it with the buttons
                    return None

                play = table.wait_for(accept, f"the play {chosen.notation}")
                recognised += 1
                pins_read += len(place.pinned)
                do(Move.of(play))
            elif state.phase == GAME_OVER:
                do(NextGame())
                set_up = True
    finally:
        table.close()
    (out / "match.mat").write_text(export_mat(actions))
    (out / "match.sgf").write_text(export_sgf(actions))
    summary = {
        "variant": variant or rules,
        "match_length": length,
        "score": list(state.score),
        "games": [{"winner": g.winner, "points": g.points, "result": g.result} for g in state.games],
        "plays_recognised": recognised,
        "pinned_points_read": pins_read,
        "firmware_frames": table.frames,
        "display_frames": len(drawn),
        "seconds": round(time.monotonic() - started, 1),
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    return summary


__all__ = ["FirmwareTable", "VariantSimError", "play_match"]
