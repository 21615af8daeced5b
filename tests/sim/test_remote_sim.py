"""The simulated person at a board of a remote match (bgboard.sim.remote_run): what they do when
the other board acts, over the real remote controller (the network is tests/net's)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bgboard.control.events import DOUBLE, DROP, ROLL, ButtonPressed, DiceRolled
from bgboard.match.state import Phase
from bgboard.sense.places import BLACK, WHITE
from bgboard.sim.driver import Options, Players, Resumed, SetUp, Wait
from bgboard.net.mosquitto import BrokerMissingError
from bgboard.sim.remote_run import play_remote_interactive, remote_decides
from tests.control.test_remote_controller import Board


def test_the_table_is_laid_out_again_when_the_other_board_started_the_next_game_meanwhile() -> None:
    white, black = Board(WHITE), Board(BLACK)
    white.c.handle(ButtonPressed(WHITE, ROLL, 2))
    white.c.handle(DiceRolled((1, 3), 1, 3))
    white.to(black, 4)
    players = Players(Options(match_length=3, seed=1, remote="black"), lambda: black.c, black.c.journal, Resumed(),
                      lambda: 5, 5)
    players.laid = black.c.state.game
    black.c.handle(ButtonPressed(BLACK, DROP, 5))  # black resigns at black's board
    black.c.handle(ButtonPressed(BLACK, ROLL, 6))
    black.to(white, 7)
    white.c.handle(ButtonPressed(WHITE, DOUBLE, 8))  # white accepts, starts the next game and wins its opening
    white.c.handle(ButtonPressed(WHITE, ROLL, 9))
    white.c.handle(ButtonPressed(WHITE, ROLL, 10))
    white.c.handle(DiceRolled((5, 2), 2, 11))
    assert white.c.state.phase == Phase.PLAY and white.c.state.turn == WHITE
    white.to(black, 12)  # all of it reaches black's board at once
    assert black.c.actions == white.c.actions and remote_decides(black.c, black.c.state)
    script = players.decide()
    assert isinstance(next(script), SetUp)  # the board is laid out for the new game first
    assert isinstance(next(script), Wait)  # then the person waits to see white's play


@pytest.mark.slow
def test_you_at_whites_terminal_board_against_a_person_at_another_board(tmp_path: Path) -> None:
    """``bgboard sim --interactive --remote``: a real Mosquitto, Black's board a process of its own."""
    said: list[str] = []
    feed = iter(["r", "1/3", "u", "12/18 18/20", "r", "q"])

    def read(prompt: str) -> str:
        said.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    try:
        assert play_remote_interactive(Options(1, seed=4), tmp_path, read=read, write=said.append) == 0
    except BrokerMissingError as exc:
        pytest.fail(f"{exc} — this test runs the real broker")
    text = "\n".join(said)
    # seed 4: white rolls the opening at this board, black (6-2) plays 13/5 at the other board
    assert "opening roll: White 2, Black 6" in said
    assert "display: Black plays 12/20: move 12/18 (1 of 2)" in said  # in white's numbering, lit step by step
    assert "[move Black's checkers dice 6-2] White 0 Black 0> " in said
    assert "display: that is not Black's play 12/20: put back: 3→1" in said  # a wrong execution, put back (u)
    assert said.index("display: Black played 12/20") > said.index("display: that is not Black's play 12/20: put back: 3→1")
    assert "Black plays 12/20" in said and "White rolls 5-4" in said  # narrated, then white's own roll
    assert "[play White dice 5-4] White 0 Black 0 (? = keys)> " in text


def _board(tmp_path: Path, broker_url: str, password_file: Path) -> Path:
    config = tmp_path / "white.toml"
    config.write_text(f'[match]\nlength = 1\n\n[remote]\nbroker = "{broker_url}"\nmatch = "sim-4"\nside = "white"\n'
                      f'username = "board1"\npassword_file = "{password_file}"\n')
    return config


def test_a_board_whose_login_the_broker_refuses_says_which_table_to_fix_and_exits_69(tmp_path: Path) -> None:
    from bgboard.sim.remote_run import _private_broker

    try:
        _, broker, _ = _private_broker(tmp_path / "b", Options(1, seed=4))
    except BrokerMissingError as exc:
        pytest.fail(f"{exc} — this test runs the real broker")
    try:
        wrong = tmp_path / "wrong-password"
        wrong.write_text("not the password\n")
        done = subprocess.run([sys.executable, "-m", "bgboard", "sim", "--remote-board", str(_board(tmp_path, broker.url, wrong)),
                               "--model-firmware", "--out", str(tmp_path / "o")], capture_output=True, text=True, timeout=120)
    finally:
        broker.stop()
    assert done.returncode == 69, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"bgboard: the broker {broker.url} refused the login of 'board1' ([code:13")
    assert last.endswith("check username and password_file in the [remote] table of the config")


def test_a_board_that_cannot_reach_the_broker_says_so_with_the_address_and_keeps_trying(tmp_path: Path) -> None:
    import socket

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    password = tmp_path / "password"
    password.write_text("secret\n")
    process = subprocess.Popen([sys.executable, "-m", "bgboard", "sim", "--remote-board",
                                str(_board(tmp_path, f"mqtt://127.0.0.1:{port}", password)), "--model-firmware",
                                "--out", str(tmp_path / "o")], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        assert process.stderr is not None
        line = process.stderr.readline()  # (the bound of the test's timeout stops a hang)
        assert f"the broker mqtt://127.0.0.1:{port} is unreachable (" in line
        assert line.rstrip().endswith("retrying every 5 s or sooner")
        assert process.poll() is None  # still trying
    finally:
        process.terminate()
        process.wait(30)


def test_the_board_shows_a_refused_login_on_its_display(tmp_path: Path) -> None:
    """The real board (the app's seat and controller) on a real Mosquitto with a wrong password:
    the display says why the match stopped, and the link stops trying."""
    import asyncio

    from bgboard.control.controller import Settings
    from bgboard.net.protocol import parse_broker_url
    from bgboard.net.remote_wire import RemoteSettings
    from bgboard.net.remotelink import open_remote
    from bgboard.sim.remote_run import _private_broker
    from bgboard.store.journal import MemoryJournal

    try:
        _, broker, match = _private_broker(tmp_path / "b", Options(1, seed=4))
    except BrokerMissingError as exc:
        pytest.fail(f"{exc} — this test runs the real broker")
    shown: list = []

    async def scenario() -> tuple[str | None, bool, bool]:
        holder: list = []
        journal = MemoryJournal()
        settings = RemoteSettings(parse_broker_url(broker.url), match, "white", "board1", "not the password")
        seat = open_remote(settings, ("White", "Black"), journal, lambda event: holder[0].handle(event), lambda: 0)
        holder.append(seat.resume(journal, Settings(length=1), 0, send=lambda message: None, show=shown.append))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 60
        while seat.peer.problem is None and loop.time() < deadline:
            await asyncio.sleep(0.05)
        stopped = seat.link.stopping
        await seat.close()
        return seat.peer.problem, seat.peer.refused, stopped

    try:
        problem, refused, stopped = asyncio.run(scenario())
    finally:
        broker.stop()
    assert refused and stopped and problem is not None and "refused the login of 'board1'" in problem
    assert problem.endswith("check username and password_file in the [remote] table of the config")
    assert any(problem in " ".join(state.message) for state in shown)  # on the display
