"""The host's side of a firmware run of ``bgboard sim`` (adapter): the real
:class:`bgboard.app.App` beside the simulated board, and what the players read of it.

:meth:`HostSide.open` builds the app as ``bgboard run`` would, from a config table made for
the run (:func:`host_config`: the board on the pty, the match, the journal in OUT, the
teaching mode and hint engine, an opponent): its serial transport on the firmware's pty,
gpiozero buttons on a ``MockFactory``, the display through a ``FilePanel`` and the link's
timeouts scaled to the run's speed (:class:`SimClock`).  The views (:attr:`HostSide.host`,
:attr:`HostSide.controller`, :meth:`HostSide.message`...) are what the simulated person sees:
the display's match, its reading of the board, the last notice.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from bgboard.control.controller import Controller
from bgboard.control.practice_room import PracticeRoom
from bgboard.sim.driver import Options
from bgboard.sim.ops import SimulationError

if TYPE_CHECKING:
    from gpiozero.pins import Factory
    from gpiozero.pins.mock import MockFactory

    from bgboard.app import App
    from bgboard.control.notice import Notice
    from bgboard.display.panel import FilePanel
    from bgboard.link.messages import Hello
    from bgboard.sense.places import Observation
    from bgboard.store.journal import Journal

__all__ = ["SETTLE_MS", "HostSide", "SimClock", "host_config"]

#: The host's settling time of a board reading in a firmware run.
SETTLE_MS = 120


class SimClock:
    """Wall-clock milliseconds running ``factor`` times real time from ``start_ms`` (the
    host's clock in a fast run; ``factor`` 1 is the wall clock)."""

    def __init__(self, factor: int, start_ms: int) -> None:
        self.factor = factor
        self.start_ms = start_ms
        self._t0 = time.monotonic()

    def __call__(self) -> int:
        return self.start_ms + int((time.monotonic() - self._t0) * 1000 * self.factor)


def host_config(options: Options, port: str, out: Path, extra: dict[str, Any]) -> dict[str, Any]:
    """The host's config table: the board on ``port``, the match, the journal in ``out``;
    with ``--teach`` the teaching mode and its hint engine, with ``--opponent`` the engine
    at black, as ``bgboard run`` reads them; ``extra`` tables on top (a remote match's
    ``[remote]``, a practice run's drills)."""
    o = options
    table: dict[str, Any] = {
        "board": {"port": port, "settle_ms": SETTLE_MS},
        "match": {"length": o.match_length, "rules": o.rules, "variant": o.match_variant},
        "journal": {"path": str(out / "journal.sqlite")},
        "buttons": {"bounce_ms": 2},
    }
    if o.opponent is not None:  # the engine plays black (bgboard sim --opponent)
        engine, _, level = o.opponent.partition(":")
        table["match"]["opponent"] = "engine"
        table["opponent"] = {"engine": engine, "level": level, "side": "black", "dice": o.opponent_dice}
    if o.teach != "off":
        table["teach"] = {"mode": o.teach, "learner": o.learner}
        table["hints"] = {"engine": o.engine or "auto"}
    return table | extra


@dataclass
class HostSide:
    """The real host app of a firmware run, its mock pins and its file panel (see the
    module docstring); :meth:`release` gives gpiozero its pin factory back."""

    app: App
    factory: MockFactory
    panel: FilePanel
    old_factory: Factory | None

    @classmethod
    def open(cls, table: dict[str, Any], port: Callable[[], str], journal: Journal, clock: Callable[[], int],
             speed: int, frames: Path) -> HostSide:
        """The app on the config ``table``, its board on the pty ``port()`` names, its
        journal and clock the run's; the link's timeouts in firmware time (heartbeats every
        1000 ms of it, the run ``speed`` times real time), with a floor in real time: a
        loaded machine must not look like a lost board."""
        from gpiozero import Device
        from gpiozero.pins.mock import MockFactory

        from bgboard.app import App
        from bgboard.config import config_from_dict
        from bgboard.display.panel import FilePanel
        from bgboard.display.panels import panel_spec
        from bgboard.link.connection import Timing
        from bgboard.link.transport import open_serial

        factory = MockFactory()
        old_factory = Device.pin_factory
        Device.pin_factory = factory
        config = config_from_dict(table)
        panel = FilePanel(panel_spec("waveshare-4in2"), frames)
        panel.frames = [(p, "full" in p.name) for p in sorted(frames.glob("frame-*.png"))]
        k = speed
        app = App(
            config,
            opener=lambda: open_serial(port()),
            pin_factory=factory,
            panel=panel,
            journal=journal,
            clock_ms=clock,
            timing=Timing(
                hello_s=max(3.0 / k, 1.0),
                watchdog_s=max(3.0 / k, 1.0),
                snapshot_s=max(2.0 / k, 0.5),
                ack_s=max(0.5 / k, 0.2),
                tick_s=0.05 / k,
            ),
            tick_s=0.05 / k,
        )
        return cls(app, factory, panel, old_factory)

    def release(self) -> None:
        """gpiozero's pin factory as it was before the run."""
        from gpiozero import Device

        Device.pin_factory = self.old_factory

    # ------------------------------------------------------------------ what the person sees
    @property
    def host(self) -> Controller | PracticeRoom | None:
        """The app's match controller or practice room, as the app opened it (None until the
        app has made it); no other room has a person to play it."""
        host = self.app.match if self.app.match is not None else self.app.practice
        if host is None and self.app.controller is not None:
            raise SimulationError(f"the simulated person cannot act at a {type(self.app.controller).__name__}")
        return host

    @property
    def controller(self) -> Controller:
        """The app's match controller."""
        c = self.app.match
        if c is None:
            raise SimulationError("the host plays no match")
        return c

    def observation(self) -> Observation | None:
        """The host's settled reading of the board (None before it has one)."""
        host = self.host
        return host.observation if host is not None else None

    def message(self) -> Notice | None:
        """The match's last notice on the display (None: none, or no match)."""
        match = self.app.match
        return match.message() if match is not None else None

    def rolled(self) -> object:
        """What changes when the host has taken a roll: the match's actions, a drill's phase."""
        room = self.app.practice
        if room is not None:
            return room.index, room.phase, room.dice
        return len(self.controller.actions)

    def hello(self) -> Hello | None:
        """The HELLO of the host's current board session (None: no session or no HELLO yet);
        a new object for every HELLO the host takes, even from the same firmware."""
        link = self.app.link
        connection = link.connection if link is not None else None
        return connection.hello if connection is not None else None

    def in_sync(self) -> bool:
        """Whether the host's board session is in step with the firmware."""
        link = self.app.link
        return link is not None and link.connection is not None and link.connection.in_sync

    def teaching(self) -> dict[str, Any]:
        """``grades``, ``engine``, ``report`` (the path of the learner report the app wrote
        beside its journal) and ``in_short`` of the board's teacher (none when it had no engine)."""
        teacher, hints = getattr(self.app, "teacher", None), self.app.hints
        if teacher is not None:
            return teacher.session(self.app.report)
        return {"grades": [], "engine": hints.engine.name if hints is not None else None, "report": None,
                "in_short": None}
