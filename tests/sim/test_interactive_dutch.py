"""The terminal board in Dutch: its opening transcript (keys, board, prompts, narration and
the display's words with their keys) is the one docs/languages.md shows, and no English
word of the session is left in it (notation, ``bar``/``off`` and the key letters stay)."""

from __future__ import annotations

import re
from pathlib import Path

from bgboard.language.catalogues import words_for
from bgboard.sim.interactive import keyed, play_interactive
from bgboard.sim.modelled_board import Options

DOC = Path(__file__).resolve().parents[2] / "docs" / "languages.md"
START, END = "<!-- dutch-transcript -->", "<!-- /dutch-transcript -->"


def dutch_opening(tmp_path: Path) -> list[str]:
    """The session's lines as a terminal shows them: each prompt followed by what was typed."""
    lines: list[str] = []
    feed = iter(["r", "r", "13/9 13/8", "r"])

    def read(prompt: str) -> str:
        try:
            typed = next(feed)
        except StopIteration:
            raise EOFError from None
        lines.append(prompt + typed)
        return typed

    def write(text: str) -> None:
        lines.extend(text.splitlines())

    play_interactive(Options(1, seed=4, players=("Wit", "Zwart")), tmp_path, read=read, write=write, colour=False,
                     words=words_for("nl"))
    return lines


def test_the_dutch_opening_transcript_is_the_documented_one(tmp_path: Path) -> None:
    said = dutch_opening(tmp_path)
    text = DOC.read_text(encoding="utf-8")
    block = text[text.index(START) + len(START):text.index(END)]
    documented = [line[4:] for line in block.strip("\n").splitlines() if line.startswith("    ")]
    assert documented, "docs/languages.md shows the transcript as an indented block"
    assert said[:len(documented)] == documented
    for dutch in ("toetsen: r = gooi de dobbelstenen", "kubus 1 (in het midden)   match tot 1: Wit 0, Zwart 0",
                  "[opening] Wit 0 Zwart 0 (? = toetsen)> r", "scherm: gooi de dobbelstenen",
                  "openingsworp: Wit 2, Zwart 6", "Zwart speelt 12/20", "Wit gooit 5-4",
                  "[zet Wit worp 5-4] Wit 0 Zwart 0 (? = toetsen)> 13/9 13/8",
                  "scherm: 13/9 13/8: druk op klaar (r)", "Wit speelt 13/9 13/8"):
        assert dutch in "\n".join(said), dutch
    english = re.compile(r"\b(roll|rolls|plays|press|done|keys|display|cube|match to|opening roll|turn)\b")
    assert [line for line in said if english.search(line.replace("bar W", "").replace("off W", ""))] == []


def test_the_keys_are_named_beside_the_dutch_words() -> None:
    nl = words_for("nl")
    assert keyed("13/8 13/9: druk op klaar", nl) == "13/8 13/9: druk op klaar (r)"
    assert keyed("Zwart verdubbelt naar 2: Wit, aannemen of afwijzen?", nl) == (
        "Zwart verdubbelt naar 2: Wit, aannemen (d) of afwijzen (p)?")
