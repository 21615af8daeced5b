"""Panel facts, the file panel and the Inky driver (with a recording Inky display)."""

from __future__ import annotations

import pytest
from PIL import Image

from bgboard.display.demos import DEMOS
from bgboard.display.inky import InkyPanel
from bgboard.display.panel import FilePanel, Panel, PanelError
from bgboard.display.panels import PANELS, UnknownPanelError, panel_spec
from bgboard.display.renderer import render


def test_panel_table():
    sizes = {name: (p.width, p.height) for name, p in PANELS.items()}
    assert sizes == {
        "waveshare-2in13": (250, 122), "waveshare-2in9": (296, 128),
        "waveshare-4in2": (400, 300), "waveshare-7in5": (800, 480),
        "inky-phat": (250, 122), "inky-what": (400, 300),
    }
    assert {n: p.min_text_px for n, p in PANELS.items()} == {
        "waveshare-2in13": 15, "waveshare-2in9": 13, "waveshare-4in2": 13,
        "waveshare-7in5": 14, "inky-phat": 15, "inky-what": 13,
    }
    assert not PANELS["inky-what"].partial and PANELS["waveshare-2in13"].partial
    with pytest.raises(UnknownPanelError, match="choose one of waveshare-2in13"):
        panel_spec("nope")


class RecordingInky:
    """Records what the bgboard driver hands to an ``inky`` display object
    (the attributes and methods of inky's InkyPHAT/InkyWHAT classes)."""

    WHITE, BLACK, RED = 0, 1, 2

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.calls: list[tuple] = []

    def set_border(self, colour: int) -> None:
        self.calls.append(("set_border", colour))

    def set_image(self, image: Image.Image) -> None:
        self.calls.append(("set_image", image.mode, image.tobytes()))

    def show(self) -> None:
        self.calls.append(("show",))


def test_inky_gets_palette_indices_and_a_full_refresh():
    spec = PANELS["inky-what"]
    fake = RecordingInky(400, 300)
    panel = InkyPanel(spec, fake)
    assert isinstance(panel, Panel)
    frame = render(DEMOS["illegal-move"], spec)
    panel.show(frame, full=False)
    assert fake.calls[0] == ("set_border", 0)
    assert fake.calls[1][0:2] == ("set_image", "P")
    assert set(fake.calls[1][2]) == {0, 1, 2}  # white, black, red indices as inky expects
    assert fake.calls[2] == ("show",)
    panel.close()
    panel.close()
    with pytest.raises(PanelError):
        panel.show(frame, full=True)


def test_inky_of_another_size_is_refused():
    with pytest.raises(PanelError, match="212x104"):
        InkyPanel(PANELS["inky-phat"], RecordingInky(212, 104))


def test_file_panel_checks_frames(tmp_path):
    panel = FilePanel(PANELS["inky-phat"], tmp_path)
    with pytest.raises(ValueError, match="mode P"):
        panel.show(Image.new("1", (250, 122)), full=True)
    panel.show(render(DEMOS["hint"], PANELS["inky-phat"]), full=False)
    assert panel.frames[0][1] is True  # no partial refresh on Inky: recorded as full
    with pytest.raises(PanelError, match="no frames"):
        FilePanel(PANELS["inky-phat"], tmp_path / "empty").write_gif(tmp_path / "x.gif")


def test_open_panel_gives_a_file_panel_with_the_caps(tmp_path):
    from bgboard.display.drivers import open_panel

    panel = open_panel("waveshare-7in5", frames_dir=tmp_path)
    assert isinstance(panel, FilePanel) and panel.caps is PANELS["waveshare-7in5"]
    with pytest.raises(UnknownPanelError):
        open_panel("nope", frames_dir=tmp_path)


def test_hardware_libraries_are_not_imported_by_the_display_package():
    import subprocess
    import sys

    code = (
        "import sys, bgboard.display.renderer, bgboard.display.refresh, bgboard.display.screen,"
        " bgboard.display.waveshare, bgboard.display.uc8179, bgboard.display.inky,"
        " bgboard.display.drivers, bgboard.commands.render;"
        " bad = [m for m in ('spidev', 'inky', 'gpiozero', 'RPi', 'lgpio') if m in sys.modules];"
        " print(bad); sys.exit(1 if bad else 0)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
