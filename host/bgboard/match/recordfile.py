"""The adapter that keeps a match record on disk: appends each action's .mat text.

``MatFile(path)`` starts (truncates) the file; ``append(action, before, after)`` writes
the text :func:`bgboard.match.mat.mat_chunk` gives for that action, flushes and fsyncs,
so a match in progress is always on disk up to its last action.  I/O errors become
:class:`RecordFileError` (one sentence).

:class:`RecordWriter` keeps ``match.mat`` and ``match.sgf`` of a match in progress on a
thread of its own, so that ``bgboard run``'s asyncio loop never waits for the two fsyncs
and renames (20-45 ms per action on the session machine's disk, more on an SD card).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Sequence

from bgboard.errors import InputError
from bgboard.files import write_text_atomic
from bgboard.match.actions import Action
from bgboard.match.mat_write import MatCursor, MatInfo, mat_chunk, mat_of_states
from bgboard.match.state import MatchState, apply
from bgboard.newest import NewestOnly

log = logging.getLogger(__name__)


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


Replayed = list[tuple[Action, MatchState, "MatchState | None"]]


def replay_onto(replayed: Replayed, actions: Sequence[Action]) -> Replayed:
    """``(action, after, before)`` for every action of ``actions``, as
    :func:`bgboard.match.state.states` gives them, reusing ``replayed`` (an earlier replay)
    for the actions the two logs share from the start (the same objects): a match log grows
    by an action at a time and a takeback shortens it, so this replays one or two actions
    instead of the whole match (90 % of a record's cost: 16 ms of 18 for 471 actions)."""
    shared = 0
    for (done, _after, _before), action in zip(replayed, actions):
        if done is not action:
            break
        shared += 1
    out = replayed[:shared]
    state = out[-1][1] if out else None
    for action in actions[shared:]:
        before, state = state, apply(state, action)
        out.append((action, state, before))
    return out


def write_records(
    actions: Sequence[Action], directory: str | os.PathLike[str], info: MatInfo | None = None,
    replayed: Replayed | None = None,
) -> Replayed:
    """``match.mat`` and ``match.sgf`` of an action log in ``directory``, each replaced whole
    and atomically (written to a temporary file, fsynced, renamed), so a power cut leaves the
    previous record or the new one, never half of one.  Returns the log's replay; pass it
    back as ``replayed`` with the next, longer log to replay only what is new."""
    from bgboard.match.sgf import sgf_of_states

    done = replay_onto(replayed or [], actions)
    folder = Path(directory)
    for name, text in (("match.mat", mat_of_states(done, info)), ("match.sgf", sgf_of_states(done))):
        target = folder / name
        try:
            write_text_atomic(target, text)
        except OSError as exc:
            raise _fail(target, exc) from None
    return done


class RecordWriter:
    """:func:`write_records` on a thread named ``bgboard-records``.

    :meth:`write` hands over the action log (returns at once); while a write is under way,
    a newer log replaces the one waiting, so only the newest is written when the thread is
    free (each write replaces both files whole; :class:`bgboard.newest.NewestOnly`).  A write
    that fails is logged and kept in :attr:`error` (the caller decides what it means for the
    match); :meth:`close` writes what is waiting and stops the thread (it blocks: call it off
    the loop).
    """

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)
        self.error: RecordFileError | None = None
        self.written = 0  # logs written
        self._replayed: Replayed = []  # the last log written, replayed (the next write starts from it)
        self._thread: NewestOnly[tuple[tuple[Action, ...], MatInfo | None]] = NewestOnly(
            "bgboard-records", self._write)

    def write(self, actions: Sequence[Action], info: MatInfo | None = None) -> None:
        """Write ``actions`` (copied now) when the thread is free."""
        self._thread.hand((tuple(actions), info))

    def close(self, timeout: float | None = None) -> None:
        """Write what is waiting, then stop the thread (idempotent; blocks)."""
        self._thread.close(timeout)

    def _write(self, waiting: tuple[tuple[Action, ...], MatInfo | None] | None) -> None:
        if waiting is None:
            return
        try:
            self._replayed = write_records(waiting[0], self.directory, waiting[1], self._replayed)
            self.written += 1
        except RecordFileError as exc:
            log.error("%s", exc)
            self.error = exc
