"""The club: players, events, results, ratings (issue 11) and the room's live boards and pages."""
