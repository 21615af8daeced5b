"""The engine as the other side (the match room given an ``EnginePlayer``): its play shown and
checked at the board, its cube actions, takebacks, the levels between games; over the real
match room, rules, journal and engines."""

from __future__ import annotations

from pathlib import Path

import gnubg_nn
import pytest

from bgboard.control.clock import ClockRules
from bgboard.control.carrying import opponent_words
from bgboard.control.controller import Controller, Settings
from bgboard.control.decisions import Answer, Question
from bgboard.control.engine_player import EnginePlayer
from bgboard.control.events import DOUBLE, DROP, ROLL, BoardRead, ButtonPressed, DiceRolled
from bgboard.control.numbering import Numbering
from bgboard.hints.hint_engine import CubeState
from bgboard.hints.levels import LADDER, Ask, decide, level_of, make_engine, parse_opponent
from bgboard.link.messages import Led, SetLeds, SetRolling
from bgboard.match import Move, replay
from bgboard.match.mat_read import import_mat
from bgboard.match.state import Phase
from bgboard.opponents import ask_of, decide_cached, engine_opponent
from bgboard.rules import Position, apply_step, legal_plays, start_position
from bgboard.rules.step import Step
from bgboard.sense.places import BLACK, WHITE, Observation, board_of
from bgboard.sim.modelled_board import Options, Simulation
from bgboard.store.journal import MemoryJournal

START = Observation.of_board(board_of(start_position(), WHITE))
BLUE, GREEN, RED = (0, 0, 160), (0, 160, 0), (160, 0, 0)


def _opened(settings: Settings = Settings(length=3), spec: str = "gnubg-nn",
            dice: str = "module") -> tuple[Controller, list, list]:
    """A match against the engine (black) that black opens with 3-1."""
    sent: list = []
    shown: list = []
    c = engine_opponent(spec, BLACK, dice).resume(MemoryJournal(), settings, 0, send=sent.append, show=shown.append)
    c.handle(BoardRead(START, 1))
    c.handle(ButtonPressed(WHITE, ROLL, 2))
    c.handle(DiceRolled((1, 3), 1, 3))  # white 1, black 3: black (the engine) plays 3-1
    return c, sent, shown


def _engine(room: Controller) -> EnginePlayer:
    """The engine's player the room was given (the match room is one class for every match)."""
    assert isinstance(room.other, EnginePlayer)
    return room.other


def _after(position: Position, steps: tuple[tuple[int, int], ...]) -> Position:
    for frm, to in steps:
        position = apply_step(position, Step(frm, to, 0))
    return position


def test_the_engines_play_is_named_in_the_persons_numbering_and_lit_one_step_at_a_time() -> None:
    c, sent, shown = _opened()
    assert c.state.phase == Phase.PLAY and c.state.turn == BLACK
    assert _engine(c).carrier.answer is not None and _engine(c).carrier.answer.steps == ((8, 5), (6, 5))  # gnubg-nn's 3-1: black's 8/5 6/5
    assert shown[-1].message[0] == "gnubg-nn (expert) plays 17/20 19/20: move 17/20 (1 of 2)"  # white's numbering
    assert sent[-1] == SetLeds((Led(16, BLUE), Led(19, GREEN)))
    start = start_position().swap()  # black on roll
    one = _after(start, ((8, 5),))
    c.handle(BoardRead(Observation.of_board(board_of(one, BLACK)), 10))
    assert shown[-1].message[0] == "gnubg-nn (expert) plays 17/20 19/20: move 19/20 (2 of 2)"
    assert sent[-1] == SetLeds((Led(18, BLUE), Led(19, GREEN)))
    assert len(c.actions) == 2  # nothing recorded yet
    c.handle(BoardRead(Observation.of_board(board_of(_after(start, _engine(c).carrier.answer.steps), BLACK)), 11))
    assert c.actions[-1] == Move(((8, 5), (6, 5)))
    assert c.state.phase == Phase.TURN and c.state.turn == WHITE
    assert shown[-1].message[0] == "gnubg-nn (expert) played 17/20 19/20"


