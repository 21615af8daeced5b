"""Analysing files, journals and folders with a results cache (adapter: reads files).

A folder is analysed file by file; each file's figures are kept in a cache of JSON lines
(``--cache``; ``bgboard analyse`` keeps one per folder in the user's cache folder, a club
export :data:`CACHE_NAME` beside its own files) under the file's
SHA-256, the engine and the plies, one line appended and fsynced after every file: an
interrupted run (Ctrl-C, kill) resumes where it stopped and never analyses a file twice.
Each file is read once (bounded by the bytes read, a pipe by time: ``bgboard.files``).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from bgboard.analysis.gnubg_program import GnubgProgram
from bgboard.analysis.stats import summarise
from bgboard.analysis.walk import Evaluator, analyse_match
from bgboard.errors import InputError
from bgboard.files import read_bytes, write_text_atomic
from bgboard.match.mat_read import import_mat
from bgboard.match.mat_types import ImportedMatch
from bgboard.rules.games import variant

__all__ = ["CACHE_NAME", "CSV_COLUMNS", "Cache", "analyse_file", "expand", "iter_results", "read_match", "read_record",
           "figures_csv", "write_figures_csv"]

CACHE_NAME = ".bgboard-analysis.jsonl"
#: Files bigger than this are no match record.
MAX_BYTES = 16 * 1024 * 1024
CACHE_VERSION = 2


def expand(paths: list[Path]) -> list[Path]:
    """The files named: each file as it is, each folder's ``.mat`` files (sorted)."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*.mat") if p.is_file()))
        elif path.exists():
            files.append(path)
        else:
            raise InputError(f"there is no file or folder {path}")
    return files


#: How a board's journal (SQLite) starts; anything else is read as a .mat file.
JOURNAL_MAGIC = b"SQLite format 3\x00"


def read_record(path: Path) -> bytes:
    """The bytes of a ``.mat`` file or a board's journal, read once and bounded
    (:func:`bgboard.files.read_bytes`: a device by the bytes read, a pipe by time)."""
    return read_bytes(path, "the match record", MAX_BYTES)


def read_match(path: Path, data: bytes | None = None) -> ImportedMatch:
    """A ``.mat`` file or a board's journal (SQLite) as an imported match (``data``: the
    file's bytes, already read)."""
    if data is None:
        data = read_record(path)
    if data.startswith(JOURNAL_MAGIC):
        return import_mat(_journal_mat(path))
    return import_mat(data)


def _journal_mat(path: Path) -> str:
    """The .mat text of a journal's current match (as ``bgboard export`` writes it)."""
    from bgboard.match.actions import journal_actions
    from bgboard.match.mat_write import export_mat
    from bgboard.store.journal import read_entries

    entries = read_entries(path)
    if not any(e.kind == "action" for e in entries):
        raise InputError(f"{path} holds no match yet: nothing to analyse")
    actions = journal_actions(entries)
    if not actions:
        raise InputError(f"{path}'s last match has no action yet: nothing to analyse")
    return export_mat(actions)


def analyse_file(path: Path, evaluator: "Evaluator | GnubgProgram", plies: int = 0,
                 progress: Callable[[int, int], None] | None = None, data: bytes | None = None) -> dict[str, Any]:
    """``{"file", "players": [figures, figures], "engine", "plies", "problems"}`` for one file
    (``data``: its bytes, already read)."""
    if isinstance(evaluator, GnubgProgram):  # gnubg analyses the whole match in its own process
        data = data if data is not None else read_record(path)
        text = _journal_mat(path) if data.startswith(JOURNAL_MAGIC) else data.decode("utf-8", "replace")
        match = import_mat(text)
        if not variant(match.variant).analysis:
            raise InputError(f"{path} is a {match.variant} match: only backgammon is analysed")
        return {"file": str(path), "engine": evaluator.name, "plies": plies, "length": match.length,
                **evaluator.analyse_mat(text, worst=50), "problems": [str(p) for p in match.problems][:20]}
    match = read_match(path, data)
    if not variant(match.variant).analysis:
        raise InputError(f"{path} is a {match.variant} match: only backgammon is analysed")
    analysis = analyse_match(match, evaluator, plies=plies, progress=progress)
    return {
        "file": str(path),
        "engine": analysis.engine,
        "plies": plies,
        "length": analysis.length,
        "players": [summarise(analysis, p).to_dict() for p in (0, 1)],
        "problems": list(analysis.problems)[:20],
    }


