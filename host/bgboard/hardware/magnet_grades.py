"""Magnet grades as their makers' tables give them, and whether a magnet keeps its field
(pure: the fields themselves are :mod:`bgboard.hardware.magnets`').

A magnet's own field inside it opposes its magnetisation; for a thin axial disc it is close
to its polarisation over mu0.  If that field, with its neighbours' (a stack, a pin, a
crowded row), ever reaches the grade's intrinsic coercivity HcJ, the magnet loses
magnetisation for good.  HcJ changes with temperature — a ferrite's rises (weakest in the
cold), NdFeB's falls (weakest in the heat) — so the check runs over the range a board is
stored and shipped in, ``STORAGE_C``.  A magnet's field H scales with its remanence
(the magnets are linear on their recoil lines), so :func:`margin` needs H once, at 20 °C.

Sources (the figures below, at 20 °C):

* ferrite Br and HcJ (min / typical): the SJ285-77 table "min/typical in our factory",
  magneticalloy.com/ferrite-magnet.htm (Y10T = C1: 200/218 mT, 210/250 kA/m; Y30 = C5:
  380/385 mT, 199/220 kA/m; Y35: 400/410 mT, 180/200 kA/m);
* ferrite temperature coefficients and recoil permeability: jingxin-magnet.com's sintered
  hard ferrite table (alpha(Br) -0.20 %/K, alpha(HcJ) +0.2 ... +0.5 %/K over 0-100 °C,
  mu_rec 1.05 ... 1.3);
* NdFeB: HcJ >= 955 kA/m for N35-N48 (dhit.pl's N38 table, printed on each of its N38
  products' pages, e.g. dhit.pl/en/product/magnes-neodymowy-plytkowy-3x3x2-n38-osiowy:
  "remenance Br 1220-1260 mT, coercivity bHc 860-915 kA/m, iHc >= 955 kA/m, max. temperature
  <= 80 °C"; the stock-array magnet of benchmarks/magnet_arrays.py is N38 for this table),
  >= 876 for N52 (vormagelectronics.com); alpha(Br) -0.09 ... -0.12 %/K and alpha(HcJ)
  -0.4 ... -0.6 %/K (advancedmagnets.com, "temperature coefficients"); mu_rec 1.05
  (china-magnet.net).

Each coefficient is taken at the end of its range that is worse for the magnet.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

#: The temperatures a board lives through (storage and shipping), °C.
STORAGE_C = (-20.0, 60.0)
#: The least margin of HcJ over the field inside a magnet that the design accepts.
MIN_MARGIN = 0.10
#: Where the makers' figures are given.
ROOM_C = 20.0


@dataclass(frozen=True, slots=True)
class Grade:
    """A magnet grade: typical remanence ``br_t`` (T), intrinsic coercivity ``hcj_min`` /
    ``hcj_typ`` (kA/m), the temperature coefficients of both (per kelvin, as fractions), and
    its recoil permeability's range."""

    name: str
    br_t: float
    hcj_min: float
    hcj_typ: float
    alpha_br: float
    alpha_hcj: float
    mu_rec: tuple[float, float]

    @property
    def mu_rec_nominal(self) -> float:
        """The middle of the recoil permeability's range (a measured board replaces it)."""
        return (self.mu_rec[0] + self.mu_rec[1]) / 2

    def br_at(self, temp_c: float) -> float:
        """Remanence (T) at ``temp_c``."""
        return self.br_t * (1 + self.alpha_br * (temp_c - ROOM_C))

    def hcj_at(self, temp_c: float, typical: bool = True) -> float:
        """Intrinsic coercivity (kA/m) at ``temp_c`` (the typical or the guaranteed minimum)."""
        return (self.hcj_typ if typical else self.hcj_min) * (1 + self.alpha_hcj * (temp_c - ROOM_C))


def _ferrite(name: str, br: float, hcj_min: float, hcj_typ: float) -> Grade:
    return Grade(name, br, hcj_min, hcj_typ, -0.0020, +0.0050, (1.05, 1.3))


def _ndfeb(name: str, br: float, hcj: float) -> Grade:
    return Grade(name, br, hcj, hcj, -0.0012, -0.0060, (1.05, 1.05))


GRADE_TABLE: Mapping[str, Grade] = {
    g.name: g for g in (
        _ndfeb("N35", 1.19, 955), _ndfeb("N38", 1.24, 955), _ndfeb("N42", 1.30, 955), _ndfeb("N45", 1.34, 955),
        _ndfeb("N48", 1.39, 955), _ndfeb("N52", 1.44, 876),
        _ferrite("Y10T", 0.218, 210, 250), _ferrite("Y30", 0.385, 199, 220), _ferrite("Y35", 0.41, 180, 200),
    )
}


def margin(grade: Grade, h_ka_m: float, temp_c: float, typical: bool = True) -> float:
    """How far the grade's HcJ at ``temp_c`` lies beyond the field ``h_ka_m`` (kA/m, the
    strongest opposing field inside the magnet at 20 °C): HcJ(T) / |H(T)| - 1, with H
    scaled by the remanence at ``temp_c``.  Negative: the magnet loses field for good."""
    h = abs(h_ka_m) * grade.br_at(temp_c) / grade.br_t
    return grade.hcj_at(temp_c, typical) / h - 1


def worst_margin(grade: Grade, h_ka_m: float, typical: bool = True, step_c: float = 5.0) -> tuple[float, float]:
    """``(temperature, margin)`` at the worst temperature of :data:`STORAGE_C`."""
    low, high = STORAGE_C
    temps = [low + i * step_c for i in range(int(round((high - low) / step_c)) + 1)]
    return min(((t, margin(grade, h_ka_m, t, typical)) for t in temps), key=lambda p: p[1])


__all__ = ["GRADE_TABLE", "MIN_MARGIN", "ROOM_C", "STORAGE_C", "Grade", "margin", "worst_margin"]
