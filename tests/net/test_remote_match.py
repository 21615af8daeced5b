"""Two boards play one match through a real Mosquitto, each board a process of its own
(``bgboard sim --remote-board``): the match to its end with the same record at both boards;
the broker stopped mid-game and started again; either board killed with SIGKILL mid-match
and started again — each ends with the record of the uninterrupted run; a board publishing
to another match's topics is refused by the broker.  The modelled firmware, but for the one
run of ``bgboard sim --remote`` on the real firmware and the real app."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from bgboard.control.remote import author
from bgboard.match import states
from bgboard.match.actions import Roll, action_from_dict, action_to_dict
from bgboard.match.mat_read import import_mat
from bgboard.net.mosquitto import BrokerMissingError
from bgboard.net.protocol import parse_broker_url
from bgboard.net.remote_wire import MoveMessage, decode_move, encode_move, match_topic
from bgboard.net.remotelink import RemoteBroker
from bgboard.net.mqtt_client import open_client
from bgboard.sim.driver import Options
from bgboard.sim.remote_run import board_command, board_config, run_remote_match
from tests.support import worker_port

OPTIONS = Options(match_length=3, seed=4, illegal_rate=0.1)
MATCH = "sim-4"
SEATS = [("board1", MATCH, "white"), ("board2", MATCH, "black")]
#: Bounds that only stop a hang (a loaded machine is slower, not wrong).
HANG_S = 600.0


def _broker(root: Path, seats: list[tuple[str, str, str]], port: int | None = None) -> RemoteBroker:
    try:
        broker = RemoteBroker(root, seats, port=port or worker_port())
    except BrokerMissingError as exc:
        pytest.fail(f"{exc} — these tests run the real broker")
    broker.start(timeout=60)
    return broker


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The uninterrupted match: ``bgboard sim --remote --model-firmware``'s own run."""
    out = tmp_path_factory.mktemp("reference")
    return run_remote_match(OPTIONS, out, model=True, timeout_s=HANG_S)


def _actions(journal: Path) -> list[dict[str, Any]]:
    """The match actions a board's journal holds (read-only, beside the running board)."""
    if not journal.exists():
        return []
    try:
        with sqlite3.connect(f"file:{journal}?mode=ro", uri=True, timeout=30) as db:
            rows = db.execute("SELECT body FROM journal WHERE kind = 'action' ORDER BY seq").fetchall()
    except sqlite3.OperationalError:  # the board is creating it now
        return []
    return [json.loads(body) for (body,) in rows]


def _rows(journal: Path, kind: str) -> list[dict[str, Any]]:
    with sqlite3.connect(f"file:{journal}?mode=ro", uri=True, timeout=30) as db:
        rows = db.execute("SELECT body FROM journal WHERE kind = ? ORDER BY seq", (kind,)).fetchall()
    return [json.loads(body) for (body,) in rows]


