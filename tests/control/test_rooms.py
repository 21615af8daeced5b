"""One kind of room (issue 21): the match room (whoever plays its other side: a person at the
board, the engine, a remote board), the practice room and the replay room are each a
``control.rooms.Room`` — structurally, as
pyright checks this very file (``_typed_rooms`` assigns each to a ``Room``), at run time
(``runtime_checkable``), and in behaviour: each is driven here through the protocol alone —
events in, the display and the actions out, over at the end — over the real rules, journal,
engine and match files."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Callable, Sequence

import pytest

from bgboard.control.controller import Controller, Settings
from bgboard.control.events import DOUBLE, ROLL, BoardRead, ButtonPressed, DiceRolled, Event, OpponentMoved
from bgboard.control.practice_room import PracticeRoom
from bgboard.control.remote import RemotePeer, RemotePlayer
from bgboard.control.replay_room import FORWARD, ReplayRoom, replay_steps
from bgboard.control.other_side import OtherSide
from bgboard.control.rooms import Room
from bgboard.control.seated_room import SeatedRoom
from bgboard.display.display_state import DisplayState
from bgboard.hints.drills import Drill, drill_from_position_id
from bgboard.hints.lesson import PlayLesson
from bgboard.match import import_mat
from bgboard.match.actions import action_to_dict
from bgboard.match.state import MatchState, Phase
from bgboard.opponents import engine_opponent
from bgboard.rules import Position, legal_plays, start_position
from bgboard.sense.places import BLACK, WHITE, Observation, board_of
from bgboard.store.journal import MemoryJournal

ROOT = Path(__file__).resolve().parents[2]
MATCH_FILE = ROOT / "tests" / "data" / "match" / "world" / "hand_notation.mat"
START = Observation.of_board(board_of(start_position(), WHITE))


class Screen:
    """What a room drew (its ``show``) and sent to the board (its ``send``)."""

    def __init__(self) -> None:
        self.shown: list[DisplayState] = []
        self.sent: list[object] = []

    def show(self, state: DisplayState) -> None:
        self.shown.append(state)

    def send(self, message: object) -> None:
        self.sent.append(message)


def _handle(room: Room, screen: Screen, event: Event) -> None:
    """One event in through the protocol; what it gives out must hold together: the display
    it says it shows is the one it drew last, and the actions taken before stay as they were
    (a room only adds actions)."""
    before = list(room.actions)
    room.handle(event)
    assert room.display() == screen.shown[-1]
    assert list(room.actions[:len(before)]) == before


def _board(state: MatchState) -> Observation:
    """The physical board of a match state (both players' checkers where they stand)."""
    return Observation.of_board(board_of(Position(state.board[WHITE], state.board[BLACK]), WHITE))


def _person(room: Room, sides: Sequence[int], rng: random.Random, at: int) -> list[Event]:
    """What the people at the board do next for ``sides`` (they never double; they take, and
    play a random legal play), reading only the room's match state."""
    state = room.state
    assert state is not None
    phase, turn, mover = state.phase, state.turn, state.turn if state.turn is not None else -1
    dice = (rng.randint(1, 6), rng.randint(1, 6))
    if phase == Phase.OPENING and WHITE in sides:
        return [ButtonPressed(WHITE, ROLL, at), DiceRolled(dice, 0, at + 1)]
    if phase == Phase.TURN and turn in sides:
        return [ButtonPressed(mover, ROLL, at), DiceRolled(dice, 0, at + 1)]
    if phase == Phase.DOUBLED and state.decider is not None and state.decider in sides:
        take: list[Event] = [ButtonPressed(state.decider, DOUBLE, at)]
        return take
    if phase == Phase.PLAY and turn in sides:
        assert state.dice is not None
        plays = legal_plays(state.position, state.dice)
        after = rng.choice(plays).position if plays else state.position
        return [BoardRead(Observation.of_board(board_of(after, mover)), at), ButtonPressed(mover, ROLL, at + 1)]
    if phase == Phase.GAME_OVER and WHITE in sides:
        return [BoardRead(START, at), ButtonPressed(WHITE, ROLL, at + 1)]
    return []


# ------------------------------------------------------------------ the structural check
def _typed_rooms(journal: MemoryJournal, drills: Sequence[Drill], screen: Screen) -> list[Room]:
    """Each room class where a ``Room`` is wanted (pyright checks these assignments)."""
    match: Room = Controller.resume(journal, Settings(length=1), 0, send=screen.send, show=screen.show)
    against: Room = engine_opponent("gnubg-nn", BLACK).resume(MemoryJournal(), Settings(length=1), 0,
                                                              send=screen.send, show=screen.show)
    remote: Room = Controller.resume(MemoryJournal(), Settings(length=1), 0, other=RemotePlayer(RemotePeer("Black"), BLACK),
                                     send=screen.send, show=screen.show)
    practice: Room = PracticeRoom(drills, grade=lambda *a: None, send=screen.send, show=screen.show)
    replay: Room = ReplayRoom(replay_steps(import_mat(MATCH_FILE.read_bytes())), send=screen.send, show=screen.show)
    return [match, against, remote, practice, replay]


def test_every_room_is_a_room_at_run_time() -> None:
    rooms = _typed_rooms(MemoryJournal(), [drill_from_position_id("4HPwATDgc/ABMA", "31")], Screen())
    assert [type(r).__name__ for r in rooms] == ["Controller", "Controller", "Controller", "PracticeRoom",
                                                 "ReplayRoom"]  # one match room, whoever plays the other side
    assert all(isinstance(r, Room) for r in rooms)
    assert not isinstance(object(), Room) and not isinstance(Screen(), Room)  # the check can fail


def test_every_room_says_who_plays_the_other_side_from_elsewhere() -> None:
    """The capability callers (the simulator's players) ask instead of downcasting a room to
    its player: the engine's side with its engine and level, the remote board's side
    with no engine, None where both sides are at the board or there is no match."""
    rooms = _typed_rooms(MemoryJournal(), [drill_from_position_id("4HPwATDgc/ABMA", "31")], Screen())
    match, against, remote, practice, replay = (room.other_side() for room in rooms)
    assert match is None and practice is None and replay is None
    assert against is not None and against == OtherSide(BLACK, against.name, "gnubg-nn", against.level)
    assert against.level and against.name
    assert remote == OtherSide(BLACK, "Black")


def test_every_room_answers_the_match_it_plays() -> None:
    """Issue 33: the app kept the match room beside its room (``App.match``) for what needs
    the match (its analysis, the club seat, the simulator); now it asks the one room: a match
    room is its own match, drills and a replay play none."""
    rooms = _typed_rooms(MemoryJournal(), [drill_from_position_id("4HPwATDgc/ABMA", "31")], Screen())
    assert [room.match_room() is room for room in rooms] == [True, True, True, False, False]
    assert [room.match_room() for room in rooms[3:]] == [None, None]


def test_no_room_is_downcast_to_its_class() -> None:
    """Nothing in the package asks a room which class it is (``isinstance`` with a room,
    controller, seat or opponent class): it asks the Room protocol."""
    import ast

    package = ROOT / "host" / "bgboard"
    room_names = {"Controller", "PracticeRoom", "ReplayRoom", "EngineOpponent", "RemotePeer", "ClubSeat", "RemoteSeat",
                  "PersonAtBoard", "EnginePlayer", "RemotePlayer"}
    found: list[str] = []
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance":
                names = {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)} if len(node.args) > 1 else set[str]()
                if names & room_names:
                    found.append(f"{path.relative_to(package)}:{node.lineno}")
    assert not found, found


