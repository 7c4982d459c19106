"""``wuzi demo --hall``: several events of one hall at once, each by its own rules, on one
broker and one set of hosts (``setup``: the venue file and the events' databases; ``run``:
the run; ``summary``: what the records show)."""
