"""Public names of a package imported on first use (PEP 562).

``bgboard.control``, ``bgboard.display``, ``bgboard.net``, ``bgboard.club`` and
``bgboard.sim`` hold modules that other layers import one at a time, some of them adapters
(Pillow, the MQTT client, Starlette, the firmware under MicroPython).  Their ``__init__``
lists the public names in ``__all__`` (and imports them for the type checker under
``TYPE_CHECKING``) but imports none of them at run time: importing ``bgboard.display.display_state``
from the controller must not load Pillow, nor ``bgboard.net.protocol`` from the config the
MQTT library.  ``__getattr__ = exports(__name__, {submodule: names})`` imports a name's home
module when the name is first asked for (``from bgboard.net import ClubLink``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping


def exports(package: str, homes: Mapping[str, str]) -> Callable[[str], object]:
    """A module ``__getattr__`` for ``package``: ``homes`` maps each submodule (relative to the
    package) to the public names it defines, separated by spaces; under ``"."`` are the
    submodules that are public names themselves."""
    home_of = {name: module for module, names in homes.items() for name in names.split()}

    def __getattr__(name: str) -> object:
        home = home_of.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        if home == ".":
            return importlib.import_module(f"{package}.{name}")
        return getattr(importlib.import_module(f"{package}.{home}"), name)

    return __getattr__


__all__ = ["exports"]
