"""Jellyfish ``.mat`` match records: the writer (:mod:`bgboard.match.mat_write`, exactly as
gnubg's ``export match mat``) and the reader (:mod:`bgboard.match.mat_read`, as tolerant as
gnubg's ``import mat``), kept importable from here for the callers of the one module
they were split from."""

from bgboard.match.mat_read import (
    MAX_LENGTH,
    ImportedMatch,
    MatGame,
    MatPlay,
    MatProblem,
    columns,
    decode_mat,
    import_mat,
    parse_steps,
    read_mat,
)
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