def test_a_wrong_execution_is_guided_back_and_never_recorded_as_another_play() -> None:
    c, sent, shown = _opened()
    start = start_position().swap()
    other = next(p for p in legal_plays(start, (3, 1)) if p.notation == "24/23 24/21")  # legal, not the engine's
    c.handle(BoardRead(Observation.of_board(board_of(other.position, BLACK)), 10))
    message = shown[-1].message[0]
    assert message.startswith("that is not gnubg-nn (expert)'s play 17/20 19/20: put back: ")
    assert shown[-1].severity == "error" and shown[-1].put_back
    assert sent[-1] == SetLeds(tuple(Led(p - 1, RED) for p in (1, 2, 4)))  # black's 24, 23, 21 in white's numbering
    c.handle(ButtonPressed(BLACK, ROLL, 11))  # the person presses the engine's done: nothing is condoned
    assert shown[-1].message[0] == "gnubg-nn (expert) presses its own buttons"
    c.handle(ButtonPressed(WHITE, ROLL, 12))
    assert len(c.actions) == 2 and _engine(c).carrier.wrong_executions == 1
    c.handle(BoardRead(START, 13))  # put back as told: step 1 is lit again
    assert shown[-1].message[0].endswith("move 17/20 (1 of 2)")
    c.handle(BoardRead(Observation.of_board(board_of(_after(start, _engine(c).carrier.answer.steps), BLACK)), 14))
    assert c.actions[-1] == Move(((8, 5), (6, 5)))


def test_the_person_rolls_for_the_engine_and_takes_back_before_it_has_rolled_with_the_clocks_right() -> None:
    clock = ClockRules(60_000, 0, 12_000, 0)
    c, sent, shown = _opened(Settings(length=3, takebacks=True, clock=clock), dice="person")
    start = start_position().swap()
    c.handle(BoardRead(Observation.of_board(board_of(_after(start, _engine(c).carrier.answer.steps), BLACK)), 10))
    c.handle(DiceRolled((6, 5), 2, 20))  # white rolls (the dice button was enabled for white)
    assert c.state.phase == Phase.PLAY and c.state.turn == WHITE
    white_start = c.state.position
    run = next(p for p in legal_plays(white_start, (6, 5)) if p.notation == "24/13")
    c.handle(BoardRead(Observation.of_board(board_of(run.position, WHITE)), 30))
    c.handle(ButtonPressed(WHITE, ROLL, 31))
    assert c.state.phase == Phase.TURN and c.state.turn == BLACK
    assert _engine(c).rolls_for_engine and sent[-1] == SetRolling(True)  # the engine asks for its dice: no double at 0-0
    assert shown[-1].message[0] == "roll the dice for gnubg-nn (expert)"
    assert c.clock.running == BLACK
    c.handle(BoardRead(Observation.of_board(board_of(white_start, WHITE)), 40))  # the person takes it back
    assert c.state.phase == Phase.PLAY and c.state.turn == WHITE
    assert SetRolling(False) in sent[-3:] and not _engine(c).rolls_for_engine
    assert c.clock.running == WHITE
    # the engine's own play is never taken back at the board
    c.handle(BoardRead(Observation.of_board(board_of(run.position, WHITE)), 50))
    c.handle(ButtonPressed(WHITE, ROLL, 51))
    c.handle(DiceRolled((2, 1), 3, 52))  # the person rolls for the engine
    before = c.state.position
    c.handle(BoardRead(Observation.of_board(board_of(_after(before, _engine(c).carrier.answer.steps), BLACK)), 53))
    assert c.state.phase == Phase.TURN and c.state.turn == WHITE
    done = len(c.actions)
    c.handle(BoardRead(Observation.of_board(board_of(before, BLACK)), 60))
    assert len(c.actions) == done and c.state.turn == WHITE


def test_the_engine_rolls_the_dice_module_itself_after_the_takeback_grace() -> None:
    from bgboard.control.events import LinkChanged, Tick
    from bgboard.control.engine_player import TAKEBACK_GRACE_MS

    for takebacks in (False, True):
        c, sent, shown = _opened(Settings(length=3, takebacks=takebacks))
        start = start_position().swap()
        c.handle(BoardRead(Observation.of_board(board_of(_after(start, _engine(c).carrier.answer.steps), BLACK)), 10))
        c.handle(DiceRolled((6, 5), 2, 20))
        run = next(p for p in legal_plays(c.state.position, (6, 5)) if p.notation == "24/13")
        c.handle(BoardRead(Observation.of_board(board_of(run.position, WHITE)), 30))
        c.handle(ButtonPressed(WHITE, ROLL, 31))
        assert _engine(c).rolls_for_engine
        if takebacks:  # the person has the grace to take the play back; then the module rolls
            assert SetRolling(False, now=True) not in sent
            assert shown[-1].message[0].startswith("gnubg-nn (expert) rolls in 3 s")
            c.handle(Tick(31 + TAKEBACK_GRACE_MS - 1))
            assert SetRolling(False, now=True) not in sent
            c.handle(Tick(31 + TAKEBACK_GRACE_MS))
        assert sent[-1] == SetRolling(False, now=True) and shown[-1].message[0] == "gnubg-nn (expert) rolls"
        c.handle(LinkChanged(False, "board lost", 40000))
        c.handle(LinkChanged(True, "board back", 40001))  # the roll asked while it was away: asked again
        assert sent[-1] == SetRolling(False, now=True)
        c.handle(DiceRolled((4, 2), 3, 40002))
        assert c.state.phase == Phase.PLAY and c.state.turn == BLACK and _engine(c).carrier.answer.choice == "play"


