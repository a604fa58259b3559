"""The one ``memory`` tool: its wire format, its results, its published schemas, and the role guard.

- :mod:`.wire`: the four calls and the one :func:`~.wire.decode` that validates them;
- :mod:`.results`: every result, success or refusal, and how records are written as JSON;
- :mod:`.schemas`: the name, description and JSON schemas a model or client is given;
- :mod:`.memory_tool` and :mod:`.guard`: the tool of one agent, and its role check.

May import: ``records``, ``errors``, ``limits`` and (for the secret screen of field names)
``screening``. Never SQLite, the runtime, a face or pydantic.
"""

from __future__ import annotations

from .guard import Dispatcher, Role
from .memory_tool import MemoryTool

__all__ = ["Dispatcher", "MemoryTool", "Role"]
