"""The scoresheet a ``.mat`` reader fills in (pure): the match replayed on our state machine
so far, its action log, the games and the current game's items read, the roll waiting for
its play, and the problems found.  :mod:`bgboard.match.mat_read` reads the lines and the
games, :mod:`bgboard.match.mat_turns` the items of a turn; both write here."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from bgboard.match.actions import Action, StartMatch
from bgboard.match.mat_lines import bounded, position_id, variant_of
from bgboard.match.mat_types import ImportedMatch, MatGame, MatPlay, MatProblem
from bgboard.match.rule_errors import MatchRecordError
from bgboard.match.state import MatchState, apply

__all__ = ["GameHeader", "Pending", "Scoresheet"]


@dataclass(frozen=True, slots=True)
class GameHeader:
    """A game as its header gives it: the file's game number, the line, the score, whether
    it is the Crawford game, the players."""

    number: int
    line: int
    score: tuple[int, int]
    crawford: bool
    players: tuple[str, str]


@dataclass
class Pending:
    """Dice rolled and written without a play: settled by what comes next."""

    player: int
    line: int
    text: str
    before: MatchState
    plays: int  # legal plays of the roll
    forced: tuple[tuple[int, int], ...] | None  # the only play, when there is one
    quiet: bool = False  # already reported (an unreadable or impossible play)


class Scoresheet:
    """What has been read of a ``.mat`` file: every item replayed on our state machine and,
    where the file says something the rules do not allow, the state changed as gnubg's
    reading changes it and the problem noted (raised at once when ``strict``)."""

    def __init__(self, length: int, tags: list[tuple[str, str]], strict: bool, condone: bool) -> None:
        self.length = length
        self.strict = strict
        self.problems: list[MatProblem] = []
        self.game: GameHeader | None = None  # before the tags: a problem in them belongs to no game
        self.variant = "standard"
        for key, value in tags:
            if key.lower() == "variation":
                variant = variant_of(value)
                if variant is None:
                    self.problem(0, f"unknown variation {value!r}: read as standard backgammon (as gnubg does)")
                else:
                    self.variant = variant
        self.jacoby: bool | None = None
        self.beavers: bool | None = None
        if length == 0:
            jacoby = next((v for k, v in tags if k.lower() == "jacoby"), None)
            # gnubg reads a session with its own Jacoby setting, on by default.
            self.jacoby = not (jacoby or "on").strip().lower().startswith(("off", "no", "0", "false"))
        self.state: MatchState | None = None
        self.actions: list[Action] = []
        self.replayable = True
        self.games: list[MatGame] = []
        self.plays: list[MatPlay] = []
        self.pending: Pending | None = None
        self.post_crawford = False
        self.players: tuple[str, str] = ("", "")
        self.ratings: tuple[str | None, str | None] = (None, None)
        self.condone = condone
        self.line_no = 0

    def problem(self, line: int, message: str, game: int | None = None) -> None:
        """Note a problem at ``line`` (of the current game unless ``game`` is given)."""
        if game is None and self.game:
            game = self.game.number
        found = MatProblem(line, game, message)
        if self.strict:
            raise MatchRecordError(str(found))
        self.problems.append(found)

    @property
    def st(self) -> MatchState:
        """The match state so far (once the first game has started)."""
        assert self.state is not None
        return self.state

    def do(self, action: Action) -> None:
        """Play ``action`` on the state machine and log it."""
        self.state = apply(self.state, action)
        self.actions.append(action)

    def force(self, **changes: Any) -> None:
        """Change the state as gnubg's reading does where our rules would refuse."""
        self.state = replace(self.st, **changes)
        self.replayable = False

    def name(self, player: int) -> str:
        """A player's name, or which column is theirs when the file gives none."""
        return self.players[player] or ("the left player", "the right player")[player]

    def record(self, line: int, player: int, kind: str, before: MatchState, text: str = "",
               dice: tuple[int, int] | None = None, steps: tuple[tuple[int, int], ...] = (),
               level: int = 0) -> None:
        """Add an item of the current game (see :class:`MatPlay`), the state after it the
        state now."""
        assert self.game is not None
        self.plays.append(
            MatPlay(line, self.game.number, player, kind, dice, bounded(text),
                    position_id(before, player), steps, level, before, self.st)
        )

    def result(self, tags: list[tuple[str, str]], comments: list[str]) -> ImportedMatch:
        """The match read: an action log only when it replays without a problem."""
        if self.state is None:
            if self.strict:
                raise MatchRecordError("the file holds no game")
            self.problem(0, "the file holds no game")
            self.do(StartMatch(self.length, "money" if self.length == 0 else "standard", ("", ""),
                               jacoby=self.jacoby, variant=self.variant))
            self.replayable = False
        return ImportedMatch(
            length=self.length,
            players=self.players,
            ratings=self.ratings,
            variant=self.variant,
            tags=tuple(tags),
            comments=tuple(comments),
            games=tuple(self.games),
            problems=tuple(self.problems),
            state=self.st,
            actions=tuple(self.actions) if self.replayable and not self.problems else None,
        )
