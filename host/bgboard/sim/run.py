"""A whole match on the virtual board: players act, the board is read, plays are judged.

:class:`Simulation` is the referee loop of ``bgboard sim``.  Each turn the simulated
player rolls or doubles (buttons), carries checkers one at a time over the hall field
(:class:`~bgboard.sim.table.Table`), and the reading of the settled board is judged against
the rules engine's legal plays the way the host does it (picochess approach: the resulting
position of every legal play is compared with the observation; none consistent means
illegal, and ``explain`` says why).  Every action and verdict goes to the
:class:`~bgboard.sim.journal.Journal` before it takes effect, so a run killed at any
moment resumes from its journal and ends exactly as an uninterrupted run: players and dice
are functions of ``(seed, game, turn)`` only.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from bgboard import rules
from bgboard.match.actions import (
    Action,
    Double,
    Drop,
    Move as MoveAction,
    NextGame,
    OpeningRoll,
    Pass,
    Roll,
    StartMatch,
    Take,
    action_from_dict,
    action_to_dict,
)
from bgboard.match.state import (
    DOUBLED,
    GAME_OVER,
    MATCH_OVER,
    OPENING,
    PLAY,
    TURN,
    MatchState,
    apply,
)
from bgboard.rules import Position
from bgboard.sense.board import Observation, board_of, guess_board, position_of
from bgboard.sim.field import NOISE_LEVELS, Faults
from bgboard.sim.journal import Journal
from bgboard.sim.layout import Layout
from bgboard.sim.players import (
    Move,
    choose_play,
    dice_for,
    illegal_attempt,
    moves_of,
    takes,
    wants_double,
)
from bgboard.sim.table import Table


@dataclass(frozen=True, slots=True)
class Options:
    """What to simulate: the match, the seed and how messy the players and sensors are."""

    match_length: int
    seed: int
    illegal_rate: float = 0.0
    noise: float = 0.0
    rules: str = "standard"
    flicker: bool = True
    stuck: tuple[tuple[str, int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the referee made of a settled board: ``kind`` is ``play`` (with ``play``),
    ``illegal`` (with ``reason``) or ``ambiguous``."""

    kind: str
    play: Any = None
    reason: str | None = None


def judge(observation: Observation, position: Position, dice: tuple[int, int], mover: int) -> Verdict:
    """Compare a settled reading with the results of every legal play (pure)."""
    plays = rules.legal_plays(position, dice) or (rules.Play((), position),)
    found = [p for p in plays if observation.consistent_with(board_of(p.position, mover))]
    if len(found) == 1:
        return Verdict("play", play=found[0])
    if len(found) > 1:
        return Verdict("ambiguous", reason=f"{len(found)} plays fit the board")
    prefer = board_of(position, mover)
    board = guess_board(observation, sum(position.mine), prefer)
    if board is None:
        return Verdict("illegal", reason="the checkers on the board do not add up")
    result = position_of(board, mover)
    reason = rules.explain(position, dice, result)
    return Verdict("illegal", reason=reason or "this is not a legal play")


@dataclass
class Tally:
    """The run's counts for the summary."""

    plays_recognised: int = 0
    illegal_attempts: int = 0
    illegal_flagged: int = 0
    legal_rejected: int = 0
    wrong_reasons: list[dict[str, Any]] = field(default_factory=list)


