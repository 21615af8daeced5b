"""The match at one board: clocks, events, the match session (journal), the turn judge, the
presenter and the controller that routes events between them (pure; time passed in).

A regular package (not a namespace package) so that setuptools ships it in the wheel."""
