"""``bgboard federation`` and ``bgboard club player link`` from the command line: what they
write, and bad input as one sentence with exit code 2 (69 for what the machine lacks)."""

from __future__ import annotations

import asyncio
import json

from bgboard.cli import main
from bgboard.federation.bridge_conf import SERVICE_USER
from bgboard.federation.home import Home, Settings
from bgboard.net.mosquitto import free_port
from bgboard.net.mqtt_client import open_client
from bgboard.net.protocol import parse_broker_url
from bgboard.net.results_feed import result_topic


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_init_join_and_the_lists(tmp_path, postgres_url, capsys, monkeypatch):
    d = str(tmp_path / "fed")
    code, out, _ = run(capsys, "federation", "--dir", d, "init", "--name", "Northern League", "--db", postgres_url)
    assert code == 0 and "Northern League" in out
    code, _, err = run(capsys, "federation", "--dir", d, "init", "--name", "Again", "--db", postgres_url)
    assert code == 2 and "already holds a federation" in err and len(err.splitlines()) == 1
    code, out, _ = run(capsys, "federation", "--dir", d, "join", "north", "--out", str(tmp_path / "north"))
    assert code == 0 and "club-north" in out
    bridge = (tmp_path / "north" / "federation-bridge.conf").read_text()
    home = Home(tmp_path / "fed")
    assert f"remote_password {home.broker.password('club-north')}\n" in bridge
    assert "cleansession false" in bridge and "topic bgboard/north/federation/result out 1" in bridge
    assert "topic bgboard/north/federation/ack in 1" in bridge
    assert (tmp_path / "north" / "federation-bridge.conf").stat().st_mode & 0o077 == 0
    acl = (home.broker.root / "acl").read_text()
    assert "user club-north\ntopic write bgboard/north/federation/result\ntopic read bgboard/north/federation/ack" in acl
    assert "club-north:" in (home.broker.root / "passwd").read_text()  # hashed by mosquitto_passwd
    assert home.broker.password("club-north") not in (home.broker.root / "passwd").read_text()
    code, _, err = run(capsys, "federation", "--dir", d, "join", "North Club", "--out", str(tmp_path / "x"))
    assert code == 2 and "lower-case" in err
    assert run(capsys, "federation", "--dir", d, "members", "--add", "M001", "--name", "Ann Smith")[0] == 0
    code, out, _ = run(capsys, "federation", "--dir", d, "members", "--json")
    assert json.loads(out) == [{"id": "M001", "name": "Ann Smith", "club": None}]
    code, _, err = run(capsys, "federation", "--dir", d, "members", "--add", "bad id", "--name", "X")
    assert code == 2 and "member id" in err
    code, out, _ = run(capsys, "federation", "--dir", d, "ratings", "--json")
    assert code == 0 and json.loads(out) == []
    code, _, err = run(capsys, "federation", "--dir", d, "season", "2027", "--count", "north")
    assert code == 2 and "CLUB:EVENT" in err
    code, _, err = run(capsys, "federation", "--dir", d, "season", "2027", "--count", "nowhere:League")
    assert code == 2 and "no club 'nowhere'" in err
    assert run(capsys, "federation", "--dir", d, "season", "2027", "--count", "north:League")[0] == 0
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("short\n"))
    code, _, err = run(capsys, "federation", "--dir", d, "officer-password", "--password-stdin")
    assert code == 2 and "the officers' password needs at least 8 characters" in err
    monkeypatch.setattr("sys.stdin", io.StringIO("a long enough password\n"))
    assert run(capsys, "federation", "--dir", d, "officer-password", "--password-stdin")[0] == 0
    with home.ledger() as ledger:
        assert (ledger.meta("officer_password") or "").startswith("$argon2id$")
    code, out, _ = run(capsys, "federation", "--dir", d, "export", "--out", str(tmp_path / "export"))
    assert code == 0 and sorted(p.name for p in (tmp_path / "export").iterdir()) == [
        "members.csv", "rating_history.csv", "ratings.csv", "results.csv"]


def test_init_makes_the_database_on_its_server(tmp_path, private_postgres, capsys):
    url = private_postgres.url("league_made_by_init")
    d = str(tmp_path / "fed")
    assert run(capsys, "federation", "--dir", d, "init", "--name", "League", "--db", url)[0] == 0
    code, out, _ = run(capsys, "federation", "--dir", d, "members", "--json")
    assert code == 0 and json.loads(out) == []


