import sys

from bgboard.cli import main

sys.exit(main())
