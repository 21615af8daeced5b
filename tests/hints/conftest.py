"""Fixtures for the hint tests: engines (skipped only when a wheel cannot be imported)."""

from __future__ import annotations

import pytest


def _need(module: str) -> None:
    try:
        __import__(module)
    except ImportError as exc:  # no wheel for this machine (e.g. not x86-64)
        pytest.skip(f"{module} cannot be imported here: {exc}")


@pytest.fixture(scope="session")
def bgsage_engine():
    _need("bgsage")
    from bgboard.hints.bgsage_engine import BgsageEngine

    return BgsageEngine()


@pytest.fixture(scope="session")
def gnubg_engine():
    _need("gnubg_nn")
    from bgboard.hints.gnubg_engine import GnubgEngine

    return GnubgEngine()


@pytest.fixture(scope="session")
def pubeval_engine():
    from bgboard.hints.pubeval_engine import PubevalEngine

    return PubevalEngine()
