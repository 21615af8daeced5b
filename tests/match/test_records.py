"""The .mat writer and reader without gnubg: golden files gnubg wrote, incremental appends,
malformed records."""

from __future__ import annotations

from pathlib import Path

import pytest

from bgboard.match import MATCH_OVER, MatchRecordError, replay, states
from bgboard.match.mat import MatCursor, MatInfo, export_mat, format_steps, mat_chunk, parse_steps, read_mat
from bgboard.match.recordfile import MatFile, RecordFileError
from bgboard.match.selfplay import selfplay
from bgboard.rules import start_position

DATA = Path(__file__).parents[1] / "data" / "match"

# What gnubg's match() reported for the files it exported: (winner, points) per game.
GNUBG_RESULTS = {
    "gnubg_7pt_seed4.mat": [(1, 2), (1, 4), (0, 2), (0, 4), (0, 2)],
    "gnubg_7pt_seed6.mat": [(1, 4), (0, 2), (0, 4), (1, 2), (1, 2)],
}


@pytest.mark.parametrize("name", sorted(GNUBG_RESULTS))
def test_gnubg_exported_matches_are_read_and_rewritten_byte_for_byte(name: str) -> None:
    text = (DATA / name).read_text()
    actions = read_mat(text)
    state = replay(actions)
    assert [(g.winner, g.points) for g in state.games] == GNUBG_RESULTS[name]
    assert state.phase == MATCH_OVER and state.players == ("gnubg", "root")
    assert export_mat(actions, MatInfo(event_date=(2026, 11, 22))) == text


def test_the_file_grows_action_by_action(tmp_path: Path) -> None:
    actions = selfplay(5, 21)  # holds a resignation after rolling
    whole = export_mat(actions)
    path = tmp_path / "live.mat"
    sizes = []
    with MatFile(path) as record:
        for action, after, before in states(actions):
            record.append(action, before, after)
            on_disk = path.read_text()
            assert whole.startswith(on_disk)
            sizes.append(len(on_disk))
    assert path.read_text() == whole
    assert sizes == sorted(sizes) and len(set(sizes)) > 100


def test_format_steps_marks_the_first_hit_on_a_point_only() -> None:
    from bgboard.rules import Position

    position = start_position()
    assert format_steps(position, ((24, 18), (24, 18), (13, 7), (13, 7))) == "24/18 24/18 13/7 13/7"
    assert format_steps(position, ((13, 8),)) == "13/8 "
    theirs = [0] * 26
    theirs[24] = 1  # one opposing checker on my 1-point ...
    theirs[20] = 1  # ... and one on my 5-point
    theirs[0] = 13
    blots = Position(position.mine, tuple(theirs))
    # gnubg's FormatMovePlain: '*' on the first step that lands on a point the opponent
    # held before the move, not on later steps to the same point.
    assert format_steps(blots, ((6, 1), (6, 1))) == "6/1* 6/1 "
    assert format_steps(blots, ((8, 5), (6, 5), (6, 1))) == "8/5* 6/5 6/1* "


def test_parse_steps_reads_gnubg_and_jellyfish_notation() -> None:
    assert parse_steps("13/8 8/3* 25/20 6/0") == ((13, 8), (8, 3), (25, 20), (6, 0))
    assert parse_steps("bar/22* 6/off 24/18(2) 13/7/1") == (
        (25, 22), (6, 0), (24, 18), (24, 18), (13, 7), (7, 1)
    )
    with pytest.raises(MatchRecordError, match="cannot read the move"):
        parse_steps("13-8")


