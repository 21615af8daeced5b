"""``--batch`` of ``bgboard legal`` and ``bgboard hint``: one JSON line out per line in, and a
bad line is reported with its number while the batch goes on.

A line that cannot be answered (a typo, a wrong roll, bytes that are not UTF-8, a line
longer than :data:`MAX_LINE` characters) gives ``{"line": N, "error": "..."}`` on stdout (so
the answers stay in step with the questions) and ``bgboard: line N: ...`` on stderr; the
exit code is 2 at the end if any line was bad, so one typo does not lose a 100,000-line batch.
"""

from __future__ import annotations

import io
import json
import sys
from typing import Any, Callable, TextIO

from bgboard.errors import InputError

MAX_LINE = 1000  # characters; a real line is "POSITION DICE", under 40


def _lines(source: TextIO) -> Any:
    """``(number, text or None)``: None for a line too long to be a question (skipped whole)."""
    number = 0
    while True:
        line = source.readline(MAX_LINE + 1)
        if not line:
            return
        number += 1
        if len(line) > MAX_LINE and not line.endswith("\n"):
            while line and not line.endswith("\n"):  # the rest of the long line
                line = source.readline(64 * 1024)
            yield number, None
            continue
        yield number, line


def run_batch(source: TextIO, out: TextIO, answer: Callable[[str, str], Any]) -> int:
    """Answer every ``POSITION DICE`` line of ``source`` with ``answer``; 0, or 2 if a line was bad."""
    if isinstance(source, io.TextIOWrapper):
        source.reconfigure(errors="replace")  # bytes that are not UTF-8 make a bad line, not a crash
    bad = total = 0
    for number, line in _lines(source):
        try:
            if line is None:
                raise InputError(f"the line is longer than {MAX_LINE} characters")
            fields = line.split()
            if not fields:
                continue
            total += 1
            if len(fields) != 2:
                shown = line.strip() if len(line) <= 80 else line.strip()[:60] + "..."
                raise InputError(f"expected 'POSITION DICE', got {shown!r}")
            result = answer(fields[0], fields[1])
        except InputError as exc:
            total += line is None
            bad += 1
            text = str(exc)
            out.write(json.dumps({"line": number, "error": text}) + "\n")
            print(f"bgboard: line {number}: {text}", file=sys.stderr)
        else:
            out.write(json.dumps(result) + "\n")
        out.flush()
    if bad:
        print(f"bgboard: {bad} of {total} lines could not be answered (see above)", file=sys.stderr)
        return 2
    return 0
