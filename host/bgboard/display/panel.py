"""The one interface every panel driver provides, and the file panel for development.

A driver is an *adapter*: it may do I/O and wait.  Hardware libraries (spidev, gpiozero
pin back ends, inky) are imported only inside the driver modules that need them
(:mod:`bgboard.display.waveshare`, :mod:`bgboard.display.inky`), never here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol, runtime_checkable

from PIL import Image

from bgboard.display.panels import PanelSpec
from bgboard.errors import EnvironmentFailure


class PanelError(EnvironmentFailure):
    """The panel cannot show a frame (stuck BUSY line, missing device): one sentence."""


@runtime_checkable
class Panel(Protocol):
    """A display panel.

    ``caps`` gives the size, colours, partial support and refresh times.  ``show`` draws a
    frame made by :func:`bgboard.display.renderer.render` for this panel (``full=False`` asks
    for a partial refresh; panels without one do a full refresh).  ``sleep`` puts the
    panel into its lowest-power state (the next ``show`` wakes it).  ``close`` releases
    the hardware and is idempotent.
    """

    caps: PanelSpec

    def show(self, image: Image.Image, full: bool) -> None: ...

    def sleep(self) -> None: ...

    def close(self) -> None: ...


def check_frame(caps: PanelSpec, image: Image.Image) -> None:
    """Raise ``ValueError`` unless ``image`` has the panel's size and image mode."""
    mode = "1" if caps.colours == "bw" else "P"
    if image.size != (caps.width, caps.height) or image.mode != mode:
        raise ValueError(
            f"{caps.name} needs a {caps.width}x{caps.height} mode {mode} image, "
            f"got {image.size[0]}x{image.size[1]} mode {image.mode}"
        )


class FilePanel:
    """A panel that writes every frame as a numbered PNG (``frame-0001-full.png``).

    For development and the simulator.  ``frames`` lists ``(path, full)`` in order;
    :meth:`write_gif` assembles the frames into an animated GIF.
    """

    def __init__(self, caps: PanelSpec, directory: str | Path) -> None:
        self.caps = caps
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.frames: list[tuple[Path, bool]] = []
        self.asleep = True
        self.closed = False

    def show(self, image: Image.Image, full: bool) -> None:
        """Write the frame (a partial request on a panel without partial is full)."""
        if self.closed:
            raise PanelError(f"the {self.caps.name} file panel is closed")
        check_frame(self.caps, image)
        full = full or not self.caps.partial
        kind = "full" if full else "partial"
        path = self.directory / f"frame-{len(self.frames) + 1:04d}-{kind}.png"
        image.save(path, format="PNG")
        self.frames.append((path, full))
        self.asleep = False

    def sleep(self) -> None:
        """Nothing to power down; remembered for tests of the refresh loop."""
        self.asleep = True

    def close(self) -> None:
        """Idempotent."""
        self.closed = True

    def write_gif(self, path: str | Path, frame_ms: int = 800) -> Path:
        """Assemble the frames written so far into an animated GIF at ``path``."""
        if not self.frames:
            raise PanelError("no frames were shown, so there is no GIF to write")
        images = []
        for p, _ in self.frames:
            with Image.open(p) as im:
                images.append(im.convert("RGB"))
        out = Path(path)
        images[0].save(out, format="GIF", save_all=True, append_images=images[1:],
                       duration=frame_ms, loop=0)
        return out
