"""Fixtures of the firmware tests (the helpers live in fwrun.py, a name no other test
directory uses, so ``from fwrun import ...`` always finds them)."""

from fwrun import run_firmware  # noqa: F401  (registers the fixture)
