"""The simulated players and the one turn loop, for every board (the in-process model of the
firmware, :mod:`bgboard.sim.modelled_board`, and the real firmware on a pty,
:mod:`bgboard.sim.firmware_board`: both implement :class:`bgboard.sim.ops.Board`).

The players decide from the host controller's match state, as people read the display: who
rolls, doubles, takes or drops, which play to make and, now and then, an illegal attempt
first.  Every choice is a function of ``(seed, game, turn)`` (:mod:`bgboard.sim.players`).
A decision is a script of :class:`~bgboard.sim.ops.Op` s (press a button, roll, carry
checkers, set the table up, wait for the host) that a board runs: the model at once on a
virtual clock, the firmware board in real (scaled) time.  :func:`play` asks the players for
decisions until the match is over; it is the only turn loop of the simulator.

Resuming exactly: the journal is the one record of a run.  :func:`resume` reads back the
simulator's own rows (kind ``sim``: the options the run was started with, and one verdict
row per play and per illegal attempt) beside the host's.  A play's verdict row is written in
the **same journal transaction** as the host's action for it (:meth:`Journal.atomic`), so a
``kill -9`` at any moment leaves both or neither, and an attempt already journalled is never
tried again: the summary of a resumed run equals the uninterrupted run's.  A DIR started with
other options (another ``--seed``, length, rules, illegal rate or noise) is refused with one
sentence.
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable, Protocol

from bgboard.control.controller import Controller
from bgboard.control.events import Button
from bgboard.control.notice import Notice
from bgboard.match.state import MatchState, Phase
from bgboard.rules import Position
from bgboard.rules.board import Board as GameBoard
from bgboard.rules.play import Play
from bgboard.rules.games import ROTATIONS, SEED_VARIANTS
from bgboard.sense.recognise import Ambiguous, Illegal, Miscount
from bgboard.sim.layout import Layout
from bgboard.sim.ops import (Board, Carry, LayOut, Op, Preload, Press, RollDice, Script, SetUp, SimulationError, Wait,
                             perform)
from bgboard.store.journal import Entry
from bgboard.sim.checker_moves import Attempt, Move, variant_moves
from bgboard.sim.players import choose_play, dice_for, takes, wants_double, wrong_play

__all__ = [
    "SIM_KIND",
    "Board",
    "Carry",
    "LayOut",
    "Op",
    "Options",
    "Players",
    "Preload",
    "Press",
    "Resumed",
    "RollDice",
    "SetUp",
    "SimulationError",
    "Tally",
    "Wait",
    "perform",
    "play",
    "resume",
    "table_layout",
    "turn_of",
]

#: Journal kind of the simulator's own rows (the controller ignores kinds it does not know).
SIM_KIND = "sim"

ROLL, DOUBLE, DROP = Button.ROLL, Button.DOUBLE, Button.DROP


@dataclass(frozen=True, slots=True)
class Options:
    """What to simulate: the match, the seed and how messy the players and sensors are.

    ``stuck`` sensors and ``flicker`` are faults of this run's board, not of the match: a run
    may be resumed without them (a sensor repaired)."""

    match_length: int
    seed: int
    illegal_rate: float = 0.0
    noise: float = 0.0
    rules: str = "standard"
    flicker: bool = True
    stuck: tuple[tuple[str, int, int], ...] = ()
    players: tuple[str, str] = ("White", "Black")
    teach: str = "off"  # "learner": every play and cube decision graded (bgboard sim --teach)
    engine: str | None = None  # the teacher's hint engine (None: the strongest installed)
    variant: str | None = None  # a seed game (bgboard sim --variant; a rotation such as tavli is its own rules)
    learner: str = "both"  # whose learner report: white, black or both ([teach] learner, --learner)
    opponent: str | None = None  # ENGINE[:LEVEL]: the engine plays black (bgboard sim --opponent)
    opponent_dice: str = "module"  # the engine's dice: "module" rolls itself, "person" is pressed for it
    remote: str | None = None  # "white"/"black": this board's side of a remote match (bgboard sim --remote)

    def match(self) -> dict[str, Any]:
        """The options that make the match what it is (journalled; a resume must repeat them)."""
        found = {
            "match_length": self.match_length,
            "seed": self.seed,
            "illegal_rate": self.illegal_rate,
            "noise": self.noise,
            "rules": self.rules,
        }
        if self.variant is not None:  # (journals of backgammon runs stay as they were)
            found["variant"] = self.variant
        if self.opponent is not None:
            found["opponent"] = self.opponent
        if self.remote is not None:
            found["remote"] = self.remote
        return found

    @property
    def match_variant(self) -> str:
        """The ``[match] variant`` of the host's config for this run."""
        return self.rules if self.rules in ROTATIONS else self.variant or "standard"