def test_a_missing_folder_or_database_is_one_sentence(tmp_path, capsys):
    code, _, err = run(capsys, "federation", "--dir", str(tmp_path / "none"), "ratings")
    assert code == 2 and "there is no federation" in err
    code, _, err = run(capsys, "federation", "--dir", str(tmp_path / "f"), "init", "--name", "F", "--db", "sqlite:///x")
    assert code == 2 and "postgresql://" in err
    code, _, err = run(capsys, "federation", "--dir", str(tmp_path / "f"), "init", "--name", "F",
                       "--db", f"postgresql://bgboard@/none?host={tmp_path}/nosocket")
    assert code == 69 and "cannot be used" in err and len(err.splitlines()) == 1


def test_club_player_link(tmp_path, capsys):
    db = str(tmp_path / "club.sqlite")
    assert run(capsys, "club", "--db", db, "init", "--name", "North")[0] == 0
    for name in ("Ann", "Bob"):
        assert run(capsys, "club", "--db", db, "player", "add", name)[0] == 0
    code, out, _ = run(capsys, "club", "--db", db, "player", "link", "Ann", "NL-001")
    assert code == 0 and "Ann is federation member NL-001" in out
    code, _, err = run(capsys, "club", "--db", db, "player", "link", "Bob", "NL-001")
    assert code == 2 and "already linked to 'Ann'" in err
    code, _, err = run(capsys, "club", "--db", db, "player", "link", "Bob", "NL 002")
    assert code == 2 and "member id" in err
    code, _, err = run(capsys, "club", "--db", db, "player", "link", "Cid", "NL-003")
    assert code == 2 and "no player 'Cid'" in err


def test_the_federation_broker_keeps_each_club_to_its_own_topics(tmp_path, postgres_url):
    home = Home.create(tmp_path / "fed", Settings("F", postgres_url, free_port()))
    home.join("north")
    home.join("south")
    home.broker.start()
    url = parse_broker_url(home.broker.url)

    async def exchange() -> list[str]:
        got: list[str] = []
        service = open_client(url, username=SERVICE_USER, password=home.broker.password(SERVICE_USER),
                              identifier="svc")
        north = open_client(url, username="club-north", password=home.broker.password("club-north"),
                            identifier="north")
        async with service, north:
            await service.subscribe("bgboard/+/federation/result", qos=1)
            await north.publish(result_topic("south"), b"forged", qos=1)  # another club's topic: dropped
            await north.publish(result_topic("north"), b"own", qos=1)

            async def read() -> None:
                async for m in service.messages:
                    got.append(f"{m.topic}={bytes(m.payload).decode()}")

            try:  # everything that arrives within 2 s (the forged one first, were it let through)
                await asyncio.wait_for(read(), 2)
            except asyncio.TimeoutError:
                pass
        return got

    try:
        assert asyncio.run(exchange()) == ["bgboard/north/federation/result=own"]
    finally:
        home.broker.stop()


def test_the_demo_plays_an_evening_of_two_clubs_into_one_rating_list(tmp_path, capsys):
    code, out, _ = run(capsys, "federation", "demo", "--clubs", "2", "--out", str(tmp_path / "demo"))
    assert code == 0
    assert "every club has the federation's answer to every result" in out
    assert "24 results from 2 clubs, each stored once; one rating list of 12 members" in out
    assert (tmp_path / "demo" / "export" / "ratings.csv").read_text().count("\n") == 13
    code, _, err = run(capsys, "federation", "demo", "--clubs", "2", "--out", str(tmp_path / "demo"))
    assert code == 2 and "not empty" in err


def test_serve_runs_the_broker_the_service_and_the_pages_until_sigterm(tmp_path, postgres_url, capsys):
    import signal
    import subprocess
    import sys
    import time
    import urllib.request

    d = str(tmp_path / "fed")
    assert run(capsys, "federation", "--dir", d, "init", "--name", "League", "--db", postgres_url,
               "--port", str(free_port()))[0] == 0
    serve = subprocess.Popen([sys.executable, "-m", "bgboard", "federation", "--dir", d, "serve", "--with-broker",
                              "--http", "127.0.0.1:0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = ""
        deadline = time.monotonic() + 60
        assert serve.stdout is not None
        while not url and time.monotonic() < deadline:
            line = serve.stdout.readline()
            assert line, serve.stderr.read() if serve.stderr else "serve ended"
            if "federation pages on " in line:
                url = line.split("federation pages on ", 1)[1].strip().rstrip("/")
        for path, words in (("/ratings", "Rating list"), ("/live", "No board is playing now"), ("/clubs", "Clubs")):
            page = urllib.request.urlopen(url + path, timeout=20).read().decode()
            assert words in page, path
    finally:
        serve.send_signal(signal.SIGTERM)
        code = serve.wait(30)
    assert code == 0
    assert not (tmp_path / "fed" / "broker" / "mosquitto.pid").exists()  # its broker stopped with it
