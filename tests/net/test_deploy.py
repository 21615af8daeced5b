"""deploy/mosquitto/ is what bgboard.net.broker writes, and a real Mosquitto accepts it the
way the Debian package loads it (included from /etc/mosquitto/conf.d/)."""

from __future__ import annotations

import os
import socket
import subprocess
import time
from pathlib import Path

from bgboard.net.broker import DIRECTOR, Listener, acl_text, mosquitto_conf
from bgboard.net.mosquitto import mosquitto_binary, write_password_file
from tests.support import worker_port

DEPLOY = Path(__file__).resolve().parents[2] / "deploy" / "mosquitto"


def test_the_deploy_files_are_the_generators_text() -> None:
    assert (DEPLOY / "bgboard.conf").read_text() == mosquitto_conf(
        Listener(1883), "/etc/mosquitto/bgboard.passwd", "/etc/mosquitto/bgboard.acl"
    )
    assert (DEPLOY / "bgboard.acl").read_text() == acl_text("club", range(1, 9))


def test_mosquitto_loads_the_deploy_config_from_a_debian_style_main_file(tmp_path: Path) -> None:
    binary = mosquitto_binary()
    port = worker_port()
    (tmp_path / "conf.d").mkdir()
    (tmp_path / "data").mkdir()
    conf = (DEPLOY / "bgboard.conf").read_text()
    conf = conf.replace("/etc/mosquitto/", f"{tmp_path}/").replace("listener 1883", f"listener {port} 127.0.0.1")
    (tmp_path / "conf.d" / "bgboard.conf").write_text(conf)
    (tmp_path / "bgboard.acl").write_text((DEPLOY / "bgboard.acl").read_text())
    write_password_file(tmp_path / "bgboard.passwd", {DIRECTOR: "secret"})
    main = tmp_path / "mosquitto.conf"  # as Debian's /etc/mosquitto/mosquitto.conf
    main.write_text(
        f"persistence true\npersistence_location {tmp_path}/data/\nuser {'root' if os.geteuid() == 0 else os.environ.get('USER', 'nobody')}\n"
        f"include_dir {tmp_path}/conf.d\n"
    )
    proc = subprocess.Popen([binary, "-c", str(main)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:  # it accepts connections on the configured listener (a bad file: it exits instead)
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                time.sleep(0.05)
        assert proc.poll() is None, (proc.stderr.read() if proc.stderr else b"").decode()
        with socket.create_connection(("127.0.0.1", port), timeout=10):
            pass
    finally:
        proc.kill()
        proc.wait()
        if proc.stderr:
            proc.stderr.close()
