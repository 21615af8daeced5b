"""The gnubg program as the analysis engine (adapter): GNU Backgammon itself — Debian's
``gnubg`` package, built for arm64 and armhf as for x86-64, so the Raspberry Pi's engine
where gnubg-nn has no wheel — analyses a match in its own process
(:mod:`bgboard.analysis.gnubg_script`), and its ``show statistics match`` table becomes
bgboard's figures: every count and total is gnubg's own.  The PR is gnubg's error rate ÷ 2
(500 × error / decisions, docs/analysis.md); its interval and the worst decisions come from
the decisions gnubg graded (each play's loss against gnubg's best; each cube action's
against the better of no double and double).

The program is ``gnubg`` on PATH, Debian's ``/usr/games/gnubg``, or ``BGBOARD_GNUBG``.
"""

from __future__ import annotations

import json
import logging
import os
import selectors
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from bgboard.analysis.gnubg_table import statistics
from bgboard.analysis.stats import FEW_DECISIONS, WIDE_HALF_WIDTH, half_width, pr_note, rating
from bgboard.hints.hint_engine import EngineUnavailableError

__all__ = ["GnubgProgram", "gnubg_program"]

log = logging.getLogger(__name__)

SCRIPT = Path(__file__).with_name("gnubg_script.py")
#: What one match may take gnubg (a 25-point match at 0-ply: seconds on a PC, about a minute
#: on a Pi 4 by the arm64 run's emulated figures, docs/install-pi.md).
TIMEOUT_S = 600


def gnubg_program() -> str:
    """The gnubg program's path, or :class:`EngineUnavailableError` (one sentence)."""
    given = os.environ.get("BGBOARD_GNUBG")
    if given:
        if Path(given).is_file() and os.access(given, os.X_OK):
            return given
        raise EngineUnavailableError(f"BGBOARD_GNUBG names {given!r}, which is not an executable file")
    found = shutil.which("gnubg") or ("/usr/games/gnubg" if os.access("/usr/games/gnubg", os.X_OK) else None)
    if found is None:
        raise EngineUnavailableError("the gnubg program is not installed: sudo apt-get install gnubg (Debian, Raspberry Pi OS)")
    return found


def player_figures(table: dict[str, Any], decisions: list[list[Any]], player: int, worst: int = 5) -> dict[str, Any]:
    """One player's figures in the shape of :meth:`bgboard.analysis.stats.PlayerStats.to_dict`
    from gnubg's table row (``table``) and the decisions gnubg graded (pure)."""
    mine = [d for d in decisions if d[2] == player]
    plays = [d[4] for d in mine if d[3] == "play"]
    cube_errors = [d[4] for d in mine if d[3] == "cube"]
    decided = table["unforced_moves"] + table["close_cube_decisions"]
    error = table["checker_error_emg"] + table["cube_error_emg"]
    pr = 500.0 * error / decided if decided else 0.0
    # the interval: gnubg's per-decision losses, a close cube decision without a loss counted 0
    samples = plays[: table["unforced_moves"]] + cube_errors
    samples += [0.0] * max(0, decided - len(samples))
    half = half_width([500.0 * s for s in samples])
    ranked = sorted((d for d in mine if d[4] > 0), key=lambda d: -d[4])[:worst]
    return {
        "name": table["name"],
        "total_moves": table["total_moves"],
        "unforced_moves": table["unforced_moves"],
        "marks": {"very bad": table["very_bad"], "bad": table["bad"], "doubtful": table["doubtful"]},
        "checker_error_emg": table["checker_error_emg"],
        "checker_error_mwc": table["checker_error_mwc"],
        "checker_rate_memg": table["checker_rate_memg"],
        "cube_decisions": table["cube_decisions"],
        "close_cube_decisions": table["close_cube_decisions"],
        "doubles": table["doubles"],
        "takes": table["takes"],
        "passes": table["passes"],
        "cube_mistakes": {k: {**v, "mwc": None} for k, v in table["cube_mistakes"].items()},
        "cube_error_emg": table["cube_error_emg"],
        "cube_error_mwc": table["cube_error_mwc"],
        "cube_rate_memg": table["cube_rate_memg"],
        "error_emg": table["error_emg"],
        "error_mwc": table["checker_error_mwc"] + table["cube_error_mwc"],
        "error_rate_memg": table["error_rate_memg"],
        "snowie_error_rate": table["snowie_error_rate"],
        "pr": round(pr, 6),
        "pr_low": round(max(0.0, pr - half), 6) if half != float("inf") else None,
        "pr_high": round(pr + half, 6) if half != float("inf") else None,
        "decisions": decided,
        "pr_wide": decided < FEW_DECISIONS or half > WIDE_HALF_WIDTH,
        "pr_note": pr_note(decided, half),
        "checker_rating": table["checker_rating"],
        "cube_rating": rating(table["cube_error_emg"] / table["close_cube_decisions"]) if table["close_cube_decisions"] else rating(0.0),
        "overall_rating": table["overall_rating"],
        "luck_emg": table["luck_emg"],
        "luck_mwc": table["luck_mwc"],
        "luck_rate_memg": table["luck_rate_memg"],
        "luck_rating": table["luck_rating"],
        "actual_result": None,
        "luck_adjusted_result": table["luck_adjusted_result"],
        "worst": [{"type": d[3], "game": d[0], "line": None, "move": d[1], "played": d[5], "better": d[6],
                   "error_emg": round(d[4], 6)} for d in ranked],
    }