#: The command-line spelling of each journalled option (for the refusal's sentence).
FLAGS = {"match_length": "--match-length", "seed": "--seed", "illegal_rate": "--illegal-rate", "noise": "--noise",
         "rules": "--rules", "variant": "--variant", "opponent": "--opponent", "remote": "a remote board's side"}


@dataclass
class Tally:
    """The run's counts for the summary."""

    plays_recognised: int = 0
    pinned_points_read: int = 0
    illegal_attempts: int = 0
    illegal_flagged: int = 0
    legal_rejected: int = 0
    wrong_reasons: list[dict[str, Any]] = field(default_factory=list)
    engine_plays: int = 0  # the engine's plays the board took as carried out by the person
    engine_rejected: int = 0
    wrong_executions: int = 0  # the engine's play carried out wrongly first (--opponent)
    wrong_caught: int = 0

    def count(self, entry: dict[str, Any]) -> None:
        """Count one journalled verdict."""
        if entry["what"] == "play":
            if entry["accepted"]:
                self.plays_recognised += 1
                self.pinned_points_read += entry.get("pins", 0)
            else:
                self.legal_rejected += 1
        elif entry["what"] == "attempt":
            self.illegal_attempts += 1
            if entry["refused"] and entry["reason"] == entry["expected"]:
                self.illegal_flagged += 1
            else:
                self.wrong_reasons.append(entry)
        elif entry["what"] in ("engine play", "remote play"):
            if entry["accepted"]:
                self.engine_plays += 1
            else:
                self.engine_rejected += 1
        elif entry["what"] == "wrong":
            self.wrong_executions += 1
            self.wrong_caught += bool(entry["caught"])


@dataclass
class Resumed:
    """What the journal of a DIR says about the run so far."""

    tally: Tally = field(default_factory=Tally)
    attempted: set[tuple[int, int]] = field(default_factory=set)
    last_ms: int | None = None
    options_known: bool = False

    def verdict(self, body: dict[str, Any]) -> None:
        """One journalled verdict of the players (a ``sim`` row): counted, and an attempt
        made is not made again."""
        self.tally.count(body)
        if body["what"] in ("attempt", "wrong"):
            self.attempted.add((body["game"], body["turn"]))


class JournalLike(Protocol):
    def append(self, kind: str, body: dict[str, Any], at_ms: int) -> int: ...

    def entries(self) -> list[Entry]: ...


def resume(journal: JournalLike, options: Options, out: Path, at_ms: int) -> Resumed:
    """Read back a DIR's journal: the tally so far, the attempts already made, the last time
    stamp.  Refuses (one sentence) a journal of a run with other options; journals the
    options of a new run."""
    found = Resumed()
    for entry in journal.entries():
        found.last_ms = entry.at_ms if found.last_ms is None else max(found.last_ms, entry.at_ms)
        if entry.kind == SIM_KIND:
            body = entry.body
            if body.get("what") == "options":
                _same_options(body.get("options", {}), options, out)
                found.options_known = True
                continue
            found.verdict(body)
        elif entry.kind == "action" and entry.body.get("type") == "start" and not found.options_known:
            # a journal written before the options were journalled: the length is all it says
            if entry.body.get("length") != options.match_length:
                raise SimulationError(f"{out} holds a {entry.body.get('length')}-point match: use another --out")
    if found.last_ms is None:  # a new run: its options come first
        journal.append(SIM_KIND, {"what": "options", "options": options.match()}, at_ms)
        found.options_known = True
    return found


