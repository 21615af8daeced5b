"""Match records of a simulated match: ``match.mat`` and ``match.sgf`` (adapter).

The texts come from the match package's own writers (:func:`bgboard.match.mat.export_mat`,
:func:`bgboard.match.sgf.export_sgf`), the ones gnubg is checked against; this module only
writes them whole and atomically (a temporary file renamed over the old one), so a run
killed while writing leaves the previous record intact.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from bgboard.files import write_text_atomic
from bgboard.match.actions import Action
from bgboard.match.mat import export_mat
from bgboard.match.sgf import export_sgf


def write_mat(actions: Sequence[Action], path: Path) -> None:
    """Write the .mat file of an action log."""
    write_text_atomic(path, export_mat(actions))


def write_sgf(actions: Sequence[Action], path: Path) -> None:
    """Write the SGF file of an action log."""
    write_text_atomic(path, export_sgf(actions))


