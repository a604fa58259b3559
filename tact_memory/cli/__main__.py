"""``python -m tact_memory.cli``: the same as the ``tact-memory`` command."""

from __future__ import annotations

from . import main

main()