def test_the_engine_answers_a_double_as_it_decides_and_doubles_when_it_decides() -> None:
    c, sent, shown = _opened(Settings(length=3), "bgsage:expert")
    start = start_position().swap()
    c.handle(BoardRead(Observation.of_board(board_of(_after(start, _engine(c).carrier.answer.steps), BLACK)), 10))
    state = c.state
    c.handle(ButtonPressed(WHITE, DOUBLE, 20))  # white doubles at once: an early double
    asked = ask_of(Question("take", BLACK, state, ()), level_of("bgsage", "expert"))
    expected = decide(make_engine("bgsage", "1ply"), asked).choice
    assert expected == "take"
    assert [a.kind for a in c.actions][-2:] == ["double", "take"]
    assert c.state.cube == 2 and c.state.cube_owner == BLACK and shown[-1].message[0] == "bgsage (expert) takes"


def test_beavers_and_passes_come_from_the_engines_cube_decision() -> None:
    engine = make_engine("bgsage", "1ply")
    # gnubg boards (the engine, the doubler on roll): the doubler far ahead in a race: the engine passes
    far_ahead = Position.from_gnubg([[0, 0, 0, 0, 0, 15] + [0] * 19, [2] * 6 + [0] * 19])
    assert decide(engine, Ask("take", far_ahead, CubeState(beaver=True), beavers=True)).choice == "pass"
    # the doubler far behind in a money game with beavers: the engine beavers (a take without them)
    far_behind = Position.from_gnubg([[2] * 6 + [0] * 19, [0] * 12 + [15] + [0] * 12])
    assert decide(engine, Ask("take", far_behind, CubeState(beaver=True), beavers=True)).choice == "beaver"
    assert decide(engine, Ask("take", far_behind, CubeState())).choice == "take"


def test_the_level_changes_between_games_with_the_engines_buttons_and_is_journalled() -> None:
    journal = MemoryJournal()
    shown: list = []
    c = engine_opponent("gnubg-nn", BLACK).resume(journal, Settings(length=3), 0, show=shown.append)
    c.handle(BoardRead(START, 1))
    c.handle(ButtonPressed(BLACK, DROP, 2))
    assert _engine(c).source.level.name == "advanced" and c.message().text == "gnubg-nn (advanced) from the next game on"
    assert shown[-1].names == ("White", "gnubg-nn (advanced)")  # the display names the level now played
    c.handle(ButtonPressed(BLACK, DROP, 3))
    c.handle(ButtonPressed(BLACK, DOUBLE, 4))
    assert _engine(c).source.level.name == "advanced"
    again = engine_opponent("gnubg-nn", BLACK).resume(journal, Settings(length=3), 5)
    assert _engine(again).source.level.name == "advanced"  # a restart keeps the level chosen


def test_the_person_numbering_of_the_engines_play() -> None:
    assert opponent_words("24/18 13/11", BLACK, Numbering.OWN) == "1/7 12/14"
    assert opponent_words("24/18 13/11", BLACK, Numbering.PHYSICAL) == "1/7 12/14"
    assert opponent_words("24/18 13/11", WHITE, Numbering.OWN) == "1/7 12/14"  # black reads its own numbering
    assert opponent_words("24/18 13/11", WHITE, Numbering.PHYSICAL) == "24/18 13/11"


