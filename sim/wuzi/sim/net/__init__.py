"""The network between halls on one machine: a delaying, cuttable TCP proxy (``proxy``,
its pure timing core ``delay``) and two halls' Mosquittos bridged to a central one through
it (``halls``). Used by the linked bench and demo (issue 36) to run a 150 ms round trip,
jitter and a cut line without a network namespace."""
