"""A simulated club evening for the web tests: boards playing seeded self-play matches whose
every action is published to the room's hub, as the director's MQTT side publishes a
board's state message."""

from __future__ import annotations

from dataclasses import dataclass, field

from dataclasses import asdict, replace
from typing import Any

from bgboard.club.live_boards import LiveHub
from bgboard.match import MatchState, apply
from bgboard.match.selfplay import selfplay
from bgboard.net.board_report import board_state

NAMES = ("Ann", "Bob", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lea",
         "Max", "Nia", "Oto", "Pia")


def payload(state: MatchState, *, clocks: tuple[int, int] | None = None, clock_running: int | None = None,
            event: str = "", match: int = 0) -> dict[str, Any]:
    """The state message a board sends for ``state`` (bgboard.net.board_report), as the director
    hands it to the hub (a dict)."""
    message = board_state(state, 0, clocks=clocks, clock_running=clock_running)
    return asdict(replace(message, event=event, match=match))


@dataclass
class Table:
    board: int
    actions: list
    done: int = 1
    state: MatchState = field(init=False)

    def __post_init__(self) -> None:
        self.state = apply(None, self.actions[0])

    @property
    def over(self) -> bool:
        return self.done >= len(self.actions)

    def step(self) -> MatchState:
        self.state = apply(self.state, self.actions[self.done])
        self.done += 1
        return self.state


class Evening:
    """``boards`` tables playing ``length``-point matches; :meth:`publish` sends a table's
    state to the hub."""

    def __init__(self, hub: LiveHub, boards: int = 8, length: int = 5, seed: int = 1,
                 event: str = "Friday night", names: tuple[str, ...] = NAMES) -> None:
        self.hub = hub
        self.event = event
        self.tables = [
            Table(b, selfplay(length, seed=seed + b, players=(names[(2 * b - 2) % len(names)],
                                                              names[(2 * b - 1) % len(names)])))
            for b in range(1, boards + 1)
        ]

    def publish(self, table: Table) -> None:
        reserve = 60_000 * 2 * table.state.length
        self.hub.update(table.board, payload(
            table.state, clocks=(reserve - 1000 * table.done, reserve - 900 * table.done),
            clock_running=table.state.turn, event=self.event, match=table.board))

    def advance(self, steps: int) -> None:
        """Every table plays ``steps`` actions (fewer if its match ends), publishing each."""
        for table in self.tables:
            for _ in range(steps):
                if table.over:
                    break
                table.step()
                self.publish(table)

    def until_score_changes(self, table: Table) -> MatchState:
        """Play ``table`` until its score changes, publishing every state but the last;
        returns the state with the new score (not yet published)."""
        score = table.state.score
        while not table.over:
            state = table.step()
            if state.score != score:
                return state
            self.publish(table)
        raise AssertionError(f"board {table.board}'s match ended without a score change")
