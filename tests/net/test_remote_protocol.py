"""Remote play's wire (pure): topics, moves and acks round trip, hostile payloads refused
with one sentence, the per-board ACL, invitations, the [remote] config."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgboard.config import ConfigError, config_from_dict, remote_place
from bgboard.match.actions import (AcceptResign, Double, Move, NextGame, OpeningRoll, Pass, Resign, Roll, StartMatch,
                                   Take, action_from_dict, action_to_dict)
from bgboard.net.protocol import ProtocolError
from bgboard.net.remote_wire import (MoveAck, MoveMessage, decode_ack, decode_move, encode_ack, encode_move, match_topic,
                                parse_invitation, remote_acl_text)

ACTIONS = [StartMatch(3, players=("Ann", "Bob")), OpeningRoll((3, 1)), Roll((6, 6)), Move(((8, 5), (6, 5))),
           Move(((25, 22), (13, 10), (13, 10), (6, 3))), Pass(), Double(player=0), Take(player=1), Resign(2, player=1),
           AcceptResign(player=0), NextGame()]


@pytest.mark.parametrize("action", ACTIONS, ids=lambda a: a.kind)
def test_every_action_a_board_sends_round_trips(action) -> None:
    message = MoveMessage("friday-1", 7, action_to_dict(action))
    decoded = decode_move(encode_move(message))
    assert decoded == message and action_from_dict(decoded.action) == action
    assert decode_ack(encode_ack(MoveAck("friday-1", 7))) == MoveAck("friday-1", 7)
    lost = MoveMessage("friday-1", 9, {"type": "forfeit", "loser": 1})  # a loss on time, the log's last entry
    assert decode_move(encode_move(lost)) == lost


def _move(**change) -> bytes:
    body = {"v": 1, "type": "move", "match": "m", "seq": 3, "action": {"type": "roll", "dice": [3, 4]}} | change
    return json.dumps(body).encode()


@pytest.mark.parametrize("payload, words", [
    (_move(seq=-1), "'seq' must be a whole number"),
    (_move(seq=True), "'seq' must be a whole number"),
    (_move(match="Other Match"), "match name must be"),
    (_move(v=2), "of version '2'"),
    (_move(type="ack"), "type 'ack' arrived on a move topic"),
    (_move(extra=1), "'extra' is not a field"),
    (_move(action={"type": "roll", "dice": [0, 7]}), "field 'dice'"),
    (_move(action={"type": "move", "steps": [[30, 1]]}), "field 'steps'"),
    (_move(action={"type": "move", "steps": [[8, 5]] * 5}), "field 'steps'"),
    (_move(action={"type": "condone", "mine": [0] * 26, "theirs": [0] * 26}), "not one a remote board sends"),
    (_move(action={"type": "resign", "level": 9}), "field 'level'"),
    (_move(action={"type": "start", "length": 3, "players": ["A\x1b[2J", "B"]}), "field 'players'"),
    (_move(action={"type": "roll", "dice": [1, 2], "player": 0}), "'player' is not a field of it"),
    (_move(action=[1, 2]), "must be a JSON object"),
    (_move(action={"type": "forfeit", "loser": 2}), "field 'loser'"),
    (b"\xff\xfe", "not JSON"),
    (b"[" * 2000, "nests deeper"),
    (b'{"v": 1, "seq": ' + b"9" * 40 + b"}", "digits"),
    (b" " * 5000, "larger than"),
])
def test_a_hostile_move_is_refused_with_one_sentence(payload: bytes, words: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        decode_move(payload)
    text = str(refused.value)
    assert words in text and "\n" not in text and len(text) < 300


@given(st.binary(max_size=300))
def test_no_payload_makes_the_decoder_fail_otherwise(payload: bytes) -> None:
    for decode in (decode_move, decode_ack):
        try:
            decode(payload)
        except ProtocolError:
            pass


def test_the_acl_gives_each_board_its_own_side_of_its_own_match() -> None:
    acl = remote_acl_text([("board1", "m1", "white"), ("board2", "m1", "black")])
    assert acl.split("user board2")[0].strip().splitlines()[-4:] == [
        "topic write bgboard/match/m1/white/move", "topic write bgboard/match/m1/white/ack",
        "topic read bgboard/match/m1/black/move", "topic read bgboard/match/m1/black/ack"]
    assert "topic write bgboard/match/m1/black/move" in acl.split("user board2")[1]
    assert "#" not in acl.replace("# bgboard", "") and "+" not in acl  # no wildcard reaches another match
    assert match_topic("m1", "white", "move") == "bgboard/match/m1/white/move"
    with pytest.raises(ProtocolError):
        match_topic("m1/#", "white", "move")


def test_an_invitation_names_the_match_and_the_side() -> None:
    assert parse_invitation("friday-42:black") == ("friday-42", "black")
    for bad in ("friday-42", "friday-42:red", "Friday:white", ":white"):
        with pytest.raises(ProtocolError):
            parse_invitation(bad)


def test_the_remote_table_is_checked_with_one_sentence(tmp_path: Path) -> None:
    secret = tmp_path / "pw"
    secret.write_text("s3cret\n")
    base = {"broker": "mqtt://example:1883", "username": "board1", "password_file": str(secret)}
    config = config_from_dict({"remote": base | {"invitation": "m7:black"}})
    assert config.remote.enabled and remote_place(config.remote) == ("m7", "black")
    assert remote_place(config_from_dict({"remote": base | {"match": "m7"}}).remote) == ("m7", "white")
    for table, words in [
        (base, "remote.match must name the match"),
        (base | {"match": "m7", "side": "red"}, 'remote.side must be "white" or "black"'),
        (base | {"match": "M 7"}, "match name must be"),
        (base | {"match": "m7", "broker": "http://x"}, "broker must be written"),
        (base | {"match": "m7", "username": ""}, "remote.username"),
    ]:
        with pytest.raises(ConfigError) as refused:
            config_from_dict({"remote": table})
        assert words in str(refused.value)
    with pytest.raises(ConfigError, match="person at another board"):
        config_from_dict({"remote": base | {"match": "m7"}, "match": {"opponent": "engine"}})


def test_the_seat_journals_a_move_once_before_acking_and_resends_only_what_was_not_acked(tmp_path: Path) -> None:
    """The seat over the real journal, its link not connected (what it would send is kept)."""
    import asyncio

    from bgboard.control.controller import Settings
    from bgboard.control.events import ROLL, ButtonPressed, DiceRolled
    from bgboard.net.protocol import parse_broker_url
    from bgboard.net.remote_wire import RemoteSettings
    from bgboard.net.remotelink import RemoteSeat
    from bgboard.store.journal import Journal

    settings = RemoteSettings(parse_broker_url("mqtt://127.0.0.1:1"), "m1", "white", "board1", "pw")

    async def white_board(journal: Journal, moves: list[MoveMessage]) -> tuple[RemoteSeat, list[int]]:
        seat = RemoteSeat(journal, settings, "Black", lambda event: seat.controller.handle(event), lambda: 5)
        c = seat.resume(journal, Settings(length=3), 0)
        if not c.actions[1:]:
            c.handle(ButtonPressed(0, ROLL, 1))
            c.handle(DiceRolled((1, 3), 1, 2))  # white's board rolls the opening: black to play
            seat.after()
        for move in moves:
            seat._on_move(move)
        await seat.close()
        return seat, list(seat.link._acks)

    with Journal(tmp_path / "journal.sqlite") as journal:
        black_start = MoveMessage("m1", 0, action_to_dict(StartMatch(3, players=("White", "Black"))))
        seat, acks = asyncio.run(white_board(journal, [black_start, black_start, MoveMessage("m1", 40, {"type": "pass"})]))
        assert sorted(seat.link.pending) == [0, 1] and acks == [0, 0]  # its own start and opening; no ack for 40
        assert seat.peer.problem is None
        seat._on_ack(MoveAck("m1", 1))
        rows = [e.body for e in journal.entries() if e.kind == "remote"]
        assert [(r["what"], r["seq"]) for r in rows] == [("received", 0), ("acked", 1)]
    with Journal(tmp_path / "journal.sqlite") as journal:  # the board restarts
        seat, acks = asyncio.run(white_board(journal, []))
        assert sorted(seat.link.pending) == [0]  # the opening was acked: only the start goes again
        assert seat.received == {0: black_start.action}
    with Journal(tmp_path / "other.sqlite") as journal:  # a board that started another match
        other = MoveMessage("m1", 0, action_to_dict(StartMatch(5, players=("White", "Black"))))
        seat, _ = asyncio.run(white_board(journal, [other]))
        assert seat.peer.problem is not None and "length differ" in seat.peer.problem


def test_bad_remote_options_are_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bgboard.cli import main

    plain = tmp_path / "plain.toml"
    plain.write_text("[match]\nlength = 3\n")
    wrong = tmp_path / "wrong.toml"
    wrong.write_text('[remote]\nbroker = "mqtt://127.0.0.1:1"\nmatch = "m"\nusername = "b"\npassword_file = "/nonexistent"\n')
    for argv, words in [
        (["sim", "--remote-board", str(plain)], "has no [remote] broker"),
        (["sim", "--remote", "--opponent", "pubeval"], "leave out --opponent"),
        (["sim", "--remote", "--remote-board", str(plain)], "choose --remote"),
        (["sim", "--remote-board", str(wrong), "--model-firmware"], "remote.password_file"),
    ]:
        assert main([*argv, "--out", str(tmp_path / "out")]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and words in err[0], err
