"""Every package of bgboard says what is public (``__all__``), and every name it lists resolves.

The packages that other layers import one module at a time (control, display, net, club,
sim) import their public names on first use (bgboard.exports), so importing the pure parts
does not load the adapters' libraries: checked in a fresh interpreter.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import bgboard
from bgboard.exports import exports

ROOT = Path(bgboard.__file__).resolve().parent
PACKAGES = sorted(
    ".".join(("bgboard", *init.parent.relative_to(ROOT).parts)) for init in ROOT.rglob("__init__.py")
)


def test_every_package_directory_is_found():
    assert {"bgboard", "bgboard.rules", "bgboard.link", "bgboard.sim", "bgboard.club.web"} <= set(PACKAGES)


@pytest.mark.parametrize("name", PACKAGES)
def test_the_package_lists_its_public_names_and_each_resolves(name: str):
    package = importlib.import_module(name)
    listed = package.__dict__.get("__all__")
    assert isinstance(listed, list) and listed, f"{name} has no __all__"
    assert len(set(listed)) == len(listed), f"{name}.__all__ names something twice"
    for public in listed:
        assert not public.startswith("_") or public == "__version__", f"{name}.__all__ lists private {public}"
        assert getattr(package, public) is not None, f"{name}.{public}"
    star: dict[str, object] = {}
    exec(f"from {name} import *", star)  # noqa: S102 - the import statement users write
    assert set(listed) <= set(star)


def test_a_lazily_exported_name_is_the_object_of_its_home_module():
    from bgboard.display.display_state import DisplayState
    from bgboard.net.protocol import parse_broker_url

    import bgboard.display
    import bgboard.net

    assert bgboard.display.DisplayState is DisplayState
    assert bgboard.net.parse_broker_url is parse_broker_url


def test_an_unknown_name_is_an_attribute_error():
    lookup = exports("bgboard.display", {"display_state": "DisplayState", ".": "renderer"})
    assert lookup("renderer").__name__ == "bgboard.display.renderer"  # type: ignore[attr-defined]
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        lookup("Nothing")
    with pytest.raises(AttributeError):
        import bgboard.sim

        bgboard.sim.no_such_name  # noqa: B018


def test_importing_the_core_loads_no_adapter_library():
    """The controller, the display state and the club protocol (imported by the config)
    come without Pillow, the MQTT client, Starlette, pyserial or gpiozero."""
    code = (
        "import sys, bgboard.control, bgboard.control.controller, bgboard.display.display_state, "
        "bgboard.net.protocol, bgboard.config, bgboard.club, bgboard.sim, bgboard.commands, bgboard.cli\n"
        "print(' '.join(m for m in ('PIL', 'aiomqtt', 'starlette', 'serial', 'gpiozero') if m in sys.modules))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.split() == []
