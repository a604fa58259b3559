"""What a command says when it reads its standard input from a terminal.

Kept apart from the click commands, which the console entry point must not import to run
``tool``; it imports only the standard library.
"""

from __future__ import annotations

import os
import sys


def say_waiting(what: str) -> None:
    """Say on stderr what a command waits for when its standard input is a terminal: a person who
    ran it without its argument would otherwise look at a silent prompt."""
    isatty = getattr(sys.stdin, "isatty", None)  # a stand-in stream may have none
    try:
        terminal = callable(isatty) and bool(isatty())
    except (OSError, ValueError):  # closed
        terminal = False
    if terminal and sys.stderr is not None:
        key = "Ctrl-Z then Enter" if os.name == "nt" else "Ctrl-D on a line of its own"
        sys.stderr.write(f"tact-memory: reading {what} from the terminal; end with {key}\n")
        sys.stderr.flush()
