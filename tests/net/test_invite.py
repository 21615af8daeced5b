"""``bgboard invite``: a remote match's broker accounts, served by a real Mosquitto exactly as
written — each board may play only its own side of the match it joined."""

from __future__ import annotations

import asyncio
import contextlib
import os
import pwd
import tomllib
from pathlib import Path

import pytest

from bgboard.cli import main
from bgboard.config import config_from_dict
from bgboard.net.broker import Listener, mosquitto_conf
from bgboard.net.mosquitto import BrokerMissingError, PrivateBroker
from bgboard.net.protocol import parse_broker_url
from bgboard.net.remote_wire import match_topic
from bgboard.net.remote_accounts import read_seats
from bgboard.net.mqtt_client import MqttError, open_client
from tests.support import worker_port


class _Serving(PrivateBroker):
    """A Mosquitto on the folder's ``passwd`` and ``acl`` as ``bgboard invite`` left them."""

    def _write(self) -> None:
        self.conf.write_text(mosquitto_conf(Listener(self.port, "127.0.0.1"), str(self.root / "passwd"),
                                            str(self.root / "acl"), log_file=str(self.log),
                                            user=pwd.getpwuid(os.geteuid()).pw_name))


def _remote(path: Path) -> dict[str, str]:
    return tomllib.loads(path.read_text())["remote"]