def _same_options(journalled: dict[str, Any], options: Options, out: Path) -> None:
    wanted = options.match()
    differ = [key for key in FLAGS if (key in journalled or key in ("variant", "opponent", "remote"))
              and journalled.get(key) != wanted.get(key)]
    if differ:
        was = " ".join(f"{FLAGS[k]} {_spelled(journalled.get(k))}" for k in differ)
        now = " ".join(f"{FLAGS[k]} {_spelled(wanted.get(k))}" for k in differ)
        raise SimulationError(
            f"{out} holds a run started with {was}, not {now}: repeat its options to go on, or use another --out"
        )


def _spelled(value: object) -> str:
    if value is None:
        return "(none)"
    return f"{value:g}" if isinstance(value, float) else str(value)


class Players:
    """The simulated players at a board whose host is ``controller`` (see the module docstring).

    ``atomic`` opens a journal transaction (the play and its verdict row land together)."""

    def __init__(
        self,
        options: Options,
        controller: Callable[[], Controller],
        journal: JournalLike,
        resumed: Resumed,
        clock: Callable[[], int],
        points: int,
        atomic: Callable[[], AbstractContextManager[object]] = nullcontext,
    ) -> None:
        self.options = options
        self._controller = controller
        self.journal = journal
        self.tally = resumed.tally
        self.attempted = resumed.attempted
        self.clock = clock
        self.points = points  # slots along a point (the attempts' stacks must be readable)
        self.atomic = atomic
        self.laid: int | None = None  # a remote match: the game the table is laid out for

    @property
    def controller(self) -> Controller:
        """The host's controller as it is now (the firmware board's app may make a new one)."""
        return self._controller()

    @property
    def state(self) -> MatchState:
        """The match as the host's display shows it (the players act only on a started match)."""
        state = self.controller.state
        if state is None:
            raise SimulationError("the host has no match started")
        return state

    @property
    def turn(self) -> int:
        """Actions since the start of the current game (the players' clock)."""
        return turn_of(self.controller)

    def note(self, body: dict[str, Any]) -> None:
        """Journal a verdict beside the host's actions and count it."""
        state = self.controller.state
        body = {"game": state.game if state else 0, "turn": self.turn, **body}
        self.journal.append(SIM_KIND, body, self.clock())
        self.tally.count(body)

    # ------------------------------------------------------------------ one decision
    def decide(self) -> Script:
        """The script of the next decision of the match; it ends when the host has acted."""
        c = self.controller
        s = self.state
        o = self.options
        n, turn = len(c.actions), self.turn
        if o.remote is not None:
            from bgboard.sim.remote_turns import remote_decides, remote_script

            if self.laid is not None and s.game != self.laid and s.phase not in (Phase.GAME_OVER, Phase.MATCH_OVER):
                yield SetUp()  # the other board started the next game and its first roll while this one waited
            self.laid = s.game
            if remote_decides(c, s):  # the other board's person acts: this one carries it out
                yield from remote_script(self, turn)
                return
        other = c.other_side()
        if o.opponent is not None and other is not None and s.decider == other.side:
            from bgboard.sim.engine_turns import engine_script

            yield from engine_script(self, turn)
            if not c.over and len(c.actions) == n:
                notice = c.message()
                raise SimulationError(f"the engine did not act: {notice.text if notice else 'no reason given'}")
            return
        if s.phase == Phase.OPENING:
            yield Press(0, ROLL)
            yield RollDice(dice_for(o.seed, s.game, turn))
        elif s.phase == Phase.TURN:
            if s.may_double and wants_double(_cube_view(s), o.seed, s.game, turn):
                yield Press(_player(s.turn), DOUBLE)
            else:
                yield Press(_player(s.turn), ROLL)
                yield RollDice(dice_for(o.seed, s.game, turn))
        elif s.phase == Phase.DOUBLED:
            take = takes(_cube_view(s).swap(), o.seed, s.game, turn)
            yield Press(_player(s.decider), DOUBLE if take else DROP)
        elif s.phase == Phase.PLAY:
            yield from self._play(turn)
        elif s.phase == Phase.GAME_OVER:
            yield SetUp()
            winner = s.games[-1].winner
            yield Press(0 if winner is None else winner, ROLL)  # (nobody won a drawn game)
        else:
            raise SimulationError(f"the simulated players do not handle phase {s.phase!r}")
        acted = yield Wait(lambda: len(c.actions) > n or c.over, f"the host to act in phase {s.phase}")
        if not acted:
            notice = c.message()
            raise SimulationError(f"the host refused the players: {notice.text if notice else 'no reason given'}")
        if self.state.phase == Phase.OPENING and s.phase == Phase.GAME_OVER:
            yield SetUp()

    def _play(self, turn: int) -> Script:
        """The play of the roll, laid out on the board (a wrong play tried first at the
        illegal rate), and "done" pressed until the host takes it."""
        c = self.controller
        s = self.state
        mover, game = _player(s.turn), s.game
        if s.dice is None:
            raise SimulationError("the host is in its play phase without dice")
        rules = s.playing  # every game: its plays, laid out on its board (a seed game's pins and reserve)
        play = choose_play(rules, s.board_view, s.dice, self.options.seed, game, turn)
        if play is not None and (game, turn) not in self.attempted:
            attempt = wrong_play(rules, s.board_view, s.dice, mover, self.options.seed, game, turn,
                                 self.options.illegal_rate, self.points)
            if attempt is not None:
                yield from self._attempt(c, attempt, mover, game, turn)
        yield Carry(() if play is None else variant_moves(rules, s.board_view, play.steps, mover))
        yield from self._done(c, play, mover, game, turn)

    def _attempt(self, c: Controller, attempt: Attempt, mover: int, game: int, turn: int) -> Script:
        """A wrong play carried out, "done" pressed on it, the host's verdict journalled,
        and the checkers carried back."""
        yield Carry(attempt.moves)
        with self.atomic():  # the attempt's row lands with whatever the host did
            n = len(c.actions)
            yield Press(mover, ROLL)  # "done" on an illegal board
            yield Wait(lambda: len(c.actions) > n or _error(c.message()), "the host's verdict", 5.0)
            notice = c.message()
            verdict = c.verdict
            self.note(
                {
                    "what": "attempt",
                    "refused": len(c.actions) == n and _error(notice),
                    "reason": verdict.reason if isinstance(verdict, (Illegal, Miscount)) else None,
                    "expected": attempt.reason,
                    "notice": notice.text if notice else None,
                }
            )
            self.attempted.add((game, turn))
        yield Carry(tuple(Move(m.dst, m.src) for m in reversed(attempt.moves)))

    def _done(self, c: Controller, play: Play[Position] | Play[GameBoard] | None, mover: int, game: int,
              turn: int) -> Script:
        """"Done" pressed (the reading chosen where the host has several) until the host
        takes the play laid out; its row journalled with the host's action."""
        o = self.options
        pins = None if play is None or not isinstance(play.position, GameBoard) else _pins(play.position.pins)
        want = () if play is None else tuple((st.frm, st.to) for st in play.steps)
        n = len(c.actions)
        verdict = c.verdict
        with self.atomic():  # the play's row lands with the host's action for it, or neither does
            for _ in range(40):  # press done until the host takes the play
                verdict = c.verdict
                if isinstance(verdict, Ambiguous) and play in verdict.plays and verdict.plays[c.choice % len(verdict.plays)] != play:
                    choice = c.choice
                    yield Press(mover, DOUBLE)  # the next candidate reading
                    yield Wait(lambda: c.choice != choice, "the next reading", 2.0)
                    continue
                if o.opponent is not None:  # the engine's next roll, if the dice module makes it
                    yield Preload(dice_for(o.seed, game, turn + 1))
                yield Press(mover, ROLL)  # done
                if (yield Wait(lambda: len(c.actions) > n, "the host to take the play", 1.0)):
                    break
            accepted = len(c.actions) > n and getattr(c.actions[n], "steps", ()) == want
            self.note(
                {
                    "what": "play",
                    "accepted": accepted,
                    "play": play.notation if play is not None else "",
                    "verdict": type(verdict).__name__,
                    **({"pins": pins} if pins is not None else {}),
                }
            )
        if not accepted:
            notice = c.message()
            raise SimulationError(
                f"the host did not take the legal play {play.notation if play else 'pass'}"
                f" ({notice.text if notice else 'no message'})"
            )

    # ------------------------------------------------------------------ results
    def summary(self) -> dict[str, Any]:
        """The ``--json`` summary (player 0 = the .mat's left column)."""
        s = self.state
        variant = {"variant": self.options.match_variant, "pinned_points_read": self.tally.pinned_points_read}
        return {
            **(variant if self.options.match_variant in SEED_VARIANTS else {}),  # a run of the variant simulator
            "match_length": s.length,
            "score": list(s.score),
            "games": [{"winner": g.winner, "points": g.points, "cube": g.cube, "result": g.result} for g in s.games],
            "plays_recognised": self.tally.plays_recognised,
            "illegal_attempts": self.tally.illegal_attempts,
            "illegal_flagged": self.tally.illegal_flagged,
            "legal_rejected": self.tally.legal_rejected,
            **(self.opponent_summary() if self.options.opponent is not None else {}),
        }

    def opponent_summary(self) -> dict[str, Any]:
        """``--opponent``: the engine's side and level, and how its plays were carried out."""
        other = self.controller.other_side()
        if other is None or other.engine is None:
            raise SimulationError("the engine does not play at this board")
        return {
            "opponent": {"player": other.side, "engine": other.engine, "level": other.level},
            "engine_plays": self.tally.engine_plays,
            "engine_rejected": self.tally.engine_rejected,
            "wrong_executions": self.tally.wrong_executions,
            "wrong_caught": self.tally.wrong_caught,
        }


