"""Tests of bgboard.match."""
