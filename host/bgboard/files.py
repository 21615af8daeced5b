"""Files a user names (config, state, records, output): read within a limit as UTF-8, and
an OS error said in one sentence with what to do (an adapter: the only I/O is here).

:func:`read_text` refuses a file that is not UTF-8 ("save it as UTF-8"), too large (counted
in bytes actually read: a device such as /dev/zero would never end, and its size is 0), a
pipe that does not end within :data:`PIPE_TIMEOUT_S`, or not a file (:func:`read_bytes`,
:func:`read_fd` for an open descriptor such as standard input); :func:`os_error` turns any ``OSError`` into
an :class:`~bgboard.errors.InputError` naming the file (disk full, read-only, a parent that
is a file...), which ``bgboard`` prints as one line with exit code 2; :func:`check_distinct`
refuses two outputs that are one file; :func:`write_text_atomic` replaces a file whole (the
match records, the learner report), so a power cut leaves the old file or the new one.
"""

from __future__ import annotations

import errno
import os
import select
import stat
import time
from pathlib import Path

from bgboard.errors import InputError, seconds_setting

MAX_BYTES = 8 * 1024 * 1024  # no file bgboard reads is near this; a device would be endless
PIPE_TIMEOUT_S = 10.0  # a named pipe or device given as a file: how long it may take to end
#: The environment variable that changes :data:`PIPE_TIMEOUT_S` for a deployment (or a test).
PIPE_TIMEOUT_ENV = "BGBOARD_PIPE_TIMEOUT_S"
CHUNK = 64 * 1024

#: The errors of a disk that is full or failing: the machine's, whatever the path (exit 69),
#: where the others (a missing file, a directory, a read-only place) ask for another path (2).
DISK_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO})

ADVICE = {
    errno.ENOSPC: "the disk is full: free some space or write somewhere else",
    errno.EDQUOT: "the disk quota is used up: free some space or write somewhere else",
    errno.EROFS: "that file system is read-only: choose a writable place",
    errno.EACCES: "permission denied: choose a place you may write to (or run as its owner)",
    errno.EPERM: "permission denied: choose a place you may write to (or run as its owner)",
    errno.ENOTDIR: "a part of the path is a file, not a directory: choose another path",
    errno.EISDIR: "it is a directory: give a file name",
    errno.ENOENT: "no such file or directory: check the path",
    errno.ENAMETOOLONG: "the name is too long: choose a shorter path",
    errno.EEXIST: "it is a file where a directory is needed: choose another path",
}


class FileProblemError(InputError):
    """A file that cannot be read or written (one sentence: which, why, what to do)."""


def os_error(exc: OSError, path: str | os.PathLike[str] | None = None) -> FileProblemError:
    """One sentence for ``exc`` on ``path`` (default: the file the error names)."""
    name = path if path is not None else (exc.filename if exc.filename is not None else "a file")
    advice = ADVICE.get(exc.errno or 0) or f"{exc.strerror or exc}: check the path and the disk"
    return FileProblemError(f"cannot use {name}: {advice}")


def pipe_timeout_s() -> float:
    """How long a named pipe or device may take to end: :data:`PIPE_TIMEOUT_S`, or the
    seconds set in :data:`PIPE_TIMEOUT_ENV`."""
    return seconds_setting(PIPE_TIMEOUT_ENV, os.environ.get(PIPE_TIMEOUT_ENV), PIPE_TIMEOUT_S)


def read_bytes(path: str | os.PathLike[str], what: str, limit: int = MAX_BYTES,
               timeout: float | None = None) -> bytes:
    """The bytes of the file ``what`` at ``path``, at most ``limit`` of them: bounded by the
    bytes actually read (a device's or /proc file's size says nothing), and for anything but a
    regular file (a named pipe, a device) by ``timeout`` seconds too (default
    :func:`pipe_timeout_s`) — a pipe nobody writes to is refused, never waited on."""
    try:
        fd = open_for_reading(path)
    except OSError as exc:
        raise FileProblemError(f"{what} {path} cannot be read ({exc.strerror or exc})") from None
    try:
        return read_fd(fd, f"{what} {path}", limit, timeout)
    finally:
        os.close(fd)


