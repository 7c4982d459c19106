"""The simulated final that ``wuzi demo``, ``wuzi bench venue`` and tests/e2e run: the venue's
files (``setup``), its processes (``procs``), the players and floor referee at every table
(``hands``), the faults (``faults``, ``net_proxy``: a network cable that can be cut), the
screen probe (``probe``), the run itself (``run``) and the checks of its outcome (``check``)."""
