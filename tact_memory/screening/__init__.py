"""Screening, pure: the checkpoint text and its look-alikes, the secret screen, and the escaping
that makes stored text safe to show in a terminal.

No I/O and no third-party imports at module level. May import only ``limits``.
"""
