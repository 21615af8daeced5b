"""The drills' texts for Babel's extraction (``babel.cfg``'s ``drills`` method): each drill's
``name`` and ``note`` in ``hints/drills.toml`` is a message of the ``bgboard`` catalogue, so the
practice room shows them in the learner's language (:mod:`bgboard.hints.drills` makes them
:class:`~bgboard.language.Phrase`).  Pure: Babel hands it the open file."""

from __future__ import annotations

import tomllib
from typing import BinaryIO, Iterator

#: The fields of a drill a learner reads.
FIELDS = ("name", "note")


def extract(fileobj: BinaryIO, keywords: object, comment_tags: object,
            options: object) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel's extraction method: ``(line, None, text, comments)`` for every drill's name and
    note, at the line the text is written on."""
    text = fileobj.read().decode("utf-8")
    lines = text.splitlines()
    seen_from = 0
    for table in tomllib.loads(text).get("drill", []):
        for field in FIELDS:
            value = table.get(field)
            if not isinstance(value, str) or not value:
                continue
            number = next((i for i in range(seen_from, len(lines))
                           if lines[i].lstrip().startswith(f"{field} ") and value in lines[i]), seen_from)
            seen_from = number
            yield number + 1, None, value, [f"source: the drill set (hints/drills.toml), a drill's {field}"]