def turn_of(controller: Controller) -> int:
    """Actions since the start of the current game (the players' clock)."""
    n = 0
    for action in reversed(controller.actions):
        if action.kind in ("start", "next"):
            break
        n += 1
    return n


async def play(board: Board, players: Players, max_actions: int | None = None,
               between: Callable[[], Awaitable[None]] | None = None) -> None:
    """The turn loop, the same on every board: the players' decisions, each run on ``board``,
    until the match is over - or until ``max_actions`` more actions of the host (a club
    board publishes the match between such steps; tests stop half-way).  ``between`` runs
    before each decision (the firmware board's injected faults, the progress bar)."""
    done = 0
    while not players.controller.over:
        if max_actions is not None and done >= max_actions:
            return
        count = len(players.controller.actions)
        if between is not None:
            await between()
        await perform(players.decide(), board)
        done += len(players.controller.actions) - count


def table_layout(controller: Controller) -> Layout:
    """The checkers on the table as the match stands (a resume, a new game's set-up): the
    start of the game to be set up, or the board with a seed variant's pins and reserves."""
    s = controller.state
    if s is None:
        raise SimulationError("the host has no match started")
    if s.phase in (Phase.OPENING, Phase.GAME_OVER, Phase.MATCH_OVER):
        from bgboard.sense.tavli import Physical

        return Layout.from_physical(Physical(controller.session.start_counts()))
    from bgboard.sense.tavli import physical

    return Layout.from_physical(physical(s.playing.name, s.board_view, s.turn or 0))


def _cube_view(state: MatchState) -> Position:
    """The position the players' cube decisions read (the player on roll's view): Race's
    checkers waiting to enter counted as on the bar (25 pips each)."""
    position = state.position
    reserve = state.board_view.reserve
    if reserve == (0, 0):
        return position
    from bgboard.rules import BAR

    mine, theirs = list(position.mine), list(position.theirs)
    mine[BAR] += reserve[0]
    theirs[BAR] += reserve[1]
    return Position(tuple(mine), tuple(theirs))


def _pins(pins: tuple[int, int]) -> int:
    """The pinned points on the board after a seed variant's play, from its board's pin
    masks (read through the field model's cancelling magnets)."""
    mine, theirs = pins
    return bin(mine).count("1") + bin(theirs).count("1")


def _player(player: int | None) -> int:
    """The player the match says is to act (a state in its opening has none)."""
    if player is None:
        raise SimulationError("the host's match has no player to act")
    return player


def _error(notice: Notice | None) -> bool:
    return notice is not None and notice.severity == "error"

