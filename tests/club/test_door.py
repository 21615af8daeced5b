"""Refuse before reading (issue 35, defect 1): ``/director/evening/*`` read a whole multipart body
to disk before checking the login or the CSRF token — a 400 MB anonymous upload wrote a
395 MB temporary file.  On the real server (``bgboard club serve --http``, uvicorn) every
director route now answers an anonymous request from its headers alone, bodies are bounded
per route while they stream, and no temporary file grows.

What the server read is bounded from the client's side: the client's send buffer is made
small, so the bytes it got out before the answer are at most what the server read plus the
two sockets' buffers."""

from __future__ import annotations

import os
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx2
import pytest

from tests.club.webclub import csrf, log_in

MB = 1024 * 1024
CAP = 16 * MB          # a server still reading after this much has read the body (bounded loop)
ROUTES = ["/director/evening/mat", "/director/evening/player", "/director/evening/event",
          "/director/evening/checkin", "/director/result", "/director/pair", "/director/penalty",
          "/director/decide", "/director/accept", "/director/withdraw"]


@pytest.fixture(scope="module")
def served(finished_club, tmp_path_factory):
    """The finished club served by a real ``bgboard club serve`` process, its temporary files in
    a folder of its own; (url, pid, that folder)."""
    work = tmp_path_factory.mktemp("door")
    db = work / "club.sqlite"
    shutil.copy(finished_club, db)
    spool = work / "tmp"
    spool.mkdir()
    server = subprocess.Popen([sys.executable, "-m", "bgboard", "club", "--db", str(db), "serve", "--http",
                               "127.0.0.1:0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env={**os.environ, "TMPDIR": str(spool)})
    try:
        line = server.stdout.readline()
        found = re.search(r"http://(\S+):(\d+)/", line)
        assert found, line + server.stderr.read() if server.poll() is not None else line
        yield f"http://{found.group(1)}:{found.group(2)}", server.pid, spool
    finally:
        server.send_signal(signal.SIGINT)
        _, err = server.communicate(timeout=60)
        assert "Traceback" not in err, err


def _spooled(pid: int, spool: Path) -> int:
    """The largest file under ``spool`` the server holds open (deleted or not), in bytes."""
    biggest = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            if os.readlink(fd).startswith(str(spool)):
                biggest = max(biggest, os.stat(fd).st_size)
        except OSError:
            continue
    return biggest


def _post(url: str, path: str, headers: dict[str, str], total: int, chunked: bool = False,
          wait_s: float = 20.0) -> tuple[int | None, int]:
    """POST ``total`` bytes of body to ``path`` from a client with a small send buffer, stopping
    at the answer (or at :data:`CAP`): (the status, or None without one; bytes sent)."""
    host, port = url.removeprefix("http://").split(":")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 16 * 1024)
    sock.settimeout(10)
    sock.connect((host, int(port)))
    head = [f"POST {path} HTTP/1.1", f"Host: {host}:{port}",
            "Content-Type: multipart/form-data; boundary=xyz", *[f"{k}: {v}" for k, v in headers.items()]]
    head.append("Transfer-Encoding: chunked" if chunked else f"Content-Length: {total}")
    sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode())
    sock.setblocking(False)
    first = b"--xyz\r\nContent-Disposition: form-data; name=\"mat\"; filename=\"big.mat\"\r\n\r\n"
    piece = b"x" * 65536
    if chunked:
        first = f"{len(first):x}\r\n".encode() + first + b"\r\n"
        piece = f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
    sock.sendall(first)
    sent, answer, pending = 0, b"", b""
    deadline = time.monotonic() + wait_s
    try:
        while time.monotonic() < deadline and b"\r\n\r\n" not in answer:
            sending = sent < min(total, CAP)
            readable, writable, _ = select.select([sock], [sock] if sending else [], [], 0.2)
            if readable:
                data = sock.recv(65536)
                if not data:
                    break
                answer += data
            elif writable:
                pending = pending or piece[: max(1, min(len(piece), total - sent))]
                done = sock.send(pending)
                pending, sent = pending[done:], sent + done
    except (ConnectionResetError, BrokenPipeError):
        pass
    finally:
        sock.close()
    status = re.match(rb"HTTP/1\.1 (\d{3})", answer)
    return (int(status.group(1)) if status else None), sent


def test_a_400_mb_anonymous_upload_is_refused_with_under_1_mb_read(served):
    url, pid, spool = served
    for chunked in (False, True):
        started = time.monotonic()
        status, sent = _post(url, "/director/evening/mat", {}, 400 * MB, chunked=chunked)
        assert status == 403, (chunked, status, sent)
        assert sent < MB, f"the client got {sent} bytes out before the answer"
        assert time.monotonic() - started < 10
        assert _spooled(pid, spool) == 0 and not list(spool.iterdir())


@pytest.mark.parametrize("path", ROUTES)
def test_every_director_route_answers_an_anonymous_request_from_its_headers(served, path):
    url, pid, spool = served
    # headers that promise 10 MB, and not one byte of them sent: the answer cannot wait for it
    status = _headers_only(url, path)
    assert status == 403, (path, status)


def _headers_only(url: str, path: str) -> int | None:
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall((f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: "
                      f"application/x-www-form-urlencoded\r\nContent-Length: {10 * MB}\r\n\r\n").encode())
        try:
            answer = sock.recv(4096)
        except TimeoutError:
            return None
    status = re.match(rb"HTTP/1\.1 (\d{3})", answer)
    return int(status.group(1)) if status else None


def test_the_directors_oversized_upload_is_cut_off_at_its_limit(served):
    url, pid, spool = served
    with httpx2.Client(base_url=url, timeout=10) as client:
        assert log_in(client).status_code == 303
        token = csrf(client.get("/director").text)
        cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
    assert token
    declared, sent = _post(url, "/director/evening/mat", {"Cookie": cookie}, 400 * MB)
    assert declared == 413 and sent < MB, (declared, sent)          # Content-Length says it: no byte read
    status, sent = _post(url, "/director/evening/mat", {"Cookie": cookie}, 400 * MB, chunked=True)
    assert status == 413, (status, sent)
    assert sent < 6 * MB, f"{sent} bytes went out for a route that takes 4 MB"
    assert _spooled(pid, spool) == 0
    with httpx2.Client(base_url=url, timeout=10) as client:      # the server goes on
        assert client.get("/").status_code == 200


def test_a_form_from_another_site_is_refused_before_it_is_read(served):
    url, _, _ = served
    with httpx2.Client(base_url=url, timeout=10) as client:
        assert log_in(client).status_code == 303
        token = csrf(client.get("/director").text)
        for headers in ({"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site"}):
            response = client.post("/director/pair", data={"csrf": token, "event": "x"}, headers=headers,
                                   follow_redirects=False)
            assert response.status_code == 403 and "did not come from this site" in response.text
