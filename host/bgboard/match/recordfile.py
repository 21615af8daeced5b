"""The adapter that keeps a match record on disk: appends each action's .mat text.

``MatFile(path)`` starts (truncates) the file; ``append(action, before, after)`` writes
the text :func:`bgboard.match.mat.mat_chunk` gives for that action, flushes and fsyncs,
so a match in progress is always on disk up to its last action.  I/O errors become
:class:`RecordFileError` (one sentence).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Sequence

from bgboard.errors import InputError
from bgboard.match.actions import Action
from bgboard.match.mat_write import MatCursor, MatInfo, mat_chunk
from bgboard.match.state import MatchState


class RecordFileError(InputError):
    """A match record that cannot be written (the message names the file)."""


def _fail(path: Path, exc: OSError) -> RecordFileError:
    return RecordFileError(f"cannot write the match record {path}: {exc.strerror or exc}")


class MatFile:
    """An appendable .mat file (a context manager; ``close()`` is idempotent)."""

    def __init__(self, path: str | os.PathLike[str], info: MatInfo | None = None) -> None:
        self.path = Path(path)
        self.info = info
        self.cursor = MatCursor()
        try:
            self._file = open(self.path, "w", encoding="utf-8", newline="\n")
        except OSError as exc:
            raise _fail(self.path, exc) from None

    def append(self, action: Action, before: MatchState | None, after: MatchState) -> None:
        """Write what ``action`` adds to the record and push it to the disk."""
        text, self.cursor = mat_chunk(self.cursor, action, before, after, self.info)
        if not text:
            return
        try:
            self._file.write(text)
            self._file.flush()
            os.fsync(self._file.fileno())
        except OSError as exc:
            raise _fail(self.path, exc) from None

    def close(self) -> None:
        if not self._file.closed:
            try:
                self._file.close()
            except OSError as exc:  # the last buffered bytes could not be written
                raise _fail(self.path, exc) from None

    def __enter__(self) -> "MatFile":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write a whole record (SGF) at once; I/O errors become :class:`RecordFileError`."""
    target = Path(path)
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise _fail(target, exc) from None


def write_records(actions: Sequence[Action], directory: str | os.PathLike[str], info: MatInfo | None = None) -> None:
    """``match.mat`` and ``match.sgf`` of an action log in ``directory``, each replaced whole
    and atomically (written to a temporary file, fsynced, renamed), so a power cut leaves the
    previous record or the new one, never half of one."""
    from bgboard.match.mat import export_mat
    from bgboard.match.sgf import export_sgf

    folder = Path(directory)
    for name, text in (("match.mat", export_mat(actions, info)), ("match.sgf", export_sgf(actions))):
        target = folder / name
        tmp = target.with_name(target.name + ".tmp")
        try:
            with open(tmp, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            tmp.replace(target)
        except OSError as exc:
            raise _fail(target, exc) from None