def test_two_invitations_seat_four_boards_and_the_broker_holds_each_to_its_match(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "remote"
    port = worker_port()
    url = f"mqtt://127.0.0.1:{port}"
    assert main(["invite", "m1", "--dir", str(folder), "--broker", url]) == 0
    assert main(["invite", "m2", "--dir", str(folder), "--broker", url, "--users", "board7,board9"]) == 0
    assert read_seats(folder) == [("m1-white", "m1", "white"), ("m1-black", "m1", "black"),
                                  ("board7", "m2", "white"), ("board9", "m2", "black")]
    boards = {side: _remote(folder / f"m1-{side}.toml") for side in ("white", "black")}
    boards |= {"board7": _remote(folder / "m2-white.toml"), "board9": _remote(folder / "m2-black.toml")}
    assert boards["white"] == {"broker": url, "match": "m1", "side": "white", "username": "m1-white",
                               "password_file": str((folder / "secrets" / "m1-white.password").resolve())}
    for board in boards.values():  # each table is a board's [remote] as its config check takes it
        assert config_from_dict({"remote": board}).remote.username == board["username"]
    assert oct(os.stat(folder / "passwd").st_mode)[-3:] == "600"
    for board in boards.values():  # hashed, never the password itself
        assert Path(board["password_file"]).read_text().strip() not in (folder / "passwd").read_text()
    try:
        broker = _Serving(folder, "remote", [], port=port)
    except BrokerMissingError as exc:
        pytest.fail(f"{exc} — this test runs the real broker")
    broker.start(timeout=60)
    address = parse_broker_url(url)

    async def scenario() -> tuple[dict[str, list[str]], bool]:
        got: dict[str, list[str]] = {"white": [], "board9": []}
        async with contextlib.AsyncExitStack() as stack:
            clients = {name: await stack.enter_async_context(open_client(
                address, username=b["username"], password=Path(b["password_file"]).read_text().strip(),
                identifier=b["username"])) for name, b in boards.items()}

            async def listen(name: str) -> None:
                async for message in clients[name].messages:
                    got[name].append(f"{message.topic} {message.payload.decode()}")

            await clients["white"].subscribe([(match_topic("m1", "black", "move"), 1),
                                              (match_topic("m2", "black", "move"), 1)])
            await clients["board9"].subscribe([(match_topic("m2", "white", "move"), 1)])
            tasks = [asyncio.create_task(listen(name)) for name in got]
            await clients["white"].publish(match_topic("m2", "white", "move"), b"1", qos=1)  # another match: refused
            await clients["board7"].publish(match_topic("m1", "black", "move"), b"2", qos=1)  # into m1: refused
            await clients["white"].publish(match_topic("m1", "black", "move"), b"3", qos=1)  # the other side: refused
            await clients["board7"].publish(match_topic("m2", "white", "move"), b"4", qos=1)  # the rightful players
            await clients["black"].publish(match_topic("m1", "black", "move"), b"5", qos=1)
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 60
            while not (got["white"] and got["board9"]) and loop.time() < deadline:
                await asyncio.sleep(0.02)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        refused = False
        try:
            async with open_client(address, username="m1-white", password="not-its-password", identifier="m1-white"):
                pass
        except MqttError:
            refused = True
        return got, refused

    try:
        got, refused = asyncio.run(scenario())
    finally:
        broker.kill()
    assert got == {"white": [f"{match_topic('m1', 'black', 'move')} 5"],
                   "board9": [f"{match_topic('m2', 'white', 'move')} 4"]}
    assert refused


def test_a_board_seated_again_leaves_its_old_match(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "remote"
    assert main(["invite", "m1", "--dir", str(folder), "--users", "board7,board9"]) == 0
    first = (folder / "secrets" / "board7.password").read_text()
    capsys.readouterr()
    assert main(["invite", "m2", "--dir", str(folder), "--users", "board7,board3"]) == 0
    assert "board7 left m1 (white): a board plays one match at a time" in capsys.readouterr().out
    assert read_seats(folder) == [("board9", "m1", "black"), ("board7", "m2", "white"), ("board3", "m2", "black")]
    assert (folder / "secrets" / "board7.password").read_text() == first  # the board keeps its password
    acl = (folder / "acl").read_text()
    assert "topic write bgboard/match/m2/white/move" in acl and "bgboard/match/m1/white/move" in acl
    assert acl.count("user board7") == 1


@pytest.mark.parametrize("argv, says", [
    (["invite", "Ann Bob", "--dir", "{d}"], "the match name must be 1-32 lower-case letters"),
    (["invite", "m1", "--dir", "{d}", "--users", "board7"], "--users names the two boards' broker users"),
    (["invite", "m1", "--dir", "{d}", "--users", "a b,c"], "a broker user name is 1-64 letters"),
    (["invite", "m1", "--dir", "{d}", "--broker", "http://x"], "mqtt"),
    (["invite", "m1", "--dir", "{seats}"], "line 2: write 'USER MATCH white|black'"),
    (["invite", "m1", "--dir", "{file}"], "is a file, not a folder"),
])
def test_bad_input_is_one_sentence_and_exit_2(tmp_path: Path, capsys, argv: list[str], says: str) -> None:
    (tmp_path / "seats").mkdir()
    (tmp_path / "seats" / "seats.txt").write_text("board1 m0 white\nboard2 m0 purple\n")
    (tmp_path / "file").write_text("")
    places = {"d": str(tmp_path / "d"), "seats": str(tmp_path / "seats"), "file": str(tmp_path / "file")}
    assert main([a.format(**places) for a in argv]) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "d").exists()  # nothing written on bad input


def test_mosquitto_runs_the_written_conf_as_it_is_and_lets_both_boards_in(tmp_path: Path, capsys) -> None:
    """``mosquitto -c DIR/mosquitto.conf``, started as this test runs (as root on Debian it drops
    to its own user before reading the files): both boards of the match log in and play."""
    import shutil
    import tempfile

    from bgboard.commands.invite import broker_user
    from bgboard.net.mosquitto import mosquitto_binary

    # a folder the broker's user can reach, as /etc/mosquitto/... is (pytest's own is closed to it:
    # invite says so, as the next test shows)
    base = Path(tempfile.mkdtemp(prefix="bgboard-invite-"))
    os.chmod(base, 0o755)
    folder = base / "remote"
    port = worker_port()
    url = f"mqtt://127.0.0.1:{port}"
    try:
        _serve_both(folder, port, url, capsys, broker_user, mosquitto_binary)
    finally:
        shutil.rmtree(base)


def test_invite_says_when_the_brokers_user_cannot_reach_the_folder(tmp_path: Path, capsys) -> None:
    from bgboard.commands.invite import broker_user

    os.chmod(tmp_path.parent, 0o700)  # (pytest's folders: closed to others)
    assert main(["invite", "m1", "--dir", str(tmp_path / "remote"), "--broker", "mqtt://127.0.0.1:1883"]) == 0
    said = capsys.readouterr().out
    if broker_user() != "root":
        assert f"note: {broker_user()} cannot pass through " in said and "chmod o+x" in said


def _serve_both(folder: Path, port: int, url: str, capsys, broker_user, mosquitto_binary) -> None:
    import socket
    import subprocess
    import time

    assert main(["invite", "m1", "--dir", str(folder), "--broker", url]) == 0
    said = capsys.readouterr().out
    assert "cannot pass through" not in said
    conf = folder / "mosquitto.conf"
    assert f"mosquitto -c {conf.resolve()}" in said
    text = conf.read_text()
    assert f"listener {port}" in text and f"password_file {(folder / 'passwd').resolve()}" in text
    assert f"acl_file {(folder / 'acl').resolve()}" in text and f"persistence_location {(folder / 'data').resolve()}/" in text
    owner = pwd.getpwnam(broker_user())
    for name in ("passwd", "acl", "data"):  # the broker's user reads them (and nobody else)
        assert os.stat(folder / name).st_uid == owner.pw_uid
    if os.geteuid() == 0:
        assert broker_user() == "mosquitto" and f"user mosquitto" in text
    for secret in (folder / "secrets").iterdir():  # the boards' passwords stay the inviter's
        assert os.stat(secret).st_uid == os.geteuid() and oct(os.stat(secret).st_mode)[-3:] == "600"
    try:
        binary = mosquitto_binary()
    except BrokerMissingError as exc:
        pytest.fail(f"{exc} — this test runs the real broker")
    process = subprocess.Popen([binary, "-c", str(conf)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, (process.stdout.read() if process.stdout else b"").decode(errors="replace")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                assert time.monotonic() < deadline, "mosquitto never listened"
                time.sleep(0.05)
        address = parse_broker_url(url)

        async def both_log_in() -> list[str]:
            got: list[str] = []
            boards = {side: _remote(folder / f"m1-{side}.toml") for side in ("white", "black")}
            async with contextlib.AsyncExitStack() as stack:
                clients = {side: await stack.enter_async_context(open_client(
                    address, username=b["username"], password=Path(b["password_file"]).read_text().strip(),
                    identifier=b["username"])) for side, b in boards.items()}
                await clients["white"].subscribe([(match_topic("m1", "black", "move"), 1)])
                await clients["black"].publish(match_topic("m1", "black", "move"), b"13/10", qos=1)
                async with asyncio.timeout(60):
                    async for message in clients["white"].messages:
                        got.append(message.payload.decode())
                        break
            return got

        assert asyncio.run(both_log_in()) == ["13/10"]
    finally:
        process.terminate()
        process.wait(30)
