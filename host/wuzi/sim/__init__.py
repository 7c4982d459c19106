"""Virtual sensor boards and clock units that run the firmware logic over ptys, with faults.

``fw_board``, ``fw_matrix`` and ``fw_fake_machine`` *are* the files of ``firmware/`` (symbolic
links in the source tree, copies in a built wheel), so the simulator runs the MCU's own code.
"""