BAD = {
    "no header": ("Game 1\n", "no 'N point match' line"),
    "names": (" 3 point match\n\n Game 1\n Ann vs Bob\n", "line 4: expected the players' names"),
    "illegal": (
        " 3 point match\n\n Game 1\n Ann : 0                        Bob : 0\n  1) 31: 8/4 6/5\n",
        "line 5:",
    ),
    "double opening": (
        " 3 point match\n\n Game 1\n Ann : 0                        Bob : 0\n  1) 33: 8/5 8/5 6/3 6/3\n",
        "an opening roll cannot be a double",
    ),
    "wrong result": (
        " 1 point match\n\n Game 1\n Ann : 0                        Bob : 0\n"
        "  1) 31: 8/5 6/5                  Doubles => 2\n"
        "  2)  Drops                       Wins 3 points\n",
        "line 6: the file says Bob wins 3, the moves give Bob 1",
    ),
    "garbage": (
        " 3 point match\n\n Game 1\n Ann : 0                        Bob : 0\n  1) hello\n",
        "line 5: cannot read 'hello'",
    ),
    "score": (
        " 3 point match\n\n Game 1\n Ann : 0                        Bob : 2\n",
        "line 4: the file gives the score 0-2",
    ),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_malformed_records_are_refused_with_one_sentence(name: str) -> None:
    text, message = BAD[name]
    with pytest.raises(MatchRecordError) as info:
        read_mat(text)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_a_record_that_cannot_be_written_is_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(RecordFileError, match="cannot write the match record"):
        MatFile(tmp_path / "missing" / "x.mat")


def test_cursor_starts_fresh_each_game() -> None:
    actions = selfplay(3, 7)
    cursor = MatCursor()
    before = None
    seen = []
    for action, after, before in states(actions):
        _text, cursor = mat_chunk(cursor, action, before, after)
        seen.append(cursor.i)
    assert seen[0] == 0 and max(seen) > 10


@pytest.mark.slow
@pytest.mark.parametrize(
    ("length", "seed"),
    # 7/21: dice rolled before a resignation right after passes (closed board).
    [(7, 21), (5, 21), (3, 15), (3, 44), (3, 20)] + [(n, s) for n in (1, 5, 9) for s in range(300, 305)],
)
def test_our_records_read_back_to_the_same_match(length: int, seed: int) -> None:
    actions = selfplay(length, seed)
    text = export_mat(actions)
    again = read_mat(text)
    assert replay(again).games == replay(actions).games
    assert export_mat(again) == text


def test_a_roll_without_steps_that_could_be_played_is_refused() -> None:
    text = (
        " 3 point match\n\n Game 1\n Ann : 0                        Bob : 0\n"
        "  1) 31: 8/5 6/5                  42: \n"
        "  2) 31: 8/5 6/5\n"
    )
    with pytest.raises(MatchRecordError, match="Bob rolled 42 and did not play"):
        read_mat(text)


@pytest.mark.parametrize("variant", ["nackgammon", "hypergammon1", "hypergammon2", "hypergammon3"])
def test_variant_records_carry_the_variation_and_read_back(variant: str) -> None:
    actions = selfplay(3, 5, variant=variant)
    text = export_mat(actions)
    again = read_mat(text)
    assert replay(again).rules.variant == variant
    assert replay(again).games == replay(actions).games
    assert export_mat(again) == text


def test_long_names_with_spaces_read_back() -> None:
    # gnubg pads "name : score" to 31 columns; a longer left part leaves no gap at all.
    names = ("Alexandra Konstantinopoulou-Smith", "Bob van der Berg")
    actions = selfplay(3, 7, players=names)
    text = export_mat(actions)
    assert " Alexandra Konstantinopoulou-Smith : 0Bob van der Berg : 0" in text.splitlines()
    assert replay(read_mat(text)).players == names


def test_gnubg_record_of_a_resignation_after_rolling_and_a_match_in_progress() -> None:
    # gnubg 1.1.0a16, two human players: three plays, then player 0 rolls 52 and resigns a
    # single; game 2 has only its opening roll (31 for player 0).
    text = (DATA / "gnubg_resign_after_roll.mat").read_text()
    state = replay(read_mat(text))
    assert [(g.winner, g.points, g.result) for g in state.games] == [(1, 1, "resign")]
    assert (state.game, state.phase, state.turn, state.dice) == (2, "play", 0, (3, 1))
    ours = export_mat(read_mat(text), MatInfo(event_date=(2026, 11, 22)))
    # Our writer puts a roll on disk with its play; gnubg shows the unplayed opening roll.
    assert ours + "  1) 31: " == text


def test_money_jacoby_resignation_reads_back() -> None:
    from bgboard.match import AcceptResign, OpeningRoll, Resign, StartMatch

    actions = [StartMatch(0, "money", ("Ann", "Bob"), jacoby=True), OpeningRoll((3, 1)), Resign(2), AcceptResign()]
    text = export_mat(actions)
    assert " 0 point match" in text and "Wins 1 point" in text
    # A .mat file does not say whether Jacoby was on: the points, not the level, survive.
    ours = [(g.winner, g.points, g.result) for g in replay(actions).games]
    assert [(g.winner, g.points, g.result) for g in replay(read_mat(text)).games] == ours == [(1, 1, "resign")]


def test_the_record_writer_writes_the_newest_log_on_its_thread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While one write is under way the logs handed over meanwhile are coalesced: only the
    newest is written next, and close() writes what is waiting."""
    import threading

    from bgboard.match import recordfile
    from bgboard.match.mat import export_mat
    from bgboard.match.recordfile import RecordWriter
    from bgboard.match.sgf import export_sgf

    actions = selfplay(3, 7)
    real = recordfile.write_records
    started, release = threading.Event(), threading.Event()
    calls: list[tuple[int, str]] = []

    def slow(log, directory, info=None, replayed=None):  # the first write waits for the test: a slow disk
        calls.append((len(log), threading.current_thread().name))
        started.set()
        release.wait(5)
        return real(log, directory, info, replayed)

    monkeypatch.setattr(recordfile, "write_records", slow)
    writer = RecordWriter(tmp_path)
    writer.write(actions[:1])
    assert started.wait(5)
    for n in range(2, 12):
        writer.write(list(actions[:n]))
    release.set()
    writer.close(5)
    assert calls == [(1, "bgboard-records"), (11, "bgboard-records")]
    assert writer.error is None and writer.written == 2
    assert (tmp_path / "match.mat").read_text() == export_mat(actions[:11])
    assert (tmp_path / "match.sgf").read_text() == export_sgf(actions[:11])


def test_the_record_writer_keeps_a_failure_as_one_sentence(tmp_path: Path) -> None:
    from bgboard.match.recordfile import RecordWriter

    writer = RecordWriter(tmp_path / "missing")
    writer.write(selfplay(1, 3))
    writer.close(5)
    assert writer.error is not None and writer.written == 0
    assert str(writer.error).startswith(f"cannot write the match record {tmp_path / 'missing' / 'match.mat'}")
    assert "\n" not in str(writer.error)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [3, 7])
def test_a_replay_carried_over_gives_the_records_of_a_fresh_one(tmp_path: Path, seed: int) -> None:
    """The records thread replays only what is new: growing the log an action at a time,
    and taking actions back (a shorter log, then another continuation), the files are those
    of the whole log written from scratch, and only the new actions were replayed."""
    from bgboard.match import recordfile
    from bgboard.match.recordfile import replay_onto, write_records
    from bgboard.match.sgf import export_sgf

    import copy

    actions = selfplay(3, seed)
    again = [copy.copy(a) for a in actions[5:9]]  # equal actions, other objects: replayed anew
    logs = [actions[:n] for n in range(1, len(actions) + 1, 7)] + [actions[:5], actions[:5] + again, actions]
    replayed: recordfile.Replayed = []
    for log in logs:
        before = list(replayed)
        replayed = write_records(log, tmp_path, None, replayed)
        assert (tmp_path / "match.mat").read_text() == export_mat(log)
        assert (tmp_path / "match.sgf").read_text() == export_sgf(log)
        shared = next((i for i, (a, b) in enumerate(zip(before, log)) if a[0] is not b), min(len(before), len(log)))
        assert [r[1] for r in replayed[:shared]] == [r[1] for r in before[:shared]]
        assert all(r is s for r, s in zip(replayed[:shared], before[:shared])), "the shared start is reused"
    assert replay_onto([], actions) == list(states(actions))
