"""Shared fixtures of the button tests."""

from tests.control.guard import no_leftover_tasks  # noqa: F401  (autouse)