@dataclass
class Cache:
    """The results cache, JSON Lines: a header ``{"version"}``, then one ``{"key", "figures"}``
    line per analysed file, appended and fsynced as each file is done (a folder of 1,000
    matches writes each result once, not the whole cache again after every file).  A last
    line cut short by a stop mid-write is left out when the cache is read again."""

    path: Path
    results: dict[str, Any]

    @classmethod
    def open(cls, path: Path) -> "Cache":
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return cls(path, {})
        except (OSError, UnicodeDecodeError):
            raise InputError(f"the results cache {path} cannot be read: delete it to start again") from None
        results: dict[str, Any] = {}
        try:
            if not lines or json.loads(lines[0]) != {"version": CACHE_VERSION}:
                raise ValueError("no header")
            for number, line in enumerate(lines[1:], start=2):
                try:
                    row = json.loads(line)
                except ValueError:
                    if number == len(lines):
                        break  # the line a stop cut short: its file is analysed again
                    raise
                results[row["key"]] = row["figures"]
        except (ValueError, KeyError, TypeError):
            raise InputError(f"the results cache {path} is not one bgboard wrote: delete it to start again") from None
        return cls(path, results)

    @staticmethod
    def key(data: bytes, engine: str, plies: int) -> str:
        return f"{hashlib.sha256(data).hexdigest()}:{engine}:{plies}"

    def get(self, key: str) -> Any:
        return self.results.get(key)

    def put(self, key: str, figures: Any) -> None:
        """Keep ``figures``: one line appended to the cache and fsynced."""
        self.results[key] = figures
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        with open(self.path, "a", encoding="utf-8", newline="\n") as f:
            if fresh:
                f.write(json.dumps({"version": CACHE_VERSION}) + "\n")
            f.write(json.dumps({"key": key, "figures": figures}) + "\n")
            f.flush()
            os.fsync(f.fileno())


def iter_results(files: list[Path], evaluator: "Evaluator | GnubgProgram", plies: int, cache: Cache | None) -> Iterator[tuple[Path, dict[str, Any] | str]]:
    """(file, figures or the sentence why it could not be analysed) per file."""
    for path in files:
        try:
            data = read_record(path)
        except InputError as exc:
            yield path, str(exc)
            continue
        key = Cache.key(data, evaluator.name, plies) if cache is not None else ""
        if cache is not None and cache.get(key) is not None:
            yield path, {**cache.get(key), "file": str(path)}
            continue
        try:
            figures = analyse_file(path, evaluator, plies, data=data)
        except InputError as exc:
            yield path, str(exc)
            continue
        if cache is not None:
            cache.put(key, figures)
        yield path, figures


#: The columns of a club export's ``analysis.csv`` (one row per match and player).
CSV_COLUMNS = ("match", "player", "pr", "pr_low", "pr_high", "decisions", "error_rate_memg", "checker_error_emg",
               "cube_error_emg", "luck_emg", "overall_rating")


def figures_csv(rows: Iterable[tuple[str, dict[str, Any]]], out: Path) -> int:
    """Write ``out`` as CSV (:data:`CSV_COLUMNS`) whole, one row per match and player, from
    ``(match, figures)`` pairs (``figures``: one player's, as :func:`analyse_file` gives them);
    the number of rows.  The one writer of ``analysis.csv`` (the export's ``--analyse`` and the
    club's stored figures)."""
    import csv
    import io

    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    count = 0
    for match, player in rows:
        writer.writerow([match, player["name"]] + [_cell(player[k]) for k in CSV_COLUMNS[2:]])
        count += 1
    out.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(out, text.getvalue())
    return count


def write_figures_csv(folder: Path, out: Path, evaluator: Evaluator) -> int:
    """Analyse every ``.mat`` file in ``folder`` (a club export's ``mat/``: one file per
    match, named by its number) with ``evaluator`` (opened by the caller before it writes
    anything: an unknown engine is refused first) and write ``out`` as CSV
    (:func:`figures_csv`); the number of rows.  The folder's results cache is kept beside
    the files, so exporting again analyses only the new matches."""
    files = sorted(folder.glob("*.mat"), key=lambda p: (len(p.stem), p.stem)) if folder.is_dir() else []
    cache = Cache.open(folder / CACHE_NAME)
    return figures_csv(((path.stem, player)
                        for path, figures in iter_results(files, evaluator, 0, cache)
                        if not isinstance(figures, str)  # a record the analysis does not cover
                        for player in figures["players"]), out)


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4f}"
    return "" if value is None else str(value)