def open_for_reading(path: str | os.PathLike[str]) -> int:
    """A descriptor open for reading at ``path`` that never waited: a named pipe is opened
    without waiting for a writer (:func:`read_fd` then waits, within its time-out).  A
    directory raises :class:`IsADirectoryError`, any other problem its ``OSError``."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    try:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_fd(fd: int, what: str, limit: int = MAX_BYTES, timeout: float | None = None,
            *, line: bool = False, forever: bool = False) -> bytes:
    """At most ``limit`` bytes from the open descriptor ``fd`` (``what`` names it in the
    sentence), to its end — or with ``line`` to the first newline (kept out).  A regular file
    is read directly; anything else only when :func:`select.poll` says it is readable, within
    ``timeout`` seconds in all (default :func:`pipe_timeout_s`; ``forever``: no time limit,
    for a person typing at a terminal)."""
    regular = stat.S_ISREG(os.fstat(fd).st_mode)
    if timeout is None:
        timeout = pipe_timeout_s()
    deadline = None if forever else time.monotonic() + timeout
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLPRI)
    data = bytearray()
    while True:
        if not regular:
            if deadline is None:
                ready = poller.poll()
            else:
                left = deadline - time.monotonic()
                ready = poller.poll(int(left * 1000) + 1) if left > 0 else []
            if not ready:
                raise FileProblemError(f"{what} did not end within {timeout:g} s: "
                                       "is it a pipe nobody writes to? give a file")
        try:
            chunk = os.read(fd, min(CHUNK, limit + 1 - len(data)))
        except OSError as exc:
            raise FileProblemError(f"{what} cannot be read ({exc.strerror or exc})") from None
        if not chunk:
            return bytes(data)
        if line and b"\n" in chunk:
            data += chunk[:chunk.index(b"\n")]
            if len(data) <= limit:
                return bytes(data)
        else:
            data += chunk
        if len(data) > limit:
            if line:
                raise FileProblemError(f"{what} has no line end in its first {_size(limit)}: "
                                       "give one line")
            raise FileProblemError(f"{what} is larger than {_size(limit)}: is it the right file?")


def _size(limit: int) -> str:
    if limit >= 1024 * 1024:
        return f"{limit // (1024 * 1024)} MB"
    if limit >= 1024:
        return f"{limit // 1024} kB"
    return f"{limit} bytes"


def read_text(path: str | os.PathLike[str], what: str, limit: int = MAX_BYTES,
              timeout: float | None = None) -> str:
    """The UTF-8 text of the file ``what`` (e.g. "the config file") at ``path`` (bounded as
    :func:`read_bytes` bounds it)."""
    data = read_bytes(path, what, limit, timeout)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileProblemError(
            f"{what} {path} is not UTF-8 text (byte {exc.start + 1}): save it as UTF-8"
        ) from None


def check_distinct(**paths: str | os.PathLike[str] | None) -> None:
    """Refuse two options naming one file (``check_distinct(out=..., sgf=...)``)."""
    seen: dict[Path, str] = {}
    for option, path in paths.items():
        if path is None or path == "":
            continue
        key = Path(os.path.realpath(path))
        if key in seen:
            raise FileProblemError(f"--{seen[key]} and --{option} name the same file {path}: give two different files")
        seen[key] = option


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Replace the file at ``path`` with ``text`` (UTF-8, ``\\n`` line ends) whole: written to
    ``NAME.tmp`` beside it, fsynced, renamed over it.  An ``OSError`` is the caller's to say
    (:func:`os_error`, or a sentence of its own)."""
    target = Path(path)
    tmp = target.with_name(target.name + ".tmp")
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    tmp.replace(target)
