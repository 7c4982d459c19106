"""The director: the central service that owns the competition, assigns games to tables
and takes results from the hosts that own them."""
