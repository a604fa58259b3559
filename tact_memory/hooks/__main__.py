"""Run the prompt hook: ``python PATH/tact_memory/hooks/__main__.py [--config PATH] EVENT``.

This is the command ``tact-memory setup`` writes into a client's hooks: the interpreter that ran
setup, and this file by its absolute path. Run that way, it imports the hook from the folder that
holds this package, whatever the current folder or ``PYTHONPATH``, so the hook runs from compiled
bytecode like any module (a script given by path is compiled from source on every run) and loads
nothing of the package beyond :mod:`tact_memory.hooks.prompt_hook`. ``python -m tact_memory.hooks``
runs the same hook.
"""

from __future__ import annotations

import os
import sys

if not __package__:  # run by path: the first search entry is this folder; use the package's parent
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))

from tact_memory.hooks.prompt_hook import main  # noqa: E402 - after the search path is set

sys.exit(main(sys.argv[1:]))
