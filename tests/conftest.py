"""Shared test configuration.

Tests that need gnubg, gnubg-nn or bgsage skip (saying why) only where those wheels cannot
be imported, i.e. off x86-64 Linux. In CI (``CI=true``) on x86-64 Linux every one of them
installs, so there a skipped test means a broken install and fails the run.
"""

from __future__ import annotations

import os
import platform
import sys

import pytest
from hypothesis import HealthCheck, settings

# Hypothesis's two wall-clock checks would make a property test fail on a loaded machine
# (CI, or this one shared by several runs): its per-example deadline (200 ms by default)
# and its "data generation is too slow" health check. Neither is a property of the code;
# speed is measured in benchmarks/. Every test's own @settings inherits this profile.
settings.register_profile("bgboard", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("bgboard")


def _skips_forbidden() -> bool:
    return (
        os.environ.get("CI", "").lower() == "true"
        and sys.platform == "linux"
        and platform.machine() == "x86_64"
    )


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if not _skips_forbidden():
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter else []
    if skipped:
        reasons = sorted({str(getattr(r, "longrepr", ""))[-160:] for r in skipped})
        print(f"\n{len(skipped)} test(s) skipped in CI on x86-64 Linux, where nothing may skip:")
        for reason in reasons:
            print(f"  {reason}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
