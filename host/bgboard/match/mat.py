"""Jellyfish ``.mat`` match records: the writer (:mod:`bgboard.match.mat_write`, exactly as
gnubg's ``export match mat``) and the reader (:mod:`bgboard.match.mat_read`, as tolerant as
gnubg's ``import mat``; its values in :mod:`bgboard.match.mat_types`, its line reading in
:mod:`bgboard.match.mat_lines`), kept importable from here for the callers of the one module
they were split from."""

from bgboard.match.mat_lines import MAX_LENGTH, columns, decode_mat, parse_steps
from bgboard.match.mat_read import import_mat, read_mat
from bgboard.match.mat_types import ImportedMatch, MatGame, MatPlay, MatProblem
from bgboard.match.mat_write import (
    VARIATIONS,
    MatCursor,
    MatInfo,
    export_mat,
    format_steps,
    mat_chunk,
    mat_header,
    snowie_text,
)

__all__ = [
    "MAX_LENGTH", "ImportedMatch", "MatCursor", "MatGame", "MatInfo", "MatPlay", "MatProblem",
    "VARIATIONS", "columns", "decode_mat", "export_mat", "format_steps", "import_mat", "mat_chunk",
    "mat_header", "parse_steps", "read_mat", "snowie_text",
]
