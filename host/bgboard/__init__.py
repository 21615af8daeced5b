"""bgboard: the backgammon board companion.

Layers (imports point one way only, downwards):

* ``bgboard.rules``   positions, dice, legal plays and steps, notation, IDs (pure)
* ``bgboard.match``   match/cube/Crawford state machine and records (pure)
* ``bgboard.sense``   sensor observations and play recognition (pure)
* ``bgboard.link``    wire codec (pure) and serial transport (adapter)
* ``bgboard.display`` renderer (pure) and panel drivers (adapters)
* ``bgboard.hints``   engine interface and backends
* ``bgboard.store``   SQLite journal (adapter)
* ``bgboard.io``      GPIO buttons (adapter)
* ``bgboard.sim``     the board simulator
* ``bgboard.app`` / ``bgboard.cli``   wiring only
"""

__version__ = "0.1.0"
__all__ = ["__version__"]