def test_every_signature_of_the_rooms_is_typed_without_any() -> None:
    """Typed end to end (issue 33): no parameter, ``*args``/``**kwargs`` or return in
    control/ is a bare ``Any`` (the rooms, their players and parts; ``OpponentRoom.__init__``
    took ``journal: Any, settings: Any, **kwargs: Any``); a JSON body stays ``dict[str, Any]``."""
    import ast

    def bare_any(annotation: ast.expr | None) -> bool:
        return isinstance(annotation, ast.Name) and annotation.id == "Any"

    found: list[str] = []
    for path in sorted((ROOT / "host" / "bgboard" / "control").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                a = node.args
                params = [*a.posonlyargs, *a.args, *a.kwonlyargs, *(x for x in (a.vararg, a.kwarg) if x is not None)]
                if any(bare_any(p.annotation) for p in params) or bare_any(node.returns):
                    found.append(f"{path.name}:{node.lineno} {node.name}")
    assert found == []
    assert bare_any(ast.parse("def f(**kw: Any) -> None: ...").body[0].args.kwarg.annotation)  # type: ignore[attr-defined]


@pytest.mark.slow
def test_pyright_finds_every_room_class_a_room(tmp_path: Path) -> None:
    """This file through pyright with the project's settings: ``_typed_rooms`` type-checks
    only if each class has the protocol's members with its types; a class that is no room
    is an error (the second file, written here, must be reported)."""
    pyright = Path(sys.executable).parent / "pyright"

    def errors(path: Path) -> list[str]:
        proc = subprocess.run([str(pyright), "--outputjson", "--pythonpath", sys.executable, str(path)],
                              capture_output=True, text=True, timeout=600, cwd=ROOT)
        report = json.loads(proc.stdout)
        return [d["message"] for d in report["generalDiagnostics"] if d["severity"] == "error"]

    assert errors(Path(__file__)) == []
    no_room = tmp_path / "no_room.py"
    no_room.write_text("from bgboard.control.rooms import Room\n\n\nclass Clock:\n"
                       "    def handle(self, event: object) -> None: ...\n\n\nroom: Room = Clock()\n")
    found = errors(no_room)
    assert len(found) == 1 and '"Clock" is incompatible with protocol "Room"' in found[0]


def test_the_match_room_with_seats_beside_it_is_a_room_and_the_seats_follow_in_order() -> None:
    """The app's one room under [club] or [remote] (control/seated_room.py): a press a seat
    takes is that seat's alone; every other event is the match room's; the seats follow in
    order (the club's seat, then the remote one)."""
    followed: list[str] = []

    class Seat:
        def __init__(self, name: str, takes: bool) -> None:
            self.name, self.takes = name, takes

        def press(self, player: int, button: str, at_ms: int) -> bool:
            return self.takes and button == DOUBLE

        def after(self) -> None:
            followed.append(self.name)

    screen = Screen()
    match = Controller.resume(MemoryJournal(), Settings(length=1), 0, send=screen.send, show=screen.show)
    room: Room = SeatedRoom(match, [Seat("club", True), Seat("remote", False)])
    _handle(room, screen, BoardRead(START, 1))
    drawn = len(screen.shown)
    room.handle(ButtonPressed(WHITE, DOUBLE, 2))  # the club seat's: the match never sees it
    assert len(screen.shown) == drawn and match.notice is None
    match.handle(ButtonPressed(WHITE, DOUBLE, 2))  # (had it seen it: a notice)
    assert match.notice is not None and match.notice.text == "you cannot double now"
    _handle(room, screen, ButtonPressed(WHITE, ROLL, 3))
    _handle(room, screen, DiceRolled((3, 1), 0, 4))
    assert room.state is not None and room.state.phase == Phase.PLAY and room.state == match.state
    assert room.other_side() is None and room.display() == match.display() and isinstance(room, Room)
    room.follow()
    assert followed == ["club", "remote"]
    assert room.match_room() is match  # what needs the match asks the seated room for it


# ------------------------------------------------------------------ each room, through the protocol only
def test_every_room_takes_every_kind_of_event() -> None:
    """Whatever the app hands a room, the room takes it (one it has no use for changes
    nothing it keeps) and draws what it shows."""
    from bgboard.control.events import BoardFault, HintReady, LessonReady, LinkChanged, Tick

    lesson = PlayLesson(0, "4HPwATDgc/ABMA", "31", "8/5 6/5", "8/5 6/5", 0.0, "good")
    events: list[Event] = [BoardRead(START, 1), Tick(2), HintReady(start_position(), (3, 1), "best: 8/5 6/5", 3),
                           LessonReady(0, lesson, 4), OpponentMoved(("nothing asked",), None, 5),
                           LinkChanged(False, "the board is not connected", 6), LinkChanged(True, "connected", 7),
                           BoardFault("point 7 flickers", 8, sensor=True), DiceRolled((3, 1), 0, 9),
                           ButtonPressed(WHITE, ROLL, 10)]
    for k in range(5):
        screen = Screen()  # each room its own display
        room = _typed_rooms(MemoryJournal(), [drill_from_position_id("4HPwATDgc/ABMA", "31")], screen)[k]
        actions = list(room.actions)
        for event in events:
            _handle(room, screen, event)
        assert room.display() is not None and not room.over
        assert list(room.actions)[:len(actions)] == actions


def _until_over(room: Room, screen: Screen, step: Callable[[int], list[Event]], limit: int = 5000) -> int:
    """Feed ``step``'s events until the room is over; the number of events fed."""
    fed = 0
    while not room.over:
        events = step(fed)
        assert events and fed < limit, f"the room is stuck at {room.state.phase if room.state else None}"
        for event in events:
            _handle(room, screen, event)
            fed += 1
    return fed


def test_a_match_is_played_to_its_end_through_the_protocol() -> None:
    screen, rng = Screen(), random.Random(5)
    room: Room = Controller.resume(MemoryJournal(), Settings(length=1), 0, send=screen.send, show=screen.show)
    _until_over(room, screen, lambda n: _person(room, (WHITE, BLACK), rng, 1000 + 10 * n))
    state = room.state
    assert state is not None and state.phase == Phase.MATCH_OVER and max(state.score) >= 1
    assert room.actions[0].kind == "start" and len(room.actions) > 10
    assert screen.shown[-1].phase == "match-over"


def test_a_match_against_the_engine_is_played_to_its_end_through_the_protocol() -> None:
    """The person plays white; black's plays are the engine's, carried out on the board: the
    person tries the legal plays' boards until the room records one (it records only the
    engine's), and rolls the dice module when the room asks for black's roll."""
    screen, rng = Screen(), random.Random(7)
    room: Room = engine_opponent("gnubg-nn", BLACK).resume(MemoryJournal(), Settings(length=1), 0,
                                                           send=screen.send, show=screen.show)

    engine_plays: list[int] = []

    def step(n: int) -> list[Event]:
        at = 1000 + 10 * n
        state = room.state
        assert state is not None
        if state.phase == Phase.TURN and state.turn == BLACK:
            return [DiceRolled((rng.randint(1, 6), rng.randint(1, 6)), 0, at)]  # the dice module rolls for it
        if state.phase == Phase.PLAY and state.turn == BLACK:
            assert state.dice is not None
            engine_plays.append(len(room.actions))
            plays = legal_plays(state.position, state.dice)
            return [BoardRead(Observation.of_board(board_of(p.position, BLACK)), at) for p in plays] or [
                BoardRead(_board(state), at)]
        return _person(room, (WHITE,), rng, at)

    _until_over(room, screen, step)
    state = room.state
    assert state is not None and state.phase == Phase.MATCH_OVER
    engine = sorted(set(engine_plays))  # the engine's play is the action recorded next, once its board is read
    assert len(engine) > 3 and all(room.actions[k].kind in ("move", "pass") for k in engine)
    assert screen.shown[-1].phase == "match-over"


def test_a_remote_match_is_played_to_its_end_at_both_boards_through_the_protocol() -> None:
    """Two boards, each a remote room; each board's person makes their own side's actions
    there, the other board's reach it as the link hands them (its peer's inbox and an
    ``OpponentMoved`` event), and the person there carries the other side's plays out."""
    rng = random.Random(11)
    boards: list[tuple[Room, RemotePeer, Screen, int]] = []
    for local in (WHITE, BLACK):
        screen, peer = Screen(), RemotePeer(("White", "Black")[1 - local], online=True)
        room: Room = Controller.resume(MemoryJournal(), Settings(length=1), 0, other=RemotePlayer(peer, 1 - local),
                                       send=screen.send, show=screen.show)
        _handle(room, screen, BoardRead(START, 1))
        boards.append((room, peer, screen, local))
    at = 1000
    for _ in range(3000):
        if all(room.over for room, *_ in boards):
            break
        for k, (room, _, screen, local) in enumerate(boards):
            for event in _person(room, (local,), rng, at):
                _handle(room, screen, event)
            at += 10
            other, peer, seen, _ = boards[1 - k]
            for seq, action in enumerate(room.actions):
                if seq:
                    peer.inbox.setdefault(seq, action_to_dict(action))
            _handle(other, seen, OpponentMoved(("remote", len(room.actions)), None, at))
            state = room.state
            assert state is not None
            _handle(other, seen, BoardRead(_board(state), at + 1))  # the other side's play carried out there
            at += 10
    white, black = boards[0][0], boards[1][0]
    assert white.over and black.over
    assert [action_to_dict(a) for a in white.actions] == [action_to_dict(a) for a in black.actions]
    assert boards[0][1].problem is None and boards[1][1].problem is None


def test_the_practice_drills_are_played_to_their_end_through_the_protocol() -> None:
    screen = Screen()
    drills = [drill_from_position_id("4HPwATDgc/ABMA", "31", name="Opening 3-1"),
              drill_from_position_id("4HPwATDgc/ABMA", "42", name="Opening 4-2")]

    def grade(player: int, before: Position, dice: tuple[int, int], after: Position, drill: Drill) -> PlayLesson:
        return PlayLesson(player, drill.position_id, f"{dice[0]}{dice[1]}", "8/5 6/5", "8/5 6/5", 0.0, "good")

    room: Room = PracticeRoom(drills, grade=grade, send=screen.send, show=screen.show)
    assert room.state is None and room.display() is not None

    where = [0]  # the drill the learner is at (the display says "Drill k/2")

    def step(n: int) -> list[Event]:
        at, drill, shown = 1000 + 10 * n, drills[where[0]], room.display()
        assert shown is not None
        if shown.phase == "moving":
            assert shown.dice is not None and shown.dice == drill.dice  # a fixed drill keeps its roll
            play = legal_plays(drill.position, shown.dice)[0]
            return [BoardRead(Observation.of_board(board_of(play.position, WHITE)), at), ButtonPressed(WHITE, ROLL, at + 1)]
        if shown.title[-1:] == ("Roll: next drill",):
            where[0] += 1
            return [ButtonPressed(WHITE, ROLL, at)]
        if shown.title[-1:] == (f"Drill {where[0] + 1}/2: roll",):
            return [DiceRolled((6, 6), 0, at)]
        assert shown.phase == "setup" or shown.title[-1] == f"Drill {where[0] + 1}/2: set up, then roll"
        return [BoardRead(Observation.of_board(board_of(drill.position, WHITE)), at), ButtonPressed(WHITE, ROLL, at + 1)]

    _until_over(room, screen, step, limit=50)
    assert where[0] == 2 and list(room.actions) == []  # drills are no match
    assert screen.shown[-1].title[0] == "All drills done"


def test_a_replay_is_stepped_to_its_last_stop_through_the_protocol() -> None:
    screen = Screen()
    steps = replay_steps(import_mat(MATCH_FILE.read_bytes()))
    room: Room = ReplayRoom(steps, send=screen.send, show=screen.show)
    assert not room.over and room.state is not None
    fed = _until_over(room, screen, lambda n: [ButtonPressed(WHITE, FORWARD, 1000 + n)])
    assert fed == len(steps) - 1 and list(room.actions) == []  # a replay writes no actions
    assert screen.shown[-1].message[0] == f"{steps[-1].text.split(':')[0]}: waiting for the board"
    _handle(room, screen, BoardRead(Observation.of_board(board_of(steps[-1].position, WHITE)), 9000))
    assert room.display() == steps[-1].display and room.over  # laid out: the last stop itself