# ---------------------------------------------------------------------- whole matches in the simulator
@pytest.mark.slow
@pytest.mark.parametrize("level", [lvl.spec for lvl in LADDER])
def test_a_whole_match_against_every_level(tmp_path: Path, level: str) -> None:
    sim = Simulation(Options(match_length=1, seed=3, illegal_rate=0.2, opponent=level), tmp_path)
    try:
        sim.run()
        summary = sim.summary()
    finally:
        sim.close()
    engine, name = level.split(":")
    assert summary["opponent"] == {"player": 1, "engine": engine, "level": name}
    assert max(summary["score"]) >= 1 and summary["legal_rejected"] == 0 and summary["engine_rejected"] == 0
    assert summary["engine_plays"] > 5 and summary["wrong_caught"] == summary["wrong_executions"] > 0
    assert sim.controller.state.players[1] == parse_opponent(level).title


def test_at_full_strength_gnubg_nns_plays_in_the_mat_are_gnubg_nns_own_choice(tmp_path: Path) -> None:
    from bgboard.sim.match_run import write_records

    sim = Simulation(Options(match_length=3, seed=5, illegal_rate=0.3, opponent="gnubg-nn"), tmp_path)
    try:
        sim.run()
        write_records(sim, tmp_path)
        summary = sim.summary()
    finally:
        sim.close()
    assert summary["wrong_executions"] > 0 and summary["wrong_caught"] == summary["wrong_executions"]
    match = import_mat((tmp_path / "match.mat").read_text())
    assert match.players[1] == "gnubg-nn (expert)"
    checked = 0
    for game in match.games:
        for play in game.plays:
            if play.player != BLACK or play.kind != "move" or not play.steps or play.dice is None:
                continue
            before = play.before.position
            board = before.to_gnubg()
            best = gnubg_nn.best_move([list(board[0]), list(board[1])], *play.dice)
            # gnubg-nn's move: 1-based points, 25 = bar, 0 = off (the mover's own numbering)
            theirs = _after(before, tuple((int(a), int(b)) for a, b in best))
            assert play.result == theirs, f"game {game.number} line {play.line}: {play.text} vs gnubg-nn {best}"
            checked += 1
    assert checked > 20


@pytest.mark.slow
def test_cube_actions_in_the_record_follow_the_engines_cube_decision(tmp_path: Path) -> None:
    sim = Simulation(Options(match_length=5, seed=7, opponent="bgsage:expert"), tmp_path)
    try:
        sim.run()
        actions = list(sim.controller.actions)
    finally:
        sim.close()
    level = level_of("bgsage", "expert")
    decisions = 0
    for i in range(1, len(actions) - 1):
        state = replay(actions[:i])
        follow = actions[i]
        if state.phase == Phase.TURN and state.turn == BLACK and state.may_double:
            choice = decide_cached("bgsage", "1ply", ask_of(Question("cube", BLACK, state, ()), level)).choice
            assert (follow.kind == "double") == (choice == "double"), f"action {i}"
            decisions += 1
        elif state.phase == Phase.DOUBLED and state.decider == BLACK:
            choice = decide_cached("bgsage", "1ply", ask_of(Question("take", BLACK, state, ()), level)).choice
            assert follow.kind == {"take": "take", "pass": "drop", "beaver": "beaver"}[choice], f"action {i}"
            decisions += 1
    assert decisions > 5
    assert any(a.kind == "double" for a in actions)