class Boards:
    """The two board processes of the remote match on ``broker``."""

    def __init__(self, root: Path, broker: RemoteBroker) -> None:
        self.root = root
        self.processes: dict[str, subprocess.Popen[bytes]] = {}
        self.commands = {side: board_command(board_config(root, broker, MATCH, side, user, OPTIONS.match_length),
                                             root / side, OPTIONS, model=True, speed=None)
                         for user, _, side in SEATS}

    def start(self, side: str) -> None:
        log = open(self.root / f"{side}.log", "ab")
        self.processes[side] = subprocess.Popen(self.commands[side], stdout=subprocess.PIPE, stderr=log)
        log.close()

    def journal(self, side: str) -> Path:
        return self.root / side / "journal.sqlite"

    def until(self, test: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + HANG_S
        while not test():
            for side, p in self.processes.items():
                if p.poll() not in (None, 0):
                    pytest.fail(f"the {side} board stopped: {(self.root / f'{side}.log').read_text()[-600:]}")
            assert time.monotonic() < deadline, f"no {what} within {HANG_S} s"
            time.sleep(0.05)

    def kill(self, side: str) -> None:
        p = self.processes[side]
        p.send_signal(signal.SIGKILL)
        p.wait()
        assert p.stdout is not None
        p.stdout.close()

    def finish(self) -> dict[str, dict[str, Any]]:
        out = {}
        for side, p in self.processes.items():
            stdout, _ = p.communicate(timeout=HANG_S)
            assert p.returncode == 0, (self.root / f"{side}.log").read_text()[-800:]
            out[side] = json.loads(stdout.decode().strip().splitlines()[-1])
        return out

    def close(self) -> None:
        for p in self.processes.values():
            if p.poll() is None:
                p.kill()
                p.wait()


def _same_match_as(reference: dict[str, Any], root: Path, summaries: dict[str, dict[str, Any]]) -> None:
    """Both boards hold the reference's match: the same record, each action once."""
    want = Path(reference["boards"][0]["mat"]).read_text()
    expected = _actions(Path(reference["boards"][0]["journal"]))
    for side in ("white", "black"):
        assert (root / side / "match.mat").read_text() == want
        assert summaries[side]["score"] == reference["boards"][0]["score"]
        assert _actions(root / side / "journal.sqlite") == expected  # nothing lost, nothing doubled
        received = [r["seq"] for r in _rows(root / side / "journal.sqlite", "remote") if r["what"] == "received"]
        assert len(received) == len(set(received))


@pytest.mark.slow
def test_two_boards_play_a_match_to_its_end_with_the_same_record(reference: dict[str, Any]) -> None:
    white, black = reference["boards"]
    assert reference["same_record"] and (white["side"], black["side"]) == ("white", "black")
    assert max(white["score"]) >= OPTIONS.match_length and white["score"] == black["score"]
    record = import_mat(Path(white["mat"]).read_text())
    assert len(record.games) == len(white["games"]) >= 2
    journals = [Path(b["journal"]) for b in (white, black)]
    actions = _actions(journals[0])
    assert actions == _actions(journals[1])
    # each action was made at the board of the player whose decision it was, is in the other
    # board's journal (received before it took effect there) and was acked back
    made: dict[int, set[int]] = {0: set(), 1: set()}
    plays = {0: 0, 1: 0}
    for seq, (action, _, before) in enumerate(states(action_from_dict(a) for a in actions)):
        if before is not None:
            made[author(before, action)].add(seq)
            if action.kind == "move" and action.steps:
                plays[before.turn] += 1
    for here, there in ((0, 1), (1, 0)):
        received = {r["seq"]: r["action"] for r in _rows(journals[there], "remote") if r["what"] == "received"}
        acked = {r["seq"] for r in _rows(journals[here], "remote") if r["what"] == "acked"}
        assert set(received) - {0} == made[here] and made[here] <= acked
        assert all(received[seq] == actions[seq] for seq in made[here])
    # the other board's plays were carried out at each board, wrong executions caught
    for board, other in ((white, 1), (black, 0)):
        assert board["remote_plays"] == plays[other] > 0 and board["remote_rejected"] == 0
        assert board["wrong_caught"] == board["wrong_executions"]
    assert white["wrong_executions"] + black["wrong_executions"] > 0


@pytest.mark.slow
def test_the_broker_stopped_mid_game_and_started_again(tmp_path: Path, reference: dict[str, Any]) -> None:
    broker = _broker(tmp_path / "broker", SEATS)
    boards = Boards(tmp_path, broker)
    try:
        boards.start("white")
        boards.start("black")
        boards.until(lambda: len(_actions(boards.journal("black"))) >= 25, "25 actions")
        broker.stop()  # the link is cut for both boards
        cut_at = len(_actions(boards.journal("white")))
        time.sleep(1.0)  # (how long the network is away; the boards play on when it is back)
        broker.start(timeout=60)
        summaries = boards.finish()
    finally:
        boards.close()
        broker.kill()
    total = len(_actions(Path(reference["boards"][0]["journal"])))
    assert cut_at < total  # the cut came mid-game
    logs = (tmp_path / "white.log").read_text() + (tmp_path / "black.log").read_text()
    assert "is unreachable (" in logs and "retrying every" in logs
    _same_match_as(reference, tmp_path, summaries)


@pytest.mark.slow
def test_either_board_killed_mid_match_resumes_where_it_was(tmp_path: Path, reference: dict[str, Any]) -> None:
    broker = _broker(tmp_path / "broker", SEATS)
    boards = Boards(tmp_path, broker)
    total = len(_actions(Path(reference["boards"][0]["journal"])))
    try:
        boards.start("white")
        boards.start("black")
        boards.until(lambda: len(_actions(boards.journal("white"))) >= total // 3, "a third of the match")
        boards.kill("white")
        killed = [len(_actions(boards.journal("white")))]
        boards.start("white")
        boards.until(lambda: len(_actions(boards.journal("black"))) >= killed[0] + total // 3, "more actions")
        boards.kill("black")
        killed.append(len(_actions(boards.journal("black"))))
        boards.start("black")
        summaries = boards.finish()
    finally:
        boards.close()
        broker.kill()
    assert all(0 < k < total for k in killed)
    _same_match_as(reference, tmp_path, summaries)


def test_a_board_cannot_play_another_matchs_moves(tmp_path: Path) -> None:
    seats = [("board1", "m1", "white"), ("board2", "m1", "black"), ("board3", "m2", "white"),
             ("board4", "m2", "black")]
    broker = _broker(tmp_path / "broker", seats)
    url = parse_broker_url(broker.url)
    m1_black, m2_white, m2_black = (match_topic("m1", "black", "move"), match_topic("m2", "white", "move"),
                                    match_topic("m2", "black", "move"))

    async def scenario() -> dict[str, list[tuple[str, int]]]:
        got: dict[str, list[tuple[str, int]]] = {user: [] for user, _, _ in seats}
        async with contextlib.AsyncExitStack() as stack:
            clients = {user: await stack.enter_async_context(
                open_client(url, username=user, password=broker.password(user), identifier=user))
                for user, _, _ in seats}

            async def listen(user: str) -> None:
                async for message in clients[user].messages:
                    got[user].append((str(message.topic), decode_move(message.payload).seq))

            await clients["board1"].subscribe([(m1_black, 1), (m2_black, 1)])  # its own, and another match's
            await clients["board4"].subscribe([(m2_white, 1)])
            tasks = [asyncio.create_task(listen(user)) for user in ("board1", "board4")]

            async def publish(user: str, where: str, seq: int) -> None:
                move = MoveMessage(where.split("/")[2], seq, action_to_dict(Roll((6, 6))))
                await clients[user].publish(where, encode_move(move), qos=1)

            await publish("board1", m2_white, 1)  # board1 plays in another match: refused
            await publish("board1", m1_black, 2)  # ... or as the other side of its own: refused
            await publish("board4", m2_black, 3)  # board1 may not read another match's moves either
            await publish("board3", m2_white, 4)  # the rightful players
            await publish("board2", m1_black, 5)
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 60
            while not (got["board1"] and got["board4"]) and loop.time() < deadline:
                await asyncio.sleep(0.02)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        return got

    try:
        got = asyncio.run(scenario())
    finally:
        broker.kill()
    assert got["board4"] == [(m2_white, 4)]  # only board3's move reached board4
    assert got["board1"] == [(m1_black, 5)]  # only board2's reached board1


@pytest.mark.slow
def test_bgboard_sim_remote_on_the_real_firmware_and_app(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "bgboard", "sim", "--remote", "--match-length", "1", "--seed", "4",
                           "--json", "--out", str(tmp_path)], capture_output=True, timeout=HANG_S)
    assert done.returncode == 0, done.stderr.decode()[-800:]
    summary = json.loads(done.stdout)
    white, black = summary["boards"]
    assert summary["same_record"] and Path(white["mat"]).read_text() == Path(black["mat"]).read_text()
    assert white["score"] == black["score"] and max(white["score"]) >= 1
    assert white["remote_plays"] > 0 and black["remote_plays"] > 0
    assert list((tmp_path / "white" / "frames").glob("frame-*.png"))  # each board's own display
