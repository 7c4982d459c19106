"""The 2021 final as a network event: sixteen halls, every match between two of them
(``wuzi demo --linked``): the files (``setup``), the players (``play``), the run (``run``)."""
