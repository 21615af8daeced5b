"""hardware/prototype.md's bench run (issue 32): the positions and stacks it tells a maker to
record with the ten checkers the prototype builds are enough for ``bgboard hardware fit`` to
recover the discs' polarisation within 2 % and the gap within 0.1 mm, on readings the model
makes for perturbed boards with the sensor's noise.  Real magpylib through the fit's own code.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bgboard.hardware import bench_fit, magnets
from bgboard.hardware.physics import load_design

ROOT = Path(__file__).resolve().parents[2]
DESIGN = load_design()
#: prototype.md, "Recording the readings": one checker this far off its sensor ...
OFFSETS = (0.0, 3.0, 6.0, 9.0, 12.0, 15.0, 18.0, 21.0)
#: ... stacks centred on it (no more than the ten checkers built), stacks off it ...
STACKS = (2, 3, 4, 5, 10)
OFF_STACKS = ((6.0, 2), (12.0, 3), (18.0, 5))
#: ... and each position read this many times.
REPEATS = 16
CONFIGS = [(0.0, 0)] * 3 + [(x, 1) for x in OFFSETS] + [(0.0, k) for k in STACKS] + list(OFF_STACKS)


def test_prototype_md_asks_for_this_bench_run() -> None:
    text = " ".join((ROOT / "hardware" / "prototype.md").read_text().split())
    assert "**16 times**" in text and REPEATS == 16
    assert "then 3, 6, 9, 12, 15, 18 and 21 mm off it" in text
    assert "stacks of 2, 3, 4, 5 and 10 centred on it; a stack of 2 6 mm off, of 3 12 mm off and of 5 18 mm off" in text
    assert max(STACKS) <= 10  # the prototype's ten checkers
    assert f"({len(CONFIGS)} positions, {len(CONFIGS) * REPEATS} lines per sensor" in text


def _readings(j: float, gap: float, seed: int) -> list[bench_fit.Reading]:
    """What the bench run records on a model board: each of ten sensors' gain N(1, 2 %) and
    offset N(32768, 300), Gaussian noise at the sensor's datasheet level."""
    rng = random.Random(seed)
    unit = dict(zip(CONFIGS, magnets.unit_bz_mt(DESIGN, gap, CONFIGS)))
    c, noise = DESIGN.counts_per_mt, DESIGN.sensor.noise_mt
    out = []
    for s in range(10):
        gain, offset = rng.gauss(1.0, 0.02), rng.gauss(32768, 300)
        for x, k in CONFIGS:
            b = j * unit[(x, k)] if k else 0.0
            out += [bench_fit.Reading(str(s), x, k, round(offset + gain * c * (b + rng.gauss(0, noise))))
                    for _ in range(REPEATS)]
    return out


@pytest.mark.parametrize("scale,gap,seed", [(1.06, 6.85, 1), (0.93, 6.2, 2), (0.94, 5.68, 17)])
def test_the_prototypes_bench_run_recovers_a_perturbed_board(scale: float, gap: float, seed: int) -> None:
    j = scale * magnets.working_polarization_t(DESIGN)
    found = bench_fit.fit(_readings(j, gap, seed), lambda g, cs: magnets.unit_bz_mt(DESIGN, g, cs),
                          DESIGN.counts_per_mt, DESIGN.sensor.noise_mt)
    assert found.polarization_t == pytest.approx(j, rel=0.02)
    assert found.gap_mm == pytest.approx(gap, abs=0.1)
