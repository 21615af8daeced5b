"""Files a user names (config, state, records, output): read within a limit as UTF-8, and
an OS error said in one sentence with what to do (an adapter: the only I/O is here).

:func:`read_text` refuses a file that is not UTF-8 ("save it as UTF-8"), too large (a device
such as /dev/zero would never end) or not a file; :func:`os_error` turns any ``OSError`` into
an :class:`~bgboard.errors.InputError` naming the file (disk full, read-only, a parent that
is a file...), which ``bgboard`` prints as one line with exit code 2; :func:`check_distinct`
refuses two outputs that are one file; :func:`write_text_atomic` replaces a file whole (the
match records, the learner report), so a power cut leaves the old file or the new one.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from bgboard.errors import InputError

MAX_BYTES = 8 * 1024 * 1024  # no file bgboard reads is near this; a device would be endless

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


def read_text(path: str | os.PathLike[str], what: str, limit: int = MAX_BYTES) -> str:
    """The UTF-8 text of the file ``what`` (e.g. "the config file") at ``path``."""
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as exc:
        raise FileProblemError(f"{what} {path} cannot be read ({exc.strerror or exc})") from None
    if len(data) > limit:
        raise FileProblemError(f"{what} {path} is larger than {limit // (1024 * 1024)} MB: is it the right file?")
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