# ---------------------------------------------------------------------- the check itself, over many positions
def _positions(seed: int, count: int) -> list[tuple[Position, tuple[int, int]]]:
    """Positions with black on roll and its dice, from seeded random games (every phase of a game)."""
    import random

    rng = random.Random(seed)
    found: list[tuple[Position, tuple[int, int]]] = []
    while len(found) < count:
        position = start_position()
        for turn in range(200):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            if turn % 2 == 1:
                found.append((position, dice))
            plays = legal_plays(position, dice)
            if not plays:
                position = position.swap()
                continue
            after = rng.choice(plays).position
            if after.mine[0] == 15:
                break
            position = after.swap()
    return found[:count]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_other_play_is_wrong_and_every_step_of_the_engines_play_is_progress(seed: int) -> None:
    from bgboard.control.carrying import execution, mid_step, prefixes

    checked = 0
    for position, dice in _positions(seed, 60):
        plays = legal_plays(position, dice)
        if not plays:
            continue
        engine = plays[len(plays) // 2]
        steps = tuple((s.frm, s.to) for s in engine.steps)
        boards = prefixes(position, BLACK, steps)
        exact = lambda board: Observation.exact(board)  # noqa: E731  (sensors that count every checker)
        assert execution(exact(boards[-1]), position, BLACK, steps)[0] == "done"
        for k in range(len(steps)):
            assert execution(exact(boards[k]), position, BLACK, steps)[:2] == ("step", k) or (
                k and boards[k] == boards[k - 1])
            for mid in mid_step(boards[k], boards[k + 1], steps[k], BLACK):
                if mid != boards[-1]:  # (the last step's hands done: the whole play)
                    assert execution(exact(mid), position, BLACK, steps)[0] == "step"
        for other in plays:
            if other.position == engine.position:
                continue
            shown = board_of(other.position, BLACK)
            verdict, back_to, fixes = execution(exact(shown), position, BLACK, steps)
            if shown in boards:  # another play ending where the engine's is on its way: go on from there
                assert verdict == "step" and back_to == boards.index(shown)
                continue
            assert verdict == "wrong" and fixes, f"{other.notation} read as {verdict} for {engine.notation}"
            # what to put back leads to a board of the engine's play so far, step back_to
            assert {f.place: f.want for f in fixes} == {f.place: boards[back_to][f.place - 1] for f in fixes}
            checked += 1
    assert checked > 100


# ---------------------------------------------------------------------- the command, teaching, resuming
@pytest.mark.slow
def test_sim_opponent_json_names_the_engines_side_and_bad_specs_are_one_sentence(tmp_path: Path, capsys) -> None:
    import json

    from bgboard.cli import main

    assert main(["sim", "--opponent", "gnubg-nn:advanced", "--match-length", "1", "--seed", "2", "--out",
                 str(tmp_path / "a"), "--json", "--model-firmware"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["opponent"] == {"player": 1, "engine": "gnubg-nn", "level": "advanced"}
    assert summary["engine_plays"] > 0 and summary["engine_rejected"] == 0
    assert "gnubg-nn (advanced)" in (tmp_path / "a" / "match.mat").read_text()
    assert "gnubg-nn (advanced)" in (tmp_path / "a" / "match.sgf").read_text()
    for bad, said in ((["--opponent", "deepblue"], "unknown opponent engine 'deepblue'"),
                      (["--opponent", "pubeval:expert"], "pubeval plays at casual, not 'expert'")):
        assert main(["sim", *bad, "--out", str(tmp_path / "b"), "--model-firmware"]) == 2
        err = capsys.readouterr().err
        assert said in err and err.count("\n") == 1 and "Traceback" not in err
    # a DIR started against another engine is refused, not mixed
    assert main(["sim", "--opponent", "pubeval", "--match-length", "1", "--seed", "2", "--out", str(tmp_path / "a"),
                 "--model-firmware"]) == 2
    assert "--opponent gnubg-nn:advanced, not --opponent pubeval:casual" in capsys.readouterr().err


def test_teaching_grades_the_persons_plays_and_not_the_engines(tmp_path: Path) -> None:
    sim = Simulation(Options(match_length=1, seed=2, opponent="gnubg-nn:advanced", teach="learner",
                             engine="gnubg-nn"), tmp_path)
    try:
        sim.run()
        summary = sim.summary()
    finally:
        sim.close()
    grades = summary["grades"]
    assert grades and {g["player"] for g in grades} == {WHITE}


def test_on_its_worker_the_engine_answers_off_the_loop_and_a_late_answer_falls_back() -> None:
    import asyncio
    import threading

    from bgboard.control.events import OpponentMoved
    from bgboard.hints.worker import HintWorker
    from bgboard.opponents import EngineOpponent

    started, release = threading.Event(), threading.Event()

    def busy() -> None:  # holds the worker's thread until released
        started.set()
        release.wait(60)

    async def main() -> tuple[list, list]:
        posted: list = []
        with HintWorker(make_engine("pubeval"), separate_process=False) as worker:
            opponent = EngineOpponent(level_of("pubeval"), BLACK, worker=worker, post=posted.append, clock=lambda: 7)
            state = replay([*_opened(spec="pubeval")[0].actions])
            question = Question("play", BLACK, state, ("key",))
            assert opponent.ask(question) is None  # the answer comes later, as an event
            while not posted:
                await asyncio.sleep(0.001)
            # the worker busy past the decision's budget: the first legal play, and the log says so
            worker.submit_call(busy)
            await asyncio.to_thread(started.wait, 60)
            opponent.budget = 0.05
            late: list = []
            opponent.post = late.append
            assert opponent.ask(question) is None
            while not late:
                await asyncio.sleep(0.001)
            release.set()
            return posted, late

    posted, late = asyncio.run(main())
    state = replay([*_opened(spec="pubeval")[0].actions])
    best = decide(make_engine("pubeval"), ask_of(Question("play", BLACK, state, ()), level_of("pubeval")))
    assert posted == [OpponentMoved(("key",), Answer("play", best.steps, best.notation), 7)]
    first = legal_plays(state.position, state.dice)[0]
    assert late[0].decision == Answer("play", tuple((s.frm, s.to) for s in first.steps), first.notation)


def test_the_engine_accepts_a_resignation_worth_its_position_and_declines_one_that_is_not() -> None:
    # gnubg boards (the engine, the resigner on roll): the engine far ahead in a race, nothing of the
    # resigner's borne off: a single game is less than the engine expects (a gammon), a gammon is not
    gammoned = Position.from_gnubg([[0, 0, 0, 3] + [0] * 21, [0] * 12 + [15] + [0] * 12])
    for spec in ("gnubg-nn", "bgsage"):
        engine = make_engine(*((spec, "1ply") if spec == "bgsage" else (spec,)))
        assert decide(engine, Ask("resign", gammoned, CubeState(), level=1)).choice == "decline"
        assert decide(engine, Ask("resign", gammoned, CubeState(), level=2)).choice == "accept"
        assert decide(engine, Ask("resign", start_position(), CubeState(), level=1)).choice == "accept"
    assert decide(make_engine("pubeval"), Ask("resign", gammoned, CubeState(), level=2)).choice == "decline"


def test_the_person_resigns_and_the_engine_answers_at_the_board() -> None:
    c, sent, shown = _opened()
    start = start_position().swap()
    c.handle(BoardRead(Observation.of_board(board_of(_after(start, _engine(c).carrier.answer.steps), BLACK)), 10))
    assert c.state.phase == Phase.TURN and c.state.turn == WHITE
    c.handle(ButtonPressed(WHITE, DROP, 20))  # resign: a single game offered
    c.handle(ButtonPressed(WHITE, ROLL, 21))
    assert [a.kind for a in c.actions][-2:] == ["resign", "accept"]  # worth more than gnubg-nn expects
    assert c.state.games[-1].winner == BLACK and c.state.games[-1].points == 1


def test_a_hit_is_guided_to_the_bar_and_a_bear_off_to_the_tray() -> None:
    class Scripted:  # an OpponentPlay source with a fixed answer (a remote board would be one)
        name = "remote"

        def __init__(self, answer: Answer) -> None:
            self.answer = answer

        def ask(self, question: Question) -> Answer:
            return self.answer

        def levels(self) -> tuple[str, ...]:
            return ()

        def set_level(self, level: str) -> None:
            raise AssertionError("no levels")

    # white opens 5-2 with 13/11 13/8, leaving a blot on 11; black's 6-4 (a remote side's
    # answer, scripted) runs one checker 24/18/14*, hitting it
    sent: list = []
    shown: list = []
    source = Scripted(Answer("play"))
    c = Controller.resume(MemoryJournal(), Settings(length=3), 0, other=EnginePlayer(source, BLACK),
                          send=sent.append, show=shown.append)
    c.handle(BoardRead(START, 1))
    c.handle(ButtonPressed(WHITE, ROLL, 2))
    c.handle(DiceRolled((5, 2), 1, 3))  # white opens 5-2
    white = next(p for p in legal_plays(start_position(), (5, 2)) if p.notation == "13/11 13/8")
    c.handle(BoardRead(Observation.of_board(board_of(white.position, WHITE)), 10))
    c.handle(ButtonPressed(WHITE, ROLL, 11))
    source.answer = Answer("play", ((24, 18), (18, 14)), "24/14*")  # black's 6-4 hits white's blot on 11
    c.handle(DiceRolled((6, 4), 2, 20))
    assert c.state.turn == BLACK and _engine(c).carrier.answer == source.answer
    c.handle(BoardRead(Observation.of_board(board_of(_after(c.state.position, ((24, 18),)), BLACK)), 21))
    assert shown[-1].message[0] == "remote plays 1/11*: move 7/11: your blot there goes to the bar (2 of 2)"
    assert sent[-1] == SetLeds((Led(6, BLUE), Led(10, GREEN), Led(24, RED)))  # white's bar is LED 24
    end = _after(c.state.position, source.answer.steps)
    assert end.theirs[25] == 1  # (the blot on white's bar in the result)
    c.handle(BoardRead(Observation.of_board(board_of(end, BLACK)), 22))
    assert c.actions[-1] == Move(((24, 18), (18, 14))) and c.state.turn == WHITE