def _ended(gnubg: subprocess.Popen[bytes]) -> int:
    """``gnubg`` ended: its input closed (it ends once the match it analyses is done), killed
    if it has not within 10 s, its output closed; its exit code."""
    try:
        if gnubg.stdin is not None:
            gnubg.stdin.close()
    except OSError:  # a broken pipe: it has ended already
        pass
    try:
        code = gnubg.wait(timeout=10)
    except subprocess.TimeoutExpired:
        gnubg.kill()
        code = gnubg.wait()
    if gnubg.stdout is not None:
        gnubg.stdout.close()
    return code


class GnubgProgram:
    """The gnubg program's analysis of whole matches (``name`` ``gnubg``): one gnubg process,
    started at the first match and kept for the next ones until :meth:`close` (starting
    gnubg and loading its nets cost as much as analysing a short match)."""

    name = "gnubg"

    def __init__(self, plies: int = 0) -> None:
        self.program = gnubg_program()
        self.plies = plies
        self._folder: tempfile.TemporaryDirectory[str] | None = None
        self._gnubg: subprocess.Popen[bytes] | None = None
        self._pending = b""  # gnubg's output read past the last whole line
        self._count = 0

    def _start(self) -> subprocess.Popen[bytes]:
        if self._folder is None:
            self._folder = tempfile.TemporaryDirectory(prefix="bgboard-gnubg-")
        folder = self._folder.name
        try:
            with open(Path(folder) / "gnubg.err", "wb") as errors:
                self._gnubg = subprocess.Popen(
                    [self.program, "-t", "-q", "-p", str(SCRIPT)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                    stderr=errors, cwd=folder, env={**os.environ, "HOME": folder, "BGBOARD_GNUBG_PLIES": str(self.plies),
                                                    "BGBOARD_GNUBG_FILES": "-"})
        except OSError as exc:
            raise EngineUnavailableError(f"the gnubg program {self.program} does not start ({exc.strerror})") from None
        self._pending = b""
        return self._gnubg

    def _line(self, gnubg: subprocess.Popen[bytes]) -> str | None:
        """gnubg's next ``@@`` line (without the mark), None when it ended first;
        :class:`EngineUnavailableError` after :data:`TIMEOUT_S`."""
        assert gnubg.stdout is not None
        fd = gnubg.stdout.fileno()
        deadline = time.monotonic() + TIMEOUT_S
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while True:
                while b"\n" in self._pending:
                    line, self._pending = self._pending.split(b"\n", 1)
                    if line.startswith(b"@@"):
                        return line[2:].decode("utf-8", "replace")
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    self.close()
                    raise EngineUnavailableError(f"the gnubg program took over {TIMEOUT_S} s on one match")
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    return None
                self._pending += chunk

    def _failed(self, gnubg: subprocess.Popen[bytes]) -> EngineUnavailableError:
        """Why gnubg stopped: its exit code and the last line it wrote to stderr."""
        self._gnubg = None
        code = _ended(gnubg)
        assert self._folder is not None
        try:
            said = (Path(self._folder.name) / "gnubg.err").read_text(encoding="utf-8", errors="replace")
        except OSError:
            said = ""
        tail = (said.strip().splitlines() or ["no output"])[-1]
        return EngineUnavailableError(f"the gnubg program did not analyse the match (exit code {code}: {tail[:200]})")

    def analyse_mat(self, mat_text: str, worst: int = 5) -> dict[str, Any]:
        """``{"players": [figures, figures]}`` of one match's ``.mat`` text."""
        gnubg = self._gnubg if self._gnubg is not None and self._gnubg.poll() is None else self._start()
        assert self._folder is not None and gnubg.stdin is not None
        self._count += 1
        path = Path(self._folder.name) / f"match{self._count}.mat"
        path.write_text(mat_text, encoding="utf-8")
        try:
            try:
                gnubg.stdin.write(f"{path}\n".encode())
                gnubg.stdin.flush()
            except BrokenPipeError:
                raise self._failed(gnubg) from None
            line = self._line(gnubg)
        finally:
            path.unlink(missing_ok=True)
        if line is None:
            raise self._failed(gnubg)
        result = json.loads(line)
        if "error" in result:
            raise EngineUnavailableError(f"the gnubg program did not analyse the match ({str(result['error'])[:200]})")
        tables = statistics(result["table"])
        log.debug("gnubg analysed a match: %d decisions graded", len(result["decisions"]))
        return {"players": [player_figures(tables[p], result["decisions"], p, worst) for p in (0, 1)]}

    def close(self) -> None:
        """End gnubg (its input closed: it ends when the match it analyses is done) and
        remove its folder."""
        gnubg, self._gnubg = self._gnubg, None
        if gnubg is not None:
            _ended(gnubg)
        if self._folder is not None:
            self._folder.cleanup()
            self._folder = None
