"""Shared fixtures of the controller and app tests."""

from tests.control.guard import no_leftover_tasks  # noqa: F401  (autouse)