class Simulation:
    """One match on the virtual board, journalled in ``out/journal.sqlite``."""

    def __init__(self, options: Options, out: Path, on_action: Callable[[MatchState, Action], None] | None = None) -> None:
        self.options = options
        self.out = Path(out)
        self.out.mkdir(parents=True, exist_ok=True)
        self.journal = Journal(self.out / "journal.sqlite")
        self.on_action = on_action
        self.tally = Tally()
        self.state: MatchState | None = None
        self.actions: list[Action] = []
        self.turn = 0  # actions since the start of the current game
        self.done_verdicts: set[tuple[int, int]] = set()
        self.resumed = False
        faults = Faults(stuck={(p, i): v for p, i, v in options.stuck}) if options.stuck else Faults()
        self.table = Table(
            Layout(tuple([0] * 24)),
            random.Random(f"bgboard-sim-noise:{options.seed}"),
            noise=options.noise,
            faults=faults,
            flicker=options.flicker,
        )

    # ------------------------------------------------------------------ journal
    def _load(self) -> None:
        entries = self.journal.entries()
        for entry in entries:
            if entry["type"] == "verdict":
                self._count(entry)
                if entry.get("attempt"):
                    self.done_verdicts.add((entry["game"], entry["turn"]))
                continue
            action = action_from_dict(entry)
            self._apply(action, journal=False)
        self.resumed = bool(entries)
        if self.state is None:
            start = StartMatch(self.options.match_length, rules=self.options.rules)
            self._apply(start)
        self.table.layout = Layout.from_position(self.state.position, self.state.turn or 0)  # type: ignore[union-attr]

    def _apply(self, action: Action, journal: bool = True) -> None:
        new = apply(self.state, action)
        if journal:
            self.journal.append(action_to_dict(action))
        self.state = new
        self.actions.append(action)
        self.turn = 0 if isinstance(action, (StartMatch, NextGame)) else self.turn + 1
        if self.on_action is not None:
            self.on_action(new, action)

    def _count(self, entry: dict[str, Any]) -> None:
        t = self.tally
        if entry["verdict"] == "play":
            t.plays_recognised += 1
        elif entry["verdict"] == "rejected":
            t.legal_rejected += 1
        if entry.get("attempt"):
            t.illegal_attempts += 1
            if entry["verdict"] == "illegal":
                if entry.get("reason") == entry.get("expected"):
                    t.illegal_flagged += 1
                else:
                    t.wrong_reasons.append(entry)

    def _verdict(self, entry: dict[str, Any]) -> None:
        entry = {"type": "verdict", "game": self.state.game, "turn": self.turn, **entry}  # type: ignore[union-attr]
        self.journal.append(entry)
        self._count(entry)

    # ------------------------------------------------------------------ the loop
    def run(self, max_actions: int | None = None) -> MatchState:
        """Play until the match is over (or ``max_actions`` more actions: for tests)."""
        self._load()
        n = 0
        while self.state is not None and self.state.phase != MATCH_OVER:
            if max_actions is not None and n >= max_actions:
                break
            self.step()
            n += 1
        assert self.state is not None
        return self.state

    def step(self) -> None:
        """One decision of the match."""
        s = self.state
        assert s is not None
        o = self.options
        if s.phase == OPENING:
            self._apply(OpeningRoll(dice_for(o.seed, s.game, self.turn)))
        elif s.phase == TURN:
            if s.may_double and wants_double(s.position, o.seed, s.game, self.turn):
                self._apply(Double())
            else:
                self._apply(Roll(dice_for(o.seed, s.game, self.turn)))
        elif s.phase == DOUBLED:
            taker = s.position.swap()
            self._apply(Take() if takes(taker, o.seed, s.game, self.turn) else Drop())
        elif s.phase == PLAY:
            self._play(s)
        elif s.phase == GAME_OVER:
            self._apply(NextGame())
            self.table.layout = Layout.from_position(self.state.position, 0)  # type: ignore[union-attr]
        else:
            raise RuntimeError(f"the simulated players do not handle phase {s.phase!r}")

    def _play(self, s: MatchState) -> None:
        o = self.options
        mover = s.turn
        assert mover is not None and s.dice is not None
        position, dice = s.position, s.dice
        play = choose_play(position, dice, o.seed, s.game, self.turn)
        if play is None:
            verdict = judge(self.table.observe(), position, dice, mover)
            kind = "pass" if verdict.kind == "play" else "rejected"
            self._verdict({"verdict": kind, "reason": verdict.reason})
            self._apply(Pass())
            return
        if (s.game, self.turn) not in self.done_verdicts:
            attempt = illegal_attempt(position, dice, mover, o.seed, s.game, self.turn, o.illegal_rate)
            if attempt is not None:
                before = self.table.layout
                self.table.frames(attempt.moves)
                verdict = judge(self.table.observe(), position, dice, mover)
                self._verdict(
                    {
                        "attempt": True,
                        "verdict": verdict.kind,
                        "reason": verdict.reason,
                        "expected": attempt.reason,
                    }
                )
                # the player puts the checkers back as they were
                self.table.frames(tuple(Move(m.dst, m.src) for m in reversed(attempt.moves)))
                assert self.table.layout == before
        self.table.frames(moves_of(play.steps, mover))
        verdict = judge(self.table.observe(), position, dice, mover)
        if verdict.kind == "play" and verdict.play.position == play.position:
            self._verdict({"verdict": "play", "play": verdict.play.notation})
            self._apply(MoveAction.of(verdict.play))
        else:
            self._verdict({"verdict": "rejected", "play": play.notation, "reason": verdict.reason})
            self._apply(MoveAction.of(play))
        self.table.layout = Layout.from_position(self.state.position, self.state.turn)  # type: ignore[union-attr]

    # ------------------------------------------------------------------ results
    def summary(self) -> dict[str, Any]:
        """The ``--json`` summary (player 0 = the .mat's left column)."""
        s = self.state
        assert s is not None
        return {
            "match_length": s.length,
            "score": list(s.score),
            "games": [
                {"winner": g.winner, "points": g.points, "cube": g.cube, "result": g.result} for g in s.games
            ],
            "plays_recognised": self.tally.plays_recognised,
            "illegal_attempts": self.tally.illegal_attempts,
            "illegal_flagged": self.tally.illegal_flagged,
            "legal_rejected": self.tally.legal_rejected,
        }

    def close(self) -> None:
        """Close the journal."""
        self.journal.close()


def noise_level(text: str) -> float:
    """``--noise`` value: a level name or a standard deviation in ADC counts."""
    if text in NOISE_LEVELS:
        return NOISE_LEVELS[text]
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if value < 0:
        from bgboard.errors import InputError

        names = ", ".join(NOISE_LEVELS)
        raise InputError(f"--noise takes one of {names} or a number of ADC counts, not {text!r}")
    return value
